"""The attack suite (issue 13): a real `remedy serve` on loopback, hostile traffic bounded in count and time,
and what the worker must do under it. Figures (RSS, latency, cost ratios) are bench/attack.py's; here only
behaviour, and memory bounds loose enough not to depend on the machine."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.attacks import (
    Flood,
    Server,
    big_header,
    config_body,
    free_port,
    long_url,
    many_headers,
    slow_bodies,
    slow_headers,
    start_server,
    stop_server,
    timed,
    word_query,
)

LIMITS = {"REMEDY_HEADER_TIMEOUT": "1", "REMEDY_BODY_TIMEOUT": "1", "REMEDY_SHUTDOWN_GRACE": "1.5"}


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    s = start_server(LIMITS)
    yield s
    stop_server(s)


def test_slow_headers_are_dropped_at_the_deadline(server: Server) -> None:
    closed = slow_headers(server.port, connections=40, hold=2.0)
    assert closed == 40
    assert server.request("GET", "/healthz")[0] == 200


def test_slow_bodies_get_408(server: Server) -> None:
    statuses = slow_bodies(server.port, connections=10, hold=3.0)
    assert statuses == [408] * 10


@pytest.mark.parametrize("size", [20_000, 4 * 1024 * 1024])
def test_oversized_headers_get_431_and_cost_no_memory(server: Server, size: int) -> None:
    before = server.rss()
    assert all(big_header(server.port, size) == 431 for _ in range(5))
    assert server.rss() - before < 50  # 5 x 4 MiB read, none kept


def test_too_many_header_fields_get_431(server: Server) -> None:
    assert many_headers(server.port, 200) == 431
    assert many_headers(server.port, 40) == 200


def test_an_address_over_64_kib_gets_414(server: Server) -> None:
    assert long_url(server.port, 70_000) == 414
    assert long_url(server.port, 2_000) == 200


def test_distinct_heavy_requests_keep_memory_bounded_and_health_answering(server: Server) -> None:
    before = server.rss()
    stop = threading.Event()
    floods = [Flood(server.port, "/v1/diagnose", word_query, threads=2, limit=150),
              Flood(server.port, "/v1/config/check", lambda rng: config_body(rng, 100_000), threads=1, limit=40)]
    runners = [threading.Thread(target=f.run, args=(stop,)) for f in floods]
    for r in runners:
        r.start()
    health = []
    while any(r.is_alive() for r in runners):
        health.append(timed(server, "GET", "/healthz"))
        time.sleep(0.05)
    for r in runners:
        r.join()
    statuses = {s for f in floods for s in f.statuses}
    assert statuses <= {200, 422, 503}, floods  # answered or refused, never a server error
    assert {s for s, _ in health} == {200}
    assert max(ms for _, ms in health) < 2_000
    assert server.rss() - before < 50


def test_sigterm_turns_readiness_off_before_the_listener_closes() -> None:
    s = start_server({**LIMITS, "REMEDY_SHUTDOWN_GRACE": "1.5"})
    try:
        sent = time.monotonic()
        s.proc.send_signal(signal.SIGTERM)
        time.sleep(0.3)
        assert s.request("GET", "/readyz")[0] == 503
        assert s.request("GET", "/healthz")[0] == 200
        assert s.request("GET", "/v1/symptoms")[0] == 200  # still serving during the grace period
        # Then a graceful shutdown; uvicorn re-raises the signal it handled once it is done, as a supervisor expects.
        assert s.proc.wait(15) in (0, -signal.SIGTERM)
        assert time.monotonic() - sent >= 1.5
    finally:
        stop_server(s)


def alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def wait_gone(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not alive(pid)


LARGE = b'{"query": "CUDA out of memory at step 2. ' + b"the rest of a long pasted log line " * 400 + b'"}'


def test_the_heavy_lane_process_lives_through_a_group_sigterm_and_ends_with_the_worker() -> None:
    """A supervisor's SIGTERM to the whole process group (`timeout`, systemd): the worker drains, its child keeps
    computing large requests meanwhile, and ends with it."""
    s = start_server({**LIMITS, "REMEDY_SHUTDOWN_GRACE": "1.5"})
    try:
        (child,) = s.children()
        assert s.request("POST", "/v1/diagnose", LARGE, {"Content-Type": "application/json"})[0] == 200
        os.killpg(s.pid, signal.SIGTERM)
        time.sleep(0.3)
        assert s.request("GET", "/readyz")[0] == 503
        assert s.request("POST", "/v1/diagnose", LARGE, {"Content-Type": "application/json"})[0] == 200
        assert alive(child)
        assert s.proc.wait(15) in (0, -signal.SIGTERM)
        assert wait_gone(child, 5)
        assert "Traceback" not in s.log.read_text(errors="replace")  # a clean shutdown, the lane's close included
    finally:
        stop_server(s)


def test_the_heavy_lane_process_dies_with_a_killed_worker() -> None:
    s = start_server(LIMITS)
    try:
        (child,) = s.children()
        s.proc.kill()
        s.proc.wait(10)
        assert wait_gone(child, 5)
    finally:
        stop_server(s)


def test_a_worker_that_cannot_become_ready_exits_non_zero(tmp_path: Path) -> None:
    # Run the worker directly (no pre-check): the knowledge is loaded after binding and fails.
    knowledge = tmp_path / "knowledge"
    knowledge.mkdir()
    argv = [sys.executable, "-m", "uvicorn", "remedy.http.app:serve_app", "--factory", "--host", "127.0.0.1"]
    port = free_port()
    s = start_server({"REMEDY_KNOWLEDGE_DIR": str(knowledge)}, port=port, argv=[*argv, "--port", str(port)],
                     wait=False)
    try:
        assert s.proc.wait(30) == 3
    finally:
        stop_server(s)


def test_serve_refuses_to_start_on_a_corrupt_catalog(tmp_path: Path) -> None:
    import shutil

    from remedy.settings import ROOT

    locales = tmp_path / "locales"
    shutil.copytree(ROOT / "locales", locales)
    (locales / "de" / "LC_MESSAGES" / "remedy.mo").write_bytes(b"not a catalog")
    s = start_server({"REMEDY_LOCALES_DIR": str(locales)}, wait=False)
    try:
        assert s.proc.wait(30) == 1  # EXIT_INVALID_KNOWLEDGE (cli.py)
        assert "catalog-unreadable" in s.log.read_text()
    finally:
        stop_server(s)
