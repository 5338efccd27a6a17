"""The worker memory that deploy/kubernetes/deployment.yaml's requests and limits are derived from.

Run by hand: `.venv/bin/python bench/memory.py [--port 8143] [--answers 4096]`. Starts `remedy serve` with one
worker, prints its resident memory when ready, after serving the guide, and after filling the response cache
with distinct diagnose answers (the cache holds at most REMEDY_RESPONSE_CACHE_BYTES). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import urllib.request

from bench import ROOT, rss_mb, wait_ready

LANGS = ("en", "es", "pt", "fr", "de", "ko")


def post(base: str, body: dict[str, object]) -> None:
    request = urllib.request.Request(base + "/v1/diagnose", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as r:
        r.read()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=8143)
    ap.add_argument("--answers", type=int, default=4096)
    args = ap.parse_args()
    base = f"http://127.0.0.1:{args.port}"
    env = {**os.environ, "REMEDY_PORT": str(args.port), "REMEDY_WORKERS": "1", "REMEDY_LOG_LEVEL": "warning"}
    proc = subprocess.Popen([str(ROOT / ".venv" / "bin" / "remedy"), "serve"], env=env)
    try:
        wait_ready(base)
        print(f"ready: {rss_mb(proc.pid):.0f} MB")
        for lang in LANGS * 10:
            urllib.request.urlopen(f"{base}/v1/guides/gradient-checkpointing-oom?lang={lang}", timeout=10).read()
        print(f"after serving the guide: {rss_mb(proc.pid):.0f} MB")
        for i in range(args.answers):
            post(base, {"query": f"OOM at step {i % 50 + 2} with batch size {i // 50 + 1} and GC off",
                        "lang": LANGS[i % len(LANGS)]})
        print(f"after {args.answers} distinct diagnose answers (the response cache full): {rss_mb(proc.pid):.0f} MB")
    finally:
        proc.terminate()
        proc.wait(timeout=30)


if __name__ == "__main__":
    main()
