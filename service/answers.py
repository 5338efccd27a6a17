"""Whole answers, shared by the HTTP API and the CLI: inputs + negotiated language -> answer dict.

This is where engine and rendering meet; it reads nothing but its arguments.
"""

from __future__ import annotations

from typing import Any

from .catalogs import Catalogs, Negotiated
from .content.context import Context
from .engine.plan import plan_symptom
from .errors import N_, MissingInput, UnsupportedInput
from .index.build import Index
from .rendering.diagnosis import render_plan

FALLBACK_MESSAGE = N_("The language {requested} is not available; this answer is in {served}.")


def fallback_view(catalogs: Catalogs, neg: Negotiated) -> dict[str, Any] | None:
    """The body's `fallback` object when the requested language could not be served."""
    if neg.fallback is None:
        return None
    reason, _, requested = neg.fallback.partition(":")
    template = catalogs.gettext(neg.lang, FALLBACK_MESSAGE)
    return {
        "requested": requested or neg.requested,
        "reason": reason,
        "message": template.format(requested=requested, served=catalogs.name(neg.lang)),
    }


def answer_diagnosis(
    index: Index,
    catalogs: Catalogs,
    neg: Negotiated,
    *,
    symptom: str | None = None,
    context: Context | None = None,
    query: str | None = None,
    config: dict[str, Any] | None = None,
    config_yaml: str | None = None,
) -> dict[str, Any]:
    """The `POST /v1/diagnose` answer."""
    if query is not None:
        raise UnsupportedInput(field="query")
    if config is not None or config_yaml is not None:
        raise UnsupportedInput(field="config")
    if not symptom:
        raise MissingInput()
    plan = plan_symptom(index, symptom, context or Context())
    answer: dict[str, Any] = {"lang": neg.lang}
    fallback = fallback_view(catalogs, neg)
    if fallback:
        answer["fallback"] = fallback
    answer["match"] = "confident"
    answer.update(render_plan(index, plan, neg.lang))
    answer["alternatives"] = []
    answer["signals"] = []
    answer["knowledge_revision"] = index.revision
    return answer
