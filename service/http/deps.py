"""Dependencies shared by the routers: the runtime, language negotiation, the content cache."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import Depends, Query, Request

from ..answers import Thresholds, fallback_view
from ..catalogs import Negotiated
from ..errors import NotReady
from ..runtime import Runtime
from .responses import dumps, strong_etag


def runtime_of(request: Request) -> Runtime:
    runtime: Runtime | None = request.app.state.runtime
    if runtime is None:
        raise NotReady()
    return runtime


READY_WAIT_SECONDS = 15.0


async def get_runtime(request: Request) -> Runtime:
    # Dependencies are `async def`: FastAPI runs plain `def` dependencies in a thread pool, a hop that
    # costs more than the work of most requests here.
    if request.app.state.runtime is None and getattr(request.app.state, "loading", False):
        # Right after start-up the index is still being built: hold the request briefly rather than fail it.
        deadline = time.monotonic() + READY_WAIT_SECONDS
        while request.app.state.runtime is None and request.app.state.loading and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
    return runtime_of(request)


RuntimeDep = Annotated[Runtime, Depends(get_runtime)]


def thresholds_of(runtime: Runtime) -> Thresholds:
    return Thresholds(runtime.settings.match_confident, runtime.settings.match_minimum)


async def negotiate(
    request: Request,
    lang: Annotated[
        str | None,
        Query(max_length=35, description="Answer language; else Accept-Language; else English."),
    ] = None,
) -> Negotiated:
    runtime = runtime_of(request)
    neg = runtime.catalogs.negotiate(lang, request.headers.get("accept-language"))
    request.state.lang = neg.lang
    return neg


LangDep = Annotated[Negotiated, Depends(negotiate)]


class ContentCache:
    """Content answers rendered once per (resource, language): body bytes and strong ETag."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self._entries: dict[tuple[str, str], tuple[dict[str, Any], bytes, str]] = {}

    def add(self, key: str, render: Callable[[str], dict[str, Any]]) -> None:
        for lang in self.runtime.index.languages:
            body = {"lang": lang, "knowledge_revision": self.runtime.index.revision, **render(lang)}
            payload = dumps(body)
            self._entries[(key, lang)] = (body, payload, strong_etag(payload))

    def has(self, key: str) -> bool:
        return (key, self.runtime.index.default_lang) in self._entries

    def get(self, key: str, neg: Negotiated) -> tuple[bytes, str]:
        body, payload, etag = self._entries[(key, neg.lang)]
        fallback = fallback_view(self.runtime.catalogs, neg)
        if fallback is None:
            return payload, etag
        payload = dumps({**body, "fallback": fallback})
        return payload, strong_etag(payload)


async def get_cache(request: Request) -> ContentCache:
    cache: ContentCache = request.app.state.content_cache
    return cache


CacheDep = Annotated[ContentCache, Depends(get_cache)]
