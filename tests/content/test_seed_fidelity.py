"""Every line of each source text (`knowledge/sources/<lang>.txt`) is served by
GET /v1/guides/gradient-checkpointing-oom?lang=xx.

The comparison follows the rules of the shared eval's `check_fidelity.py` (re-stated here, over HTTP, so
that this test does not depend on `remedy.rendering.fidelity`, which `remedy validate` uses): Unicode NFC,
the checklist's ✅ mark dropped, non-breaking spaces made plain, curly and angle quotes folded to straight
ones, runs of white space collapsed; a line is split on TAB into table cells, each its own unit. A unit
counts as served when it occurs inside one of the strings of the JSON answer, after the same folding.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.conftest import SEED_LANGS, SOURCES

GUIDE = "gradient-checkpointing-oom"
SEEDS = sorted(SEED_LANGS.items())

_DOUBLE_QUOTES = re.compile(r"[\u201c\u201d\u201e\u00ab\u00bb\"]")
_SINGLE_QUOTES = re.compile(r"[\u2018\u2019']")
_SPACES = re.compile(r"\s+")


def fold(text: str) -> str:
    """Bring seed text and served text to one comparable form."""
    text = unicodedata.normalize("NFC", text)
    text = text.replace("\u2705", " ")
    text = text.replace("\u00a0", " ").replace("\u202f", " ")
    text = _DOUBLE_QUOTES.sub('"', text)
    text = _SINGLE_QUOTES.sub("'", text)
    return _SPACES.sub(" ", text).strip()


def seed_units(text: str) -> list[str]:
    """Non-empty folded units of a seed: one per line, or one per cell of a TAB-separated table row."""
    return [unit for line in text.splitlines() for cell in line.split("\t") if (unit := fold(cell))]


def served_strings(node: Any) -> list[str]:
    """Every string value anywhere in a JSON document (keys are not content)."""
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [s for value in node.values() for s in served_strings(value)]
    if isinstance(node, list):
        return [s for value in node for s in served_strings(value)]
    return []


def test_folding_rules() -> None:
    assert fold("\u2705 Klicken\u00a0Sie  auf\tShow Advanced ") == "Klicken Sie auf Show Advanced"
    assert fold("„GC AUS“ « désactivé » l’option") == '"GC AUS" " désactivé " l\'option'
    assert fold("e\u0301") == "\u00e9"
    assert seed_units("a\tb \t \n\n  c  \n") == ["a", "b", "c"]


def test_every_seed_language_is_covered() -> None:
    assert sorted(p.stem for p in SOURCES.glob("*.txt")) == sorted(SEED_LANGS.values())


@pytest.mark.parametrize(("seed", "lang"), SEEDS, ids=[lang for _, lang in SEEDS])
def test_seed_lines_are_served(seed: str, lang: str, client: TestClient) -> None:
    units = seed_units((SOURCES / f"{lang}.txt").read_text(encoding="utf-8"))
    assert len(units) > 50, f"{seed} looks truncated: {len(units)} units"

    response = client.get(f"/v1/guides/{GUIDE}", params={"lang": lang})

    assert response.status_code == 200, response.text
    assert response.headers["content-language"] == lang
    haystack = "\n".join(fold(s) for s in served_strings(response.json()))
    missing = [unit for unit in units if unit not in haystack]
    assert not missing, f"{lang}: {len(missing)}/{len(units)} seed lines not served:\n" + "\n".join(
        f"  {unit[:160]}" for unit in missing
    )
