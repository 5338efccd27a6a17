"""Throughput and latency of one worker against the framework's floor, start-up, RSS, and knowledge scaling.

Run by hand (needs `wrk`, from Debian's package): `.venv/bin/python bench/bench.py [--seconds 8]`.
Prints figures; asserts nothing. Record them, with the machine and the date, in BENCHMARKS.md.

One worker (`remedy serve --workers 1`) and wrk (1 thread, 16 connections) share this machine's cores, so the
ratios to `/healthz` (the floor: FastAPI + uvicorn answering a constant) are what compares across machines.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = ROOT / "tests" / "fixtures" / "aitk-configs"  # the project's copy of AI Toolkit's example configs


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def lua_script(method: str, paths_and_bodies: list[tuple[str, str | None]]) -> str:
    """A wrk script that cycles through distinct requests."""
    items = []
    for path, body in paths_and_bodies:
        b = "nil" if body is None else f"[==[{body}]==]"
        items.append(f"{{[==[{path}]==], {b}}}")
    return f"""
local reqs = {{ {", ".join(items)} }}
local i = 0
local headers = {{["Content-Type"] = "application/json", ["Accept"] = "application/json"}}
request = function()
  i = i % #reqs + 1
  local r = reqs[i]
  return wrk.format("{method}", r[1], headers, r[2])
end
"""


def run_wrk(base: str, script: str, seconds: int, connections: int) -> dict[str, float]:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(script)
        path = f.name
    out = subprocess.run(
        ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", path, base],
        capture_output=True, text=True, check=True,
    ).stdout
    os.unlink(path)
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]

    def pct(p: str) -> float:
        m = re.search(rf"\s{p}%\s+([\d.]+)(us|ms|s)", out)
        if not m:
            return float("nan")
        value, unit = float(m.group(1)), m.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value

    errors = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    socket_errors = re.search(r"Socket errors: (.*)", out)
    return {"rps": rps, "p50": pct("50"), "p99": pct("99"), "non2xx": float(errors.group(1)) if errors else 0.0,
            "socket_errors": 1.0 if socket_errors else 0.0}


def wait_ready(base: str, timeout: float = 30.0) -> float:
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        try:
            with urllib.request.urlopen(base + "/readyz", timeout=1) as r:
                if r.status == 200:
                    return time.monotonic() - started
        except OSError:
            time.sleep(0.02)
    raise RuntimeError("the service did not become ready")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def scenarios() -> dict[str, tuple[str, list[tuple[str, str | None]]]]:
    items = yaml.safe_load((ROOT / "tests" / "understanding" / "queries.yaml").read_text(encoding="utf-8"))
    texts = [json.dumps({"query": i["q"], "lang": i["lang"]}, ensure_ascii=False) for i in items]
    searches = [f"/v1/search?q={urllib.parse.quote(i['q'][:200])}&lang={i['lang']}" for i in items
                if i["kind"] in ("faq", "section")]
    by_id = json.dumps({"symptom": "oom-early-steps", "lang": "es", "context": {
        "gradient_checkpointing": False, "model_arch": "qwen_image_edit", "batch_size": 2, "resolutions": [512, 1024]}})
    config = (CONFIGS / "train_lora_flux_24gb.yaml").read_text(encoding="utf-8")
    check = json.dumps({"config_yaml": config, "lang": "de"})
    return {
        "healthz (floor)": ("GET", [("/healthz", None)]),
        "diagnose by id": ("POST", [("/v1/diagnose", by_id)]),
        "diagnose free text": ("POST", [("/v1/diagnose", t) for t in texts]),
        "search": ("GET", [(p, None) for p in searches]),
        "config check": ("POST", [("/v1/config/check", check)]),
        "help page": ("GET", [("/help/es/gradient-checkpointing-oom", None)]),
    }


def http_bench(seconds: int, connections: int, cache_bytes: int, port: int = 0) -> None:
    port = port or free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "REMEDY_LOG_LEVEL": "warning", "REMEDY_RESPONSE_CACHE_BYTES": str(cache_bytes)}
    t0 = time.monotonic()
    proc = subprocess.Popen([str(ROOT / ".venv" / "bin" / "remedy"), "serve", "--port", str(port)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_ready(base)
        startup = time.monotonic() - t0
        print(f"start-up (spawn to /readyz 200, one worker): {startup:.2f} s   "
              f"RSS after start: {rss_mb(proc.pid):.1f} MB")
        floor = None
        print(f"{'scenario':<22}{'req/s':>10}{'ratio':>8}{'p50 ms':>9}{'p99 ms':>9}{'non-2xx':>9}")
        for name, (method, reqs) in scenarios().items():
            script = lua_script(method, reqs)
            run_wrk(base, script, 2, connections)  # warm-up
            r = run_wrk(base, script, seconds, connections)
            floor = floor or r["rps"]
            print(f"{name:<22}{r['rps']:>10.0f}{r['rps'] / floor:>8.2f}{r['p50']:>9.2f}{r['p99']:>9.2f}"
                  f"{r['non2xx']:>9.0f}")
        print(f"worker RSS after the runs: {rss_mb(proc.pid):.1f} MB")
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)


def scaled_content(content: Any, copies: int) -> Any:
    """The knowledge plus `copies - 1` synthetic copies of every symptom, each with its own concepts, features,
    words, titles and phrasings in every language: new topics, which real queries about this guide do not
    touch (the checks are skipped: the copies reuse the plans and texts of the originals)."""
    from remedy.content.models import Intent, Symptom, SymptomText, Vocabulary

    intents = dict(content.intents.targets)
    symptoms = list(content.symptoms)
    texts = {lang: t.model_copy(deep=True) for lang, t in content.texts.items()}
    concept_ids = list(content.concepts)
    concepts = dict(content.concepts)
    for k in range(1, copies):
        suffix = f"x{k}"
        hangul = chr(0xAC00 + 500 + k)  # a Hangul tag: a Latin one would split off a Korean word

        def tag(text: str, suffix: str = suffix, hangul: str = hangul) -> str:
            """Every word of `text` made new: a Latin tag on Latin words, a Hangul one on Korean words."""
            return re.sub(r"\w+", lambda m: m.group(0) + (hangul if "\uac00" <= m.group(0)[-1] <= "\ud7a3"
                                                           else suffix), text)

        for cid in concept_ids:
            concepts[f"{cid}_{suffix}"] = content.concepts[cid]
        for sym in content.symptoms:
            new_id = f"{sym.id}-{suffix}"
            symptoms.append(Symptom(**{**sym.model_dump(), "id": new_id}))
            base = content.intents.targets[sym.id]

            def rename(name: str, suffix: str = suffix) -> str:  # concepts and features alike: new topics
                return f"{name}_{suffix}"

            intents[new_id] = Intent(
                kind="symptom",
                require=tuple(rename(n) for n in base.require),
                require_any=tuple(tuple(rename(n) for n in g) for g in base.require_any),
                forbid=tuple(rename(n) for n in base.forbid),
                prior=base.prior,
                weights={rename(n): w for n, w in base.weights.items()},
            )
        for lang, text in texts.items():
            vocab = content.texts[lang].vocabulary
            new_concepts = dict(text.vocabulary.concepts)
            for cid, words in vocab.concepts.items():
                new_concepts[f"{cid}_{suffix}"] = tuple(tag(w) for w in words)
            phrasings = dict(text.vocabulary.phrasings)
            for tid, items in vocab.phrasings.items():
                if tid in content.intents.targets and content.intents.targets[tid].kind == "symptom":
                    phrasings[f"{tid}-{suffix}"] = tuple(tag(p) for p in items)
            sym_texts = dict(text.symptoms)
            for sid in content.texts[lang].symptoms:
                old = content.texts[lang].symptoms[sid]
                title = tag(old.title)
                sym_texts[f"{sid}-{suffix}"] = SymptomText(title=title, description=old.description)
            texts[lang] = text.model_copy(update={
                "vocabulary": Vocabulary(concepts=new_concepts, numbers=vocab.numbers, phrasings=phrasings),
                "symptoms": sym_texts,
            })
    new_intents = content.intents.model_copy(update={"targets": intents})
    return content.model_copy(update={"symptoms": tuple(symptoms), "intents": new_intents, "concepts": concepts,
                                      "texts": texts})


def scaling(rounds: int) -> None:
    from remedy.answers import answer_diagnosis
    from remedy.catalogs import Catalogs, Negotiated
    from remedy.content.loader import load_content
    from remedy.index.build import build_index
    from remedy.settings import Settings
    from remedy.understanding.caches import Caches

    settings = Settings()
    content = load_content(settings.knowledge_dir)
    items = yaml.safe_load((ROOT / "tests" / "understanding" / "queries.yaml").read_text(encoding="utf-8"))
    base_cost = None
    print(f"{'knowledge':<12}{'targets':>9}{'build s':>9}{'per query ms (median of rounds)':>34}{'x 1x':>8}")
    for copies in (1, 10, 100):
        t = time.perf_counter()
        index = build_index(scaled_content(content, copies))
        built = time.perf_counter() - t
        gc.collect()
        gc.freeze()  # as the service does once its index is built (service/http/app.py)
        catalogs = Catalogs(settings.locales_dir, index.languages, index.default_lang)
        caches = Caches(settings.word_cache_bytes, settings.rank_cache_bytes)
        costs = []
        for _ in range(rounds):
            t = time.perf_counter()
            for item in items:
                answer_diagnosis(index, catalogs, Negotiated(item["lang"], None, None), query=item["q"],
                                 caches=caches)
            costs.append((time.perf_counter() - t) / len(items) * 1000)
        cost = statistics.median(costs)
        base_cost = base_cost or cost
        print(f"{str(copies) + 'x':<12}{len(index.matcher.targets):>9}{built:>9.2f}{cost:>34.3f}"
              f"{cost / base_cost:>8.2f}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=int, default=8)
    ap.add_argument("--connections", type=int, default=16)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--skip-http", action="store_true")
    ap.add_argument("--skip-scaling", action="store_true")
    ap.add_argument("--cache-bytes", type=int, default=16_777_216,
                    help="REMEDY_RESPONSE_CACHE_BYTES of the server (0: off)")
    ap.add_argument("--port", type=int, default=0, help="loopback port of the server (default: any free one)")
    args = ap.parse_args()
    print(f"machine: {os.cpu_count()} cores; python {sys.version.split()[0]}; {time.strftime('%Y-%m-%d')}")
    if not args.skip_http:
        if not shutil.which("wrk"):
            print("wrk is missing: apt-get install wrk")
            return 1
        print(f"response cache: {args.cache_bytes or 'off'}")
        http_bench(args.seconds, args.connections, args.cache_bytes, args.port)
    if not args.skip_scaling:
        scaling(args.rounds)
    return 0


if __name__ == "__main__":

    sys.exit(main())
