"""The outcome (engine layer): how sure a ranking is, and the match it earns (`confident`, `ambiguous`, `none`)."""

from __future__ import annotations

from collections.abc import Iterable, Set

INFERRED = "crash_oom"  # an out-of-memory inferred from a crash in the job (intents.yaml `implies`)


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


def without_evidence(concepts: Set[str], gpu_oom_log: bool, groups: Iterable[Set[str]]) -> bool:
    """True for a symptom inferred from a crash in the job (a target whose `require_any` accepts `crash_oom`) when
    the text holds no memory evidence: no out-of-memory words (`oom`), no CUDA OOM log. The guide may still apply,
    so such a match is `ambiguous`, never `confident` ("it crashes while generating samples").

    >>> without_evidence({"crash_oom", "preview"}, False, [{"oom", "crash_oom"}])
    True
    >>> without_evidence({"crash_oom", "oom"}, False, [{"oom", "crash_oom"}]), without_evidence({"crash_oom"}, True, [])
    (False, False)
    """
    return INFERRED in concepts and "oom" not in concepts and not gpu_oom_log and any(INFERRED in g for g in groups)
