"""Issue 12, session 18: a history of attempts that each failed at a step is told to ask about the present one: the
step told after a "now" ("attempt 2: OOM at step 2. attempt 3 (today): ... now it dies at step 3", "Run 3 (jetzt):
... crasht bei Step 3") is the failing step, not the first one told. Twins: with no "now", the step nearest the
failure word, then the first, stays; of steps all told after "now", the one nearest its failure word. Sentences
written for the test (none is a line of a query set)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.understanding.probes import diagnosed_context


@pytest.mark.parametrize(("lang", "text", "step"), [
    ("en", "attempt 1: OOM at step 2 with GC off. attempt 2: batch 2, and now it dies at step 3", 3),
    ("es", "primer intento: OOM en el paso 2 con el GC apagado. segundo intento: batch 2 y ahora se muere en el paso 3",
     3),
    ("pt", "primeira tentativa: OOM no passo 2 com GC desligado. segunda: batch 2 e agora morre no passo 3", 3),
    ("fr", "essai 1 : OOM au step 2 avec le GC coupé. essai 2 : batch 2, et maintenant ça plante au step 3", 3),
    ("de", "Run 1: OOM bei Step 2 mit GC aus. Run 2 (jetzt): batch 2, und crasht direkt bei Step 3", 3),
    ("ko", "첫 시도: GC 끄고 2스텝에서 OOM. 두 번째: 배치 2로 했더니 지금은 3스텝에서 죽어요", 3),
    ("en", "OOM at step 2 with GC off, and at step 5 when I tried batch 2", 2),
    ("en", "now it OOMs at step 2 every time, even though the first run got to step 40 before it died", 2),
])
def test_the_step_told_now_is_the_failing_one(client: TestClient, lang: str, text: str, step: int) -> None:
    assert diagnosed_context(client, lang, text).get("step") == step
