"""Concept lookup tables compiled from every language's vocabulary (index layer), and concept spotting.

A phrase of language L is stored as the forms stream L gives it; a query is looked up in every stream, so
`turned off`, `desactivado`, `ausgeschaltet` and `꺼짐` all give the concept `off`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple

from .analysis import Analyzer, Token, normalize, split_tokens
from .caches import NO_CACHE, Caches


class Hit(NamedTuple):
    concept: str
    start: int
    end: int  # exclusive


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
                    forms = analyzer.phrase_forms(lang, phrase, c)
                    if forms:
                        phrases_by_stream[stream].setdefault(forms, set()).add(concept)
                        self.max_len = max(self.max_len, len(forms))
        self.roots = tuple(_trie(phrases) for phrases in phrases_by_stream)

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
                if node is None or (token.native and foreign_stream):
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
        for i, first in enumerate(tokens):
            entry = cached.get((first.text, own, first.native))
            singles, walks = entry if entry is not None else self.starting(first, own, c)
            if not walks:
                for concept in singles:
                    hits.append(Hit(concept, i, i + 1))
                continue
            longer: dict[int, set[str]] = {}
            for s, foreign_stream, after in walks:
                j = i + 1
                while after and j < count:
                    tok = tokens[j]
                    if tok.native and foreign_stream:
                        break  # a native word ties the window to the query's own stream
                    node = after.get(tok.forms[s])
                    if node is None:
                        break
                    concepts, after = node
                    j += 1
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
