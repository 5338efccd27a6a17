"""The heavy lane in a thread (issue 13, `REMEDY_HEAVY_LANE=thread`): a large request computes in a thread of its
own, so a normal request is answered while it computes; every other request computes on the event loop.
Behaviour only; the latencies under a flood are measured by bench/attack.py. The lane in a process of its own:
test_lane_process.py."""

from __future__ import annotations

import asyncio
import json
import sys
import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient

from remedy.http import work
from remedy.http.app import create_app
from remedy.runtime import Runtime
from tests.http.test_limits import Message, http_scope, run_async, settings_of

LARGE = "CUDA out of memory at step 2. " + "the rest of a long pasted log line " * 400  # over 8 KiB
SMALL = "CUDA out of memory at step 2"


def recording(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[str]:
    """Wrap a router's answer function to record the thread each call computes in."""
    threads: list[str] = []
    real = getattr(module, name)

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread().name)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, wrapped)
    return threads


def test_a_large_request_computes_in_the_lane_and_a_small_one_on_the_loop(
        runtime: Runtime, monkeypatch: pytest.MonkeyPatch) -> None:
    threads = recording(monkeypatch, work, "answer_diagnosis")
    app = create_app(settings_of(runtime, heavy_lane="thread", response_cache_bytes=0), runtime=runtime)
    with TestClient(app) as client:
        small = client.post("/v1/diagnose", json={"query": SMALL})
        large = client.post("/v1/diagnose", json={"query": LARGE})
    assert small.status_code == large.status_code == 200
    assert small.json()["symptom"]["id"] == large.json()["symptom"]["id"] == "oom-early-steps"
    loop_thread, lane_thread = threads
    assert not loop_thread.startswith("remedy-heavy") and lane_thread.startswith("remedy-heavy")


def test_the_bound_of_a_large_request_is_the_setting(runtime: Runtime, monkeypatch: pytest.MonkeyPatch) -> None:
    threads = recording(monkeypatch, work, "answer_config_check")
    app = create_app(settings_of(runtime, heavy_lane="thread", response_cache_bytes=0, heavy_bytes=1024),
                     runtime=runtime)
    yaml_text = "job: train\nconfig:\n  process:\n  - train: {batch_size: 2}\n"
    with TestClient(app) as client:
        short = client.post("/v1/config/check", json={"config_yaml": yaml_text})
        long = client.post("/v1/config/check", json={"config_yaml": yaml_text + "#" + "x" * 2000 + "\n"})
    assert short.status_code == long.status_code == 200
    assert short.json()["context"] == long.json()["context"]
    assert [t.startswith("remedy-heavy") for t in threads] == [False, True]


def test_a_request_with_large_headers_computes_in_the_lane(runtime: Runtime, monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """A 15 KB `Accept-Language` costs little to negotiate, but a flood of distinct ones misses the response
    cache every time: large by its headers, it computes beside the loop as a large body does."""
    threads = recording(monkeypatch, work, "answer_diagnosis")
    app = create_app(settings_of(runtime, heavy_lane="thread", response_cache_bytes=0), runtime=runtime)
    tags = ",".join(f"x{i:05d}" for i in range(1500))  # 10.5 KB of tags no language matches
    with TestClient(app) as client:
        short = client.post("/v1/diagnose", json={"query": SMALL}, headers={"Accept-Language": "es"})
        long = client.post("/v1/diagnose", json={"query": SMALL}, headers={"Accept-Language": "es," + tags})
    assert short.status_code == long.status_code == 200
    assert short.json()["steps"] == long.json()["steps"]
    assert [t.startswith("remedy-heavy") for t in threads] == [False, True]


async def post(app: Any, query: str, order: list[str], name: str, answered: threading.Event | None = None
               ) -> tuple[int, list[tuple[bytes, bytes]]]:
    """One POST /v1/diagnose straight to the ASGI app: its status and headers; `name` joins `order` when the
    answer is complete."""
    body = json.dumps({"query": query}).encode()
    delivered = False
    start: Message = {}

    async def receive() -> Message:
        nonlocal delivered
        if delivered:
            await asyncio.sleep(3600)
        delivered = True
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: Message) -> None:
        if message["type"] == "http.response.start":
            start.update(message)
        elif message["type"] == "http.response.body" and not message.get("more_body"):
            order.append(name)
            if answered is not None:
                answered.set()

    await app(http_scope(app, "POST", "/v1/diagnose"), receive, send)
    return start["status"], list(start["headers"])


def blocking_large_answers(monkeypatch: pytest.MonkeyPatch, until: threading.Event) -> None:
    """A large query's answer waits for `until` (at most 10 s) before it is computed."""
    real = work.answer_diagnosis

    def answer(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("query") == LARGE:
            assert until.wait(10), "the large request was held past the end of the test"
        return real(*args, **kwargs)

    monkeypatch.setattr(work, "answer_diagnosis", answer)


def test_a_normal_request_is_answered_while_a_large_one_computes(
        runtime: Runtime, monkeypatch: pytest.MonkeyPatch) -> None:
    """The large request's computation waits until the normal one is answered: on the event loop it would
    block it (and this test would fail at the timeout); in the lane the normal one goes through."""
    normal_answered = threading.Event()
    blocking_large_answers(monkeypatch, normal_answered)
    app = create_app(settings_of(runtime, heavy_lane="thread", response_cache_bytes=0), runtime=runtime)
    order: list[str] = []

    async def scenario() -> list[int]:
        large = asyncio.create_task(post(app, LARGE, order, "large"))
        await asyncio.sleep(0.05)  # the large one is computing (and waiting) in the lane
        normal = await post(app, SMALL, order, "normal", normal_answered)
        return [normal[0], (await large)[0]]

    assert run_async(scenario()) == [200, 200]
    assert order == ["normal", "large"]


def test_large_requests_past_their_limit_get_503_and_normal_ones_still_go_through(
        runtime: Runtime, monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()
    blocking_large_answers(monkeypatch, release)
    app = create_app(settings_of(runtime, heavy_lane="thread", response_cache_bytes=0, max_heavy=1), runtime=runtime)
    order: list[str] = []

    async def scenario() -> list[tuple[int, list[tuple[bytes, bytes]]]]:
        held = asyncio.create_task(post(app, LARGE, order, "held"))
        await asyncio.sleep(0.05)  # the first large request holds the only place
        refused = await post(app, LARGE, order, "refused")
        normal = await post(app, SMALL, order, "normal")
        release.set()
        return [await held, refused, normal]

    held, refused, normal = run_async(scenario())
    assert (held[0], refused[0], normal[0]) == (200, 503, 200)
    assert (b"retry-after", b"1") in refused[1]
    assert order == ["refused", "normal", "held"]


def test_the_app_sets_the_switch_interval_while_it_serves(runtime: Runtime) -> None:
    before = sys.getswitchinterval()
    try:
        with TestClient(create_app(settings_of(runtime, heavy_lane="thread", switch_interval=0.0007), runtime=runtime)):
            assert sys.getswitchinterval() == pytest.approx(0.0007)
    finally:
        sys.setswitchinterval(before)


def test_the_lane_trims_the_c_heap_after_a_large_request(runtime: Runtime) -> None:
    app = create_app(settings_of(runtime, heavy_lane="thread", response_cache_bytes=0), runtime=runtime)
    trims: list[str] = []
    with TestClient(app) as client:
        lane = next(m.kwargs["lane"] for m in app.user_middleware if "lane" in m.kwargs)
        lane.trim = lambda: trims.append(threading.current_thread().name)
        client.post("/v1/diagnose", json={"query": SMALL})
        assert trims == []  # a normal request leaves the heap alone
        assert client.post("/v1/diagnose", json={"query": LARGE}).status_code == 200
        lane.executor.submit(lambda: None).result(5)  # what the lane queued after the answer has run
    assert len(trims) == 1 and trims[0].startswith("remedy-heavy")
