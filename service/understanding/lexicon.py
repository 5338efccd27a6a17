"""Concept lookup tables compiled from every language's vocabulary (index layer), and concept spotting.

A phrase of language L is stored as the forms stream L gives it; a query is looked up in every stream, so
`turned off`, `desactivado`, `ausgeschaltet` and `꺼짐` all give the concept `off`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .analysis import Analyzer, Token, normalize, split_tokens


@dataclass(frozen=True, slots=True)
class Hit:
    concept: str
    start: int
    end: int  # exclusive


class Lexicon:
    """Per-stream phrase tables: forms tuple -> concepts."""

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
                    self.max_len = max(self.max_len, len(forms))
        self.tables = tuple({k: frozenset(v) for k, v in t.items()} for t in tables)
        # First form of a phrase -> its longest length, per stream: most positions need one lookup.
        starts: list[dict[str, int]] = [{} for _ in tables]
        for s, table in enumerate(self.tables):
            for key in table:
                starts[s][key[0]] = max(starts[s].get(key[0], 0), len(key))
        self.starts = tuple(starts)

    def spot(self, tokens: list[Token], lang: str | None = None) -> list[Hit]:
        """Every concept occurrence, longest phrase first at each position (shorter ones still count).

        A window holding a native word of the query's language is looked up in that language's stream
        only; a window of foreign words in every stream.
        """
        hits: list[Hit] = []
        every = tuple(range(len(self.tables)))
        own = (self.analyzer.stream_of(lang),) if lang else every
        count = len(tokens)
        for i in range(count):
            found: dict[int, set[str]] = {}
            first = tokens[i]
            for s in own if first.native else every:
                longest = self.starts[s].get(first.forms[s])
                if longest is None:
                    continue
                table = self.tables[s]
                for n in range(min(longest, count - i), 0, -1):
                    window = tokens[i : i + n]
                    if n > 1 and first.native is False and any(t.native for t in window) and s not in own:
                        continue
                    concepts = table.get(tuple(t.forms[s] for t in window))
                    if concepts:
                        found.setdefault(n, set()).update(concepts)
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
