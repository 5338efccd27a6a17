"""Issue 12, session 13: a reply that tells the person it answers about their run ("yours OOMs because your GC is
off", "a ti te da OOM porque tienes el GC apagado", "no seu caso", "chez toi", "bei dir", "질문하신 분은") before the
user's own: that person's GC state and failure are none of the user's run (`their_run`), whose own result is the
question. Twins: the same failure told as the user's keeps it. Sentences written for the test (none is a line of a
query set)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.understanding.probes import answered_symptom, diagnose


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "@marco yours OOMs at step 2 because your GC is off. Mine has GC on and runs, but my samples look nothing "
           "like the person"),
    ("es", "@pepe a ti te da OOM porque tienes el GC apagado. Yo tengo el GC activado y va, pero mis muestras no se "
           "parecen a la persona"),
    ("pt", "@zé no seu caso dá OOM porque o GC tá desligado. Eu tenho o GC ligado e roda, mas minhas amostras não se "
           "parecem com a pessoa"),
    ("fr", "@Léa chez toi ça fait OOM parce que le GC est désactivé. Moi j'ai le GC activé et ça tourne, mais mes "
           "samples ne ressemblent pas à la personne"),
    ("de", "@Tobi bei dir kommt der OOM weil GC aus ist. Bei mir ist GC an und es läuft, aber die Samples sehen der "
           "Person nicht ähnlich"),
    ("ko", "위에 질문하신 분은 GC 꺼서 OOM 나는 거예요. 저는 GC 켜고 잘 돌아가는데 샘플이 그 사람이랑 안 닮았어요"),
])
def test_the_answered_persons_failure_is_not_the_users(client: TestClient, lang: str, text: str) -> None:
    answer = diagnose(client, lang, text)
    assert answered_symptom(answer) == "weak-samples"
    assert answer["context"].get("gradient_checkpointing") is not False  # type: ignore[attr-defined]


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "mine OOMs at step 2 because my GC is off"),
    ("es", "a mí me da OOM en el paso 2 porque tengo el GC apagado"),
    ("de", "bei mir kommt der OOM bei Step 2, weil GC aus ist"),
    ("ko", "저는 GC 꺼서 2스텝에서 OOM 나요"),
])
def test_the_users_own_failure_is_kept(client: TestClient, lang: str, text: str) -> None:
    assert answered_symptom(diagnose(client, lang, text)) == "oom-early-steps"
