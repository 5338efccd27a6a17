"""The command line: validate, diagnose and openapi as a user runs them."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from remedy import __version__, cli
from remedy.cli import EXIT_BAD_INPUT, main
from remedy.settings import Settings
from tests.conftest import REPO


def test_validate_reports_full_coverage(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate"]) == 0
    out = capsys.readouterr().out
    for lang in ("en", "es", "pt", "fr", "de", "ko"):
        assert any(line.startswith(lang) and "100.0%" in line for line in out.splitlines()), lang
    assert out.rstrip().endswith("0 problem(s)")


def test_validate_fails_on_broken_knowledge(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copytree(REPO / "knowledge", tmp_path / "k")
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
    assert main(["diagnose", "--symptom", "nope", "--lang", "es"]) == EXIT_BAD_INPUT
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
    assert main(["check", str(shared / "aitk-configs" / "train_lora_omnigen2_24gb.yaml")]) == EXIT_BAD_INPUT
    assert "[invalid-yaml]" in capsys.readouterr().err


def test_exit_codes_are_distinct_and_documented() -> None:
    codes = {name: value for name, value in vars(cli).items() if name.startswith("EXIT_") and isinstance(value, int)}
    assert len(set(codes.values())) == len(codes), codes
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for value in codes.values():
        assert f"| `{value}` |" in readme, value
        assert f"  {value} " in cli.EXIT_CODES, value


def test_usage_error_is_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["check"])
    assert exc.value.code == 2 == cli.EXIT_USAGE


def test_bad_setting_is_its_own_exit_code(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("REMEDY_MATCH_MINIMUM", "2")
    assert main(["diagnose", "--symptom", "oom-general"]) == cli.EXIT_BAD_SETTINGS
    assert "match_minimum" in capsys.readouterr().err


def test_unreadable_config_is_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(tmp_path / "absent.yaml")]) == EXIT_BAD_INPUT
    assert "cannot read" in capsys.readouterr().err
    assert main(["diagnose", "OOM", "--config", str(tmp_path)]) == EXIT_BAD_INPUT


def test_bad_context_json_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diagnose", "--symptom", "oom-general", "--context-json", '{"batch_size": "two"}']) == EXIT_BAD_INPUT
    assert "--context-json" in capsys.readouterr().err


def test_unsupported_lang_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diagnose", "--symptom", "oom-general", "--lang", "xx"]) == 0
    captured = capsys.readouterr()
    assert "xx" in captured.err and captured.out.startswith("match: confident")
    assert main(["diagnose", "--symptom", "oom-general", "--lang", "pt-BR"]) == 0
    assert capsys.readouterr().err == ""


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.startswith(f"remedy {__version__} (knowledge revision ")


def test_help_lists_every_command_and_each_option_names_its_variable() -> None:
    parser = cli.build_parser()
    top = parser.format_help()
    for command in ("serve", "diagnose", "check", "validate", "openapi"):
        assert command in top, command
    assert "PRODUCT.md" not in top and "exit codes:" in top
    for name in Settings.model_fields:
        assert f"REMEDY_{name.upper()}" in top, name
    serve_help = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices["serve"]
    text = serve_help.format_help()
    for name in ("HOST", "PORT", "WORKERS"):
        assert f"REMEDY_{name}" in text, name


def test_output_into_a_closed_pipe_is_quiet(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader (`| head`) has gone
    with os.fdopen(write_end, "w") as closed_pipe:
        monkeypatch.setattr(sys, "stdout", closed_pipe)
        assert main(["diagnose", "--symptom", "oom-general", "--json"]) == cli.EXIT_BROKEN_PIPE
    assert capsys.readouterr().err == ""


def test_openapi_writes_where_it_is_told(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["openapi"]) == 0
    assert json.loads((tmp_path / "openapi" / "openapi.json").read_text())["openapi"].startswith("3.1")
    assert main(["openapi", str(tmp_path / "x" / "api.json")]) == 0
    assert (tmp_path / "x" / "api.json").is_file()


def test_validate_reports_a_bad_key_with_its_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copytree(REPO / "knowledge", tmp_path / "k")
    symptoms = tmp_path / "k" / "text" / "de" / "symptoms.yaml"
    symptoms.write_text(symptoms.read_text(encoding="utf-8").replace("oom-early-steps:", "Bad Key!:", 1),
                        encoding="utf-8")
    monkeypatch.setenv("REMEDY_KNOWLEDGE_DIR", str(tmp_path / "k"))
    assert main(["validate"]) == 1
    assert "text/de/symptoms.yaml:Bad Key!.[key]: [schema]" in capsys.readouterr().out


def test_validate_checks_the_source_texts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copytree(REPO / "knowledge", tmp_path / "k")
    source = tmp_path / "k" / "sources" / "fr.txt"
    source.write_text(source.read_text(encoding="utf-8") + "Une ligne que le guide ne sert pas.\n", encoding="utf-8")
    monkeypatch.setenv("REMEDY_KNOWLEDGE_DIR", str(tmp_path / "k"))
    assert main(["validate"]) == 1
    out = capsys.readouterr().out
    assert "sources/fr.txt:line " in out and "[source-not-served]" in out and "1 problem(s)" in out
