"""Every line of each source text (`knowledge/sources/<lang>.txt`) is served by
GET /v1/guides/gradient-checkpointing-oom?lang=xx.

The folding rules are the shared eval's `check_fidelity.py` ones, kept in `remedy.rendering.fidelity` (which
`remedy validate` also uses on the rendered view); here they are applied to the JSON answer over HTTP.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from remedy.rendering.fidelity import fold, served_strings, source_units
from tests.conftest import SEED_LANGS, SOURCES

GUIDE = "gradient-checkpointing-oom"
SEEDS = sorted(SEED_LANGS.items())


def test_folding_rules() -> None:
    assert fold("\u2705 Klicken\u00a0Sie  auf\tShow Advanced ") == "Klicken Sie auf Show Advanced"
    assert fold("„GC AUS“ « désactivé » l’option") == '"GC AUS" " désactivé " l\'option'
    assert fold("e\u0301") == "\u00e9"
    assert [unit for _, unit in source_units("a\tb \t \n\n  c  \n")] == ["a", "b", "c"]


def test_every_seed_language_is_covered() -> None:
    assert sorted(p.stem for p in SOURCES.glob("*.txt")) == sorted(SEED_LANGS.values())


@pytest.mark.parametrize(("seed", "lang"), SEEDS, ids=[lang for _, lang in SEEDS])
def test_seed_lines_are_served(seed: str, lang: str, client: TestClient) -> None:
    units = [unit for _, unit in source_units((SOURCES / f"{lang}.txt").read_text(encoding="utf-8"))]
    assert len(units) > 50, f"{seed} looks truncated: {len(units)} units"

    response = client.get(f"/v1/guides/{GUIDE}", params={"lang": lang})

    assert response.status_code == 200, response.text
    assert response.headers["content-language"] == lang
    haystack = "\n".join(fold(s) for s in served_strings(response.json()))
    missing = [unit for unit in units if unit not in haystack]
    assert not missing, f"{lang}: {len(missing)}/{len(units)} seed lines not served:\n" + "\n".join(
        f"  {unit[:160]}" for unit in missing
    )
