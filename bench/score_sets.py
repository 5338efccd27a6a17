"""Score the project's query sets in process, as tests/understanding/test_queries.py judges them, by halves.

    .venv/bin/python bench/score_sets.py                      # every set: whole, dev half, check half
    .venv/bin/python bench/score_sets.py real_messages_20 queries_blind_17 --misses   # dev misses listed
    .venv/bin/python bench/score_sets.py --save /tmp/before.json; ...change...; \
        .venv/bin/python bench/score_sets.py --against /tmp/before.json               # what the change flipped

A set with halves (`query_sets.HALVES`) reports its dev half (even items) and its check half (odd items) apart;
`--misses` lists the failing dev items with why, and counts the failing check items without showing them. A set
named as an argument matches by stem, or by prefix when it ends in `*`. `--per-lang` adds one line per language.
`--save` writes which items pass; `--against` reports the items whose verdict changed since such a file (dev items
shown, check items counted). Prints figures only.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

import yaml
from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from query_sets import HALVES, SETS, is_check

from remedy.http.app import create_app
from remedy.runtime import load_runtime
from remedy.settings import Settings
from tests.understanding.test_queries import failures


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("sets", nargs="*", help="set stems or stem prefixes; all sets when none")
    parser.add_argument("--misses", action="store_true", help="list the failing dev items")
    parser.add_argument("--per-lang", action="store_true", help="one line per language too")
    parser.add_argument("--save", type=Path, help="write each item's verdict to this JSON file")
    parser.add_argument("--against", type=Path, help="report verdicts changed since this --save file")
    parser.add_argument("--classes", action="store_true",
                        help="tally the misses of each half by class (expected -> answered), no text shown")
    args = parser.parse_args()
    paths = [
        p
        for p in SETS
        if not args.sets or any(p.stem == s or (s.endswith("*") and p.stem.startswith(s[:-1])) for s in args.sets)
    ]
    client = TestClient(create_app(runtime=load_runtime(Settings())), raise_server_exceptions=False)
    total = [0, 0]
    verdicts: dict[str, bool] = {}
    before: dict[str, bool] = json.loads(args.against.read_text()) if args.against else {}
    flips: list[str] = []
    check_flips = [0, 0]  # check items newly passing, newly failing
    check_sets: list[str] = []  # and their sets (never their text)
    classes: dict[str, dict[str, int]] = {"dev": defaultdict(int), "check": defaultdict(int)}
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
            key = f"{path.stem}:{i}"
            verdicts[key] = not why
            if key in before and before[key] != verdicts[key]:
                if half == "check":
                    check_flips[before[key]] += 1
                    check_sets.append(f"{'fixed' if verdicts[key] else 'broken'} in {path.stem}")
                else:
                    mark = "FIXED" if verdicts[key] else "BROKEN"
                    flips.append(f"  {mark} {key} [{item['lang']}] {item['q'][:120]!r}\n        {'; '.join(why)}")
            if why:
                classes[half][_miss_class(item, why)] += 1
            if why and half == "dev":
                misses.append(f"  {i:3} [{item['lang']}] {item['q'][:150]!r}\n        {'; '.join(why)}")
        ok = halves["dev"][0] + halves["check"][0]
        n = halves["dev"][1] + halves["check"][1]
        total[0] += ok
        total[1] += n
        line = f"{path.stem:28} {ok:4}/{n:<4} {ok / n:.3f}"
        if path.name.startswith(HALVES):
            d, c = halves["dev"], halves["check"]
            line += f"   dev {d[0]}/{d[1]}  check {c[0]}/{c[1]}"
        print(line)
        if args.per_lang:
            print("    " + "  ".join(f"{lang} {v[0]}/{v[1]}" for lang, v in langs.items()))
        if args.misses and misses:
            print("\n".join(misses))
    if len(paths) > 1:
        print(f"{'all':28} {total[0]:4}/{total[1]:<4} {total[0] / total[1]:.3f}")
    if args.classes:
        for half, tally in classes.items():
            print(f"{half} misses by class ({sum(tally.values())}):")
            for name, count in sorted(tally.items(), key=lambda kv: -kv[1]):
                print(f"  {count:4}  {name}")
    if args.save:
        args.save.write_text(json.dumps(verdicts, indent=0, sort_keys=True))
    if args.against:
        print(
            f"changed since {args.against}: {len(flips)} dev items; check items {check_flips[0]} fixed, "
            f"{check_flips[1]} broken" + (f" ({', '.join(check_sets)})" if check_sets else "")
        )
        print("\n".join(flips))


def _miss_class(item: dict[str, object], why: list[str]) -> str:
    """A miss named by its class only: what was expected and what was answered, or which part of the answer was off
    ("oom-general -> none", "none -> weak-samples", "context.batch_size"), never its text."""
    expected = "none" if item["kind"] == "none" else "|".join(map(str, item.get("ids") or [item["kind"]]))
    for reason in why:
        if reason.startswith("expected no symptom, got "):
            return f"none -> {reason.rsplit(' ', 1)[1]}"
        if reason.startswith("symptom "):
            return f"{expected} -> {reason.split()[1]}"
    head = why[0].split("=")[0].split(" != ")[0]
    if head.startswith("search match"):
        head = "search not none"
    return f"{expected}: {head.split(' [')[0]}"


if __name__ == "__main__":
    main()
