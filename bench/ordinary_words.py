"""Build `knowledge/text/<lang>/words.yaml`, each language's ordinary words, once, at development time.

    .venv/bin/pip install pyspellchecker==0.9.1      # MIT; not a dependency of the service
    .venv/bin/python bench/ordinary_words.py [--count 5000]

The source is the word-frequency list each language has in pyspellchecker 0.9.1 (code MIT, Tyler Barrus;
`spellchecker/resources/<lang>.json.gz`): English, Spanish, Portuguese, French and German. Its counts come from
hermitdave/FrequencyWords (OpenSubtitles 2018), whose code is MIT and whose content is CC BY-SA 4.0, so each
words.yaml says so and is shared under those terms. Korean has none there, and needs none: a Hangul word is only
ever matched in the Korean stream (analysis.py).

A word is kept for a language when it is among that language's `count` most frequent words (normalized as the
analyzer normalizes a query: folded, letters only) and no other of the five languages uses it far more often (its
rank there is not under a quarter of its rank here): Spanish `de`, `la`, `con` are frequent in English subtitles
too, but they are Spanish words, and an English query that quotes them stays readable in Spanish.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path

ORIGIN = "hermitdave/FrequencyWords, content/2018 (OpenSubtitles 2018), as packaged by pyspellchecker"
LICENCE = "CC BY-SA 4.0 (FrequencyWords content, Copyright (c) 2016 Hermit Dave; pyspellchecker code MIT)"
ROOT = Path(__file__).resolve().parent.parent
LANGS = ("en", "es", "pt", "fr", "de")
SHARE = 4  # a word another language ranks this many times higher is that language's
HEADER = """\
# The ordinary words of {name}: the {count} most frequent words of the language, so that a word of a query in
# {name} that no text of the knowledge uses ("{example}") is still a word of {name}, matched in {name}'s stream only
# (service/understanding/analysis.py), never read as another language's word after stemming.
# Built once by bench/ordinary_words.py; do not edit by hand.
"""
NAMES = {"en": ("English", "fall"), "es": ("Spanish", "acabado"), "pt": ("Portuguese", "tarde"),
         "fr": ("French", "tard"), "de": ("German", "malen")}


def _ranks(resources: Path) -> dict[str, dict[str, int]]:
    sys.path.insert(0, str(ROOT))
    from service.understanding.normalize import normalize

    ranks: dict[str, dict[str, int]] = {}
    for lang in LANGS:
        counts: dict[str, int] = {}
        with gzip.open(resources / f"{lang}.json.gz", "rt", encoding="utf-8") as handle:
            for word, n in json.load(handle).items():
                folded = normalize(word)
                if folded.isalpha() and folded.isascii():
                    counts[folded] = counts.get(folded, 0) + int(n)
        ordered = sorted(counts, key=lambda w: (-counts[w], w))
        ranks[lang] = {w: i for i, w in enumerate(ordered)}
    return ranks


def ordinary(ranks: dict[str, dict[str, int]], lang: str, count: int) -> list[str]:
    """The `count` most frequent words of `lang` that no other language ranks `SHARE` times higher."""
    mine = ranks[lang]
    out = []
    for word, rank in sorted(mine.items(), key=lambda kv: kv[1]):
        if len(out) >= count:
            break
        if all(rank + 1 <= SHARE * (other[word] + 1) for o, other in ranks.items() if o != lang and word in other):
            out.append(word)
    return sorted(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=5000)
    args = parser.parse_args()
    import spellchecker  # type: ignore[import-not-found]

    resources = Path(spellchecker.__file__).parent / "resources"
    version = getattr(spellchecker, "__version__", "?")
    ranks = _ranks(resources)
    for lang in LANGS:
        words = ordinary(ranks, lang, args.count)
        name, example = NAMES[lang]
        lines = [HEADER.format(name=name, count=args.count, example=example),
                 f'source: "pyspellchecker {version}, spellchecker/resources/{lang}.json.gz (word frequencies)"',
                 f'origin: "{ORIGIN}"',
                 f'licence: "{LICENCE}"',
                 "words: >-"]
        line = " "
        for word in words:
            if len(line) + len(word) + 1 > 118:
                lines.append(line)
                line = " "
            line += " " + word
        lines.append(line)
        path = ROOT / "knowledge" / "text" / lang / "words.yaml"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"{path.relative_to(ROOT)}: {len(words)} words")
    return 0


if __name__ == "__main__":
    sys.exit(main())
