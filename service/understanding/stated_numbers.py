"""The numbers a text states for a fact (engine layer): the number next to the fact's word, the failing step among
several, a range of steps, the new value of a change ("batch 4 to 2"). Used by `extract.stated_context`."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from .analysis import Token
from .lexicon import Hit

_NONE: tuple[Hit, ...] = ()
_STEP_NUMBER = (3, 3)  # where a step's number is looked for: tokens after "step", tokens before ("step 3", "3rd step")


def number_near(
    tokens: list[Token], hit: Hit, after: int, before: int, used: set[int], timed: frozenset[int] = frozenset(),
    bound: frozenset[int] | None = None, others: frozenset[int] = frozenset(), counts: frozenset[int] = frozenset(),
    clauses: frozenset[int] = frozenset(),
) -> int | None:
    """A number token just after the hit (preferred) or just before it, not used by another fact and not
    a duration (`9 seconds`). With `bound` (the positions right after another fact's word), a number right before
    the hit and not another fact's comes first: a count before its noun ("81 frames at 512", `3스텝`; "bs 4 스텝 3").
    Past the hit's own next word, a number at `counts` (right before another noun it counts) is that noun's ("1 batch
    size and 512 image size": the batch size is 1), nor one after a Korean word past a clause's start (`clauses`)."""
    positions: list[int] = [
        *range(hit.end, min(len(tokens), hit.end + after)),
        *range(hit.start - 1, max(-1, hit.start - 1 - before), -1),
    ]
    if bound is not None and hit.start > 0 and hit.start - 1 not in bound:
        positions.insert(0, hit.start - 1)
    if others:
        # past the hit's own next word, a number right after another fact's word is that fact's ("2000 steps, batch 2")
        positions = [j for j in positions if j <= hit.end or j < hit.start or j not in others]
    if counts:
        positions = [j for j in positions if j <= hit.end or j < hit.start or j not in counts]
    if clauses:
        # nor after a Korean word past a clause's end ("1 batch size, 해상도 512로": the size is the next clause's)
        positions = [j for j in positions if j <= hit.end or j < hit.start or not tokens[j - 1].hangul
                     or clauses.isdisjoint(range(hit.end, j + 1))]
    for j in positions:
        if tokens[j].number is not None and j not in used and j not in timed:
            used.add(j)
            return tokens[j].number
    return None


# What tells the failure itself (or the memory that failed: "der VRAM läuft bei Step 3 über"): the step next to
# one of these is the failing step.
_FAILURES = ("oom", "crash", "halt", "exhausted", "error_word", "memory")
_STEP_FAILURE_REACH = 8  # "it dies at step 3", "OOM'd right on step 3 every time": the same clause
_PASSED_REACH = 3  # "it gets through step 1", "el paso 1 lo termina", "1스텝은 통과": next to the step's number


# A plural step word with its figure right after it is the run's length as a config writes it ("steps: 3000", "pasos
# 2000", "Schritte 3000"), no step the failure is told at ("at step 3000", "after 3000 steps" still are): grammar, as
# `_KOREAN_FROM` is (Korean has no plural; French "pas" is both)
_PLURAL_STEPS = ("steps", "pasos", "passos", "étapes", "etapes", "schritte")
_KOREAN_BEFORE = "전"  # the noun "before" after a verb's nominal form (`넘어가기 전에`): grammar, as `_KOREAN_FROM` is
_RUN_LENGTH = 100  # a run is this long at least: "steps 1 and 2 run fine" names steps, not a length


def _a_setting(tokens: list[Token], hit: Hit, joins: Sequence[Hit], sizes: frozenset[int]) -> bool:
    """Whether the step word at `hit` is a plural one with a run's length right after it, or after a join word
    ("steps to 3000"; not a size: "200 pasos a 1024" is a preview's interval and its size)."""
    if tokens[hit.end - 1].text not in _PLURAL_STEPS or hit.end >= len(tokens):
        return False
    at = next((j.end for j in joins if j.start == hit.end), hit.end)
    n = tokens[at].number if at < len(tokens) else None
    return n is not None and n >= _RUN_LENGTH and (at == hit.end or n not in sizes)


def failing_step(
    tokens: list[Token], spans: dict[str, list[Hit]], used: set[int], timed: frozenset[int], failed: bool,
    sizes: frozenset[int], skip: frozenset[int] = frozenset(), bound: frozenset[int] | None = None,
) -> int | None:
    """The step the failure is told at: of the step numbers the text states, the one nearest a failure word
    ("steps 1 and 2 run, it dies at step 3" is step 3) and not told as passed ("it gets through step 1, then OOM on
    step 2", "pasa el paso 1 y luego OOM en el paso 2" is step 2), the first one when nothing failed near any; none when
    the text tells no failure at all ("4000 steps, about 3 hours" is a run's length), unless `failed`. A bucket
    size (`sizes`) before the step word, or after it past other words, is no step ("Sample en 1024, trente steps").
    A step word at `skip` is a preview's own step count ("sample_steps 30"); in Korean the count comes before the
    counter word (`3스텝`), so `bound` (the positions right after another fact's word) applies there only. A step told
    after a "now" is the present run's ("attempt 2 OOMed at step 2 ... now it dies at step 3" is step 3)."""
    failures = [h for c in _FAILURES for h in spans.get(c, _NONE)]
    if not failures and not failed:
        return None
    passed, nows, joins = _passes(tokens, spans), spans.get("now", _NONE), spans.get("span_to", _NONE)
    # a count after a length word ("for 3000 steps", "durante 3000 pasos", "총 3000스텝") is the run's length
    lengths = frozenset(h.end for h in spans.get("run_length", _NONE))
    # ... and so is one beside a length word ("3000 steps in total", "3000 pasos en total", "3000 total steps")
    beside = lengths | frozenset(h.start for h in spans.get("run_length", _NONE))
    found: list[tuple[bool, bool, bool, int, bool, int, int]] = []  # passed, far, before now, near, count, order, j
    for order, hit in enumerate(spans.get("step", _NONE)):
        if hit.start in skip or hit.end in beside or hit.start in lengths or _a_setting(tokens, hit, joins, sizes):
            continue
        probe: set[int] = set(used)
        korean = tokens[hit.start].hangul
        n = number_near(tokens, hit, *_STEP_NUMBER, used=probe, timed=timed | lengths,
                        bound=bound if korean else None, others=bound or frozenset())
        if n is None:
            continue
        (j,) = probe - used
        if (j < hit.start or j > hit.end) and tokens[j].number in sizes:
            # "Sample en 1024, trente steps", "after a few hundred steps, dataset has 512 768": a size before the
            # step word, or after it past other words, is no step of it ("step 512" still is); an ordinal before it
            # still is ("OOM en el tercer paso, flux a 1024")
            probe = set(used)
            n = number_near(tokens, hit, 0, _STEP_NUMBER[1], used=probe, timed=timed)
            if n is None:
                continue
            (j,) = probe - used
            if tokens[j].number in sizes:
                continue
        near = min((_gap(j, f) for f in failures), default=0)
        through = [p for p in passed
                   if p.start - _PASSED_REACH <= j < (p.start if tokens[p.start].hangul else p.end + _PASSED_REACH)]
        if (j > hit.start or korean) and any(_gap(j, p) < near for p in through):
            continue  # "steps 1 and 2 are fine, then OOM": a step passed, nearer its pass than the failure, fails not
        # as near: a number after the step word ("at step 1") is a step of the run, one before it may be its length
        # ("I train 3000 steps and get OOM right at step 1")
        counted = j < hit.start and not korean
        reach = near if near <= _STEP_FAILURE_REACH else _STEP_FAILURE_REACH + 1
        if counted and reach > _STEP_FAILURE_REACH and tokens[hit.end - 1].text in _PLURAL_STEPS and not failed:
            continue  # "3000 steps, running smooth ... the VRAM blows up at sampling": the run's length, far from it
        earlier = not any(n.end <= j for n in nows)  # a step told after a "now" is the present run's
        found.append((bool(through), reach > _STEP_FAILURE_REACH, earlier, reach, counted, order, j))
    if not found:
        return None
    *_, j = min(found)
    used.add(j)
    return tokens[j].number


def earlier_run(spans: dict[str, list[Hit]], past: frozenset[int]) -> frozenset[int]:
    """The told `past`'s positions where a failure is told outside it ("last month OOM at step 3; now it OOMs when
    sampling"): a step there is the earlier run's, not the one failing now; none when every failure is in it."""
    if past and any(h.start not in past for c in _FAILURES for h in spans.get(c, _NONE)):
        return past
    return frozenset()


def _passes(tokens: list[Token], spans: dict[str, list[Hit]]) -> list[Hit]:
    """The words that tell a step as passed (a count before its word still tells where the run failed: "for 900 steps
    fine, then OOM"): a Korean one reaches the steps before it only (`1, 2스텝은 잘 돌아가다가
    3스텝에서 OOM` passes steps 1 and 2), and none before "before" (`넘어가기 전에`, "before it gets past")."""
    return [h for h in spans.get("step_passed", _NONE)
            if not (h.end < len(tokens) and tokens[h.end].hangul and tokens[h.end].text.startswith(_KOREAN_BEFORE))]


def _gap(j: int, hit: Hit) -> int:
    """The distance from the token at `j` to a hit (0 inside it)."""
    return hit.start - j if j < hit.start else max(0, j - hit.end + 1)


def _one_word_joins(spans: dict[str, list[Hit]]) -> set[int]:
    """Where a one-word join stands ("to", "à", "auf"): between a range's ends, or before a value set."""
    return {h.start for h in spans.get("span_to", _NONE) if h.end == h.start + 1}


def ranges(tokens: list[Token], spans: dict[str, list[Hit]]) -> frozenset[int]:
    """Numbers joined by a range word ("works for 100 to 1000 steps", "de 100 à 1000 pas"): a span of the run,
    no step of it."""
    joins = _one_word_joins(spans)
    out: set[int] = set()
    for i in range(len(tokens) - 2):
        if tokens[i].number is not None and i + 1 in joins and tokens[i + 2].number is not None:
            out.update((i, i + 2))
    return frozenset(out)


_SET_REACH = 8  # "the batch size that I set to 6": the verb's clause after the fact's word


def set_to(tokens: list[Token], spans: dict[str, list[Hit]], facts: list[Hit], used: set[int]) -> int | None:
    """A value given further on in the fact's clause by a join word: "the batch size, which I set to 6", "le batch
    size que j'ai mis à 6", "el batch lo puse a 4" (1 to 512, a number not used by another fact)."""
    joins = _one_word_joins(spans)
    for fact in facts:
        for j in range(fact.end, min(len(tokens) - 1, fact.end + _SET_REACH)):
            n = tokens[j + 1].number
            if j in joins and n is not None and 1 <= n <= 512 and j + 1 not in used and tokens[j].number is None:
                used.add(j + 1)
                return n
    return None


# Korean marks "from" with a particle after the number (`4에서 2로`, `4부터`): a word the vocabulary cannot hold
# (a known Hangul word re-segments every word that ends with it), so it is grammar here.
_KOREAN_FROM = ("에서", "부터", "에서부터")


def changed_to(tokens: list[Token], spans: dict[str, list[Hit]], at: int, used: set[int],
               clauses: frozenset[int] = frozenset()) -> int | None:
    """The current value of a change told from the old one at `at`: "went from batch 4 to batch 2", "de 4 à 2",
    "von 4 auf 2", `4에서 2로` (the value after the join word, with the fact's word between them or not)."""
    old = tokens[at].number
    joins = {h.start: h.end for h in spans.get("span_to", _NONE)}  # "to", "down to", "auf"
    if at + 1 < len(tokens) and tokens[at + 1].text in _KOREAN_FROM:
        joins[at + 1] = at + 2  # the particle of the old value, a token of its own after a number (`4에서 2로`)
    words = {i for h in spans.get("batch", _NONE) for i in range(h.start, h.end)}
    for j in range(at + 1, min(len(tokens), at + 3)):
        if j in joins:
            for k in range(joins[j], min(len(tokens), joins[j] + 3)):
                n = tokens[k].number
                if n is not None and 1 <= n <= 512:
                    used.add(k)
                    return n
                if k not in words:
                    break
        elif j not in words:
            break
    return _told_now(tokens, spans, at, used, old, clauses)


_NOW_REACH = 8  # "batch was 4, now it's 2", "tenía batch 4, ahora lo puse en 2": the old value's clause and the next
_NOW_TO_VALUE = 4  # "now it's 2", "agora coloquei 2", "jetzt 2": the "now" word this close before the new value
# Korean marks the new value with a particle after it (`4였는데 2로 바꿨어요`): grammar, as `_KOREAN_FROM` is
_KOREAN_TO = ("로", "으로")
# what a number beside one of these counts (a duration, a memory, a step, a resolution, images, "2 of 10"): no batch
# size
_COUNTED = ("time_unit", "memory", "gpu_memory", "gpu", "step", "bucket", "frames", "rate", "steps_count", "preview",
            "output", "lora", "counter", "control")
_COUNTED_NOUN = 4  # a word of no vocabulary this long right after the number is what it counts ("2 gpus", "2 loras")
# another setting named between the old value and a later number: that number is the setting's ("batch 2, rank set to
# 16", "batch à 2, j'ai mis le rank à 32", `배치 2로 하고 랭크를 32로`, "batch_size to 1 and num_repeats to 10": a
# setting the guide does not teach, or any config key written with an underscore), not the fact's new value
_OTHER_SETTING = ("rank", "accumulation", "bucket", "frames", "steps_count", "control", "step", "preview", "rate",
                  "memory", "gpu_memory", "time_unit", "untaught")


def _told_now(tokens: list[Token], spans: dict[str, list[Hit]], at: int, used: set[int], old: int | None,
              clauses: frozenset[int] = frozenset()) -> int | None:
    """The value now of a fact whose old value is at `at`, told as a bare number a "now" word goes with a few words
    later ("batch was 4, now it's 2", "Batch war 4, jetzt 2", "tinha batch 4, agora coloquei 2"), or a join word goes
    with further on ("le batch était à 4, je l'ai mis à 2", "baixei pra 2"), or, in Korean, the number marked as the new
    value (`배치 4였는데 2로 바꿨어요`); else `old`. A number that counts something else (`now 30 s/it`, `now 2 gpus`,
    `now 2 of the samples`) or is read by another fact is none; a number right after the old one is no new value
    ("batch size 2, 2 control images": the arrow of "4 -> 2" leaves no token); in Korean, a number after a word of its
    own in the next clause is that word's (`배치 1, 반복 10으로`: `clauses`, where each clause starts)."""
    nows = [h.start for h in spans.get("now", _NONE) if h.start > at]
    # ... and a join word right before the new one, further on ("le batch était à 4, je l'ai mis à 2", "com batch 4
    # dava oom, baixei pra 2", "mit Batch 4 kam OOM, bin auf 2 runter")
    nows += [j for j in _one_word_joins(spans) if j > at + 1]
    if not nows and not any(t.hangul for t in tokens[at : at + _NOW_REACH]):
        return old
    counted = {h.start for c in _COUNTED for h in spans.get(c, _NONE)}
    named = {i for hits in spans.values() for h in hits for i in range(h.start, h.end)}
    # a value told as past between the "now" word and it, or right after it, is an old one ("batch 2 now, it was 4
    # before")
    pasts = {h.start for h in spans.get("past", _NONE)}
    others = {h.start for c in _OTHER_SETTING for h in spans.get(c, _NONE) if h.start > at}
    others.update(j for j in range(at + 1, min(len(tokens), at + _NOW_REACH)) if "_" in tokens[j].text)
    for j in range(at + 1, min(len(tokens), at + _NOW_REACH)):
        if j in others:
            return old
        n = tokens[j].number
        if n is None:
            continue
        after = tokens[j + 1] if j + 1 < len(tokens) else None
        # (a word right after "auf 2" is the verb's particle, "bin auf 2 runter", not what the number counts)
        noun = (after is not None and not after.hangul and j + 1 not in named and len(after.text) >= _COUNTED_NOUN
                and j - 1 not in nows)
        # (a figure written "1e-4" is a learning rate's, no count)
        figure = not tokens[j].text.isdigit()
        if j in used or not 1 <= n <= 64 or j + 1 in counted or j - 1 in counted or noun or figure:
            return old
        korean = j + 1 < len(tokens) and tokens[j + 1].text in _KOREAN_TO
        if korean and _named_in_clause(tokens, named, clauses, at, j):
            return old
        if korean or any(j - _NOW_TO_VALUE <= k < j and not any(k < p <= j + 1 for p in pasts) for k in nows):
            used.add(j)
            return n
        return old
    return old


def counted_before(spans: dict[str, list[Hit]], clauses: frozenset[int], tokens: list[Token]) -> frozenset[int]:
    """The positions right before a noun a number there counts, or right after it, in its clause ("512 image size",
    "2 control images", "30 steps", "resolution 512"; not "batch size is one, images are 1024", nor the "sur" of "4 sur
    3000")."""
    nouns = [h for c in _COUNTED if c != "counter" for h in spans.get(c, _NONE)]
    # ... and right after one ("1 batch size y resolución 512", "1 batch size and resolution 512"; not in Korean, where
    # a count follows what it counts: `배치당 이미지 두 장` is a batch of two)
    return frozenset({h.start - 1 for h in nouns if h.start > 0 and h.start not in clauses}
                     | {h.end for h in nouns if h.end not in clauses and not tokens[h.start].hangul})


def _named_in_clause(tokens: list[Token], named: set[int], clauses: frozenset[int], at: int, j: int) -> bool:
    """Whether the number at `j` opens no clause of its own after the value at `at` but follows a Hangul word of no
    fact's in a clause after it: that word is what it counts (`배치 1, 반복 10으로`, not `배치 4였는데, 2로`)."""
    starts = [c for c in clauses if at < c < j]
    return bool(starts) and any(tokens[i].hangul and i not in named for i in range(max(starts), j))


def count_near(tokens: list[Token], hit: Hit, used: set[int], limit: int) -> int | None:
    """A small count just before the hit ("2 control images", preferred) or just after it (`컨트롤 이미지 2장`,
    "control images: 2"); a larger number there is something else (a resolution)."""
    for j in (*range(hit.start - 1, max(-1, hit.start - 3), -1), *range(hit.end, min(len(tokens), hit.end + 3))):
        n: int | None = tokens[j].number
        if n is not None and j not in used and n <= limit:
            used.add(j)
            return n
    return None


_TOLD_NOW = 3  # "now batch 2", "batch was 4", `전에는 배치 4`: a time word this close to a value's word or number
_JOINED = 2  # "from batch 4 down to batch 2": the join word this close after the old value and before the new word


def current(told: list[tuple[int, int, int | None]], spans: dict[str, list[Hit]]) -> int:
    """Which of several values told of one fact is the one now (`told`: the fact word's start, the number's position,
    the value, in text order; the index is returned): the one a "now" word goes with ("batch 4 before, now batch 2",
    "antes batch 4 y ahora batch 2", `전에는 배치 4, 지금은 배치 2`), the later one of a change told across two
    mentions ("from batch 4 down to batch 2"), else the first not told as past ("batch was 4, ..."), else the
    first."""
    if len(told) == 1:
        return 0
    nows = spans.get("now", _NONE)
    pasts = spans.get("past", _NONE)
    joins = {h.start for h in spans.get("span_to", _NONE)}

    def near(marks: Sequence[Hit], word: int, at: int) -> bool:
        return any(word - _TOLD_NOW <= m.start <= at + 2 for m in marks)

    now = [k for k, (word, _, _) in enumerate(told) if near(nows, word, word)]
    if now:
        return now[-1]
    for k, ((_, at, _), later) in enumerate(pairwise(told)):
        if any(at < j <= at + _JOINED and later[0] - j <= _JOINED for j in joins):
            return k + 1
    kept = [k for k, (word, at, _) in enumerate(told) if not near(pasts, word, at)]
    return (kept or [0])[0]
