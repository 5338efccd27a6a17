"""Operations: liveness and readiness."""

from __future__ import annotations

from fastapi import APIRouter, Request
from prometheus_client import CONTENT_TYPE_LATEST
from starlette.responses import Response

from ...errors import NotFound
from .. import schemas
from ..responses import dumps

router = APIRouter(tags=["operations"])


@router.get("/healthz", response_model=schemas.Health)
async def healthz() -> Response:
    """Liveness: the process answers."""
    return Response(b'{"status":"ok"}', media_type="application/json")


@router.get("/metrics", response_class=Response, responses={
    200: {"content": {"text/plain": {}}},
    404: {"model": schemas.Problem, "description": "Served on the port of REMEDY_METRICS_PORT instead."},
})
async def metrics(request: Request) -> Response:
    """Prometheus metrics of every worker: requests and latency per route, free-text match outcomes per
    language (the no-match rate is `remedy_match_total{match="none"}` over all), build and process series.
    Not found here when `REMEDY_METRICS_PORT` serves them on a port of their own."""
    if request.app.state.settings.metrics_port:
        raise NotFound()
    return Response(request.app.state.metrics.render(), media_type=CONTENT_TYPE_LATEST)


@router.get("/readyz", response_model=schemas.Ready, responses={503: {"model": schemas.Ready}})
async def readyz(request: Request) -> Response:
    """Readiness: true once the knowledge index is built, every answer is rendered and the heavy lane is up
    (its process, with `REMEDY_HEAVY_LANE=process`); false while that process restarts, and from SIGTERM on
    (for `REMEDY_SHUTDOWN_GRACE` seconds the worker still serves, then it stops listening)."""
    runtime = getattr(request.app.state, "runtime", None)
    state = request.app.state
    lane = getattr(state, "lane", None)
    ready = (bool(getattr(state, "ready", False)) and runtime is not None and not getattr(state, "draining", False)
             and (lane is None or lane.ready))
    body = {"ready": ready, "knowledge_revision": runtime.index.revision if runtime else None}
    return Response(dumps(body), status_code=200 if ready else 503, media_type="application/json")
