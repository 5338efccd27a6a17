"""POST /v1/diagnose: a symptom (and what is known of the job) in, ordered remediation out."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from starlette.responses import Response

from ...answers import answer_diagnosis
from .. import schemas
from ..deps import RuntimeDep
from ..responses import json_response

router = APIRouter(prefix="/v1", tags=["diagnose"])

_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": schemas.Problem, "description": "Empty body or malformed JSON."},
    422: {"model": schemas.Problem, "description": "Wrong types, unknown ids or nothing to diagnose."},
}


@router.post("/diagnose", response_model=schemas.DiagnoseResponse, responses=_ERRORS)
def diagnose(body: schemas.DiagnoseRequest, request: Request, runtime: RuntimeDep) -> Response:
    """Ordered remediation steps for a symptom, in the requested language.

    Steps come in the guide's order for that symptom; each says why it is there (`reason`), where the
    setting lives (`ui_path`), and the exact config change where the guide gives one (`config_patch`).
    `risk` rates the job's out-of-memory risk from what `context` says, `needs` lists inputs that would
    change the answer. Step ids and their order never depend on the language.
    """
    neg = runtime.catalogs.negotiate(body.lang or request.query_params.get("lang"),
                                     request.headers.get("accept-language"))
    request.state.lang = neg.lang
    answer = answer_diagnosis(
        runtime.index, runtime.catalogs, neg,
        symptom=body.symptom, context=body.context, query=body.query,
        config=body.config, config_yaml=body.config_yaml,
    )
    return json_response(answer, neg)
