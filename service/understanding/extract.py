"""Context stated in free text: step, GC on/off, family, batch size, buckets, frames, phase (engine layer).

Works on analysed tokens and spotted concepts only, so it reads every language the vocabulary covers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .analysis import Token
from .lexicon import Hit

BUCKET_SIZES = frozenset({512, 640, 768, 896, 1024, 1152, 1280, 1536, 2048})
# Distance windows, in tokens (a hit's distance to another counts the tokens between them, plus one).
_WINDOW = 3  # the widest gap of one short clause: "GC is now off", "gradient checkpointing was already on"
_UNSURE_REACH = _WINDOW + 2  # "not sure if GC is on or off": the doubt covers the whole clause it opens
_STATE_REACH = _WINDOW + 1  # an on/off word this close to a GC mention says its state
_NEGATION_REACH = 2  # "not on", "not turned on": a negation one or two words before the on/off word
_PROPOSAL_REACH = 5  # "thinking about maybe switching GC off": a proposal governs a short clause after it
_PROPOSAL_BACK = 6  # in a question, what comes first is proposed: "GC off, is that a good idea?"
_KOREAN_PROPOSAL_BACK = 2  # Korean puts the proposal after the verb: `꺼도 될까요`
# Where the number of a fact is looked for: (tokens after the fact's word, tokens before it). "step 3", "3rd
# step", "step number 3"; "batch size of 4" (a number before "batch" is rarely its size); "81 frames".
_STEP_NUMBER = (3, 3)
_BATCH_NUMBER = (4, 1)
_FRAMES_NUMBER = (3, 2)
_BUCKET_REACH = 4  # a size this close to a bucket word is a bucket: "buckets 512, 768 and 1024"


@dataclass(frozen=True, slots=True)
class Stated:
    """What the text states; None where it says nothing."""

    step: int | None = None
    largest_named: int | None = None
    gradient_checkpointing: bool | None = None
    batch_size: int | None = None
    resolutions: tuple[int, ...] | None = None
    num_frames: int | None = None
    on_or_off: bool = False  # "on or off?": a question about the switch, not a statement of its state


_NONE: tuple[Hit, ...] = ()


def _by_concept(hits: list[Hit]) -> dict[str, list[Hit]]:
    """Hits grouped by concept, in text order (read once; the facts below look concepts up by name)."""
    spans: dict[str, list[Hit]] = {}
    for h in hits:
        spans.setdefault(h.concept, []).append(h)
    return spans


def _distance(a: Hit, b: Hit) -> int:
    if a.end <= b.start:
        return b.start - a.end + 1
    if b.end <= a.start:
        return a.start - b.end + 1
    return 0


def _number_near(
    tokens: list[Token], hit: Hit, after: int, before: int, used: set[int], timed: frozenset[int] = frozenset()
) -> int | None:
    """A number token just after the hit (preferred) or just before it, not used by another fact and not
    a duration (`9 seconds`)."""
    positions: list[int] = [
        *range(hit.end, min(len(tokens), hit.end + after)),
        *range(hit.start - 1, max(-1, hit.start - 1 - before), -1),
    ]
    for j in positions:
        if tokens[j].number is not None and j not in used and j not in timed:
            used.add(j)
            return tokens[j].number
    return None


def gc_state(spans: dict[str, list[Hit]], tokens: list[Token], question: bool, on_or_off: bool) -> bool | None:
    """On/off said of gradient checkpointing: the nearest on/off word to a GC mention, negation flips it.

    Negation counts just before the on/off word, or just after it in Korean (`켜지 않았다`). `on_or_off` is
    `_on_or_off(spans)`, computed once by the caller.
    """
    gcs = spans.get("gc")
    if not gcs:
        return None
    if any(min(_distance(u, g) for g in gcs) <= _UNSURE_REACH for u in spans.get("unsure", _NONE)):
        return None  # "not sure if GC is on or off"
    if on_or_off:
        return None  # "on or off?", "an oder aus", "켜기 vs 끄기": a question, not a state
    negations = spans.get("negation", _NONE)
    proposals = spans.get("considering", _NONE)
    best: tuple[int, int, bool] | None = None  # (distance, prefer-off, state)
    for concept, state in (("off", False), ("on", True)):
        for word in spans.get(concept, _NONE):
            if any(word.start <= g.start and g.end <= word.end for g in gcs):
                continue  # the GC mention itself (a config key such as `gradient_checkpointing: true`)
            if any(_proposes(p, word, tokens, question) for p in proposals):
                continue  # "thinking about switching GC off", "vale a pena desligar o GC?": not its state
            dist = min(_distance(word, g) for g in gcs)
            if dist > _STATE_REACH:
                continue
            negated = any(
                0 < word.start - n.end + 1 <= _NEGATION_REACH or (n.start == word.end and tokens[n.start].hangul)
                for n in negations
            )
            value = (not state) if negated else state
            key = (dist, 0 if concept == "off" else 1, value)
            if best is None or key[:2] < best[:2]:
                best = key
    return best[2] if best else None


def _proposes(proposal: Hit, word: Hit, tokens: list[Token], question: bool) -> bool:
    """A proposal word ("thinking about", "worth it") governs an on/off word a few words after it, or, in
    Korean, right before it (`꺼도 될까요`); in a question, also one right before it ("GC off, good idea?")."""
    if tokens[proposal.start].hangul:
        return 0 <= proposal.start - word.end <= _KOREAN_PROPOSAL_BACK
    return 0 <= word.start - proposal.end <= _PROPOSAL_REACH or (
        question and 0 <= proposal.start - word.end <= _PROPOSAL_BACK
    )


def _on_or_off(spans: dict[str, list[Hit]]) -> bool:
    """An on word and an off word side by side ("on/off", "켜기 끄기") or with an "or" between them ("on or
    off", "an oder aus", "켜기 vs 끄기"): a question about the switch. ("Back on, retried without changing
    anything" is not one.)"""
    ors = {h.start for h in spans.get("either_or", _NONE) if h.end == h.start + 1}
    # A phrase that holds the GC mention itself ("avec GC", "GC aus") states a state: no question.
    mentions = {i for g in spans.get("gc", _NONE) for i in range(g.start, g.end)}
    for a in spans.get("on", _NONE):
        if not mentions.isdisjoint(range(a.start, a.end)):
            continue
        for b in spans.get("off", _NONE):
            if not mentions.isdisjoint(range(b.start, b.end)):
                continue
            gap = range(min(a.end, b.end), max(a.start, b.start))
            if len(gap) == 0 or (len(gap) == 1 and gap[0] in ors):
                return True
    return False


def stated_context(tokens: list[Token], hits: list[Hit], log_like: bool, question: bool = False) -> Stated:
    spans = _by_concept(hits)
    on_or_off = _on_or_off(spans)
    used: set[int] = set()
    timed = frozenset(h.start - 1 for h in spans.get("time_unit", _NONE))
    step = None
    for hit in spans.get("step", _NONE):
        step = _number_near(tokens, hit, *_STEP_NUMBER, used=used, timed=timed)
        if step is not None:
            break
    batch = None
    for hit in spans.get("batch", _NONE):
        batch = _number_near(tokens, hit, *_BATCH_NUMBER, used=used)
        if batch is not None and 1 <= batch <= 512:
            break
        batch = None
    frames = None
    for hit in spans.get("frames", _NONE):
        frames = _number_near(tokens, hit, *_FRAMES_NUMBER, used=used)
        if frames is not None:
            break
    buckets = spans.get("bucket", _NONE)
    sizes: list[int] = []
    for i, tok in enumerate(tokens):
        n = tok.number
        if n is None or i in used or not (256 <= n <= 4096 and n % 64 == 0):
            continue
        near_bucket = any(abs(i - b.start) <= _BUCKET_REACH for b in buckets)
        if near_bucket or (n in BUCKET_SIZES and not log_like):
            sizes.append(n)
    return Stated(
        step=step if step is not None and step <= 10_000_000 else None,
        largest_named=max(sizes) if sizes else None,
        gradient_checkpointing=gc_state(spans, tokens, question, on_or_off),
        batch_size=batch,
        resolutions=_resolutions(sizes, spans),
        num_frames=frames if frames is not None and 1 <= frames <= 10_000 else None,
        on_or_off=on_or_off,
    )


def _resolutions(sizes: list[int], spans: dict[str, list[Hit]]) -> tuple[int, ...] | None:
    """The bucket list the text states. One size named as a bucket ("when the 1024 bucket comes up") is one
    of several, so it says nothing of the list; one size alone ("Qwen Edit 1024") is the training size."""
    unique = tuple(sorted(set(sizes)))
    if len(unique) == 1 and not spans.keys().isdisjoint(("bucket", "largest", "intermittent")):
        return None
    return unique or None


CONTEXT_FIELDS = ("step", "gradient_checkpointing", "batch_size", "resolutions", "num_frames")


def as_context_fields(stated: Stated) -> dict[str, Any]:
    return {k: getattr(stated, k) for k in CONTEXT_FIELDS if getattr(stated, k) is not None}
