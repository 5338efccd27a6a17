"""The heavy lane in a process of its own (issue 13, `REMEDY_HEAVY_LANE=process`, the default): a large request
crosses to the worker's child process as bytes and its answer comes back the same as computed in the worker;
admission, the deadline, a dead child (503, then a new one) and readiness. Behaviour only; the latencies under a
flood are measured by bench/attack.py. Over a real socket (SIGTERM, the child's descriptors): test_attacks.py."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient
from pydantic import ValidationError

from remedy.http import lane_process, work
from remedy.http.app import create_app
from remedy.http.lane import ThreadLane
from remedy.http.lane_process import ProcessLane
from remedy.runtime import Runtime
from remedy.settings import Settings
from tests.conftest import FIXTURES, REPO
from tests.http.test_lane import LARGE, SMALL, post
from tests.http.test_limits import Message, http_scope, run_async, settings_of

PAD = "\n" + "the rest of a long pasted training log line\n" * 220  # over 8 KiB


def large_requests() -> list[tuple[str, str, dict[str, Any] | None]]:
    """(method, path, JSON body) of large requests of every kind: queries in six languages, configs, errors."""
    items = yaml.safe_load((REPO / "tests" / "understanding" / "queries.yaml").read_text(encoding="utf-8"))
    out: list[tuple[str, str, dict[str, Any] | None]] = []
    for item in items[::9]:
        out.append(("POST", "/v1/diagnose", {"query": item["q"] + PAD, "lang": item["lang"]}))
        out.append(("POST", "/v1/diagnose", {"query": PAD + item["q"], "context": {"batch_size": 4}}))
    for path in sorted((FIXTURES / "aitk-configs").glob("*.yaml"))[:12]:
        text = path.read_text(encoding="utf-8") + "#" + "x" * 9000 + "\n"
        out.append(("POST", "/v1/config/check", {"config_yaml": text, "lang": "ko"}))
        out.append(("POST", "/v1/diagnose", {"config_yaml": text, "query": "OOM at step 3", "lang": "de"}))
    out += [
        ("POST", "/v1/diagnose", {"symptom": "no-such-symptom", "query": LARGE}),  # 422 raised in the lane
        ("POST", "/v1/config/check", {"config_yaml": "job: extension\n#" + "x" * 9000}),  # 422 invalid-config
        ("POST", "/v1/config/check", {"config_yaml": "job: [\n" + "#" * 9000}),  # 422 broken YAML
        ("GET", "/v1/search?q=" + "gradient+checkpointing+out+of+memory+" * 50, None),
        ("GET", "/help/fr/troubleshoot?q=" + "CUDA+out+of+memory+at+step+2+" * 350, None),
    ]
    return out


def answers(app: Any) -> list[tuple[int, bytes]]:
    with TestClient(app) as client:
        lane = app.state.lane
        if isinstance(lane, ProcessLane):
            assert lane.pid is not None and lane.fallback is None  # a child computes them, not a thread
        return [(r.status_code, r.content) for r in
                (client.request(method, path, json=body) for method, path, body in large_requests())]


def test_large_requests_are_answered_byte_for_byte_as_in_the_worker(runtime: Runtime) -> None:
    in_process = answers(create_app(settings_of(runtime, heavy_lane="off", response_cache_bytes=0), runtime=runtime))
    in_child = answers(create_app(settings_of(runtime, heavy_lane="process", response_cache_bytes=0),
                                  runtime=runtime))
    assert len(in_child) == len(in_process) > 40
    assert {status for status, _ in in_process} == {200, 422}
    for (status, body), (status_child, body_child) in zip(in_process, in_child, strict=True):
        assert (status_child, body_child) == (status, body)


def test_a_spawned_child_loads_the_knowledge_and_answers_the_same(runtime: Runtime) -> None:
    """Where fork is not safe (macOS), the child is a fresh interpreter: same answers."""
    settings = settings_of(runtime, response_cache_bytes=0)
    request = {"query": LARGE, "lang": "es"}

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        lane = ProcessLane(settings, method="spawn")
        await lane.start(runtime)
        try:
            assert lane.ready and lane.fallback is None and lane.method == "spawn"
            unit = work.Work("diagnose", runtime.catalogs.negotiate("es", None), {"query": LARGE})
            return await lane.run(runtime, unit), work.perform(runtime, unit)
        finally:
            lane.close()

    in_child, in_worker = run_async(scenario())
    assert in_child == in_worker and in_child["lang"] == request["lang"]


def held_in_the_child(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> tuple[Path, Path]:
    """A large query's answer, in the child (forked after this patch), says it started (`started` appears),
    then waits until `release` exists (at most 20 s)."""
    started, release = tmp_path / "started", tmp_path / "release"
    real = work.answer_diagnosis

    def answer(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("query") == LARGE:
            started.touch()
            deadline = time.monotonic() + 20
            while not release.exists() and time.monotonic() < deadline:
                time.sleep(0.01)
        return real(*args, **kwargs)

    monkeypatch.setattr(work, "answer_diagnosis", answer)
    return started, release


async def until(condition: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


async def get(app: Any, path: str) -> int:
    sent: list[Message] = []

    async def receive() -> Message:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        sent.append(message)

    await app(http_scope(app, "GET", path), receive, send)
    return int(sent[0]["status"])


def test_a_killed_child_gives_503_then_a_new_child_answers(runtime: Runtime, monkeypatch: pytest.MonkeyPatch,
                                                           tmp_path: Path) -> None:
    started, release = held_in_the_child(monkeypatch, tmp_path)
    app = create_app(settings_of(runtime, response_cache_bytes=0), runtime=runtime)
    order: list[str] = []

    async def scenario() -> dict[str, Any]:
        lane: ProcessLane = app.state.lane
        await lane.start(runtime)
        try:
            first = lane.pid
            assert first is not None and await get(app, "/readyz") == 200
            held = asyncio.create_task(post(app, LARGE, order, "held"))
            await until(started.exists)
            os.kill(first, signal.SIGKILL)
            status, headers = await asyncio.wait_for(held, 5)
            ready_while_down = await get(app, "/readyz")
            small = (await post(app, SMALL, order, "small"))[0]
            await until(lambda: lane.ready)
            release.touch()
            return {"held": status, "retry": (b"retry-after", b"1") in headers, "down": ready_while_down,
                    "small": small, "new": lane.pid != first, "ready": await get(app, "/readyz"),
                    "after": (await post(app, LARGE, order, "after"))[0]}
        finally:
            lane.close()

    assert run_async(scenario()) == {"held": 503, "retry": True, "down": 503, "small": 200, "new": True,
                                     "ready": 200, "after": 200}


def test_a_request_past_the_deadline_gets_503_and_the_child_is_replaced(
        runtime: Runtime, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    started, release = held_in_the_child(monkeypatch, tmp_path)
    app = create_app(settings_of(runtime, response_cache_bytes=0, heavy_timeout=0.5), runtime=runtime)

    async def scenario() -> tuple[int, bool, int]:
        lane: ProcessLane = app.state.lane
        await lane.start(runtime)
        try:
            first = lane.pid
            status = (await post(app, LARGE, [], "late"))[0]
            assert started.exists()
            release.touch()
            await until(lambda: lane.ready)
            return status, lane.pid != first, (await post(app, LARGE, [], "after"))[0]
        finally:
            lane.close()

    assert run_async(scenario()) == (503, True, 200)


def test_large_requests_past_their_limit_get_503_while_the_child_computes(
        runtime: Runtime, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    started, release = held_in_the_child(monkeypatch, tmp_path)
    app = create_app(settings_of(runtime, response_cache_bytes=0, max_heavy=1), runtime=runtime)
    order: list[str] = []

    async def scenario() -> list[int]:
        lane: ProcessLane = app.state.lane
        await lane.start(runtime)
        try:
            held = asyncio.create_task(post(app, LARGE, order, "held"))
            await until(started.exists)
            refused = (await post(app, LARGE, order, "refused"))[0]
            normal = (await post(app, SMALL, order, "normal"))[0]
            release.touch()
            return [(await held)[0], refused, normal]
        finally:
            lane.close()

    assert run_async(scenario()) == [200, 503, 200]
    assert order == ["refused", "normal", "held"]


def test_readiness_waits_for_the_child(runtime: Runtime) -> None:
    app = create_app(settings_of(runtime), runtime=runtime)

    async def scenario() -> tuple[int, int, int]:
        lane: ProcessLane = app.state.lane
        before = await get(app, "/readyz")  # the knowledge is loaded, the child not started yet
        await lane.start(runtime)
        up = await get(app, "/readyz")
        lane.close()
        return before, up, await get(app, "/healthz")

    assert run_async(scenario()) == (503, 200, 200)


def test_without_a_child_process_the_thread_lane_computes(runtime: Runtime, monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    def no_fork(*args: Any) -> int:
        raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(lane_process, "_fork", no_fork)
    app = create_app(settings_of(runtime, response_cache_bytes=0), runtime=runtime)
    with TestClient(app) as client:
        assert isinstance(app.state.lane.fallback, ThreadLane)
        assert client.get("/readyz").status_code == 200
        r = client.post("/v1/diagnose", json={"query": LARGE})
    assert r.status_code == 200 and r.json()["symptom"]["id"] == "oom-early-steps"


def test_an_unknown_lane_is_refused_naming_the_closest(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REMEDY_HEAVY_LANE", "proces")
    with pytest.raises(ValidationError, match="did you mean process"):
        Settings()
    monkeypatch.setenv("REMEDY_HEAVY_LANE", "Thread")
    assert Settings().heavy_lane == "thread"
    with pytest.raises(ValidationError, match="heavy_lane must be process, thread or off"):
        Settings(heavy_lane="gpu")
    with pytest.raises(ValidationError):
        Settings(heavy_timeout=0)


def test_the_child_keeps_no_descriptor_of_the_worker(runtime: Runtime) -> None:
    """Only its socket and the standard streams: the listener and the clients' connections stay the worker's."""
    with TestClient(create_app(settings_of(runtime), runtime=runtime)) as client:
        client.get("/readyz")
        pid = client.app.state.lane.pid  # type: ignore[attr-defined]
        fds = sorted(int(fd) for fd in os.listdir(f"/proc/{pid}/fd"))
        nice = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])
    assert len(fds) == 4 and fds[:3] == [0, 1, 2]
    assert nice == lane_process.NICE + os.nice(0)


def test_the_child_computes_under_the_requests_ids(runtime: Runtime, monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    """What the child logs while it computes a request carries that request's id, as the worker's lines do."""
    from remedy.http.logconfig import REQUEST_ID

    seen = tmp_path / "seen"
    real = work.answer_diagnosis

    def answer(*args: Any, **kwargs: Any) -> Any:
        seen.write_text(f"{os.getpid()} {REQUEST_ID.get()}")
        return real(*args, **kwargs)

    monkeypatch.setattr(work, "answer_diagnosis", answer)
    app = create_app(settings_of(runtime, response_cache_bytes=0), runtime=runtime)
    with TestClient(app) as client:
        response = client.post("/v1/diagnose", json={"query": LARGE}, headers={"X-Request-ID": "support-4711"})
        child = app.state.lane.pid
    assert response.status_code == 200 and response.headers["x-request-id"] == "support-4711"
    assert seen.read_text() == f"{child} support-4711"
