"""Where the slowest queries' time goes: `understand`'s stages, timed one by one on the queries that make the p99.

Run by hand: `.venv/bin/python bench/stages.py [--queries FILE] [--rounds N] [--slowest PCT]`. First ranks every query
by its own cost (the minimum CPU time of `answer_diagnosis` over the rounds, as `ab_inprocess.py` reads it), then times
each stage that `matcher.understand` calls (its module-level functions and the lexicon's and aliases' methods,
wrapped for the run) on the slowest `PCT` % of them and on all of them: per stage the minimum over the rounds of
each query, averaged over the queries, in microseconds. The stages' sum leaves out the statements between them.
Another checkout's venv can run this file (`/work/wt-start/.venv/bin/python bench/stages.py`) to time its code the
same way. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import functools
import gc
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
clock = time.thread_time_ns


def _wrap(name: str, fn: Callable[..., Any], spent: dict[str, int]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def timed(*args: Any, **kwargs: Any) -> Any:
        t = clock()
        try:
            return fn(*args, **kwargs)
        finally:
            spent[name] = spent.get(name, 0) + clock() - t
    return timed


def _stages(spent: dict[str, int]) -> None:
    """Wrap every function `understand` calls by a global name of its module, and the lexicon's and aliases'."""
    from remedy.understanding import lexicon, matcher

    code = matcher.understand.__code__
    for name in code.co_names:
        fn = getattr(matcher, name, None)
        if callable(fn) and not isinstance(fn, type) and name not in ("replace", "frozenset", "enumerate"):
            setattr(matcher, name, _wrap(name, fn, spent))
    for cls, method in ((lexicon.Lexicon, "spot"), (lexicon.Aliases, "find")):
        setattr(cls, method, _wrap(f"{cls.__name__}.{method}", getattr(cls, method), spent))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--queries", type=Path, default=ROOT / "tests" / "understanding" / "queries.yaml")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--slowest", type=float, default=5.0, help="the share of queries timed by stage, in %%")
    args = ap.parse_args()
    from remedy.answers import answer_diagnosis
    from remedy.catalogs import Negotiated
    from remedy.runtime import load_runtime
    from remedy.settings import Settings
    from remedy.understanding.matcher import understand

    rt = load_runtime(Settings())
    items = yaml.safe_load(args.queries.read_text(encoding="utf-8"))
    queries = [(i["q"], i["lang"]) for i in items]
    gc.freeze()
    gc.disable()
    best = [float("inf")] * len(queries)
    for r in range(args.rounds + 2):
        for k, (q, lang) in enumerate(queries):
            t = clock()
            answer_diagnosis(rt.index, rt.catalogs, Negotiated(lang, None, None), query=q, caches=rt.caches)
            if r >= 2:  # two rounds warm the caches
                best[k] = min(best[k], clock() - t)
    order = sorted(range(len(queries)), key=lambda k: -best[k])
    slow = order[: max(1, round(len(queries) * args.slowest / 100))]

    spent: dict[str, int] = {}
    _stages(spent)
    from remedy.understanding import matcher as module

    def by_stage(keys: list[int]) -> dict[str, float]:
        total: dict[str, float] = {}
        for k in keys:
            q, lang = queries[k]
            least: dict[str, int] = {}
            for _ in range(args.rounds):
                spent.clear()
                t = clock()
                understand(rt.index.matcher, q, lang, rt.caches)
                spent["understand"] = clock() - t
                for name, ns in spent.items():
                    least[name] = min(least.get(name, ns), ns)
            for name, ns in least.items():
                total[name] = total.get(name, 0.0) + ns / 1000 / len(keys)
        return total

    assert module.understand is understand
    slow_t, all_t = by_stage(slow), by_stage(list(range(len(queries))))
    gc.enable()
    ms = sorted(best[k] / 1e6 for k in range(len(queries)))
    print(f"{args.queries.name}: {len(queries)} queries, {args.rounds} rounds, CPU time; diagnose per-query minimum "
          f"p50 {ms[len(ms) // 2]:.3f} p95 {ms[round(0.95 * (len(ms) - 1))]:.3f} "
          f"p99 {ms[round(0.99 * (len(ms) - 1))]:.3f} ms")
    print(f"slowest {len(slow)}: " + ", ".join(f"#{k} {best[k] / 1e6:.3f}" for k in slow))
    names = sorted(all_t, key=lambda n: -slow_t.get(n, 0.0))
    print(f"{'stage (us per query, min over rounds)':<40}{'slowest':>9}{'all':>9}")
    for name in names:
        print(f"{name:<40}{slow_t.get(name, 0.0):>9.1f}{all_t[name]:>9.1f}")
    staged = [n for n in names if n != "understand"]
    print(f"{'(sum of the stages)':<40}{sum(slow_t.get(n, 0.0) for n in staged):>9.1f}"
          f"{sum(all_t[n] for n in staged):>9.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
