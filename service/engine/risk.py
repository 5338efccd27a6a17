"""Risk of an out-of-memory crash for a context, per the guide's risk table (PRODUCT.md §5.7)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..content.context import Context
from ..index.build import Index
from .facts import facts_of


@dataclass(frozen=True, slots=True)
class Risk:
    level: str
    family: str | None
    rule: str
    facts: tuple[str, ...]
    params: dict[str, Any]


def assess_risk(index: Index, context: Context, facts: dict[str, Any] | None = None) -> Risk:
    """The first risk rule that holds sets the level; its facts that hold are the reasons."""
    facts = facts if facts is not None else facts_of(context)
    for compiled in index.risk:
        if compiled.when(facts):
            return Risk(
                level=compiled.rule.level,
                family=context.model_family,
                rule=compiled.rule.id,
                facts=tuple(fid for fid, holds in compiled.facts if holds(facts)),
                params={k: facts[k] for k in _PARAMS if facts.get(k) is not None},
            )
    return Risk("unknown", context.model_family, "none", (), {})


_PARAMS = ("family", "batch_size", "max_resolution", "bucket_count", "control_images", "num_frames")
