"""Config-check texts are true for the config checked (PRODUCT.md §2.6): each finding's title and detail
sentences are wordings chosen by declared conditions over the job's facts, and filled from them.

A grid of configs (GC, family, batch, buckets, previews, sampling, frames, low_vram) goes through the checker;
for every finding it raises, every wording used must be the first of its sentence whose condition holds, every
wording of the knowledge must be used somewhere in the grid, and the rendered sentences are read for claims the
facts contradict, in every language.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import Any

import pytest

from service.answers import read_config
from service.engine.check import ConfigCheck, check_job, job_facts
from service.index.build import CompiledFinding, Index
from service.rendering.check import render_check
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


def test_each_wording_used_is_the_first_of_its_sentence_whose_conditions_hold(index: Index, grid: list[Any]) -> None:
    for point, result, facts in grid:
        for finding in result.findings:
            rule = compiled(index, finding.id)
            title, *sentences = finding.texts
            expected_title = next(v.text for v in rule.title if v.when(facts))
            assert title == expected_title, (point, finding.id)
            expected = [next((v.text for v in slot if v.when(facts)), None) for slot in rule.detail]
            assert sentences == [t for t in expected if t is not None], (point, finding.id)
            for text in finding.texts:  # and, read the other way: the conditions of every wording used hold
                variants = [v for v in (*rule.title, *(v for slot in rule.detail for v in slot)) if v.text == text]
                assert any(v.when(facts) for v in variants), (point, finding.id, text)


def test_every_wording_is_used_by_some_config(index: Index, grid: list[Any]) -> None:
    used = {(f.id, t) for _, result, _ in grid for f in result.findings for t in f.texts}
    declared = {(f.rule.id, t) for f in index.findings for t in f.rule.texts}
    assert declared - used == set(), "wordings no config of the grid reaches"


def test_every_finding_has_a_title_and_a_detail(index: Index, grid: list[Any]) -> None:
    for point, result, _ in grid:
        for finding in result.findings:
            assert len(finding.texts) >= 2, (point, finding.id)


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
