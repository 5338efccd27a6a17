"""`remedy serve` with two workers, as an operator runs it: one log stream of JSON lines (uvicorn's too),
counters that add up across the workers, and /metrics on a port of its own when asked."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, subprocess.Popen[bytes]]]:
    port, metrics_port = free_port(), free_port()
    log = tmp_path_factory.mktemp("serve") / "log"
    env = {**os.environ, "REMEDY_PORT": str(port), "REMEDY_WORKERS": "2", "REMEDY_METRICS_PORT": str(metrics_port)}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "remedy.cli", "serve"], env=env, stdout=out, stderr=out,
                                cwd=tmp_path_factory.mktemp("cwd"))
    base, metrics = f"http://127.0.0.1:{port}", f"http://127.0.0.1:{metrics_port}/metrics"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if get(base + "/readyz")[0] == 200:
                    break
            except OSError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        yield base, metrics, proc
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    lines = [line for line in log.read_text().splitlines() if line.strip()]
    assert lines and all(json.loads(line)["time"].endswith("Z") for line in lines), lines[:5]
    assert any(json.loads(line)["logger"].startswith("uvicorn") for line in lines)


def test_counters_add_up_across_workers(server: tuple[str, str, subprocess.Popen[bytes]]) -> None:
    base, metrics, _ = server
    for _ in range(40):
        assert get(base + "/v1/steps?lang=fr")[0] == 200

    def total() -> tuple[float, str]:
        text = get(metrics)[1]
        line = next((x for x in text.splitlines()
                     if x.startswith('remedy_requests_total{method="GET",route="/v1/steps",status="200"}')), " 0")
        return float(line.rsplit(" ", 1)[1]), text

    # A request is counted once its answer has gone out (its log line and count come after the last byte): the
    # 40th may still be being counted when its client has the answer, so wait for it (at most 5 s) ...
    deadline = time.monotonic() + 5
    while total()[0] < 40 and time.monotonic() < deadline:
        time.sleep(0.05)
    totals = []
    for _ in range(5):  # ... then each scrape may be answered by another worker: the total must not jump
        value, text = total()
        totals.append(value)
    assert totals == [40.0] * 5
    assert text.count("remedy_worker_resident_memory_bytes{pid=") == 2
    # Each worker's heavy-lane child too; the worker that answered the scrape sampled its child just now.
    lanes = [float(x.rsplit(" ", 1)[1]) for x in text.splitlines()
             if x.startswith("remedy_heavy_lane_resident_memory_bytes{pid=")]
    assert len(lanes) == 2 and max(lanes) > 10_000_000


def test_metrics_are_not_on_the_api_port_when_they_have_their_own(
    server: tuple[str, str, subprocess.Popen[bytes]],
) -> None:
    base, _, _ = server
    assert get(base + "/metrics")[0] == 404
