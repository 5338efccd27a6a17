"""In-process figures: start-up time, RSS of a loaded worker, and per-call time of diagnose / search.

Run by hand: `.venv/bin/python bench/inprocess.py [--rounds N]`. Prints figures; asserts nothing.
Queries are the project's own test set (tests/understanding/queries.yaml, all six languages) or any file in the
same format (`--queries tests/understanding/queries_more.yaml`: 600 more, a quarter of them pasted logs).
`--clock cpu` times each call by the thread's CPU time (`time.thread_time_ns`) instead of the wall clock: on a shared
machine it leaves out the time the process waits for a core (the load still slows the core itself, a little).
`--gc on` leaves the cyclic GC on while timing, as a served worker runs (the app freezes the start-up heap,
`gc.freeze()`, so a collection walks only what requests left); the default turns it off while timing, as before.
"""

from __future__ import annotations

import argparse
import compileall
import gc
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


_START = (
    "import time; t = time.perf_counter(); from remedy.http.app import create_app; "
    "from remedy.settings import Settings; create_app(Settings()); print((time.perf_counter() - t) * 1000)"
)


def _start_once() -> float:
    """Milliseconds from a fresh interpreter to a built app (imports, knowledge, index, pre-rendering)."""
    out = subprocess.run([sys.executable, "-c", _START], cwd=ROOT, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--queries", type=Path, default=ROOT / "tests" / "understanding" / "queries.yaml")
    ap.add_argument("--starts", type=int, default=5, help="fresh worker processes timed for start-up")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall", help="wall clock or the thread's CPU time")
    ap.add_argument("--gc", choices=("off", "on"), default="off", help="the cyclic GC while timing (on: as served)")
    args = ap.parse_args()
    clock = time.perf_counter_ns if args.clock == "wall" else time.thread_time_ns

    # A deployed worker has bytecode (a wheel install compiles it, a checkout writes it on its first start);
    # this machine sets PYTHONDONTWRITEBYTECODE, which would otherwise recompile the package at every start.
    compileall.compile_dir(ROOT / "service", quiet=1)
    starts = sorted(_start_once() for _ in range(args.starts))

    t0 = time.perf_counter()
    from remedy.http.app import create_app
    from remedy.settings import Settings

    t_import = time.perf_counter() - t0
    t1 = time.perf_counter()
    app = create_app(Settings())
    t_start = time.perf_counter() - t1
    runtime = app.state.runtime
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    from remedy.answers import answer_diagnosis, answer_search
    from remedy.catalogs import Negotiated

    items = yaml.safe_load(args.queries.read_text(encoding="utf-8"))
    queries = [(i["q"], i["lang"]) for i in items]
    index, catalogs, caches = runtime.index, runtime.catalogs, runtime.caches

    def timed(fn, rounds: int) -> dict[str, list[float]]:  # type: ignore[no-untyped-def]
        per: dict[str, list[float]] = {}
        if args.gc == "off":
            gc.disable()
        for _ in range(rounds):
            for q, lang in queries:
                neg = Negotiated(lang, None, None)
                t = clock()
                fn(q, neg)
                per.setdefault(lang, []).append((clock() - t) / 1e6)
        gc.enable()
        return per

    def diag(q: str, neg: Negotiated) -> None:
        answer_diagnosis(index, catalogs, neg, query=q, caches=caches)

    def srch(q: str, neg: Negotiated) -> None:
        answer_search(index, catalogs, neg, q, 10, caches=caches)

    def by_id(q: str, neg: Negotiated) -> None:
        answer_diagnosis(index, catalogs, neg, symptom="oom-early-steps")

    timed(diag, 2)  # warm caches
    print(f"python {sys.version.split()[0]}; queries: {len(queries)} in 6 languages; rounds: {args.rounds}; "
          f"clock: {args.clock}; gc while timing: {args.gc}")
    print(f"import: {t_import * 1000:.0f} ms   create_app (load + validate + index + render): {t_start * 1000:.0f} ms")
    if starts:
        print(f"worker start-up (import + create_app) in {len(starts)} fresh processes: "
              f"median {statistics.median(starts):.0f} ms, max {starts[-1]:.0f} ms")
    print(f"worker max RSS after start-up: {rss_mb:.1f} MB")
    print(f"{'call':<22}{'lang':<6}{'n':>6}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    for name, fn in (("diagnose free text", diag), ("search", srch), ("diagnose by id", by_id)):
        per = timed(fn, args.rounds if name != "diagnose by id" else 2)
        every = [v for vs in per.values() for v in vs]
        for lang, vs in sorted(per.items()):
            if name == "diagnose free text":
                print(f"{name:<22}{lang:<6}{len(vs):>6}{statistics.median(vs):>9.3f}{percentile(vs, 99):>9.3f}"
                      f"{max(vs):>9.3f}")
        print(f"{name:<22}{'all':<6}{len(every):>6}{statistics.median(every):>9.3f}{percentile(every, 99):>9.3f}"
              f"{max(every):>9.3f}")
    print(f"worker max RSS after the runs: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
