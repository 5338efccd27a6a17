"""Issue 12, session 13 (blind set 13's dev half): a reply to quoted advice ("> just turn GC on") that says GC has
been on all along and the run still fails, told without the GC word ("it's been on the whole time, still runs out",
"ya esta activado desde siempre y sigue tronando"): the GC state is the quote's, and the failure lasting through it
is the OOM that persists with GC on. Its twins: the same reply with nothing failing, and "with or without" (Spanish
"con o sin"), which switches nothing on. Sentences written for the test, in every language (none is a line of a
query set)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.understanding.probes import answered_symptom, diagnose


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "> just turn GC on\nit's been on the whole time, still runs out"),
    ("en", "> enable gradient checkpointing\nit's on already, still running out at step 40"),
    ("es", "> activa el GC\nya está activado desde siempre y sigue petando"),
    ("pt", "> liga o GC\nja ta ligado, continua estourando"),
    ("fr", "> active le GC\nil est déjà activé depuis le début, ça plante quand même"),
    ("de", "> mach GC an\nist doch schon die ganze Zeit an, stürzt trotzdem ab"),
    ("ko", "> GC 켜세요\n처음부터 켜져 있는데 그래도 터져요"),
])
def test_a_reply_that_gc_was_on_and_it_still_fails(client: TestClient, lang: str, text: str) -> None:
    answer = diagnose(client, lang, text)
    assert answered_symptom(answer) == "oom-persists-with-gc"
    assert answer["context"]["gradient_checkpointing"] is True  # type: ignore[index]


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "> just turn GC on\nit's been on the whole time, thanks"),
    ("es", "> activa el GC\nya está activado desde siempre, gracias"),
    ("pt", "> liga o GC\nja ta ligado desde o começo, valeu"),
    ("fr", "> active le GC\nil est déjà activé depuis le début, merci"),
    ("de", "> mach GC an\nist doch schon die ganze Zeit an, danke"),
    ("ko", "> GC 켜세요\n처음부터 켜져 있어요 감사합니다"),
])
def test_a_reply_that_gc_was_on_with_nothing_failing(client: TestClient, lang: str, text: str) -> None:
    assert answered_symptom(diagnose(client, lang, text)) is None


@pytest.mark.parametrize(("lang", "text"), [
    ("es", "mi lora no cambia nada, con o sin ella la imagen sale igual"),
    ("pt", "o lora não muda nada, com ou sem ele a imagem sai igual"),
    ("en", "the lora changes nothing, with or without it the image still comes out the same"),
])
def test_with_or_without_is_nothing_switched_on(client: TestClient, lang: str, text: str) -> None:
    assert answered_symptom(diagnose(client, lang, text)) == "weak-samples"
