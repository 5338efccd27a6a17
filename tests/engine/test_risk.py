"""Risk per family (PRODUCT.md §5.7): every rule has a case where it fires and one where it does not."""

from __future__ import annotations

from typing import Any

import pytest

from remedy.content.context import Context
from remedy.engine.risk import assess_risk
from remedy.index.build import Index

OFF: dict[str, Any] = {"gradient_checkpointing": False}

CASES = [
    # (id, context, level, rule)
    ("z-image-high", {**OFF, "model_family": "z-image", "resolutions": (1024, 1536), "batch_size": 2},
     "high", "z-image-high"),
    ("z-image-batch-1", {**OFF, "model_family": "z-image", "resolutions": (1024, 1536), "batch_size": 1},
     "elevated", "sensitive-family-gc-off"),
    ("z-image-768", {**OFF, "model_family": "z-image", "resolutions": (512, 768), "batch_size": 4},
     "elevated", "sensitive-family-gc-off"),
    ("qwen-batch", {**OFF, "model_family": "qwen-edit", "resolutions": (1024,), "batch_size": 2},
     "high", "qwen-edit-high-batch"),
    ("qwen-controls", {**OFF, "model_family": "qwen-edit", "resolutions": (1024,), "batch_size": 1,
                       "control_images": 2}, "high", "qwen-edit-high-conditioning"),
    ("qwen-light", {**OFF, "model_family": "qwen-edit", "resolutions": (1024,), "batch_size": 1,
                    "control_images": 1}, "elevated", "sensitive-family-gc-off"),
    ("qwen-768", {**OFF, "model_family": "qwen-edit", "resolutions": (768,), "batch_size": 2},
     "elevated", "sensitive-family-gc-off"),
    ("flux-batch-8", {**OFF, "model_family": "flux", "batch_size": 8}, "high", "flux-high-batch"),
    ("flux-batch-4", {**OFF, "model_family": "flux", "batch_size": 4, "resolutions": (1024,)},
     "elevated", "sensitive-family-gc-off"),
    ("flux-multi-bucket", {**OFF, "model_family": "flux", "batch_size": 1, "resolutions": (512, 768, 1024)},
     "high", "flux-high-multi-bucket"),
    ("flux-multi-low", {**OFF, "model_family": "flux", "batch_size": 1, "resolutions": (512, 768)},
     "elevated", "sensitive-family-gc-off"),
    ("other-heavy", {**OFF, "model_family": "other", "batch_size": 2}, "elevated", "heavy-job-gc-off"),
    ("other-video", {**OFF, "model_family": "other", "batch_size": 1, "num_frames": 81},
     "elevated", "heavy-job-gc-off"),
    ("other-light", {**OFF, "model_family": "other", "batch_size": 1, "resolutions": (512,)},
     "normal", "light-job-gc-off"),
    ("gc-on", {"gradient_checkpointing": True, "model_family": "z-image", "batch_size": 8,
               "resolutions": (1536,)}, "normal", "gc-on"),
    ("gc-unknown", {"model_family": "flux", "batch_size": 8}, "unknown", "gc-unknown"),
]


@pytest.mark.parametrize(("context", "level", "rule"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_risk_level_and_rule(index: Index, context: dict[str, Any], level: str, rule: str) -> None:
    risk = assess_risk(index, Context(**context))
    assert (risk.level, risk.rule) == (level, rule)


def test_every_risk_rule_is_exercised(index: Index) -> None:
    assert {c[3] for c in CASES} == {r.rule.id for r in index.risk}


def test_reasons_are_the_facts_that_hold(index: Index) -> None:
    risk = assess_risk(index, Context(**{**OFF, "model_family": "qwen-edit", "resolutions": (512, 1024),
                                         "batch_size": 2, "control_images": 1}))
    assert risk.facts == ("gc-off", "family-sensitive", "bucket-large", "batch-large")
    assert risk.params["max_resolution"] == 1024


def test_published_config_values_are_not_high_risk(index: Index) -> None:
    risk = assess_risk(index, Context(model_family="qwen-edit", gradient_checkpointing=True, batch_size=1,
                                      resolutions=(512, 768, 1024)))
    assert risk.level == "normal"
