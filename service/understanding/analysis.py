"""Text analysis shared by queries and knowledge: tokens, stems, Hangul, numbers (typos: `typos`).

Everything language-specific comes from data: each language's profile (`knowledge/text/<lang>/profile.yaml`,
compiled by `profiles`) and vocabulary. An `Analyzer` is built once at start-up and is read-only after: what it
remembers between calls lives in the `caches.Caches` the caller passes (the runtime's; none by default).

>>> normalize("Désactivé ÉTAPE  Größe")
'desactive etape grosse'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .caches import NO_CACHE, Caches
from .limits import DEFAULT_LIMITS, WorkLimits
from .normalize import fold, is_hangul, normalize, split_tokens
from .profiles import Profile
from .separable import join_particles, join_separable
from .typos import Typos

# A word glued to the number after it ("step3"), of up to three digits: a longer one glued to a word names a file or a
# checkpoint ("step3000"), and a count before its word ("2000steps") tells the run's length more often than a step
_GLUED = re.compile(r"^([a-z]{2,})([0-9]{1,3})$")

__all__ = ["Analyzer", "Token", "fold", "is_hangul", "join_particles", "join_separable", "normalize", "split_tokens"]

@dataclass(frozen=True, slots=True)
class Token:
    """One analysed token: its normalized surface, its forms per stream, a number value if any."""

    text: str
    forms: tuple[str, ...]  # one per stream of `Analyzer.streams`
    number: int | None
    hangul: bool
    native: bool  # a word of the query's own language: matched in that language's stream only
    # An ordinary word of the lingua franca in a query of another language ("for", "ram" in a Korean sentence):
    # matched in the query's stream and the lingua franca's, never in a third language's.
    lingua: bool = False


# Korean endings that close a clause (`놨는데`, `켰고`, `느려서`, `했는데`): grammar the vocabulary cannot hold (a known
# Hangul word re-segments every word that ends with it). Read by `extract` (a modal after them asks about another
# clause) and `own_run` (another person's clause ends there).
KOREAN_CLAUSE_ENDS = ("는데", "은데", "인데", "니까", "지만", "고", "서")


class Analyzer:
    """Turns text into tokens with per-stream forms, using the vocabulary of every language.

    There is one stream per language (its profile's stemmer, or the word as written); a Hangul word has its
    Hangul form (longest known word, else stripped of its ending) in every stream. A phrase of the vocabulary
    of language L is compared with the query in stream L, so a query in any language is matched against every
    language's vocabulary. `lingua_franca` is the language of logs and UI labels (English).

    A word is a language's own (`Token.native`) when a text of the knowledge in that language uses it or it is
    one of the language's ordinary words (`ordinary_words`, `text/<lang>/words.yaml`): the English "fall" is
    matched in the English stream only, never as Spanish `falla` (stems alike).
    """

    def __init__(
        self,
        profiles: Sequence[Profile],
        ordinal: re.Pattern[str],
        known_words: Mapping[str, Iterable[str]],
        korean_words: Iterable[str],
        fuzzy_words: Mapping[str, Iterable[str]],
        names: Iterable[str] = (),
        lingua_franca: str = "en",
        caches: Caches = NO_CACHE,
        number_words: Mapping[str, Iterable[str]] | None = None,
        ordinary_words: Mapping[str, Iterable[str]] | None = None,
    ) -> None:
        self.profiles = {p.lang: p for p in profiles}
        self.streams: tuple[str, ...] = tuple(p.lang for p in profiles)
        self._hangul = next((p for p in profiles if p.hangul), None)
        self._ordinal = ordinal
        self.known = {lang: frozenset(words) for lang, words in known_words.items()}
        self.all_known = frozenset().union(*self.known.values()) if self.known else frozenset()
        langs_of: dict[str, list[str]] = {}
        for lang, words in self.known.items():
            for word in words:
                langs_of.setdefault(word, []).append(lang)
        self._langs_of = {w: tuple(ls) for w, ls in langs_of.items()}
        ordinary = ordinary_words or {}
        # A language's own words: its knowledge's and its ordinary words (no typo is corrected into them, no
        # language is detected from them: those stay the knowledge's words).
        self.own = {lang: self.known.get(lang, frozenset()) | frozenset(ordinary.get(lang, ()))
                    for lang in self.streams}
        self.lingua_franca = lingua_franca
        # The words no typo is corrected from in a query of a language: its own and the lingua franca's ordinary
        # words ("reset" in a Korean or Spanish sentence is the English word, not a typo of `resnet`).
        self._uncorrected = {lang: words | self.own.get(lingua_franca, frozenset()) for lang, words in self.own.items()}
        self.korean_words = frozenset(korean_words)
        self._korean_max = max((len(w) for w in self.korean_words), default=0)
        # The particles of the Hangul language (its endings of one or two syllables, longest first): after a known
        # word, one of them ends that word and the next word may start right after it (`메모리가|없다고`).
        self._particles = tuple(e for e in self._hangul.endings if len(e) <= 2) if self._hangul is not None else ()
        self._case_particles = self._hangul.particles if self._hangul is not None else frozenset()
        self.numbers = {p.lang: p.numbers for p in profiles}
        # The words that introduce a number (a step, a batch, frames), in every language: one glued to its number
        # ("step3", "passo3", "bs4") is the word and the number.
        self._numbered = frozenset(w for words in (number_words or {}).values() for w in words)
        # Model names are never corrected (`chroma` is not `chrome`).
        self.typos = Typos(self.stem, (p.lang for p in profiles if p.stemmer is not None), self.known, frozenset(names),
                           fuzzy_words, number_words or {}, lingua_franca, caches, self.korean_words)

    # --- words -------------------------------------------------------------------------------------

    def stem(self, lang: str, word: str, c: Caches = NO_CACHE) -> str:
        """The stem of an already normalized word in a language (start-up stems the same words many times)."""
        key = (lang, word)
        cached = c.stems.get(key)
        if cached is None:
            cached = self.profiles[lang].stem(word)
            c.stems.put(key, cached)
        return cached

    def strip_korean(self, token: str) -> str:
        """Remove one particle or ending of the Hangul language from a token (`프리뷰에서` -> `프리뷰`)."""
        return self._hangul.strip_ending(token) if self._hangul is not None else token

    def korean_form(self, token: str) -> str:
        """The longest known Korean word the token starts with, else the token without its ending. A known word
        that is another known word and a one-syllable particle reads as that word (`효과가` is `효과`), so a
        phrase written with the particle and one written without it read the same."""
        for k in range(min(len(token), self._korean_max), 0, -1):
            word = token[:k]
            if word in self.korean_words:
                if k >= 3 and word[-1] in self._case_particles and word[:-1] in self.korean_words:
                    return word[:-1]
                return word
        return self.strip_korean(token)

    def split_korean(self, run: str) -> list[str]:
        """A Hangul run written without spaces (`두번째스텝에서메모리부족`) split before each known word of two or
        more syllables, longest first; what follows a known word stays with it as its ending (`스텝에서`). Right
        after a known word, or after a known word and its particle (`메모리가없다고` -> `메모리가`, `없다고`), a
        one-syllable known word may start too."""
        if len(run) < 4 or run in self.korean_words:
            return [run]
        pieces: list[str] = []
        i = 0
        after_word = False  # the previous piece is a known word: a one-syllable word may start here (다시|켰는데)
        while i < len(run):
            if after_word and not any(run[i : i + k] in self.korean_words
                                      for k in range(min(len(run) - i, self._korean_max), 1, -1)):
                particle = next((e for e in self._particles if run.startswith(e, i) and i + len(e) < len(run)), None)
                if particle is not None:
                    pieces[-1] += particle  # the word's particle; the next word starts after it
                    i += len(particle)
                    continue
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

    def split_elision(self, word: str, lang: str | None) -> list[str]:
        """An elided letter written without its apostrophe (`letape`, `dentrainement`): the letter and the known
        word after it, in a language that elides (its profile's `elided`); a known word stays whole."""
        profile = self.profiles.get(lang or "")
        if profile is None or not profile.elided or len(word) < 5 or word in self.all_known or not word.isalpha():
            return [word]
        for letters in profile.elided:
            rest = word[len(letters):]
            if word.startswith(letters) and len(rest) >= 4 and rest in self.all_known:
                return [letters, rest]
        return [word]

    def split_compound(self, word: str, c: Caches = NO_CACHE, lang: str | None = None) -> list[str]:
        """German-style compounds of two known words (`speicherfehler` -> `speicher`, `fehler`); an ordinary word of
        the query's language is one word (`jedenfalls`, "anyway", is no `jeden` + `falls`, "if")."""
        if len(word) < 8 or not word.isalpha() or word in self.all_known or self.typos.inflection(word, c) or (
                lang is not None and word in self.own.get(lang, ())):
            return [word]  # `checkpoints` (of `checkpointing`) is no `check` + `points`
        for i in range(len(word) - 3, 3, -1):
            head, tail = word[:i], word[i:]
            if head in self.all_known and tail in self.all_known:
                return [head, tail]
            if head.endswith("s") and head[:-1] in self.all_known and tail in self.all_known:
                return [head[:-1], tail]
        return [word]

    def detect_language(self, words: list[str], hint: str | None = None) -> str | None:
        """The language whose known words cover the query best (Hangul means the Hangul language); ties go to
        `hint`."""
        langs_of = self._langs_of
        counts: dict[str, int] = {}  # (a dict, not a Counter: a query has a few known words, a Counter costs ~2 us)
        hangul = self._hangul.lang if self._hangul is not None else None
        for word in words:
            if hangul is not None and "\uac00" <= word[:1] <= "\ud7a3":  # `is_hangul(word)`, inline
                return hangul
            for lang in langs_of.get(word, ()):
                counts[lang] = counts.get(lang, 0) + 1
        if not counts:
            return hint
        top = max(counts.values())
        if hint is not None and counts.get(hint) == top:
            return hint
        return next(lang for lang in self.known if counts.get(lang) == top)

    # --- tokens ------------------------------------------------------------------------------------

    def tokens(
        self, text: str, hint: str | None = None, fix_typos: bool = True, lead: str | None = None,
        c: Caches = NO_CACHE,
        limits: WorkLimits = DEFAULT_LIMITS,
    ) -> tuple[str | None, list[Token]]:
        """The query's language and its tokens.

        A word the query's own language knows is matched in that language's stream only, so a German
        `die` never reads as English `died`; a foreign word (an English term in a Korean sentence) is
        matched in every stream.
        """
        if fix_typos:  # a query: its first `tokens` words are within its first `tokens x 64` characters
            text = text[: limits.tokens * 64]
        normalized = normalize(text)
        raws = split_tokens(normalized)
        if not fix_typos:  # the knowledge's own phrases, at start-up
            lang = self.detect_language(raws, hint)
            return lang, [self._cached_token(word, lang, c) for word in raws]
        # The language comes from the words as written (its first words): corrections are made towards it.
        lang = self.detect_language((split_tokens(normalize(lead)) if lead else raws)[: 4 * limits.tokens], hint)
        profile = self.profiles.get(lang or "")
        if profile is not None and profile.separable:
            raws = join_particles(normalized, raws, profile)
        return lang, self.read(raws[: limits.tokens], lang, c, limits)[0]

    def unglue(self, raws: Sequence[str]) -> Sequence[str]:
        """A word that introduces a number written glued to it ("OOM at step3", "no passo3", "bs4"): the word and the
        number, each a token; a model name or any other word glued to a number ("sdxl1", "fp16") stays."""
        if all(raw.isalpha() or raw.isdigit() for raw in raws):
            return raws
        out: list[str] = []
        for raw in raws:
            glued = _GLUED.match(raw)
            if glued is not None and glued.group(1) in self._numbered and raw not in self.all_known:
                out.extend(glued.groups())
            else:
                out.append(raw)
        return out

    def read(
        self, raws: Sequence[str], lang: str | None, c: Caches = NO_CACHE, limits: WorkLimits = DEFAULT_LIMITS,
        corrections: int | None = None,
    ) -> tuple[list[Token], int]:
        """The tokens of a query's words (split, written in `lang`), and how many typo corrections are left of
        `corrections` (`limits.corrections` when not given): a text read sentence by sentence shares one budget."""
        # Work caps of a query (limits.py): a word too long to be a vocabulary word is kept as written; the first
        # `corrections` words that could be typos are corrected, later ones are not.
        # A word as written and the language -> its tokens (corrected, split): one lookup per word.
        cache = c.word_tokens
        out: list[Token] = []
        profile = self.profiles.get(lang or "")
        if profile is not None and profile.shorthand:
            raws = profile.expand(list(raws))
        if corrections is None:
            corrections = limits.corrections
        if self._numbered:
            raws = self.unglue(raws)
        after_number, known = (profile.after_number if profile is not None else {}), self.all_known
        for k, raw in enumerate(raws):
            if raw in after_number and out and out[-1].number is not None:
                raw = after_number[raw]  # French `pas` after a number is a step ("au 3e pas"), not "not"
            hangul = "\uac00" <= raw[:1] <= "\ud7a3"  # `is_hangul(raw)`, inline: this runs for every word
            # a word right before a number (a Hangul one also right after it: `2스텦에서`) may be a misspelt word
            # that introduces numbers
            if ((k + 1 < len(raws) and raws[k + 1].isdigit()) or (hangul and k and raws[k - 1].isdigit())) and (
                    raw not in known):
                fixed = self.typos.correct_before_number(raw, lang, c)
                if fixed != raw:
                    out.append(self._cached_token(fixed, lang, c))
                    continue
            if len(raw) > limits.word_chars:
                if not hangul:
                    cut = raw[: limits.word_chars]
                    out.append(Token(cut, (cut,) * len(self.streams), None, False, False))
                    continue
                raw = raw[: 4 * limits.word_chars]  # Korean written without spaces: split, within bounds
            # A word `correct` would look up: not Korean, long enough, letters only, no vocabulary word (a
            # vocabulary word costs nothing to correct, so a long post of real words keeps its budget).
            lookup = not hangul and len(raw) >= 5 and raw.isalpha() and raw not in known
            fix = not lookup or corrections > 0
            if lookup:
                corrections -= 1  # counted alike whether it is cached or not
            tokens = cache.get((raw, lang)) if fix else None
            if tokens is None:
                parts = self.split_korean(raw) if hangul else [
                    part for word in self.split_elision(raw, lang) for part in self.split_compound(word, c, lang)
                ]
                if not fix:
                    out.extend(self._cached_token(part, lang, c) for part in parts)
                    continue
                # an ordinary word of the language or of English is no typo ("leider", unfortunately, is not `leidet`)
                own = self._uncorrected.get(lang or "", frozenset())
                tokens = tuple(self._cached_token(part if part in own else self.typos.correct(part, lang, c), lang, c)
                               for part in parts)
                cache.put((raw, lang), tokens)
            out.extend(tokens)
        return out, corrections

    def _cached_token(self, word: str, lang: str | None, c: Caches = NO_CACHE) -> Token:
        token = c.tokens.get((word, lang))
        if token is None:
            profile = self.profiles.get(lang or "")
            native = word in self.own.get(lang or "", frozenset()) and (
                profile is None or not profile.hangul or is_hangul(word)
            )
            lingua = not native and lang is not None and lang != self.lingua_franca and (
                word in self.own.get(self.lingua_franca, frozenset()))
            token = self._token(word, self.numbers.get(lang or "", {}), native, c, lingua)
            c.tokens.put((word, lang), token)
        return token

    def _forms(self, word: str, c: Caches = NO_CACHE) -> tuple[str, ...]:
        """A word's form in every stream (the vocabulary of real queries is small: remembered)."""
        cached = c.forms.get(word)
        if cached is None:
            if is_hangul(word):
                cached = (self.korean_form(word),) * len(self.streams)
            else:
                cached = tuple(self.stem(lang, word, c) for lang in self.streams)
            c.forms.put(word, cached)
        return cached

    def _token(
        self, word: str, numbers: Mapping[str, int], native: bool = False, c: Caches = NO_CACHE, lingua: bool = False
    ) -> Token:
        number: int | None = None
        if word.isdigit() and len(word) <= 9:
            number = int(word)
        else:
            ordinal = self._ordinal.match(word)
            if ordinal:
                number = int(ordinal.group(1))
            elif word in numbers:
                number = numbers[word]
            elif is_hangul(word):
                # A Korean number word keeps its value before a particle (`두개로`, `세장을`), unless the vocabulary
                # uses it as a word (`하나도 안 닮았어요`: not at all).
                stripped = self.strip_korean(word)
                if stripped not in self.korean_words:
                    number = numbers.get(stripped)
        return Token(word, self._forms(word, c), number, is_hangul(word), native, lingua)

    def phrase_forms(self, lang: str, phrase: str, c: Caches = NO_CACHE) -> tuple[str, ...]:
        """A vocabulary phrase of `lang` as the forms its own stream gives (no typo correction): the form a
        query token gets in that stream (`_forms`), computed for that stream only."""
        return self._forms_of(lang, split_tokens(normalize(phrase)), c)

    def phrase_variants(self, lang: str, phrase: str, c: Caches = NO_CACHE) -> tuple[tuple[str, ...], ...]:
        """`phrase_forms`, and also the forms with its separable verbs joined as a query's are, when that differs:
        "sieht anders aus" then matches the query "sieht anders aus" once both read `aussehen`, and still matches a
        query whose verb was misspelt (`hoert ... auf` is not joined before it is corrected)."""
        normalized = normalize(phrase)
        words = split_tokens(normalized)
        variants = [self._forms_of(lang, words, c)]
        profile = self.profiles.get(lang)
        if profile is None:
            return tuple(variants)
        if profile.separable:
            variants.append(self._forms_of(lang, join_particles(normalized, words, profile), c))
        if profile.dropped:  # "ça ne change rien" is also written "ça change rien"
            kept = [w for w in profile.expand(words) if w not in profile.dropped]
            if len(kept) >= 2:
                variants.append(self._forms_of(lang, kept, c))
        return tuple(dict.fromkeys(variants))

    def filler_forms(self, lang: str, c: Caches = NO_CACHE) -> frozenset[str]:
        """The forms a language's fillers take in its stream (skipped inside a phrase of that stream); a Hangul
        filler as written (its form, stripped of an ending, may be another word's: `진짜` is no `진`)."""
        profile = self.profiles.get(lang)
        if profile is None:
            return frozenset()
        hangul = {w for w in profile.fillers if is_hangul(w)}
        return frozenset(self._forms_of(lang, profile.fillers - hangul, c)) | hangul

    def _forms_of(self, lang: str, words: Iterable[str], c: Caches = NO_CACHE) -> tuple[str, ...]:
        profile = self.profiles.get(lang)
        if profile is not None and profile.shorthand:
            words = profile.expand(list(words))
        return tuple(self.korean_form(w) if is_hangul(w) else self.stem(lang, w, c) for w in words)

    def stream_of(self, lang: str | None) -> int:
        return self.streams.index(lang) if lang in self.streams else len(self.streams) - 1
