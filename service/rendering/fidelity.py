"""The guide's source texts (`knowledge/sources/<lang>.txt`) checked line by line against what is served.

A source line counts as served when, folded, it occurs inside one of the strings of the rendered guide
(`GET /v1/guides/{id}?lang=xx` serves exactly that view). Folding: Unicode NFC, the checklist's ✅ mark
dropped, non-breaking spaces made plain, curly and angle quotes made straight, white space collapsed; a
line is split on TAB into table cells, each checked on its own.

Codes (each has a failing fixture in tests/rendering/test_fidelity.py):
  source-not-served         a line (or cell) of a source text is not served verbatim by its language's guide
  source-unknown-language   a file under `sources/` is named after no supported language
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..content.problems import Problem
from ..index.build import Index
from .views import render_guide

_DOUBLE_QUOTES = re.compile(r"[\u201c\u201d\u201e\u00ab\u00bb\"]")
_SINGLE_QUOTES = re.compile(r"[\u2018\u2019']")
_SPACES = re.compile(r"\s+")


def fold(text: str) -> str:
    """Bring source text and served text to one comparable form.

    >>> fold("\u2705 Klicken\u00a0Sie  auf \u201eShow Advanced\u201c ")
    'Klicken Sie auf "Show Advanced"'
    """
    text = unicodedata.normalize("NFC", text)
    text = text.replace("\u2705", " ").replace("\u00a0", " ").replace("\u202f", " ")
    text = _DOUBLE_QUOTES.sub('"', text)
    text = _SINGLE_QUOTES.sub("'", text)
    return _SPACES.sub(" ", text).strip()


def source_units(text: str) -> Iterator[tuple[int, str]]:
    """(line number, folded unit) for every non-empty line, or every cell of a TAB-separated row."""
    for number, line in enumerate(text.splitlines(), start=1):
        for cell in line.split("\t"):
            if unit := fold(cell):
                yield number, unit


def served_strings(node: Any) -> Iterator[str]:
    """Every string value anywhere in a rendered view (keys are not content)."""
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from served_strings(value)
    elif isinstance(node, list | tuple):
        for value in node:
            yield from served_strings(value)


def check_sources(index: Index, sources: Path, guide_id: str) -> list[Problem]:
    """Every problem of `sources/<lang>.txt` against the served guide: `source-unknown-language` for a file
    whose name is no supported language, `source-not-served` for each line (or cell) not served verbatim."""
    problems: list[Problem] = []
    guide = index.guides[guide_id]
    for path in sorted(sources.glob("*.txt")):
        lang = path.stem
        file = f"sources/{path.name}"
        if lang not in index.languages:
            problems.append(Problem(file, "", "source-unknown-language", f"{lang!r} is not a supported language"))
            continue
        haystack = "\n".join(fold(s) for s in served_strings(render_guide(index, guide, lang)))
        for number, unit in source_units(path.read_text(encoding="utf-8")):
            if unit not in haystack:
                problems.append(Problem(file, f"line {number}", "source-not-served",
                                        f"not served by the {lang} guide: {unit[:120]}"))
    return problems
