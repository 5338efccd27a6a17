"""Helpers of the log reader shared by its rules (pure functions): sizes, clipping, gated patterns.

Speed: `re` skips ahead quickly only to a literal prefix; a pattern that starts with `\\b`, a lookbehind, `\\d` or
an alternation of different words is tried at every position of the line (about 20-50 us on a 600-character
PyTorch message). So patterns start with a literal (a word boundary, if needed, is a lookbehind after it), each is
gated by words the line must hold (`Gated`), and the figures that start with a number are only tried near their
anchor word (`search_near`).
"""

from __future__ import annotations

import re
from typing import Final

TEXT_MAX: Final = 200  # longest `text` / `message` kept in signal data
REACH: Final = 64  # characters between a figure's anchor word and either end of its match, at most
MAX_GIB: Final = 4_096.0  # larger "memory in use" figures are reporting bugs (WSL prints 2**64 bytes)

NUM = r"(\d{1,12}(?:\.\d{1,6})?)\s*(bytes?|[kmgtp]i?b)\b"
# PyTorch's MPS allocator prints binary sizes as "MB"/"GB", so decimal-looking units are read as binary too.
UNIT_GIB: Final[dict[str, float]] = {
    "b": 1 / 1024**3,
    "byte": 1 / 1024**3,
    "bytes": 1 / 1024**3,
    "kb": 1 / 1024**2,
    "kib": 1 / 1024**2,
    "mb": 1 / 1024,
    "mib": 1 / 1024,
    "gb": 1.0,
    "gib": 1.0,
    "tb": 1024.0,
    "tib": 1024.0,
    "pb": 1024.0**2,
    "pib": 1024.0**2,
}

Gated = tuple[tuple[tuple[str, ...], re.Pattern[str]], ...]  # (any of these words in the line, then the pattern)


def gib(number: str, unit: str) -> float | None:
    """A size in GiB, rounded to 0.01 (`None` for a unit that is not one).

    >>> gib("512", "mib"), gib("1.5", "gb"), gib("3", "parsecs")
    (0.5, 1.5, None)
    """
    try:
        value = float(number) * UNIT_GIB[unit]
    except (ValueError, KeyError):
        return None
    return round(value, 2)


def clip(line: str) -> str:
    return line.strip()[:TEXT_MAX]


def first_match(low: str, patterns: Gated) -> re.Match[str] | None:
    """The earliest match of the patterns whose words the line holds."""
    best: re.Match[str] | None = None
    for words, pattern in patterns:
        for word in words:  # a loop, not any(): this runs for every pattern of every line read
            if word in low:
                m = pattern.search(low)
                if m is not None and (best is None or m.start() < best.start()):
                    best = m
                break
    return best


def search_near(pattern: re.Pattern[str], text: str, word: str) -> re.Match[str] | None:
    """`pattern.search(text)` for a pattern whose every match holds `word` within `REACH` characters of its
    ends: only the text around each occurrence of the word is tried, so a pattern that starts with a number is
    not tried at every position of a long message."""
    p = text.find(word)
    while p >= 0:
        m = pattern.search(text, max(0, p - REACH), p + len(word) + REACH)
        if m is not None:
            return m
        p = text.find(word, p + 1)
    return None


# The training loss became NaN or infinite: a log line or a progress bar's postfix (sd-scripts `avr_loss=nan`, diffusers
# `loss=nan`, AI Toolkit `loss: nan`, SimpleTuner `step_loss=nan`), or the trainer's own message ("loss is NaN").
NAN_LOSS = re.compile(r"\b\w{0,16}loss\b\s*[:=]\s*-?(?:nan|inf)\b|\bloss\s+(?:is|became|becomes|went\s+to)\s+nan\b")
