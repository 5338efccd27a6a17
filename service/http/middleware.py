"""Pure ASGI middleware: request ids, JSON access logs, metrics and security headers.

The limits on what a request may take (headers, body, concurrency) are in `guards`; the response cache is in
`cache`.
"""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from ..errors import RemedyError
from ..settings import Settings

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
ProblemWriter = Callable[[Scope, RemedyError], tuple[int, list[tuple[bytes, bytes]], bytes]]

log = logging.getLogger("remedy.access")
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")


class RequestContext:
    """A request id (from `X-Request-ID` when sane, else new), security headers, metrics and one log line."""

    def __init__(self, app: ASGIApp, settings: Settings, metrics: Any) -> None:
        self.app = app
        self.metrics = metrics
        self.log_json = settings.log_json
        extra = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"same-origin")]
        if settings.hsts:
            extra.append((b"strict-transport-security", b"max-age=31536000; includeSubDomains"))
        self.extra = extra

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = _header(scope, b"x-request-id")
        request_id = given if given and _REQUEST_ID.match(given) else uuid.uuid4().hex
        scope.setdefault("state", {})["request_id"] = request_id
        started = time.perf_counter()
        status = 500

        async def send_with_headers(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = list(message.get("headers", []))
                present = {k.lower() for k, _ in headers}
                headers.append((b"x-request-id", request_id.encode()))
                headers.extend((k, v) for k, v in self.extra if k not in present)
                message["headers"] = headers
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        finally:
            elapsed = time.perf_counter() - started
            route = self._route(scope)
            self.metrics.requests.labels(route, scope["method"], str(status)).inc()
            self.metrics.latency.labels(route).observe(elapsed)
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
                        }
                    },
                )

    @staticmethod
    def _route(scope: Scope) -> str:
        """The route template (`/v1/symptoms/{symptom_id}`), so metrics stay bounded whatever the paths."""
        route = scope.get("route")
        return str(getattr(route, "path", "unmatched"))


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message and the record's `fields`."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        out.update(getattr(record, "fields", {}))
        if record.exc_info:
            out["error"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


def configure_logging(settings: Settings) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(
        JsonFormatter() if settings.log_json else logging.Formatter("%(levelname)s %(name)s %(message)s")
    )
    root = logging.getLogger("remedy")
    root.handlers[:] = [handler]
    root.setLevel(settings.log_level.upper())
    root.propagate = False
