"""Whole answers, shared by the HTTP API and the CLI: inputs + negotiated language -> answer dict.

This is where understanding, engine and rendering meet; it reads nothing but its arguments.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from .catalogs import Catalogs, Negotiated
from .content.context import Context
from .engine.check import check_job
from .engine.facts import resolve_context
from .engine.plan import Plan, plan_symptom
from .engine.risk import assess_risk
from .errors import N_, ConflictingInput, MissingConfig, MissingInput
from .index.build import Index
from .jobconfig.reader import JobView, read_job
from .jobconfig.yamltext import load_yaml_text
from .rendering.check import render_check
from .rendering.diagnosis import render_plan, render_related, render_risk
from .rendering.views import render_search_hit
from .understanding.extract import as_context_fields
from .understanding.limits import DEFAULT_LIMITS, WorkLimits
from .understanding.matcher import Scored, Understanding, outcome, understand

FALLBACK_MESSAGE = N_("The language {requested} is not available; this answer is in {served}.")


@dataclass(frozen=True, slots=True)
class Thresholds:
    confident: float = 0.5
    minimum: float = 0.25


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


def _text_context(u: Understanding) -> dict[str, Any]:
    fields = as_context_fields(u.stated)
    if u.arch:
        fields["model_arch"] = u.arch  # a pasted config line names the model exactly: its family follows from it
    elif u.family:
        fields["model_family"] = u.family
    if u.phase:
        fields["phase"] = u.phase
    return fields


def _merge(*layers: dict[str, Any] | None) -> Context:
    """Later layers win: text < config < explicit context."""
    merged: dict[str, Any] = {}
    for layer in layers:
        if layer:
            if "model_arch" in layer and "model_family" not in layer:
                merged.pop("model_family", None)  # the family follows the arch this layer states
            merged.update({k: v for k, v in layer.items() if v is not None})
    return Context.model_validate(merged)


def _symptom_ref(index: Index, lang: str, scored: Scored, confidence: float) -> dict[str, Any]:
    return {"id": scored.id, "title": index.texts[lang].symptoms[scored.id].title, "confidence": confidence}


def _signals(index: Index, lang: str, u: Understanding) -> list[dict[str, Any]]:
    texts = index.texts[lang].signals
    out = []
    for signal in u.log.signals:
        template = texts.get(signal.id, signal.id)
        try:
            text = template.format(**signal.data)
        except (KeyError, IndexError, ValueError):
            text = template
        out.append({"id": signal.id, "text": text, "data": signal.data})
    return out


def _patch_where_the_batch_is(plan: Plan, view: JobView | None) -> Plan:
    """A dataset's own `batch_size` overrides `train.batch_size` (the job runs at the largest): when the
    submitted config's batch comes from a dataset, a batch patch sets every dataset too, or lowering
    `train.batch_size` alone would change nothing. (A one-entry `datasets` list patches every dataset, as the
    bucket patch does.)"""
    located = view.locations.get("batch_size") if view is not None else None
    if located is None or ".datasets[" not in located.path:
        return plan
    steps = []
    for step in plan.steps:
        patch = step.config_patch or {}
        batch = patch.get("train", {}).get("batch_size") if isinstance(patch.get("train"), dict) else None
        if batch is not None:
            step = replace(step, config_patch={**patch, "datasets": [{"batch_size": batch}]})
        steps.append(step)
    return replace(plan, steps=tuple(steps))


def read_config(index: Index, config: dict[str, Any] | None, config_yaml: str | None) -> JobView | None:
    """The submitted job config (an object or YAML text), read as AI Toolkit would read it."""
    if config is not None and config_yaml is not None:
        raise ConflictingInput(first="config", second="config_yaml")
    if config is None and config_yaml is None:
        return None
    data = config if config is not None else load_yaml_text(config_yaml or "")
    return read_job(data, index.flag_arch)


def answer_config_check(index: Index, catalogs: Catalogs, neg: Negotiated, *, config: dict[str, Any] | None = None,
                        config_yaml: str | None = None) -> dict[str, Any]:
    """The `POST /v1/config/check` answer."""
    view = read_config(index, config, config_yaml)
    if view is None:
        raise MissingConfig()
    check = check_job(index, view)
    answer: dict[str, Any] = {"lang": neg.lang}
    fallback = fallback_view(catalogs, neg)
    if fallback:
        answer["fallback"] = fallback
    answer["context"] = resolve_context(index, view.context).model_dump(exclude_none=True)
    answer.update(render_check(index, check, neg.lang))
    answer["knowledge_revision"] = index.revision
    return answer


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
    thresholds: Thresholds = Thresholds(),
    limits: WorkLimits = DEFAULT_LIMITS,
) -> dict[str, Any]:
    """The `POST /v1/diagnose` answer."""
    view = read_config(index, config, config_yaml)
    if not symptom and not (query and query.strip()) and view is None:
        raise MissingInput()
    lang = neg.lang
    u = understand(index.matcher, query, lang, limits) if query and query.strip() else None
    explicit = context.model_dump(exclude_none=True) if context else None
    from_config = view.context.model_dump(exclude_none=True) if view else None
    merged = _merge(_text_context(u) if u else None, from_config, explicit)

    match, chosen, confidence, alternatives = "confident", symptom, 1.0, []
    if not symptom and u is not None:
        candidates = [s for s in u.ranked if s.kind == "symptom"]
        best = candidates[0].score if candidates else 0.0
        second = candidates[1].score if len(candidates) > 1 else 0.0
        match, confidence = outcome(best, second, thresholds.confident, thresholds.minimum)
        chosen = candidates[0].id if candidates and match != "none" else None
        for alt in candidates[1:4]:
            _, alt_conf = outcome(alt.score, best, thresholds.confident, thresholds.minimum)
            if alt_conf >= thresholds.minimum / 2:
                alternatives.append(_symptom_ref(index, lang, alt, alt_conf))

    answer: dict[str, Any] = {"lang": lang}
    fallback = fallback_view(catalogs, neg)
    if fallback:
        answer["fallback"] = fallback
    answer["match"] = match
    if chosen is not None:
        plan = _patch_where_the_batch_is(plan_symptom(index, chosen, merged), view)
        answer.update(render_plan(index, plan, lang))
        answer["symptom"]["confidence"] = confidence
    else:
        resolved = resolve_context(index, merged)
        related = tuple(s.id for s in (u.ranked if u else ()) if s.kind in ("faq", "section"))[:3]
        answer.update({
            "symptom": None,
            "context": resolved.model_dump(exclude_none=True),
            "steps": [],
            "risk": render_risk(index, assess_risk(index, resolved), lang),
            "related": render_related(index, related, lang),
            "needs": [],
        })
    answer["alternatives"] = alternatives
    answer["signals"] = _signals(index, lang, u) if u else []
    answer["knowledge_revision"] = index.revision
    return answer


def answer_search(
    index: Index, catalogs: Catalogs, neg: Negotiated, query: str, limit: int,
    thresholds: Thresholds = Thresholds(), limits: WorkLimits = DEFAULT_LIMITS,
) -> dict[str, Any]:
    """The `GET /v1/search` answer: symptoms, FAQ entries, sections and steps, best first."""
    u = understand(index.matcher, query, neg.lang, limits)
    ranked = list(u.ranked)
    best = ranked[0].score if ranked else 0.0
    second = ranked[1].score if len(ranked) > 1 else 0.0
    match, _ = outcome(best, second, thresholds.confident, thresholds.minimum)
    hits = []
    if match != "none":
        for scored in ranked[:limit]:
            _, score = outcome(scored.score, 0.0, thresholds.confident, thresholds.minimum)
            hits.append(render_search_hit(index, neg.lang, scored.kind, scored.id, score))
    answer: dict[str, Any] = {"lang": neg.lang}
    fallback = fallback_view(catalogs, neg)
    if fallback:
        answer["fallback"] = fallback
    answer.update({"query": query, "match": match, "hits": hits, "knowledge_revision": index.revision})
    return answer


__all__ = ["Thresholds", "answer_config_check", "answer_diagnosis", "answer_search", "fallback_view", "read_config"]
