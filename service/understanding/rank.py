"""Ranking (engine layer): every target a query's concepts and features make a candidate, scored by its intent's
prior and weights plus the similarity of the query to the target's own texts. Only the targets the query
touches are scored, so the cost follows the query, not the size of the knowledge.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from ..content.models import Intent
from .analysis import Token
from .caches import NO_CACHE, Caches

if TYPE_CHECKING:
    from .matcher import Matcher

SIMILARITY_WEIGHT = 2.5
DENSE_TARGETS = 128  # up to this many targets similarity sums into a list (cheaper); a dict past it (sparse)
SIMILAR_TOKENS = 40  # the first words of a query are compared with the targets' texts


@dataclass(frozen=True, slots=True)
class Target:
    id: str
    intent: Intent
    require: frozenset[str]
    groups: tuple[frozenset[str], ...]
    forbid: frozenset[str]
    weights: tuple[tuple[str, float], ...]

    @classmethod
    def of(cls, tid: str, intent: Intent) -> Target:
        return cls(tid, intent, frozenset(intent.require), tuple(frozenset(g) for g in intent.require_any),
                   frozenset(intent.forbid), tuple(intent.weights.items()))


class Scored(NamedTuple):  # a tuple: made for every candidate of every query, so cheap to create
    id: str
    kind: str
    score: float


def similarity(matcher: Matcher, tokens: list[Token], caches: Caches = NO_CACHE) -> dict[int, float]:
    """Share of the query's (idf-weighted) words found in each target's own texts (target index -> share)."""
    dense = len(matcher.targets) <= DENSE_TARGETS  # a list: one indexed add per posting; a dict past that
    gained: list[float] | dict[int, float] = [0.0] * len(matcher.targets) if dense else {}
    total = 0.0
    cache = caches.postings
    for tok in tokens[:SIMILAR_TOKENS]:
        if tok.number is not None:
            continue
        cached = cache.get(tok.text)
        weight, found = cached if cached is not None else _word_postings(matcher, tok, caches)
        total += weight
        if isinstance(gained, list):
            for target, idf in found:
                gained[target] += idf
        else:
            for target, idf in found:
                gained[target] = gained.get(target, 0.0) + idf
    if not total:
        return {}
    pairs = enumerate(gained) if isinstance(gained, list) else gained.items()
    return {t: g / total for t, g in pairs if g}


def _word_postings(matcher: Matcher, tok: Token, caches: Caches) -> tuple[float, tuple[tuple[int, float], ...]]:
    """A word's weight and the targets whose texts hold it; `_similarity` looks in the cache first."""
    terms = ((len(tok.forms) - 1, tok.forms[-1]),) if tok.hangul else set(enumerate(tok.forms))
    best: dict[int, float] = {}
    weight = 0.0
    for term in terms:
        for target, idf in matcher.postings.get(term, ()):
            weight = max(weight, idf)
            if idf > best.get(target, 0.0):
                best[target] = idf
    cached = (weight or matcher.default_idf, tuple(best.items()))
    caches.postings.put(tok.text, cached)
    return cached


def rank(
    matcher: Matcher, present: frozenset[str], similarity: dict[int, float], caches: Caches = NO_CACHE
) -> tuple[Scored, ...]:
    """Score only the targets the query touches (plus those that need nothing), so the cost follows the
    query, not the size of the knowledge."""
    eligible = caches.eligible.get(present)
    if eligible is None:
        eligible = candidates(matcher, present)
        caches.eligible.put(present, eligible)
    ordered = []
    for i, base, tid, kind in eligible:
        score = base + SIMILARITY_WEIGHT * similarity.get(i, 0.0)
        # Rounded so that the order of summation (set order) never decides a tie.
        ordered.append((-round(score * 10_000) / 10_000, tid, kind))
    ordered.sort()
    return tuple(Scored(tid, kind, -neg) for neg, tid, kind in ordered)


def candidates(matcher: Matcher, present: frozenset[str]) -> tuple[tuple[int, float, str, str], ...]:
    """The targets a set of concepts and features makes candidates, with their prior plus weights. A set of
    names recurs across queries (there are few concepts), so this is computed once per set (bounded cache)."""
    scores: dict[int, float] = {}
    for name in present:
        for i, weight in matcher.weights_by_name.get(name, ()):
            scores[i] = scores.get(i, 0.0) + weight
    for i in matcher.open_targets:
        scores.setdefault(i, 0.0)
    for name in present:
        for i in matcher.requirers.get(name, ()):
            scores.setdefault(i, 0.0)
    out = []
    for i, partial in scores.items():
        target = matcher.targets[i]
        if not target.require <= present or not present.isdisjoint(target.forbid):
            continue
        if any(present.isdisjoint(group) for group in target.groups):
            continue
        out.append((i, target.intent.prior + partial, target.id, target.intent.kind))
    return tuple(out)
