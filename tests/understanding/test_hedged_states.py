"""Issue 12, session 18: a GC state told with doubt is no state of the job: a doubt of whether before the switch it
opens ("não sei se tá ligado o GC", "not sure if GC is on", "no sé si tengo el GC activado", "je sais pas si le GC est
activé", "weiß nicht ob GC an ist") and a Korean hedge after it (`켜져 있는 것 같은데 확실하진 않아요`)
leave it unknown, so the answer starts with the guide's first fix. An ordinary word of the language is one word, not
a compound (`jedenfalls`, "anyway", is no `jeden` + `falls`, "if": the OOM after it is told). Twins: a state told
plainly beside a doubt about something else ("GC tá ligado, não sei mais o que fazer"), and a hedge of the failure,
not of the switch (`OOM 나는 것 같아요. GC 켜져 있어요`), keep the state. Spanish `apagado` said of the switch is no
dull colour. Sentences written for the test."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from remedy.index.build import Index
from remedy.understanding.matcher import understand
from tests.understanding.probes import answered_symptom, diagnose, diagnosed_context


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "not sure if gradient checkpointing is on, but it OOMs right at step 2. flux dev, batch 1"),
    ("es", "no sé si tengo el GC activado, pero da OOM en el paso 2. flux dev, batch 1"),
    ("pt", "não sei se tá ligado o gradient checkpointing, mas dá OOM logo no passo 2. Flux dev, batch 1"),
    ("fr", "je sais pas si le GC est activé, mais ça fait OOM au step 2. flux dev, batch 1"),
    ("de", "weiß nicht ob GC an ist, aber OOM bei Schritt 2. flux dev, batch 1"),
    ("ko", "그라디언트 체크포인팅 켜져 있는 것 같은데 확실하진 않아요. step 2에서 바로 OOM 나요. FLUX.1 dev, batch 1"),
])
def test_a_doubted_state_is_unknown(client: TestClient, lang: str, text: str) -> None:
    answer = diagnose(client, lang, text)
    assert answered_symptom(answer) == "oom-early-steps"
    assert "gradient_checkpointing" not in diagnosed_context(client, lang, text)
    steps = answer["steps"]
    assert isinstance(steps, list) and steps[0]["id"] == "enable-gradient-checkpointing"


@pytest.mark.parametrize(("lang", "text"), [
    ("pt", "GC tá ligado, não sei mais o que fazer, OOM no passo 2"),
    ("en", "GC is on, not sure what else to try, OOM at step 2"),
    ("ko", "OOM 나는 것 같아요. GC 켜져 있어요"),
])
def test_a_plain_state_beside_another_doubt_stays(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_context(client, lang, text)["gradient_checkpointing"] is True


def test_an_ordinary_word_is_no_compound(client: TestClient) -> None:
    text = "Keine Ahnung. Jedenfalls OOM, sobald die Samples kommen"
    assert answered_symptom(diagnose(client, "de", text)) == "oom-during-sampling"


@pytest.mark.parametrize("text", ["tengo el GC apagado y me da OOM en el paso 2", "con el GC apagado va más rápido"])
def test_a_switch_word_is_no_colour(index: Index, text: str) -> None:
    # Spanish `apagado` is both "off" and "dull": said of the switch it is no colour of the images
    assert "colour_off" not in understand(index.matcher, text, "es").concepts


def test_dull_colours_are_still_a_flaw(index: Index) -> None:
    assert "colour_off" in understand(index.matcher, "los colores salen apagados", "es").concepts
