"""The source texts are checked line by line against the served guide: one failing fixture per code."""

from __future__ import annotations

import shutil
from pathlib import Path

from remedy.index.build import Index
from remedy.rendering.fidelity import check_sources
from remedy.rendering.pages import GUIDE_ID
from tests.conftest import SOURCES


def test_every_project_source_is_served(index: Index) -> None:
    assert check_sources(index, SOURCES, GUIDE_ID) == []


def test_a_line_not_served_is_reported_with_file_and_line(index: Index, tmp_path: Path) -> None:
    shutil.copy(SOURCES / "de.txt", tmp_path / "de.txt")
    lines = (tmp_path / "de.txt").read_text(encoding="utf-8").splitlines()
    number = next(i for i, line in enumerate(lines, start=1) if "\t" not in line and len(line) > 40)
    lines[number - 1] += " (nicht im Leitfaden)"
    (tmp_path / "de.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    problems = check_sources(index, tmp_path, GUIDE_ID)
    assert [(p.file, p.path, p.code) for p in problems] == [("sources/de.txt", f"line {number}", "source-not-served")]


def test_a_file_for_no_language_is_reported(index: Index, tmp_path: Path) -> None:
    (tmp_path / "xx.txt").write_text("hello\n", encoding="utf-8")
    problems = check_sources(index, tmp_path, GUIDE_ID)
    assert [(p.file, p.code) for p in problems] == [("sources/xx.txt", "source-unknown-language")]

