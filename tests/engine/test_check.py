"""Config check (PRODUCT.md §5, §6): findings with their config path, value, safer value and step, and the risk.

Configs are the shared AI Toolkit examples, read in place and mutated as dicts; they go through
`remedy.answers.read_config` (which passes the legacy-flag mapping, `is_flux` -> flux) and `check_job`.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from remedy.answers import read_config
from remedy.engine.check import SEVERITY_ORDER, ConfigCheck, Finding, check_job
from remedy.index.build import Index
from tests.aitk import CHROMA, FLEX, FLUX, PUBLISHED, QWEN, WAN, Mutation, Process, dataset, load_config, model, train

TRAIN = "config.process[0].train"
DATASET = "config.process[0].datasets[0]"
GC_PATH = f"{TRAIN}.gradient_checkpointing"
LOW_VRAM_PATH = "config.process[0].model.low_vram"


# --- helpers -------------------------------------------------------------------------------------------------


def check(index: Index, shared: Path, name: str, *mutations: Mutation) -> ConfigCheck:
    data = copy.deepcopy(load_config(shared, name))
    for mutate in mutations:
        mutate(data["config"]["process"][0])
    view = read_config(index, data, None)
    assert view is not None
    return check_job(index, view)


def by_id(result: ConfigCheck) -> dict[str, Finding]:
    found = {f.id: f for f in result.findings}
    assert len(found) == len(result.findings), "a finding appears at most once"
    return found


def arch(name: str) -> Mutation:
    def mutate(proc: Process) -> None:
        proc["model"].pop("is_flux", None)
        proc["model"]["arch"] = name

    return mutate


GC_OFF = train(gradient_checkpointing=False)
ZIMAGE = arch("zimage:turbo")


# --- the published configs -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", PUBLISHED, ids=[n.removeprefix("train_lora_").split("_")[0] for n in PUBLISHED])
def test_published_config_is_not_high_risk(index: Index, shared: Path, name: str) -> None:
    result = check(index, shared, name)
    assert result.risk.level == "normal" and result.risk.rule == "gc-on"
    assert result.risk.facts == ("gc-on",)
    ids = [f.id for f in result.findings]
    assert "gc-off" not in ids and "batch-above-safe" not in ids
    assert "high-bucket-risky" not in ids and "low-vram-path" not in ids
    assert all(f.severity != "high" for f in result.findings)


def test_published_preview_findings_are_only_info(index: Index, shared: Path) -> None:
    """Qwen-Edit previews at 1024x1024 and the Wan video previews (40 frames) are worth a hint, no more."""
    for name in (QWEN, WAN):
        assert [(f.id, f.severity, f.path) for f in check(index, shared, name).findings] == [
            ("expensive-preview", "info", "config.process[0].sample")
        ]
    for name in (CHROMA, FLEX, FLUX):
        assert check(index, shared, name).findings == ()


# --- mutations: one expected finding per row ----------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    id: str
    config: str
    mutations: tuple[Mutation, ...]
    finding: str
    path: str
    value: Any
    suggested: Any
    step: str
    severity: str
    risk: str
    extra: dict[str, Any] = field(default_factory=dict)


CASES = [
    Case(
        "qwen-gc-off-batch-2-1024",
        QWEN,
        (GC_OFF, train(batch_size=2)),
        "gc-off",
        GC_PATH,
        False,
        True,
        "enable-gradient-checkpointing",
        "high",
        "high",
    ),
    Case(
        "qwen-gc-off-batch-1",
        QWEN,
        (GC_OFF,),
        "gc-off",
        GC_PATH,
        False,
        True,
        "enable-gradient-checkpointing",
        "high",
        "elevated",
    ),
    Case(
        "qwen-gc-off-two-controls",
        QWEN,
        (GC_OFF, dataset(control_path=["/c1", "/c2"])),
        "gc-off",
        GC_PATH,
        False,
        True,
        "enable-gradient-checkpointing",
        "high",
        "high",
    ),
    Case(
        "flux-gc-off-multi-bucket",
        FLUX,
        (GC_OFF,),
        "gc-off",
        GC_PATH,
        False,
        True,
        "enable-gradient-checkpointing",
        "high",
        "high",
    ),
    Case(
        "flux-gc-off-one-bucket",
        FLUX,
        (GC_OFF, dataset(resolution=[1024])),
        "gc-off",
        GC_PATH,
        False,
        True,
        "enable-gradient-checkpointing",
        "high",
        "elevated",
    ),
    Case(
        "zimage-gc-off-batch-2-1024",
        FLUX,
        (ZIMAGE, GC_OFF, train(batch_size=2)),
        "gc-off",
        GC_PATH,
        False,
        True,
        "enable-gradient-checkpointing",
        "high",
        "high",
    ),
    Case(
        "wan-gc-off",
        WAN,
        (GC_OFF,),
        "gc-off",
        GC_PATH,
        False,
        True,
        "enable-gradient-checkpointing",
        "warning",
        "normal",
    ),
    # `gradient_checkpointing: ~` is None to the trainer, so off: `kwargs.get('gradient_checkpointing', True)`
    # (ostris/ai-toolkit toolkit/config_modules.py:413 at 27a03a91), read as `if ...gradient_checkpointing:`
    # (jobs/process/BaseSDTrainProcess.py:1549).
    Case(
        "qwen-null-gc-off",
        QWEN,
        (train(gradient_checkpointing=None),),
        "gc-off",
        GC_PATH,
        False,
        True,
        "enable-gradient-checkpointing",
        "high",
        "elevated",
    ),
    Case(
        "qwen-batch-4",
        QWEN,
        (train(batch_size=4),),
        "batch-above-safe",
        f"{TRAIN}.batch_size",
        4,
        1,
        "reduce-batch-size",
        "warning",
        "normal",
    ),
    Case(
        "qwen-batch-2-gc-off",
        QWEN,
        (GC_OFF, train(batch_size=2)),
        "batch-above-safe",
        f"{TRAIN}.batch_size",
        2,
        1,
        "reduce-batch-size",
        "high",
        "high",
    ),
    Case(
        "flux-batch-8",
        FLUX,
        (train(batch_size=8),),
        "batch-above-safe",
        f"{TRAIN}.batch_size",
        8,
        4,
        "reduce-batch-size",
        "warning",
        "normal",
    ),
    Case(
        "flux-batch-8-gc-off",
        FLUX,
        (GC_OFF, train(batch_size=8)),
        "batch-above-safe",
        f"{TRAIN}.batch_size",
        8,
        4,
        "reduce-batch-size",
        "high",
        "high",
    ),
    Case(
        "zimage-batch-2",
        FLUX,
        (ZIMAGE, train(batch_size=2)),
        "batch-above-safe",
        f"{TRAIN}.batch_size",
        2,
        1,
        "reduce-batch-size",
        "warning",
        "normal",
    ),
    Case(
        "wan-batch-2",
        WAN,
        (train(batch_size=2),),
        "batch-above-safe",
        f"{TRAIN}.batch_size",
        2,
        1,
        "reduce-batch-size",
        "warning",
        "normal",
    ),
    Case(
        "flux-dataset-batch-8",
        FLUX,
        (dataset(batch_size=8),),
        "batch-above-safe",
        f"{DATASET}.batch_size",
        8,
        4,
        "reduce-batch-size",
        "warning",
        "normal",
    ),
    Case(
        "qwen-dataset-batch-3",
        QWEN,
        (dataset(batch_size=3),),
        "batch-above-safe",
        f"{DATASET}.batch_size",
        3,
        1,
        "reduce-batch-size",
        "warning",
        "normal",
    ),
    Case(
        "zimage-1536-bucket",
        FLUX,
        (ZIMAGE, dataset(resolution=[512, 1024, 1536])),
        "high-bucket-risky",
        f"{DATASET}.resolution",
        [512, 1024, 1536],
        [512, 1024],
        "drop-highest-bucket",
        "warning",
        "normal",
    ),
    Case(
        "zimage-1536-bucket-gc-off-batch-2",
        FLUX,
        (ZIMAGE, GC_OFF, train(batch_size=2), dataset(resolution=[768, 1536, 1024])),
        "high-bucket-risky",
        f"{DATASET}.resolution",
        [768, 1536, 1024],
        [768, 1024],
        "drop-highest-bucket",
        "high",
        "high",
    ),
    Case(
        "flux-gc-off-buckets",
        FLUX,
        (GC_OFF,),
        "high-bucket-risky",
        f"{DATASET}.resolution",
        [512, 768, 1024],
        [512, 768],
        "drop-highest-bucket",
        "high",
        "high",
    ),
    Case(
        "qwen-batch-4-buckets",
        QWEN,
        (train(batch_size=4),),
        "high-bucket-risky",
        f"{DATASET}.resolution",
        [512, 768, 1024],
        [512, 768],
        "drop-highest-bucket",
        "warning",
        "normal",
    ),
    Case(
        "wan-dataset-frames-81",
        WAN,
        (dataset(num_frames=81),),
        "video-frames",
        f"{DATASET}.num_frames",
        81,
        None,
        "reduce-num-frames",
        "info",
        "normal",
    ),
    Case(
        "wan-dataset-frames-81-gc-off",
        WAN,
        (GC_OFF, dataset(num_frames=81)),
        "video-frames",
        f"{DATASET}.num_frames",
        81,
        None,
        "reduce-num-frames",
        "high",
        "elevated",
    ),
    Case(
        "flux-gc-off-low-vram",
        FLUX,
        (GC_OFF,),
        "low-vram-path",
        LOW_VRAM_PATH,
        False,
        True,
        "use-low-vram-path",
        "info",
        "high",
    ),
    Case(
        "chroma-gc-off-low-vram",
        CHROMA,
        (GC_OFF,),
        "low-vram-path",
        LOW_VRAM_PATH,
        False,
        True,
        "use-low-vram-path",
        "info",
        "high",
    ),
    Case(
        "qwen-gc-off-no-low-vram",
        QWEN,
        (GC_OFF, model(low_vram=False)),
        "low-vram-path",
        LOW_VRAM_PATH,
        False,
        True,
        "use-low-vram-path",
        "info",
        "elevated",
    ),
    Case(
        "zimage-batch-2-low-vram",
        FLUX,
        (ZIMAGE, train(batch_size=2)),
        "low-vram-path",
        LOW_VRAM_PATH,
        False,
        True,
        "use-low-vram-path",
        "info",
        "normal",
    ),
    Case(
        "qwen-gc-off-previews",
        QWEN,
        (GC_OFF,),
        "expensive-preview",
        "config.process[0].sample",
        {"width": 1024, "height": 1024, "sample_steps": 25, "sample_every": 250},
        None,
        "cheapen-preview-sampling",
        "info",
        "elevated",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_finding(index: Index, shared: Path, case: Case) -> None:
    result = check(index, shared, case.config, *case.mutations)
    found = by_id(result)
    assert case.finding in found, f"{case.finding} missing from {list(found)}"
    f = found[case.finding]
    assert (f.path, f.value, f.suggested, f.step) == (case.path, case.value, case.suggested, case.step)
    assert f.severity == case.severity
    assert result.risk.level == case.risk
    assert f.step in index.steps


ABSENT = [
    ("flux-batch-4", FLUX, (train(batch_size=4),), "batch-above-safe"),
    ("flux-dataset-batch-4", FLUX, (dataset(batch_size=4),), "batch-above-safe"),
    ("qwen-batch-1", QWEN, (), "batch-above-safe"),
    ("qwen-gc-on", QWEN, (train(batch_size=4),), "gc-off"),
    ("qwen-missing-gc-is-on", QWEN, (lambda proc: proc["train"].pop("gradient_checkpointing"),), "gc-off"),
    ("zimage-1024-top-bucket", FLUX, (ZIMAGE, dataset(resolution=[512, 768, 1024])), "high-bucket-risky"),
    ("zimage-one-1536-bucket", FLUX, (ZIMAGE, dataset(resolution=[1536])), "high-bucket-risky"),
    ("flux-gc-off-768-top-bucket", FLUX, (GC_OFF, dataset(resolution=[512, 768])), "high-bucket-risky"),
    ("wan-one-frame", WAN, (dataset(num_frames=1),), "video-frames"),
    ("wan-sample-frames-only", WAN, (), "video-frames"),
    ("qwen-gc-off-has-low-vram", QWEN, (GC_OFF,), "low-vram-path"),
    ("wan-gc-off-other-family", WAN, (GC_OFF,), "low-vram-path"),
    ("flux-gc-on-batch-1", FLUX, (), "low-vram-path"),
    ("qwen-previews-disabled", QWEN, (train(disable_sampling=True),), "expensive-preview"),
    (
        "flux-gc-off-cheap-previews",
        FLUX,
        (GC_OFF, lambda proc: proc["sample"].update(width=512, height=512)),
        "expensive-preview",
    ),
]


@pytest.mark.parametrize(("name", "mutations", "finding"), [a[1:] for a in ABSENT], ids=[a[0] for a in ABSENT])
def test_no_finding(index: Index, shared: Path, name: str, mutations: tuple[Mutation, ...], finding: str) -> None:
    assert finding not in by_id(check(index, shared, name, *mutations))


def test_flux_batch_4_is_within_the_safe_range(index: Index, shared: Path) -> None:
    """FLUX's safest first attempt is Batch Size 1–4: batch 4 with GC on raises nothing at all."""
    result = check(index, shared, FLUX, train(batch_size=4))
    assert result.findings == ()
    assert result.risk.level == "normal"


def test_gc_off_severity_follows_the_risk(index: Index, shared: Path) -> None:
    for case in (c for c in CASES if c.finding == "gc-off"):
        result = check(index, shared, case.config, *case.mutations)
        expected = "high" if result.risk.level in ("high", "elevated") else "warning"
        assert by_id(result)["gc-off"].severity == expected, case.id


def test_dataset_batch_path_names_the_dataset_that_sets_it(index: Index, shared: Path) -> None:
    def second_dataset(proc: Process) -> None:
        proc["datasets"].append({"folder_path": "/more", "resolution": [768], "batch_size": 6})

    f = by_id(check(index, shared, QWEN, second_dataset))["batch-above-safe"]
    assert (f.path, f.value, f.suggested) == ("config.process[0].datasets[1].batch_size", 6, 1)


def test_paths_follow_the_training_process_index(index: Index, shared: Path) -> None:
    data = load_config(shared, FLUX)
    data["config"]["process"].insert(0, {"type": "some_other_process"})
    data["config"]["process"][1]["train"].update(gradient_checkpointing=False, batch_size=8)
    view = read_config(index, data, None)
    assert view is not None
    found = by_id(check_job(index, view))
    assert found["gc-off"].path == "config.process[1].train.gradient_checkpointing"
    assert found["batch-above-safe"].path == "config.process[1].train.batch_size"
    assert found["high-bucket-risky"].path == "config.process[1].datasets[0].resolution"
    assert found["low-vram-path"].path == "config.process[1].model.low_vram"


def test_missing_low_vram_points_at_where_it_would_go(index: Index, shared: Path) -> None:
    f = by_id(check(index, shared, FLUX, GC_OFF))["low-vram-path"]
    assert (f.path, f.value, f.suggested) == (LOW_VRAM_PATH, False, True)


# --- order ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_findings_most_severe_first(index: Index, shared: Path, case: Case) -> None:
    ranks = [SEVERITY_ORDER[f.severity] for f in check(index, shared, case.config, *case.mutations).findings]
    assert ranks == sorted(ranks)


def test_ties_keep_the_rules_order(index: Index, shared: Path) -> None:
    result = check(index, shared, QWEN, GC_OFF, train(batch_size=2))
    assert [(f.id, f.severity) for f in result.findings] == [
        ("gc-off", "high"),
        ("batch-above-safe", "high"),
        ("high-bucket-risky", "high"),
        ("expensive-preview", "high"),
    ]
    rule_order = [c.rule.id for c in index.findings]
    assert [f.id for f in result.findings] == sorted((f.id for f in result.findings), key=rule_order.index)


def test_more_severe_finding_moves_ahead_of_the_rules_order(index: Index, shared: Path) -> None:
    """Wan with GC off and 81 frames (risk elevated): the high findings come first, the preview note last."""
    result = check(index, shared, WAN, GC_OFF, dataset(num_frames=81))
    assert [(f.id, f.severity) for f in result.findings] == [
        ("gc-off", "high"),
        ("video-frames", "high"),
        ("expensive-preview", "info"),
    ]


def test_flux_gc_off_batch_8_full_answer(index: Index, shared: Path) -> None:
    result = check(index, shared, FLUX, GC_OFF, train(batch_size=8))
    assert (result.risk.level, result.risk.rule, result.risk.family) == ("high", "flux-high-batch", "flux")
    assert "gc-off" in result.risk.facts and "batch-above-4" in result.risk.facts
    assert [(f.id, f.severity, f.suggested) for f in result.findings] == [
        ("gc-off", "high", True),
        ("batch-above-safe", "high", 4),
        ("high-bucket-risky", "high", [512, 768]),
        ("expensive-preview", "high", None),
        ("low-vram-path", "info", True),
    ]


def test_finding_params_carry_the_facts_for_the_texts(index: Index, shared: Path) -> None:
    f = by_id(check(index, shared, FLUX, ZIMAGE, dataset(resolution=[512, 1024, 1536])))["high-bucket-risky"]
    assert f.params["family"] == "z-image"
    assert f.params["max_resolution"] == 1536 and f.params["bucket_count"] == 3
    assert f.params["batch_size"] == 1


def test_check_is_deterministic(index: Index, shared: Path) -> None:
    first = check(index, shared, QWEN, GC_OFF, train(batch_size=2))
    second = check(index, shared, QWEN, GC_OFF, train(batch_size=2))
    assert first.findings == second.findings and first.risk == second.risk


def test_every_derived_fact_of_the_registry_is_computed_for_a_config(index: Index, shared: Path) -> None:
    from remedy.content.context import CONTEXT_FIELDS, DERIVED
    from remedy.engine.check import job_facts

    view = read_config(index, load_config(shared, "train_lora_flux_24gb.yaml"), None)
    assert view is not None
    facts, risk = job_facts(index, view)
    assert list(facts) == [*CONTEXT_FIELDS, *(n for n, d in DERIVED.items() if d.stage != "plan")]
    assert facts["risk_level"] == risk.level and facts["max_resolution"] == max(view.context.resolutions or [0])
