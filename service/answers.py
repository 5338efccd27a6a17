"""Whole answers, shared by the HTTP API and the CLI: inputs + negotiated language -> answer dict.

This is where understanding, engine and rendering meet; it reads nothing but its arguments.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, NamedTuple

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
from .rendering.diagnosis import render_conflicts, render_plan, render_related, render_risk
from .rendering.fill import fill
from .rendering.views import render_search_hit, render_topic
from .understanding.caches import NO_CACHE, Caches
from .understanding.extract import as_context_fields
from .understanding.gate import ASKS_ELSEWHERE, ASKS_NOTHING, ASKS_STORY
from .understanding.limits import DEFAULT_LIMITS, WorkLimits
from .understanding.matcher import Scored, Understanding, outcome, understand
from .understanding.outcome import without_evidence

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


# Fields whose disagreement between layers is reported in `conflicts`, with the page label that names them.
CONFLICT_LABELS = {
    "gradient_checkpointing": N_("Gradient checkpointing"),
    "model_family": N_("Model family"),
    "batch_size": N_("Batch size"),
    "resolutions": N_("Resolutions (buckets)"),
    "num_frames": N_("Frames per sample (video)"),
}
LayerConflict = tuple[str, str, Any, Any]  # (field, "<winner>-over-<loser>", value used, value set aside)


def _merge(**layers: dict[str, Any] | None) -> tuple[Context, list[LayerConflict]]:
    """Later layers win: text < config < explicit context. Disagreements on the fields of CONFLICT_LABELS are
    returned, each with the value used and the one set aside."""
    merged: dict[str, Any] = {}
    source: dict[str, str] = {}
    conflicts: list[LayerConflict] = []
    for name, layer in layers.items():
        if not layer:
            continue
        if "model_arch" in layer and "model_family" not in layer:
            merged.pop("model_family", None)  # the family follows the arch this layer states
        for key, value in layer.items():
            if value is None:
                continue
            old = merged.get(key)
            if key in CONFLICT_LABELS and old is not None and _norm(old) != _norm(value):
                conflicts = [c for c in conflicts if c[0] != key]
                conflicts.append((key, f"{name}-over-{source[key]}", value, old))
            merged[key] = value
            source[key] = name
    return Context.model_validate(merged), conflicts


def _norm(value: Any) -> Any:
    return tuple(sorted(set(value))) if isinstance(value, list | tuple) else value


def _layer_conflicts(index: Index, catalogs: Catalogs, lang: str,
                     found: list[LayerConflict]) -> tuple[tuple[str, tuple[str, ...], dict[str, Any]], ...]:
    text = index.texts[lang]

    def shown(field: str, value: Any) -> Any:
        if field == "model_family" and value in text.families:
            return text.families[value].name
        return tuple(value) if isinstance(value, list) else value

    return tuple(
        (cid, (field,), {"field": catalogs.gettext(lang, CONFLICT_LABELS[field]),
                         "used": shown(field, used), "other": shown(field, other)})
        for field, cid, used, other in found
    )


def _symptom_ref(index: Index, lang: str, scored: Scored, confidence: float) -> dict[str, Any]:
    return {"id": scored.id, "title": index.texts[lang].symptoms[scored.id].title, "confidence": confidence}


def _signals(index: Index, lang: str, u: Understanding) -> list[dict[str, Any]]:
    texts = index.texts[lang].signals
    return [{"id": signal.id, "text": fill(texts.get(signal.id, ""), lang, signal.data), "data": signal.data}
            for signal in u.log.signals]


def _topic_related(index: Index, topic: Scored) -> tuple[str, ...]:
    if topic.kind == "faq":
        return index.faq[topic.id].related
    return ()


def _patch_datasets(plan: Plan, view: JobView | None) -> Plan:
    """Config patches that fit the submitted config's datasets (batch where it is set, buckets per dataset)."""
    return _patch_buckets_per_dataset(_patch_where_the_batch_is(plan, view), view)


def _patch_buckets_per_dataset(plan: Plan, view: JobView | None) -> Plan:
    """With several datasets of their own buckets, the bucket patch drops the job's largest bucket from each one
    that has it, and leaves the others as they are (a one-entry list would give every dataset the same list)."""
    per_dataset = view.facts.get("dataset_resolutions") if view is not None else None
    if not per_dataset or len(per_dataset) < 2:
        return plan
    every = sorted({size for sizes in per_dataset for size in sizes})
    largest = every[-1]
    steps = []
    for step in plan.steps:
        patch = step.config_patch or {}
        datasets = patch.get("datasets")
        if isinstance(datasets, list) and len(datasets) == 1 and "resolution" in datasets[0]:
            lists = [sorted(set(sizes) - {largest}) or every[:-1] for sizes in per_dataset]
            step = replace(step, config_patch={**patch, "datasets": [{"resolution": r} for r in lists]})
        steps.append(step)
    return replace(plan, steps=tuple(steps))


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


class Found(NamedTuple):
    """What free text matched: the outcome, the symptom chosen (or a topic), its confidence, the runners-up."""

    match: str
    symptom: str | None
    confidence: float
    alternatives: list[dict[str, Any]]
    topic: Scored | None


def _match(index: Index, lang: str, u: Understanding, thresholds: Thresholds) -> Found:
    # The symptom and the topic are chosen on what the text is about, as search's hits are (`Understanding.searched`):
    # not on its past, a settled problem, a figure's unit, or a body under a title of another subject.
    candidates = [s for s in u.searched if s.kind == "symptom"]
    best = candidates[0].score if candidates else 0.0
    second = candidates[1].score if len(candidates) > 1 else 0.0
    match, confidence = outcome(best, second, thresholds.confident, thresholds.minimum)
    chosen = candidates[0].id if candidates and match != "none" else None
    if match == "confident" and chosen and without_evidence(u.concepts, u.log.gpu_oom,
                                                             index.matcher.by_id[chosen].groups):
        match, confidence = "ambiguous", min(confidence, round(thresholds.confident - 0.001, 3))
    topic: Scored | None = None
    topics = [s for s in u.searched if s.kind in ("faq", "section")] if not _asks_no_topic(u) else []
    if chosen is None and topics:
        # No problem stated that a plan answers, but an FAQ entry or a section answers the question: its text is
        # the answer ("Should I start a first run with GC off?").
        runner_up = topics[1].score if len(topics) > 1 else 0.0
        match, confidence = outcome(topics[0].score, runner_up, thresholds.confident, thresholds.minimum)
        topic = topics[0] if match != "none" else None
    lead = best if topic is None else topic.score
    alternatives = []
    for alt in candidates[(1 if topic is None else 0):4]:
        _, alt_conf = outcome(alt.score, lead, thresholds.confident, thresholds.minimum)
        if alt_conf >= thresholds.minimum / 2:
            alternatives.append(_symptom_ref(index, lang, alt, alt_conf))
    return Found(match, chosen, confidence, alternatives, topic)


def _asks_no_topic(u: Understanding) -> bool:
    """True when no FAQ entry or section answers a text that tells no symptom: its questions name only subjects the
    guide does not answer, or it is a post that asks nothing or asks only of its story (`gate.asked`)."""
    return u.asks in (ASKS_ELSEWHERE, ASKS_NOTHING, ASKS_STORY)


def _grounded(grounds: tuple[frozenset[str], frozenset[str]], present: frozenset[str]) -> bool:
    """True when the text names a subject of the guide the target rests on (`tables.grounds`), or the target names
    no subject (an entry about the whole guide, reached by "summary" or "guide")."""
    wanted, accepted = grounds
    return not wanted or not accepted.isdisjoint(present)


def _without_plan(index: Index, lang: str, merged: Context, u: Understanding | None, topic: Scored | None,
                  confidence: float) -> dict[str, Any]:
    """No plan: nothing is rated and no step is given (a topic's own text is the answer); a config alone is rated
    on the facts it states."""
    resolved = resolve_context(index, merged)
    if topic is not None:
        related = _topic_related(index, topic)
    else:
        related = tuple(s.id for s in (u.ranked if u else ()) if s.kind in ("faq", "section"))[:3]
    out: dict[str, Any] = {
        "symptom": None,
        "context": resolved.model_dump(exclude_none=True),
        "steps": [],
        "related": render_related(index, related, lang),
        "needs": [],
        "questions": [],
        "conflicts": [],
    }
    if topic is not None:
        out["topic"] = render_topic(index, lang, topic.kind, topic.id, confidence)
    elif u is None:
        out["risk"] = render_risk(index, assess_risk(index, resolved), lang)
    return out


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
    caches: Caches = NO_CACHE,
    limits: WorkLimits = DEFAULT_LIMITS,
) -> dict[str, Any]:
    """The `POST /v1/diagnose` answer (`caches`: the runtime's memo tables of free-text understanding)."""
    view = read_config(index, config, config_yaml)
    if not symptom and not (query and query.strip()) and view is None:
        raise MissingInput()
    lang = neg.lang
    u = understand(index.matcher, query, lang, caches, limits) if query and query.strip() else None
    explicit = context.model_dump(exclude_none=True) if context else None
    from_config = view.context.model_dump(exclude_none=True) if view else None
    merged, layer_conflicts = _merge(text=_text_context(u) if u else None, config=from_config, context=explicit)

    given = Found("confident", symptom, 1.0, [], None)
    match, chosen, confidence, alternatives, topic = (
        given if symptom or u is None else _match(index, lang, u, thresholds))

    answer: dict[str, Any] = {"lang": lang}
    fallback = fallback_view(catalogs, neg)
    if fallback:
        answer["fallback"] = fallback
    answer["match"] = match
    if chosen is not None:
        plan = _patch_datasets(plan_symptom(index, chosen, merged, caches), view)
        answer.update(render_plan(index, plan, lang, caches))
        answer["symptom"]["confidence"] = confidence
        answer["conflicts"] = render_conflicts(
            index, _layer_conflicts(index, catalogs, lang, layer_conflicts), lang, plan.facts
        ) + answer["conflicts"]
    else:
        answer.update(_without_plan(index, lang, merged, u, topic, confidence))
    answer["alternatives"] = alternatives
    answer["signals"] = _signals(index, lang, u) if u else []
    answer["knowledge_revision"] = index.revision
    return answer


def answer_search(
    index: Index, catalogs: Catalogs, neg: Negotiated, query: str, limit: int,
    thresholds: Thresholds = Thresholds(), caches: Caches = NO_CACHE, limits: WorkLimits = DEFAULT_LIMITS,
) -> dict[str, Any]:
    """The `GET /v1/search` answer: symptoms, FAQ entries, sections and steps, best first."""
    u = understand(index.matcher, query, neg.lang, caches, limits)
    # A text with no subject of the guide (a model or a trainer named, a feature asked for) has no hit.
    needs = index.content.intents.search_needs
    present = u.subjects | u.features  # what the text is about: not its past, its side remarks, its figures
    ranked = list(u.searched) if not needs or not present.isdisjoint(needs) else []
    if needs and ranked:
        # Each hit needs a subject of its own among them: an entry reached only through common words ("when",
        # "off", "first") is no hit, however many subjects the rest of the text names.
        # A name implied from a subject is a subject too ("unsure" and "gc" make `unsure_gc`).
        grounds = index.matcher.grounds
        # "Where do I set it" is a subject only when nothing else is named: "what values do I set here for my
        # buckets?" is about buckets, not about where GC is changed.
        generic = index.content.intents.search_generic
        named = present.intersection(needs)
        subjects = present if named.issubset(generic) else present.difference(generic)
        ranked = [s for s in ranked if _grounded(grounds[s.id], subjects)]
    if not any(s.kind == "symptom" for s in ranked):
        # A step is a remedy for a problem: with no problem told that a symptom answers (diagnose finds none), a
        # setting the text names is the run's context, not its subject ("145 frames, the computer reboots").
        ranked = [s for s in ranked if s.kind != "step"]
    symptoms = [s for s in ranked if s.kind == "symptom"]
    told, _ = outcome(symptoms[0].score if symptoms else 0.0, symptoms[1].score if len(symptoms) > 1 else 0.0,
                      thresholds.confident, thresholds.minimum)
    if _asks_no_topic(u) and told == "none":
        # No symptom told, and the text asks nothing of the guide: what its story names in passing (GC in a list of
        # settings, a sample, VRAM) answers no question, as diagnose's topic does not (`_match`).
        ranked = []
    best = ranked[0].score if ranked else 0.0
    second = ranked[1].score if len(ranked) > 1 else 0.0
    match, _ = outcome(best, second, thresholds.confident, thresholds.minimum)
    if match == "confident" and ranked[0].kind == "symptom" and without_evidence(
            u.concepts, u.log.gpu_oom, index.matcher.by_id[ranked[0].id].groups):
        match = "ambiguous"  # as diagnose: an OOM inferred from a crash with no memory evidence is never confident
    hits = []
    if match != "none":
        for scored in ranked[:limit]:
            _, score = outcome(scored.score, 0.0, thresholds.confident, thresholds.minimum)
            hits.append(_search_hit(index, neg.lang, scored, score, caches))
    answer: dict[str, Any] = {"lang": neg.lang}
    fallback = fallback_view(catalogs, neg)
    if fallback:
        answer["fallback"] = fallback
    answer.update({"query": query, "match": match, "hits": hits, "knowledge_revision": index.revision})
    return answer


def _search_hit(index: Index, lang: str, scored: Scored, score: float, c: Caches) -> dict[str, Any]:
    """`render_search_hit`, its text remembered per language and target (`Caches.hits`): only the score varies."""
    key = (lang, scored.kind, scored.id)
    fields = c.hits.get(key)
    if fields is None:
        fields = tuple(render_search_hit(index, lang, scored.kind, scored.id, 0.0).items())
        c.hits.put(key, fields)
    hit = dict(fields)
    hit["score"] = score
    return hit


__all__ = ["Thresholds", "answer_config_check", "answer_diagnosis", "answer_search", "fallback_view", "read_config"]
