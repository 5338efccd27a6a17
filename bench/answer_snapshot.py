"""Snapshot of whole answers (`answer_diagnosis` on free text and `answer_search`) for every query of the project's
query sets, and a comparison of two: the check that a speed change leaves every answer as it was.

Run by hand, before and after such a change (the same queries as `understanding_snapshot.py`):

    .venv/bin/python bench/answer_snapshot.py save  /tmp/answers-before.json
    .venv/bin/python bench/answer_snapshot.py compare /tmp/answers-before.json

`compare` prints how many answers differ (their knowledge revision aside) and the first fields that do; it exits 1
when one does. No timing.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from query_sets import is_check_key, queries


def snapshot() -> dict[str, Any]:
    from remedy.answers import answer_diagnosis, answer_search
    from remedy.catalogs import Negotiated
    from remedy.runtime import load_runtime
    from remedy.settings import Settings

    rt = load_runtime(Settings())
    out = {}
    for key, lang, text in queries():
        neg = Negotiated(lang, None, None)
        out[key] = {
            "d": answer_diagnosis(rt.index, rt.catalogs, neg, query=text, caches=rt.caches),
            "s": answer_search(rt.index, rt.catalogs, neg, text, 10, caches=rt.caches),
        }
    plain: dict[str, Any] = json.loads(json.dumps(out, default=repr, sort_keys=True))
    return plain


def _without_revision(answers: dict[str, Any]) -> dict[str, Any]:
    """The answers without their `knowledge_revision`: any change of the knowledge changes it in every answer, and what
    the comparison asks is which answers say something else."""
    return {key: {part: {k: v for k, v in answer.items() if k != "knowledge_revision"} for part, answer in pair.items()}
            for key, pair in answers.items()}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=("save", "compare"))
    ap.add_argument("path", type=Path)
    args = ap.parse_args()
    now = snapshot()
    if args.mode == "save":
        args.path.write_text(json.dumps(now, sort_keys=True), encoding="utf-8")
        print(f"saved {len(now)} answers to {args.path}")
        return 0
    before = json.loads(args.path.read_text(encoding="utf-8"))
    before, now = _without_revision(before), _without_revision(now)
    differ = [k for k in before if before[k] != now.get(k)]
    print(f"compared {len(before)} -> {len(now)} answers: {len(differ)} differ")
    shown = [key for key in differ if not is_check_key(key)]
    if len(shown) < len(differ):
        print(f"  ({len(differ) - len(shown)} of them in check halves, not shown: nobody reads a check item)")
    for key in shown[:20]:
        print(key)
        for part in ("d", "s"):
            a, b = before[key][part], now[key][part]
            for name in sorted(set(a) | set(b)):
                if a.get(name) != b.get(name):
                    print(f"   {part} {name}: {str(a.get(name))[:200]} -> {str(b.get(name))[:200]}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
