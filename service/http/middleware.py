"""Pure ASGI middleware: request ids, JSON access logs, metrics and security headers.

The limits on what a request may take (headers, body, concurrency) are in `guards`; the response cache is in
`cache`.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from typing import Any

from ..settings import Settings
from .asgi import ASGIApp, Message, Receive, Scope, Send
from .logconfig import REQUEST_ID, TRACE_ID, JsonFormatter, configure_logging

__all__ = ["JsonFormatter", "RequestContext", "configure_logging"]


log = logging.getLogger("remedy.access")
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")
# W3C Trace Context: version-traceid-parentid-flags, lower-case hex, ids not all zeros.
_TRACEPARENT = re.compile(r"^00-(?!0{32})([0-9a-f]{32})-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$")
CLIENT_CLOSED = 499  # nginx's status for a request whose client went away before the answer


class RequestContext:
    """A request id (from `X-Request-ID` when sane, else new), the W3C `traceparent` (echoed), security headers,
    metrics and one log line. A client that hangs up before the answer is counted as 499, not as an error."""

    def __init__(self, app: ASGIApp, settings: Settings, metrics: Any) -> None:
        self.app = app
        self.metrics = metrics
        extra = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"same-origin")]
        if settings.hsts:
            extra.append((b"strict-transport-security", b"max-age=31536000; includeSubDomains"))
        self.extra = extra
        self._static_routes: frozenset[str] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """One request from end to end: its ids, the wrapped `send` that adds headers, the outcome, its metrics
        and its log line. It stays one function on purpose: each step reads what the one before it set."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = _header(scope, b"x-request-id")
        request_id = given if given and _REQUEST_ID.match(given) else uuid.uuid4().hex
        traceparent = _header(scope, b"traceparent")
        trace = _TRACEPARENT.match(traceparent) if traceparent else None
        scope.setdefault("state", {})["request_id"] = request_id
        id_token, trace_token = REQUEST_ID.set(request_id), TRACE_ID.set(trace.group(1) if trace else None)
        started = time.perf_counter()
        status: int | None = None
        disconnected = False

        async def receive_watching() -> Message:
            nonlocal disconnected
            message = await receive()
            if message["type"] == "http.disconnect":
                disconnected = True
            return message

        async def send_with_headers(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = list(message.get("headers", []))
                present = {k.lower() for k, _ in headers}
                headers.append((b"x-request-id", request_id.encode()))
                if trace and traceparent:
                    headers.append((b"traceparent", traceparent.encode()))
                headers.extend((k, v) for k, v in self.extra if k not in present)
                message["headers"] = headers
            await send(message)

        try:
            await self.app(scope, receive_watching, send_with_headers)
        finally:
            elapsed = time.perf_counter() - started
            if status is None:
                status = CLIENT_CLOSED if disconnected else 500
            route = self._route(scope)
            self.metrics.requests.labels(route, scope["method"], str(status)).inc()
            self.metrics.latency.labels(route).observe(elapsed)
            self.metrics.sample_process()
            if log.isEnabledFor(logging.INFO):
                log.info(
                    "request",
                    extra={
                        "fields": {
                            "request_id": request_id,
                            "method": scope["method"],
                            "path": scope["path"],
                            "route": route,
                            "status": status,
                            "duration_ms": round(elapsed * 1000, 3),
                            **({"trace_id": trace.group(1)} if trace else {}),
                        }
                    },
                )
            REQUEST_ID.reset(id_token)
            TRACE_ID.reset(trace_token)

    def _route(self, scope: Scope) -> str:
        """The route template (`/v1/symptoms/{symptom_id}`), so metrics stay bounded whatever the paths. An
        answer given before routing (the response cache, a refused body) is on a path without parameters:
        that path is its template."""
        route = scope.get("route")
        if route is not None:
            return str(getattr(route, "path", "unmatched"))
        if self._static_routes is None:
            paths = scope["app"].openapi()["paths"] if "app" in scope else {}
            self._static_routes = frozenset(p for p in paths if "{" not in p)
        return scope["path"] if scope["path"] in self._static_routes else "unmatched"


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None


