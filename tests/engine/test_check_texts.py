"""Config-check texts are true for the config checked (PRODUCT.md §2.6): each finding's title and detail
sentences are text variants chosen by declared conditions over the job's facts, and filled from them.

A grid of configs (GC, family, batch, buckets, previews, sampling, frames, low_vram) goes through the checker;
for every finding it raises, every variant used must be the first of its sentence whose condition holds (the
declared condition, compiled again from the knowledge), every variant of the knowledge must be used somewhere
in the grid, and the rendered sentences are read for claims the facts contradict, in every language.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import Any

import pytest

from remedy.answers import read_config
from remedy.engine.check import ConfigCheck, check_job, job_facts
from remedy.index.build import CompiledFinding, Index
from remedy.index.conditions import compile_condition
from remedy.rendering.check import render_check
from tests.conftest import LANGS

ARCH = {"z-image": "zimage:turbo", "qwen-edit": "qwen_image_edit", "flux": "flux", "other": "wan21", None: None}
SAMPLES = {
    "light": {"width": 512, "height": 512, "sample_steps": 20},
    "large": {"width": 1024, "height": 1024, "sample_steps": 20},
    "many-steps": {"width": 768, "height": 768, "sample_steps": 40},
    "large-many-steps": {"width": 1024, "height": 1024, "sample_steps": 40},
    "video": {"width": 512, "height": 512, "sample_steps": 20, "num_frames": 41},
}
GRID = list(itertools.product(
    (True, False),  # gradient_checkpointing
    tuple(ARCH),  # family (None: no arch in the config)
    (1, 2, 8),  # batch size
    ((512,), (512, 1024), (768, 1024, 1536)),  # buckets
    tuple(SAMPLES),
    (False, True),  # disable_sampling
    (1, 81),  # num_frames
    (False, True),  # low_vram
))


def job(gc: bool, family: str | None, batch: int, buckets: tuple[int, ...], sample: str, disabled: bool,
        frames: int, low_vram: bool) -> dict[str, Any]:
    model: dict[str, Any] = {"name_or_path": "some/model", "low_vram": low_vram}
    if ARCH[family]:
        model["arch"] = ARCH[family]
    return {"job": "extension", "config": {"name": "grid", "process": [{
        "type": "sd_trainer",
        "train": {"batch_size": batch, "gradient_checkpointing": gc, "disable_sampling": disabled},
        "model": model,
        "datasets": [{"folder_path": "/data", "resolution": list(buckets), "num_frames": frames}],
        "sample": {**SAMPLES[sample], "sample_every": 250},
    }]}}


def checks(index: Index) -> Iterator[tuple[tuple[Any, ...], ConfigCheck, dict[str, Any]]]:
    for point in GRID:
        view = read_config(index, job(*point), None)
        assert view is not None
        facts, _ = job_facts(index, view)
        yield point, check_job(index, view), facts


@pytest.fixture(scope="module")
def grid(index: Index) -> list[tuple[tuple[Any, ...], ConfigCheck, dict[str, Any]]]:
    return list(checks(index))


def compiled(index: Index, finding_id: str) -> CompiledFinding:
    return next(f for f in index.findings if f.rule.id == finding_id)


def test_each_text_used_is_the_first_variant_whose_conditions_hold(index: Index, grid: list[Any]) -> None:
    for point, result, facts in grid:
        for finding in result.findings:
            rule = compiled(index, finding.id)
            expected_title = next((v for v, holds in rule.title if holds(facts)), None)
            assert finding.title_variant == expected_title, (point, finding.id)
            assert (finding.title_variant is None) == (not rule.title), (point, finding.id)
            expected = [next((v for v, holds in part if holds(facts)), None) for part in rule.details]
            assert finding.detail_parts == tuple(v for v in expected if v is not None), (point, finding.id)
            # read the other way: the declared conditions of every variant used hold for this config's facts
            declared = {**rule.rule.title, **{v: c for part in rule.rule.details for v, c in part.items()}}
            for variant in (finding.title_variant, *finding.detail_parts):
                if variant is not None:
                    assert compile_condition(declared[variant])(facts), (point, finding.id, variant)


def test_every_variant_is_used_by_some_config(index: Index, grid: list[Any]) -> None:
    used = {(f.id, v) for _, result, _ in grid for f in result.findings for v in (f.title_variant, *f.detail_parts)}
    declared = {(f.rule.id, v) for f in index.findings for part in (f.rule.title, *f.rule.details) for v in part}
    assert declared - used == set(), "variants no config of the grid reaches"


def test_every_finding_has_a_detail(index: Index, grid: list[Any]) -> None:
    for point, result, _ in grid:
        for finding in result.findings:
            assert finding.detail_parts, (point, finding.id)


# --- what the rendered sentences claim, against the facts ------------------------------------------------


GC_OFF_CLAIMS = {  # sentences that say GC is off, per language
    "en": ("With GC off", "GC off, memory"),
    "es": ("Con GC desactivado",),
    "pt": ("Com GC desativado",),
    "fr": ("Avec GC désactivé",),
    "de": ("Mit GC AUS",),
    "ko": ("GC 꺼짐 상태에서",),
}
TIGHT_MEMORY = {"en": "already tight", "es": "ya va justa", "pt": "já está no limite", "fr": "déjà juste",
                "de": "ohnehin knapp", "ko": "이미 빠듯"}


@pytest.mark.parametrize("lang", LANGS)
def test_rendered_findings_claim_only_what_the_config_says(index: Index, grid: list[Any], lang: str) -> None:
    families = {fid: index.texts[lang].families[fid].name for fid in index.families}
    for point, result, facts in grid[::3]:  # a third of the grid per language keeps it quick
        for finding in render_check(index, result, lang)["findings"]:
            text = f"{finding['title']} {finding['detail']}"
            where = (point, finding["id"], text)
            assert "{" not in text and "}" not in text, where
            if facts["gradient_checkpointing"]:
                assert not any(claim in text for claim in GC_OFF_CLAIMS[lang]), where
                assert TIGHT_MEMORY[lang] not in text, where
            if facts["family"] is None:
                assert not any(name in finding["detail"] for fid, name in families.items() if fid != "other"), where
            if finding["id"] == "expensive-preview":
                size = f"{facts['sample_width']}x{facts['sample_height']}"
                assert (size in text) == (facts["sample_area"] >= 1024 * 1024), where
                assert (f"{facts['sample_steps']} Sample Steps" in text) == (facts["sample_steps"] > 30), where
                assert ("41" in text) == (facts["sample_frames"] > 1), where  # the grid's video previews: 41 frames
                if lang == "en":  # the levers it names are those of the figures that made it fire
                    video = facts["sample_frames"] > 1
                    assert "lower Width / Height" not in text or facts["sample_area"] >= 1024 * 1024 or video, where
                    assert "Sample Steps, or" not in text or facts["sample_steps"] > 30 or video, where


def test_the_issue_example_a_video_preview_with_gc_on(index: Index) -> None:
    """Frames triggered it: the text names the frames, not a sample size or steps, and says nothing of GC."""
    view = read_config(index, job(True, "other", 1, (512,), "video", False, 1, False), None)
    assert view is not None
    found = {f["id"]: f for f in render_check(index, check_job(index, view), "en")["findings"]}
    preview = found["expensive-preview"]
    assert preview["title"] == "Video previews are expensive"
    assert preview["detail"].startswith("Each preview renders 41 frames")
    assert "512x512" not in preview["detail"] and "20 Sample Steps" not in preview["detail"]
    assert "GC" not in preview["detail"] and "tight" not in preview["detail"]


def test_family_is_named_only_when_the_config_names_it(index: Index) -> None:
    unknown = read_config(index, job(False, None, 2, (512, 1024), "light", False, 1, False), None)
    flux = read_config(index, job(False, "flux", 8, (512, 1024), "light", False, 1, False), None)
    assert unknown is not None and flux is not None
    unknown_gc = {f["id"]: f for f in render_check(index, check_job(index, unknown), "de")["findings"]}["gc-off"]
    flux_gc = {f["id"]: f for f in render_check(index, check_job(index, flux), "de")["findings"]}["gc-off"]
    assert unknown_gc["detail"].startswith("Mit GC AUS bleiben mehr Aktivierungsdaten im VRAM")
    assert flux_gc["detail"].startswith("Für FLUX-dev / Flex-ähnliche große Bildmodelle ist das Abschalten")
    assert re.search(r"\{\w+\}", unknown_gc["detail"] + flux_gc["detail"]) is None
