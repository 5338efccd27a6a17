"""Plan: symptom + context -> ordered steps with the texts true for the facts, risk, needs and conflicts.

Which text explains a step is chosen here, by the conditions each text variant declares (structure/rules.yaml
`reasons`, structure/steps.yaml `details` and `checks`); rendering only looks the chosen ids up and fills them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ..content.context import Context
from ..errors import UnknownSymptom
from ..index.build import CompiledCheck, CompiledSymptom, Index, choose
from ..understanding.caches import NO_CACHE, Caches
from .facts import derive, facts_of, resolve_context
from .risk import Risk, assess_risk

Status = Literal["met", "not-met", "unknown"]


@dataclass(frozen=True, slots=True)
class CheckResult:
    id: str
    status: Status
    note: str | None  # the note variant that holds, if any


@dataclass(frozen=True, slots=True)
class PlannedStep:
    id: str
    reason: str
    section: str
    config_patch: dict[str, Any] | None
    reason_variant: str | None = None  # None: the reason has one text
    detail_parts: tuple[str, ...] = ()  # the detail variants used, in order (empty: the step has one detail text)
    checks: tuple[CheckResult, ...] = ()


@dataclass(frozen=True, slots=True)
class Plan:
    symptom: str
    context: Context
    steps: tuple[PlannedStep, ...]
    risk: Risk
    needs: tuple[str, ...]
    related: tuple[str, ...]
    conflicts: tuple[str, ...] = ()
    facts: Mapping[str, Any] = field(default_factory=dict)  # what the texts are filled from


def plan_facts(index: Index, context: Context) -> dict[str, Any]:
    """Every fact a plan's conditions read, for a resolved context."""
    facts = derive(index, facts_of(context))
    facts["risk_if_gc_off"] = _risk_level(index, {**facts, "gradient_checkpointing": False})
    return facts


def plan_symptom(index: Index, symptom_id: str, context: Context, caches: Caches = NO_CACHE) -> Plan:
    """The ordered remediation for `symptom_id` in `context` (PRODUCT.md §5; `caches`: the runtime's memo tables)."""
    compiled = index.symptoms.get(symptom_id)
    if compiled is None:
        raise UnknownSymptom(id=symptom_id)
    context = resolve_context(index, context, compiled.symptom.implies)
    facts = plan_facts(index, context)
    family = index.families[context.model_family or index.fallback_family]

    steps: list[PlannedStep] = []
    for item in _items(compiled, facts):
        cstep = item.step
        step = cstep.step
        patch = step.patch
        if cstep.builder is not None:
            patch = cstep.builder(facts, family.safe_batch)
        parts = tuple(v for v in (choose(part, facts) for part in cstep.details) if v is not None)
        steps.append(PlannedStep(
            id=step.id,
            reason=item.reason,
            section=step.section,
            config_patch=patch,
            reason_variant=choose(index.reasons[item.reason], facts),
            detail_parts=parts,
            checks=tuple(_judge(check, facts) for check in cstep.checks),
        ))
    risk = assess_risk(index, context, facts)
    return Plan(
        symptom=symptom_id,
        context=context,
        steps=tuple(steps),
        risk=risk,
        needs=_needs(index, compiled, facts, risk.level, caches),
        related=compiled.symptom.related,
        conflicts=tuple(c.conflict.id for c in index.conflicts
                        if symptom_id in c.conflict.symptoms and c.when(facts)),
        facts=facts,
    )


def _needs(index: Index, compiled: CompiledSymptom, facts: Mapping[str, Any], level: str, c: Caches) -> tuple[str, ...]:
    """`needs_of`, remembered per symptom and facts (`Caches.needs`): it plans again under every option of each
    unknown input (~20 probes), and depends on nothing but the knowledge and the facts, which few queries vary."""
    key = (compiled.symptom.id, tuple(facts.items()))
    try:
        found = c.needs.get(key)
    except TypeError:  # a fact of a value that cannot be a key: computed every time
        return needs_of(index, compiled, facts, _signature(compiled, facts, level))
    if found is None:
        found = needs_of(index, compiled, facts, _signature(compiled, facts, level))
        c.needs.put(key, found)
    return found


def needs_of(index: Index, compiled: CompiledSymptom, facts: Mapping[str, Any],
             signature: tuple[Any, ...]) -> tuple[str, ...]:
    """The unknown inputs one of whose values would change the steps or the risk level: each is tried in turn
    (structure/rules.yaml `needs` options) and kept when some option plans differently."""
    out = []
    reads = compiled.reads | (index.risk_reads if compiled.symptom.risk else frozenset())
    for compiled_need in index.needs:
        need = compiled_need.spec
        if need.field not in reads or facts.get(need.field) is not None:
            continue  # nothing this answer depends on reads it, or it is known
        if compiled_need.unless is not None and compiled_need.unless(facts):
            continue
        for option in need.options:
            probe = derive(index, {**facts, need.field: tuple(option) if isinstance(option, list) else option})
            level = _risk_level(index, probe) if compiled.symptom.risk else None
            if _signature(compiled, probe, level) != signature:
                out.append(need.field)
                break
    return tuple(out)


def _items(compiled: CompiledSymptom, facts: Mapping[str, Any]) -> list[Any]:
    seen: set[str] = set()
    out = []
    for item in compiled.plan:
        sid = item.step.step.id
        if sid in seen or not item.step.applies(facts) or (item.when is not None and not item.when(facts)):
            continue
        seen.add(sid)
        out.append(item)
    return out


def _signature(compiled: CompiledSymptom, facts: Mapping[str, Any], level: str | None) -> tuple[Any, ...]:
    """What `needs` compares: the ordered step ids and, where the risk matters, its level."""
    return (tuple(item.step.step.id for item in _items(compiled, facts)),
            level if compiled.symptom.risk else None)


def _risk_level(index: Index, facts: Mapping[str, Any]) -> str:
    for compiled in index.risk:
        if compiled.when(facts):
            return compiled.rule.level
    return "unknown"


def _judge(check: CompiledCheck, facts: Mapping[str, Any]) -> CheckResult:
    status: Status = "unknown"
    if check.met is not None and check.met(facts):
        status = "met"
    elif check.not_met is not None and check.not_met(facts):
        status = "not-met"
    return CheckResult(check.check.id, status, choose(check.notes, facts))
