"""Pure ASGI middleware: request ids, JSON access logs, metrics, security headers, and body limits.

The body guard reads a request body once, bounded: over the limit -> 413, not UTF-8 -> 400, JSON nested
past the limit -> 400; the handlers then see the same bytes. Everything answers problem+json.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from ..errors import InvalidUtf8, JsonTooDeep, PayloadTooLarge, RemedyError
from ..settings import Settings
from .logconfig import REQUEST_ID, TRACE_ID, JsonFormatter, configure_logging
from .metrics import MATCH_SCOPE_KEY

__all__ = ["BodyGuard", "JsonFormatter", "RequestContext", "ResponseCache", "configure_logging"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
ProblemWriter = Callable[[Scope, RemedyError], tuple[int, list[tuple[bytes, bytes]], bytes]]

log = logging.getLogger("remedy.access")
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")
# W3C Trace Context: version-traceid-parentid-flags, lower-case hex, ids not all zeros.
_TRACEPARENT = re.compile(r"^00-(?!0{32})([0-9a-f]{32})-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$")
CLIENT_CLOSED = 499  # nginx's status for a request whose client went away before the answer


def json_depth_exceeds(body: bytes, limit: int) -> bool:
    """Whether arrays/objects nest deeper than `limit` (strings skipped). Cheap unless the body has many brackets.

    >>> json_depth_exceeds(b'{"a": [[1]]}', 2), json_depth_exceeds(b'{"a": "[[[[["}', 2)
    (True, False)
    """
    if body.count(b"[") + body.count(b"{") <= limit:
        return False
    depth = 0
    in_string = escaped = False
    for byte in body:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            if depth > limit:
                return True
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return False


class BodyGuard:
    """Bounded request bodies for the JSON API: size, UTF-8 and nesting are checked before any parsing."""

    def __init__(self, app: ASGIApp, settings: Settings, problem: ProblemWriter) -> None:
        self.app = app
        self.max_bytes = settings.max_body_bytes
        self.max_depth = settings.max_json_depth
        self.problem = problem

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("POST", "PUT", "PATCH"):
            await self.app(scope, receive, send)
            return
        length = _header(scope, b"content-length")
        if length is not None and length.isdigit() and int(length) > self.max_bytes:
            await self._refuse(scope, send, PayloadTooLarge(limit=self.max_bytes))
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._refuse(scope, send, PayloadTooLarge(limit=self.max_bytes))
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        try:
            body.decode("utf-8")
        except UnicodeDecodeError:
            await self._refuse(scope, send, InvalidUtf8())
            return
        if json_depth_exceeds(body, self.max_depth):
            await self._refuse(scope, send, JsonTooDeep(limit=self.max_depth))
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, send: Send, error: RemedyError) -> None:
        status, headers, body = self.problem(scope, error)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


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


class ResponseCache:
    """Answers are deterministic for a knowledge revision: a bounded LRU of successful answers to the
    computed endpoints, keyed by everything the answer depends on (method, path, query, Accept-Language,
    body). Size 0 turns it off."""

    CACHED = frozenset({("POST", "/v1/diagnose"), ("POST", "/v1/config/check"), ("GET", "/v1/search")})

    def __init__(self, app: ASGIApp, settings: Settings, metrics: Any) -> None:
        from collections import OrderedDict

        self.app = app
        self.size = settings.response_cache_size
        self.metrics = metrics
        # key -> (status, headers, body, the match outcome the answer counted, if any)
        self.entries: OrderedDict[
            tuple[Any, ...], tuple[int, list[tuple[bytes, bytes]], bytes, tuple[str, str, str] | None]
        ] = OrderedDict()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.size == 0 or scope["type"] != "http" or (scope["method"], scope["path"]) not in self.CACHED:
            await self.app(scope, receive, send)
            return
        body = b""
        if scope["method"] == "POST":
            more = True
            chunks = []
            while more:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return
                chunks.append(message.get("body", b""))
                more = message.get("more_body", False)
            body = b"".join(chunks)
        key = (scope["method"], scope["path"], scope.get("query_string", b""), _header(scope, b"accept-language"),
               _header(scope, b"content-type"), body)
        hit = self.entries.get(key)
        if hit is not None:
            self.entries.move_to_end(key)
            self.metrics.cache.labels("hit").inc()
            status, headers, payload, match = hit
            if match is not None:
                self.metrics.matches.labels(*match).inc()
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": payload})
            return
        self.metrics.cache.labels("miss").inc()
        started: Message = {}
        parts: list[bytes] = []

        async def replay() -> Message:
            return {"type": "http.request", "body": body, "more_body": False}

        async def capture(message: Message) -> None:
            if message["type"] == "http.response.start":
                started.update(message)
            elif message["type"] == "http.response.body":
                parts.append(message.get("body", b""))
            await send(message)

        await self.app(scope, replay, capture)
        if started.get("status") == 200:
            self.entries[key] = (200, list(started.get("headers", [])), b"".join(parts), scope.get(MATCH_SCOPE_KEY))
            if len(self.entries) > self.size:
                self.entries.popitem(last=False)
