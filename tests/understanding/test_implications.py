"""`implied` over an indexed `Implications` reads the rules as the plain walk does: in their order."""

from __future__ import annotations

import pytest

from remedy.understanding.implications import Implications, implied

RULES = (
    (frozenset({"memory", "crash"}), "oom"),
    (frozenset({"oom", "sampling"}), "oom_sampling"),  # reads what the rule before it added
    (frozenset({"late"}), "memory"),  # adds what the first rule needs, after it: the first rule does not see it
    (frozenset(), "always"),
    (frozenset({"oom_sampling"}), "preview"),
)


@pytest.mark.parametrize("concepts, expected", [
    ({"memory", "crash", "sampling"}, {"memory", "crash", "sampling", "oom", "oom_sampling", "preview", "always"}),
    ({"late", "crash"}, {"late", "crash", "memory", "always"}),
    ({"memory"}, {"memory", "always"}),
    (set(), {"always"}),
], ids=["chained", "a-later-rule-is-not-read-back", "one-of-two", "nothing"])
def test_the_indexed_walk_reads_the_rules_in_their_order(concepts: set[str], expected: set[str]) -> None:
    assert implied(concepts, Implications(RULES)) == implied(concepts, RULES) == expected


def test_the_index_keeps_the_rules_as_a_tuple() -> None:
    rules = Implications(RULES)
    assert tuple(rules) == RULES and rules.by_concept["oom"] == (1,) and rules.always == (3,)
