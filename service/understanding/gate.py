"""The gate (engine layer): what a text only names as something to avoid or as part of another subject's name
does not count, a side remark on another subject does not veto the symptom another sentence tells, and a text is
in the guide's domain only with a domain concept and no other subject.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from ..content.models import Avoided
from ..content.sentence_models import Spill
from .analysis import Token
from .lexicon import Hit
from .logs import LogReading
from .quiet_lines import without
from .sentences import Reading

T = TypeVar("T")

Outside = tuple[tuple[frozenset[str], frozenset[str]], ...]  # (any of these, unless one of these)
Implies = tuple[tuple[frozenset[str], str], ...]  # (all of these, then this)


def in_domain(present: frozenset[str], log: LogReading, domain: frozenset[str], outside: Outside) -> bool:
    """A domain concept, no other subject (unless the training job is named too), and no failure of another
    kind: a host-RAM kill, a CUDA error that is not out-of-memory, a Python error (the guide does not apply)."""
    other_failure = log.not_gpu_oom is not None and not log.gpu_oom
    return not other_failure and not present.isdisjoint(domain) and _held(_SCANS, (id(outside), present), outside, (
        lambda: all(present.isdisjoint(subject) or not present.isdisjoint(unless) for subject, unless in outside)))


def _held(table: dict[Any, tuple[Any, T]], key: Any, rules: object, compute: Callable[[], T]) -> T:
    """`compute()`, pure in the index's `rules` and `key`'s concept sets, kept in `table` (`IMPLIED_MEMO` bound)."""
    if (held := table.get(key)) is None or held[0] is not rules:  # (the entry holds the rules: the id is theirs)
        if len(table) >= IMPLIED_MEMO:
            table.clear()
        held = table[key] = (rules, compute())
    return held[1]


def outside_phrases(subjects: frozenset[str], wholes: frozenset[str], hits: list[Hit]) -> list[Hit]:
    """Hits inside a phrase of another subject, or of a concept read whole, say nothing of their own: in "learning
    rate" the word "rate" (French "raté", weak) is part of the name of something the guide does not cover, and in
    "with default settings" the word "with" switches nothing on. A subject's own hit stays inside another subject's
    phrase, not inside a phrase read whole ("negative prompt": no caption), nor inside a longer phrase of the guide's
    ("block swap", the low-memory path, is no mention of the host's swap)."""
    spans = {(h.start, h.end) for h in hits if h.end - h.start > 1 and h.concept in subjects}
    whole = {(h.start, h.end, h.concept) for h in hits if h.end - h.start > 1 and h.concept in wholes}
    inner = {(h.start, h.end) for h in hits if h.end - h.start > 1 and h.concept not in subjects}
    if not spans and not whole and not inner:
        return hits
    return [h for h in hits
            if (not any(a <= h.start and h.end <= b and b - a > h.end - h.start for a, b in inner)
                if h.concept in subjects else not any(a <= h.start and h.end <= b for a, b in spans))
            and not any(a <= h.start and h.end <= b and c != h.concept for a, b, c in whole)]


def unavoided(rules: tuple[Avoided, ...], reading: Reading, hits: list[Hit]) -> list[Hit]:
    """The hits without those a rule of `intents.yaml` `avoided` says are only named as something to avoid. A rule
    held to its clause (`sentence`) reaches no word past the start of another clause or sentence: in "OOM
    every time. GC is on" the "every" of a saved file ("every checkpoint") says nothing of the next sentence's GC."""
    names = {h.concept for h in hits}
    tokens, clauses = reading.tokens, frozenset[int]()
    for rule in rules:
        if (rule.when and names.isdisjoint(rule.when)) or rule.by not in names:
            continue
        if rule.sentence and not clauses:  # (read once, and only for a rule held to its clause that applies)
            sentences = reading.sentences
            clauses = frozenset(c for s in sentences for c in s.clauses) | {s.start for s in sentences[1:]}
        bounds = clauses if rule.sentence else frozenset()
        stops = {i for h in hits if h.concept in rule.stop for i in range(h.start, h.end)}
        avoided: set[int] = set()
        for by in (h for h in hits if h.concept == rule.by):
            # What is avoided follows the word ("without OOM"); in Korean it comes before it ("OOM 없이").
            korean = tokens[by.start].hangul and not rule.after_in_korean
            span = range(by.start - 1, by.start - 1 - rule.span, -1) if korean else range(by.end, by.end + rule.span)
            if rule.after and not any(h.concept in rule.after and h.start in span for h in hits):
                continue
            if rule.inside:
                avoided.update(range(by.start, by.end))
            for i in span:
                if i in stops or (i + 1 if korean else i) in bounds:
                    break
                avoided.add(i)
        if avoided:
            hits = [h for h in hits if h.concept not in rule.drop or h.start not in avoided]
            names = {h.concept for h in hits}
    return hits


def side_remarks(
    asides: frozenset[str], subjects: frozenset[str], told: frozenset[str], implies: Implies, hits: list[Hit],
    reading: Reading,
) -> list[Hit]:
    """The hits without those of the sentences that only make a side remark: a sentence on a subject that may be
    mentioned aside (`intents.yaml` `sentences.asides`: prices, a feature request, an untaught setting), or on any
    other subject (`subjects`: another program, ...) in a sentence that says it is an aside ("also, unrelated: do
    LoRAs load in Forge?"), while a sentence of its own tells a symptom of the guide ("... OOM at step 3. By the
    way, is there a cheaper GPU?"). What else the remark says is no part of the symptom ("burning through credits"
    is no overcooked LoRA). The veto holds when the other subject is the only one, or is the question (a sentence
    that asks without saying it is an aside)."""
    by_sentence: dict[int, set[str]] = {}
    for h in hits:
        by_sentence.setdefault(reading.sentence_of(h.start), set()).add(h.concept)
    sentences = reading.sentences
    aside = {k for k, concepts in by_sentence.items()
             if not asides.isdisjoint(concepts) or (sentences[k].aside and not subjects.isdisjoint(concepts))}
    if not aside or not all(not sentences[k].question or sentences[k].aside for k in aside):
        return hits
    if not any(not told.isdisjoint(implied(concepts, implies)) for k, concepts in by_sentence.items()
               if k not in aside):
        return hits
    return [h for h in hits if reading.sentence_of(h.start) not in aside]


def spilled(rules: tuple[Spill, ...], log: LogReading, reading: Reading, hits: list[Hit]) -> list[Hit]:
    """The hits without the memory told as full where it only explains a slowness told in its sentence (`intents.yaml`
    `sentences.spills`): "when the VRAM fills up the steps go from 2 s/it to 40 s/it, no crash" tells a slow run, no
    out-of-memory; a crash or an error told anywhere in the text (or an OOM log) keeps the memory's failure."""
    if log.gpu_oom:
        return hits
    for rule in rules:
        slow = {reading.sentence_of(h.start) for h in hits if h.concept in rule.slowness
                and (h.concept not in rule.figured or (h.start > 0 and _figure(reading.tokens[h.start - 1])))}
        memory = [h for h in hits if h.concept in rule.memory and reading.sentence_of(h.start) in slow]
        if not memory:
            continue
        # a failure word of the memory's own phrase ("VRAM is full" is also read as an OOM) is that phrase
        inside = {h for h in hits if h.concept in rule.failure
                  and any(m.start <= h.start and h.end <= m.end for m in memory)}
        if any(h.concept in rule.failure and h not in inside for h in hits):
            continue
        gone = set(memory) | inside
        hits = [h for h in hits if h not in gone and not (h.concept in rule.memory and any(
            m.start <= h.start and h.end <= m.end for m in memory))]
    return hits


def implied(concepts: Iterable[str], implies: Implies) -> set[str]:
    """Concepts and those `intents.yaml` `implies` adds ("memory" + "crash" is an OOM).

    A pure function of the index's rules and a small set of concept names, remembered (`_IMPLIED`): a query calls it
    for each sentence and each reading of its concepts (~8 times, ~5 us each over the ~150 rules)."""
    given = frozenset(concepts)
    added: tuple[str, ...] = _held(_IMPLIED, (id(implies), given), implies, lambda: _adds(given, implies))
    return set(given).union(added)


def _adds(given: frozenset[str], implies: Implies) -> tuple[str, ...]:
    """What the `implies` rules add to `given`, each rule seeing what the earlier ones added."""
    out = set(given)
    for needed, then in implies:
        if needed <= out:
            out.add(then)
    return tuple(out - given)


IMPLIED_MEMO = 2048  # entries of a memo table at most (~1 KB each; ~460 sets of concepts on queries.yaml in `_IMPLIED`)
_IMPLIED: dict[Any, tuple[Any, tuple[str, ...]]] = {}
_SCANS: dict[Any, tuple[Any, bool]] = {}  # `in_domain`'s and `title_veto`'s scans of their rules (`_held`)


def title_veto(title: frozenset[str], features: frozenset[str], outside: Outside,
               vetoes: frozenset[str] | None = None) -> bool:
    """True when a text's title names one of `vetoes` (subjects of `outside`, every one without `vetoes`: a bug
    report, a feature request, the computer's RAM) and neither the title nor the log's features tell one of that
    rule's exceptions: the title says what the text is about, its body's words are that subject's context."""
    return _held(_SCANS, (id(outside), title, features, vetoes), outside, lambda: any(
        not title.isdisjoint(subject if vetoes is None else subject & vetoes)
        and (title | features).isdisjoint(unless) for subject, unless in outside))


def opening(hits: list[Hit], reading: Reading, implies: Implies, titled: bool, post_words: int) -> frozenset[str]:
    """The concepts a post's opening sentence tells (and those they imply): the first sentence after its title line
    (`titled`), else the first of a text of `post_words` words or more ("After a lot of trial and error, I found the
    automagic optimizer is the way to go"); a short text has none (a query is its own topic)."""
    k = 1 if titled else 0
    if k >= len(reading.sentences) or not (titled or (post_words and len(reading.tokens) >= post_words)):
        return frozenset()
    return frozenset(implied((h.concept for h in hits if reading.sentence_of(h.start) == k), implies))


def told_hits(hits: list[Hit], reading: Reading, form: Collection[int] = ()) -> list[Hit]:
    """The hits a text tells as what it is about (`answers.answer_search` grounds its hits on their concepts): those
    of a question, and those told as the present state, outside a pasted setting line and outside a side question when
    another sentence tells something ("btw, is there a cheaper GPU?"; an "also" in a statement is no side remark:
    "GC is on, low_vram also, and it still OOMs"). What is told only as past or as settled ("the OOM I had last week",
    "bug solved") is the story, not what is asked; nor is what the `form` sentences name (a template's quiet routine
    lines and the machine's: "- GPU: RTX 3090 24GB" is no question on the card)."""
    sentences = reading.sentences
    if form:
        hits = [h for h in hits if reading.sentence_of(h.start) not in form]
    asides = {k for k, s in enumerate(sentences) if s.aside and s.question}
    if asides and all(reading.sentence_of(h.start) in asides for h in hits):
        asides = set()  # a text that is only a side remark is what it asks
    over = reading.over(hits)
    out = []
    for h in hits:
        k = reading.sentence_of(h.start)
        if k not in asides and not sentences[k].setting and (h.start not in over or sentences[k].question):
            out.append(h)
    return out


def figure_units(
    hits: list[Hit], reading: Reading, figures: frozenset[str], numbered: frozenset[str],
) -> frozenset[str]:
    """The concepts of `figures` said only as the unit of a figure in their clause ("24GB VRAM", "64 GB RAM": the card
    or the computer, not its memory as a subject; a short linking word may stand between: "24 GB of VRAM"); the number
    of a setting (a hit of `numbered`: "batch 4, VRAM full") is no figure."""
    sentences, tokens = reading.sentences, reading.tokens
    setting_numbers = {h.end for h in hits if h.concept in numbered}
    units: set[int] = set()  # the tokens of the hits that are a figure's unit ("12 GB VRAM": "GB", then "VRAM")
    said: set[str] = set()
    for h in sorted(hits, key=lambda h: h.start):
        before, k = h.start - 1, reading.sentence_of(h.start)
        if before > sentences[k].start and len(tokens[before].text) <= 3 and tokens[before].text.isascii() \
                and not _figure(tokens[before]):
            before -= 1  # a short linking word: "24 GB of VRAM", "24GB de VRAM", "24 Go de VRAM"
        if (h.concept in figures and before >= sentences[k].start and h.start not in sentences[k].clauses
                and (before in units or (_figure(tokens[before]) and before not in setting_numbers))):
            units.update(range(h.start, h.end))
        elif h.concept in figures:
            said.add(h.concept)
    return frozenset(h.concept for h in hits if h.start in units) - said


def _figure(token: Token) -> bool:
    """A figure in digits, with or without its unit ("24", "24gb", "23.5", "12기가"); not a number word ("하나")."""
    return token.text[:1].isdigit()


def alone(words: Mapping[str, str], reading: Reading, hits: list[Hit]) -> list[Hit]:
    """The hits with those of `words` (`sentences.alone`) told as the whole first sentence of the text turned into their
    concept ("Solved!" heading a post is `solved`) and the others left out ("the fix which solved it for others")."""
    if not words or not any(h.concept in words for h in hits):
        return hits
    first = reading.sentences[0] if reading.sentences else None
    out = []
    for h in hits:
        if h.concept not in words:
            out.append(h)
        elif first is not None and h.start == first.start and h.end == first.end:
            out.append(Hit(words[h.concept], h.start, h.end))
    return out


def stated_only(concepts: Iterable[str], negation: str, reading: Reading, hits: list[Hit]) -> list[Hit]:
    """The hits without those of `concepts` (`sentences.stated_only`) in a sentence that asks or denies: "how do I
    fix it?", "is it solved now?", "it's not fixed" say nothing is solved, while "fixed it, thanks" does."""
    only = frozenset(concepts)
    if not only or not any(h.concept in only for h in hits):
        return hits
    unstated = {k for k, sentence in enumerate(reading.sentences) if sentence.question}
    unstated |= {reading.sentence_of(h.start) for h in hits if h.concept == negation}
    return without(only, unstated, reading, hits)


# What a text's questions are about (`asked`): a subject of the guide, only other subjects, or nothing asked in a post.
ASKS_GUIDE, ASKS_ELSEWHERE, ASKS_NOTHING = "asks-guide", "asks-elsewhere", "asks-nothing"
ASKS_STORY = "asks-story"  # a post whose questions name no subject ("any ideas?"): they ask of its story alone


@dataclass(frozen=True, slots=True)
class SearchWording:
    """The concepts `asked` weighs (`intents.yaml`): the subjects FAQ entries and sections rest on, those that say only
    where or how a thing is set, the subjects the guide does not answer, and the words that make a sentence ask."""

    subjects: frozenset[str]
    generic: frozenset[str]
    elsewhere: frozenset[str]
    asking: frozenset[str]
    states: frozenset[str]  # what a question asks of the story's setting with ("for a first run?"): the guide's
    refers_back: frozenset[str]  # a pronoun standing for the story's setting ("where is that option?")
    post_words: int  # a text of this many words read is a post (0: none is)
    own_words: int  # a question of this many words names a subject of its own (0: none does)


def asked(told: list[Hit], reading: Reading, implies: Implies, wording: SearchWording, units: frozenset[str],
          across: Implies = (), about: frozenset[str] = frozenset()) -> str:
    """What the text asks about, from the concepts each asking sentence tells (a question, or a sentence holding a
    word of `wording.asking`: "no idea why GC is off"; `told_hits`, and what they imply there; a figure's unit is
    none): `ASKS_GUIDE` when one names a subject an FAQ entry or a section of the guide rests on (`wording.subjects`:
    GC, memory, speed, ...; one of `wording.generic`, where or how a thing is set, only beside no other subject:
    "where does the toolkit save the LoRA?" asks of a file; a dataset's trigger word is no such subject),
    `ASKS_ELSEWHERE` when they name only subjects the guide does not answer (`wording.elsewhere`: "why is the loss
    going up?") or one of `wording.own_words` words names none of the guide's (where a thing is set counts only in a
    shorter one), `ASKS_NOTHING` for a text of several sentences none of which asks, `ASKS_STORY` for a post
    (`wording.post_words`) whose questions name no subject ("any ideas?"), and "" for a shorter one ("is that true?"
    refers back to what it tells) or one sentence (a query is its own question). A question that names no subject of
    the guide but one of `wording.states` ("does it make sense for a first run?") asks of the guide, and one that
    names a part of a name the text implies `across` sentences (`about`: "where" beside a config named before it)
    names that."""
    sentences = reading.sentences
    by_sentence: dict[int, set[str]] = {k: set() for k, s in enumerate(sentences) if s.question and not s.setting}
    by_sentence.update((reading.sentence_of(h.start), set()) for h in told if h.concept in wording.asking)
    # the post's own sentences: a template's routine lines and the machine's are the form's ("- GPU: RTX 3090 24GB"),
    # an update line that asks nothing says the problem goes on ("EDIT: still happens")
    own = [s for s in sentences if not (s.spec or s.routine or (s.update and not s.question))]
    words = sum(s.end - s.start for s in own)
    if not by_sentence:
        # a post of several sentences, or one long run-on sentence, that asks nothing; a short query is its own question
        post = bool(wording.post_words) and words >= wording.post_words
        return ASKS_NOTHING if len(own) > 1 or post else ""
    for h in told:
        k = reading.sentence_of(h.start)
        if k in by_sentence:
            by_sentence[k].add(h.concept)
    subjects, elsewhere, states, generic = wording.subjects - wording.generic, wording.elsewhere, wording.states, \
        wording.generic
    asks = ""
    for k, concepts in by_sentence.items():
        named = (implied(concepts, implies) | {then for parts, then in across if then in about
                                               and not parts.isdisjoint(concepts)}) - units
        # a question of many words that names no subject of the guide names one of its own, which the guide does not
        # know ("is there a way to run two jobs at once on one card?"); one that refers back is short ("is it true?")
        # or names its pronoun ("where is that option in the RunComfy interface?")
        long = bool(wording.own_words) and sentences[k].end - sentences[k].start >= wording.own_words \
            and wording.refers_back.isdisjoint(concepts)
        # a state asked ("for a first run?") is the guide's beside no other subject; where a thing is set, in a short
        # question ("where do I change it?", not "where do I put my Hugging Face token?")
        beside = (states if long else states | generic) if elsewhere.isdisjoint(named) else frozenset()
        if not subjects.isdisjoint(named) or not beside.isdisjoint(named):
            return ASKS_GUIDE
        if long or not elsewhere.isdisjoint(named):
            asks = ASKS_ELSEWHERE
    if asks:
        return asks
    return ASKS_STORY if wording.post_words and words >= wording.post_words else ""
