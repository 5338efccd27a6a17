"""Render a language-neutral `Plan` into the localized `steps`, `risk`, `related`, `questions` and `conflicts`.

The engine chose which text variant is true for the facts; this layer looks it up by id and fills it from the
facts (rendering/fill.py), so no id and no unfilled alternative reaches a person.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..content.models import LanguageText, NeedSpec
from ..engine.plan import Plan, PlannedStep
from ..engine.risk import Risk
from ..index.build import Index
from ..understanding.caches import NO_CACHE, Caches
from .fill import Word, fill
from .views import View, faq_url, risk_table_row, section_url, source_of


def fill_values(index: Index, lang: str, facts: Mapping[str, Any]) -> dict[str, Any]:
    """The values texts are filled from: the known facts, the family's localized name and its risk-table cells,
    and the buckets kept and dropped by the bucket step."""
    text = index.texts[lang]
    values = {k: v for k, v in facts.items() if v is not None}
    family = facts.get("family")
    if family in text.families:
        ftext = text.families[family]
        values["family"] = Word(ftext.name, ftext.reading)
        cells = risk_table_row(index, lang, family)
        if cells:
            values["high_risk"], values["safe_attempt"] = cells[1], cells[2]
    buckets = sorted(set(facts.get("resolutions") or ()))
    if len(buckets) >= 2:
        values["kept"], values["dropped"] = tuple(buckets[:-1]), buckets[-1]
    return values


def _variant_text(value: str | Mapping[str, str], variant: str | None) -> str | None:
    if isinstance(value, str):
        return value
    return value.get(variant) if variant is not None else None


def render_steps(index: Index, plan: Plan, lang: str) -> list[View]:
    text = index.texts[lang]
    values = fill_values(index, lang, plan.facts)
    out = []
    for order, step in enumerate(plan.steps, start=1):
        stext = text.steps[step.id]
        compiled = index.steps[step.id].step
        reason_section = index.content.rules.reasons[step.reason].section
        reason = _variant_text(text.rules.reasons[step.reason], step.reason_variant)
        if reason is None:  # no variant holds: say only where the step comes from (tests keep this unreached)
            reason = _section_title(index, text, reason_section)
        checks = _checks(index, text, step, values)
        view: View = {
            "order": order,
            "id": step.id,
            "title": stext.title,
            "detail": _detail(text, step, values, checks),
            "reason": {"rule": step.reason, "section": reason_section, "text": fill(reason, lang, values)},
            "config_patch": step.config_patch,
            "ui_path": list(compiled.ui_path),
            "source": source_of(index, lang, step.section),
        }
        if checks:
            view["checks"] = checks
        if compiled.watch:
            view["watch"] = list(_guide_list(text, *compiled.watch))
        out.append(view)
    return out


def _detail(text: LanguageText, step: PlannedStep, values: Mapping[str, Any], checks: list[View]) -> str:
    detail = text.steps[step.id].detail
    if isinstance(detail, str):
        parts = [fill(detail, text.lang, values)]
    else:
        parts = [fill(detail[v], text.lang, values) for v in step.detail_parts]
    not_met = [c for c in checks if c["status"] == "not-met"]
    if not_met:
        items = "; ".join(f"{c['text']} ({c['note']})" if c.get("note") else c["text"] for c in not_met)
        parts.append(f"{text.rules.check_status['not-met']}: {items}.")
    return " ".join(parts)


def _checks(index: Index, text: LanguageText, step: PlannedStep, values: Mapping[str, Any]) -> list[View]:
    compiled = {c.check.id: c.check for c in index.steps[step.id].checks}
    notes = text.steps[step.id].checks
    out = []
    for result in step.checks:
        check = compiled[result.id]
        item: View = {
            "id": result.id,
            "text": _guide_list(text, check.section, check.key)[check.item],
            "status": result.status,
            "status_text": text.rules.check_status[result.status],
        }
        if result.note is not None:
            item["note"] = fill(notes[result.id][result.note], text.lang, values)
        out.append(item)
    return out


def _guide_list(text: LanguageText, section: str, key: str) -> tuple[str, ...]:
    for gtext in text.guides.values():
        items = gtext.sections.get(section, {}).get(key)
        if isinstance(items, tuple):
            return items
    return ()


def _section_title(index: Index, text: LanguageText, section: str) -> str:
    gtext = text.guides[index.sections[section]]
    title = gtext.sections[section].get("title")
    return title if isinstance(title, str) else gtext.title


def render_risk(index: Index, risk: Risk, lang: str, facts: Mapping[str, Any] | None = None) -> View:
    text = index.texts[lang]
    values = fill_values(index, lang, {**risk.params, **(facts or {})})
    return {
        "level": risk.level,
        "family": risk.family,
        "rule": risk.rule,
        "reasons": [{"id": f, "text": fill(text.rules.risk_reasons[f], lang, values)} for f in risk.facts],
    }


def render_related(index: Index, ids: tuple[str, ...], lang: str) -> list[View]:
    """Related FAQ entries and guide sections, in the order the content lists them."""
    text = index.texts[lang]
    out: list[View] = []
    for ident in ids:
        if ident in index.faq:
            question = text.faq[ident]["question"]
            out.append({"kind": "faq", "id": ident, "title": question, "url": faq_url(index, lang, ident)})
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


def render_questions(index: Index, fields: tuple[str, ...], lang: str, c: Caches = NO_CACHE) -> list[View]:
    """A localized question per needed input, with the options a bot can offer and send back as `context` (each
    question's text and labels remembered per language and input in `c.questions`: they come from the knowledge
    alone)."""
    out: list[View] = []
    for field in fields:
        question = c.questions.get((lang, field))
        if question is None:
            question = _question(index, field, lang)
            c.questions.put((lang, field), question)
        text, options = question
        out.append({"field": field, "text": text, "options": [{"value": v, "label": label} for v, label in options]})
    return out


def _question(index: Index, field: str, lang: str) -> tuple[str, tuple[tuple[Any, str], ...]]:
    text = index.texts[lang]
    spec = next(n.spec for n in index.needs if n.spec.field == field)
    qtext = text.rules.questions[field]
    return qtext.text, tuple((option, _option_label(text, spec, qtext, option)) for option in spec.options)


def _option_label(text: LanguageText, spec: NeedSpec, qtext: Any, option: Any) -> str:
    if spec.labels == "boolean":
        return str(qtext.yes if option else qtext.no)
    if spec.labels == "family":
        return text.families[option].name
    return fill("{v}", text.lang, {"v": tuple(option) if isinstance(option, list) else option})


def render_conflicts(index: Index, conflicts: tuple[tuple[str, tuple[str, ...], Mapping[str, Any]], ...],
                     lang: str, facts: Mapping[str, Any]) -> list[View]:
    """Each contradiction between the inputs, with the text saying which one the answer follows."""
    text = index.texts[lang]
    base = fill_values(index, lang, facts)
    return [{"fields": list(fields), "text": fill(text.rules.conflicts[cid], lang, {**base, **extra})}
            for cid, fields, extra in conflicts]


def render_plan(index: Index, plan: Plan, lang: str, caches: Caches = NO_CACHE) -> View:
    """The parts of a diagnose answer that come from the plan (`caches`: the runtime's memo tables)."""
    sym = index.texts[lang].symptoms[plan.symptom]
    facts = plan.facts
    symptom_conflicts = tuple(
        (c.conflict.id, c.conflict.fields, {"symptom": sym.title})
        for c in index.conflicts if c.conflict.id in plan.conflicts
    )
    return {
        "symptom": {"id": plan.symptom, "title": sym.title, "confidence": 1.0},
        "context": plan.context.model_dump(exclude_none=True),
        "steps": render_steps(index, plan, lang),
        "risk": render_risk(index, plan.risk, lang, facts),
        "related": render_related(index, plan.related, lang),
        "needs": list(plan.needs),
        "questions": render_questions(index, plan.needs, lang, caches),
        "conflicts": render_conflicts(index, symptom_conflicts, lang, facts),
    }
