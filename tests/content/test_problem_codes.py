"""One failing fixture per content problem code: copy the knowledge, break one thing, expect exactly that code.

Every case runs the whole start-up pipeline (load, cross-file checks, index build) on a mutated copy of
`knowledge/`, and asserts that the only code reported is the expected one, in the mutated file.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from remedy.content import problems as problems_module
from remedy.content.checks import check_content
from remedy.content.loader import load_content
from remedy.content.problems import ContentProblems, Problem
from remedy.index.build import build_index
from remedy.settings import Settings
from tests.conftest import LANGS

KNOWLEDGE = Settings().knowledge_dir
YAML_MARK = re.compile(r"line \d+, column \d+")


def run_pipeline(root: Path) -> list[Problem]:
    """Problems from every stage the content reaches: load, then check, then index build."""
    try:
        content = load_content(root)
    except ContentProblems as exc:
        return exc.problems
    found, _ = check_content(content)
    try:
        build_index(content)
    except ContentProblems as exc:
        found.extend(exc.problems)
    return found


def edit_text(root: Path, rel: str, old: str, new: str) -> None:
    """Replace the single occurrence of `old` in a file, keeping every other byte."""
    path = root / rel
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{rel}: expected exactly one {old!r}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def edit_yaml(root: Path, rel: str, change: Callable[[Any], None]) -> None:
    path = root / rel
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def position(root: Path, rel: str, ident: str) -> int:
    """Index of the entry with `ident` in a structure list file."""
    entries = yaml.safe_load((root / rel).read_text(encoding="utf-8"))
    return next(i for i, entry in enumerate(entries) if entry["id"] == ident)


# --- mutations -------------------------------------------------------------------------------------


def break_yaml_syntax(root: Path) -> None:
    edit_text(root, "text/fr/families.yaml", "name: Z-Image", "name: [Z-Image")


def repeat_key(root: Path) -> set[str]:
    path = root / "text/de/families.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.endswith("\n")
    path.write_text(text + "z-image:\n  name: Z-Image\n", encoding="utf-8")
    return {f"line {text.count(chr(10)) + 1}, column 1"}


def delete_file(root: Path) -> set[str]:
    (root / "text/pt/faq.yaml").unlink()
    return {""}


def empty_file(root: Path) -> set[str]:
    (root / "text/ko/signals.yaml").write_text("# emptied by mistake\n", encoding="utf-8")
    return {""}


def scalar_file(root: Path) -> set[str]:
    (root / "structure/intents.yaml").write_text("intents\n", encoding="utf-8")
    return {""}


def zero_safe_batch(root: Path) -> set[str]:
    i = position(root, "structure/families.yaml", "flux")
    edit_yaml(root, "structure/families.yaml", lambda data: data[i].update(safe_batch=0))
    return {f"{i}.safe_batch"}


def duplicate_step(root: Path) -> set[str]:
    edit_yaml(root, "structure/steps.yaml", lambda data: data.append(dict(data[-1])))
    return {yaml.safe_load((root / "structure/steps.yaml").read_text(encoding="utf-8"))[-1]["id"]}


def unknown_sentence_event(root: Path) -> set[str]:
    edit_yaml(root, "structure/intents.yaml", lambda data: data["sentences"]["events"].append("no_such_concept"))
    events = yaml.safe_load((root / "structure/intents.yaml").read_text(encoding="utf-8"))["sentences"]["events"]
    return {f"sentences.events.{len(events) - 1}"}


def unknown_setting_concept(root: Path) -> set[str]:
    rel = "structure/settings.yaml"
    i = next(k for k, s in enumerate(yaml.safe_load((root / rel).read_text(encoding="utf-8"))["settings"])
             if s.get("concept") == "gc")
    edit_yaml(root, rel, lambda data: data["settings"][i].update(concept="no_such_concept"))
    return {f"settings.{i}.concept"}


def repeat_setting_key(root: Path) -> set[str]:
    edit_yaml(root, "structure/settings.yaml", lambda data: data["settings"][-1]["keys"].append("train_batch_size"))
    return {"train_batch_size"}


def unknown_section(root: Path) -> set[str]:
    i = position(root, "structure/steps.yaml", "check-rank")
    edit_yaml(root, "structure/steps.yaml", lambda data: data[i].update(section="no-such-section"))
    return {f"{i}.section"}


def unknown_builder(root: Path) -> set[str]:
    i = position(root, "structure/steps.yaml", "reduce-batch-size")
    edit_yaml(root, "structure/steps.yaml", lambda data: data[i].update(patch_builder="no-such-builder"))
    return {f"{i}.patch_builder"}


def drop_step_text(root: Path) -> set[str]:
    edit_yaml(root, "text/es/steps.yaml", lambda data: data.pop("check-rank"))
    return {"check-rank.title", "check-rank.detail"}


def add_unknown_symptom(root: Path) -> set[str]:
    extra = {"title": "가짜 증상", "description": "구조에 없는 증상입니다."}
    edit_yaml(root, "text/ko/symptoms.yaml", lambda data: data.update({"oom-imaginary": extra}))
    return {"oom-imaginary"}


def add_list_item(root: Path) -> set[str]:
    # One item too many: every expected index stays present, so only the length is wrong (no missing-text).
    rel = "text/fr/guides/gradient-checkpointing-oom.yaml"
    edit_yaml(root, rel, lambda data: data["sections"]["covers"]["items"].append("un élément de trop"))
    return {"sections.covers.items"}


def lose_protected_literal(root: Path) -> set[str]:
    english = yaml.safe_load((root / "text/en/steps.yaml").read_text(encoding="utf-8"))
    assert "gradient_checkpointing: true" in english["enable-gradient-checkpointing"]["detail"]
    # `gradient_checkpointing` itself survives, so exactly one token is lost.
    edit_text(root, "text/de/steps.yaml", "gradient_checkpointing: true", "gradient_checkpointing: wahr")
    return {"enable-gradient-checkpointing.detail"}


def rename_placeholder(root: Path) -> set[str]:
    old = "batch-large: O Batch Size é {batch_size}"
    edit_text(root, "text/pt/rules.yaml", old, old.replace("{batch_size}", "{batchsize}"))
    return {"risk_reasons.batch-large"}


def unknown_operator(root: Path) -> set[str]:
    old = "batch-large: {batch_size: {gte: 2}}"
    edit_text(root, "structure/rules.yaml", old, old.replace("gte", "atleast"))
    return {"risk_facts.batch-large.batch_size.atleast"}


def unknown_field(root: Path) -> set[str]:
    i = position(root, "structure/steps.yaml", "reduce-batch-size")
    edit_text(root, "structure/steps.yaml", "applies: {batch_size: {ne: 1}}", "applies: {batchsize: {ne: 1}}")
    return {f"{i}.applies.batchsize"}


def unfilled_placeholder(root: Path) -> set[str]:
    # The Batch Size sentence chosen where the batch is not known would show "{batch_size}" to a person.
    edit_text(root, "structure/steps.yaml", "    - {batch-now: {batch_size: {gte: 2}, target_batch: {gte: 1}}}",
              "    - {batch-now: {}}")
    return {"reduce-batch-size.detail.batch-now"}


def finding_placeholder_unproven(root: Path) -> set[str]:
    # The finding text that names {family} loses the condition that makes the family known.
    i = position(root, "structure/findings.yaml", "gc-off")

    def change(data: Any) -> None:
        why = data[i]["details"][0]
        assert "family" in why["why-risky-family"]
        why["why-risky-family"] = {}

    edit_yaml(root, "structure/findings.yaml", change)
    return {"gc-off.detail.why-risky-family"}


def finding_variant_operator(root: Path) -> set[str]:
    # A finding's text variant is chosen by a condition compiled at load, with the operator table of the rules.
    i = position(root, "structure/findings.yaml", "expensive-preview")

    def change(data: Any) -> None:
        data[i]["details"][2]["why-qwen-edit"] = {"family": {"is": "qwen-edit"}}

    edit_yaml(root, "structure/findings.yaml", change)
    return {f"{i}.details.2.why-qwen-edit.family.is"}


def finding_title_without_default(root: Path) -> set[str] | None:
    # The last title variant must hold always, so that every finding raised has a title.
    i = position(root, "structure/findings.yaml", "expensive-preview")
    edit_yaml(root, "structure/findings.yaml", lambda data: data[i]["title"].pop("still"))
    return None
def unknown_stemmer(root: Path) -> set[str]:
    edit_text(root, "text/fr/profile.yaml", "stemmer: french", "stemmer: frankish")
    return {"stemmer"}


def rename_read_concept(root: Path) -> set[str]:
    # `time_unit` is read by name (a duration is not a step): renaming it in YAML alone disables that code.
    edit_text(root, "structure/concepts.yaml", "\ntime_unit:", "\nduration_unit:")
    for lang in LANGS:
        edit_text(root, f"text/{lang}/vocabulary.yaml", "  time_unit:", "  duration_unit:")
    # ... and intents.yaml's own references to it follow the rename (no dangling reference, only the code's)
    path = root / "structure/intents.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("time_unit", "duration_unit"), encoding="utf-8")
    return {"time_unit"}


def declare_unread_signal(root: Path) -> set[str]:
    # A signal with texts in every language but no rule of the log reader recording it would never be shown.
    with (root / "structure/signals.yaml").open("a", encoding="utf-8") as f:
        f.write('nccl-timeout: "a collective operation timed out"\n')
    for lang in LANGS:
        with (root / f"text/{lang}/signals.yaml").open("a", encoding="utf-8") as f:
            f.write('nccl-timeout: "NCCL timed out."\n')
    return {"nccl-timeout"}


@dataclass(frozen=True)
class Case:
    id: str
    code: str
    file: str
    mutate: Callable[[Path], set[str] | None]  # returns the paths the problems must name (None: unchecked)


CASES = [
    Case("yaml-syntax", "yaml-syntax", "text/fr/families.yaml", break_yaml_syntax),
    Case("duplicate-key", "duplicate-key", "text/de/families.yaml", repeat_key),
    Case("file-missing", "file-missing", "text/pt/faq.yaml", delete_file),
    Case("empty-file", "empty-file", "text/ko/signals.yaml", empty_file),
    Case("scalar-file", "empty-file", "structure/intents.yaml", scalar_file),
    Case("schema", "schema", "structure/families.yaml", zero_safe_batch),
    Case("duplicate-id", "duplicate-id", "structure/steps.yaml", duplicate_step),
    Case("dangling-reference", "dangling-reference", "structure/steps.yaml", unknown_section),
    Case("dangling-reference-builder", "dangling-reference", "structure/steps.yaml", unknown_builder),
    Case("dangling-reference-stemmer", "dangling-reference", "text/fr/profile.yaml", unknown_stemmer),
    Case("dangling-reference-sentences", "dangling-reference", "structure/intents.yaml", unknown_sentence_event),
    Case("dangling-reference-settings", "dangling-reference", "structure/settings.yaml", unknown_setting_concept),
    Case("duplicate-id-settings", "duplicate-id", "structure/settings.yaml", repeat_setting_key),
    Case("missing-text", "missing-text", "text/es/steps.yaml", drop_step_text),
    Case("extra-text", "extra-text", "text/ko/symptoms.yaml", add_unknown_symptom),
    Case("list-length", "list-length", "text/fr/guides/gradient-checkpointing-oom.yaml", add_list_item),
    Case("protected-token", "protected-token", "text/de/steps.yaml", lose_protected_literal),
    Case("placeholder-mismatch", "placeholder-mismatch", "text/pt/rules.yaml", rename_placeholder),
    Case("unknown-operator", "unknown-operator", "structure/rules.yaml", unknown_operator),
    Case("unknown-field", "unknown-field", "structure/steps.yaml", unknown_field),
    Case("unfilled-placeholder", "unfilled-placeholder", "text/en/steps.yaml", unfilled_placeholder),
    Case("unfilled-placeholder-finding", "unfilled-placeholder", "text/en/findings.yaml", finding_placeholder_unproven),
    Case("unknown-operator-finding", "unknown-operator", "structure/findings.yaml", finding_variant_operator),
    Case("schema-finding-title", "schema", "structure/findings.yaml", finding_title_without_default),
    Case("id-mismatch", "id-mismatch", "structure/concepts.yaml", rename_read_concept),
    Case("id-mismatch-signal", "id-mismatch", "structure/signals.yaml", declare_unread_signal),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_one_mutation_yields_exactly_its_code(case: Case, tmp_path: Path) -> None:
    root = tmp_path / "knowledge"
    shutil.copytree(KNOWLEDGE, root)
    paths = case.mutate(root)

    found = run_pipeline(root)

    listing = "\n".join(str(p) for p in found)
    assert {p.code for p in found} == {case.code}, listing
    assert {p.file for p in found} == {case.file}, listing
    if paths is not None:
        assert {p.path for p in found} == paths, listing
    if case.code == "yaml-syntax":
        assert all(YAML_MARK.fullmatch(p.path) for p in found), listing


def test_every_documented_code_has_a_case() -> None:
    doc = problems_module.__doc__ or ""
    documented = set(re.findall(r"^ {2}([a-z]+(?:-[a-z]+)*) {2,}\S", doc, flags=re.MULTILINE))
    assert len(documented) == 16
    assert {c.code for c in CASES} == documented


def test_real_knowledge_has_no_problems_and_full_coverage() -> None:
    content = load_content(KNOWLEDGE)
    found, coverage = check_content(content)
    assert found == []
    build_index(content)  # raises ContentProblems if a rule cannot be compiled
    assert set(coverage) == set(LANGS)
    for lang, cov in coverage.items():
        assert cov.expected > 0, lang
        assert cov.present == cov.expected, lang
        assert cov.ratio == 1.0, lang
