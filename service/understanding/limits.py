"""Caps on the work one text may cost, whatever it holds (issue 13: no request monopolizes a worker).

The defaults are the settings' defaults (`REMEDY_MAX_QUERY_TOKENS`, ...); the HTTP layer and the CLI pass the
configured values in. Each cap keeps what matters: the first words of the user's own text, the end of a
pasted log (where the failure is), and typo correction for the first unknown words.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class WorkLimits:
    tokens: int = 160  # words analysed (split, corrected, stemmed) per text; the rest are not read
    corrections: int = 32  # words per text looked up for a typo correction; later unknown words stay as written
    word_chars: int = 48  # a longer token is no vocabulary word: taken as written, never split or corrected
    log_lines: int = 1_000  # lines of a text read: its first line (the user's own) and the last ones


def clip_lines(text: str, max_lines: int) -> str:
    """The first line and the last `max_lines - 1` lines of a text with more lines than `max_lines`.

    >>> clip_lines("a\\nb\\nc\\nd", 3)
    'a\\nc\\nd'
    """
    if text.count("\n") < max_lines:
        return text
    lines = text.split("\n")
    return "\n".join([lines[0], *lines[len(lines) - max_lines + 1 :]])


DEFAULT_LIMITS = WorkLimits()
