"""Before and after in one process: another checkout's code and this one's, timed query by query, alternately.

Run by hand on a shared machine, where two bench processes run one after the other measure the load more than the
code: `.venv/bin/python bench/ab_inprocess.py OTHER/service [--queries FILE] [--rounds N] [--clock cpu|wall]`.
`OTHER/service` is the `service/` folder of another checkout (a `git worktree` or a `git archive` of the starting
commit; its dependencies must be those of this venv). It is imported as a second package (`remedy_other`: the
package imports itself relatively), both load their knowledge, and each query is answered by both, in turns that
alternate every round, so both see the same load. Prints, per call and side, the percentiles of each query's minimum
time over the rounds (its own cost) and of every call (the bench's figure). Asserts nothing.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def _calls(pkg: str, queries: list[tuple[str, str]]) -> dict[str, list[Callable[[], Any]]]:
    """The diagnose and search calls of every query, on one side's runtime."""
    settings = importlib.import_module(pkg + ".settings").Settings()
    runtime = importlib.import_module(pkg + ".runtime").load_runtime(settings)
    answers = importlib.import_module(pkg + ".answers")
    negotiated = importlib.import_module(pkg + ".catalogs").Negotiated
    index, catalogs, caches = runtime.index, runtime.catalogs, runtime.caches
    out: dict[str, list[Callable[[], Any]]] = {"diagnose": [], "search": []}
    for q, lang in queries:
        neg = negotiated(lang, None, None)
        out["diagnose"].append(
            lambda q=q, neg=neg: answers.answer_diagnosis(index, catalogs, neg, query=q, caches=caches))
        out["search"].append(lambda q=q, neg=neg: answers.answer_search(index, catalogs, neg, q, 10, caches=caches))
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("other", type=Path, help="the service/ folder of the other checkout (the 'before')")
    ap.add_argument("--queries", type=Path, default=ROOT / "tests" / "understanding" / "queries.yaml")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--clock", choices=("wall", "cpu"), default="cpu")
    args = ap.parse_args()
    clock = time.perf_counter_ns if args.clock == "wall" else time.thread_time_ns
    link_dir = Path(tempfile.mkdtemp(prefix="remedy-ab-"))
    (link_dir / "remedy_other").symlink_to(args.other.resolve(), target_is_directory=True)
    sys.path.insert(0, str(link_dir))
    items = yaml.safe_load(args.queries.read_text(encoding="utf-8"))
    queries = [(i["q"], i["lang"]) for i in items]
    sides = {"before": _calls("remedy_other", queries), "after": _calls("remedy", queries)}
    gc.freeze()  # as the served worker does after start-up
    print(f"{args.queries.name}: {len(queries)} queries, {args.rounds} rounds, clock: {args.clock}")
    for call in ("diagnose", "search"):
        for side in sides.values():
            for fn in side[call] * 2:  # warm both
                fn()
        best = {name: [float("inf")] * len(queries) for name in sides}
        every: dict[str, list[float]] = {name: [] for name in sides}
        gc.disable()
        for r in range(args.rounds):
            order = ("before", "after") if r % 2 == 0 else ("after", "before")
            for k in range(len(queries)):
                for name in order:
                    t = clock()
                    sides[name][call][k]()
                    ms = (clock() - t) / 1e6
                    every[name].append(ms)
                    best[name][k] = min(best[name][k], ms)
        gc.enable()
        for name in sides:
            b, e = best[name], every[name]
            print(f"{call:<9}{name:<7} per-query minimum p50 {statistics.median(b):.3f} p95 {percentile(b, 95):.3f} "
                  f"p99 {percentile(b, 99):.3f} max {max(b):.3f} | every call p50 {statistics.median(e):.3f} "
                  f"p99 {percentile(e, 99):.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
