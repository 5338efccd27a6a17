"""Language profiles compiled for analysis (index layer): each language's grammar, read from
`knowledge/text/<lang>/profile.yaml` (`content.models.LanguageProfile`), so that adding a language is data.

A profile gives a language its stemmer (or none), its script, how its words are split, the endings stripped
from them, and the words of its ordinals, progress counters and numbers. Ordinal suffixes and counter words
of every language are read in every query (`2nd` in a Spanish sentence is still 2).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import Stemmer

from ..content.models import Content
from ..content.problems import Problem
from .normalize import fold, normalize, split_tokens


@dataclass(frozen=True, slots=True, eq=False)
class Profile:
    """One language, ready to read words with."""

    lang: str
    stemmer: Stemmer.Stemmer | None
    hangul: bool  # Hangul words are this language's, and its `endings` are stripped from them
    split_known: bool  # written without spaces: a run of letters is split before each known word
    endings: tuple[str, ...]  # longest first
    restore: tuple[tuple[str, str], ...]  # accent-folded ending -> the ending the stemmer reads
    numbers: Mapping[str, int]  # normalized number word -> value
    # A separable verb's particle -> {a finite form of the verb -> the joined verb}: "geht ... aus" is `ausgehen`.
    separable: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    clause_words: frozenset[str] = frozenset()  # words that start a clause ("und", "weil")
    elided: tuple[str, ...] = ()  # letters elided before an apostrophe (French `l'`), longest first
    particles: frozenset[str] = frozenset()  # case particles (`가`): a known word plus one reads as that word
    kept: frozenset[str] = frozenset()  # words kept as written (their stem is another word's: `guia` and `gui`)
    fillers: frozenset[str] = frozenset()  # words added inside a phrase at will ("really", French `ne`)
    dropped: frozenset[str] = frozenset()  # words left out of a phrase at will (French `ne`)
    shorthand: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # `vc` -> (`voce`,): chat abbreviations
    after_number: Mapping[str, str] = field(default_factory=dict)  # `pas` -> `step`: another word after a number

    def expand(self, words: list[str]) -> list[str]:
        """The words with each chat abbreviation read as the words it stands for (`n ficou` -> `nao ficou`)."""
        table = self.shorthand
        if not table or not any(w in table for w in words):
            return words
        return [part for w in words for part in table.get(w, (w,))]

    def stem(self, word: str) -> str:
        """Snowball stem of an already normalized word; a language with no stemmer keeps the word."""
        if self.stemmer is None or not word.isalpha() or word in self.kept:
            return word
        if self.restore and len(word) > 3:
            for ending, written in self.restore:
                if word.endswith(ending):
                    return fold(str(self.stemmer.stemWord(word[: -len(ending)] + written)))
        return str(self.stemmer.stemWord(word))

    def strip_ending(self, token: str) -> str:
        """Remove one particle or ending (`프리뷰에서` -> `프리뷰`)."""
        for suffix in self.endings:
            if token.endswith(suffix) and len(token) > len(suffix):
                return token[: -len(suffix)]
        return token


def profile_problems(content: Content) -> list[Problem]:
    """A stemmer PyStemmer does not have is a dangling reference of the profile that names it."""
    algorithms = set(Stemmer.algorithms())
    return [
        Problem(f"text/{lang}/profile.yaml", "stemmer", "dangling-reference",
                f"no Snowball stemmer {p.stemmer!r} (known: {', '.join(sorted(algorithms))})")
        for lang, p in content.profiles.items()
        if p.stemmer is not None and p.stemmer not in algorithms
    ]


def compile_profiles(content: Content) -> tuple[Profile, ...]:
    """Every supported language's profile, in the order of `languages.yaml` (the order of the streams)."""
    out = []
    for lang in content.languages.supported:
        p = content.profiles[lang]
        out.append(Profile(
            lang=lang,
            # No PyStemmer cache (its default keeps 10,000 words per language as GC-tracked lists, and a full
            # collection scans them all): the memo tables of `caches` keep what is worth keeping.
            stemmer=Stemmer.Stemmer(p.stemmer, 0) if p.stemmer else None,
            hangul=p.script == "hangul",
            split_known=p.split == "known_words",
            endings=tuple(sorted(p.endings, key=len, reverse=True)),
            restore=tuple(p.restore_endings.items()),
            numbers={normalize(k): v for k, v in p.numbers.items()},
            separable={
                normalize(particle): {
                    normalize(form): normalize(joined) for joined, forms in verbs.items() for form in forms
                }
                for particle, verbs in p.separable.items()
            },
            clause_words=frozenset(normalize(w) for w in p.clause_words),
            elided=tuple(sorted((normalize(e) for e in p.sentences.elided), key=len, reverse=True)),
            particles=frozenset(normalize(e) for e in p.particles),
            kept=frozenset(normalize(w) for w in p.kept_words),
            fillers=frozenset(normalize(w) for w in p.fillers),
            dropped=frozenset(normalize(w) for w in p.dropped),
            shorthand={normalize(short): tuple(split_tokens(normalize(full))) for short, full in p.shorthand.items()},
            after_number={normalize(word): normalize(read) for word, read in p.after_number.items()},
        ))
    return tuple(out)


def ordinal_pattern(content: Content) -> re.Pattern[str]:
    """A digit run and any language's ordinal suffix (`2nd`, `2o`, `1ere`, `2te`): group 1 is the number."""
    suffixes = _alternation(s for p in content.profiles.values() for s in p.ordinal_suffixes)
    return re.compile(rf"^(\d{{1,7}})(?:{suffixes})$")


def counter_pattern(content: Content) -> re.Pattern[str]:
    """A progress counter quoted in the user's words (`at 2 of 3000`, `1/2000`, `2 de 3000`): step and total."""
    words = _alternation(rf"\b{w}\b" for p in content.profiles.values() for w in p.counter_words)
    return re.compile(rf"(?<![\d.,/])(\d{{1,7}})\s*(?:/|{words})\s*(\d{{3,7}})(?!\d|[.,/]\d)", re.IGNORECASE)


def _alternation(items: Iterable[str]) -> str:
    """Unique items, longest first, joined with `|` (a pattern that matches nothing when there are none)."""
    unique = sorted(set(items), key=lambda s: (-len(s), s))
    return "|".join(unique) if unique else "(?!)"
