"""Concept lookup tables compiled from every language's vocabulary (index layer), and concept spotting.

A phrase of language L is stored as the forms stream L gives it; a query is looked up in every stream, so
`turned off`, `desactivado`, `ausgeschaltet` and `꺼짐` all give the concept `off`. The word `ngb` in a phrase stands
for any memory size (`SIZE_SLOT`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Final, NamedTuple

from .analysis import Analyzer, Token, normalize, split_tokens
from .caches import NO_CACHE, Caches


class Hit(NamedTuple):
    concept: str
    start: int
    end: int  # exclusive


# In a vocabulary phrase the word `ngb` stands for any memory size, as one word or two: "uses all ngb of system ram"
# matches "uses all 64GB of system RAM" and "uses all 64 GB of system RAM" (a size inside a phrase).
SIZE_SLOT: Final = "ngb"
_SIZE = re.compile(r"^\d+(?:\.\d+)?(?:gb|gib|g|go|tb|mb)$")
# (and the units spelt out as users say them: "16 gigas de ram", "32 gigs", "16 Gigabyte RAM", "16 gigaoctets")
_SIZE_UNITS: Final = frozenset({"gb", "gib", "go", "tb", "mb", "g", "기가", "gig", "gigs", "giga", "gigas", "gigabyte",
                                "gigabytes", "gigaoctet", "gigaoctets"})


def size_width(tokens: list[Token], i: int) -> int:
    """How many tokens from `i` spell a memory size: 1 ("64gb"), 2 ("64 gb", "32기가가": a Korean unit keeps its
    particle, so its form is compared), or 0."""
    tok = tokens[i]
    if not tok.text[:1].isdigit():  # most words: no regex
        return 0
    if _SIZE.match(tok.text):
        return 1
    if tok.number is not None and i + 1 < len(tokens):
        unit = tokens[i + 1]
        if unit.text in _SIZE_UNITS or (unit.hangul and unit.forms[0] in _SIZE_UNITS):
            return 2
    return 0


# A phrase trie node: the concepts of the phrase that ends here, and the next forms.
Node = tuple[frozenset[str], dict[str, "Node"]]
# One-word concepts (sorted), and (stream, foreign stream?, next forms) to walk for longer phrases.
_Starts = tuple[tuple[str, ...], tuple[tuple[int, bool, dict[str, Node]], ...]]


class Lexicon:
    """Per-stream phrase tries over forms: a query is walked word by word from each position."""

    def __init__(
        self, analyzer: Analyzer, vocabularies: Mapping[str, Mapping[str, Iterable[str]]], c: Caches = NO_CACHE
    ) -> None:
        self.analyzer = analyzer
        phrases_by_stream: list[dict[tuple[str, ...], set[str]]] = [{} for _ in analyzer.streams]
        self.max_len = 1
        for lang, concepts in vocabularies.items():
            stream = analyzer.stream_of(lang)
            for concept, phrases in concepts.items():
                for phrase in phrases:
                    for forms in analyzer.phrase_variants(lang, phrase, c):
                        if forms:
                            phrases_by_stream[stream].setdefault(forms, set()).add(concept)
                            self.max_len = max(self.max_len, len(forms))
        self.roots = tuple(_trie(phrases) for phrases in phrases_by_stream)
        # Per stream, the forms of its language's fillers: skipped inside a phrase ("vram is (completely) full")
        self.fillers = tuple(analyzer.filler_forms(lang, c) for lang in analyzer.streams)
        self.lingua = analyzer.stream_of(analyzer.lingua_franca)
        # In a query of the lingua franca, a word of no list is read in another language's stream only when it is
        # that language's word as written (a Spanish sentence quoted in an English post): English technical words
        # stem like their Romance cognates ("configure" / `configurer`, "saturation" / `saturé`), but are English.
        self._words = tuple(analyzer.own.get(lang, frozenset()) for lang in analyzer.streams)
        # (stream, node) of the phrases that start with a size
        self.after_size = tuple((s, root[SIZE_SLOT]) for s, root in enumerate(self.roots) if SIZE_SLOT in root)

    def starting(self, token: Token, own: int | None, c: Caches = NO_CACHE) -> _Starts:
        """What can start at this token when the query's own stream is `own`: the concepts of one-word phrases
        (sorted) and the tries to walk for longer ones (bounded cache: real queries reuse few words)."""
        key = (token.text, own, token.native)
        cached = c.starts.get(key)
        if cached is None:
            singles: set[str] = set()
            walks = []
            for s, root in enumerate(self.roots):
                foreign_stream = own is not None and s != own
                node = root.get(token.forms[s])
                if node is None or (foreign_stream and (token.native or (token.lingua and s != self.lingua))):
                    continue
                if foreign_stream and own == self.lingua and not token.hangul and token.text not in self._words[s]:
                    continue
                concepts, after = node
                singles |= concepts
                if after:
                    walks.append((s, foreign_stream, after))
            cached = (tuple(sorted(singles)), tuple(walks))
            c.starts.put(key, cached)
        return cached

    def spot(self, tokens: list[Token], lang: str | None = None, c: Caches = NO_CACHE) -> list[Hit]:
        """Every concept occurrence, longest phrase first at each position (shorter ones still count).

        A window holding a native word of the query's language is looked up in that language's stream
        only; a window of foreign words in every stream.
        """
        hits: list[Hit] = []
        own = self.analyzer.stream_of(lang) if lang else None
        count = len(tokens)
        cached = c.starts
        # (the tables in locals, and a size only where a token starts with a figure: this loop runs on every word)
        after_size, fillers, words, lingua = self.after_size, self.fillers, self._words, self.lingua
        for i, first in enumerate(tokens):
            entry = cached.get((first.text, own, first.native))
            singles, walks = entry if entry is not None else self.starting(first, own, c)
            width = size_width(tokens, i) if after_size and first.text[:1].isdigit() else 0
            if not walks and not width:
                for concept in singles:
                    hits.append(Hit(concept, i, i + 1))
                continue
            starts = [(s, foreign_stream, after, i + 1) for s, foreign_stream, after in walks]
            longer: dict[int, set[str]] = {}
            if width:  # a phrase that starts with a size: walked from after the size's own tokens
                for s, (concepts, after) in after_size:
                    if concepts:
                        longer.setdefault(width, set()).update(concepts)
                    starts.append((s, False, after, i + width))
            for s, foreign_stream, after, j in starts:
                while after and j < count:
                    tok = tokens[j]
                    if foreign_stream and (tok.native or (tok.lingua and s != lingua)):
                        break  # a native word ties the window to the query's own stream (a lingua one, or English)
                    if foreign_stream and own == lingua and not tok.hangul and tok.text not in words[s]:
                        break
                    node = after.get(tok.forms[s])
                    step = 1
                    if node is None and SIZE_SLOT in after:
                        step = size_width(tokens, j)
                        node = after[SIZE_SLOT] if step else None
                    if node is None:
                        if (tok.text if tok.hangul else tok.forms[s]) in fillers[s]:
                            j += 1  # a filler inside a phrase ("bringt gar nichts"): read past it
                            continue
                        break
                    concepts, after = node
                    j += step
                    if concepts:
                        longer.setdefault(j - i, set()).update(concepts)
            for n in sorted(longer, reverse=True):
                for concept in sorted(longer[n]):
                    hits.append(Hit(concept, i, i + n))
            for concept in singles:
                hits.append(Hit(concept, i, i + 1))
        return hits


def _trie(phrases: Mapping[tuple[str, ...], set[str]]) -> dict[str, Node]:
    """Forms tuples -> nested nodes, frozen."""
    root: dict[str, list] = {}  # type: ignore[type-arg]
    for forms, concepts in phrases.items():
        level = root
        for k, form in enumerate(forms):
            node = level.setdefault(form, [set(), {}])
            if k == len(forms) - 1:
                node[0] |= concepts
            level = node[1]

    def freeze(level: dict[str, list]) -> dict[str, Node]:  # type: ignore[type-arg]
        return {form: (frozenset(node[0]), freeze(node[1])) for form, node in level.items()}

    return freeze(root)


class Aliases:
    """Model names in free text -> family id, longest alias first."""

    def __init__(self, aliases: Mapping[str, Iterable[str]]) -> None:
        table: dict[tuple[str, ...], str] = {}
        for family, names in aliases.items():
            for name in names:
                table[tuple(split_tokens(normalize(name)))] = family
        self.table = table
        self.starts: dict[str, int] = {}
        for key in table:
            self.starts[key[0]] = max(self.starts.get(key[0], 0), len(key))

    def find(self, words: list[str]) -> tuple[str | None, int]:
        """The family of the longest alias in the words (the first one, on a tie), and how many families the
        words name."""
        best: tuple[int, int, str] | None = None
        found: set[str] = set()
        starts, table = self.starts, self.table
        for i, word in enumerate(words):
            longest = starts.get(word)
            if longest is None:
                continue
            for n in range(min(longest, len(words) - i), 0, -1):
                family = table.get(tuple(words[i : i + n]))
                if family is not None:
                    found.add(family)
                    if best is None or n > best[0]:
                        best = (n, i, family)
                    break
        return (best[2] if best else None), len(found)
