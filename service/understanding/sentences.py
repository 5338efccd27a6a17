"""Sentence-level reading (engine layer): a text read as sentences, each with its status, within one token budget.

A long post tells several things: the present state, what happened before, what the user fears, what did not
happen, a side remark, and a question. `read_sentences` splits the user's words into sentences (full stops,
question marks, line ends, Korean endings), picks which of them fill the token budget (`limits.tokens`: the
questions and the sentences with a symptom word first, so a long post's question at its end is never cut) and
reads them in the text's order. Each token then knows its sentence, whether that sentence asks, and whether the
event it tells is past (a marker's sentence, up to a marker of the present), supposed or feared, or denied (the few
words a hypothetical or a negation reaches); `told.told_now` drops the events (`intents.yaml` `sentences.events`) that
are not the present state.

The markers are data: `knowledge/text/<lang>/profile.yaml` `sentences` (`content.sentence_models.SentenceMarkers`),
compiled in `sentence_reader`, matched in the stream of the text's language as the analyzer reads it (stems; a
Hangul marker as a word's start).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .analysis import Analyzer, Token, join_separable
from .caches import NO_CACHE, Caches
from .lexicon import Hit
from .limits import DEFAULT_LIMITS, WorkLimits
from .normalize import is_hangul, normalize, split_tokens
from .pasted import setting_line
from .pasted_names import setting_names
from .sentence_reader import Language, SentenceReader, causes, cheap_marks, markers
from .splitting import split_sentences
from .wrapped import QUESTION, SOLVED, in_routine, spec_line, title_parts, update_line

# Where a clause ends inside a sentence: a comma, a semicolon, a colon or a bracket before a space, a dash between
# spaces ("no errors, OOM at step 3": the negation does not reach past the comma).
_CLAUSE = re.compile(r"[,;:)(](?=\s)|\s[-\u2013\u2014]\s")
# A one-word aside marker opens its sentence ("Also, unrelated: ...", "Btw is there ..."): "it was also stuck",
# "il plante aussi" is no aside; a phrase ("by the way", "another thing") is one wherever it stands.
ASIDE_OPENS = 3
# A settled marker tells of the words just before it ("the OOM at step 3 is fixed"), a few reaches at most: in a text
# with no full stops the failure told far before it is another clause ("VRAM full at step 3 every time it ran fine").
SETTLED_REACH = 2
Settled = tuple[int, int, int, bool]  # (clause start, marker start, marker end, a marker of a thing gone)
Causes = tuple[tuple[int, int, bool], ...]  # (start, end, no reach crosses it forward) of each clause of cause
SCAN = 2  # a long text's sentences are looked at over two budgets of words at most, to choose which are read

# The way a marker reaches: forward (1) or back (-1) `reach` words, or forward to the end of its clause (2: a fear
# told with its clause, "afraid that", "miedo de que", "Angst, dass": what is feared, verb last). A hypothetical
# reaches forward only: "j'ai peur, ça plante en OOM au step 3" tells the OOM, a worry beside it.
_NOW = ("present", "frequent")  # the marker kinds that tell the state now where no past is told
_NEGATION = "negation"  # concepts.yaml: the vocabulary's negations ("no tengo", "não tenho", "ni siquiera")
_REACH = {"negation": 1, "negation_after": -1, "hypothetical": 1, "hypothetical_after": -1, "feared": 2}


# (each sentence's text, its words per clause, its words, the words seen, (the title's tag, the title's text))
_Split = tuple[list[str], list[list[list[str]]], list[list[str]], list[str], tuple[str, int]]


class Sentence(NamedTuple):
    """One sentence of a reading (a tuple: a query makes a few, and a frozen dataclass's `__init__` costs ~3x one)."""

    start: int  # its first token in the tokens read
    end: int  # exclusive
    question: bool  # it asks (a question mark, a question marker or ending)
    marked: bool  # it ends in a question mark, or a Korean asking ending
    cue: bool  # it holds a symptom word (read first in a long text)
    clauses: tuple[int, ...] = ()  # the first token of each clause after the first (after a comma, a colon, ...)
    aside: bool = False  # it says it is an aside ("by the way", "another thing:", "unrelated")
    setting: bool = False  # a line of a pasted config or command line (`resolution = "768,768"`, `--cache_latents`)
    names: tuple[str, ...] = ()  # a setting line's flags, keys and paths (`pasted.setting_names`): no prose
    spec: bool = False  # an environment line ("RTX 3090 24GB, 64GB RAM, Windows 11", "RAM: 32GB"; `wrapped.spec_line`)
    update: bool = False  # an update of the post ("EDIT: still happens"; `wrapped.update_line`)
    routine: bool = False  # a line of a template's routine ("1. Start the job with my config"; `wrapped.routine_lines`)


@dataclass(frozen=True, slots=True)
class Reading:
    lang: str | None
    tokens: list[Token]
    sentences: tuple[Sentence, ...]
    reach: int  # words a hypothetical or a negation reaches, in the text's language
    past: frozenset[int]  # tokens told as past ("last week it OOMed at step 2")
    reaching: tuple[tuple[int, int, int], ...]  # (first token, end, direction) of each hypothetical or negation
    of: tuple[int, ...]  # per token, its sentence
    elided: frozenset[int] = frozenset()  # tokens of elided letters (French `d'`): not counted in the reach
    # (clause start, marker start, marker end, gone) of "bug solved", ...; gone: a marker of a thing gone ("sumiu")
    settled: tuple[Settled, ...] = ()
    causes: Causes = ()  # (start, end, forward) of each clause of cause (`reached`)
    denials: tuple[tuple[int, int, int], ...] = ()  # (first token, end, direction) of each negation marker

    def over(self, hits: list[Hit], events: bool = False) -> frozenset[int]:
        """The tokens told as past, and those a marker of a settled state closes ("the OOM is solved", "it runs
        fine"): its clause up to it. A marker inside a longer phrase of the vocabulary is read as that phrase ("runs
        fine for a while" tells an OOM that comes and goes). A marker of a thing gone ("sumiu", "a disparu") closes
        only the failures told before it (`events`: "o OOM no step 2 sumiu"), never a thing gone from the image ("o
        rosto sumiu nas amostras" is a weak result, still told)."""
        if not self.settled:
            return self.past
        phrases = [(h.start, h.end) for h in hits if h.end - h.start > 1]
        out = set(self.past)
        for clause, start, end, gone in self.settled:
            if gone and not events:
                continue
            if not any(a < end and start < b and (a < start or b > end) for a, b in phrases):
                out.update(range(clause, end))
        return frozenset(out)

    def reached(self, hits: list[Hit]) -> frozenset[int]:
        """The tokens a hypothetical or a negation reaches ("I'm afraid of an OOM", "no OOM", `OOM은 없어요`):
        up to `reach` words after it (or before it), within its clause, never across a clause of cause ("worried
        because it OOMs", "OOM이 나서 걱정": the reason is told). A marker inside a longer phrase of the
        vocabulary is read as that phrase ("didn't fix", "doesn't stop": the failure goes on), unless that phrase is
        a negation itself ("no tengo OOM", "não tenho OOM": the OOM is denied)."""
        if not self.reaching:
            return frozenset()
        phrases = [(h.start, h.end) for h in hits if h.end - h.start > 1 and h.concept != _NEGATION]
        out: set[int] = set()
        for start, end, direction in self.reaching:
            # the marker is part of a longer phrase, unless that phrase's last words start another one running past
            # it (Spanish "no se cae": "no se" would be "no sé", but "se cae" is the verb the "no" denies)
            if any(a < end and start < b and (a < start or b > end)
                   and not any(end <= c < b < d for c, d in phrases) for a, b in phrases):
                continue
            out.update(range(end, self._bound(end, direction)) if direction > 0 else
                       range(self._bound(start, direction), start))
        return frozenset(out)

    def _bound(self, i: int, direction: int) -> int:
        """The end (direction 1) or the start (-1) of what a marker at `i` reaches in its clause."""
        sentence = self.sentences[self.sentence_of(min(i - (direction > 0), len(self.tokens) - 1))]
        if direction > 0:
            ends = (*sentence.clauses, *(a for a, _, f in self.causes if f and a <= sentence.end))
            stop = min((c for c in ends if c >= i), default=sentence.end)
            return stop if direction > 1 else min(stop, self._words_from(i, 1))
        start = max((*(c for c in sentence.clauses if c <= i - 1), *(b for _, b, _ in self.causes if b <= i)),
                    default=sentence.start)
        return max(start, sentence.start, self._words_from(i, -1))

    def _words_from(self, i: int, direction: int) -> int:
        """Where `reach` words from `i` end (direction 1) or start (-1), elided letters not counted as words."""
        if not self.elided:
            return i + direction * self.reach
        k, words = i, 0
        while words < self.reach and 0 <= k - (direction < 0) < len(self.tokens):
            words += (k - (direction < 0)) not in self.elided
            k += direction
        return k

    def sentence_of(self, i: int) -> int:
        """The sentence of token `i` (the last one for a position past the end)."""
        return self.of[i] if i < len(self.of) else len(self.sentences) - 1

    def asked(self) -> frozenset[int]:
        """The tokens of the sentences that end in a question mark ("GC is off. Why does it OOM?")."""
        return frozenset(i for s in self.sentences if s.marked for i in range(s.start, s.end))


# --- reading -------------------------------------------------------------------------------------------------


def read_sentences(
    reader: SentenceReader, prose: str, hint: str | None = None, lead: str | None = None, c: Caches = NO_CACHE,
    limits: WorkLimits = DEFAULT_LIMITS, routine: frozenset[str] = frozenset(),
) -> Reading:
    """The text's language and the tokens of the sentences that fill the budget, with each one's status (`routine`: the
    lines of a template's routine sections, `wrapped.routine_lines`). As the analyzer does, a text is read within its
    first `tokens x 64` characters."""
    analyzer = reader.analyzer
    texts, clauses, words, seen, (tag, title) = _split(reader, prose, limits.tokens)
    lang = analyzer.detect_language(split_tokens(normalize(lead))[: SCAN * limits.tokens] if lead else seen, hint)
    language = reader.language(lang)
    join_separable(analyzer.profiles.get(lang or ""), texts, clauses, words)
    chosen, cued = _choose(words, texts, language, analyzer, limits.tokens)
    tokens: list[Token] = []
    sentences: list[Sentence] = []
    corrections = limits.corrections
    titled = -1  # the title's sentence
    for k in sorted(chosen):
        start = len(tokens)
        ends = []
        left = chosen[k]
        for part in clauses[k]:
            part = part[:left]
            if not part:
                continue
            left -= len(part)
            if len(tokens) > start:
                ends.append(len(tokens))
            read, corrections = analyzer.read(part, lang, c, limits, corrections)
            tokens.extend(read)
        if len(tokens) == start:
            continue
        # a Korean question's asking ending is its mark (`GC 끄면 얼마나 빨라지나요`: a switch asked about, no state)
        marked = "?" in texts[k] or "\uff1f" in texts[k] or _ends_asking(words[k], language)
        question, setting = marked, setting_line(texts[k])
        wrapping, titled = reader.wrapping, len(sentences) if k == title else titled
        sentences.append(Sentence(start, len(tokens), question, marked, k in cued, tuple(ends), setting=setting,
                                  names=setting_names(texts[k]) if setting else (),
                                  spec=spec_line(texts[k], wrapping), update=update_line(texts[k], wrapping),
                                  routine=bool(routine) and in_routine(texts[k], routine)))
    past, reaching, asking, aside, settled, caused, denials = _status(tokens, sentences, language)
    if 0 <= titled < len(sentences):  # a solved title's events are past; a question's title asks
        past = past | frozenset(range(sentences[titled].start, sentences[titled].end)) if tag == SOLVED else past
        asking[titled] = asking[titled] or tag == QUESTION
    # a sentence the markers change is copied, the others are kept
    sentences = [s._replace(question=s.question or asking[k], aside=aside[k])
                 if (asking[k] and not s.question) or aside[k] else s for k, s in enumerate(sentences)]
    of = tuple(k for k, s in enumerate(sentences) for _ in range(s.start, s.end))
    elided = frozenset(i for i, t in enumerate(tokens) if t.text in language.elided) if language.elided else frozenset()
    return Reading(lang, tokens, tuple(sentences), language.reach, past, reaching, of, elided, settled, caused, denials)


def _split(reader: SentenceReader, prose: str, budget: int) -> _Split:
    """The sentences' words, clause by clause (normalized once), up to `SCAN` budgets of words (thousands of one-word
    sentences cost no more than a long post), and the title's tag ("[Solved] ...", `wrapped.title_parts`)."""
    texts: list[str] = []
    clauses: list[list[list[str]]] = []
    words: list[list[str]] = []
    seen: list[str] = []
    tag, title = "", -1
    for piece in split_sentences(prose[: budget * 64], reader):
        if len(seen) >= SCAN * budget:
            break
        kind, pieces = title_parts(piece, reader.wrapping) if not texts else ("", (piece,))
        if kind:
            tag, title = kind, len(texts) + len(pieces) - 1
        for text in pieces:
            texts.append(text)
            clauses.append([split_tokens(normalize(part)) for part in _CLAUSE.split(text)])
            words.append([w for part in clauses[-1] for w in part])
            seen.extend(words[-1])
    return texts, clauses, words, seen, (tag, title)


def _ends_asking(words: Sequence[str], language: Language) -> bool:
    """A Korean question without a question mark: its last Hangul word ends asking (`~까요`, `~나요`)."""
    for word in reversed(words):
        if is_hangul(word):
            return word.endswith(language.question_endings) if language.question_endings else False
    return False


def _choose(
    words: list[list[str]], texts: list[str], language: Language, analyzer: Analyzer, budget: int,
) -> tuple[dict[int, int], frozenset[int]]:
    """Sentence index -> how many of its words are read, and the sentences found to hold a symptom word. A text
    within the budget is read whole; a longer one reads the sentences that matter first: its questions, its first
    sentence (a post's title or lead), the sentences with a symptom word told as the present state ("now it OOMs at
    step 3"), the other ones with a symptom word, the other ones of the present, then the rest, each in the text's
    order (`words` holds `SCAN` budgets of words at most)."""
    if sum(len(w) for w in words) <= budget:
        return {k: len(w) for k, w in enumerate(words)}, frozenset()
    asking = {k for k, t in enumerate(texts) if "?" in t or "\uff1f" in t or _ends_asking(words[k], language)}
    marks = [cheap_marks(w, language, analyzer) for w in words]
    cued = frozenset(k for k in range(len(words)) if k not in asking and marks[k][0])

    def weight(k: int) -> tuple[int, int]:
        cue, now = marks[k]
        return (0 if k in asking else 1 if k == 0 else 2 if cue and now else 3 if cue else 4 if now else 5), k

    chosen: dict[int, int] = {}
    left = budget
    for k in sorted(range(len(words)), key=weight):
        if left <= 0:
            break
        chosen[k] = min(len(words[k]), left)
        left -= chosen[k]
    return chosen, cued


def _status(
    tokens: list[Token], sentences: list[Sentence], language: Language,
) -> tuple[frozenset[int], tuple[tuple[int, int, int], ...], list[bool], list[bool], tuple[Settled, ...], Causes,
           tuple[tuple[int, int, int], ...]]:
    """The tokens told as past; each hypothetical or negation marker (start, end, direction); per sentence,
    whether a question marker is in it, and whether an aside marker is; the clauses of cause (`causes`); the
    negation markers of those.

    A marker of the past makes past the words of its clause between markers of the present or a contrast ("I used
    to get OOMs but now it is slow"; "OOM at step 3 but it used to work fine": the OOM is now); a marker alone in
    its clause ("Previously, it OOMed") the rest of the sentence.
    Another clause keeps its own time ("it worked before the update, after it OOMs at step 1": present). A marker
    of a settled state ("bug solved", "runs fine") makes past its clause up to itself: "it runs fine for 600 steps,
    then OOMs" still tells the OOM; a marker of a fix ("I fixed the", "ya resolví") its clause after itself.
    Long on purpose: one pass over each sentence's markers, every kind read where its neighbours are known."""
    past: set[int] = set()
    settled: list[Settled] = []
    reaching: list[tuple[int, int, int]] = []
    caused: list[tuple[int, int, bool]] = []
    denials: list[tuple[int, int, int]] = []
    asking = [False] * len(sentences)
    aside = [False] * len(sentences)
    opened = 0
    for k, s in enumerate(sentences):
        marks = markers(tokens, s.start, s.end, language)
        if not marks:
            continue  # (most sentences: nothing asked, aside, past, reached or caused)
        asking[k] = any(kind == "question" for _, kind, _ in marks)
        aside[k] = any(kind == "aside" and (end - i > 1 or i - s.start < ASIDE_OPENS) for i, kind, end in marks)
        bounds = (s.start, *s.clauses, s.end)
        presents = [i for i, kind, _ in marks if kind in _NOW]
        present_ends = [end for _, kind, end in marks if kind in _NOW]
        # a frequency ends no past and keeps no failure ("hatte letzte Woche ständig OOM, hab es wieder eingeschaltet")
        stops = [i for i, kind, _ in marks if kind == "present"]
        told_past: list[int] = []  # where each past marker's reach starts
        for i, kind, end in marks:
            if kind not in ("settled", "gone", "fixed", "past", "reverted"):
                continue
            c = max(n for n in range(len(bounds) - 1) if bounds[n] <= i)
            if kind != "past":
                # "the OOM is solved", "training runs fine": what the clause told up to the marker is over; "I fixed
                # the OOM by lowering the batch", "ya resolví el OOM": what it tells after the marker, up to a marker
                # of the present; unless denied before it ("not solved") or asked ("is it fixed?")
                denied = any(bounds[c] <= j < i and other in ("negation", "negation_after") for j, other, _ in marks)
                if _asked_in(s.question, marks, bounds, c) or denied:
                    continue
                if kind == "reverted":
                    # a setting put back ("OOM, so I turned it back on"): the failures before it, unless "still" first;
                    # one that opens its sentence, those of the sentence before ("OOMs with GC off. Turned it back on,
                    # it trains now")
                    if not any(p < i for p in stops):
                        settled.append((opened if c == 0 else s.start, i, end, True))
                elif kind != "fixed":
                    # after a past marker, from where that one reaches ("OOM at step 3 every time it used to work
                    # fine": the OOM is now), and a few reaches back at most
                    starts = [e for e in (*present_ends, *told_past) if bounds[c] <= e <= i] or [bounds[c]]
                    settled.append((max(*starts, i - SETTLED_REACH * language.reach), i, end, kind == "gone"))
                else:
                    past.update(range(end, min([p for p in presents if end <= p] + [bounds[c + 1]])))
                continue
            start, stop = bounds[c], bounds[c + 1]
            start = max([e for e in present_ends if start <= e <= i] or [start])
            if start == i and end == stop:
                stop = s.end  # "Previously, ...": the marker alone in its clause sets the time of the sentence
            elif end < stop:
                # a marker before its verb ("it used to work fine") reaches back a few words only: a text with no
                # full stops runs the failure told before it into its clause ("OOMs at step 2 it used to work fine")
                start = max(start, i - language.reach)
            stop = min([p for p in stops if end <= p < stop] or [stop])
            told_past.append(start)
            past.update(range(start, stop))
        reaching.extend((i, end, _REACH[kind]) for i, kind, end in marks if kind in _REACH)
        denials.extend((i, end, _REACH[kind]) for i, kind, end in marks if kind in ("negation", "negation_after"))
        if any(kind in _REACH for _, kind, _ in marks):
            caused.extend(causes(tokens, s.start, s.end, marks, language))
        # where the failures this sentence tells start, after its last marker of the present (`reverted`, next one)
        opened = max([s.start, *(end for _, kind, end in marks if kind == "present")])
    return frozenset(past), tuple(reaching), asking, aside, tuple(settled), tuple(caused), tuple(denials)



def _asked_in(question: bool, marks: list[tuple[int, str, int]], bounds: tuple[int, ...], c: int) -> bool:
    """A marker's clause `c` is asked about: a question marker in it, or the sentence's question mark closes it (its
    last clause: "is it fixed?"); "o OOM sumiu mas agora ... como acelerar?" tells the OOM gone, asks of speed."""
    return (question and c == len(bounds) - 2) or any(
        bounds[c] <= i < bounds[c + 1] and kind == "question" for i, kind, _ in marks)
