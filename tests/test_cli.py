"""The command line: validate, diagnose and openapi as a user runs them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from remedy.cli import main


def test_validate_reports_full_coverage(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate"]) == 0
    out = capsys.readouterr().out
    for lang in ("en", "es", "pt", "fr", "de", "ko"):
        assert any(line.startswith(lang) and "100.0%" in line for line in out.splitlines()), lang
    assert out.rstrip().endswith("0 problem(s)")


def test_validate_fails_on_broken_knowledge(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    from remedy.settings import ROOT

    shutil.copytree(ROOT / "knowledge", tmp_path / "k")
    steps = tmp_path / "k" / "text" / "de" / "steps.yaml"
    steps.write_text(steps.read_text(encoding="utf-8").replace("gradient_checkpointing: true", "GC AN"),
                     encoding="utf-8")
    monkeypatch.setenv("REMEDY_KNOWLEDGE_DIR", str(tmp_path / "k"))
    assert main(["validate"]) == 1
    out = capsys.readouterr().out
    assert "text/de/steps.yaml:enable-gradient-checkpointing.detail: [protected-token]" in out


def test_diagnose_prints_steps_in_the_language(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diagnose", "--symptom", "oom-early-steps", "--lang", "de",
                 "--context-json", '{"gradient_checkpointing": false, "batch_size": 2}']) == 0
    out = capsys.readouterr().out
    first = next(line for line in out.splitlines() if line.startswith("1. "))
    assert first.endswith("[enable-gradient-checkpointing]")
    assert "gradient_checkpointing: true" in out


def test_diagnose_json_equals_api_shape(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diagnose", "--symptom", "weak-samples", "--lang", "ko", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["lang"] == "ko" and answer["steps"][0]["id"] == "check-dataset-quality"


def test_diagnose_unknown_symptom_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diagnose", "--symptom", "nope", "--lang", "es"]) == 2
    assert "[unknown-symptom]" in capsys.readouterr().err


def test_openapi_writes_the_document(tmp_path: Path) -> None:
    out = tmp_path / "openapi.json"
    assert main(["openapi", "--out", str(out)]) == 0
    assert json.loads(out.read_text())["paths"]["/v1/diagnose"]


def test_diagnose_free_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diagnose", "GC desactivado y OOM en el segundo paso", "--lang", "es"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("match: confident")
    assert "[oom-early-steps]" in out and '"step": 2' in out and '"gradient_checkpointing": false' in out


def test_diagnose_off_topic_says_no_match(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diagnose", "how much is a pro plan"]) == 0
    assert capsys.readouterr().out.startswith("match: none")


def test_check_published_config_passes(capsys: pytest.CaptureFixture[str], shared: Path) -> None:
    assert main(["check", str(shared / "aitk-configs" / "train_lora_flux_24gb.yaml"), "--lang", "ko"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("risk: normal (flux)")


def test_check_gc_off_exits_three_and_shows_the_fix(tmp_path: Path, shared: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    text = (shared / "aitk-configs" / "train_lora_qwen_image_edit_32gb.yaml").read_text(encoding="utf-8")
    job = tmp_path / "job.yaml"
    job.write_text(text.replace("gradient_checkpointing: true", "gradient_checkpointing: false")
                   .replace("batch_size: 1", "batch_size: 2"), encoding="utf-8")
    assert main(["check", str(job), "--lang", "de"]) == 3
    out = capsys.readouterr().out
    assert "config.process[0].train.gradient_checkpointing: false -> true" in out
    assert "[high]" in out


def test_check_json_and_broken_yaml(capsys: pytest.CaptureFixture[str], shared: Path) -> None:
    assert main(["check", str(shared / "aitk-configs" / "train_lora_wan21_1b_24gb.yaml"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["context"]["model_family"] == "other"
    assert main(["check", str(shared / "aitk-configs" / "train_lora_omnigen2_24gb.yaml")]) == 2
    assert "[invalid-yaml]" in capsys.readouterr().err
