"""Computed config patches: a closed table of builders that steps name in `patch_builder`.

A builder gets the facts of the diagnosis and the family's safe batch size and returns an AI Toolkit
config patch (keys relative to `config.process[0]`), or None when it has nothing exact to suggest.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Patch = dict[str, Any]
Builder = Callable[[Mapping[str, Any], int], Patch | None]


def _safe_batch_size(facts: Mapping[str, Any], safe_batch: int) -> Patch | None:
    """The family's safest first Batch Size; below it, 1 (the guide's floor for every family)."""
    batch = facts.get("batch_size")
    target = safe_batch if batch is not None and batch > safe_batch else 1
    return {"train": {"batch_size": target}}


def _drop_highest_bucket(facts: Mapping[str, Any], safe_batch: int) -> Patch | None:
    """The bucket list without its largest entry; unknown buckets: the guide's "keep 512 / 768"."""
    buckets = facts.get("resolutions")
    if not buckets:
        return {"datasets": [{"resolution": [512, 768]}]}
    kept = sorted(set(buckets))[:-1]
    return {"datasets": [{"resolution": kept}]} if kept else None


BUILDERS: dict[str, Builder] = {
    "safe-batch-size": _safe_batch_size,
    "drop-highest-bucket": _drop_highest_bucket,
}
