"""What a request computes, as data: the kind of answer and its inputs, without the runtime (issue 13).

A route describes its computation as a `Work` and hands it to `lane.compute`: on the event loop, in the heavy
lane's thread, or across to the heavy lane's process as bytes (pickled), where it is performed against that
process's copy of the runtime. `perform` is the one place the answer functions meet the runtime's parts, so
the answer is the same wherever the work runs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from ..answers import answer_config_check, answer_diagnosis, answer_search
from ..catalogs import Negotiated
from ..runtime import Runtime
from .deps import thresholds_of

Kind = Literal["diagnose", "config-check", "search"]


@dataclass(frozen=True, slots=True)
class Work:
    """One answer to compute: `inputs` are the answer function's keyword arguments that come from the request
    (plain data and the request's pydantic models, all picklable)."""

    kind: Kind
    neg: Negotiated
    inputs: dict[str, Any]


def perform(runtime: Runtime, work: Work) -> dict[str, Any]:
    """The answer of `work`, computed here with this process's runtime."""
    return _KINDS[work.kind](runtime, work.neg, work.inputs)


def _diagnose(runtime: Runtime, neg: Negotiated, inputs: dict[str, Any]) -> dict[str, Any]:
    return answer_diagnosis(runtime.index, runtime.catalogs, neg, thresholds=thresholds_of(runtime),
                            caches=runtime.caches, limits=runtime.limits, **inputs)


def _config_check(runtime: Runtime, neg: Negotiated, inputs: dict[str, Any]) -> dict[str, Any]:
    return answer_config_check(runtime.index, runtime.catalogs, neg, **inputs)


def _search(runtime: Runtime, neg: Negotiated, inputs: dict[str, Any]) -> dict[str, Any]:
    return answer_search(runtime.index, runtime.catalogs, neg, inputs["query"], inputs["limit"],
                         thresholds_of(runtime), caches=runtime.caches, limits=runtime.limits)


_KINDS: dict[str, Callable[[Runtime, Negotiated, dict[str, Any]], dict[str, Any]]] = {
    "diagnose": _diagnose, "config-check": _config_check, "search": _search,
}
