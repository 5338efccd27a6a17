"""Resolve a context against the index: the family from the arch, derived facts for the rules."""

from __future__ import annotations

from typing import Any

from ..content.context import DERIVED, Context, FactInputs
from ..errors import UnknownModelFamily
from ..index.build import Index

CONSERVATIVE_BATCH_ANY_FAMILY = 1  # with the family unknown, a Batch Size is surely conservative only at 1 ...
LARGEST_SAFE_BATCH = 4  # ... and surely not above the largest safest first attempt of any family (FLUX: 1–4)


def resolve_context(index: Index, context: Context, implied: dict[str, Any] | None = None) -> Context:
    """Fill what the context implies: `model_family` from `model_arch`; symptom implications under it.

    Explicit context wins over what a symptom implies.
    """
    updates: dict[str, Any] = {k: v for k, v in (implied or {}).items() if getattr(context, k) is None}
    if context.model_family is not None and context.model_family not in index.families:
        raise UnknownModelFamily(id=context.model_family)
    if context.model_family is None and context.model_arch:
        updates["model_family"] = index.family_of_arch(context.model_arch)
    return context.model_copy(update=updates) if updates else context


def facts_of(context: Context) -> dict[str, Any]:
    """The mapping rule conditions read: every context field plus the derived facts a context gives
    (`content.context.DERIVED`)."""
    facts = context.model_dump()
    add_derived(facts, FactInputs(context), "context")
    return facts


def derive(index: Index, facts: dict[str, Any]) -> dict[str, Any]:
    """The derived facts of a plan (`DERIVED` entries of stage `plan`, with those of the context again), added to
    `facts` in place from the facts themselves: `needs` plans again under each option, so this runs on a dict,
    not a validated context. They need the knowledge (the family's safest first Batch Size).

    Every derived value is None when what it comes from is unknown, so no rule fires on a fact nobody stated.
    """
    buckets = facts.get("resolutions")
    facts["max_resolution"] = max(buckets) if buckets else None
    facts["bucket_count"] = len(set(buckets)) if buckets else None
    family_id = facts.get("model_family")
    facts["family"] = family_id
    family = index.families.get(family_id) if family_id is not None else None
    safe = family.safe_batch if family is not None else None
    batch = facts.get("batch_size")
    facts["safe_batch"] = safe
    if batch is None:
        above = None
    elif safe is not None:
        above = batch > safe
    else:
        above = True if batch > LARGEST_SAFE_BATCH else False if batch <= CONSERVATIVE_BATCH_ANY_FAMILY else None
    facts["batch_above_safe"] = above
    fallback_safe = index.families[index.fallback_family].safe_batch
    floor = safe if safe is not None else fallback_safe
    facts["target_batch"] = None if batch is None else (floor if batch > floor else 1)
    return facts


def add_derived(facts: dict[str, Any], inputs: FactInputs, stage: str) -> None:
    """Add the derived facts of one stage (`context`, `check`, `risk`) to `facts`, in the registry's order."""
    for name, derived in DERIVED.items():
        if derived.stage == stage and derived.compute is not None:
            facts[name] = derived.compute(inputs)
