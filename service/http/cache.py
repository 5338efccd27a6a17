"""The response cache: computed answers are deterministic for a knowledge revision, so successful answers of
the computed endpoints are kept in an LRU bounded in bytes (cachetools with `getsizeof`).

The key is a digest of the normalized request: method, path, query string, whether the body is JSON, the
language negotiated from `Accept-Language` (never the raw header), and the body. So whatever a
client sends, an entry costs a fixed 32-byte key plus the answer it holds, and the whole cache at most
`REMEDY_RESPONSE_CACHE_BYTES`. A size of 0 turns it off.
"""

from __future__ import annotations

import hashlib
from typing import Any, NamedTuple

from cachetools import LRUCache

from ..settings import Settings
from .asgi import ASGIApp, Message, Receive, Scope, Send
from .metrics import MATCH_SCOPE_KEY

ENTRY_OVERHEAD = 256  # bytes of bookkeeping per entry (key, tuple, list), counted with the answer


class Entry(NamedTuple):
    headers: list[tuple[bytes, bytes]]
    body: bytes
    match: tuple[str, str, str] | None  # the match outcome the answer counted in the metrics, if any


def entry_size(entry: Entry) -> int:
    return len(entry.body) + sum(len(k) + len(v) + 64 for k, v in entry.headers) + ENTRY_OVERHEAD


def _is_json(content_type: bytes) -> bool:
    if content_type == b"application/json":
        return True
    media = content_type.split(b";", 1)[0].strip().lower()
    return media == b"application/json" or (media.startswith(b"application/") and media.endswith(b"+json"))


class ResponseCache:
    """An LRU, bounded in bytes, of the 200 answers of diagnose, config check and search."""

    CACHED = frozenset({("POST", "/v1/diagnose"), ("POST", "/v1/config/check"), ("GET", "/v1/search")})

    def __init__(self, app: ASGIApp, settings: Settings, metrics: Any) -> None:
        self.app = app
        self.max_bytes = settings.response_cache_bytes
        self.max_entry = max(self.max_bytes // 16, 1)  # no single answer may take more than 1/16 of it
        self.metrics = metrics
        self.entries: LRUCache[bytes, Entry] = LRUCache(maxsize=max(self.max_bytes, 1), getsizeof=entry_size)
        self._negotiated: dict[bytes, bytes] = {}  # short Accept-Language -> the language negotiated from it

    def key(self, scope: Scope, body: bytes) -> bytes | None:
        runtime = getattr(scope["app"].state, "runtime", None)
        if runtime is None:
            return None
        accept = content_type = b""
        for name, value in scope.get("headers", ()):
            if name == b"accept-language":
                accept = value
            elif name == b"content-type":
                content_type = value
        negotiated = self._negotiated.get(accept)
        if negotiated is None:
            neg = runtime.catalogs.negotiate(None, accept.decode("latin-1"))
            negotiated = f"{neg.lang}\0{neg.fallback or ''}".encode("utf-8", "surrogateescape")
            if len(accept) <= 64:  # the common headers, remembered; a memo bounded in entries and in key size
                if len(self._negotiated) >= 256:
                    self._negotiated.clear()
                self._negotiated[accept] = negotiated
        query = scope.get("query_string", b"")  # as sent: a reordered query is a miss, never a wrong answer
        head = b"\0".join((scope["method"].encode(), scope["path"].encode("utf-8", "surrogateescape"), query,
                           b"json" if _is_json(content_type) else b"other", negotiated))
        return hashlib.blake2b(head + b"\0" + body, digest_size=32).digest()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.max_bytes == 0 or scope["type"] != "http" or (scope["method"], scope["path"]) not in self.CACHED:
            await self.app(scope, receive, send)
            return
        body = b""
        if scope["method"] == "POST":
            more = True
            chunks = []
            while more:  # already read and bounded by BodyGuard (outside this middleware)
                message = await receive()
                if message["type"] == "http.disconnect":
                    return
                chunks.append(message.get("body", b""))
                more = message.get("more_body", False)
            body = b"".join(chunks)
        key = self.key(scope, body)
        hit = self.entries.get(key) if key is not None else None
        if hit is not None:
            self.metrics.cache.labels("hit").inc()
            if hit.match is not None:
                self.metrics.matches.labels(*hit.match).inc()
            await send({"type": "http.response.start", "status": 200, "headers": hit.headers})
            await send({"type": "http.response.body", "body": hit.body})
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
        if key is not None and started.get("status") == 200:
            entry = Entry(list(started.get("headers", [])), b"".join(parts), scope.get(MATCH_SCOPE_KEY))
            if entry_size(entry) <= self.max_entry:
                self.entries[key] = entry

    @property
    def bytes_used(self) -> int:
        return int(self.entries.currsize)
