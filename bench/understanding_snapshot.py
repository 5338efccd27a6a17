"""Snapshot of what `understand()` makes of every query of the project's query sets, and a comparison of two.

Run by hand, before and after a change that must not change any answer:

    .venv/bin/python bench/understanding_snapshot.py save  /tmp/before.json
    .venv/bin/python bench/understanding_snapshot.py compare /tmp/before.json

`save` writes, for every query of `tests/understanding/*.yaml` and `tests/fixtures/eval/dev_queries.yaml` (each in its
own language): the language, concepts, features, stated context, family, arch, phase, log signals (with their
data), GPU OOM / other failure, and every ranked target with its score. `compare` recomputes the same and reports
every difference (scores compared within 1e-9); it exits 1 when there is one. The JSON holds no timing.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

from query_sets import is_check_key, queries

TOLERANCE = 1e-9


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, frozenset | set):
        return sorted(_plain(v) for v in value)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def snapshot() -> dict[str, Any]:
    from remedy.runtime import load_runtime
    from remedy.settings import Settings
    from remedy.understanding.matcher import understand

    runtime = load_runtime(Settings())
    matcher = runtime.index.matcher
    out: dict[str, Any] = {}
    for key, lang, text in queries():
        u = understand(matcher, text, lang, runtime.caches)
        out[key] = {
            "q": text[:120],
            "lang": u.lang,
            "concepts": sorted(u.concepts),
            "features": sorted(u.features),
            "stated": _plain(u.stated),
            "family": u.family,
            "arch": u.arch,
            "phase": u.phase,
            "in_domain": u.in_domain,
            "log": _plain(u.log),
            "ranked": [[s.id, s.kind, s.score] for s in u.ranked],
        }
    return out


def _diff(path: str, a: Any, b: Any, out: list[str]) -> None:
    if isinstance(a, float) or isinstance(b, float):
        if not (isinstance(a, int | float) and isinstance(b, int | float)) or abs(a - b) > TOLERANCE:
            out.append(f"{path}: {a!r} -> {b!r}")
    elif isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(f"{path}.{k}: {a.get(k, '<absent>')!r} -> {b.get(k, '<absent>')!r}")
            else:
                _diff(f"{path}.{k}", a[k], b[k], out)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append(f"{path}: {len(a)} items -> {len(b)} items: {a!r} -> {b!r}"[:400])
        else:
            for i, (x, y) in enumerate(zip(a, b, strict=True)):
                _diff(f"{path}[{i}]", x, y, out)
    elif a != b:
        out.append(f"{path}: {a!r} -> {b!r}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=("save", "compare"))
    ap.add_argument("file", type=Path)
    args = ap.parse_args()
    now = snapshot()
    if args.mode == "save":
        args.file.write_text(json.dumps(now, ensure_ascii=False, indent=0, sort_keys=True), encoding="utf-8")
        print(f"saved {len(now)} understandings to {args.file}")
        return 0
    before = json.loads(args.file.read_text(encoding="utf-8"))
    now = json.loads(json.dumps(now))  # the same JSON round trip as the saved side (tuples -> lists)
    diffs: list[str] = []
    _diff("", before, now, diffs)
    ranked = sum(len(v["ranked"]) for v in now.values())
    signals = sum(len(v["log"]["signals"]) for v in now.values())
    print(f"compared {len(before)} -> {len(now)} understandings ({ranked} ranked targets, {signals} log signals): "
          f"{len(diffs)} difference(s)")
    shown = [line for line in diffs if not is_check_key(line)]
    if len(shown) < len(diffs):
        print(f"  ({len(diffs) - len(shown)} of them in check halves, not shown: nobody reads a check item)")
    for line in shown[:200]:
        print(" ", line)
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
