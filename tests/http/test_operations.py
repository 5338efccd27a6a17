"""Limits and failure behaviour, request ids, metrics, readiness, CORS and security headers."""

from __future__ import annotations

import json
import os
import re
import time

import pytest
from fastapi.testclient import TestClient

from remedy.http.app import create_app
from remedy.runtime import Runtime
from remedy.settings import Settings


def test_body_over_the_limit_is_413(client: TestClient) -> None:
    r = client.post(
        "/v1/diagnose",
        content=b'{"query": "' + b"x" * 300_000 + b'"}',
        headers={"Content-Type": "application/json", "Accept-Language": "es"},
    )
    assert r.status_code == 413 and r.json()["code"] == "payload-too-large" and r.json()["lang"] == "es"


def test_streamed_body_over_the_limit_is_413(client: TestClient) -> None:
    def chunks():  # type: ignore[no-untyped-def]
        for _ in range(40):
            yield b"x" * 10_000

    r = client.post("/v1/config/check", content=chunks(), headers={"Content-Type": "application/json"})
    assert r.status_code == 413


def test_invalid_utf8_is_400(client: TestClient) -> None:
    r = client.post("/v1/diagnose", content=b'{"query": "\xff\xfe OOM"}', headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and r.json()["code"] == "invalid-utf8"


def test_deep_json_is_400_not_a_crash(client: TestClient) -> None:
    deep = b'{"config": ' + b"[" * 5000 + b"]" * 5000 + b"}"
    r = client.post("/v1/config/check", content=deep, headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and r.json()["code"] == "json-too-deep"


def test_brackets_inside_strings_do_not_count(client: TestClient) -> None:
    r = client.post("/v1/diagnose", json={"query": "[" * 100 + " OOM at step 2"})
    assert r.status_code == 200


def test_unexpected_exception_is_a_500_problem_without_internals(
    runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    from remedy.http import work

    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(work, "answer_diagnosis", boom)
    with TestClient(create_app(runtime=runtime), raise_server_exceptions=False) as c:
        r = c.post("/v1/diagnose", json={"symptom": "oom-general"}, headers={"X-Request-ID": "abc-123"})
    assert r.status_code == 500 and r.json()["code"] == "internal-error"
    assert "secret" not in r.text and "Traceback" not in r.text
    assert r.headers["x-request-id"] == "abc-123"


def test_request_id_is_echoed_or_made(client: TestClient) -> None:
    assert client.get("/healthz", headers={"X-Request-ID": "req-42"}).headers["x-request-id"] == "req-42"
    made = client.get("/healthz", headers={"X-Request-ID": "bad id with spaces"}).headers["x-request-id"]
    assert made != "bad id with spaces" and len(made) == 32


def test_security_headers_on_api_answers(client: TestClient) -> None:
    r = client.get("/v1/meta")
    assert r.headers["x-content-type-options"] == "nosniff" and r.headers["referrer-policy"] == "same-origin"


def test_metrics_count_routes_and_match_outcomes(client: TestClient) -> None:
    client.post("/v1/diagnose", json={"query": "how much is a pro plan", "lang": "en"})
    client.get("/v1/symptoms/oom-general")
    text = client.get("/metrics").text
    assert 'remedy_requests_total{method="GET",route="/v1/symptoms/{symptom_id}",status="200"}' in text
    assert 'remedy_match_total{endpoint="diagnose",lang="en",match="none"}' in text
    assert "remedy_request_duration_seconds_bucket" in text


def test_cached_answers_count_their_match_outcome(runtime: Runtime) -> None:
    app = create_app(runtime.settings.model_copy(update={"response_cache_bytes": 65536}), runtime=runtime)
    with TestClient(app) as c:
        for _ in range(3):
            assert c.get("/v1/search", params={"q": "OOM at step 2", "lang": "de"}).status_code == 200
        text = c.get("/metrics").text
    assert 'remedy_response_cache_total{result="hit"} 2.0' in text
    counted = [line for line in text.splitlines() if line.startswith('remedy_match_total{endpoint="search",lang="de"')]
    assert len(counted) == 1 and counted[0].endswith(" 3.0"), counted


def test_readiness_waits_for_the_index() -> None:
    app = create_app(Settings(), lazy=True)
    with TestClient(app) as c:
        assert c.get("/healthz").status_code == 200
        first = c.get("/readyz")
        if first.status_code == 503:
            assert first.json()["ready"] is False
        assert c.get("/v1/meta").status_code == 200  # held until the index is built, not failed
        deadline = time.monotonic() + 30
        while c.get("/readyz").status_code != 200:
            assert time.monotonic() < deadline, "the index was never built"
            time.sleep(0.05)
        assert c.get("/v1/meta").status_code == 200


def test_cors_allow_list(runtime: Runtime) -> None:
    settings = Settings(cors_origins=["https://ui.example"])
    with TestClient(create_app(settings, runtime=runtime)) as c:
        ok = c.options(
            "/v1/diagnose", headers={"Origin": "https://ui.example", "Access-Control-Request-Method": "POST"}
        )
        assert ok.headers["access-control-allow-origin"] == "https://ui.example"
        other = c.get("/healthz", headers={"Origin": "https://evil.example"})
        assert "access-control-allow-origin" not in other.headers


def test_bad_cors_setting_is_refused() -> None:
    with pytest.raises(ValueError):
        Settings(cors_origins=["ui.example"])


def test_json_log_line_carries_the_request_id(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    from remedy.http.middleware import JsonFormatter

    with caplog.at_level("INFO", logger="remedy.access"):
        client.get("/healthz", headers={"X-Request-ID": "log-me"})
    record = next(r for r in caplog.records if getattr(r, "fields", {}).get("request_id") == "log-me")
    line = json.loads(JsonFormatter().format(record))
    assert line["route"] == "/healthz" and line["status"] == 200 and line["duration_ms"] >= 0


def test_cached_and_refused_answers_keep_their_route(runtime: Runtime) -> None:
    app = create_app(runtime.settings.model_copy(update={"response_cache_bytes": 1 << 20}), runtime=runtime)
    with TestClient(app) as c:
        for _ in range(3):
            c.post("/v1/diagnose", json={"query": "OOM at step 2"})
        c.post("/v1/diagnose", content=b"x" * 300_000, headers={"Content-Type": "application/json"})
        c.get("/docs")
        text = c.get("/metrics").text
    assert 'remedy_requests_total{method="POST",route="/v1/diagnose",status="200"} 3.0' in text
    assert 'remedy_requests_total{method="POST",route="/v1/diagnose",status="413"} 1.0' in text
    assert 'remedy_requests_total{method="GET",route="/docs",status="200"} 1.0' in text
    assert 'route="unmatched"' not in text


def test_build_and_process_series(client: TestClient, runtime: Runtime) -> None:
    text = client.get("/metrics").text
    assert f'knowledge_revision="{runtime.index.revision}"' in text and "remedy_build_info{" in text
    assert "process_resident_memory_bytes" in text and "remedy_worker_resident_memory_bytes" in text
    assert "remedy_heavy_lane_resident_memory_bytes" in text


def test_resident_memory_of_a_process_and_of_a_gone_one() -> None:
    from remedy.http.metrics import resident_bytes

    assert resident_bytes() > 10_000_000 and resident_bytes(os.getpid()) > 10_000_000
    assert resident_bytes(2**22 + 12345) == 0  # above the kernel's pid limit: no such process


def test_client_hanging_up_mid_body_is_not_a_server_error(runtime: Runtime) -> None:
    import asyncio
    import threading

    app = create_app(runtime=runtime)
    messages = iter([{"type": "http.request", "body": b'{"query": "OO', "more_body": True},
                     {"type": "http.disconnect"}])
    sent: list[dict[str, object]] = []

    async def receive() -> dict[str, object]:
        return next(messages)

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
             "scheme": "http", "path": "/v1/diagnose", "raw_path": b"/v1/diagnose", "query_string": b"",
             "root_path": "", "headers": [(b"content-type", b"application/json")], "client": ("127.0.0.1", 1),
             "server": ("testserver", 80), "app": app}
    # (in a thread of its own: another test's event loop may still be running in this one)
    worker = threading.Thread(target=lambda: asyncio.run(app(scope, receive, send)))
    worker.start()
    worker.join(timeout=30)
    text = app.state.metrics.render().decode()
    assert 'remedy_requests_total{method="POST",route="/v1/diagnose",status="499"} 1.0' in text
    assert 'status="500"' not in text


def test_traceparent_is_echoed_and_logged(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    from remedy.http.middleware import JsonFormatter

    parent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
    with caplog.at_level("INFO", logger="remedy.access"):
        r = client.get("/healthz", headers={"traceparent": parent})
        line = json.loads(JsonFormatter().format(caplog.records[-1]))
    assert r.headers["traceparent"] == parent
    assert line["trace_id"] == "0af7651916cd43dd8448eb211c80319c"
    assert "traceparent" not in client.get("/healthz", headers={"traceparent": "00-zz-1-01"}).headers


def test_cors_preflight_may_ask_for_traceparent(runtime: Runtime) -> None:
    settings = Settings(cors_origins=["https://ui.example"])
    with TestClient(create_app(settings, runtime=runtime)) as c:
        r = c.options("/v1/diagnose", headers={"Origin": "https://ui.example", "Access-Control-Request-Method": "POST",
                                               "Access-Control-Request-Headers": "content-type, traceparent"})
    assert r.status_code == 200 and "traceparent" in r.headers["access-control-allow-headers"].lower()


def test_log_lines_have_utc_milliseconds_and_uvicorn_shares_the_format() -> None:
    import logging
    import logging.config

    from remedy.http.logconfig import log_config

    config = log_config(Settings())
    assert {"uvicorn", "uvicorn.error", "uvicorn.access", "remedy"} <= set(config["loggers"])
    logging.config.dictConfig(config)
    formatter = logging.getLogger("uvicorn.error").handlers[0].formatter
    assert formatter is not None
    record = logging.LogRecord("uvicorn.error", logging.INFO, __file__, 1, "Started server process [%d]", (7,), None)
    line = json.loads(formatter.format(record))
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", line["time"]), line["time"]
    assert line["message"] == "Started server process [7]" and line["logger"] == "uvicorn.error"
    text = log_config(Settings(log_json=False))["formatters"]["remedy"]["()"]
    assert text.endswith("TextFormatter")
