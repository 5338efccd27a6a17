"""The FastAPI application: settings -> runtime -> routers, handlers and the content cache."""

from __future__ import annotations

from fastapi import FastAPI

from .. import __version__
from ..rendering.pages import Pages, load_assets
from ..runtime import Runtime, load_runtime
from ..settings import Settings
from .problems import install_handlers
from .routers import config, content, diagnose, ops, pages, search
from .routers.content import build_content_cache

DESCRIPTION = """Remedy answers AI Toolkit out-of-memory failures with ordered, localized remediation steps,
from the guide "Why disabling Gradient Checkpointing causes OOM in AI Toolkit". Deterministic: no LLM and
no network at run time. Languages: en (default and fallback), es, pt, fr, de, ko. Errors are RFC 9457
problem details (`application/problem+json`) with a stable `code`."""


def create_app(settings: Settings | None = None, runtime: Runtime | None = None) -> FastAPI:
    """Build the app. Broken knowledge raises `ContentProblems` here, so the service never starts on it."""
    runtime = runtime or load_runtime(settings or Settings())
    app = FastAPI(title="Remedy", version=__version__, description=DESCRIPTION)
    app.state.ready = False
    app.state.runtime = runtime
    install_handlers(app)
    app.include_router(diagnose.router)
    app.include_router(config.router)
    app.include_router(search.router)
    app.include_router(content.router)
    app.include_router(ops.router)
    app.include_router(pages.router)
    app.state.content_cache = build_content_cache(runtime)
    app.state.pages = Pages(runtime.index, runtime.catalogs, load_assets())
    app.state.ready = True
    return app
