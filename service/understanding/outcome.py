"""The outcome (engine layer): how sure a ranking is, and the match it earns (`confident`, `ambiguous`, `none`)."""

from __future__ import annotations


def outcome(best: float, second: float, confident: float, minimum: float) -> tuple[str, float]:
    """Confidence in [0, 1] from the best score and its margin over the next; the match it earns.

    >>> outcome(5.0, 3.0, 0.5, 0.25)
    ('confident', 0.714)
    >>> outcome(0.0, 0.0, 0.5, 0.25)
    ('none', 0.0)
    """
    if best <= 0:
        return "none", 0.0
    strength = best / (best + 2.0)
    margin = min(1.0, max(0.0, best - second) / 2.0)
    confidence = round(strength * (0.55 + 0.45 * margin), 3)
    if confidence >= confident:
        return "confident", confidence
    if confidence >= minimum:
        return "ambiguous", confidence
    return "none", confidence
