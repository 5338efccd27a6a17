"""Issue 12, session 18: a Korean question written without its question mark asks by its ending (`바꾸나요`,
`빨라지나요`, `걸리나요`): a switch it asks about is no state of the job (`GC 끄면 얼마나 빨라지나요` states no GC
off), and a where-question followed by "I can't see it" still asks where (`어디서 그체 설정 바꾸나요 안보여요`).
Twins: `나요` as the verb 나다 ("an error comes up", `OOM 나요`, `OOM 안나요`) tells, and a state told beside it stays.
Sentences written for the test (none is a line of a query set)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.understanding.probes import answered_symptom, diagnose, diagnosed_context, hit_ids, search


@pytest.mark.parametrize("text", [
    "GC 끄면 얼마나 빨라지나요",
    "그체 끄면 속도 많이 빨라지나요",
    "GC 끄면 학습 시간이 보통 얼마나 줄어드나요",
])
def test_a_switch_asked_without_a_mark_is_no_state(client: TestClient, text: str) -> None:
    assert "gradient_checkpointing" not in diagnosed_context(client, "ko", text)


@pytest.mark.parametrize("text", [
    "runcomfy UI 어디서 그체 설정 바꾸나요 안보여요",
    "그체 설정 어디서 바꾸나요 메뉴에 안보여요",
])
def test_a_where_question_without_a_mark_asks_where(client: TestClient, text: str) -> None:
    assert hit_ids(search(client, "ko", text))[0] in {"where-to-change", "checklist"}


@pytest.mark.parametrize(("text", "symptom", "gc"), [
    ("GC 꺼져 있는데 2스텝에서 OOM 나요", "oom-early-steps", False),
    ("GC 끄고 돌렸더니 2스텝에서 OOM 나요 왜 그런가요", "oom-early-steps", False),
    ("GC 켜져 있는데도 계속 OOM 나요", "oom-persists-with-gc", True),
])
def test_an_error_that_comes_up_tells_its_state(client: TestClient, text: str, symptom: str, gc: bool) -> None:
    answer = diagnose(client, "ko", text)
    assert answered_symptom(answer) == symptom
    assert diagnosed_context(client, "ko", text)["gradient_checkpointing"] is gc
