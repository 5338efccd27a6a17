"""Load and soak on loopback: many varied requests against one worker; errors, non-2xx answers and the
worker's memory over time. Every free-text request is new (a counter is appended), so the bounded caches
fill up and must stay bounded.

Run by hand (needs `wrk`): `.venv/bin/python bench/soak.py [--requests 100000]`. Prints figures.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import CONFIGS, ROOT, free_port, rss_mb, wait_ready


def script() -> str:
    items = yaml.safe_load((ROOT / "tests" / "understanding" / "queries.yaml").read_text(encoding="utf-8"))
    queries = [(i["q"][:300].replace("]==]", ""), i["lang"]) for i in items]
    config = (CONFIGS / "train_lora_qwen_image_edit_32gb.yaml").read_text(encoding="utf-8")
    q_items = ", ".join(f"{{[==[{json.dumps(q, ensure_ascii=False)[1:-1]}]==], \"{lang}\"}}" for q, lang in queries)
    config_body = json.dumps({"config_yaml": config})
    return f"""
local qs = {{ {q_items} }}
local config = [==[{config_body}]==]
local symptoms = {{"oom-early-steps", "oom-during-sampling", "oom-bucket-spike", "oom-persists-with-gc",
                   "oom-general", "slow-training", "weak-samples"}}
local langs = {{"en", "es", "pt", "fr", "de", "ko"}}
local n = 0
local json_headers = {{["Content-Type"] = "application/json"}}
request = function()
  n = n + 1
  local kind = n % 8
  local q = qs[n % #qs + 1]
  local lang = langs[n % #langs + 1]
  if kind == 0 or kind == 1 or kind == 2 then
    local body = '{{"query": "' .. q[1] .. ' #' .. n .. '", "lang": "' .. q[2] .. '"}}'
    return wrk.format("POST", "/v1/diagnose", json_headers, body)
  elseif kind == 3 then
    local body = '{{"symptom": "' .. symptoms[n % #symptoms + 1] .. '", "lang": "' .. lang ..
      '", "context": {{"batch_size": ' .. (n % 8 + 1) .. '}}}}'
    return wrk.format("POST", "/v1/diagnose", json_headers, body)
  elseif kind == 4 then
    return wrk.format("GET", "/v1/search?lang=" .. lang .. "&q=gradient%20checkpointing%20" .. n)
  elseif kind == 5 then
    return wrk.format("POST", "/v1/config/check", json_headers, config)
  elseif kind == 6 then
    return wrk.format("GET", "/v1/guides/gradient-checkpointing-oom?lang=" .. lang)
  else
    return wrk.format("GET", "/help/" .. lang .. "/troubleshoot?q=OOM%20step%20" .. (n % 50))
  end
end
"""


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=100_000)
    ap.add_argument("--connections", type=int, default=16)
    args = ap.parse_args()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([str(ROOT / ".venv" / "bin" / "remedy"), "serve", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                            env={"REMEDY_LOG_LEVEL": "warning", "PATH": "/usr/bin:/bin"})
    try:
        wait_ready(base)
        with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
            f.write(script())
        # Calibrate the duration from a short run so the soak makes at least the asked number of requests.
        probe = subprocess.run(["wrk", "-t1", f"-c{args.connections}", "-d5s", "-s", f.name, base],
                               capture_output=True, text=True, check=True).stdout
        rate = float(re.search(r"Requests/sec:\s+([\d.]+)", probe).group(1))  # type: ignore[union-attr]
        seconds = int(args.requests / rate * 1.25) + 1
        print(f"warm-up rate {rate:.0f} req/s -> soak of {seconds} s")
        start_rss = rss_mb(proc.pid)
        wrk = subprocess.Popen(["wrk", "-t1", f"-c{args.connections}", f"-d{seconds}s", "--latency", "-s", f.name,
                                base], stdout=subprocess.PIPE, text=True)
        samples = []
        t0 = time.monotonic()
        while wrk.poll() is None:
            time.sleep(max(1, seconds // 12))
            samples.append((round(time.monotonic() - t0), rss_mb(proc.pid)))
        out = wrk.stdout.read() if wrk.stdout else ""
        total = int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]
        non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
        errors = re.search(r"Socket errors: (.*)", out)
        print(f"requests: {total}   non-2xx: {non2xx.group(1) if non2xx else 0}   "
              f"socket errors: {errors.group(1) if errors else 'none'}")
        print(re.search(r"Requests/sec:.*", out).group(0))  # type: ignore[union-attr]
        print(f"worker RSS (MB): after warm-up {start_rss:.1f}; during the soak " +
              ", ".join(f"{t}s:{m:.1f}" for t, m in samples))
        half = [m for _, m in samples[len(samples) // 2:]]
        print(f"second half of the soak: min {min(half):.1f} MB, max {max(half):.1f} MB")
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
