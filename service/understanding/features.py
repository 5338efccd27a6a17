"""Match features: facts about a query, besides its concepts, that intents may weigh (engine layer).

One registry (`FEATURES`) maps each feature of `structure/features.yaml` to the function that computes it from
what the earlier stages found (`FeatureInput`); start-up checks that both name the same set (`ids`).
Adding a feature: one function and one entry here, its line in `structure/features.yaml`, a weight in
`structure/intents.yaml`, and a test.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final, NamedTuple

from .extract import Stated
from .logs import LogReading

EARLY_STEP: Final = 10  # the guide's "first steps": a failure at step 10 or before is early
BIG_BUCKET: Final = 1024  # the guide's large bucket: 1024 px or more


class FeatureInput(NamedTuple):  # a tuple: made for every query, so cheap to create
    """What the features are computed from."""

    text: str  # the whole text as sent
    stated: Stated
    log: LogReading
    families: int  # how many model families the text names
    log_ids: frozenset[str] = frozenset()  # the ids of the log's signals


def input_of(text: str, stated: Stated, log: LogReading, families: int) -> FeatureInput:
    return FeatureInput(text, stated, log, families, frozenset([s.id for s in log.signals]) if log.signals else _NONE)


_NONE: Final[frozenset[str]] = frozenset()


def _sampling_oom(f: FeatureInput) -> bool:
    return f.log.phase == "sampling" and "sampling" in f.log_ids


def _baseline_oom(f: FeatureInput) -> bool:
    return _sampling_oom(f) and any(s.id == "sampling" and s.data.get("baseline") for s in f.log.signals)


def _question(f: FeatureInput) -> bool:
    return "?" in f.text or "\uff1f" in f.text


# A pasted Python traceback cut before its exception (ask11): its last line is a frame (`File "x.py", line 9, in f`) or
# the code line under one, so nothing names the error (a CUDA out-of-memory prints one); a `[rank0]:` prefix is the
# launcher's. "Traceback" is looked for first: most texts hold none.
_RANK = re.compile(r"^\[rank\d+\]:")
_FRAME = re.compile(r'^\s*File "[^"\n]+", line \d+')
_TRACEBACK = "Traceback (most recent call last)"


def _cut_traceback(f: FeatureInput) -> bool:
    if _TRACEBACK not in f.text:
        return False
    lines = [_RANK.sub("", line).rstrip() for line in f.text.rsplit(_TRACEBACK, 1)[1].splitlines()]
    lines = [line for line in lines if line.strip() and not line.strip().startswith("```")]
    if not lines:
        return False
    if _FRAME.match(lines[-1]):
        return True
    return len(lines) > 1 and _FRAME.match(lines[-2]) is not None and lines[-1][:1].isspace()


FEATURES: Final[dict[str, Callable[[FeatureInput], bool]]] = {
    "gc_on": lambda f: f.stated.gradient_checkpointing is True,
    "gc_off": lambda f: f.stated.gradient_checkpointing is False,
    "early_step": lambda f: f.stated.step is not None and f.stated.step <= EARLY_STEP,
    "late_step": lambda f: f.stated.step is not None and f.stated.step > EARLY_STEP,
    "log_gpu_oom": lambda f: f.log.gpu_oom,
    "log_training": lambda f: f.log.step is not None,
    "log_rate": lambda f: f.log.step is not None and f.log.seconds_per_step is not None,
    "log_sampling": _sampling_oom,
    "log_baseline": _baseline_oom,
    "log_other_process": lambda f: "other-process-vram" in f.log_ids,
    "log_inference": lambda f: "inference-run" in f.log_ids,
    "big_bucket": lambda f: bool(f.stated.largest_named and f.stated.largest_named >= BIG_BUCKET),
    "one_bucket": lambda f: f.stated.resolutions is not None and len(f.stated.resolutions) == 1,
    "question": _question,
    "on_or_off": lambda f: f.stated.on_or_off,
    "family_named": lambda f: f.families > 0,
    "two_families": lambda f: f.families > 1,
    "cut_traceback": _cut_traceback,
}
# Log signals the features read (checked against the log reader's table at start-up).
SIGNALS_READ: Final = frozenset({"sampling", "other-process-vram", "inference-run"})


# Features of a pasted log: none holds without a log signal (a GPU OOM, a step, a sampling phase each record
# one), so a text with no signal skips them.
LOG_FEATURES: Final = frozenset(name for name in FEATURES if name.startswith("log_"))
_ALL: Final = tuple(FEATURES.items())
_WITHOUT_LOG: Final = tuple((name, has) for name, has in _ALL if name not in LOG_FEATURES)


def features_of(f: FeatureInput) -> frozenset[str]:
    """The features a query has."""
    return frozenset([name for name, has in (_ALL if f.log.signals else _WITHOUT_LOG) if has(f)])
