"""POST /v1/diagnose: a symptom (and what is known of the job) in, ordered remediation out."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from starlette.responses import Response

from .. import schemas
from ..deps import RuntimeDep
from ..lane import compute
from ..responses import json_response
from ..work import Work

router = APIRouter(prefix="/v1", tags=["diagnose"])

_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": schemas.Problem, "description": "Empty body or malformed JSON."},
    422: {"model": schemas.Problem, "description": "Wrong types, unknown ids or nothing to diagnose."},
}


@router.post("/diagnose", response_model=schemas.DiagnoseResponse, responses=_ERRORS)
async def diagnose(body: schemas.DiagnoseRequest, request: Request, runtime: RuntimeDep) -> Response:
    """Ordered remediation steps for a symptom or a free-text question or log, in the requested language.

    Send `symptom` (an id) or `query` (free text or a pasted log, in any supported language). For a query,
    `match` says how sure the answer is (`confident`, `ambiguous`, `none`), `symptom.confidence` gives the
    figure, `alternatives` the runners-up, `context` what the text stated and `signals` the facts read from
    a log. A host-RAM kill or a CUDA error that is not out-of-memory gets no symptom and a signal naming it.

    Steps come in the guide's order for that symptom; each says why it is there (`reason`), where the
    setting lives (`ui_path`), and the exact config change where the guide gives one (`config_patch`).
    `risk` rates the job's out-of-memory risk from what `context` says, `needs` lists inputs that would
    change the answer. Step ids and their order never depend on the language.
    """
    neg = runtime.catalogs.negotiate(body.lang or request.query_params.get("lang"),
                                     request.headers.get("accept-language"))
    request.state.lang = neg.lang
    answer = await compute(request, Work("diagnose", neg, {
        "symptom": body.symptom, "context": body.context, "query": body.query, "config": body.config,
        "config_yaml": body.config_yaml}))
    if body.query is not None and not body.symptom:
        request.app.state.metrics.count_match(request.scope, "diagnose", neg.lang, answer["match"])
    return json_response(answer, neg)
