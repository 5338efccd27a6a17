"""Implications (index layer, read-only): `intents.yaml` `implies`, "all of these concepts, then this one", read in
their order, so a rule reads what the rules before it added ("memory" + "crash" is an OOM, an OOM + sampling is an
OOM while sampling)."""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping

Implies = tuple[tuple[frozenset[str], str], ...]  # (all of these, then this)

__all__ = ["Implications", "Implies", "implied"]


class Implications(tuple[tuple[frozenset[str], str], ...]):
    """`Implies` (built once with the index) that knows which of its rules name each concept: `implied` then tries
    only the rules a text's concepts reach, in their order, instead of all of them (~140) for each sentence."""

    by_concept: Mapping[str, tuple[int, ...]]
    always: tuple[int, ...]  # rules that need nothing

    def __new__(cls, rules: Iterable[tuple[frozenset[str], str]]) -> Implications:
        self = super().__new__(cls, rules)
        index: dict[str, list[int]] = {}
        for k, (needed, _) in enumerate(self):
            for concept in needed:
                index.setdefault(concept, []).append(k)
        self.by_concept = {concept: tuple(ks) for concept, ks in index.items()}
        self.always = tuple(k for k, (needed, _) in enumerate(self) if not needed)
        return self


def implied(concepts: Iterable[str], implies: Implies) -> set[str]:
    """Concepts and those `intents.yaml` `implies` adds ("memory" + "crash" is an OOM): each rule in its order, so a
    rule reads what the rules before it added."""
    out = set(concepts)
    if not isinstance(implies, Implications):
        for needed, then in implies:
            if needed <= out:
                out.add(then)
        return out
    # The same walk over only the rules that name a concept present (or one an earlier rule adds), in their order:
    # a rule that names none of them cannot hold.
    by_concept = implies.by_concept
    pending = [*implies.always, *(k for concept in out for k in by_concept.get(concept, ()))]
    heapq.heapify(pending)
    last = -1
    while pending:
        k = heapq.heappop(pending)
        if k == last:
            continue
        last = k
        needed, then = implies[k]
        if then not in out and needed <= out:
            out.add(then)
            for later in by_concept.get(then, ()):
                if later > k:
                    heapq.heappush(pending, later)
    return out
