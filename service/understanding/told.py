"""What the sentences change (understanding layer): the hits told as the present state, near the failure they
qualify (`intents.yaml` `sentences`), from a text's reading (`sentences.read_sentences`)."""

from __future__ import annotations

from ..content.sentence_models import Courtesy
from .analysis import Token
from .lexicon import Hit
from .sentence_reader import SentenceReader
from .sentences import Reading


def told_now(reader: SentenceReader, reading: Reading, hits: list[Hit]) -> list[Hit]:
    """The hits without the events told only as past, supposed or denied ("a past OOM in a post about speed",
    "I'm afraid of an OOM", "it didn't crash"): those are not the present state; nor is what a sentence of courtesy
    names (`courtesies`), what a change told before a settled state remedied (`remedied`), what a request asks for
    (`wished`), a question's second option (`alternatives`) or a
    speed told as fine (`fine_speeds`)."""
    hits = remedied(reader, reading, courtesies(reader.rules.courtesy, reading, hits))
    hits = fine_speeds(reader, reading, alternatives(reader, reading, wished(reader, reading, hits)))
    events = reader.rules.events
    if not events or not (reading.past or reading.reaching or reading.settled):
        return hits
    reached = reading.reached(hits)
    gone = set(reading.over(hits, events=True) | reached)
    # a phrase a reach runs into goes whole ("CUDA out of memory 에러는 없고": its "cuda" too); not one that holds the
    # marker ("no me alcanza": the memory lacking, told)
    gone.update(h.start for h in hits if h.concept in events and h.end - h.start > 1
                and not reached.isdisjoint(range(h.start, h.end))
                and not any(h.start <= m < h.end for m, _, _ in reading.reaching))
    # a hit inside a phrase that is gone goes with it ("worried I'll run out of memory": its "out of memory" too), and
    # so does one that starts inside it or right after it in its clause ("no CUDA out of memory error": its "memory
    # error"), as does the name after an error denied (`sentences.denies`: "sin ningún error de CUDA out of memory")
    denies = frozenset(reader.rules.denies)
    spans = [(h.start, h.end) for h in hits if (h.concept in events and h.start in gone) or h.concept in denies]
    for h in sorted(hits, key=lambda h: h.start):
        if h.concept in events and h.start not in gone and any(_joins(reading, a, b, h.start) for a, b in spans):
            gone.add(h.start)
            spans.append((h.start, h.end))
    return [h for h in hits if h.concept not in events or h.start not in gone]


def _joins(reading: Reading, a: int, b: int, i: int) -> bool:
    """Whether a hit starting at `i` is part of the phrase `a`..`b`: inside it, or right after it in its clause (one
    short linking word between at most: "error de CUDA", "erreur du GPU")."""
    if a <= i < b:
        return True
    if not (b <= i <= b + 1) or reading.sentence_of(i) != reading.sentence_of(b - 1):
        return False
    clauses = reading.sentences[reading.sentence_of(i)].clauses
    return i not in clauses and not (i == b + 1 and (b in clauses or len(reading.tokens[b].text) > 3))


def near_the_failure(reader: SentenceReader, reading: Reading, hits: list[Hit]) -> list[Hit]:
    """The hits without the failure's qualifiers (`sentences.qualifiers`: when, where, how often it fails) told
    far from every sentence that tells the failure (more than `sentences.near` sentences away) and outside a pasted
    config line: in "I'm new to this (...) it crashed with CUDA out of memory", being new is no first-step OOM."""
    rules = reader.rules
    if not rules.qualifiers or len(reading.sentences) < 3:
        return hits
    failing = {reading.sentence_of(h.start) for h in hits if h.concept in rules.events}
    if not failing:
        return hits
    return [h for h in hits if h.concept not in rules.qualifiers or reading.sentences[reading.of[h.start]].setting
            or any(abs(reading.sentence_of(h.start) - k) <= rules.near for k in failing)]


def courtesies(rules: tuple[Courtesy, ...], reading: Reading, hits: list[Hit]) -> list[Hit]:
    """The hits without those of the sentences of courtesy (`sentences.courtesy`): a thanks that tells no event, result
    or speed ("Hi, thank you so much for the detailed guide!", "thanks for your wonderful job") names nothing of the
    problem; a thanks beside one ("thanks in advance, my lora looks nothing like her") keeps its sentence. So does a
    training told as finished well ("the training went fine, finished all 3000 steps"): what fails is elsewhere."""
    for rule in rules:
        thanked = {reading.sentence_of(h.start) for h in hits if h.concept in rule.by}
        if rule.needs:
            thanked &= {reading.sentence_of(h.start) for h in hits if h.concept in rule.needs}
        if not thanked:
            continue
        keeps = frozenset(rule.keeps)
        gone = thanked - {reading.sentence_of(h.start) for h in hits if h.concept in keeps}
        if gone:
            hits = [h for h in hits if reading.sentence_of(h.start) not in gone]
    return hits


def wished(reader: SentenceReader, reading: Reading, hits: list[Hit]) -> list[Hit]:
    """The hits without the events and the `sentences.wished` words a wish or a request governs (`sentences.wishes`):
    the rest of its clause ("please add an option to enable GC so 8GB cards don't run out of memory", "would be great
    to have a low VRAM mode to avoid CUDA out of memory"), or in Korean, which puts the request last, the clause before
    it (`메모리 부족이 안 나게 GC 켜는 옵션을 추가해 주세요`). What is asked for is no failure of the user's, nor a
    setting's state; a failure told in a clause of its own stays ("I get OOM on 8GB, can you add an option for GC?")."""
    rules = reader.rules
    wishes = [h for h in hits if h.concept in rules.wishes]
    if not wishes:
        return hits
    dropped = frozenset(rules.events) | frozenset(rules.wished)
    governed: set[int] = set()
    tokens, sentences = reading.tokens, reading.sentences
    for wish in wishes:
        sentence = sentences[reading.sentence_of(wish.start)]
        bounds = (sentence.start, *sentence.clauses, sentence.end)
        if tokens[wish.start].hangul:
            start = max((b for b in bounds if b <= wish.start), default=sentence.start)
            governed.update(range(start, wish.start))
        else:
            end = min((b for b in bounds if b >= wish.end), default=wish.end)
            governed.update(range(wish.end, end))
    return [h for h in hits if h.concept not in dropped or h.start not in governed]


def alternatives(reader: SentenceReader, reading: Reading, hits: list[Hit]) -> list[Hit]:
    """The hits without the events told as a question's second option (`sentences.alternatives`): up to
    `sentences.alternative_reach` words after the word between the options, in a sentence that asks ("can I train Wan
    on 16GB, or will it run out of memory?", `가능한가요, 아니면 메모리가 부족할까요?`). An option asked of is no event;
    one told before the options stays ("it OOMs at step 3, batch or resolution?")."""
    rules = reader.rules
    if not rules.alternatives:
        return hits
    sentences = reading.sentences
    ors = [h for h in hits if h.concept in rules.alternatives and sentences[reading.sentence_of(h.start)].question]
    if not ors:
        return hits
    events = frozenset(rules.events)
    reach = rules.alternative_reach
    return [h for h in hits if h.concept not in events or not any(
        0 <= h.start - o.end <= reach and reading.sentence_of(h.start) == reading.sentence_of(o.start) for o in ors)]


def fine_speeds(reader: SentenceReader, reading: Reading, hits: list[Hit]) -> list[Hit]:
    """The hits without the speed words of a sentence that tells the speed as fine (`sentences.fine`: "Training runs
    fine at 3 s/it on my 3090", `3 s/it로 잘 돌아가요`): its rate is a figure of the run, no slowness; a sentence that
    turns (`sentences.fine_unless`: "fine at first, but then 30 s/it"; a fine word ending in `sentences.fine_turns`:
    `잘 돌아가는데 너무 오래 걸려요`) keeps them."""
    rules = reader.rules
    turns, tokens = rules.fine_turns, reading.tokens
    fine = {reading.sentence_of(h.start) for h in hits if h.concept in rules.fine
            and not (turns and tokens[h.end - 1].text.endswith(turns))}
    if not fine:
        return hits
    fine -= {reading.sentence_of(h.start) for h in hits if h.concept in rules.fine_unless}
    fined = frozenset(rules.fined)
    return [h for h in hits if h.concept not in fined or reading.sentence_of(h.start) not in fine]


def remedied(reader: SentenceReader, reading: Reading, hits: list[Hit]) -> list[Hit]:
    """The hits without the events a change remedied (`sentences.remedies`): a change told before a settled state in
    its sentence ("I got OOM with batch 4, but with GC enabled it works fine", "Activé el GC y ahora va bien", `GC
    켜니까 잘 돌아가요`) closes the events told before the change, in its sentence or earlier ("Ayer me daba OOM."); not
    one the failure goes on after (`sentences.remedy_unless`: "I enabled GC and it still OOMs, works fine at 512")."""
    rules = reader.rules
    if not rules.remedies or not reading.settled:
        return hits
    events, remedies, unless = frozenset(rules.events), frozenset(rules.remedies), frozenset(rules.remedy_unless)
    supposed = reading.reached(hits)
    mentions = {h.end for h in hits if h.concept == "gc"}
    changed = -1  # the last change told before a settled state of its sentence
    for _, start, end, gone in reading.settled:
        if gone or start in supposed:
            continue  # "I'd like some directions on how to fix it": no state told
        first = reading.sentences[reading.sentence_of(start)].start
        # (a change the marker holds counts: "with GC enabled works")
        changes = [h.start for h in hits if h.concept in remedies and first <= h.start < end
                   and (h.start in mentions or not _preposition(reading.tokens[h.start], h))]
        if changes:
            changed = max(changed, min(changes))
    if changed < 0:
        return hits
    goes_on = [h.start for h in hits if h.concept in unless]
    return [h for h in hits if h.concept not in events or h.start >= changed
            or any(h.start < g < changed for g in goes_on)]


def _preposition(token: Token, hit: Hit) -> bool:
    """A one-word on/off word of up to four letters ("on", "with", "con", "mit"): a preposition, no change told,
    unless right after the GC mention ("turned GC on")."""
    return hit.end - hit.start == 1 and len(token.text) <= 4 and not token.hangul
