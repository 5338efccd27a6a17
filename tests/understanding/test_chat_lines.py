"""Issue 12, session 13: a chat message typed over several lines ("wan 2.2 lora keeps dying / like step 3 / 4090, gc
off"), with or without a transcript's time and name before each line ("[10:42] anon: ..."), is one message: the crash
and the step of the next line are read together, an early-step OOM with GC off. Korean lines have no case: a short
next line with no sentence ending ("3스텝쯤에서") goes on from the one before. Twins: a log's timestamped lines keep
their level, and lines that each end a sentence stay apart. Sentences written for the test (none is a line of a query
set)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from remedy.understanding.chat import unchatted
from remedy.understanding.splitting import split_sentences
from tests.understanding.probes import answered_symptom, diagnose


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "[10:42] anon: wan 2.2 lora keeps dying\n[10:42] anon: like step 3\n[10:43] anon: 4090, gc off"),
    ("en", "wan 2.2 lora keeps dying\nlike step 3\n4090, gc off"),
    ("es", "[10:42] pepe: el lora de wan se me muere\n[10:42] pepe: como en el paso 3\n[10:43] pepe: 4090, gc apagado"),
    ("pt", "[10:42] zé: o lora do wan morre\n[10:42] zé: tipo no passo 3\n[10:43] zé: 4090, gc desligado"),
    ("fr", "[10:42] léa: mon lora wan plante\n[10:42] léa: genre au step 3\n[10:43] léa: 4090, gc désactivé"),
    ("de", "[10:42] tobi: mein wan lora stürzt ab\n[10:42] tobi: so bei step 3\n[10:43] tobi: 4090, gc aus"),
    ("ko", "[10:42] 철수: 완 로라 계속 죽어요\n[10:42] 철수: 3스텝쯤에서\n[10:43] 철수: 4090이고 gc 껐어요"),
])
def test_a_message_typed_over_lines_is_read_whole(client: TestClient, lang: str, text: str) -> None:
    answer = diagnose(client, lang, text)
    assert answered_symptom(answer) == "oom-early-steps"
    assert answer["context"]["step"] == 3  # type: ignore[index]
    assert answer["context"]["gradient_checkpointing"] is False  # type: ignore[index]


def test_a_logs_timestamped_lines_keep_their_level() -> None:
    log = "[10:42:01] INFO: loading model\n[10:42:02] INFO: done"
    assert unchatted(log) == log


def test_lines_that_end_their_sentences_stay_apart() -> None:
    assert len(list(split_sentences("My LoRA looks great.\nthe run took 3 hours"))) == 2
    assert len(list(split_sentences("OOM at step 2\nI use GC"))) == 2


@pytest.mark.parametrize(("lang", "text"), [
    ("ko", "잡이 실패했어요 2스텝에서요"),
    ("ko", "학습이 자꾸 죽어요 3스텝쯤에요"),
])
def test_a_korean_afterthought_belongs_to_its_sentence(client: TestClient, lang: str, text: str) -> None:
    assert answered_symptom(diagnose(client, lang, text)) == "oom-early-steps"
