"""Foreign-stream leaks: concept hits a query gets only from the stream of a language that is neither its own nor
English (the lingua franca), e.g. the English "fall" of "fall foliage" read as Spanish `falla` (crash).

Run by hand, from the checkout root:

    .venv/bin/python bench/foreign_leaks.py            # every query set, dev items' leaks listed, check counted
    .venv/bin/python bench/foreign_leaks.py --impact   # also: how many understandings each leak changes

Sets: every `tests/understanding/*.yaml` and `tests/fixtures/eval/dev_queries.yaml`. In a set with halves (the
real batches, the blind and border sets) even items are dev and odd items are check: a check item's leaks are
counted per (query language, stream language) only, never shown with their words. A hit is a leak when the full
lexicon gives it and a lexicon of the query's own stream and English does not; its stream is the one that, added
to those two, gives it back. An understanding "changes" when its concepts or its best-ranked target differ once
the leak's hits are dropped.
"""

from __future__ import annotations

import argparse
import copy
import sys
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml
from query_sets import ROOT, SETS, is_check

Leak = tuple[str, str, int, int, str]  # (stream language, concept, start, end, words)


def _half(path: Path, i: int) -> str:
    return "check" if is_check(path.stem, i) else "dev"


class _Masked:
    """A lexicon that sees only some streams (the roots of the others are empty)."""

    def __init__(self, lexicon: Any, keep: Callable[[int], bool]) -> None:
        self.inner = copy.copy(lexicon)
        self.inner.roots = tuple(root if keep(s) else {} for s, root in enumerate(lexicon.roots))
        self.inner.after_size = tuple((s, node) for s, node in lexicon.after_size if keep(s))

    def spot(self, tokens: Any, lang: str | None = None, c: Any = None) -> Any:
        from remedy.understanding.caches import NO_CACHE

        return self.inner.spot(tokens, lang, NO_CACHE)  # its own answers: never the shared `starts` memo


class _Recorder:
    """The full lexicon's hits, with the leaks of each call recorded (`drop` names the words whose leaked hits
    are dropped: None keeps every hit, an empty set drops every leak)."""

    def __init__(self, lexicon: Any, streams: tuple[str, ...], lingua: str, drop: set[str] | None = None) -> None:
        self.lexicon, self.streams, self.lingua, self.drop = lexicon, streams, lingua, drop
        self.leaks: list[Leak] = []
        self._masks: dict[tuple[str | None, str | None], _Masked] = {}

    def _mask(self, own: str | None, extra: str | None) -> _Masked:
        key = (own, extra)
        if key not in self._masks:
            allowed = {own, self.lingua, extra}
            self._masks[key] = _Masked(self.lexicon, lambda s: self.streams[s] in allowed)
        return self._masks[key]

    def spot(self, tokens: Any, lang: str | None = None, c: Any = None) -> Any:
        from remedy.understanding.caches import NO_CACHE

        full = self.lexicon.spot(tokens, lang, NO_CACHE)
        if lang is None:
            return full
        base = set(self._mask(lang, None).spot(tokens, lang))
        leaked = [h for h in full if h not in base]
        found: set[Any] = set()
        for stream in self.streams:
            if stream in (lang, self.lingua) or not leaked:
                continue
            back = set(self._mask(lang, stream).spot(tokens, lang)) - base
            for h in leaked:
                if h in back:
                    words = " ".join(t.text for t in tokens[h.start : h.end])
                    self.leaks.append((stream, h.concept, h.start, h.end, words))
                    found.add(h)
        if self.drop is None:
            return full
        dropped = {h for h in found if not self.drop or any(t.text in self.drop for t in tokens[h.start : h.end])}
        return [h for h in full if h not in dropped]


def _key(u: Any) -> tuple[Any, ...]:
    return (tuple(sorted(u.concepts)), u.ranked[0].id if u.ranked else None)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--impact", action="store_true", help="understand each leaking item again without it")
    parser.add_argument("--set", action="append", default=[], help="only sets whose file name contains this")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from remedy.runtime import load_runtime
    from remedy.settings import Settings
    from remedy.understanding.caches import Caches
    from remedy.understanding.matcher import understand

    runtime = load_runtime(Settings())
    matcher = runtime.index.matcher
    analyzer = matcher.analyzer
    lingua = runtime.index.default_lang
    recorder = _Recorder(matcher.lexicon, analyzer.streams, lingua)
    recording = replace(matcher, lexicon=recorder)

    dev_words: Counter[tuple[str, str, str, str]] = Counter()  # (query lang, stream, word, concept)
    check_pairs: Counter[tuple[str, str]] = Counter()
    items_with: Counter[str] = Counter()
    items_all: Counter[str] = Counter()
    changed: Counter[str] = Counter()
    per_word_changes: dict[tuple[str, str], list[str]] = defaultdict(list)
    dev_lines: list[str] = []
    for path in SETS:
        if args.set and not any(s in path.name for s in args.set):
            continue
        items = yaml.safe_load(path.read_text(encoding="utf-8")) or []
        for i, item in enumerate(items):
            half = _half(path, i)
            items_all[half] += 1
            recorder.leaks = []
            u = understand(recording, item["q"], item["lang"], Caches())
            leaks = sorted(set(recorder.leaks))
            if not leaks:
                continue
            items_with[half] += 1
            lang = u.lang or "?"
            if half == "check":
                for stream, *_ in leaks:
                    check_pairs[(lang, stream)] += 1
            else:
                for stream, concept, _, _, words in leaks:
                    dev_words[(lang, stream, words, concept)] += 1
            if not args.impact:
                if half == "dev":
                    shown = ", ".join(f"{w}->{c}@{s}" for s, c, _, _, w in leaks)
                    dev_lines.append(f"  {path.name}:{i} [{item['lang']}] {shown}")
                continue
            before = _key(u)
            dropped = _Recorder(matcher.lexicon, analyzer.streams, lingua, drop=set())
            after = _key(understand(replace(matcher, lexicon=dropped), item["q"], item["lang"], Caches()))
            if after != before:
                changed[half] += 1
            if half == "dev":
                note = "" if after == before else f"   CHANGES: {before[1]} -> {after[1]}"
                shown = ", ".join(f"{w}->{c}@{s}" for s, c, _, _, w in leaks)
                dev_lines.append(f"  {path.name}:{i} [{item['lang']}] {shown}{note}")
                for word in {w for *_, w in leaks}:
                    one = _Recorder(matcher.lexicon, analyzer.streams, lingua, drop=set(word.split()))
                    alone = _key(understand(replace(matcher, lexicon=one), item["q"], item["lang"], Caches()))
                    if alone != before:
                        per_word_changes[(lang, word)].append(f"{path.name}:{i}")

    print("Dev items' leaks (item [lang] word->concept@stream):")
    print("\n".join(dev_lines) or "  none")
    print("\nDev leaks per (query language, stream, word -> concept): count")
    for (lang, stream, word, concept), n in sorted(dev_words.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"  {lang} {stream} {word!r} -> {concept}: {n}")
    print("\nCheck leaks per (query language, stream): count (words not shown)")
    for (lang, stream), n in sorted(check_pairs.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"  {lang} {stream}: {n}")
    for half in ("dev", "check"):
        line = f"{half}: {items_with[half]} of {items_all[half]} items have a leak"
        if args.impact:
            line += f"; {changed[half]} understandings change without their leaks"
        print(line)
    if args.impact:
        print("\nDev understandings each leaking word changes alone:")
        for (lang, word), where in sorted(per_word_changes.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            print(f"  {lang} {word!r}: {len(where)} ({', '.join(where[:6])})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
