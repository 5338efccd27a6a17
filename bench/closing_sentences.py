"""Ordinary closing sentences must not change what a message tells: "How do I fix it?", "Thanks in advance",
"I'm new to this", "It used to work fine", in each language. Every positive item of the given sets whose best-ranked
symptom is right is read again with each closing sentence appended; the script counts, per sentence, the items whose
best-ranked symptom changes, and shows the first few.

Run by hand, from the checkout root (real batches' check halves are left out: their items are never shown):

    .venv/bin/python bench/closing_sentences.py                       # queries, statements, blind sets
    .venv/bin/python bench/closing_sentences.py tests/understanding/queries_more.yaml

Found with it: "how do I fix it?" read as a solved post (every symptom lost), French "je débute" (I'm new) read as
"début" (the start of the run).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import yaml

from remedy.runtime import load_runtime
from remedy.settings import Settings
from remedy.understanding.matcher import Understanding, understand

ROOT = Path(__file__).resolve().parents[1]
SETS = ("queries.yaml", "queries_statements.yaml", "queries_blind.yaml", "queries_blind_2.yaml")
CLOSINGS: dict[str, tuple[str, ...]] = {
    "en": ("How do I fix it?", "Any help appreciated, thanks in advance!", "Please help.", "What should I do?",
           "Is this a bug?", "It used to work fine.", "I'm new to this.", "Thanks for the great tool!",
           "Not sure what I'm doing wrong.", "Any ideas?", "Edit: still happening after update.",
           "I searched but found nothing.", "Sorry for my english."),
    "es": ("¿Cómo lo soluciono?", "Gracias de antemano.", "¿Alguna idea?", "Soy nuevo en esto.",
           "Antes funcionaba bien."),
    "pt": ("Como resolvo isso?", "Desde já agradeço.", "Alguma ideia?", "Sou novo nisso.", "Antes funcionava."),
    "fr": ("Comment je règle ça ?", "Merci d'avance.", "Une idée ?", "Je débute.", "Avant ça marchait."),
    "de": ("Wie kann ich das beheben?", "Danke im Voraus.", "Jemand eine Idee?", "Bin neu dabei.", "Früher ging es."),
    "ko": ("어떻게 해결하나요?", "미리 감사합니다.", "도와주세요.", "초보라서요.", "전에는 잘 됐어요."),
}


def best_symptom(u: Understanding) -> str | None:
    return next((s.id for s in u.ranked if s.kind == "symptom"), None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--show", type=int, default=3, help="changed items shown per closing sentence")
    args = parser.parse_args()
    files = args.files or [ROOT / "tests" / "understanding" / name for name in SETS]
    matcher = load_runtime(Settings()).index.matcher
    changed: Counter[str] = Counter()
    read: Counter[str] = Counter()
    for path in files:
        for item in yaml.safe_load(path.read_text(encoding="utf-8")):
            if item["kind"] != "symptom":
                continue
            lang, text = item["lang"], item["q"].rstrip().rstrip(".!?")
            before = best_symptom(understand(matcher, text, lang))
            if before not in item["ids"]:
                continue
            for closing in CLOSINGS[lang]:
                after = best_symptom(understand(matcher, f"{text}. {closing}", lang))
                read[closing] += 1
                if after != before:
                    changed[closing] += 1
                    if changed[closing] <= args.show:
                        print(f"  {closing!r}: {text[:80]!r} {before} -> {after}")
    for closing in sorted(read):
        print(f"{changed[closing]:4d}/{read[closing]}  {closing}")
    print(f"changed {sum(changed.values())} of {sum(read.values())}")


if __name__ == "__main__":
    sys.exit(main())
