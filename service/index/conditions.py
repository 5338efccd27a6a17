"""Rule conditions: a small, closed set of operators registered in one table, compiled to predicates.

A condition is a mapping of field -> {operator: operand}; every entry must hold. `any: [cond, …]` and
`all: [cond, …]` combine conditions. Fields are the context's own fields plus the derived facts of
`remedy.content.context.DERIVED_FIELDS`. An unknown (None) field satisfies no comparison except
`ne`, `not_in` and `unknown`, so `gradient_checkpointing: {ne: true}` means "off or not known".

>>> pred = compile_condition({"batch_size": {"gte": 2}})
>>> pred({"batch_size": 4}), pred({"batch_size": 1}), pred({})
(True, False, False)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..content.context import CONTEXT_FIELDS, DERIVED_FIELDS

Facts = Mapping[str, Any]
Predicate = Callable[[Facts], bool]


# operator -> (field, operand) -> predicate over the facts. Each predicate reads its field once and compares it
# inline: the rules run on every diagnosis, so there is no layer of calls between a predicate and its test.
OPERATORS: dict[str, Callable[[str, Any], Predicate]] = {
    "eq": lambda n, o: lambda f: (v := f.get(n)) is not None and v == o,
    "ne": lambda n, o: lambda f: f.get(n) != o,
    "in": lambda n, o: lambda f: (v := f.get(n)) is not None and v in o,
    "not_in": lambda n, o: lambda f: f.get(n) not in o,
    "gt": lambda n, o: lambda f: (v := f.get(n)) is not None and v > o,
    "gte": lambda n, o: lambda f: (v := f.get(n)) is not None and v >= o,
    "lt": lambda n, o: lambda f: (v := f.get(n)) is not None and v < o,
    "lte": lambda n, o: lambda f: (v := f.get(n)) is not None and v <= o,
    "unknown": lambda n, o: lambda f: (f.get(n) is None) == bool(o),
}

FIELDS: frozenset[str] = frozenset(CONTEXT_FIELDS) | frozenset(DERIVED_FIELDS)


class ConditionError(ValueError):
    """A condition names an operator or field that does not exist; `code` is the content problem code."""

    def __init__(self, code: str, path: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.path = path


def compile_condition(condition: Mapping[str, Any], path: str = "") -> Predicate:
    """Compile a condition mapping into a predicate over a facts mapping."""
    parts: list[Predicate] = []
    for name, spec in condition.items():
        where = f"{path}.{name}" if path else name
        if name in ("any", "all"):
            if not isinstance(spec, list) or not spec:
                raise ConditionError("schema", where, f"{name} takes a non-empty list of conditions")
            subs = tuple(compile_condition(sub, f"{where}.{i}") for i, sub in enumerate(spec))
            parts.append(_any(subs) if name == "any" else _all(subs))
            continue
        if name not in FIELDS:
            raise ConditionError("unknown-field", where, f"the context has no field {name!r}")
        if not isinstance(spec, Mapping) or not spec:
            raise ConditionError("schema", where, "expected a mapping of operator to operand")
        for op_name, operand in spec.items():
            op = OPERATORS.get(op_name)
            if op is None:
                raise ConditionError("unknown-operator", f"{where}.{op_name}", f"no operator {op_name!r}")
            parts.append(_leaf(name, op, operand))
    return _all(tuple(parts))


def condition_fields(condition: Mapping[str, Any]) -> frozenset[str]:
    """The fields a condition reads (for `needs`)."""
    out: set[str] = set()
    for name, spec in condition.items():
        if name in ("any", "all"):
            for sub in spec:
                out |= condition_fields(sub)
        else:
            out.add(name)
    return frozenset(out)


def _leaf(name: str, op: Callable[[str, Any], Predicate], operand: Any) -> Predicate:
    return op(name, tuple(operand) if isinstance(operand, list) else operand)


def _all(parts: tuple[Predicate, ...]) -> Predicate:
    if len(parts) == 1:
        return parts[0]  # most conditions have one part: no wrapper to call through on every request
    if len(parts) == 2:
        first, second = parts
        return lambda facts: first(facts) and second(facts)
    return lambda facts: all(p(facts) for p in parts)


def _any(parts: tuple[Predicate, ...]) -> Predicate:
    if len(parts) == 1:
        return parts[0]
    if len(parts) == 2:
        first, second = parts
        return lambda facts: first(facts) or second(facts)
    return lambda facts: any(p(facts) for p in parts)
