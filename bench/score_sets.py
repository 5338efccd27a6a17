"""Score the project's query sets in process, as tests/understanding/test_queries.py judges them, by halves.

    .venv/bin/python bench/score_sets.py                      # every set: whole, dev half, check half
    .venv/bin/python bench/score_sets.py real_messages_20 queries_blind_17 --misses   # dev misses listed

A set with halves (`query_sets.HALVES`) reports its dev half (even items) and its check half (odd items) apart;
`--misses` lists the failing dev items with why, and counts the failing check items without showing them. A set
named as an argument matches by stem, or by prefix when it ends in `*`. `--per-lang` adds one line per language.
Prints figures only.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

import yaml
from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from query_sets import SETS, is_check

from remedy.http.app import create_app
from remedy.runtime import load_runtime
from remedy.settings import Settings
from tests.understanding.test_queries import failures


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("sets", nargs="*", help="set stems or stem prefixes; all sets when none")
    parser.add_argument("--misses", action="store_true", help="list the failing dev items")
    parser.add_argument("--per-lang", action="store_true", help="one line per language too")
    args = parser.parse_args()
    paths = [
        p
        for p in SETS
        if not args.sets or any(p.stem == s or (s.endswith("*") and p.stem.startswith(s[:-1])) for s in args.sets)
    ]
    client = TestClient(create_app(runtime=load_runtime(Settings())), raise_server_exceptions=False)
    total = [0, 0]
    for path in paths:
        items = yaml.safe_load(path.read_text(encoding="utf-8")) or []
        halves: dict[str, list[int]] = {"dev": [0, 0], "check": [0, 0]}
        langs: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        misses = []
        for i, item in enumerate(items):
            why = failures(client, item)
            half = "check" if is_check(path.name, i) else "dev"
            halves[half][0] += not why
            halves[half][1] += 1
            langs[item["lang"]][0] += not why
            langs[item["lang"]][1] += 1
            if why and half == "dev":
                misses.append(f"  {i:3} [{item['lang']}] {item['q'][:150]!r}\n        {'; '.join(why)}")
        ok = halves["dev"][0] + halves["check"][0]
        n = halves["dev"][1] + halves["check"][1]
        total[0] += ok
        total[1] += n
        line = f"{path.stem:28} {ok:4}/{n:<4} {ok / n:.3f}"
        if path.name.startswith(("real_messages", "queries_blind", "queries_borders")):
            d, c = halves["dev"], halves["check"]
            line += f"   dev {d[0]}/{d[1]}  check {c[0]}/{c[1]}"
        print(line)
        if args.per_lang:
            print("    " + "  ".join(f"{lang} {v[0]}/{v[1]}" for lang, v in langs.items()))
        if args.misses and misses:
            print("\n".join(misses))
    if len(paths) > 1:
        print(f"{'all':28} {total[0]:4}/{total[1]:<4} {total[0] / total[1]:.3f}")


if __name__ == "__main__":
    main()
