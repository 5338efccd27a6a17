"""Plan: symptom + context -> ordered steps with reasons and patches, risk with its facts, and needs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..content.context import Context
from ..errors import UnknownSymptom
from ..index.build import Index
from .facts import facts_of, resolve_context
from .risk import Risk, assess_risk


@dataclass(frozen=True, slots=True)
class PlannedStep:
    id: str
    reason: str
    section: str
    config_patch: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class Plan:
    symptom: str
    context: Context
    steps: tuple[PlannedStep, ...]
    risk: Risk
    needs: tuple[str, ...]
    related: tuple[str, ...]


def plan_symptom(index: Index, symptom_id: str, context: Context) -> Plan:
    """The ordered remediation for `symptom_id` in `context` (PRODUCT.md §5)."""
    compiled = index.symptoms.get(symptom_id)
    if compiled is None:
        raise UnknownSymptom(id=symptom_id)
    context = resolve_context(index, context, compiled.symptom.implies)
    facts = facts_of(context)
    family = index.families[context.model_family or index.fallback_family]

    steps: list[PlannedStep] = []
    seen: set[str] = set()
    for item in compiled.plan:
        step = item.step.step
        if step.id in seen or not item.step.applies(facts):
            continue
        seen.add(step.id)
        patch = step.patch
        if item.step.builder is not None:
            patch = item.step.builder(facts, family.safe_batch)
        steps.append(PlannedStep(step.id, item.reason, step.section, patch))

    reads = compiled.reads | (index.risk_reads if compiled.symptom.risk else frozenset())
    needs = tuple(f for f in index.needs_order if f in reads and getattr(context, f) is None)
    return Plan(
        symptom=symptom_id,
        context=context,
        steps=tuple(steps),
        risk=assess_risk(index, context, facts),
        needs=needs,
        related=compiled.symptom.related,
    )
