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
    target = facts.get("target_batch")
    if target is None:
        batch = facts.get("batch_size")
        target = safe_batch if batch is not None and batch > safe_batch else 1
    return {"train": {"batch_size": target}}


PREVIEW_LONG_SIDE = 768  # lower Width / Height: the longer side to at most this (multiples of 64) ...
PREVIEW_STEPS = 20  # ... lower Sample Steps to AI Toolkit's default ...
PREVIEW_EVERY_FACTOR = 2  # ... and raise Sample Every: previews half as often


def _cheaper_preview(facts: Mapping[str, Any], safe_batch: int) -> Patch | None:
    """Lower Width / Height and Sample Steps, raise Sample Every (the guide's Sample panel advice), from the
    values known; None when none is known, since the guide gives no absolute figures."""
    sample: dict[str, int] = {}
    width, height = facts.get("sample_width"), facts.get("sample_height")
    if width is not None and height is not None and max(width, height) > PREVIEW_LONG_SIDE:
        scale = PREVIEW_LONG_SIDE / max(width, height)
        sample["width"] = max(64, int(width * scale) // 64 * 64)
        sample["height"] = max(64, int(height * scale) // 64 * 64)
    steps = facts.get("sample_steps")
    if steps is not None and steps > PREVIEW_STEPS:
        sample["sample_steps"] = PREVIEW_STEPS
    every = facts.get("sample_every")
    if every is not None:
        sample["sample_every"] = every * PREVIEW_EVERY_FACTOR
    return {"sample": sample} if sample else None


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
    "cheaper-preview": _cheaper_preview,
}


# Safer values for config-check findings (structure/findings.yaml `suggested_builder`): facts, the family's
# safe batch and the value found in the submitted config -> the value to put there instead, or None.
ValueBuilder = Callable[[Mapping[str, Any], int, Any], Any]


def _safe_batch_value(facts: Mapping[str, Any], safe_batch: int, current: Any) -> Any:
    return safe_batch


def _without_highest_bucket(facts: Mapping[str, Any], safe_batch: int, current: Any) -> Any:
    """The dataset's buckets without the job's largest one; a dataset holding only that bucket gets the job's
    smaller buckets instead (the guide: keep 512 / 768, bring the big ones back after a stable run)."""
    buckets = current if isinstance(current, list) else [current]
    sizes = sorted({b for b in buckets if isinstance(b, int) and not isinstance(b, bool)})
    if len(sizes) > 1:
        return sizes[:-1]
    every = sorted(set(facts.get("resolutions") or ()))
    return every[:-1] or None


VALUE_BUILDERS: dict[str, ValueBuilder] = {
    "safe-batch-size": _safe_batch_value,
    "drop-highest-bucket": _without_highest_bucket,
}
