"""Render a language-neutral `Plan` into the localized `steps`, `risk` and `related` of an answer."""

from __future__ import annotations

from typing import Any

from ..engine.plan import Plan
from ..engine.risk import Risk
from ..index.build import Index
from .views import View, section_url, source_of


class Params(dict[str, Any]):
    """format_map mapping that leaves an unknown placeholder visible instead of failing."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def render_steps(index: Index, plan: Plan, lang: str) -> list[View]:
    text = index.texts[lang]
    out = []
    for order, step in enumerate(plan.steps, start=1):
        stext = text.steps[step.id]
        compiled = index.steps[step.id].step
        reason_section = index.content.rules.reasons[step.reason].section
        out.append({
            "order": order,
            "id": step.id,
            "title": stext.title,
            "detail": stext.detail,
            "reason": {
                "rule": step.reason,
                "section": reason_section,
                "text": text.rules.reasons[step.reason],
            },
            "config_patch": step.config_patch,
            "ui_path": list(compiled.ui_path),
            "source": source_of(index, lang, step.section),
        })
    return out


def render_risk(index: Index, risk: Risk, lang: str) -> View:
    text = index.texts[lang]
    params = Params(risk.params)
    if risk.family is not None:
        params["family"] = text.families[risk.family].name
    return {
        "level": risk.level,
        "family": risk.family,
        "rule": risk.rule,
        "reasons": [{"id": f, "text": text.rules.risk_reasons[f].format_map(params)} for f in risk.facts],
    }


def render_related(index: Index, ids: tuple[str, ...], lang: str) -> list[View]:
    """Related FAQ entries and guide sections, in the order the content lists them."""
    text = index.texts[lang]
    out: list[View] = []
    for ident in ids:
        if ident in index.faq:
            question = text.faq[ident]["question"]
            out.append({"kind": "faq", "id": ident, "title": question,
                        "url": section_url(index, lang, index.faq[ident].section)})
        elif ident in index.sections:
            guide_id = index.sections[ident]
            sec_text = text.guides[guide_id].sections[ident]
            title = sec_text.get("title")
            out.append({
                "kind": "section",
                "id": ident,
                "title": title if isinstance(title, str) else text.guides[guide_id].title,
                "url": section_url(index, lang, ident),
            })
    return out


def render_plan(index: Index, plan: Plan, lang: str) -> View:
    """The parts of a diagnose answer that come from the plan."""
    sym = index.texts[lang].symptoms[plan.symptom]
    return {
        "symptom": {"id": plan.symptom, "title": sym.title, "confidence": 1.0},
        "context": plan.context.model_dump(exclude_none=True),
        "steps": render_steps(index, plan, lang),
        "risk": render_risk(index, plan.risk, lang),
        "related": render_related(index, plan.related, lang),
        "needs": list(plan.needs),
    }
