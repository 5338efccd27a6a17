"""The operator table: semantics with known and unknown values, and refusal of unknown names."""

from __future__ import annotations

from typing import Any

import pytest

from remedy.index.conditions import ConditionError, compile_condition, condition_fields

CASES = [
    ({"batch_size": {"eq": 2}}, {"batch_size": 2}, True),
    ({"batch_size": {"eq": 2}}, {}, False),
    ({"gradient_checkpointing": {"ne": True}}, {"gradient_checkpointing": False}, True),
    ({"gradient_checkpointing": {"ne": True}}, {}, True),
    ({"gradient_checkpointing": {"ne": True}}, {"gradient_checkpointing": True}, False),
    ({"family": {"in": ["flux", "z-image"]}}, {"family": "flux"}, True),
    ({"family": {"in": ["flux"]}}, {}, False),
    ({"family": {"not_in": ["flux"]}}, {}, True),
    ({"batch_size": {"gt": 4}}, {"batch_size": 5}, True),
    ({"batch_size": {"gt": 4}}, {"batch_size": 4}, False),
    ({"batch_size": {"gte": 2}}, {"batch_size": 2}, True),
    ({"max_resolution": {"lt": 1024}}, {"max_resolution": 768}, True),
    ({"max_resolution": {"lte": 1024}}, {}, False),
    ({"gradient_checkpointing": {"unknown": True}}, {}, True),
    ({"gradient_checkpointing": {"unknown": True}}, {"gradient_checkpointing": False}, False),
    ({"any": [{"batch_size": {"gte": 2}}, {"num_frames": {"gt": 1}}]}, {"num_frames": 9}, True),
    ({"any": [{"batch_size": {"gte": 2}}, {"num_frames": {"gt": 1}}]}, {"batch_size": 1}, False),
    ({"all": [{"batch_size": {"gte": 2}}, {"num_frames": {"gt": 1}}]}, {"batch_size": 2, "num_frames": 9}, True),
    ({}, {}, True),
]


@pytest.mark.parametrize(("condition", "facts", "expected"), CASES)
def test_operator(condition: dict[str, Any], facts: dict[str, Any], expected: bool) -> None:
    assert compile_condition(condition)(facts) is expected


@pytest.mark.parametrize(
    ("condition", "code"),
    [
        ({"batch_size": {"approx": 2}}, "unknown-operator"),
        ({"vram_gb": {"gt": 24}}, "unknown-field"),
        ({"any": []}, "schema"),
        ({"batch_size": 2}, "schema"),
    ],
)
def test_bad_condition_is_refused_with_its_code(condition: dict[str, Any], code: str) -> None:
    with pytest.raises(ConditionError) as err:
        compile_condition(condition)
    assert err.value.code == code


def test_condition_fields_include_nested() -> None:
    cond = {"gradient_checkpointing": {"eq": False}, "any": [{"batch_size": {"gt": 1}}, {"num_frames": {"gt": 1}}]}
    assert condition_fields(cond) == {"gradient_checkpointing", "batch_size", "num_frames"}
