"""Typo tolerance (engine layer): a misspelt word read as the nearest vocabulary word, and a misspelt word before a
number read as a word that introduces numbers. Built once by the `analysis.Analyzer` from its vocabulary; read-only
after (what it remembers lives in the caller's `caches.Caches`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Mapping

from rapidfuzz.distance import OSA
from rapidfuzz.process import extractOne

from .caches import NO_CACHE, Caches
from .normalize import is_hangul

Stem = Callable[[str, str, Caches], str]  # (language, word, caches) -> stem
# A shorter Hangul word is never corrected: words of three syllables one jamo apart are often both words, or one
# word's two endings (`좋아요`, `좋나요`)
_HANGUL_TYPO_SYLLABLES = 4


def _numbered_words(
    number_words: Mapping[str, Iterable[str]], lingua_franca: str
) -> dict[str | None, tuple[str, ...]]:
    """The words that introduce a number (`step 2`, `paso 2`, `batch 4`) per language, with English's, and all of
    them for a query of no known language: a misspelling right before a number is corrected towards them."""
    english = frozenset(number_words.get(lingua_franca, ()))
    table: dict[str | None, tuple[str, ...]] = {
        lang: tuple(sorted(frozenset(words) | english)) for lang, words in number_words.items()
    }
    table[None] = tuple(sorted({w for words in table.values() for w in words}))
    return table


class Typos:
    """The correction tables of every language and the corrections made from them."""

    def __init__(
        self,
        stem: Stem,
        stemmed: Iterable[str],
        known: Mapping[str, frozenset[str]],
        names: frozenset[str],
        fuzzy_words: Mapping[str, Iterable[str]],
        number_words: Mapping[str, Iterable[str]],
        lingua_franca: str = "en",
        caches: Caches = NO_CACHE,
        hangul_words: Iterable[str] = (),
    ) -> None:
        self._stem = stem
        self._stemmed = tuple(stemmed)  # the languages with a stemmer
        self.names = names  # model names: never corrected (`chroma` is not `chrome`)
        self.all_known = frozenset().union(*known.values()) if known else frozenset()
        # Words left alone in a query of a language: that language's and English's (French `parce` is a typo of
        # Spanish `parece` in a Spanish query); with no language known, every language's.
        english_known = known.get(lingua_franca, frozenset())
        self._uncorrected = {lang: words | english_known for lang, words in known.items()}
        # Stems of each language's known words: an unknown word with a known stem is an inflection
        # (`entrene` of `entrenar`), not a typo to correct into some other language's word.
        self._known_stems = {
            lang: frozenset(stem(lang, w, caches) for w in words)
            for lang, words in known.items() if lang in self._stemmed
        }
        self._numbered = _numbered_words(number_words, lingua_franca)
        # ... and the Hangul ones, longest first (`배치 사이즈` is written as two words: its words are its own)
        self._hangul_numbered = tuple(sorted(
            {w for words in number_words.values() for w in words if is_hangul(w) and len(w) >= 2},
            key=lambda w: (-len(w), w)))
        # Typo candidates by (first letter, length): a word is only compared with words it could be within
        # the allowed edits of, so the cost does not grow with the whole vocabulary. Per language: a word is
        # corrected towards the query's language and English (the language of logs and UI labels), never into a
        # third language (`mismo` is Spanish, not a typo of Portuguese `mesmo`); an unknown language, towards any.
        by_lang: dict[str | None, set[str]] = {lang: set(words) for lang, words in fuzzy_words.items()}
        by_lang[None] = set().union(*by_lang.values())
        english = by_lang.get(lingua_franca, set())
        self._fuzzy: dict[str | None, dict[tuple[str, int], tuple[str, ...]]] = {}
        for target, pool in by_lang.items():
            buckets: dict[tuple[str, int], list[str]] = {}
            for word in sorted(pool | english):
                if len(word) >= 5 and word.isalpha() and not is_hangul(word):
                    buckets.setdefault((word[0], len(word)), []).append(word)
            self._fuzzy[target] = {k: tuple(v) for k, v in buckets.items()}
        # ... and its words of four letters, corrected only from two swapped neighbours (`vrma` is `vram`, `lroa` is
        # `lora`): one other edit of a word that short is too often another word
        self._four = {target: frozenset(w for w in pool | english if len(w) == 4 and w.isascii() and w.isalpha())
                      for target, pool in by_lang.items()}
        # The Hangul vocabulary: a word that is none of its words and a particle is compared, letter
        # by letter (jamo), with its words of four syllables or more (`체크포이팅` is `체크포인팅`, `그레디언트` is
        # `그래디언트`), by syllable count.
        self._hangul = frozenset(w for w in hangul_words if is_hangul(w))
        self._hangul_max = max((len(w) for w in self._hangul), default=0)
        by_count: dict[int, list[str]] = {}
        for word in sorted(self._hangul):
            if len(word) >= _HANGUL_TYPO_SYLLABLES and all(is_hangul(ch) for ch in word):
                by_count.setdefault(len(word), []).append(word)
        self._hangul_by_count = {n: (tuple(ws), tuple(unicodedata.normalize("NFD", w) for w in ws))
                                 for n, ws in by_count.items()}

    def correct(self, word: str, lang: str | None = None, c: Caches = NO_CACHE) -> str:
        """Typo tolerance for words only (never numbers or config keys): the nearest vocabulary word. A word
        that is an inflection of a known word (`entrene` of `entrenar`) is only corrected to a word of the same
        stem (`memori` -> `memory`), never to another word (`entrene` -> `entree`)."""
        if is_hangul(word):
            return self._hangul_typo(word, c) if self._hangul_by_count else word
        known = self._uncorrected.get(lang, self.all_known) if lang else self.all_known
        if len(word) == 4 and word.isalpha() and word not in known and word not in self.names:
            return self._swapped(word, lang)
        if len(word) < 5 or not word.isalpha() or word in known or word in self.names:
            return word
        cached = c.corrections.get((word, lang))
        if cached is None:
            cached = self._nearest(word, lang)
            if cached != word and self.inflection(word, c) and not self._same_stem(word, cached, c):
                cached = word
            c.corrections.put((word, lang), cached)
        return cached

    def correct_before_number(self, word: str, lang: str | None = None, c: Caches = NO_CACHE) -> str:
        """A misspelt word right before a number, read as the word that introduces numbers it is one edit from (two
        from a word of six letters or more): `steo 3` is `step 3`, `pao 2` is `paso 2`. A Hangul word (before or
        after the number: `베치 2`, `2스텦에서`) is compared letter by letter (jamo), its particle kept: `베치` is
        `배치`. Else the word as written."""
        if is_hangul(word):
            return self._correct_hangul(word, c)
        if len(word) < 3 or len(word) > 12 or not word.isalpha() or word in self.names:
            return word
        key = (word, f"{lang}#number")
        cached = c.corrections.get(key)
        if cached is None:
            limit = 1 if len(word) < 6 else 2
            words = self._numbered.get(lang) or self._numbered.get(None) or ()
            pool = [w for w in words if abs(len(w) - len(word)) <= limit]
            found = extractOne(word, pool, scorer=OSA.distance, score_cutoff=limit) if pool else None
            cached = str(found[0]) if found else word
            c.corrections.put(key, cached)
        return cached

    def _correct_hangul(self, word: str, c: Caches = NO_CACHE) -> str:
        """A Hangul word whose start is one jamo from a Hangul word that introduces numbers (of two syllables or
        more): that word and the rest of the written one (its particle)."""
        key = (word, "#hangul-number")
        cached = c.corrections.get(key)
        if cached is None:
            cached = word
            for known in () if word.startswith(self._hangul_numbered) else self._hangul_numbered:
                head = word[: len(known)]
                if len(head) == len(known) and head != known and OSA.distance(
                        unicodedata.normalize("NFD", head), unicodedata.normalize("NFD", known), score_cutoff=1) <= 1:
                    cached = known + word[len(known):]
                    break
            c.corrections.put(key, cached)
        return cached

    def _swapped(self, word: str, lang: str | None) -> str:
        """A word of four letters with two neighbours swapped: the vocabulary word it spells (`vrma` -> `vram`)."""
        four = self._four.get(lang) or self._four.get(None, frozenset())
        for i in range(3):
            swapped = word[:i] + word[i + 1] + word[i] + word[i + 2:]
            if swapped != word and swapped in four:
                return swapped
        return word

    def _hangul_typo(self, word: str, c: Caches = NO_CACHE) -> str:
        """A Hangul word that is no known word and a particle, whose start is one jamo from a known
        word of four syllables or more: that word and the rest of the written one (its particle, `체크포이팅을` ->
        `체크포인팅을`). Else the word as written."""
        if len(word) < _HANGUL_TYPO_SYLLABLES or word in self._hangul:
            return word
        key = (word, "#hangul")
        cached = c.corrections.get(key)
        if cached is None:
            cached = word
            top = min(len(word), self._hangul_max)
            # a known word and an ending of up to two syllables (`메모리에서`, `좋아요`) is written right
            if not any(word[:k] in self._hangul for k in range(top, max(0, len(word) - 3), -1)):
                for k in range(top, _HANGUL_TYPO_SYLLABLES - 1, -1):
                    words, jamo = self._hangul_by_count.get(k, ((), ()))
                    found = extractOne(unicodedata.normalize("NFD", word[:k]), jamo, scorer=OSA.distance,
                                       score_cutoff=1) if words else None
                    if found is not None:
                        cached = words[found[2]] + word[k:]
                        break
            c.corrections.put(key, cached)
        return cached

    def inflection(self, word: str, c: Caches = NO_CACHE) -> bool:
        """An unknown word with the stem of a known word of some language (`entrene` of `entrenar`)."""
        return any(self._stem(lang, word, c) in stems for lang, stems in self._known_stems.items())

    def _same_stem(self, word: str, other: str, c: Caches = NO_CACHE) -> bool:
        return any(self._stem(lang, word, c) == self._stem(lang, other, c) for lang in self._stemmed)

    def _nearest(self, word: str, lang: str | None = None) -> str:
        limit = 1 if len(word) < 9 else 2
        buckets = self._fuzzy.get(lang) or self._fuzzy.get(None, {})
        candidates = [w for n in range(len(word) - limit, len(word) + limit + 1) for w in buckets.get((word[0], n), ())]
        found = extractOne(word, candidates, scorer=OSA.distance, score_cutoff=limit)
        return str(found[0]) if found else word
