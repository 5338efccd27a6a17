"""What `understand()` and `/v1/diagnose` make of texts given on the command line or read from stdin (one per line).

    .venv/bin/python bench/probe.py en "OOM at step 2 with gradient checkpointing off"
    printf 'text one\ntext two\n' | .venv/bin/python bench/probe.py es -

Prints, per text: its concepts, subjects, in_domain, stated context, phase, the top ranked targets with their scores,
and the symptom, confidence and first steps `/v1/diagnose` answers with. For reading the matcher while changing it.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from remedy.http.app import create_app
from remedy.runtime import load_runtime
from remedy.settings import Settings
from remedy.understanding.matcher import understand


def main() -> None:
    lang, *texts = sys.argv[1:]
    if texts == ["-"]:
        texts = [line.replace("\\n", "\n") for line in sys.stdin.read().splitlines() if line.strip()]
    runtime = load_runtime(Settings())
    client = TestClient(create_app(runtime=runtime), raise_server_exceptions=False)
    for text in texts:
        u = understand(runtime.index.matcher, text, lang)
        d = client.post("/v1/diagnose", json={"query": text, "lang": lang}).json()
        s = client.get("/v1/search", params={"q": text, "lang": lang}).json()
        # each field that differs from its default (GC told off is `False`, a fact: shown)
        stated = {f.name: getattr(u.stated, f.name) for f in dataclasses.fields(u.stated)
                  if getattr(u.stated, f.name) != f.default}
        print(f"--- {text[:200]!r}")
        print(f"  concepts: {sorted(u.concepts)}")
        print(f"  subjects: {sorted(u.subjects)}  in_domain={u.in_domain} phase={u.phase} asks={u.asks!r}")
        print(f"  stated: {stated}")
        print("  ranked: " + ", ".join(f"{t.id}={t.score:.2f}" for t in u.ranked[:4]))
        symptom = (d.get("symptom") or {}).get("id")
        steps = [st["id"] for st in d.get("steps", [])][:3]
        hits = [h["id"] for h in s.get("hits") or []][:2]
        print(f"  diagnose: {symptom} {d.get('confidence')} {steps}  ctx={d.get('context')}")
        print(f"  search: {s.get('match')} {hits}")


if __name__ == "__main__":
    main()
