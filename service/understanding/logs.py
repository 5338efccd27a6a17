"""Reading a pasted AI Toolkit / PyTorch log: which failure, its figures, and the phase it happened in.

Pure functions, no I/O. Only the last `MAX_CHARS` characters are read. The text is normalised (ANSI colour
codes removed, `\\r` tqdm updates and Windows line endings turned into lines), then split in two:

- progress-bar lines (`...%|...|`), grouped into runs of updates of the same bar, only the last update of a run
  being parsed;
- every other line, joined and lowered once, where the anchor words of the signal table (`log_rules.RULES`:
  `memory`, `error`, `loading`, ...) are looked up with `str.find`, and only the lines holding one are read by
  the rules those words call for, in the table's order.

Every finding becomes an ordered event; one forward pass over the events gives the phase at the failure, the
last training step and whether the last sampling was the baseline one. Progress bars: `log_bars`; the figures of
an out-of-memory message: `log_figures`. Any text is read without raising: the patterns are bounded, and a
reading that fails is a bug, not an empty reading.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final

from .log_bars import BARE, FAIL, PHASE, TRAIN, read_bar, restore_cut_bars, split_bars
from .log_figures import read_figures
from .log_rules import ANCHORS, GPU_OOM, OTHER_FAILURE, READS
from .log_text import Gated

MAX_CHARS: Final = 200_000


@dataclass(frozen=True, slots=True)
class Signal:
    """One fact read from the text; `data` is JSON-serialisable (numbers as int/float, strings, booleans)."""

    id: str
    data: dict[str, Any]


@dataclass(frozen=True, slots=True)
class LogReading:
    """What a log says about a failure."""

    signals: tuple[Signal, ...]  # in order of first appearance, one per id
    gpu_oom: bool  # a GPU out-of-memory was seen
    not_gpu_oom: str | None  # id of a failure that is NOT a GPU OOM, when seen and no GPU OOM was seen
    step: int | None  # the last training step seen (progress bar / message)
    total_steps: int | None
    phase: str | None  # "sampling" | "training" | "caching" | "loading" | "saving" | None: phase at failure
    seconds_per_step: float | None = None  # the rate of the last training bar's update, when it shows one


_EMPTY: Final = LogReading(signals=(), gpu_oom=False, not_gpu_oom=None, step=None, total_steps=None, phase=None)

_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]?")

# --- looks_like_log ---------------------------------------------------------------------------------------------

# Any of these is log material on its own. A log pasted lower-cased (`cuda out of memory. tried to allocate 20.00 mib`,
# as some forums and phones write it) is still one: the phrases the trainer's casing tells nothing of are listed in
# lower case too ("Error:" and 'File "' are not: "error:" and 'file "' open the user's own sentences).
_LOG_LITERALS: Final = (
    "Traceback (most recent call last)",
    "traceback (most recent call last)",
    "%|",
    "torch.",
    'File "',
    "Error running job",
    "error running job",
    "Error:",
    "Exception:",
    "out of memory. Tried to allocate",
    "out of memory. tried to allocate",
    "OOM during training step",
    "oom during training step",
)
# Otherwise these patterns, each tried only when its word is in the text.
_LOG_PATTERNS: Final[Gated] = (
    (("ERROR", "FATAL", "WARNING", "INFO"), re.compile(r"(?m)^\W{0,3}(?:ERROR|FATAL|WARNING|INFO)\b")),
    ((".py", ".cpp", ".cu", ".sh"), re.compile(r"\.(?:py|cpp|cu|h|c|sh)\b\"?(?::|,\s*line\s+)\d+")),
    (("-",), re.compile(r"\b\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}")),  # timestamps
    ((":",), re.compile(r"\b\d{1,2}:\d{2}:\d{2}\b")),
    (("|",), re.compile(r"\|[^|\n]{0,80}\|\s*\d+/\d+")),  # |####| 2/3000 bars
    (("<",), re.compile(r"\[\d{1,3}:\d{2}<")),  # tqdm's [00:12<5:00:01
    (("illed", "ILLED"), re.compile(r"(?im)killed\s+process\s+\d|^\s*+killed\s*+$")),
    (("egmentation fault",), re.compile(r"(?im)^\s*segmentation fault")),
)


def looks_like_log(text: str) -> bool:
    """True when the text contains log or traceback material rather than only prose."""
    if not isinstance(text, str) or not text:
        return False
    text = text[-MAX_CHARS:]
    # Loops, not any() over generators: this runs on every question (6.5 -> 2.3 us on a short one).
    for literal in _LOG_LITERALS:
        if literal in text:
            return True
    for words, pattern in _LOG_PATTERNS:
        for word in words:
            if word in text:
                if pattern.search(text) is not None:
                    return True
                break
    return False

# --- read_log ---------------------------------------------------------------------------------------------------


def read_log(text: str) -> LogReading:
    """Read a log (or free text quoting one): signals, GPU OOM or not, last step, phase at the failure."""
    if not isinstance(text, str) or not text:
        return _EMPTY
    return _Reader(_normalise(text[-MAX_CHARS:])).read()


def _normalise(text: str) -> str:
    if "\x1b" in text:
        text = _ANSI.sub("", text)
    if "\r" in text:
        text = text.replace("\r", "\n")  # tqdm updates and CRLF alike (a blank line changes nothing)
    return restore_cut_bars(text)


_Key = tuple[int, int, int]  # (position in the non-bar text, 0 = bar run before it / 1 = in it, sequence)


class _Reader:
    """One reading: collects events and signal data, then replays the events in order."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.seq = 0
        self.events: list[tuple[_Key, str, Any]] = []
        self.first: dict[str, _Key] = {}
        self.data: dict[str, dict[str, Any]] = {}
        self.processes: dict[tuple[str, float], float] = {}
        self.oom_lines: list[int] = []  # start of each line holding a GPU OOM, in the lowered non-bar text
        self.markers: list[tuple[_Key, str, dict[str, Any]]] = []  # caching / loading / saving markers
        self.ended: set[_Key] = set()  # the phases of bars that reached their total ("3/3 [00:02<00:00]")

    # -- recording

    def key(self, pos: int, tier: int = 1) -> _Key:
        self.seq += 1
        return (pos, tier, self.seq)

    def signal(self, sid: str, key: _Key, **data: Any) -> None:
        if sid not in self.first:
            self.first[sid] = key
            self.data[sid] = {}
        self.data[sid].update(data)

    def event(self, key: _Key, kind: str, payload: Any) -> None:
        self.events.append((key, kind, payload))

    def failure(self, sid: str, key: _Key, **data: Any) -> None:
        """A failure that is not a GPU OOM: its signal keeps the data of its first occurrence (the exception
        itself, not what quotes it later); every occurrence is an event."""
        if sid not in self.first:
            self.signal(sid, key, **data)
        self.event(key, FAIL, sid)

    # -- reading

    def read(self) -> LogReading:
        nb_text, runs = split_bars(self.text)
        for offset, last, head, kind in runs:
            read_bar(self, offset, last, head, kind)
        low = nb_text.lower()
        if len(low) != len(nb_text):  # only U+0130 lowers to two characters
            low = nb_text.replace("\u0130", "I").lower()
        self.scan(nb_text, low)
        if not self.events and not self.first:
            return _EMPTY  # nothing read (most questions): nothing to replay
        read_figures(self, low)
        return self.replay()

    def phase(self, key: _Key, phase: str, text: str, baseline: bool | None = None, step: int | None = None) -> None:
        self.event(key, PHASE, (phase, baseline))
        if phase == "sampling":
            self.signal("sampling", key)
        elif phase != "training":
            self.signal(phase, key)
            self.markers.append((key, phase, {"text": text} if step is None else {"text": text, "step": step}))

    def scan(self, text: str, low: str) -> None:
        """Find anchor words; read each line holding one with the rules they call for (a bit per rule)."""
        lines: dict[int, int] = {}
        for word, mask in ANCHORS:
            pos = low.find(word)
            while pos >= 0:
                start = low.rfind("\n", 0, pos) + 1
                end = low.find("\n", pos)
                if end < 0:
                    end = len(low)
                lines[start] = lines.get(start, 0) | mask
                pos = low.find(word, end)
        for start in sorted(lines):
            end = low.find("\n", start)
            if end < 0:
                end = len(low)
            self.line(start, low[start:end], text[start:end], lines[start])

    def line(self, start: int, low: str, line: str, rules: int) -> None:
        """Read one line with the rules its anchor words call for (`rules`: a bit per place in the table), in
        the table's order."""
        failed = False  # a failure of a known kind was read on this line
        for bit, read in READS:
            if rules & bit and read(self, start, low, line, failed):
                failed = True

    def replay(self) -> LogReading:
        """Walk the events in order: phase at each failure, training progress, baseline sampling."""
        self.events.sort(key=lambda e: e[0])
        phase: str | None = None
        step: int | None = None
        total: int | None = None
        rate: float | None = None
        train_total: int | None = None
        in_baseline = ended = False  # baseline samples started, no training step since; the last phase's bar ended
        sampling_baseline = False  # the last sampling seen was the baseline one
        at_fail: dict[str, tuple[_Key, str | None, bool]] = {}
        progress_first: _Key | None = None
        for key, kind, payload in self.events:
            if kind == BARE:
                # (a bare bar at its total, `100%|####| 9/9` reading image sizes, is a finished loop: no failing step)
                done = payload[0] == payload[1] and train_total is None
                if done or phase not in (None, "training") or (train_total is not None and payload[1] != train_total):
                    continue
                kind = TRAIN
            ended = kind == PHASE and key in self.ended
            if kind == TRAIN:
                phase = "training"
                step, total, rate = payload
                train_total = total
                in_baseline = False
                if progress_first is None:
                    progress_first = key
            elif kind == PHASE:
                phase, baseline = payload
                if phase == "sampling":
                    if baseline is not None:
                        in_baseline = baseline
                    sampling_baseline = in_baseline
            elif kind == FAIL:
                at_fail[payload] = (key, phase, sampling_baseline)
        phase = None if ended else phase  # a finished bar ("shards: 100% 3/3") is no phase, but a failure's is
        gpu = [at_fail[s] for s in GPU_OOM if s in at_fail]
        other = [(at_fail[s], s) for s in OTHER_FAILURE if s in at_fail]
        gpu_oom = bool(gpu)
        not_gpu_oom: str | None = None
        if gpu_oom:
            _, phase, sampling_baseline = max(gpu)
        elif other:
            (_, phase, sampling_baseline), not_gpu_oom = max(other)
        if progress_first is not None and step is not None and total is not None:
            self.signal("progress", progress_first, step=step, total=total)
        if "sampling" in self.data:
            self.data["sampling"]["baseline"] = sampling_baseline
        for _, sid, data in sorted(self.markers, key=lambda m: m[0]):  # in text order: the last marker's text wins
            self.data[sid].update(data)
        ordered = sorted(self.first, key=self.first.__getitem__)
        return LogReading(
            signals=tuple(Signal(sid, self.data[sid]) for sid in ordered),
            gpu_oom=gpu_oom,
            not_gpu_oom=not_gpu_oom,
            step=step,
            total_steps=total,
            phase=phase,
            seconds_per_step=rate,
        )
