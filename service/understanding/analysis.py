"""Text analysis shared by queries and knowledge: normalization, tokens, stems, Korean, numbers, typos.

Everything language-specific comes from data (`knowledge/text/<lang>/vocabulary.yaml`); this module only
knows scripts and the Snowball stemmers. An `Analyzer` is built once at start-up and is read-only after.

>>> normalize("Désactivé ÉTAPE  Größe")
'desactive etape grosse'
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

import Stemmer
from rapidfuzz.distance import OSA
from rapidfuzz.process import extractOne

STEMMER_NAMES = {"en": "english", "es": "spanish", "pt": "portuguese", "fr": "french", "de": "german"}
LATIN_LANGS = tuple(STEMMER_NAMES)
ENGLISH = "en"
FORMS_CACHE_SIZE = 20_000  # words; cleared when full, so memory stays bounded under any traffic
STEM_CACHE_SIZE = 50_000  # (language, word) pairs, least recently used dropped


class Bounded(dict):  # type: ignore[type-arg]
    """A cache that is cleared when full, so memory stays bounded under any traffic (reads are plain `get`)."""

    def __init__(self, size: int = FORMS_CACHE_SIZE) -> None:
        super().__init__()
        self.size = size

    def put(self, key: object, value: object) -> None:
        if len(self) >= self.size:
            self.clear()
        self[key] = value

_TOKEN = re.compile(r"[a-z0-9]+(?:[_.][a-z0-9]+)*|[\uac00-\ud7a3]+")
_DIMENSION = re.compile(r"^(\d{2,5})x(\d{2,5})$")
# A number glued to a unit of time or rate ("295s/it", "2it/sec", "2hours"): the number and its unit.
_RATE = re.compile(r"^(\d+(?:\.\d+)?)(s|sec|secs|it|its|h|hr|hrs|hour|hours|min|mins|minutes|seconds)$")
# Combining diacritical marks (the blocks Latin, Greek and Cyrillic accents decompose into).
_COMBINING = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")
_ORDINAL_DIGIT = re.compile(r"^(\d{1,7})(?:st|nd|rd|th|o|a|e|er|eme|re|ere|te|ten|ter|tes)$")

# Korean particles and endings, longest first: stripped from a token's end to reach its stem.
KOREAN_SUFFIXES = tuple(sorted((
    "이었는데", "였는데", "습니다", "ㅂ니다", "합니다", "입니다", "니다", "는데도", "인데도", "는데", "인데", "에서는",
    "에서도", "에서", "에게", "으로는", "으로", "로는", "로", "까지", "부터", "처럼", "보다", "하고", "이랑", "랑",
    "이나", "나", "이에요", "예요", "이요", "이야", "해요", "했어요", "했는데", "하면", "해도", "해서", "했다", "한데",
    "을", "를", "이", "가", "은", "는", "에", "의", "도", "만", "와", "과", "요", "죠", "지요", "네요",
), key=len, reverse=True))


def normalize(text: str) -> str:
    """NFKC, case-folded, accents removed (Hangul kept), whitespace collapsed."""
    if text.isascii():
        return " ".join(text.casefold().split())
    text = unicodedata.normalize("NFKC", text).casefold()
    stripped = _COMBINING.sub("", unicodedata.normalize("NFD", text))
    return " ".join(unicodedata.normalize("NFC", stripped).split())


def is_hangul(token: str) -> bool:
    """True when the token starts with a Hangul syllable."""
    return token[:1] >= "\uac00" and token[:1] <= "\ud7a3"


@lru_cache(maxsize=8)
def _stemmer(lang: str) -> Stemmer.Stemmer:
    return Stemmer.Stemmer(STEMMER_NAMES[lang])


# Portuguese Snowball rules read the nasal endings (`-ção`, `-ão`); folded text has lost them, so `visualizacao`
# and `visualizacoes` would stem apart. The ending is restored (a plural as its singular: `-ões`, `-ães` ->
# `-ão`) before stemming, and the stem folded after.
_PT_NASAL = (("coes", "ção"), ("cao", "ção"), ("oes", "ão"), ("aes", "ão"), ("ao", "ão"))


@lru_cache(maxsize=STEM_CACHE_SIZE)
def stem(lang: str, word: str) -> str:
    """Snowball stem of an already normalized word (bounded cache: start-up stems the same words many times)."""
    if not word.isalpha():
        return word
    if lang == "pt" and len(word) > 3:
        for ending, nasal in _PT_NASAL:
            if word.endswith(ending):
                return fold(str(_stemmer(lang).stemWord(word[: -len(ending)] + nasal)))
    return str(_stemmer(lang).stemWord(word))


def fold(text: str) -> str:
    """Accents removed (the last step of `normalize`)."""
    return unicodedata.normalize("NFC", _COMBINING.sub("", unicodedata.normalize("NFD", text)))


def strip_korean(token: str) -> str:
    """Remove one particle or ending from a Hangul token (`프리뷰에서` -> `프리뷰`)."""
    for suffix in KOREAN_SUFFIXES:
        if token.endswith(suffix) and len(token) > len(suffix):
            return token[: -len(suffix)]
    return token


def split_tokens(normalized: str) -> list[str]:
    """Tokens of normalized text: Latin words/numbers/config keys and Hangul runs, dimensions split."""
    out: list[str] = []
    for tok in _TOKEN.findall(normalized):
        dim = _DIMENSION.match(tok) if "x" in tok else None
        rate = _RATE.match(tok) if not dim and tok[:1].isdigit() else None
        if dim:
            out.extend((dim.group(1), dim.group(2)))
        elif rate:
            out.extend((rate.group(1), rate.group(2)))
        else:
            out.append(tok)
    return out


@dataclass(frozen=True, slots=True)
class Token:
    """One analysed token: its normalized surface, its forms per stream, a number value if any."""

    text: str
    forms: tuple[str, ...]  # one per stream of `Analyzer.streams`
    number: int | None
    hangul: bool
    native: bool  # a word of the query's own language: matched in that language's stream only


class Analyzer:
    """Turns text into tokens with per-stream forms, using the vocabulary of every language.

    Streams are the five Snowball languages plus `ko` (Korean stems; other tokens as written). A phrase of
    the vocabulary of language L is compared with the query in stream L, so a query in any language is
    matched against every language's vocabulary.
    """

    streams: tuple[str, ...] = (*LATIN_LANGS, "ko")

    def __init__(
        self,
        known_words: Mapping[str, Iterable[str]],
        korean_words: Iterable[str],
        number_words: Mapping[str, Mapping[str, int]],
        fuzzy_words: Mapping[str, Iterable[str]],
        names: Iterable[str] = (),
    ) -> None:
        self.known = {lang: frozenset(words) for lang, words in known_words.items()}
        self.all_known = frozenset().union(*self.known.values()) if self.known else frozenset()
        self.names = frozenset(names)  # model names: never corrected (`chroma` is not `chrome`)
        # Words left alone in a query of a language: that language's and English's (French `parce` is a typo of
        # Spanish `parece` in a Spanish query); with no language known, every language's.
        english_known = self.known.get(ENGLISH, frozenset())
        self._uncorrected = {lang: words | english_known for lang, words in self.known.items()}
        langs_of: dict[str, list[str]] = {}
        for lang, words in self.known.items():
            for word in words:
                langs_of.setdefault(word, []).append(lang)
        self._langs_of = {w: tuple(ls) for w, ls in langs_of.items()}
        self.korean_words = frozenset(korean_words)
        self._korean_max = max((len(w) for w in self.korean_words), default=0)
        # Stems of each language's known words: an unknown word with a known stem is an inflection
        # (`entrene` of `entrenar`), not a typo to correct into some other language's word.
        self._known_stems = {
            lang: frozenset(stem(lang, w) for w in words) for lang, words in self.known.items() if lang in STEMMER_NAMES
        }
        self.numbers = {lang: dict(words) for lang, words in number_words.items()}
        # Typo candidates by (first letter, length): a word is only compared with words it could be within
        # the allowed edits of, so the cost does not grow with the whole vocabulary. Per language: a word is
        # corrected towards the query's language and English (the language of logs and UI labels), never into a
        # third language (`mismo` is Spanish, not a typo of Portuguese `mesmo`); an unknown language, towards any.
        by_lang: dict[str | None, set[str]] = {lang: set(words) for lang, words in fuzzy_words.items()}
        by_lang[None] = set().union(*by_lang.values())
        english = by_lang.get(ENGLISH, set())
        self._fuzzy: dict[str | None, dict[tuple[str, int], tuple[str, ...]]] = {}
        for target, pool in by_lang.items():
            buckets: dict[tuple[str, int], list[str]] = {}
            for word in sorted(pool | english):
                if len(word) >= 5 and word.isalpha() and not is_hangul(word):
                    buckets.setdefault((word[0], len(word)), []).append(word)
            self._fuzzy[target] = {k: tuple(v) for k, v in buckets.items()}
        self._forms_cache = Bounded()  # word -> its form in every stream
        self._word_tokens = Bounded()  # (word as written, language) -> its tokens (split, corrected)
        self._token_cache = Bounded()  # (word, language) -> Token
        self._correct_cache = Bounded()  # (word, language) -> the word corrected

    # --- words -------------------------------------------------------------------------------------

    def korean_form(self, token: str) -> str:
        """The longest known Korean word the token starts with, else the token without its ending."""
        for k in range(min(len(token), self._korean_max), 0, -1):
            if token[:k] in self.korean_words:
                return token[:k]
        return strip_korean(token)

    def correct(self, word: str, lang: str | None = None) -> str:
        """Typo tolerance for words only (never numbers or config keys): the nearest vocabulary word. A word
        that is an inflection of a known word (`entrene` of `entrenar`) is only corrected to a word of the same
        stem (`memori` -> `memory`), never to another word (`entrene` -> `entree`)."""
        known = self._uncorrected.get(lang, self.all_known) if lang else self.all_known
        if len(word) < 5 or not word.isalpha() or word in known or word in self.names or is_hangul(word):
            return word
        cached = self._correct_cache.get((word, lang))
        if cached is None:
            cached = self._nearest(word, lang)
            if cached != word and self._inflection(word) and not self._same_stem(word, cached):
                cached = word
            self._correct_cache.put((word, lang), cached)
        return cached

    def _inflection(self, word: str) -> bool:
        return any(stem(lang, word) in stems for lang, stems in self._known_stems.items())

    @staticmethod
    def _same_stem(word: str, other: str) -> bool:
        return any(stem(lang, word) == stem(lang, other) for lang in LATIN_LANGS)

    def _nearest(self, word: str, lang: str | None = None) -> str:
        limit = 1 if len(word) < 9 else 2
        buckets = self._fuzzy.get(lang) or self._fuzzy.get(None, {})
        candidates = [w for n in range(len(word) - limit, len(word) + limit + 1) for w in buckets.get((word[0], n), ())]
        found = extractOne(word, candidates, scorer=OSA.distance, score_cutoff=limit)
        return str(found[0]) if found else word

    def split_korean(self, run: str) -> list[str]:
        """A Hangul run written without spaces (`두번째스텝에서메모리부족`) split before each known word of two or
        more syllables, longest first; what follows a known word stays with it as its ending (`스텝에서`)."""
        if len(run) < 4 or run in self.korean_words:
            return [run]
        pieces: list[str] = []
        i = 0
        after_word = False  # the previous piece is a known word: a one-syllable word may start here (다시|켰는데)
        while i < len(run):
            for k in range(min(len(run) - i, self._korean_max), 0 if after_word else 1, -1):
                if run[i : i + k] in self.korean_words:
                    pieces.append(run[i : i + k])
                    after_word = k > 1
                    i += k
                    break
            else:
                if pieces and i > 0:
                    pieces[-1] += run[i]
                else:
                    pieces.append(run[i])
                after_word = False
                i += 1
        return pieces

    def split_compound(self, word: str) -> list[str]:
        """German-style compounds of two known words (`speicherfehler` -> `speicher`, `fehler`)."""
        if len(word) < 8 or not word.isalpha() or word in self.all_known or self._inflection(word):
            return [word]  # `checkpoints` (of `checkpointing`) is no `check` + `points`
        for i in range(len(word) - 3, 3, -1):
            head, tail = word[:i], word[i:]
            if head in self.all_known and tail in self.all_known:
                return [head, tail]
            if head.endswith("s") and head[:-1] in self.all_known and tail in self.all_known:
                return [head[:-1], tail]
        return [word]

    def detect_language(self, words: list[str], hint: str | None = None) -> str | None:
        """The language whose known words cover the query best (Hangul means Korean); ties go to `hint`."""
        langs_of = self._langs_of
        seen: list[str] = []
        for word in words:
            if is_hangul(word):
                return "ko"
            seen.extend(langs_of.get(word, ()))
        if not seen:
            return hint
        counts = Counter(seen)
        top = max(counts.values())
        if hint is not None and counts.get(hint) == top:
            return hint
        return next(lang for lang in self.known if counts.get(lang) == top)

    # --- tokens ------------------------------------------------------------------------------------

    def tokens(
        self, text: str, hint: str | None = None, fix_typos: bool = True, lead: str | None = None
    ) -> tuple[str | None, list[Token]]:
        """The query's language and its tokens.

        A word the query's own language knows is matched in that language's stream only, so a German
        `die` never reads as English `died`; a foreign word (an English term in a Korean sentence) is
        matched in every stream.
        """
        raws = split_tokens(normalize(text))
        # The language comes from the words as written: corrections are made towards it.
        lang = self.detect_language(split_tokens(normalize(lead)) if lead else raws, hint)
        if not fix_typos:
            return lang, [self._cached_token(word, lang) for word in raws]
        # A word as written and the language -> its tokens (corrected, split): one lookup per word.
        cache = self._word_tokens
        out: list[Token] = []
        for raw in raws:
            tokens = cache.get((raw, lang))
            if tokens is None:
                parts = self.split_korean(raw) if is_hangul(raw) else self.split_compound(raw)
                tokens = tuple(self._cached_token(self.correct(part, lang), lang) for part in parts)
                cache.put((raw, lang), tokens)
            out.extend(tokens)
        return lang, out

    def _cached_token(self, word: str, lang: str | None) -> Token:
        token = self._token_cache.get((word, lang))
        if token is None:
            native = word in self.known.get(lang or "", frozenset()) and (lang != "ko" or is_hangul(word))
            token = self._token(word, self.numbers.get(lang or "", {}), native)
            self._token_cache.put((word, lang), token)
        return token

    def _forms(self, word: str) -> tuple[str, ...]:
        """A word's form in every stream (bounded cache: the vocabulary of real queries is small)."""
        cached = self._forms_cache.get(word)
        if cached is None:
            if is_hangul(word):
                cached = (self.korean_form(word),) * len(self.streams)
            else:
                cached = (*(stem(lang, word) for lang in LATIN_LANGS), word)
            self._forms_cache.put(word, cached)
        return cached

    def _token(self, word: str, numbers: Mapping[str, int], native: bool = False) -> Token:
        number: int | None = None
        if word.isdigit() and len(word) <= 9:
            number = int(word)
        else:
            ordinal = _ORDINAL_DIGIT.match(word)
            if ordinal:
                number = int(ordinal.group(1))
            elif word in numbers:
                number = numbers[word]
        return Token(word, self._forms(word), number, is_hangul(word), native)

    def phrase_forms(self, lang: str, phrase: str) -> tuple[str, ...]:
        """A vocabulary phrase of `lang` as the forms its own stream gives (no typo correction): the form a
        query token gets in that stream (`_forms`), computed for that stream only."""
        stemmed = lang in LATIN_LANGS
        return tuple(
            self.korean_form(w) if is_hangul(w) else stem(lang, w) if stemmed else w
            for w in split_tokens(normalize(phrase))
        )

    def stream_of(self, lang: str | None) -> int:
        return self.streams.index(lang) if lang in self.streams else len(self.streams) - 1
