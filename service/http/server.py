"""How `remedy serve` runs the app: uvicorn (uvloop + httptools) with the limits of issue 13.

uvicorn bounds keep-alive, connections (`limit_concurrency` -> 503) and the graceful shutdown, but not how
long a client may take to send its headers, nor their size: `GuardedHttpTools` adds both to uvicorn's httptools
protocol. A request whose headers do not arrive within `REMEDY_HEADER_TIMEOUT` is dropped; headers past
`REMEDY_MAX_HEADER_BYTES` / `REMEDY_MAX_HEADERS` are not stored (memory stays bounded) and the request is
flagged so that `guards.RequestGuard` answers 431 as problem+json; an address over `MAX_URL_BYTES` is refused
with 414 at once. (Granian does the first two natively but closes its listener on SIGTERM at once, without the
readiness grace period `app.drain_on_sigterm` needs; see BENCHMARKS.md.)
"""

from __future__ import annotations

import asyncio
from functools import lru_cache
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from ..settings import Settings
from .guards import HEADER_OVERFLOW

MAX_URL_BYTES = 65_536  # a troubleshooter query of 20,000 characters fits once percent-encoded (mostly ASCII)
_URI_TOO_LONG = (b"HTTP/1.1 414 URI Too Long\r\ncontent-type: application/problem+json\r\nconnection: close\r\n"
                 b"content-length: %d\r\n\r\n%s")
_URI_BODY = (b'{"type":"urn:remedy:problem:uri-too-long","title":"Address too long","status":414,'
             b'"detail":"The request\'s address is longer than 65536 bytes.","code":"uri-too-long","lang":"en"}')


@lru_cache(maxsize=1)
def _limits() -> tuple[float, int, int]:
    """This process's header deadline and limits (workers read the same environment as `remedy serve`)."""
    settings = Settings()
    return settings.header_timeout, settings.max_header_bytes, settings.max_headers


class GuardedHttpTools(HttpToolsProtocol):
    """uvicorn's httptools protocol with a header deadline and header limits (named by import string, so
    that every worker process loads it)."""

    _deadline: asyncio.TimerHandle | None = None
    _timeout = 10.0
    _max_bytes = 16_384
    _max_count = 64
    _header_bytes = 0
    _header_count = 0
    _url_bytes = 0
    _overflow = False

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._timeout, self._max_bytes, self._max_count = _limits()
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self._deadline is None:
            self._deadline = self.loop.call_later(self._timeout, self._headers_late)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _headers_late(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._header_bytes = self._header_count = self._url_bytes = 0
        self._overflow = False
        self._arm()

    def on_url(self, url: bytes) -> None:
        self._url_bytes += len(url)
        if self._url_bytes > MAX_URL_BYTES:
            if not self.transport.is_closing():
                self.transport.write(_URI_TOO_LONG % (len(_URI_BODY), _URI_BODY))
                self.transport.close()
            return
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._header_count += 1
        self._header_bytes += len(name) + len(value) + 4
        if self._header_count > self._max_count or self._header_bytes > self._max_bytes:
            self._overflow = True  # stop storing them; the app answers 431
            return
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._disarm()
        if self.transport.is_closing():
            return
        # The guard reads the verdict instead of measuring the headers again.
        self.scope[HEADER_OVERFLOW] = self._overflow  # type: ignore[literal-required]
        super().on_headers_complete()


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """The server's options for `uvicorn.run` (besides the app, host, port and workers)."""
    return {
        "http": f"{__name__}:GuardedHttpTools",
        "loop": "uvloop",
        "limit_concurrency": settings.max_connections,
        "timeout_keep_alive": 5,
        "timeout_graceful_shutdown": max(int(settings.body_timeout) + 5, 10),
        "backlog": 2048,
    }
