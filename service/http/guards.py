"""Pure ASGI middleware that bounds what one request may take from a worker (issue 13).

- `RequestGuard`: headers over `REMEDY_MAX_HEADER_BYTES` / `REMEDY_MAX_HEADERS` -> 431 (the server protocol of
  `remedy.http.server` stops storing them at the limit and flags the request; without it, the guard measures
  the headers itself); HEAD answered as the GET it is, without a body; operations routes pass first.
- `ConcurrencyLimit`: at most `REMEDY_MAX_CONCURRENCY` requests in flight, more get 503 `overloaded` with
  `Retry-After`; liveness, readiness and metrics are never refused; a large request is sent to the heavy lane
  (`lane`), at most `REMEDY_MAX_HEAVY` of them at once.
- `BodyGuard`: a body read once, bounded in size (413), time (408), UTF-8 (400) and JSON nesting (400).

Every refusal is problem+json, through the same writer as the other errors.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable

import orjson

from ..errors import HeadersTooLarge, InvalidUtf8, JsonTooDeep, Overloaded, PayloadTooLarge, RemedyError, RequestTimeout
from ..settings import Settings
from .asgi import ASGIApp, Message, ProblemWriter, Receive, Scope, Send
from .lane import LANE, Lane

HEADER_OVERFLOW = "remedy.header_overflow"  # scope key the server protocol sets when it dropped headers
OPERATIONS = frozenset({"/healthz", "/readyz", "/metrics"})
RETRY_AFTER_SECONDS = 1
BODY_SIZE = "remedy.body_size"  # scope key: bytes of the request body, once `BodyGuard` has read it
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


async def refuse(scope: Scope, send: Send, problem: ProblemWriter, error: RemedyError,
                 extra: tuple[tuple[bytes, bytes], ...] = ()) -> None:
    status, headers, body = problem(scope, error)
    await send({"type": "http.response.start", "status": status, "headers": [*headers, *extra]})
    await send({"type": "http.response.body", "body": b"" if scope.get("method") == "HEAD" else body})


def headers_exceed(headers: list[tuple[bytes, bytes]], max_bytes: int, max_count: int) -> bool:
    """Whether a request's header fields are more than `max_count` or larger than `max_bytes` in all.

    >>> headers_exceed([(b"a", b"1")] * 3, 100, 2), headers_exceed([(b"a", b"x" * 10)], 8, 5)
    (True, True)
    """
    if len(headers) > max_count:
        return True
    size = 0
    for name, value in headers:
        size += len(name) + len(value) + 4
        if size > max_bytes:
            return True
    return False


def header_bytes(headers: Iterable[tuple[bytes, bytes]]) -> int:
    """The size of a request's header fields, counted as `headers_exceed` counts them (4 bytes each for `: ` and CRLF).

    >>> header_bytes([(b"accept-language", b"es"), (b"host", b"x")])
    30
    """
    return sum(len(name) + len(value) + 4 for name, value in headers)


class RequestGuard:
    """431 for oversized headers; HEAD as GET without a body (every GET route answers HEAD)."""

    def __init__(self, app: ASGIApp, settings: Settings, problem: ProblemWriter) -> None:
        self.app = app
        self.max_bytes = settings.max_header_bytes
        self.max_count = settings.max_headers
        self.problem = problem

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        overflow = scope.get(HEADER_OVERFLOW)  # set by the server protocol (remedy.http.server), else measured here
        if overflow is None:
            overflow = headers_exceed(scope.get("headers", []), self.max_bytes, self.max_count)
        if overflow:
            # Negotiate from nothing but what fits: the dropped headers are not read.
            kept = dict(scope, headers=[h for h in scope.get("headers", []) if h[0] == b"accept-language"
                                        and len(h[1]) <= 256][:1])
            await refuse(kept, send, self.problem, HeadersTooLarge(limit=self.max_bytes, count=self.max_count),
                         ((b"connection", b"close"),))
            return
        if scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return
        inner = dict(scope, method="GET")

        async def without_body(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        try:
            await self.app(inner, receive, without_body)
        finally:
            if "route" in inner:
                scope["route"] = inner["route"]  # for the metrics and the log line


class ConcurrencyLimit:
    """At most `max_concurrency` requests in flight in this worker; more get 503 with `Retry-After`.

    A large request (a body, query string or header fields over `REMEDY_HEAVY_BYTES`: pasted logs, long
    configs, a 15 KB `Accept-Language` whose answer is distinct every time) is marked to
    compute in the heavy lane (`lane.py`): one line of work beside the event loop, so large requests compute one
    at a time and a normal request never waits for one to end. The work caps bound what
    one costs (~10x a typical request), the lane how much of the worker they take together, whatever the number
    of clients sending them; at most `max_heavy` are held at once (more get 503 with `Retry-After`), so that
    large requests never take the places of normal ones."""

    def __init__(self, app: ASGIApp, settings: Settings, problem: ProblemWriter, lane: Lane | None = None
                 ) -> None:
        self.app = app
        self.limit = settings.max_concurrency
        self.heavy_bytes = settings.heavy_bytes
        self.max_heavy = settings.max_heavy
        self.problem = problem
        self.in_flight = 0
        self.heavy_in_flight = 0
        self.lane = lane

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] in OPERATIONS:
            await self.app(scope, receive, send)
            return
        if self.in_flight >= self.limit:
            await refuse(scope, send, self.problem, Overloaded(seconds=RETRY_AFTER_SECONDS),
                         ((b"retry-after", str(RETRY_AFTER_SECONDS).encode()),))
            return
        heavy = self.lane is not None and (scope.get(BODY_SIZE, 0) > self.heavy_bytes
                                           or len(scope.get("query_string", b"")) > self.heavy_bytes
                                           or header_bytes(scope.get("headers", ())) > self.heavy_bytes)
        if heavy:
            if self.heavy_in_flight >= self.max_heavy:
                await refuse(scope, send, self.problem, Overloaded(seconds=RETRY_AFTER_SECONDS),
                             ((b"retry-after", str(RETRY_AFTER_SECONDS).encode()),))
                return
            scope[LANE] = self.lane
            self.heavy_in_flight += 1
        self.in_flight += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.in_flight -= 1
            if heavy:
                self.heavy_in_flight -= 1


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


def lone_surrogate(body: bytes) -> bool:
    """Whether a JSON text escapes half a UTF-16 surrogate pair (`"\\ud800"`): valid JSON syntax, but no text
    (it cannot be encoded again, so it would break every answer that echoes it).

    >>> lone_surrogate(b'"\\ud800"'), lone_surrogate(b'"\\ud83d\\ude00"'), lone_surrogate(b'"\\u00e9"')
    (True, False, False)
    """
    if not _SURROGATE_ESCAPE.search(body):  # a third of the time of `b"\\u" in body` on 250 KB without one
        return False
    try:
        orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        return "surrogate" in str(exc)
    return False


class BodyGuard:
    """Bounded request bodies for the JSON API: size, time, UTF-8 and nesting are checked before any parsing;
    the handlers then see the same bytes."""

    def __init__(self, app: ASGIApp, settings: Settings, problem: ProblemWriter) -> None:
        self.app = app
        self.max_bytes = settings.max_body_bytes
        self.max_depth = settings.max_json_depth
        self.timeout = settings.body_timeout
        self.problem = problem

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Read the whole body within its deadline and limits, then hand it on. Kept as one function on purpose:
        the length, the deadline and the reading share their state, and every exit answers a problem."""
        if scope["type"] != "http" or scope["method"] not in ("POST", "PUT", "PATCH"):
            await self.app(scope, receive, send)
            return
        length = _header(scope, b"content-length")
        if length is not None and length.isdigit() and int(length) > self.max_bytes:
            await refuse(scope, send, self.problem, PayloadTooLarge(limit=self.max_bytes))
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        # A deadline for the whole body: a timer that cancels this task (cheaper than `asyncio.timeout`, which
        # costs more than the rest of a cached answer).
        task = asyncio.current_task()
        expired = False

        def expire() -> None:
            nonlocal expired
            expired = True
            if task is not None:
                task.cancel()

        deadline = asyncio.get_running_loop().call_later(self.timeout, expire)
        try:
            while more:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return
                chunk = message.get("body", b"")
                size += len(chunk)
                if size > self.max_bytes:
                    deadline.cancel()
                    await refuse(scope, send, self.problem, PayloadTooLarge(limit=self.max_bytes))
                    return
                chunks.append(chunk)
                more = message.get("more_body", False)
        except asyncio.CancelledError:
            if not expired or task is None:
                raise
            task.uncancel()
            await refuse(scope, send, self.problem, RequestTimeout(seconds=f"{self.timeout:g}"),
                         ((b"connection", b"close"),))
            return
        finally:
            deadline.cancel()
        body = b"".join(chunks)
        scope[BODY_SIZE] = len(body)
        try:
            body.decode("utf-8")
        except UnicodeDecodeError:
            await refuse(scope, send, self.problem, InvalidUtf8())
            return
        if lone_surrogate(body):
            await refuse(scope, send, self.problem, InvalidUtf8())
            return
        if json_depth_exceeds(body, self.max_depth):
            await refuse(scope, send, self.problem, JsonTooDeep(limit=self.max_depth))
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None
