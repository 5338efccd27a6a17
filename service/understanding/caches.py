"""Memo tables of the understanding layer, owned by the runtime (one set per worker), never by the index.

The index (analyzer, lexicon, matcher) is read-only; what understanding remembers between requests (a word's
forms, its corrected tokens, what starts at it, its postings, the candidates of a set of concepts) lives in a
`Caches` the runtime creates from the settings and passes to `understand`. Each table is bounded in bytes (an
estimate of its keys and values, `sys.getsizeof` deep), so memory stays bounded under any traffic; a bound of 0
keeps nothing. First in, first out: a hit costs one lookup (an LRU reorders on every read, which costs about a
fifth of a query's time over its ~60 lookups), a miss one `put` on C-level dicts. Memo tables only: an answer
never depends on what they hold.
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Final, Generic, TypeVar

if TYPE_CHECKING:
    from .analysis import Token
    from .lexicon import _Starts

K = TypeVar("K")
V = TypeVar("V")

WORD_CACHE_BYTES: Final = 4 * 1024 * 1024
RANK_CACHE_BYTES: Final = 4 * 1024 * 1024


def estimate_bytes(obj: object) -> int:
    """Deep `sys.getsizeof` of the plain values the caches hold (strings, numbers, tuples, sets, slotted objects);
    a mapping is the index's (a trie node a cached value points into): only its own size counts.

    >>> estimate_bytes("ab") == sys.getsizeof("ab")
    True
    >>> estimate_bytes(("ab", 1)) == sys.getsizeof(("ab", 1)) + sys.getsizeof("ab") + sys.getsizeof(1)
    True
    """
    kind = type(obj)
    size = _getsizeof(obj)
    if kind in _SCALARS:
        return size
    if isinstance(obj, tuple | list | frozenset | set):
        for item in obj:  # scalars inline: this runs on every cache miss, for every word of a query
            size += _getsizeof(item) if type(item) in _SCALARS else estimate_bytes(item)
        return size
    if isinstance(obj, dict):
        return size  # a phrase-trie node of the index, referenced (not copied) by a cached value
    for name in _slots(kind):
        item = getattr(obj, name, None)
        size += _getsizeof(item) if type(item) in _SCALARS else estimate_bytes(item)
    return size


def _slots(kind: type) -> tuple[str, ...]:
    """The slot names of a class and of its bases (remembered per class: a handful of classes)."""
    found = _SLOTS.get(kind)
    if found is None:
        found = tuple(name for k in kind.__mro__ for name in getattr(k, "__slots__", ()))
        _SLOTS[kind] = found
    return found


_SLOTS: dict[type, tuple[str, ...]] = {}
_SCALARS: Final = frozenset({str, int, float, bool, type(None)})
_getsizeof = sys.getsizeof


class Memo(Generic[K, V]):
    """One memo table: first in, first out, bounded in bytes (keys and values counted), oldest dropped first.

    A hit, the hot path of every query, is one C-level dict lookup (`get` is the dict's own `get`: None on a
    miss). A miss costs one `put`: the entry's estimate, an insertion and, once full, the oldest entries
    popped, all on C-level dicts (cachetools' layered `__setitem__` / `popitem` cost ~4 us per miss, and a
    query of unique words misses ~1,500 times). Writes take a lock, so the byte accounting stays exact when
    threads share the table. A bound of 0 keeps nothing.
    """

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self._held: dict[K, V] = {}
        self._sizes: OrderedDict[K, int] = OrderedDict()  # oldest first
        self._bytes = 0
        self.get = self._held.get

    def put(self, key: K, value: V) -> None:
        if self.max_bytes <= 0:
            return
        size = estimate_bytes(key) + estimate_bytes(value)
        if size > self.max_bytes:  # larger than the whole table (or a bound of 0): not kept
            return
        with self._lock:
            old = self._sizes.pop(key, None)
            if old is not None:
                self._bytes -= old
            self._held[key] = value
            self._sizes[key] = size
            self._bytes += size
            while self._bytes > self.max_bytes:
                oldest, dropped = self._sizes.popitem(last=False)
                del self._held[oldest]
                self._bytes -= dropped

    def __len__(self) -> int:
        return len(self._held)

    @property
    def bytes(self) -> int:
        """The estimated bytes held."""
        return self._bytes


class Scratch(Memo[K, V]):
    """A memo table for start-up only: the plain dict alone, unbounded (it is dropped once the index is built)."""

    def __init__(self) -> None:
        super().__init__(0)
        self.put = self._held.__setitem__  # type: ignore[method-assign,assignment]


class Caches:
    """Every memo table of the understanding layer. `word_bytes` bounds each table keyed by a word,
    `rank_bytes` the table of candidate targets per set of concepts and features. `Caches.scratch()` is the
    set start-up uses while it builds the index (unbounded, dropped once built)."""

    def __init__(self, word_bytes: int = WORD_CACHE_BYTES, rank_bytes: int = RANK_CACHE_BYTES) -> None:
        # (language, word) -> its stem: kept by start-up's scratch set only. At run time a Snowball stem
        # (~0.25 us) costs less than an entry's `put` (~1 us), and `forms` keeps a word's stems already.
        self.stems: Memo[tuple[str, str], str] = Memo(0)
        # word -> its form in every stream
        self.forms: Memo[str, tuple[str, ...]] = Memo(word_bytes)
        # (word, language) -> the word corrected
        self.corrections: Memo[tuple[str, str | None], str] = Memo(word_bytes)
        # (word, language) -> its Token
        self.tokens: Memo[tuple[str, str | None], Token] = Memo(word_bytes)
        # (word as written, language) -> its tokens (split, corrected)
        self.word_tokens: Memo[tuple[str, str | None], tuple[Token, ...]] = Memo(word_bytes)
        # (word, own stream, native) -> the concepts and phrases starting there
        self.starts: Memo[tuple[str, int | None, bool], _Starts] = Memo(word_bytes)
        # word -> (its weight, the targets whose texts hold it)
        self.postings: Memo[str, tuple[float, tuple[tuple[int, float], ...]]] = Memo(word_bytes)
        # concepts and features present -> the candidate targets (index, prior + weights, id, kind)
        self.eligible: Memo[frozenset[str], tuple[tuple[int, float, str, str], ...]] = Memo(rank_bytes)
        # Tables of the answers built from an understanding, bounded as `eligible` (RANK_TABLES):
        # (symptom, the plan's facts) -> the unknown inputs that would change its plan (`engine.plan.needs_of`)
        self.needs: Memo[tuple[str, tuple[tuple[str, Any], ...]], tuple[str, ...]] = Memo(rank_bytes)
        # (language, kind, id) -> a search hit's fields but its score (`rendering.views.render_search_hit`)
        self.hits: Memo[tuple[str, str, str], tuple[tuple[str, Any], ...]] = Memo(rank_bytes)
        # (language, input) -> its question's text and its options' labels (`rendering.diagnosis.render_questions`)
        self.questions: Memo[tuple[str, str], tuple[str, tuple[tuple[Any, str], ...]]] = Memo(rank_bytes)

    @classmethod
    def scratch(cls) -> Caches:
        caches = cls(0, 0)
        for name in caches.tables():
            setattr(caches, name, Scratch())
        return caches

    def tables(self) -> dict[str, Memo[Any, Any]]:
        return {name: memo for name, memo in vars(self).items() if isinstance(memo, Memo)}


RANK_TABLES: Final = frozenset({"eligible", "needs", "hits", "questions"})  # the tables `rank_bytes` bounds
NO_CACHE: Final = Caches(0, 0)  # remembers nothing: a call without the runtime's caches computes everything
