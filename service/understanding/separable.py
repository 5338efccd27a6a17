"""Separable verbs (index layer, pure functions over a compiled profile): a particle that ends its clause is read as
the verb it belongs to, when a form of that verb comes before it in the clause (the profile's `separable`).
German "geht mir der VRAM aus" is `ausgehen` (run out), not "aus" (off); "die Previews sehen gut aus" is `aussehen`.
"""

from __future__ import annotations

import re

from .normalize import normalize, split_tokens
from .profiles import Profile

# Where a clause ends: a punctuation mark, a full stop before a space or the text's end (not the dot of `wan2.1`),
# a dash between spaces, a line end.
_CLAUSE_END = re.compile(r"[,;:!?()\n\u2026]|\.(?=\s|$)|\s[-\u2013\u2014]\s")


def join_particles(normalized: str, raws: list[str], profile: Profile) -> list[str]:
    """The tokens of a normalized text with each separable verb's particle that ends its clause read as the
    joined verb, when a form of that verb comes before it in the clause (the profile's `separable`): "geht mir der
    VRAM aus" is `ausgehen` (run out), not "aus" (off); "GC aus" stays "aus". `raws` is `split_tokens(normalized)`;
    the answer has as many tokens.

    >>> from .profiles import Profile
    >>> de = Profile("de", None, False, False, (), (), {}, {"aus": {"geht": "ausgehen"}}, frozenset({"und"}))
    >>> text = "gc aus, und dann geht mir der vram aus"
    >>> join_particles(text, split_tokens(text), de)[-1], join_particles(text, split_tokens(text), de)[1]
    ('ausgehen', 'aus')
    """
    if profile.separable.keys().isdisjoint(raws):
        return raws
    out: list[str] = []
    for chunk in _CLAUSE_END.split(normalized):
        words = split_tokens(chunk)
        start = 0
        for i, word in enumerate(words):
            if word in profile.clause_words:
                _join_clause(words, start, i, profile)
                start = i
        _join_clause(words, start, len(words), profile)
        out.extend(words)
    return out if len(out) == len(raws) else raws


def join_separable(
    profile: Profile | None, texts: list[str], clauses: list[list[list[str]]], words: list[list[str]]
) -> None:
    """`join_particles` for a text read sentence by sentence (`sentences.read_sentences`), in place: each
    sentence's words keep their number and their clauses."""
    if profile is None or not profile.separable:
        return
    for k, text in enumerate(texts):
        if profile.separable.keys().isdisjoint(words[k]):
            continue
        joined = iter(join_particles(normalize(text), words[k], profile))
        clauses[k] = [[next(joined) for _ in part] for part in clauses[k]]
        words[k] = [w for part in clauses[k] for w in part]


def _join_clause(words: list[str], start: int, end: int, profile: Profile) -> None:
    """In `words[start:end]`, one clause: its last word, a particle, becomes the verb it belongs to."""
    if end - start < 2:
        return
    forms = profile.separable.get(words[end - 1])
    if forms is None:
        return
    for j in range(end - 2, start - 1, -1):
        joined = forms.get(words[j])
        if joined is not None:
            words[end - 1] = joined
            return
