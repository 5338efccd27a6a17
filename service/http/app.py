"""The FastAPI application: settings -> runtime -> routers, handlers, middleware and the content cache."""

from __future__ import annotations

import gc
import logging
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from starlette.middleware.cors import CORSMiddleware

from .. import __version__
from ..rendering.pages import Pages, load_assets
from ..runtime import Runtime, gc_paused, load_runtime
from ..settings import Settings
from .contract import install_openapi, operation_id
from .logconfig import configure_logging
from .metrics import Metrics
from .middleware import BodyGuard, RequestContext, ResponseCache
from .problems import asgi_problem, install_handlers
from .routers import config, content, diagnose, docs, ops, pages, search
from .routers.content import build_content_cache

DESCRIPTION = """Remedy answers AI Toolkit out-of-memory failures with ordered, localized remediation steps,
from the guide "Why disabling Gradient Checkpointing causes OOM in AI Toolkit". Deterministic: no LLM and
no network at run time. Languages: en (default and fallback), es, pt, fr, de, ko. Errors are RFC 9457
problem details (`application/problem+json`) with a stable `code`."""

log = logging.getLogger("remedy.app")


def attach_runtime(app: FastAPI, runtime: Runtime) -> None:
    """Render what is rendered once, then mark the app ready (`/readyz`)."""
    with gc_paused():
        app.state.content_cache = build_content_cache(runtime)
        app.state.pages = Pages(runtime.index, runtime.catalogs, load_assets())
    app.state.runtime = runtime
    app.state.metrics.set_build(__version__, runtime.index.revision)
    app.state.metrics.sample_process()
    # The index is read-only from here on: keep it out of the cyclic GC's scans, so a collection during a
    # request costs the same whatever the size of the knowledge. (No collection first: start-up leaves no
    # cyclic garbage to free.)
    gc.freeze()
    app.state.ready = True


def create_app(settings: Settings | None = None, runtime: Runtime | None = None, lazy: bool = False) -> FastAPI:
    """Build the app. Eager (the default) loads the knowledge here, so broken knowledge raises
    `ContentProblems` before anything is served; `lazy` answers `/healthz` at once, `/readyz` once the
    index is built in the background, and holds other requests until then (503 `not-ready` after 15 s)."""
    settings = settings or (runtime.settings if runtime else Settings())

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if lazy and app.state.runtime is None:
            def load() -> None:
                try:
                    attach_runtime(app, load_runtime(settings))
                except Exception:
                    log.exception("the knowledge could not be loaded; the service stays not ready")
                finally:
                    app.state.loading = False

            app.state.loading = True
            threading.Thread(target=load, name="remedy-index", daemon=True).start()
        yield

    app = FastAPI(title="Remedy", version=__version__, description=DESCRIPTION, lifespan=lifespan,
                  docs_url=None, redoc_url=None, generate_unique_id_function=operation_id)
    app.state.settings = settings
    app.state.metrics = Metrics()
    app.state.ready = False
    app.state.loading = False
    app.state.runtime = None
    install_handlers(app)
    for module in (diagnose, config, search, content, ops, pages, docs):
        app.include_router(module.router)
    install_openapi(app)
    app.add_middleware(ResponseCache, settings=settings, metrics=app.state.metrics)
    app.add_middleware(BodyGuard, settings=settings, problem=asgi_problem)
    if settings.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=settings.cors_origins,
            allow_methods=["GET", "POST", "OPTIONS"],
            allow_headers=["Content-Type", "Accept-Language", "If-None-Match", "X-Request-ID", "traceparent",
                           "tracestate"],
            expose_headers=["ETag", "Content-Language", "X-Request-ID", "traceparent"],
            max_age=600,
        )
    app.add_middleware(RequestContext, settings=settings, metrics=app.state.metrics)
    if not lazy:
        attach_runtime(app, runtime or load_runtime(settings))
    return app


def serve_app() -> FastAPI:
    """The app `remedy serve` runs in each worker: JSON logs, knowledge built in the background."""
    settings = Settings()
    configure_logging(settings)
    return create_app(settings, lazy=True)
