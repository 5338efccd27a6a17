"""The project's query sets as the bench scripts read them, and which of their items are check items.

A set with halves (the real batches, the blind sets, the borders) has a dev half, its even items, and a check half,
its odd items, which nobody reads: a script that lists items or their readings shows dev items only and counts the
others. Imported by the scripts of this folder, which run from the checkout root (`.venv/bin/python bench/...`).
"""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
SETS = (
    *sorted((ROOT / "tests" / "understanding").glob("*.yaml")),
    ROOT / "tests" / "fixtures" / "eval" / "dev_queries.yaml",
)
HALVES = ("real_messages", "queries_blind", "queries_borders")


def is_check(name: str, index: int) -> bool:
    """Whether item `index` of the set named `name` ("real_messages_3.yaml" or its stem) is a check item."""
    return name.startswith(HALVES) and index % 2 == 1


def is_check_key(key: str) -> bool:
    """The same for a snapshot key, alone or heading a difference line: "real_messages_3.yaml:17",
    ".real_messages_3.yaml:17.concepts: [...] -> [...]"."""
    name, _, rest = key.lstrip(".").partition(".yaml:")
    digits = rest[: len(rest) - len(rest.lstrip("0123456789"))]
    return bool(digits) and is_check(name, int(digits))


def queries() -> list[tuple[str, str, str]]:
    """(set:number, lang, text) for every query of every set, check items included (`is_check_key` tells them)."""
    out = []
    for path in SETS:
        items = yaml.safe_load(path.read_text(encoding="utf-8")) or []
        for i, item in enumerate(items):
            out.append((f"{path.name}:{i}", item["lang"], item["q"]))
    return out
