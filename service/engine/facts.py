"""Resolve a context against the index: the family from the arch, derived facts for the rules."""

from __future__ import annotations

from typing import Any

from ..content.context import DERIVED, Context, FactInputs
from ..errors import UnknownModelFamily
from ..index.build import Index


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


def add_derived(facts: dict[str, Any], inputs: FactInputs, stage: str) -> None:
    """Add the derived facts of one stage (`context`, `check`, `risk`) to `facts`, in the registry's order."""
    for name, derived in DERIVED.items():
        if derived.stage == stage:
            facts[name] = derived.compute(inputs)
