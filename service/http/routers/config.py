"""POST /v1/config/check: what in a job config risks an out-of-memory crash, and the safer value."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from starlette.responses import Response

from .. import schemas
from ..deps import RuntimeDep
from ..lane import compute
from ..responses import json_response
from ..work import Work

router = APIRouter(prefix="/v1", tags=["config"])

_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": schemas.Problem, "description": "Empty body or malformed JSON."},
    413: {"model": schemas.Problem, "description": "The YAML text is too large."},
    422: {"model": schemas.Problem,
          "description": "Broken YAML (with line and column), a YAML alias bomb or object tag, not a training job, "
                         "or not an AI Toolkit job config."},
}


@router.post("/config/check", response_model=schemas.ConfigCheckResponse, responses=_ERRORS)
async def check_config(body: schemas.ConfigCheckRequest, request: Request, runtime: RuntimeDep) -> Response:
    """Check an AI Toolkit job config before launch.

    The config is read as the trainer reads it (its defaults applied: a missing `gradient_checkpointing`
    is on, a dataset-level `batch_size` overrides `train.batch_size`). The answer gives the effective
    `context`, the out-of-memory `risk` with its reasons, and `findings`, most severe first, each with the
    `path` in the submitted config, the current `value`, the `suggested` safer value where the guide gives
    one and the remediation `step`, titles and details in the requested language.
    """
    neg = runtime.catalogs.negotiate(body.lang or request.query_params.get("lang"),
                                     request.headers.get("accept-language"))
    request.state.lang = neg.lang
    answer = await compute(request, Work("config-check", neg, {"config": body.config,
                                                                "config_yaml": body.config_yaml}))
    return json_response(answer, neg)
