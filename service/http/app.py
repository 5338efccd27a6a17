"""The FastAPI application: settings -> runtime -> routers, handlers, middleware and the content cache."""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import signal
import sys
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from types import FrameType

from fastapi import FastAPI
from starlette.middleware.cors import CORSMiddleware

from .. import __version__
from ..catalogs import Catalogs
from ..content.checks import check_content
from ..content.loader import load_content
from ..content.problems import ContentProblems, Problem
from ..rendering.pages import Pages, check_templates, load_assets
from ..runtime import Runtime, gc_paused, load_runtime
from ..settings import Settings
from .cache import ResponseCache
from .contract import install_openapi, operation_id
from .guards import BodyGuard, ConcurrencyLimit, RequestGuard
from .lane import Lane, ThreadLane
from .lane_process import ProcessLane
from .logconfig import configure_logging
from .metrics import Metrics
from .middleware import RequestContext
from .problems import asgi_problem, install_handlers
from .routers import config, content, diagnose, docs, ops, pages, search
from .routers.content import build_content_cache

DESCRIPTION = """Remedy answers AI Toolkit out-of-memory failures with ordered, localized remediation steps,
from the guide "Why disabling Gradient Checkpointing causes OOM in AI Toolkit". Deterministic: no LLM and
no network at run time. Languages: en (default and fallback), es, pt, fr, de, ko. Errors are RFC 9457
problem details (`application/problem+json`) with a stable `code`."""

log = logging.getLogger("remedy.app")
NEVER_READY_EXIT = 3  # a worker whose knowledge cannot load exits with this code (uvicorn's start-up failure)


def precheck(settings: Settings) -> None:
    """Everything a worker needs besides the index, checked before binding: the knowledge (every problem), the
    gettext catalogs, the page templates and the static files. Raises `ContentProblems` listing what is broken."""
    content = load_content(settings.knowledge_dir)
    problems, _ = check_content(content)
    try:
        Catalogs(settings.locales_dir, content.languages.supported, content.languages.default)
    except Exception as exc:  # a corrupt .mo raises OSError, struct.error, UnicodeDecodeError...
        problems.append(Problem(str(settings.locales_dir), "", "catalog-unreadable", f"{type(exc).__name__}: {exc}"))
    for name, error in check_templates().items():
        problems.append(Problem(f"service/rendering/templates/{name}", "", "template-invalid", error))
    try:
        load_assets()
    except OSError as exc:
        problems.append(Problem("service/rendering/static", "", "static-missing", str(exc)))
    if problems:
        raise ContentProblems(problems)


def drain_on_sigterm(app: FastAPI, grace: float) -> None:
    """On SIGTERM, `/readyz` answers 503 for `grace` seconds while everything else is still served, then the
    server's own handler (installed before the lifespan runs) shuts down gracefully: a load balancer stops
    sending traffic before the listener closes. A second SIGTERM stops at once."""
    if threading.current_thread() is not threading.main_thread():
        return  # signals are the main thread's (a test client runs the app in another thread)
    server_handler = signal.getsignal(signal.SIGTERM)
    if not callable(server_handler):
        return
    loop = asyncio.get_running_loop()

    def on_sigterm(sig: int, frame: FrameType | None) -> None:
        if app.state.draining:
            server_handler(sig, frame)
            return
        app.state.draining = True
        log.info("SIGTERM: not ready from now on, stopping in %.1f s", grace)
        loop.call_soon_threadsafe(loop.call_later, grace, server_handler, sig, frame)

    signal.signal(signal.SIGTERM, on_sigterm)


def attach_runtime(app: FastAPI, runtime: Runtime) -> None:
    """Render what is rendered once, then mark the app ready (`/readyz`)."""
    with gc_paused():
        app.state.content_cache = build_content_cache(runtime)
        app.state.pages = Pages(runtime.index, runtime.catalogs, load_assets(), app.state.settings.page_cache_bytes)
    app.state.runtime = runtime
    app.state.metrics.set_build(__version__, runtime.index.revision)
    app.state.metrics.sample_process()
    # The index is read-only from here on: keep it out of the cyclic GC's scans, so a collection during a
    # request costs the same whatever the size of the knowledge. (No collection first: start-up leaves no
    # cyclic garbage to free.)
    gc.freeze()
    app.state.ready = True


def make_lane(settings: Settings) -> Lane | None:
    """The heavy lane `REMEDY_HEAVY_LANE` asks for (lane.py); None computes large requests on the event loop."""
    if settings.heavy_lane == "process":
        return ProcessLane(settings)
    return ThreadLane() if settings.heavy_lane == "thread" else None


_STARTING: set[asyncio.Task[None]] = set()  # lanes being started (the loop keeps only weak references to tasks)


def start_lane(lane: Lane, runtime: Runtime, metrics: Metrics) -> None:
    """Start `lane` in the background, on the running loop; sample the memory once it is up."""
    task = asyncio.ensure_future(lane.start(runtime))
    _STARTING.add(task)
    task.add_done_callback(_STARTING.discard)
    task.add_done_callback(lambda _: metrics.sample_process(now=True))


def install_middleware(app: FastAPI, settings: Settings, lane: Lane | None) -> None:
    """The middleware stack, from the innermost (the response cache) out."""
    app.add_middleware(ResponseCache, settings=settings, metrics=app.state.metrics)
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
    # Outermost last: request id and log line, then headers (431, HEAD), body (413/408/400), then the
    # concurrency limit (503) around the computing, which sends a large request to the heavy lane.
    app.add_middleware(ConcurrencyLimit, settings=settings, problem=asgi_problem, lane=lane)
    app.add_middleware(BodyGuard, settings=settings, problem=asgi_problem)
    app.add_middleware(RequestGuard, settings=settings, problem=asgi_problem)
    app.add_middleware(RequestContext, settings=settings, metrics=app.state.metrics)


def create_app(settings: Settings | None = None, runtime: Runtime | None = None, lazy: bool = False) -> FastAPI:
    """Build the app. Eager (the default) loads the knowledge here, so broken knowledge raises
    `ContentProblems` before anything is served; `lazy` answers `/healthz` at once, `/readyz` once the
    index is built in the background, and holds other requests until then (503 `not-ready` after 15 s)."""
    settings = settings or (runtime.settings if runtime else Settings())
    lane = make_lane(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # The thread lane yields to the event loop this often (lane.py); no thread but the lane computes.
        sys.setswitchinterval(settings.switch_interval)
        if lazy:
            drain_on_sigterm(app, settings.shutdown_grace)
        loop = asyncio.get_running_loop()
        if lane is not None and app.state.runtime is not None:
            await lane.start(app.state.runtime)
            app.state.metrics.sample_process(now=True)
        elif lazy and app.state.runtime is None:
            def load() -> None:
                try:
                    attach_runtime(app, load_runtime(settings))
                    if lane is not None:  # started from the event loop's thread (a fork from there is safe)
                        loop.call_soon_threadsafe(start_lane, lane, app.state.runtime, app.state.metrics)
                except BaseException:
                    # This worker can never become ready: exit, so that its supervisor restarts it (or a rollout
                    # stops) instead of a live process answering 503 forever.
                    log.exception("the knowledge could not be loaded; this worker exits")
                    logging.shutdown()
                    os._exit(NEVER_READY_EXIT)
                finally:
                    app.state.loading = False

            app.state.loading = True
            threading.Thread(target=load, name="remedy-index", daemon=True).start()
        try:
            yield
        finally:
            if lane is not None:
                lane.close()

    app = FastAPI(title="Remedy", version=__version__, description=DESCRIPTION, lifespan=lifespan,
                  docs_url=None, redoc_url=None, generate_unique_id_function=operation_id)
    app.state.settings = settings
    app.state.metrics = Metrics()
    app.state.metrics.lane_pid = lambda: getattr(lane, "pid", None)  # the process lane's child (0 bytes: none)
    app.state.ready = False
    app.state.draining = False
    app.state.loading = False
    app.state.runtime = None
    app.state.lane = lane
    install_handlers(app)
    for module in (diagnose, config, search, content, ops, pages, docs):
        app.include_router(module.router)
    install_openapi(app)
    install_middleware(app, settings, lane)
    if not lazy:
        attach_runtime(app, runtime or load_runtime(settings))
    return app


def serve_app() -> FastAPI:
    """The app `remedy serve` runs in each worker: JSON logs, knowledge built in the background."""
    settings = Settings()
    configure_logging(settings)
    return create_app(settings, lazy=True)
