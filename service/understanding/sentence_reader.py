"""The sentence markers compiled per language (index layer; read-only): what `sentences.read_sentences` reads with.

Each language's markers (`knowledge/text/<lang>/profile.yaml` `sentences`, `content.sentence_models.SentenceMarkers`)
become a table keyed by a marker's first form in the stream the analyzer reads that language in (stems; a Hangul
marker as a word's start), with the forms of the symptom words (`intents.yaml` `sentences.cues`) and the
implications said across sentences (`implies` `across`); `markers` finds them in a sentence's tokens.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..content.models import Content, SentenceMarkers, SentenceRules
from .analysis import Analyzer, Token
from .caches import NO_CACHE, Caches
from .normalize import is_hangul, normalize, split_tokens
from .wrapped import Wrapping, compile_wrapping

# A marker table: first form -> the marker phrases (forms) starting with it, longest first, and their kind.
Table = dict[str, tuple[tuple[tuple[str, ...], str], ...]]


@dataclass(frozen=True, slots=True, eq=False)
class Language:
    stream: int
    hangul: bool
    table: Table
    question_endings: tuple[str, ...]
    sentence_endings: tuple[str, ...]
    cues: frozenset[str]  # forms of the symptom words (`rules.cues`) in this language's stream
    present: frozenset[str]  # forms of the one-word markers of the present ("now", "still", `지금`)
    reach: int  # words a hypothetical or a negation reaches
    # elided letters (French `d'`) and the profile's fillers (intensifiers: "really", `전혀`, `번도` of `한 번도`):
    # tokens the reach does not count (`OOM 같은 에러는 한 번도 없었고` denies the OOM)
    elided: frozenset[str]
    cause_endings: tuple[str, ...] = ()  # word endings that close a clause of cause (Korean `나서`)


@dataclass(frozen=True, slots=True, eq=False)
class SentenceReader:
    """The compiled markers of every language and the sentence rules (index layer; read-only)."""

    analyzer: Analyzer
    rules: SentenceRules
    told: frozenset[str]  # concepts that tell a symptom of the guide (`rules.told`)
    asides: frozenset[str]  # other subjects a sentence of its own may name aside (`rules.asides`)
    across: tuple[tuple[frozenset[str], str], ...]  # the implications said across sentences (`implies` `across`)
    languages: Mapping[str, Language]
    default: str  # the language whose markers read a text of no known language
    wrapping: Wrapping  # every language's template headings and environment keys (`wrapped`)
    endings: tuple[str, ...] = ()  # every language's sentence endings (`sentences.split_sentences`), joined once

    def language(self, lang: str | None) -> Language:
        return self.languages.get(lang or "", self.languages[self.default])


def build_reader(analyzer: Analyzer, content: Content, caches: Caches = NO_CACHE) -> SentenceReader:
    """Marker tables per language from the profiles, cue forms from the vocabularies of `sentences.cues`."""
    languages = {}
    cue_concepts = set(content.intents.sentences.cues)
    for lang, profile in content.profiles.items():
        markers = profile.sentences
        stream = analyzer.stream_of(lang)
        hangul = profile.script == "hangul"
        table: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        for kind, phrases in _kinds(markers):
            for phrase in phrases:
                forms = tuple(normalize(w) for w in split_tokens(normalize(phrase))) if hangul else \
                    analyzer.phrase_forms(lang, phrase, caches)
                if forms:
                    table.setdefault(forms[0], []).append((forms, kind))
        cues = {
            analyzer.phrase_forms(lang, phrase, caches)[0]
            for concept, phrases in content.texts[lang].vocabulary.concepts.items() if concept in cue_concepts
            for phrase in phrases if len(split_tokens(normalize(phrase))) == 1
        }
        present = {forms[0] for phrases_of in table.values() for forms, kind in phrases_of
                   if kind in ("present", "frequent") and len(forms) == 1}
        languages[lang] = Language(
            stream=stream,
            hangul=hangul,
            table={k: tuple(sorted(v, key=lambda p: -len(p[0]))) for k, v in table.items()},
            question_endings=tuple(normalize(e) for e in markers.question_endings),
            sentence_endings=tuple(normalize(e) for e in markers.sentence_endings),
            cues=frozenset(cues),
            present=frozenset(present),
            reach=markers.reach,
            elided=frozenset(normalize(e) for e in (*markers.elided, *profile.fillers)),
            cause_endings=tuple(normalize(e) for e in markers.cause_endings),
        )
    rules = content.intents.sentences
    across = tuple((frozenset(i.all), i.then) for i in content.intents.implies if i.across)
    return SentenceReader(analyzer, rules, frozenset(rules.told), frozenset(rules.asides), across, languages,
                          content.languages.default, compile_wrapping(p.sentences for p in content.profiles.values()),
                          tuple(e for language in languages.values() for e in language.sentence_endings))


KINDS = ("question", "aside", "past", "present", "frequent", "settled", "gone", "fixed", "reverted", "hypothetical",
         "hypothetical_after", "feared", "negation", "negation_after", "cause")


def _kinds(markers: SentenceMarkers) -> Iterable[tuple[str, tuple[str, ...]]]:
    return ((kind, getattr(markers, kind)) for kind in KINDS)


def markers(tokens: list[Token], start: int, end: int, language: Language) -> list[tuple[int, str, int]]:
    """(position, kind, end) of each marker in tokens[start:end], the longest at each position."""
    out = []
    table, stream, hangul = language.table, language.stream, language.hangul
    i = start
    while i < end:
        token = tokens[i]
        if not (token.hangul and hangul) and token.forms[stream] not in table:
            i += 1  # (most words: no marker starts with their form)
            continue
        found = None
        # A Latin word starts a marker by its form, in a loop of one; a Hangul word by its first syllables.
        for form in _lookups(token, language) if token.hangul and hangul else (token.forms[stream],):
            candidates = table.get(form)
            if candidates is None:
                continue
            for forms, kind in candidates:
                n = len(forms)
                if i + n <= end and all(_matches(tokens[i + j], forms[j], stream, hangul) for j in range(1, n)):
                    found = (i, kind, i + n)
                    break
            if found:
                break
        if found:
            out.append(found)
            i = found[2]
        else:
            i += 1
    return out


def causes(tokens: list[Token], start: int, end: int, marks: list[tuple[int, str, int]],
           language: Language) -> list[tuple[int, int, bool]]:
    """(start, end, forward) of each clause of cause in tokens[start:end]: a causal conjunction among `marks` (no
    reach crosses it: forward False for none), and a Hangul word with a cause ending, the end of its clause (no reach
    goes back over it; forward: "만약 배치를 올려서 OOM 나면" still supposes the OOM)."""
    out = [(i, e, True) for i, kind, e in marks if kind == "cause"]
    if language.cause_endings:
        ending = language.cause_endings
        out.extend((i, i + 1, False) for i in range(start, end) if tokens[i].hangul and tokens[i].text.endswith(ending))
        # a hypothetical word with a cause ending tells the reason of what follows ("걱정돼서 배치 줄였는데 OOM 나요")
        out.extend((e, e, True) for _, kind, e in marks if kind == "hypothetical" and tokens[e - 1].hangul
                   and tokens[e - 1].text.endswith(ending))
    return out


def _lookups(token: Token, language: Language) -> tuple[str, ...]:
    """The keys a Hangul word may start a marker with: its first syllables (one syllable only as the whole word)."""
    word = token.text
    return tuple(word[:n] for n in range(min(len(word), 4), 0, -1) if n == len(word) or n > 1)


def _matches(token: Token, form: str, stream: int, hangul: bool) -> bool:
    if token.hangul and hangul:
        return token.text == form or (len(form) > 1 and token.text.startswith(form))
    return token.forms[stream] == form


def cheap_marks(words: Sequence[str], language: Language, analyzer: Analyzer) -> tuple[bool, bool]:
    """Whether a symptom word is among the sentence's words, and a one-word marker of the present, read cheaply (a
    stem or Hangul form, no typo correction; not remembered: a word of a sentence that is not read leaves nothing
    in the caches)."""
    profile = analyzer.profiles[analyzer.streams[language.stream]]
    cue = now = False
    for word in words:
        form = analyzer.korean_form(word) if is_hangul(word) else profile.stem(word)
        cue = cue or form in language.cues
        now = now or form in language.present
        if cue and now:
            break
    return cue, now
