"""Hostile traffic against one worker on loopback (issue 13): RSS after each attack, latency of a calm client's
normal requests while it runs (p50/p99, against the same client with no attack), and the cost of the heaviest
request the service accepts as a multiple of a typical one.

Run by hand: `.venv/bin/python bench/attack.py [--port 8130] [--seconds 3] [--alternations 3]`. Prints figures;
asserts nothing.
Record them, with the machine and the date, in BENCHMARKS.md. Targets: RSS growth < 50 MB per attack, p99 under
attack within 3x calm, the heaviest accepted request within 10x a typical one.

RSS is the worker's and its children's (the heavy lane's process), added. `--env REMEDY_HEAVY_LANE=thread` measures
another setting. Attacks (each bounded in connections, bytes and time; only ever to 127.0.0.1), the noise floor
(the calm client against itself) and those of the issue first:
- 4 MiB `Accept-Language` headers (once kept in the response cache's key), distinct 15 KB ones;
- distinct config bodies of 250 KB (once 4,200 took a worker to 1.15 GB);
- queries of 3,333 unique words, and of one 20,000-letter word (the word caches);
- four clients sending the heaviest queries back to back (once normal requests' p50 was 754 ms);
- 200 connections whose headers never end, 100 whose bodies never end.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import queue
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from tests.attacks import (  # noqa: E402
    Flood,
    Server,
    accept_language_flood,
    big_header,
    config_body,
    long_word_query,
    many_headers,
    normal_requests,
    percentile,
    slow_bodies,
    slow_headers,
    start_server,
    stop_server,
    timed,
    unique_words,
    word_query,
)

CONFIGS = ROOT / "tests" / "fixtures" / "aitk-configs"  # the project's copy of AI Toolkit's example configs


def attacks(port: int, seconds: float) -> dict[str, Callable[[Any], str]]:
    def flood(path: str, make: Any, threads: int, limit: int) -> Callable[[Any], str]:
        def run(stop: Any) -> str:
            f = Flood(port, path, make, threads=threads, limit=limit)
            f.run(stop)
            return f"{f.sent} sent, statuses {dict(sorted(f.statuses.items()))}"
        return run

    def repeat(what: Callable[[], int], count: int) -> Callable[[Any], str]:
        def run(stop: Any) -> str:
            statuses: dict[int, int] = {}
            for _ in range(count):
                if stop.is_set():
                    break
                s = what()
                statuses[s] = statuses.get(s, 0) + 1
            return f"statuses {statuses}"
        return run

    return {
        "no attack (the noise floor)": idle,
        "4 MiB Accept-Language x 30": repeat(lambda: big_header(port, 4 * 1024 * 1024), 30),
        "200 header fields x 200": repeat(lambda: many_headers(port, 200), 200),
        "distinct 15 KB Accept-Language": flood("/v1/diagnose", accept_language_flood, 2, 3000),
        "distinct 250 KB config bodies": flood("/v1/config/check", config_body, 2, 1500),
        "3,333 unique words per query": flood("/v1/diagnose", word_query, 2, 3000),
        "one 20,000-letter word per query": flood("/v1/diagnose", long_word_query, 2, 3000),
        "4 clients, heaviest queries": flood("/v1/diagnose", word_query, 4, 100_000),
        "200 slow headers": lambda stop: f"{slow_headers(port, 200, 12.0)} of 200 closed by the server",
        "100 slow bodies": lambda stop: "statuses " + json.dumps(
            {str(k): v for k, v in sorted(_count(slow_bodies(port, 100, 12.0)).items())}),
    }


def idle(stop: Any) -> str:
    """The noise floor: the attack window with no attack (the machine's own drift between two windows)."""
    stop.wait(120)
    return "nothing sent"


def _count(values: list[int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for v in values:
        out[v] = out.get(v, 0) + 1
    return out


def under_attack(server: Server, attack: Callable[[Any], str], seconds: float) -> tuple[str, list[float]]:
    """The attack in a process of its own (its CPU and GIL are not the measuring client's), normal requests here."""
    ctx = multiprocessing.get_context("fork")
    stop = ctx.Event()
    results: Any = ctx.Queue()
    runner = ctx.Process(target=lambda: results.put(attack(stop)), daemon=True)
    runner.start()
    time.sleep(0.3)  # let it get going
    samples = normal_requests(server, seconds)
    stop.set()
    try:
        result = results.get(timeout=60)
    except queue.Empty:
        result = "still running"
    runner.join(5)
    if runner.is_alive():
        runner.kill()
    bad = [s for s, _ in samples if s != 200]
    note = f"; normal requests not 200: {_count(bad)}" if bad else ""
    return result + note, [ms for _, ms in samples]


def costs(server: Server, rounds: int) -> None:
    """Typical vs heaviest accepted request, one at a time on an idle worker with the response cache off."""
    items = yaml.safe_load((ROOT / "tests" / "understanding" / "queries.yaml").read_text(encoding="utf-8"))
    bodies = [json.dumps({"query": item["q"], "lang": item["lang"]}).encode() for item in items]
    typical = [timed(server, "POST", "/v1/diagnose", body, {"Content-Type": "application/json"})[1] for body in bodies]
    typical_ms = statistics.median(typical)
    cycle = iter(bodies * 1000)
    config = (CONFIGS / "train_lora_flux_24gb.yaml").read_text(encoding="utf-8")
    check_ms = statistics.median(
        timed(server, "POST", "/v1/config/check", json.dumps({"config_yaml": config}).encode(),
              {"Content-Type": "application/json"})[1] for _ in range(30))
    rng = random.Random(7)
    oom = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of "
           "23.55 GiB of which 1.2 GiB is free.\n")
    bar = "my_lora:   1%|#         | 12/3000 [00:12<5:00:01,  1.20s/it, lr: 1e-4 loss: 0.1]\r"
    deep = {"config": {"job": "train", "config": {"process": [{"train": {"batch_size": 2}, "datasets": [
        {"resolution": [512, 768, 1024], "batch_size": 1, "control_path": ["a"] * 1000} for _ in range(20)]}]}}}
    heavy: dict[str, Callable[[], bytes]] = {
        "3,333 unique words": lambda: word_query(rng),
        "one 20,000-letter word": lambda: long_word_query(rng),
        "20,000 Hangul syllables": lambda: json.dumps(
            {"query": "".join(chr(0xAC00 + rng.randrange(11172)) for _ in range(20_000))}).encode(),
        "20,000-character OOM log": lambda: json.dumps({"query": (oom * 200)[:19_990] + unique_words(rng, 1)}).encode(),
        "20,000 characters of progress bars": lambda: json.dumps(
            {"query": (bar * 300)[:19_990] + unique_words(rng, 1)}).encode(),
        "10,000 lines": lambda: json.dumps({"query": ("x\n" * 9_990) + unique_words(rng, 1)}).encode(),
        "250 KB config_yaml": lambda: config_body(rng),
        "config object, 20 datasets x 1,000 control paths": lambda: json.dumps(
            {**deep, "query": unique_words(rng, 3)}).encode(),
        "query + config_yaml + context at their limits": lambda: json.dumps(
            {"query": unique_words(rng, 3333)[:20_000], "config_yaml": config + "#" + "x" * 200_000,
             "context": {"batch_size": 8, "resolutions": list(range(64, 64 + 32 * 64, 64))}}).encode(),
    }
    print(f"\ncost per request (one worker, response cache off, {rounds} distinct requests each, median ms):")
    print(f"  typical: free-text diagnose over the 230 queries {typical_ms:.2f} ms; config check (FLUX YAML) "
          f"{check_ms:.2f} ms; each heavy kind is timed in blocks of 5 alternating with blocks of 5 typical ones (the "
          f"ratio is to those, so the machine's load drifting cancels out)")
    worst = 0.0
    for name, make in heavy.items():
        samples, beside = [], []
        path = "/v1/config/check" if "config_yaml" in name and "query" not in name else "/v1/diagnose"
        for _ in range(max(rounds // 5, 1)):
            beside += [timed(server, "POST", "/v1/diagnose", next(cycle), {"Content-Type": "application/json"})[1]
                       for _ in range(5)]
            for _ in range(5):
                status, ms = timed(server, "POST", path, make(), {"Content-Type": "application/json"})
                samples.append(ms)
        median = statistics.median(samples)
        ratio = median / statistics.median(beside)
        worst = max(worst, ratio)
        print(f"  {name:<50}{median:>8.2f} ms  {ratio:>5.1f}x typical   (last status {status})")
    print(f"  heaviest accepted request: {worst:.1f}x a typical one (target <= 10x)")


class _Skip(Exception):
    pass


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=8130)
    ap.add_argument("--seconds", type=float, default=3.0, help="normal requests measured per window")
    ap.add_argument("--alternations", type=int, default=3,
                    help="calm and attack windows alternated per attack (their samples pooled)")
    ap.add_argument("--rounds", type=int, default=15, help="distinct requests per heavy kind")
    ap.add_argument("--only", help="run the attacks whose name contains this (or one of these, comma-separated)")
    ap.add_argument("--costs-only", action="store_true", help="only the cost of heavy requests")
    ap.add_argument("--no-costs", action="store_true", help="only the attacks")
    ap.add_argument("--env", action="append", default=[], metavar="REMEDY_X=VALUE",
                    help="a setting of the server measured (repeatable), e.g. REMEDY_HEAVY_LANE=thread")
    args = ap.parse_args()
    env = dict(item.split("=", 1) for item in args.env)
    print(f"machine: {os.cpu_count()} cores; python {sys.version.split()[0]}; {time.strftime('%Y-%m-%d %H:%M')}")
    print(f"server settings: {env or 'the defaults'}")
    server = start_server({"REMEDY_LOG_LEVEL": "error", **env}, port=args.port)
    try:
        if args.costs_only:
            raise _Skip
        # Warm up the code paths and the caches a calm worker has.
        normal_requests(server, 2.0, interval=0.005)
        calm = [ms for _, ms in normal_requests(server, args.seconds)]
        c50, c99 = percentile(calm, 50), percentile(calm, 99)
        start_rss = server.rss()
        print(f"calm: normal diagnose p50 {c50:.2f} ms, p99 {c99:.2f} ms over {len(calm)}; RSS {start_rss:.1f} MB")
        print(f"each attack: {args.alternations} x (the calm client alone for {args.seconds:g} s, then with the attack "
              "running in another process")
        print("for as long); 'calm p99' pools the calm windows, p50/p99 the attack windows, so the machine's load")
        print("drifting (other work on these cores) falls on both sides of the ratio")
        print(f"{'attack':<36}{'RSS MB':>8}{'growth':>8}{'calm p99':>9}{'p50 ms':>8}{'p99 ms':>8}{'p99/calm':>9}  "
              "result")
        for name, attack in attacks(args.port, args.seconds).items():
            if args.only and not any(part in name for part in args.only.split(",")):
                continue
            before = server.rss()
            calm_samples: list[float] = []
            samples = []
            results = []
            for _ in range(args.alternations):
                calm_samples += [ms for _, ms in normal_requests(server, args.seconds)]
                result, attacked = under_attack(server, attack, args.seconds)
                samples += attacked
                results.append(result)
            near = percentile(calm_samples, 99)
            result = results[0] if len(set(results)) == 1 else " | ".join(results)
            time.sleep(0.5)
            after = server.rss()
            p50, p99 = percentile(samples, 50), percentile(samples, 99)
            print(f"{name:<36}{after:>8.1f}{after - before:>+8.1f}{near:>9.2f}{p50:>8.2f}{p99:>8.2f}"
                  f"{p99 / near:>8.1f}x  {result}", flush=True)
        print(f"RSS after all attacks: {server.rss():.1f} MB ({server.rss() - start_rss:+.1f} MB since calm)")
    except _Skip:
        pass
    finally:
        stop_server(server)
    if args.no_costs:
        return 0
    server = start_server({"REMEDY_LOG_LEVEL": "error", **env, "REMEDY_RESPONSE_CACHE_BYTES": "0"}, port=args.port)
    try:
        costs(server, args.rounds)
    finally:
        stop_server(server)
    return 0


if __name__ == "__main__":
    sys.exit(main())
