"""Content endpoints: the guide and its parts as structured JSON in the negotiated language."""

from __future__ import annotations

from functools import partial
from typing import Any

from fastapi import APIRouter, Request
from starlette.responses import Response

from ...errors import UnknownGuide, UnknownSymptomPath
from ...rendering.views import (
    render_faq_entry,
    render_guide,
    render_guide_summary,
    render_risk_table,
    render_step,
    render_symptom,
)
from ...runtime import Runtime
from .. import schemas
from ..deps import CacheDep, ContentCache, LangDep, RuntimeDep
from ..responses import cached_response

router = APIRouter(prefix="/v1", tags=["content"])

_CACHED = {"model": None, "description": "Not modified (the `If-None-Match` ETag still holds)."}


def build_content_cache(runtime: Runtime) -> ContentCache:
    """Render every content answer once per language, at start-up."""
    index, catalogs = runtime.index, runtime.catalogs
    cache = ContentCache(runtime)
    cache.add(
        "locales",
        lambda lang: {
            "locales": [
                {
                    "code": code,
                    "name": catalogs.name(code),
                    "english_name": catalogs.name(code, "en"),
                    "default": code == index.default_lang,
                }
                for code in index.languages
            ]
        },
    )
    cache.add("guides", lambda lang: {"guides": [render_guide_summary(index, g, lang) for g in index.guides.values()]})
    for guide in index.guides.values():
        cache.add(f"guide:{guide.id}", partial(_guide_view, runtime, guide.id))
    cache.add("symptoms", lambda lang: {"symptoms": [render_symptom(index, s, lang) for s in index.symptoms]})
    for sid in index.symptoms:
        cache.add(f"symptom:{sid}", partial(_symptom_view, runtime, sid))
    cache.add("steps", lambda lang: {"steps": [render_step(index, s, lang) for s in index.steps]})
    cache.add("faq", lambda lang: {"faq": [render_faq_entry(index, f, lang) for f in index.faq.values()]})
    cache.add("risk-table", lambda lang: {"risk_table": render_risk_table(index, lang)})
    cache.add(
        "meta",
        lambda lang: {
            "meta": {
                "service": "remedy",
                "languages": list(index.languages),
                "default_language": index.default_lang,
                "guides": list(index.guides),
                "symptoms": list(index.symptoms),
                "steps": list(index.steps),
                "faq": list(index.faq),
                "model_families": list(index.families),
                "risk_levels": ["high", "elevated", "normal", "unknown"],
            }
        },
    )
    return cache


def _guide_view(runtime: Runtime, guide_id: str, lang: str) -> dict[str, Any]:
    return {"guide": render_guide(runtime.index, runtime.index.guides[guide_id], lang)}


def _symptom_view(runtime: Runtime, symptom_id: str, lang: str) -> dict[str, Any]:
    return {"symptom": render_symptom(runtime.index, symptom_id, lang)}


def _answer(request: Request, runtime: Runtime, cache: ContentCache, key: str, neg: LangDep) -> Response:
    payload, etag = cache.get(key, neg)
    return cached_response(request, payload, etag, neg, runtime.settings.cache_max_age)


@router.get("/locales", response_model=schemas.LocalesOut, responses={304: _CACHED})
async def list_locales(request: Request, runtime: RuntimeDep, cache: CacheDep, neg: LangDep) -> Response:
    """The languages Remedy answers in, each with its own name (`español`, `한국어`) and its English name."""
    return _answer(request, runtime, cache, "locales", neg)


@router.get("/guides", response_model=schemas.GuidesOut, responses={304: _CACHED})
async def list_guides(request: Request, runtime: RuntimeDep, cache: CacheDep, neg: LangDep) -> Response:
    """The guides, with their localized titles and section ids."""
    return _answer(request, runtime, cache, "guides", neg)


@router.get(
    "/guides/{guide_id}",
    response_model=schemas.GuideOut,
    responses={304: _CACHED, 404: {"model": schemas.Problem, "description": "No such guide."}},
)
async def get_guide(guide_id: str, request: Request, runtime: RuntimeDep, cache: CacheDep, neg: LangDep) -> Response:
    """The whole guide in the requested language: sections in order, each as structured blocks
    (paragraphs, lists, the checklist, the risk table, YAML code, the FAQ)."""
    key = f"guide:{guide_id}"
    if not cache.has(key):
        raise UnknownGuide(id=guide_id)
    return _answer(request, runtime, cache, key, neg)


@router.get("/symptoms", response_model=schemas.SymptomsOut, responses={304: _CACHED})
async def list_symptoms(request: Request, runtime: RuntimeDep, cache: CacheDep, neg: LangDep) -> Response:
    """Every symptom with its title, description and candidate steps in plan order."""
    return _answer(request, runtime, cache, "symptoms", neg)


@router.get(
    "/symptoms/{symptom_id}",
    response_model=schemas.SymptomOut,
    responses={304: _CACHED, 404: {"model": schemas.Problem, "description": "No such symptom."}},
)
async def get_symptom(
    symptom_id: str, request: Request, runtime: RuntimeDep, cache: CacheDep, neg: LangDep
) -> Response:
    """One symptom."""
    key = f"symptom:{symptom_id}"
    if not cache.has(key):
        raise UnknownSymptomPath(id=symptom_id)
    return _answer(request, runtime, cache, key, neg)


@router.get("/steps", response_model=schemas.StepsOut, responses={304: _CACHED})
async def list_steps(request: Request, runtime: RuntimeDep, cache: CacheDep, neg: LangDep) -> Response:
    """Every remediation step: title, detail, where it lives in the UI, its static config patch, its source."""
    return _answer(request, runtime, cache, "steps", neg)


@router.get("/faq", response_model=schemas.FaqOut, responses={304: _CACHED})
async def list_faq(request: Request, runtime: RuntimeDep, cache: CacheDep, neg: LangDep) -> Response:
    """The guide's FAQ: questions and answers."""
    return _answer(request, runtime, cache, "faq", neg)


@router.get("/risk-table", response_model=schemas.RiskTableOut, responses={304: _CACHED})
async def get_risk_table(request: Request, runtime: RuntimeDep, cache: CacheDep, neg: LangDep) -> Response:
    """The guide's model-family risk table, with each family's `arch` patterns and risk thresholds."""
    return _answer(request, runtime, cache, "risk-table", neg)


@router.get("/meta", response_model=schemas.MetaOut, responses={304: _CACHED})
async def get_meta(request: Request, runtime: RuntimeDep, cache: CacheDep, neg: LangDep) -> Response:
    """The knowledge revision and the stable ids of everything Remedy knows."""
    return _answer(request, runtime, cache, "meta", neg)
