"""The steps of a preview (engine layer): the numbers a text gives as a preview's own step count ("sample_steps 30",
"30 pasos de muestreo", `샘플은 30스텝으로`), which are a setting, not the step a run failed at, and the numbers of a
cadence ("every 100 steps"). Used by `extract.stated_context`."""

from __future__ import annotations

from .analysis import Token
from .lexicon import Hit

_NONE: tuple[Hit, ...] = ()
_PREVIEW_COUNT_REACH = 6  # "samples at 1024x1024 with 30 steps", `샘플은 1024x1024에 30스텝으로`
_FAILURES = ("oom", "crash", "halt", "exhausted", "error_word")


def preview_step_counts(tokens: list[Token], spans: dict[str, list[Hit]]) -> tuple[frozenset[int], frozenset[int]]:
    """The numbers that count a preview's own steps and the step words they count (their starts): a number next
    to a preview-steps phrase ("sample_steps 30", "30 pasos de muestreo", `샘플링 스텝 30`), or a count before a
    step word ("30 steps", `30스텝`) told after a preview word with no failure from the preview word to just past
    the count (`샘플 생성하다가 3스텝에서 oom` is the failing step 3), and no cadence ("every 250 steps")."""
    numbers: set[int] = set()
    steps: set[int] = set()
    for phrase in spans.get("preview_steps", _NONE):
        for j in (phrase.end, phrase.end + 1, phrase.start - 1):
            if 0 <= j < len(tokens) and tokens[j].number is not None:
                numbers.add(j)
                break
        steps.update(h.start for h in spans.get("step", _NONE) if phrase.start <= h.start < phrase.end)
    failures = [h.start for c in _FAILURES for h in spans.get(c, _NONE)]
    # a cadence's number, after its "every" word ("samples every 250 steps": when previews run, as before) ...
    cadences = {h.end: h.start for h in spans.get("every", _NONE)}
    # ... and the reach counts from past a cadence told right after the preview word ("as amostras tão a cada 100
    # passos com 30 steps": the 30 are each preview's steps)
    periods = [(cadences[h.start - 1], h.end) for h in spans.get("step", _NONE) if h.start - 1 in cadences]
    for hit in spans.get("step", _NONE):
        j = hit.start - 1
        if hit.start in steps or j < 0 or tokens[j].number is None or j in numbers or j in cadences:
            continue
        for p in spans.get("preview", _NONE):
            failed = any(p.start <= f <= hit.end + 1 for f in failures)
            start = max([e for s, e in periods if p.end <= s and e <= j and s - p.end < _PREVIEW_COUNT_REACH],
                        default=p.end)
            if p.end <= j and j - start < _PREVIEW_COUNT_REACH and not failed:
                numbers.add(j)
                steps.add(hit.start)
                break
    return frozenset(numbers), frozenset(steps)


def cadences(tokens: list[Token], spans: dict[str, list[Hit]]) -> frozenset[int]:
    """The numbers of a cadence, a period and no step the run is at ("samples every 100 steps", "muestras cada 100
    pasos", "alle 100 Schritte", `100스텝마다`): right after an "every" word and before a step word, or, in Korean,
    before a step word the "every" ending follows."""
    steps = spans.get("step", _NONE)
    starts = {h.start for h in steps}
    out = {h.end for h in spans.get("every", _NONE) if h.end + 1 in starts and tokens[h.end].number is not None}
    everys = {h.start for h in spans.get("every", _NONE) if tokens[h.start].hangul}  # `100스텝마다`
    out.update(h.start - 1 for h in steps if h.end in everys and h.start > 0 and tokens[h.start - 1].number is not None)
    return frozenset(out)
