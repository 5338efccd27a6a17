"""What one request may take from a worker (issue 13), in process: headers, bodies, concurrency, caches in
bytes, HEAD, readiness while draining, the start-up pre-check. The same over a real socket: test_attacks.py."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import MutableMapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from remedy.content.problems import ContentProblems
from remedy.http.app import create_app, precheck
from remedy.http.cache import ResponseCache
from remedy.http.guards import ConcurrencyLimit
from remedy.runtime import Runtime
from remedy.settings import Settings

Message = MutableMapping[str, Any]


def settings_of(runtime: Runtime, **update: Any) -> Settings:
    return Settings(**{**runtime.settings.model_dump(), **update})


def app_with(runtime: Runtime, **update: Any) -> Any:
    return create_app(settings_of(runtime, **update), runtime=runtime)


# --- headers -------------------------------------------------------------------------------------------------


def test_headers_over_the_size_limit_get_431(runtime: Runtime) -> None:
    with TestClient(app_with(runtime, max_header_bytes=4096), raise_server_exceptions=False) as c:
        r = c.get("/v1/symptoms", headers={"Accept-Language": "es", "X-Padding": "x" * 5000})
        ok = c.get("/v1/symptoms", headers={"Accept-Language": "es", "X-Padding": "x" * 1000})
    assert r.status_code == 431 and r.json()["code"] == "headers-too-large"
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["lang"] == "es"  # negotiated from the one header it still reads
    assert ok.status_code == 200


def test_more_header_fields_than_the_limit_get_431(runtime: Runtime) -> None:
    with TestClient(app_with(runtime, max_headers=16), raise_server_exceptions=False) as c:
        r = c.get("/healthz", headers={f"X-H{i}": "1" for i in range(20)})
    assert r.status_code == 431


def test_a_huge_accept_language_is_refused_not_cached(runtime: Runtime) -> None:
    app = app_with(runtime)
    with TestClient(app, raise_server_exceptions=False) as c:
        r = c.post("/v1/diagnose", json={"query": "OOM at step 2"}, headers={"Accept-Language": "a" * 100_000})
    assert r.status_code == 431


# --- HEAD --------------------------------------------------------------------------------------------------------

PATH_VALUES = {"symptom_id": "oom-early-steps", "guide_id": "gradient-checkpointing-oom", "lang": "en",
               "name": "remedy.css"}


def get_paths(app: Any) -> list[str]:
    """Every documented GET route, plus the pages left out of the OpenAPI document."""
    documented = [p for p, ops in app.openapi()["paths"].items() if "get" in ops]
    paths = []
    for path in [*documented, "/help", "/help/en", "/static/{name}", "/openapi.json", "/docs"]:
        for key, value in PATH_VALUES.items():
            path = path.replace("{" + key + "}", value)
        paths.append(path)
    return paths


def test_every_get_route_answers_head_without_a_body(client: TestClient) -> None:
    paths = get_paths(client.app)
    assert "/healthz" in paths and "/v1/symptoms/oom-early-steps" in paths and len(paths) >= 15
    for path in paths:
        get = client.get(path, follow_redirects=False)
        head = client.head(path, follow_redirects=False)
        assert head.status_code == get.status_code, path
        assert head.content == b"", path
        assert head.headers.get("etag") == get.headers.get("etag"), path


# --- bodies and concurrency ---------------------------------------------------------------------------------------


def run_async(coro: Any) -> Any:
    """`asyncio.run` in a thread of its own: the browser tests leave an event loop running in this one."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def call(app: Any, scope: dict[str, Any], chunks: list[tuple[float, bytes, bool]]) -> list[Message]:
    """Drive an ASGI app directly: each chunk is (delay before it, bytes, more_body)."""
    sent: list[Message] = []
    pending = list(chunks)

    async def receive() -> Message:
        if not pending:
            await asyncio.sleep(3600)
        delay, body, more = pending.pop(0)
        await asyncio.sleep(delay)
        return {"type": "http.request", "body": body, "more_body": more}

    async def send(message: Message) -> None:
        sent.append(message)

    run_async(app(scope, receive, send))
    return sent


def http_scope(app: Any, method: str, path: str, headers: list[tuple[bytes, bytes]] | None = None) -> dict[str, Any]:
    return {"type": "http", "method": method, "path": path, "raw_path": path.encode(), "query_string": b"",
            "headers": headers or [(b"content-type", b"application/json")], "app": app, "http_version": "1.1",
            "scheme": "http", "server": ("127.0.0.1", 80), "client": ("127.0.0.1", 1), "root_path": ""}


def test_a_body_that_does_not_arrive_in_time_gets_408(runtime: Runtime) -> None:
    app = app_with(runtime, body_timeout=0.2)
    sent = call(app, http_scope(app, "POST", "/v1/diagnose"), [(0.0, b'{"query": "OOM', True), (1.0, b'"}', False)])
    assert sent[0]["status"] == 408
    assert b'"code":"request-timeout"' in sent[1]["body"]


def test_a_body_within_the_deadline_is_answered(runtime: Runtime) -> None:
    app = app_with(runtime, body_timeout=2.0)
    sent = call(app, http_scope(app, "POST", "/v1/diagnose"), [(0.0, b'{"query": "OOM', True), (0.05, b'"}', False)])
    assert sent[0]["status"] == 200


def test_requests_past_the_concurrency_limit_get_503_with_retry_after(runtime: Runtime) -> None:
    app = create_app(settings_of(runtime), runtime=runtime)
    release = asyncio.Event()

    async def slow(scope: Any, receive: Any, send: Any) -> None:
        if scope["path"] != "/healthz":
            await release.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"done"})

    limit = ConcurrencyLimit(slow, settings_of(runtime, max_concurrency=2), problem=_problem_of(app))

    async def scenario() -> list[int]:
        statuses: list[int] = []

        async def one(path: str) -> None:
            async def receive() -> Message:
                return {"type": "http.request", "body": b"", "more_body": False}

            async def send(message: Message) -> None:
                if message["type"] == "http.response.start":
                    statuses.append(message["status"])
                    if message["status"] == 503:
                        assert (b"retry-after", b"1") in message["headers"]

            await limit(http_scope(app, "GET", path), receive, send)

        tasks = [asyncio.create_task(one("/v1/search")) for _ in range(3)]
        await asyncio.sleep(0.05)
        await one("/healthz")  # operations routes are never refused: it answers although the limit is reached
        release.set()
        await asyncio.gather(*tasks)
        return statuses

    statuses = run_async(scenario())
    assert sorted(statuses) == [200, 200, 200, 503]
    assert limit.in_flight == 0


def _problem_of(app: Any) -> Any:
    from remedy.http.problems import asgi_problem

    return asgi_problem


# --- the response cache, in bytes ----------------------------------------------------------------------------------


def response_cache(app: Any) -> ResponseCache:
    layer = app.middleware_stack
    while not isinstance(layer, ResponseCache):
        layer = layer.app
    return layer


def test_the_response_cache_stays_within_its_bytes(runtime: Runtime) -> None:
    app = app_with(runtime, response_cache_bytes=200_000)
    with TestClient(app) as c:
        for i in range(120):
            assert c.post("/v1/diagnose", json={"query": f"OOM at step {i} with batch {i % 7 + 1}"}).status_code == 200
        cache = response_cache(app)
        assert 0 < cache.bytes_used <= 200_000
        assert len(cache.entries) < 120  # the oldest answers were dropped to stay within the bound


def test_the_cache_key_is_the_negotiated_language_not_the_raw_header(runtime: Runtime) -> None:
    app = app_with(runtime)
    with TestClient(app) as c:
        bodies = {c.post("/v1/diagnose", json={"query": "OOM at step 2"}, headers={"Accept-Language": header}).content
                  for header in ("es", "es-ES", "es;q=0.9", "es-MX, en;q=0.1", "ES")}
        cache = response_cache(app)
        assert len(cache.entries) == 1 and len(bodies) == 1
        c.post("/v1/diagnose", json={"query": "OOM at step 2"}, headers={"Accept-Language": "de"})
        assert len(cache.entries) == 2


def test_guide_pages_are_cached_within_their_bytes(runtime: Runtime) -> None:
    app = app_with(runtime, page_cache_bytes=50_000)
    with TestClient(app) as c:
        for lang in ("en", "es", "pt", "fr", "de", "ko") * 2:
            for i in range(2):  # the Host header never enters a page (REMEDY_PUBLIC_BASE_URL does), nor its key
                r = c.get(f"/help/{lang}/gradient-checkpointing-oom", headers={"Host": f"h{i}.example"})
                assert r.status_code == 200 and f"h{i}.example" not in r.text
    pages = app.state.pages
    assert pages._guides.currsize <= 50_000 and 1 <= len(pages._guides) < 6


# --- readiness and start-up --------------------------------------------------------------------------------------


def test_readiness_is_false_while_draining(runtime: Runtime) -> None:
    app = create_app(runtime=runtime)
    with TestClient(app) as c:
        assert c.get("/readyz").status_code == 200
        app.state.draining = True
        r = c.get("/readyz")
        assert r.status_code == 503 and r.json()["ready"] is False
        assert c.get("/healthz").status_code == 200
        assert c.get("/v1/symptoms").status_code == 200  # still serving during the grace period


def test_precheck_names_a_corrupt_catalog(tmp_path: Path, runtime: Runtime) -> None:
    locales = tmp_path / "locales"
    shutil.copytree(runtime.settings.locales_dir, locales)
    (locales / "fr" / "LC_MESSAGES" / "remedy.mo").write_bytes(b"\xde\x12\x04\x95garbage")
    with pytest.raises(ContentProblems) as exc:
        precheck(settings_of(runtime, locales_dir=locales))
    assert {p.code for p in exc.value.problems} == {"catalog-unreadable"}


def test_precheck_passes_on_the_real_files(runtime: Runtime) -> None:
    precheck(runtime.settings)


# --- settings ------------------------------------------------------------------------------------------------------


def test_a_misspelled_variable_is_refused_naming_the_closest(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REMEDY_MAX_BODY_BYTE", "1000")
    with pytest.raises(ValidationError, match="REMEDY_MAX_BODY_BYTES"):
        Settings()


@pytest.mark.parametrize(("name", "value"), [("response_cache_bytes", "-1"), ("max_header_bytes", "10"),
                                             ("header_timeout", "0"), ("max_concurrency", "0"),
                                             ("shutdown_grace", "-1"), ("max_query_tokens", "1")])
def test_bad_limits_are_refused(monkeypatch: pytest.MonkeyPatch, name: str, value: str) -> None:
    monkeypatch.setenv(f"REMEDY_{name.upper()}", value)
    with pytest.raises(ValidationError):
        Settings()
