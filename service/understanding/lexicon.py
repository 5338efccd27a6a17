"""Concept lookup tables compiled from every language's vocabulary (index layer), and concept spotting.

A phrase of language L is stored as the forms stream L gives it; a query is looked up in every stream, so
`turned off`, `desactivado`, `ausgeschaltet` and `꺼짐` all give the concept `off`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple

from .analysis import FORMS_CACHE_SIZE, Analyzer, Token, normalize, split_tokens


class Hit(NamedTuple):
    concept: str
    start: int
    end: int  # exclusive


class Lexicon:
    """Per-stream phrase tables: forms tuple -> concepts, plus every shorter prefix of a phrase (no concepts)."""

    def __init__(self, analyzer: Analyzer, vocabularies: Mapping[str, Mapping[str, Iterable[str]]]) -> None:
        self.analyzer = analyzer
        tables: list[dict[tuple[str, ...], set[str]]] = [{} for _ in analyzer.streams]
        self.max_len = 1
        for lang, concepts in vocabularies.items():
            stream = analyzer.stream_of(lang)
            for concept, phrases in concepts.items():
                for phrase in phrases:
                    forms = analyzer.phrase_forms(lang, phrase)
                    if not forms:
                        continue
                    tables[stream].setdefault(forms, set()).add(concept)
                    for n in range(1, len(forms)):
                        tables[stream].setdefault(forms[:n], set())
                    self.max_len = max(self.max_len, len(forms))
        # An empty set marks a prefix: the window may still grow into a phrase.
        self.tables = tuple({k: frozenset(v) for k, v in t.items()} for t in tables)
        self._starts: dict[str, tuple[int, ...]] = {}

    def starting(self, token: Token) -> tuple[int, ...]:
        """The streams in which a phrase starts with this token (bounded cache, like the analyser's)."""
        cached = self._starts.get(token.text)
        if cached is None:
            cached = tuple(s for s, table in enumerate(self.tables) if (token.forms[s],) in table)
            if len(self._starts) >= FORMS_CACHE_SIZE:
                self._starts.clear()
            self._starts[token.text] = cached
        return cached

    def spot(self, tokens: list[Token], lang: str | None = None) -> list[Hit]:
        """Every concept occurrence, longest phrase first at each position (shorter ones still count).

        A window holding a native word of the query's language is looked up in that language's stream
        only; a window of foreign words in every stream.
        """
        hits: list[Hit] = []
        own = self.analyzer.stream_of(lang) if lang else None
        count = len(tokens)
        cached = self._starts
        for i, first in enumerate(tokens):
            streams = cached.get(first.text)
            if streams is None:
                streams = self.starting(first)
            if not streams:
                continue
            found: dict[int, set[str]] = {}
            for s in streams:
                foreign_stream = own is not None and s != own
                if first.native and foreign_stream:
                    continue
                table = self.tables[s]
                key: tuple[str, ...] = ()
                for j in range(i, min(count, i + self.max_len)):
                    tok = tokens[j]
                    if tok.native and foreign_stream and j > i:
                        break  # a native word ties the window to the query's own stream
                    key += (tok.forms[s],)
                    concepts = table.get(key)
                    if concepts is None:
                        break
                    if concepts:
                        found.setdefault(j - i + 1, set()).update(concepts)
            for n in sorted(found, reverse=True):
                for concept in sorted(found[n]):
                    hits.append(Hit(concept, i, i + n))
        return hits


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

    def find(self, words: list[str]) -> str | None:
        best: tuple[int, int, str] | None = None
        for i in range(len(words)):
            longest = self.starts.get(words[i])
            if longest is None:
                continue
            for n in range(min(longest, len(words) - i), 0, -1):
                family = self.table.get(tuple(words[i : i + n]))
                if family is not None:
                    if best is None or n > best[0]:
                        best = (n, i, family)
                    break
        return best[2] if best else None
