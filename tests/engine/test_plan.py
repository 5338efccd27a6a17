"""Plans per PRODUCT.md §5: every rule has a case where it fires and one where it does not."""

from __future__ import annotations

from typing import Any

import pytest

from remedy.content.context import Context
from remedy.engine.plan import plan_symptom
from remedy.errors import UnknownModelFamily, UnknownSymptom
from remedy.index.build import Index

OOM = ("oom-early-steps", "oom-during-sampling", "oom-bucket-spike", "oom-general")


def steps_of(index: Index, symptom: str, **context: Any) -> list[str]:
    return [s.id for s in plan_symptom(index, symptom, Context(**context)).steps]


@pytest.mark.parametrize("symptom", OOM)
@pytest.mark.parametrize("gc", [False, None], ids=["gc-off", "gc-unknown"])
def test_gc_off_or_unknown_starts_with_enable_then_retry(index: Index, symptom: str, gc: bool | None) -> None:
    assert steps_of(index, symptom, gradient_checkpointing=gc)[:2] == [
        "enable-gradient-checkpointing",
        "retry-unchanged",
    ]


@pytest.mark.parametrize("symptom", [*OOM, "oom-persists-with-gc"])
def test_gc_on_never_suggests_enabling_or_disabling_it(index: Index, symptom: str) -> None:
    steps = steps_of(index, symptom, gradient_checkpointing=True)
    assert "enable-gradient-checkpointing" not in steps
    assert "retry-unchanged" not in steps
    assert "test-gc-off-carefully" not in steps
    assert steps[0] in ("reduce-batch-size", "cheapen-preview-sampling", "drop-highest-bucket")


def test_persists_with_gc_implies_gc_on(index: Index) -> None:
    plan = plan_symptom(index, "oom-persists-with-gc", Context())
    assert plan.context.gradient_checkpointing is True
    assert plan.steps[0].id == "reduce-batch-size"


def test_explicit_context_wins_over_what_the_symptom_implies(index: Index) -> None:
    plan = plan_symptom(index, "oom-persists-with-gc", Context(gradient_checkpointing=False))
    assert plan.steps[0].id == "enable-gradient-checkpointing"


LEVERS = ["reduce-batch-size", "drop-highest-bucket", "cheapen-preview-sampling", "reduce-num-frames",
          "use-low-vram-path"]


def test_levers_follow_the_faq_order(index: Index) -> None:
    steps = steps_of(index, "oom-general", gradient_checkpointing=True, batch_size=2,
                     resolutions=(512, 1024), num_frames=33)
    assert steps == LEVERS


@pytest.mark.parametrize(
    ("symptom", "first"),
    [
        ("oom-during-sampling", ["cheapen-preview-sampling", "disable-sampling-temporarily"]),
        ("oom-bucket-spike", ["drop-highest-bucket"]),
        ("oom-early-steps", ["reduce-batch-size"]),
    ],
)
def test_symptom_specific_lever_goes_first(index: Index, symptom: str, first: list[str]) -> None:
    steps = steps_of(index, symptom, gradient_checkpointing=True, batch_size=2, resolutions=(512, 1024))
    assert steps[: len(first)] == first


@pytest.mark.parametrize(
    ("context", "left_out"),
    [
        ({"batch_size": 1}, "reduce-batch-size"),
        ({"resolutions": (1024,)}, "drop-highest-bucket"),
        ({"num_frames": 1}, "reduce-num-frames"),
        ({}, "reduce-num-frames"),
        ({"low_vram": True}, "use-low-vram-path"),
        ({"sampling_disabled": True}, "cheapen-preview-sampling"),
    ],
    ids=["batch-1", "one-bucket", "one-frame", "frames-unknown", "low-vram-on", "sampling-off"],
)
def test_lever_that_cannot_apply_is_left_out(index: Index, context: dict[str, Any], left_out: str) -> None:
    assert left_out not in steps_of(index, "oom-general", gradient_checkpointing=True, **context)


@pytest.mark.parametrize(
    ("context", "kept"),
    [
        ({"batch_size": 2}, "reduce-batch-size"),
        ({}, "reduce-batch-size"),
        ({"resolutions": (512, 768)}, "drop-highest-bucket"),
        ({"num_frames": 81}, "reduce-num-frames"),
        ({"low_vram": False}, "use-low-vram-path"),
        ({"sampling_disabled": False}, "cheapen-preview-sampling"),
    ],
    ids=["batch-2", "batch-unknown", "two-buckets", "video", "low-vram-off", "sampling-on"],
)
def test_lever_that_can_apply_is_kept(index: Index, context: dict[str, Any], kept: str) -> None:
    assert kept in steps_of(index, "oom-general", gradient_checkpointing=True, **context)


@pytest.mark.parametrize(
    ("arch", "batch", "target"),
    [
        ("qwen_image_edit", 4, 1),
        ("qwen_image_edit_plus", None, 1),
        ("flux", 8, 4),
        ("flex2", 4, 1),
        ("zimage:turbo", 3, 1),
        ("wan21", 2, 1),
    ],
)
def test_reduce_batch_size_targets_the_family_safe_batch(
    index: Index, arch: str, batch: int | None, target: int
) -> None:
    plan = plan_symptom(index, "oom-general", Context(model_arch=arch, batch_size=batch, gradient_checkpointing=True))
    step = next(s for s in plan.steps if s.id == "reduce-batch-size")
    assert step.config_patch == {"train": {"batch_size": target}}


def test_drop_highest_bucket_patch_keeps_the_smaller_buckets(index: Index) -> None:
    plan = plan_symptom(index, "oom-bucket-spike", Context(resolutions=(1536, 512, 1024), gradient_checkpointing=True))
    assert plan.steps[0].config_patch == {"datasets": [{"resolution": [512, 1024]}]}


def test_slow_training_plan_ends_with_gc_off_test(index: Index) -> None:
    assert steps_of(index, "slow-training") == [
        "cheapen-preview-sampling", "disable-sampling-temporarily", "use-gradient-accumulation",
        "drop-highest-bucket", "use-low-vram-path", "test-gc-off-carefully",
    ]


def test_slow_training_with_gc_already_off_does_not_suggest_turning_it_off(index: Index) -> None:
    assert "test-gc-off-carefully" not in steps_of(index, "slow-training", gradient_checkpointing=False)


def test_weak_samples_checks_quality_not_gc(index: Index) -> None:
    steps = steps_of(index, "weak-samples", gradient_checkpointing=False)
    assert steps == ["check-dataset-quality", "check-captions", "check-rank", "check-steps", "check-preview-parity"]


def test_every_step_carries_a_reason_and_a_section(index: Index) -> None:
    for symptom in index.symptoms:
        for step in plan_symptom(index, symptom, Context()).steps:
            assert step.reason in index.content.rules.reasons
            assert step.section in index.sections


@pytest.mark.parametrize(
    ("context", "needs"),
    [
        ({}, ["gradient_checkpointing", "model_family", "batch_size", "resolutions", "num_frames", "control_images"]),
        ({"gradient_checkpointing": True, "model_arch": "flux", "batch_size": 1, "resolutions": (512,),
          "num_frames": 1, "control_images": 0}, []),
        ({"gradient_checkpointing": False}, ["model_family", "batch_size", "resolutions", "num_frames",
                                             "control_images"]),
    ],
    ids=["nothing-known", "everything-known", "gc-known"],
)
def test_needs_lists_unknown_inputs_that_change_the_answer(
    index: Index, context: dict[str, Any], needs: list[str]
) -> None:
    assert list(plan_symptom(index, "oom-general", Context(**context)).needs) == needs


def test_weak_samples_needs_nothing(index: Index) -> None:
    assert plan_symptom(index, "weak-samples", Context()).needs == ()


def test_arch_fills_the_family(index: Index) -> None:
    assert plan_symptom(index, "oom-general", Context(model_arch="zimage:turbo")).context.model_family == "z-image"


def test_unknown_symptom_and_family_are_errors(index: Index) -> None:
    with pytest.raises(UnknownSymptom):
        plan_symptom(index, "oom-somewhere", Context())
    with pytest.raises(UnknownModelFamily):
        plan_symptom(index, "oom-general", Context(model_family="sd15"))


def test_same_input_same_plan(index: Index) -> None:
    ctx = Context(model_arch="flux", batch_size=6, resolutions=(512, 1024), gradient_checkpointing=False)
    assert plan_symptom(index, "oom-early-steps", ctx) == plan_symptom(index, "oom-early-steps", ctx)
