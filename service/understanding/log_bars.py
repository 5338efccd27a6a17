"""Progress bars of a pasted log (tqdm): runs of updates of the same bar, read once, by their last update.

`split_bars` takes the bars out of the text (the rest is what the line rules read); `read_bar` records what a
run says: a training step (`TRAIN`, or `BARE` for a bar with no description) or a phase.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from .log_text import NAN_LOSS, clip

if TYPE_CHECKING:
    from .logs import _Reader

# Event kinds, in the order they are replayed.
PHASE, TRAIN, BARE, FAIL = "phase", "train", "bare", "fail"
Run = tuple[int, str, str, str]  # (offset in the non-bar text, last update, head, kind)

# A timestamp a log viewer may print before each line.
_STAMP = (
    r"(?:\[?\d{4}-\d{2}-\d{2}[ Tt]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:[Zz]|[+-]\d{2}:?\d{2})?\]?[ \t]+"
    r"|\[?\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\]?[ \t]+)?"
)
# A tqdm bar line and the updates of the same bar right after it (the head, group 1, repeated; blank lines skipped).
_BAR_RUN = re.compile(
    _STAMP + r"([^\n|%]*?)[ \t]*\d{1,3}%\|[^\n]*\][ \t]*+(?=\n|$)"
    r"(?:(?:\n[ \t]*(?=\n))*\n" + _STAMP + r"\1[ \t]*\d{1,3}%\|[^\n]*\][ \t]*+(?=\n|$))*"
)
_PCT_BLOCK = re.compile(r"(?:[^\n]*%\|[^\n]*(?:\n|\Z))+")  # consecutive lines holding "%|"
_ODD_STREAK: Final = 64
BAR_COUNT = re.compile(r"\d{1,3}%\|[^|\n]*\|\s*(\d{1,9})/(\d{1,9})\b")
# tqdm's rate after the elapsed<remaining times: seconds per iteration, or iterations per second (`17.64s/it`,
# `1.27it/s`); bounded digits, read only after the count was found.
_BAR_RATE = re.compile(r"<[^,\]\n]{0,24},[ \t]*(\d{1,6}(?:\.\d{1,4})?)[ \t]*(s/it|it/s)")
_DIGITS_SPACE: Final = "0123456789 \t"
# A timestamp or log level a log viewer put before a bar's description.
_HEAD_PREFIX = re.compile(
    r"^(?:\[?\d{4}-\d{2}-\d{2}[ t]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:z|[+-]\d{2}:?\d{2})?\]?"
    r"|\[?\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\]?"
    r"|\[?(?:info|warning|debug|stdout|stderr)\]?:?"
    r"|[\s\-:|>])+"
)
_BAR_SAMPLING = re.compile(r"generating\s+(?:baseline\s+|first\s+)?(?:images?|samples?)\b")

# Progress-bar descriptions that are not the training bar (tqdm `desc`), by first word.
_BAR_PHASE: Final[dict[str, str]] = {
    "caching": "caching",
    "loading": "loading",
    "fetching": "loading",
    "downloading": "loading",
    "quantizing": "loading",
    "attaching": "loading",
    "saving": "saving",
    "sampling": "sampling",
    # a validation or evaluation pass ("Valid (loss 53.34) epoch 1: 1/11"): the trainer's preview, not its steps
    "valid": "sampling",
    "validation": "sampling",
    "eval": "sampling",
    "evaluating": "sampling",
    "evaluation": "sampling",
}
_BAR_OTHER: Final = frozenset(
    {
        "processing",
        "building",
        "merging",
        "converting",
        "extracting",
        "encoding",
        "captioning",
        "matching",
        "analyzing",
        "inverting",
        "updating",
        "syncing",
        "transcribing",
        "equalizing",
        "unmatched",
        "annotating",
        "repaired",
        "map",
        "filter",
        "generating",
        "validating",
        "patching",  # an inference program applying LoRAs to a model (Forge: "Patching LoRAs")
    }
)

# A tqdm update pasted without its bar ("2.2.0 with dropout: 1321/2500 [17:22<15:30,  1.27it/s, avr_loss=0.107]"): the
# count, then tqdm's bracket of elapsed<remaining time.
_CUT_BAR = re.compile(r"(?m)^([^\n%|\[]*?)(\d{1,9})/(\d{1,9})[ \t]*(\[\d{1,3}:\d{2}(?::\d{2})?<[^\n\]]*\][ \t]*)$")


def restore_cut_bars(text: str) -> str:
    r"""The text with each tqdm update whose bar was cut away written back as the bar it was (its percent restored),
    so that it is read like any other progress bar.

    >>> restore_cut_bars("with dropout: 1321/2500 [17:22<15:30,  1.27it/s]")
    'with dropout: 52%|| 1321/2500 [17:22<15:30,  1.27it/s]'
    >>> restore_cut_bars("batch 3/8 [fine]")
    'batch 3/8 [fine]'
    """
    if "<" not in text or "/" not in text:
        return text
    # A match is one line (no part of the pattern matches a newline) holding "/", "[" and "<": only those lines are
    # tried (the pattern's lazy head is tried at every position of every line, ~10 us on a pasted traceback).
    return "\n".join(_CUT_BAR.sub(_restored, line) if "<" in line and "/" in line and "[" in line else line
                     for line in text.split("\n"))


def _restored(m: re.Match[str]) -> str:
    step, total = int(m.group(2)), int(m.group(3))
    if total == 0 or step > total:
        return m.group(0)
    return f"{m.group(1)}{step * 100 // total}%|| {step}/{total} {m.group(4)}"


def split_bars(text: str) -> tuple[str, list[Run]]:
    """The text between the progress bars (every other line), and the bar runs in text order. One scanning
    loop over the text on purpose: it is the hot path of a long log (bounded work on odd input included)."""
    if "%|" not in text:
        return text, []
    n = len(text)
    nb: list[str] = []
    offset = 0  # length of the non-bar text so far
    runs: list[tuple[int, str, str]] = []  # (offset, last update, head)
    pos = 0  # always at a line start
    odd_end = -2  # end of the last odd bar line
    streak = 0  # odd bar lines in a row
    while pos < n:
        p = text.find("%|", pos)
        if p < 0:
            nb.append(text[pos:])
            break
        start = text.rfind("\n", pos, p) + 1 or pos
        if start > pos:
            nb.append(text[pos:start])
            offset += start - pos
            streak = 0
        m = _BAR_RUN.match(text, start) if streak < _ODD_STREAK else None
        if m is not None:  # one bar and its following updates, matched in one go
            end = m.end()
            last = text[text.rfind("\n", start, end) + 1 or start : end]
            runs.append((offset, last, m.group(1)))
            streak = 0
            pos = end + 1
            continue
        # An odd bar line, or one with something printed right after the bar: read it both ways. Past a long
        # streak of them, take every following line holding "%|" as one block (bounded work on odd input).
        if streak < _ODD_STREAK:
            end = text.find("\n", p)
            if end < 0:
                end = n
        else:
            block = _PCT_BLOCK.match(text, start)
            end = block.end() if block is not None else n  # the block holds at least the line itself
            if end > start and text[end - 1] == "\n":
                end -= 1
        line = text[text.rfind("\n", start, end) + 1 or start : end]
        cut = line.find("%|")
        head = line[:cut].rstrip(_DIGITS_SPACE) if cut >= 0 else ""
        if runs and odd_end == start - 1 and runs[-1][2] == head:
            runs[-1] = (runs[-1][0], line, head)  # more of the same odd lines: one run
        else:
            runs.append((offset, line, head))
        nb.append(text[start:end] + "\n")
        offset += end - start + 1
        odd_end = end
        streak += 1
        pos = end + 1
    kinds: dict[str, str] = {}
    out: list[Run] = []
    for off, last, head in runs:
        kind = kinds.get(head)
        if kind is None:
            kind = kinds[head] = _bar_kind(head)
        out.append((off, last, head, kind))
    return "".join(nb), out


def read_bar(r: _Reader, offset: int, line: str, head: str, kind: str) -> None:
    """What the last update of a bar run says: a training step, or a phase (caching, loading, sampling...)."""
    nums = None
    for m in BAR_COUNT.finditer(line):
        nums = m
    low = line.lower()
    if kind in ("bare", "other") and ("lr:" in low or "loss" in low):
        kind = "training"
    key = r.key(offset, 0)
    if kind in ("training", "bare"):
        if "nan" in low and NAN_LOSS.search(low) is not None:  # `avr_loss=nan` in the bar's postfix
            r.signal("nan-loss", key, text=clip(line))
        if nums is not None:
            step, total = int(nums.group(1)), int(nums.group(2))
            if total > 0:
                r.event(key, TRAIN if kind == "training" else BARE, (step, total, seconds_per_step(line, nums.end())))
    elif kind != "other":
        label = clip(head.rsplit("|", 1)[-1].rstrip(": "))
        r.phase(key, kind, label)
        if nums is not None and int(nums.group(1)) == int(nums.group(2)):
            r.ended.add(key)


def seconds_per_step(line: str, at: int = 0) -> float | None:
    """The seconds one step takes by a bar's rate (after `at`), whether tqdm shows seconds per step or steps per
    second; None when the bar shows no rate.

    >>> seconds_per_step("steps: 12%|#  | 120/1000 [10:00<1:13:20,  5.00s/it, loss: 0.12]")
    5.0
    >>> seconds_per_step("steps: 52%|| 1321/2500 [17:22<15:30,  1.25it/s]"), seconds_per_step("12%|| 3/25 [00:01<?]")
    (0.8, None)
    """
    m = _BAR_RATE.search(line, at)
    if m is None:
        return None
    value = float(m.group(1))
    if m.group(2) == "s/it":
        return value
    return 1 / value if value > 0 else None


def _bar_kind(head: str) -> str:
    """What a progress bar is, from its description: training, bare (none), other, or a phase."""
    desc = _HEAD_PREFIX.sub("", head.rsplit("|", 1)[-1].strip().lower()).rstrip(":").strip()
    if not desc:
        return "bare"
    first = desc.split(None, 1)[0]
    if first == "generating":
        return "sampling" if _BAR_SAMPLING.match(desc) else "other"
    if "shards" in desc:
        return "loading"
    phase = _BAR_PHASE.get(first)
    if phase is not None:
        return phase
    if first in _BAR_OTHER:
        return "other"
    return "training"
