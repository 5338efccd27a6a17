"""The batch size a text states (engine layer): the number next to a batch word, not a batch's position ("batch 361
of 1000", "batch 3/250"), not one told as not used ("I don't use batch 4"), the value now of a change told. Used by
`extract.stated_context`."""

from __future__ import annotations

import re

from .analysis import Token
from .lexicon import Hit
from .stated_numbers import changed_to, counted_before, current, number_near, set_to
from .stated_sizes import BUCKET_SIZES

_NONE: tuple[Hit, ...] = ()
# Where the batch size is looked for: (tokens after the batch word, tokens before it). "batch size of 4"; a number
# before "batch" is rarely its size, save right before it ("1 batch size").
_BATCH_NUMBER = (4, 1)


def batch_size(tokens: list[Token], spans: dict[str, list[Hit]], used: set[int],
               clauses: frozenset[int] = frozenset()) -> int | None:
    """The batch size next to a batch word (1 to 512, not a batch's position), its new value when a change is told
    ("batch 4 to 2"), the one told now of several ("batch 4 before, now batch 2": `stated_numbers.current`), else a
    value set further on in its clause. A value told as not used ("I don't use batch 4", "no uso batch 4") is none;
    the one used instead is ("..., I use 1"). `clauses`: where each clause starts (a denial never reaches past it)."""
    if "batch" not in spans:
        return None
    positions = _batch_positions(tokens, spans, clauses)
    counts = counted_before(spans, clauses, tokens)
    told: list[tuple[int, int, int | None]] = []  # (the batch word's start, the number's position, the value)
    taken: list[set[int]] = []  # the positions each one reads
    denied: list[int] = []  # the positions of the values told as not used ("I don't use batch 4")
    longer = [h for c, hs in spans.items() if c != "batch" for h in hs if h.end - h.start > 1]
    for hit in spans["batch"]:
        if any(h.start <= hit.start and hit.end <= h.end and h.end - h.start > hit.end - hit.start for h in longer):
            continue  # a word read whole in a longer phrase ("continua lotando os 24 GB": memory full, no batch)
        probe = set(used)
        batch = number_near(tokens, hit, *_BATCH_NUMBER, used=probe, timed=positions, counts=counts,
                             clauses=clauses)
        if batch is not None and 1 <= batch <= 512:
            (at,) = probe - used
            if _denied(tokens, spans, hit, at, clauses):
                denied.append(at)
                used.add(at)
                continue
            told.append((hit.start, at, changed_to(tokens, spans, at, probe, clauses)))
            taken.append(probe - used)
        elif not told:
            used |= probe  # a number near an earlier batch word that is no batch size is read (as before)
    if not told and denied:
        return _used_instead(tokens, spans, denied[-1], used)
    if not told:
        return set_to(tokens, spans, spans["batch"], used)
    k = current(told, spans)
    used |= taken[k]
    return told[k][2]


_DENIAL_GAP = 1  # "I don't use a batch of 4": an article between the denied verb and the batch word
_INSTEAD_REACH = 6  # "I don't use batch size 4, I use 1": the verb of the value used instead, in the next clause


def _denied(tokens: list[Token], spans: dict[str, list[Hit]], hit: Hit, at: int, clauses: frozenset[int]) -> bool:
    """Whether the batch value at `at` (of the batch word `hit`) is told as not used: a denied verb of use right
    before the batch word in its clause ("I don't use batch 4", "no uso batch 4", "je n'utilise pas batch 4", "ich
    nutze nicht Batch 4"), or, in Korean, right after the value (`배치 4 안 쓰고`)."""
    for n in spans.get("not_in_use", _NONE):
        if tokens[n.start].hangul:
            if n.start == at + 1:
                return True
        elif 0 <= hit.start - n.end <= _DENIAL_GAP and clauses.isdisjoint(range(n.end, hit.start + 1)):
            return True
    return False


def _used_instead(tokens: list[Token], spans: dict[str, list[Hit]], at: int, used: set[int]) -> int | None:
    """The value a verb of use tells right after a denied one at `at` ("I don't use batch size 4, I use 1", "no uso
    batch 4, uso 1"), or none."""
    for h in spans.get("in_use", _NONE):
        j = h.end
        if at < h.start <= at + _INSTEAD_REACH and j < len(tokens) and j not in used:
            n = tokens[j].number
            if n is not None and 1 <= n <= 512:
                used.add(j)
                return n
    return None


_ORDINAL_SURFACE = re.compile(r"^\d+[a-z]+$")


def _batch_positions(tokens: list[Token], spans: dict[str, list[Hit]], clauses: frozenset[int]) -> frozenset[int]:
    """Numbers that say which batch, not how big: an ordinal (`12th`, `12e`, `12º`), a count (`361 of 1000`,
    `450 von 2000`, "batch 3/250" in its clause), or a number after a position word ("skipping batch 3", "lote número
    12", "around batch 361"), or, in Korean, before one (`12번째 배치`, `배치 3을 건너뛰어요`)."""
    marks = spans.get("position", _NONE)
    counters = {h.start for h in spans.get("counter", _NONE)}
    counts = {h.start - 1 for h in spans.get("step", _NONE)}  # "batch 4 1000 steps": the total of no count
    out: set[int] = set()
    for i, tok in enumerate(tokens):
        if tok.number is None:
            continue
        total = tokens[i + 2].number if i + 1 in counters and i + 2 < len(tokens) else None
        if total is None and i + 1 < len(tokens) and tokens[i + 1].number not in BUCKET_SIZES and i + 1 not in counts \
                and i + 1 not in clauses:
            total = tokens[i + 1].number  # a progress count written "3/250" (the slash leaves no token)
        if (
            _ORDINAL_SURFACE.match(tok.text)
            or (total is not None and total >= 100 and total > tok.number)
            or any(0 <= i - m.end <= 2 for m in marks)
            or any(tokens[m.start].hangul and 0 <= m.start - i - 1 <= 1 for m in marks)
        ):
            out.add(i)
            if total is not None and total >= 100 and total > tok.number:
                out.add(i + 1 if tokens[i + 1].number == total else i + 2)  # and its total ("3/250": no batch of 250)
    return frozenset(out)
