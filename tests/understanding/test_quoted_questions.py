"""Issue 12, session 18: a short reply to a question it quotes (a support bot's question answered in the chat) reads
the question as its context, and the question states nothing itself; an answer word that is a clause of its own ("No,
I have GC on", "non, coupé", "nein, ist aus") answers, it denies no state told after it. Twins: a negation inside its
clause still denies ("I don't have GC on"), and a question quoted above a reply that does not tell the state leaves it
unknown. A bare "did that", "ya lo hice", `그렇게 했어요` takes up the switch of the quote it answers, and a
"no" of its own clause answering a quoted question denies it (a bare "yes" is not read: a hit on every "yes" and "ja"
cost 4 % of the short queries' p99). Sentences written for the test (none is a line of a
query set)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.understanding.probes import answered_symptom, diagnose, diagnosed_context


@pytest.mark.parametrize(("lang", "text", "symptom", "gc"), [
    ("en", "> Is gradient_checkpointing set to true?\nyes it's true. still OOM, batch 4", "oom-persists-with-gc", True),
    ("es", "> ¿Tienes el GC activado?\nno, apagado. OOM en el paso 2", "oom-early-steps", False),
    ("pt", "> Quando deu o OOM?\nna hora das amostras. GC ligado", "oom-during-sampling", True),
    ("fr", "> GC activé ?\nnon, coupé. OOM au step 2", "oom-early-steps", False),
    ("de", "> Ist gradient_checkpointing: true gesetzt?\nja, ist true. trotzdem OOM, batch 4", "oom-persists-with-gc",
     True),
    ("ko", "> 언제 OOM이 났나요?\n샘플 생성할 때요. GC는 켜져 있어요", "oom-during-sampling", True),
])
def test_a_short_answer_reads_the_question_it_quotes(
    client: TestClient, lang: str, text: str, symptom: str, gc: bool
) -> None:
    assert answered_symptom(diagnose(client, lang, text)) == symptom
    assert diagnosed_context(client, lang, text)["gradient_checkpointing"] is gc


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "No, I have GC on and it still OOMs at step 40"),
    ("en", "nope, gc is on. still oom at step 40"),
    ("es", "no, tengo el GC activado y sigue dando OOM en el paso 40"),
    ("pt", "não, o GC tá ligado e continua dando OOM no passo 40"),
    ("fr", "non, le GC est activé, OOM au step 40"),
    ("de", "nein, GC ist an und trotzdem OOM bei Schritt 40"),
    ("ko", "아니요, GC 켜져 있는데도 40스텝에서 OOM 나요"),
])
def test_an_answer_word_denies_no_state_after_it(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_context(client, lang, text)["gradient_checkpointing"] is True


@pytest.mark.parametrize(("lang", "text", "gc"), [
    ("en", "I don't have GC on, OOM at step 2", False),
    ("es", "no tengo el GC activado, OOM en el paso 2", False),
    ("en", "> Is GC on?\nnot sure tbh, OOM at step 2", None),
    ("fr", "> GC activé ?\naucune idée, OOM au step 2", None),
])
def test_a_denied_state_stays_and_a_question_states_nothing(
    client: TestClient, lang: str, text: str, gc: bool | None
) -> None:
    assert diagnosed_context(client, lang, text).get("gradient_checkpointing") is gc


@pytest.mark.parametrize(("lang", "text", "gc"), [
    ("en", "> set gradient_checkpointing: true and retry\ndid that, still OOM at step 40", True),
    ("en", "> try turning GC off\ndid that, now it OOMs at step 2", False),
    ("en", "> Is GC on?\nno, OOM at step 2", False),
    ("es", "> activa el gradient checkpointing y vuelve a probar\nya lo hice, sigue el OOM en el paso 40", True),
    ("pt", "> liga o gradient checkpointing e tenta de novo\njá fiz, continua dando OOM no passo 40", True),
    ("fr", "> GC activé ?\nnon. OOM au step 2", False),
    ("de", "> schalte gradient checkpointing ein und versuch es nochmal\nhab ich gemacht, trotzdem OOM bei "
           "Schritt 40", True),
    ("ko", "> train: 블록에서 gradient_checkpointing: true로 설정하고 다시 시도해 보세요.\n"
           "그렇게 했어요. 그래도 또 out of memory가 났어요", True),
])
def test_a_bare_answer_takes_up_the_quoted_switch(client: TestClient, lang: str, text: str, gc: bool) -> None:
    assert diagnosed_context(client, lang, text)["gradient_checkpointing"] is gc
