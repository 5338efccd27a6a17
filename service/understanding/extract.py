"""Context stated in free text: step, GC on/off, family, batch size, buckets, frames, control images, phase
(engine layer).

Works on analysed tokens and spotted concepts only, so it reads every language the vocabulary covers. A value is
stated only when the text asserts it about the job now: a question, wish, proposal or comparison about switching
GC ("should I turn it off?", "is GC on slower than off?") states nothing, and a batch position ("batch 361 of
1000") is no batch size.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

from .analysis import KOREAN_CLAUSE_ENDS, Token
from .gc_words import (
    across,
    answered_state,
    denied_across,
    dislocated,
    in_use,
    names_a_change,
    on_or_off_asked,
    preposition_before,
    short_word,
    skipping,
    story_now,
    switched_back,
    unsure,
)
from .gc_words import negated as negated_by
from .lexicon import Hit
from .preview_steps import cadences, preview_step_counts
from .stated_batch import batch_size
from .stated_numbers import count_near, earlier_run, failing_step, number_near, ranges
from .stated_sizes import BUCKET_SIZES, bucket_list, sizes_named

# Distance windows, in tokens (a hit's distance to another counts the tokens between them, plus one).
_WINDOW = 3  # the widest gap of one short clause: "GC is now off", "gradient checkpointing was already on"
_STATE_REACH = _WINDOW + 1  # an on/off word this close to a GC mention says its state
_PROPOSAL_REACH = 5  # "thinking about maybe switching GC off": a proposal governs a short clause after it
_PROPOSAL_BACK = 6  # in a question, what comes first is proposed: "GC off, is that a good idea?"
_KOREAN_PROPOSAL_BACK = 2  # Korean puts the proposal after the verb: `꺼도 될까요`
# Where the number of a fact is looked for: (tokens after the fact's word, tokens before it); the step's is in
# `stated_numbers`, the batch size's in `stated_batch`. "81 frames".
_FRAMES_NUMBER = (3, 2)
_NUMBERED = ("step", "batch", "frames", "bucket", "control")  # a number right after one is that fact's: "bs 4"


@dataclass(frozen=True, slots=True)
class Stated:
    """What the text states; None where it says nothing."""

    step: int | None = None
    largest_named: int | None = None
    gradient_checkpointing: bool | None = None
    batch_size: int | None = None
    resolutions: tuple[int, ...] | None = None
    num_frames: int | None = None
    control_images: int | None = None
    on_or_off: bool = False  # "on or off?", "on slower than off?": a question about the switch, not its state
    # Only a pasted setting states these (`pasted.read_settings`: `--gradient_accumulation_steps 4`).
    gradient_accumulation: int | None = None
    sample_every: int | None = None
    sample_steps: int | None = None
    sampling_disabled: bool | None = None
    low_vram: bool | None = None


_NONE: tuple[Hit, ...] = ()


def _by_concept(hits: list[Hit]) -> dict[str, list[Hit]]:
    """Hits grouped by concept, in text order (read once; the facts below look concepts up by name)."""
    spans: dict[str, list[Hit]] = {}
    for h in hits:
        spans.setdefault(h.concept, []).append(h)
    return spans


def gc_state(spans: dict[str, list[Hit]], tokens: list[Token], asked: frozenset[int], on_or_off: bool,
             starts: frozenset[int] = frozenset(), unowned: frozenset[int] = frozenset(),
             told_past: frozenset[int] = frozenset()) -> bool | None:
    """On/off said of gradient checkpointing: an on/off word near a GC mention, negation flips it (`gc_words.negated`).

    `asked` holds the positions of the tokens of the sentences that ask a question (`starts`, where each sentence
    starts: an advice question never reaches past its sentence, "Preciso de ajuda\nGC tá ligado"); `on_or_off` is
    `on_or_off_asked(spans)`, computed once by the caller. A word that only names a change asked about, wished or
    planned ("should I turn it off", "I'd like to disable", "does enabling GC hurt?") states nothing. A state
    that was ("it was off, now it's on"; "I had GC on, switched it off"), or told in a sentence's past (`told_past`:
    "last month I had OOMs with GC off, so now I keep GC on"; "I used to have GC off, but I turned it on"), gives way to
    one told after it; a state told now of a story's pronoun ("the last time I disabled it I got an OOM, so now I have
    it on") is GC's however far the mention is, when no other switch is named between them. A mention or an on/off word
    of another person's run or of a supposition (`unowned`, `own_run.not_own`) says nothing.
    Long on purpose: one pass over the on/off words, each read where its neighbours are known (the mention, a
    pronoun it stands for, a lasting state, a question, a proposal, a negation, a past marker).
    """
    gcs = spans.get("gc")
    if gcs and unowned:
        # a mention of another's run or a supposition says nothing, but a pronoun of the user's own story may still
        # stand for it ("I'm scared to turn GC off again ... Now I have it on")
        gcs = [g for g in gcs if g.start not in unowned] or [g for g in gcs if _story_after(g, spans, unowned)]
    if not gcs:
        return None
    if on_or_off or unsure(spans, gcs, tokens):
        return None  # "on or off?", "an oder aus", "켜기 vs 끄기": a question; "not sure if GC is on": no state
    negations = spans.get("negation", _NONE)
    nevers = spans.get("never", _NONE)
    proposals = spans.get("considering", _NONE)
    dreads = spans.get("dreaded", _NONE)  # a change feared ("afraid to turn GC off", "me da miedo quitar el GC")
    asks = spans.get("asks", _NONE)
    pasts = spans.get("past", _NONE)
    # a past, or a state told of the config file ("the config says GC is on, but I turned it off"): a later one wins
    superseded = (*pasts, *spans.get("file_state", _NONE))
    nows = spans.get("now", _NONE)
    # "now it's on", "I switched it off", "mas depois eu desliguei" (the object left out)
    story = [h for c in ("now", "it", "later") for h in spans.get(c, _NONE)]
    switches = {  # on/off words, not the phrases that hold the GC mention (`gc an`)
        h.start for c in ("on", "off") for h in spans.get(c, _NONE) if not any(h.start <= g.start < h.end for g in gcs)
    }
    # the words of a lasting state ("left it on by default", "von Anfang an", `처음부터`) count no distance
    lasting = frozenset(i for h in spans.get("lasting", _NONE) for i in range(h.start, h.end))
    prepositions = {h.start for h in spans.get("avoid", _NONE)}  # "without", "sin": "ya sin GC" is "right away"
    unchanged = {i for h in spans.get("unchanged", _NONE) for i in range(h.start, h.end)} | unowned  # (no state)
    inside = {i for hs in spans.values() for h in hs if h.end - h.start > 1 for i in range(h.start, h.end)}
    pronouns = [p for p in spans.get("it", _NONE) if p.start not in inside]  # not the "it" of "s/it"
    past_at = told_past or frozenset(p.start for p in superseded)  # where a past (or the file's state) is told
    # (start, a past state, distance, prefer-off, state, a change named in the infinitive, a state told firmly)
    found: list[_Found] = []
    for concept, state in (("off", False), ("on", True)):
        for word in spans.get(concept, _NONE):
            holds = [g for g in gcs if word.start <= g.start and g.end <= word.end]  # "GC on", "avec le GC"
            if any(g.end == word.end or word.start in asked for g in holds) or word.start in unchanged:
                continue  # a phrase that ends with the mention ("avec le GC"), "sin otros cambios": no state said
            question = word.start in asked
            if word.start not in prepositions and any(0 < word.start - n.end + 1 <= 2 for n in nows):
                pass  # "if GC is already on", "já está ativo", "ahora lo activé": the state now, even in a question
            elif any(_proposes(p, word, tokens, question) for p in proposals) or any(
                    _proposes(d, word, tokens, False) for d in dreads):
                continue  # "thinking about switching GC off", "vale a pena desligar o GC?", "afraid to turn it off"
            elif any(_asks(a, word, tokens, asked) and starts.isdisjoint(range(a.end, word.start + 1)) for a in asks):
                continue  # "should I turn GC off?", "꺼야 할까요?": a question about a change
            elif question and (names_a_change(tokens[word.start].text) or _particle_of_a_change(word, gcs, tokens)):
                continue  # "does enabling GC hurt quality?", "¿activar GC arreglaría...?", "is turning GC off...?"
            if question and any(skipping(word, h, lasting) <= 1 for h in spans.get("lasting", _NONE)):
                return None  # "is GC on by default?", "with GC off from the start?": a lasting state asked about
            dist = min(skipping(word, g, lasting) for g in gcs)
            # Korean leaves the pronoun out (`켜 두었다가 ... 껐더니`).
            told = any(p.end <= word.start for p in superseded) and (
                tokens[word.start].hangul or any(0 <= word.start - h.end <= 2 for h in story)
            )
            # said of a pronoun the mention after it names ("lo dejé en true por defecto, el GC")
            named_after = dislocated(word, gcs, pronouns, starts)
            if dist > (2 * _WINDOW + 2 if told or named_after else _STATE_REACH) and not story_now(
                    word, gcs, spans, nows, past_at):
                continue  # far from GC, unless it goes on a story ("GC was off, now it's on") or names it after
            if short_word(word, tokens) and all(across(word, g, starts) for g in gcs) and not (
                    any(0 <= word.start - p.end <= 1 for p in pronouns) and story_now(word, gcs, spans, nows, past_at)):
                continue  # "¿activar el GC? me da OOM con batch 2": a short word of another sentence
            if dist > 2 and not named_after and preposition_before(word, gcs, tokens):
                continue  # "7 s/it on flux, worth disabling GC?": "on" is not said of GC
            negated = negated_by(word, negations, nevers, tokens) or denied_across(word, gcs, spans, tokens)
            past = word.start in told_past or any(_was(p, word, tokens, nows, switches) for p in superseded)
            change = names_a_change(tokens[word.start].text) or _particle_of_a_change(word, gcs, tokens)
            # A state told in so many words: no change named, no past, no preposition ("sin", "on character").
            firm = not (change or past or word.start in prepositions or (dist > 1 and short_word(word, tokens)))
            found.append((word.start, past, dist, 0 if concept == "off" else 1, (not state) if negated else state,
                          change, firm))
    now = switched_back(spans, gcs, tokens, asked, [(f[0], f[4]) for f in found])
    now = _state_now(found) if now is None else now
    return in_use(spans, gcs, tokens, asked) if now is None else now  # GC told as used or had: no state said


_Found = tuple[int, bool, int, int, bool, bool, bool]


def _story_after(gc: Hit, spans: dict[str, list[Hit]], unowned: frozenset[int]) -> bool:
    """Whether a "now" word of the user's own (not in `unowned`) comes after the mention `gc`."""
    return any(n.start > gc.end and n.start not in unowned for n in spans.get("now", _NONE))


def _state_now(found: list[_Found]) -> bool | None:
    """The state of the on/off words found (`gc_state`), the nearest GC first, an off word first on a tie.

    A change named in the infinitive ("someone told me to disable GC", "de couper le GC", `꺼보라던데`) gives way
    to a state the text tells firmly ("GC activé"); not to a past one (a story: "it was on, after disabling it
    ..."), nor to a preposition ("volví a activar el checkpointing y nada, sigo sin memoria"). A past state gives
    way to a state told after it ("it was off, now it's on"), not to one before it."""
    if any(f[6] for f in found):
        found = [f for f in found if not f[5]]
    now = [f for f in found if not (f[1] and any(g[0] > f[0] and not g[1] for g in found))]
    return min(now, key=lambda f: f[2:4])[4] if now else None


def _was(past: Hit, word: Hit, tokens: list[Token], nows: Sequence[Hit], switches: set[int]) -> bool:
    """A past marker ("was", "tenía", "hatte", "vorher") a few words before the on/off word, with no "now" nor
    another on/off word between them, or in Korean right after it (`꺼져 있었는데`, `켜 두었다가`): the state it
    tells is no longer the state. The file's state is told before the switch in Korean too (`설정에는 GC 켜져
    있는데`)."""
    if tokens[past.start].hangul and past.concept != "file_state":
        return 0 <= past.start - word.end <= 1
    return (
        0 <= word.start - past.end <= 2
        and not any(past.end <= n.start < word.start for n in nows)
        and not any(past.end <= i < word.start for i in switches)
    )


def _proposes(proposal: Hit, word: Hit, tokens: list[Token], question: bool) -> bool:
    """A proposal word ("thinking about", "worth it") governs an on/off word a few words after it, or, in
    Korean, right before it (`꺼도 될까요`); in a question, also one right before it ("GC off, good idea?"). A
    word that is both (`켜면`, "if turned on") names a change only."""
    if proposal.start <= word.start < proposal.end or word.start <= proposal.start < word.end:
        return True
    if tokens[proposal.start].hangul:
        return 0 <= proposal.start - word.end <= _KOREAN_PROPOSAL_BACK
    return 0 <= word.start - proposal.end <= _PROPOSAL_REACH or (
        question and 0 <= proposal.start - word.end <= _PROPOSAL_BACK
    )


def _asks(ask: Hit, word: Hit, tokens: list[Token], asked: frozenset[int]) -> bool:
    """An advice question ("should I", "debería", "kann ich") governs the on/off word after it, never one
    before it ("GC is off, should I turn it back on?" states that it is off): a few words after it, or anywhere
    after it in the same question ("should I start a first run with GC off?"). In Korean the modal ending comes
    after what it governs: right after the verb (`꺼야 할까요`), or at the end of the question, back to the last
    clause ending (`켜 놨는데 ..., 꺼야 할까요?` asks nothing of `켜`)."""
    if ask.start <= word.start < ask.end:
        return True  # the phrase holds the verb itself (`devo desligar`)
    if tokens[ask.start].hangul:
        if ask.start == word.end:
            return True
        between = range(word.start, ask.start)
        return (
            0 < ask.start - word.end <= 4
            and all(i in asked for i in (*between, ask.start))
            and not any(tokens[i].text.endswith(KOREAN_CLAUSE_ENDS) for i in between)
        )
    gap = word.start - ask.end
    return gap >= 0 and (gap <= 4 or (gap <= 10 and all(i in asked for i in range(ask.end, word.end))))


def _particle_of_a_change(word: Hit, gcs: list[Hit], tokens: list[Token]) -> bool:
    """The on/off particle of a verb that names a change, with the GC mention between them ("turning GC
    off")."""
    return any(g.end == word.start and g.start > 0 and names_a_change(tokens[g.start - 1].text) for g in gcs)


def _answers_aside(spans: dict[str, list[Hit]], bounds: frozenset[int]) -> dict[str, list[Hit]]:
    """`spans` without the negations that are a clause of their own ("No, I have GC on", "nope, gc is on", "non,
    coupé", "nein, ist aus", `아니요, 켜져 있어요`): an answer to what was asked, which denies no state told after
    it."""
    aside = {}
    for concept in ("negation", "none_of", "not_in_use"):  # "no" both denies and names none ("no GC")
        hits = spans.get(concept, _NONE)
        # (its word alone up to the comma; a phrase read across it is no phrase: "no, tengo el GC activado" is no "no
        # tengo")
        kept = [n for n in hits if not ((n.start == 0 or n.start in bounds) and n.start + 1 in bounds)]
        if len(kept) < len(hits):
            aside[concept] = kept
    return {**spans, **aside} if aside else spans


def _taken_up(spans: dict[str, list[Hit]], begin: int, proposed: bool, bounds: frozenset[int]) -> bool | None:
    """The quote's switch as the reply's first words take it up: "did that", "ya lo hice" (`complied`) as a clause of
    their own keep it ("> set gradient_checkpointing: true\ndid that, still OOM" is on; "já fiz batch 1" did something
    else), and a "no" of its own clause answering a quoted question (`begin` past it) denies it ("> GC on?\nno");
    none otherwise."""
    last = max((h.start for hs in spans.values() for h in hs), default=-1)  # the last concept told

    def alone(end: int) -> bool:  # the answer's words end their clause, or the text
        return end in bounds or end > last

    complied = {h.start: h.end for h in spans.get("complied", _NONE)}
    end = begin
    while end in complied:  # the answer's phrases, one after another ("ya lo hice, hecho,"), up to their clause's end
        end = complied[end]
    if end > begin and alone(end):
        return proposed  # ("já fiz batch 1" did something else)
    if begin and any(n.start == begin and alone(n.end)
                     for n in (*spans.get("negation", _NONE), *spans.get("none_of", _NONE))):
        return not proposed
    return None


def stated_context(
    tokens: list[Token], hits: list[Hit], log_like: bool, asked: frozenset[int] = frozenset(), failed: bool = False,
    unstated: frozenset[int] = frozenset(), starts: frozenset[int] = frozenset(), unowned: frozenset[int] = frozenset(),
    told_past: frozenset[int] = frozenset(), clauses: frozenset[int] = frozenset(), answered_gc: bool = False,
    answer_from: int = 0, proposed: bool | None = None,
) -> Stated:
    """What the text states; `asked` holds the positions of the tokens of its questions;
    `failed`: a failure is told beside these words (a pasted log), so a step they name is the failing one;
    `unstated`: the positions whose figures state no setting of the run (an environment line's "RTX 3090 24GB");
    `unowned`: those told of another run or supposed (`own_run.not_own`), which state no GC state, batch size or step;
    `told_past`: the tokens the sentence reader tells as past (a GC state there gives way to one told after it);
    `clauses`: where each clause inside a sentence starts (after a comma, a colon, ...); `answered_gc`: the text
    replies to a quote that names GC (`gc_words.answered_state`: "> turn on GC\\nit's been on from the start")."""
    spans = _by_concept(hits)
    on_or_off = on_or_off_asked(spans)
    used: set[int] = set(unstated)
    # Not a step: a duration (`9 seconds`) or a size right after a bucket word (`버킷 1536, 처음 몇 스텝`).
    sized = {h.end for h in spans.get("bucket", _NONE) if not any(c.isdigit() for c in tokens[h.end - 1].text)}
    timed = frozenset(h.start - 1 for h in spans.get("time_unit", _NONE)) | sized | _card_numbers(tokens, spans)
    bound = frozenset(h.end for c in _NUMBERED for h in spans.get(c, _NONE))  # right after a fact's own word
    previewed, preview_words = preview_step_counts(tokens, spans)
    unsaid = timed | previewed | ranges(tokens, spans) | unowned | _totals(tokens, spans) | cadences(tokens, spans)
    unsaid |= earlier_run(spans, told_past)
    step = failing_step(tokens, spans, used, unsaid, failed, BUCKET_SIZES, skip=preview_words, bound=bound)
    probe = used | unowned
    batch = batch_size(tokens, spans, probe, clauses | starts)
    used |= probe - unowned
    frames = None
    for hit in spans.get("frames", _NONE):
        key = "_" in tokens[hit.start].text  # a config key or flag (`--num_frames 93`) has its value after it
        frames = number_near(tokens, hit, *_FRAMES_NUMBER, used=used, bound=None if key else bound)
        if frames is not None:
            break
    controls = None
    for hit in spans.get("control", _NONE):
        controls = count_near(tokens, hit, used, limit=16)
        if controls is not None:
            break
    sizes, after_bucket = sizes_named(tokens, spans, used, log_like)
    switch_spans = _answers_aside(spans, clauses | starts)
    gc = gc_state(switch_spans, tokens, asked, on_or_off, starts, unowned, told_past)
    if gc is None and answered_gc and all(g.start < answer_from for g in spans.get("gc", _NONE)):
        gc = answered_state(switch_spans, tokens, asked, frozenset(i for i in starts if i > answer_from), answer_from)
        if gc is None and proposed is not None:
            gc = _taken_up(spans, answer_from, proposed, clauses | starts)
    return Stated(
        step=step if step is not None and step <= 10_000_000 else None,
        largest_named=max(sizes) if sizes else None,
        gradient_checkpointing=gc,
        batch_size=batch,
        resolutions=bucket_list(sizes, spans, after_bucket),
        num_frames=frames if frames is not None and 1 <= frames <= 10_000 else None,
        control_images=controls,
        on_or_off=on_or_off,
    )


def _totals(tokens: list[Token], spans: dict[str, list[Hit]]) -> frozenset[int]:
    """The run's length after a count of it ("900 of 3000 steps", "900 von 3000", "paso 2 de 10"): no failing step."""
    return frozenset(h.end for h in spans.get("counter", _NONE) if h.start > 0 and h.end < len(tokens)
                     and tokens[h.start - 1].number is not None and tokens[h.end].number is not None)


def _card_numbers(tokens: list[Token], spans: dict[str, list[Hit]]) -> frozenset[int]:
    """The numbers of a graphics card's name ("on my 4070 Ti", "a 3060 de 12 GB"): no step, no batch size."""
    return frozenset(i for h in spans.get("gpu", _NONE) for i in range(h.start, h.end) if tokens[i].number is not None)


# The context fields a text states: every field of `Stated` but the two that only weigh the reading.
CONTEXT_FIELDS = tuple(f.name for f in fields(Stated) if f.name not in ("largest_named", "on_or_off"))


def as_context_fields(stated: Stated) -> dict[str, Any]:
    return {k: getattr(stated, k) for k in CONTEXT_FIELDS if getattr(stated, k) is not None}
