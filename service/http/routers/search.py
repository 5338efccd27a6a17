"""GET /v1/search: symptoms, FAQ entries, sections and steps ranked for a free-text query."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from starlette.responses import Response

from .. import schemas
from ..deps import LangDep, RuntimeDep
from ..lane import compute
from ..responses import json_response
from ..work import Work

router = APIRouter(prefix="/v1", tags=["search"])


@router.get(
    "/search",
    response_model=schemas.SearchResponse,
    responses={422: {"model": schemas.Problem, "description": "Missing or invalid parameters."}},
)
async def search(
    request: Request,
    runtime: RuntimeDep,
    neg: LangDep,
    q: Annotated[str, Query(min_length=1, max_length=2000, description="The question, in any of the languages.")],
    limit: Annotated[int, Query(ge=1, le=50, description="Most hits to return.")] = 10,
) -> Response:
    """Rank the guide's symptoms, FAQ entries, sections and steps for `q`, written in any supported language.

    Titles and snippets come in the negotiated language, each hit with a link to its help page. `match` is
    `none` (and `hits` empty) when nothing is relevant, so a caller can hand off honestly.
    """
    answer = await compute(request, Work("search", neg, {"query": q, "limit": limit}))
    request.app.state.metrics.count_match(request.scope, "search", neg.lang, answer["match"])
    return json_response(answer, neg)
