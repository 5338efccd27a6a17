"""Issue 12, session 11 (trust11): a fact read from a text is what the user states of their own current run
(principle 1), in six languages, with twins where the number or the state IS the user's.

- the count before "batch size" is its value ("1 batch size and 512 image size"), a number of another noun or of the
  next clause is that one's ("resolución 512", `1 batch size, 해상도 512로`, `배치 1, 반복 10으로`);
- a batch value denied in its clause ("I don't use batch size 4") is none, the one used instead is;
- a progress count ("batch 3/250") is no batch size;
- steps told as passed ("steps 1 and 2 are fine, then OOM") and a cadence ("samples every 100 steps") are no failing
  step;
- a reply to a quote that names GC tells GC's state ("> turn on GC" / "it's been on since the start"): GC on, the
  symptom is the OOM that persists with GC, and no step enables GC;
- a step told in the past ("last month OOM at step 3") is no step of a failure told now ("now it OOMs when sampling");
- each preview's own steps told after the previews' cadence ("samples every 100 steps with 30 steps") are no failing
  step;
- a state only believed ("I thought GC was on but it wasn't") is no state of the run.

Every sentence was written for this test, as forum users write (none is a line of a query set); each is checked on
the whole answer (`/v1/diagnose`).
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient


def _diagnose(client: TestClient, lang: str, text: str) -> dict[str, Any]:
    answer: dict[str, Any] = client.post("/v1/diagnose", json={"query": text, "lang": lang}).json()
    return answer


def _context(client: TestClient, lang: str, text: str) -> dict[str, Any]:
    context: dict[str, Any] = _diagnose(client, lang, text).get("context") or {}
    return context


# --- 1. the batch size is the user's number next to its word, not another noun's ----------------------------------

BATCH = [
    # the count before "batch size", a size after it being the image size's
    ("en", "training a controlnet on my 3090 with 1 batch size and 512 image size, CUDA out of memory at step 1", 1),
    ("es", "entreno una controlnet en mi 3090 con 1 batch size y resolución 512, CUDA out of memory en el paso 1", 1),
    ("pt", "treinando uma controlnet na minha 3090 com 1 batch size e resolução 512, CUDA out of memory no passo 1", 1),
    ("fr", "j'entraîne une controlnet sur ma 3090 avec 1 batch size et une résolution de 512, CUDA out of memory au "
           "step 1", 1),
    ("de", "ich trainiere ein ControlNet auf meiner 3090 mit 1 batch size und Auflösung 512, CUDA out of memory bei "
           "Step 1", 1),
    ("ko", "3090에서 1 batch size, 해상도 512로 컨트롤넷 학습하는데 1스텝에서 CUDA out of memory", 1),
    # twins: the number after the batch word is still its size
    ("en", "training a lora with batch size 2 and 512 image size, CUDA out of memory at step 1", 2),
    ("es", "entreno con batch size 2 y resolución 512, CUDA out of memory en el paso 1", 2),
    ("de", "ich trainiere mit Batch Size 2 und Auflösung 512, CUDA out of memory bei Step 1", 2),
    # a setting of its own in the next clause: its number is no batch size
    ("en", "batch 1, repeats 10, CUDA out of memory at step 1", 1),
    ("es", "batch 1, repeticiones 10, CUDA out of memory en el paso 1", 1),
    ("pt", "batch 1, repetições 10, CUDA out of memory no passo 1", 1),
    ("fr", "batch 1, répétitions 10, CUDA out of memory au step 1", 1),
    ("de", "Batch 1, Wiederholungen 10, CUDA out of memory bei Step 1", 1),
    ("ko", "배치 1, 반복 10으로 돌리는데 1스텝에서 CUDA out of memory", 1),
    # twin: a change told in Korean is still read (`4였는데, 2로 바꿨어요`)
    ("ko", "배치 4였는데, 2로 바꿨어요 그래도 OOM", 2),
]


@pytest.mark.parametrize(("lang", "text", "batch"), BATCH, ids=[f"{x[0]}-{x[1][:40]}" for x in BATCH])
def test_the_batch_size_is_the_number_of_the_batch_word(client: TestClient, lang: str, text: str, batch: int) -> None:
    assert _context(client, lang, text).get("batch_size") == batch


# --- 2. a batch value told as not used ------------------------------------------------------------------------

DENIED = [
    ("en", "I don't use batch size 4, I use 1. still CUDA out of memory", 1),
    ("es", "no uso batch 4, uso batch 1. sigue dando CUDA out of memory", 1),
    ("pt", "não uso batch 4, uso batch 1. continua dando CUDA out of memory", 1),
    ("fr", "je n'utilise pas batch 4, j'utilise batch 1. toujours CUDA out of memory", 1),
    ("de", "ich nutze nicht batch 4, ich nutze batch 1. immer noch CUDA out of memory", 1),
    ("ko", "배치 4 안 쓰고 1로 돌려요. 그래도 CUDA out of memory", 1),
    # twins: a denial of another thing, or none, leaves the value the user's
    ("en", "I don't use GC, batch size 4, CUDA out of memory", 4),
    ("es", "uso batch 4 y me da CUDA out of memory", 4),
    ("de", "ich nutze kein GC, Batch 4, CUDA out of memory", 4),
]


@pytest.mark.parametrize(("lang", "text", "batch"), DENIED, ids=[f"{x[0]}-{x[1][:40]}" for x in DENIED])
def test_a_batch_value_told_as_not_used_is_none(client: TestClient, lang: str, text: str, batch: int) -> None:
    assert _context(client, lang, text).get("batch_size") == batch


# --- 3. a progress count is no batch size -------------------------------------------------------------------

COUNTS = [
    ("en", "the log says batch 3/250 and then CUDA out of memory"),
    ("es", "el log dice batch 3/250 y luego CUDA out of memory"),
    ("pt", "o log mostra batch 3/250 e depois CUDA out of memory"),
    ("fr", "le log affiche batch 3/250 puis CUDA out of memory"),
    ("de", "im Log steht batch 3/250 und dann CUDA out of memory"),
    ("ko", "로그에 batch 3/250 뜨고 CUDA out of memory"),
]


@pytest.mark.parametrize(("lang", "text"), COUNTS, ids=[x[0] for x in COUNTS])
def test_a_progress_count_is_no_batch_size(client: TestClient, lang: str, text: str) -> None:
    assert "batch_size" not in _context(client, lang, text)


def test_a_batch_size_beside_a_count_of_images_is_read(client: TestClient) -> None:
    assert _context(client, "en", "batch 3, 250 images, CUDA out of memory").get("batch_size") == 3


# --- 4. steps told as passed, and a cadence, are no failing step ---------------------------------------------------

NO_STEP = [
    ("en", "steps 1 and 2 are fine, then OOM"),
    ("es", "los pasos 1 y 2 van bien, luego OOM"),
    ("pt", "os passos 1 e 2 vão bem, depois OOM"),
    ("fr", "les steps 1 et 2 passent bien, puis OOM"),
    ("de", "Schritt 1 und 2 laufen durch, dann OOM"),
    ("ko", "1, 2스텝은 잘 돌아가다가 그 다음에 OOM"),
    ("en", "I generate samples every 100 steps and get OOM"),
    ("es", "muestras cada 100 pasos y me da OOM"),
    ("pt", "gero amostras a cada 100 passos e dá OOM"),
    ("fr", "je fais des samples tous les 100 steps et j'ai un OOM"),
    ("de", "ich mache alle 100 Schritte Samples und bekomme OOM"),
    ("ko", "100스텝마다 샘플 뽑는데 OOM 나요"),
]


@pytest.mark.parametrize(("lang", "text"), NO_STEP, ids=[f"{x[0]}-{x[1][:30]}" for x in NO_STEP])
def test_a_passed_step_or_a_cadence_is_no_failing_step(client: TestClient, lang: str, text: str) -> None:
    assert "step" not in _context(client, lang, text)


STEP = [
    ("en", "steps 1 and 2 are fine, then OOM at step 3", 3),
    ("ko", "1, 2스텝은 잘 돌아가다가 3스텝에서 OOM", 3),
    ("en", "it gets through step 1, then OOM on step 2", 2),
    ("fr", "le step 1 passe, au step 2 ça plante en OOM", 2),
    ("en", "samples every 100 steps, OOM at step 300", 300),
    ("en", "Training dies on the second step every single time with CUDA out of memory", 2),
    ("ko", "메모리 절약 옵션(체크포인팅) 끈 뒤로 카운터가 2,3 넘어가기 전에 터짐", 2),  # before it passes: not passed
]


@pytest.mark.parametrize(("lang", "text", "step"), STEP, ids=[f"{x[0]}-{x[1][:30]}" for x in STEP])
def test_the_failing_step_told_beside_them_is_read(client: TestClient, lang: str, text: str, step: int) -> None:
    assert _context(client, lang, text).get("step") == step


# --- 5. a reply to a quote that names GC ----------------------------------------------------------------------

REPLIES_ON = [
    ("en", "> just turn on gradient checkpointing, that fixed it for me\n\nit's been on since the start, never touched "
           "it. still CUDA out of memory"),
    ("es", "> activa el gradient checkpointing, a mí me lo arregló\n\nlo tengo activado desde el principio, nunca lo "
           "toqué. sigue dando CUDA out of memory"),
    ("pt", "> liga o gradient checkpointing que resolve\n\ntá ligado desde o começo, nunca mexi. continua dando CUDA "
           "out of memory"),
    ("fr", "> active le gradient checkpointing, ça a réglé le problème chez moi\n\nil est activé depuis le début, j'y "
           "ai jamais touché. toujours CUDA out of memory"),
    ("de", "> schalt mal gradient checkpointing an, das hat es bei mir gelöst\n\nist bei mir von Anfang an an, nie "
           "angefasst. trotzdem CUDA out of memory"),
    ("ko", "> gradient checkpointing 켜보세요, 저는 그걸로 해결됐어요\n\n처음부터 켜져 있었어요. "
           "그래도 CUDA out of memory 나요"),
]


@pytest.mark.parametrize(("lang", "text"), REPLIES_ON, ids=[x[0] for x in REPLIES_ON])
def test_a_reply_tells_the_state_of_the_gc_its_quote_names(client: TestClient, lang: str, text: str) -> None:
    answer = _diagnose(client, lang, text)
    assert (answer.get("context") or {}).get("gradient_checkpointing") is True
    assert (answer.get("symptom") or {}).get("id") == "oom-persists-with-gc"
    assert "enable-gradient-checkpointing" not in [s["id"] for s in answer.get("steps", [])]


REPLIES_OTHER = [
    # off, told so
    ("en", "> just turn on gradient checkpointing, that fixed it for me\n\nit's off, I turned it off for speed. CUDA "
           "out of memory at step 2", False),
    ("de", "> schalt mal gradient checkpointing an\n\nist bei mir aus, hab es für mehr Tempo ausgeschaltet. CUDA out "
           "of memory bei Step 2", False),
    # a question about the switch states nothing
    ("en", "> just turn on gradient checkpointing\n\nshould I turn it on? I get CUDA out of memory at step 2", None),
    # a reply that tells no state: "with" is a preposition here
    ("en", "> Try a smaller batch size and turn on gradient checkpointing.\n\ntraining crashes at step 2 with CUDA out "
           "of memory", None),
    ("de", "> schalt mal gradient checkpointing an\n\ndas Training bricht bei Schritt 2 mit CUDA out of memory ab",
     None),
    # a quote that names no GC: "it" is the quote's thing, no GC state
    ("en", "> try a smaller batch size\n\nit's been on since the start. still CUDA out of memory", None),
    ("es", "> prueba con batch más chico\n\nlo tengo activado desde el principio. sigue dando CUDA out of memory",
     None),
]


@pytest.mark.parametrize(("lang", "text", "state"), REPLIES_OTHER, ids=[f"{x[0]}-{x[2]}" for x in REPLIES_OTHER])
def test_a_reply_states_gc_only_as_it_tells_it(client: TestClient, lang: str, text: str, state: bool | None) -> None:
    assert _context(client, lang, text).get("gradient_checkpointing") is state


# --- 5. a step of the told past is the earlier run's, where a failure is told now (session 11, lead) ---------------

PAST_STEP = [
    ("en", "Last month I had OOM at step 3 with GC off. Now with GC on it OOMs when sampling previews."),
    ("es", "El mes pasado tuve OOM en el paso 3 con el GC apagado. Ahora con el GC encendido me da OOM al generar las "
           "muestras."),
    ("pt", "Mês passado tive OOM no passo 3 com GC desligado. Agora com GC ligado dá OOM na hora de gerar as "
           "amostras."),
    ("fr", "Le mois dernier j'ai eu un OOM au step 3 avec le GC désactivé. Maintenant avec le GC activé ça plante en "
           "OOM pendant les samples."),
    ("de", "Letzten Monat hatte ich OOM bei Schritt 3 mit GC aus. Jetzt mit GC an gibt es OOM beim Erzeugen der "
           "Samples."),
    ("ko", "지난달엔 GC 끄고 3스텝에서 OOM 났었어요. 지금은 GC 켰는데 샘플 생성할 때 OOM 나요."),
]


@pytest.mark.parametrize(("lang", "text"), PAST_STEP, ids=[x[0] for x in PAST_STEP])
def test_a_step_of_the_told_past_is_no_step_of_the_failure_now(client: TestClient, lang: str, text: str) -> None:
    answer = _diagnose(client, lang, text)
    assert "step" not in (answer.get("context") or {})
    assert (answer.get("context") or {}).get("gradient_checkpointing") is True
    assert (answer.get("symptom") or {}).get("id") in ("oom-during-sampling", "oom-persists-with-gc")


PRESENT_STEP = [
    # the failure now has its own step: that one is read
    ("en", "Last month I had OOM at step 3 with GC off. Now GC is on and it OOMs at step 40.", 40),
    ("es", "El mes pasado tuve OOM en el paso 3 con el GC apagado. Ahora está encendido y da OOM en el paso 40.", 40),
    ("de", "Letzten Monat hatte ich OOM bei Schritt 3 mit GC aus. Jetzt ist GC an und es gibt OOM bei Schritt 40.", 40),
    # only a past is told: its step is all the text says of a failure
    ("en", "I got CUDA out of memory at step 3 with flux, what should I change?", 3),
    ("pt", "deu CUDA out of memory no passo 3 com flux, o que eu mudo?", 3),
]


@pytest.mark.parametrize(("lang", "text", "step"), PRESENT_STEP, ids=[f"{x[0]}-{x[2]}" for x in PRESENT_STEP])
def test_the_step_of_the_failure_told_now_is_read(client: TestClient, lang: str, text: str, step: int) -> None:
    assert _context(client, lang, text).get("step") == step


# --- 6. the steps of each preview, told after the previews' cadence, are no failing step (session 11, lead) --------

PREVIEW_STEPS = [
    ("en", "it OOMs at some point, no idea when. the samples are made every 100 steps with 30 steps each"),
    ("es", "me da OOM en algún momento, no sé cuándo. las muestras las saco cada 100 pasos con 30 steps"),
    ("pt", "dá OOM em algum momento, não sei quando. as amostras tão a cada 100 passos com 30 steps"),
    ("fr", "ça fait un OOM à un moment, je sais pas quand. les samples sont faits tous les 100 steps avec 30 steps"),
    ("de", "irgendwann kommt OOM, keine Ahnung wann. die Samples kommen alle 100 Schritte mit 30 Steps"),
    ("ko", "언제인지 모르겠는데 OOM 나요. 샘플은 100스텝마다 30스텝으로 뽑아요"),
]


@pytest.mark.parametrize(("lang", "text"), PREVIEW_STEPS, ids=[x[0] for x in PREVIEW_STEPS])
def test_a_previews_own_step_count_after_its_cadence_is_no_failing_step(client: TestClient, lang: str,
                                                                       text: str) -> None:
    assert "step" not in _context(client, lang, text)


# --- 7. a belief the text corrects states nothing (session 11, lead) ------------------------------------------------

BELIEVED = [
    ("en", "I thought GC was on but it wasn't, OOM at step 2 with z-image"),
    ("es", "pensé que el GC estaba activado pero no, OOM en el paso 2 con z-image"),
    ("pt", "achei que o GC tava ligado mas não tava, OOM no passo 2 com z-image"),
    ("fr", "je pensais que le GC était activé mais en fait non, OOM au step 2 avec z-image"),
    ("de", "ich dachte GC wäre an, war es aber nicht. OOM bei Schritt 2 mit Z-Image"),
    ("ko", "GC 켜져 있는 줄 알았는데 아니었어요. 2스텝에서 OOM"),
]


@pytest.mark.parametrize(("lang", "text"), BELIEVED, ids=[x[0] for x in BELIEVED])
def test_a_gc_state_only_believed_is_not_stated(client: TestClient, lang: str, text: str) -> None:
    answer = _diagnose(client, lang, text)
    assert "gradient_checkpointing" not in (answer.get("context") or {})
    assert (answer.get("context") or {}).get("step") == 2
    assert (answer.get("symptom") or {}).get("id") == "oom-early-steps"


STATED_BESIDE = [
    # twins: the state told as a fact is read, a belief about something else beside it changes nothing
    ("en", "GC is on. I thought batch 2 would fit on my 3090 but it OOMs at step 2", True),
    ("es", "el GC está activado. pensé que iba a aguantar, pero OOM en el paso 2", True),
    ("de", "GC ist aus, ich dachte das macht nichts. OOM bei Schritt 2", False),
]


@pytest.mark.parametrize(("lang", "text", "state"), STATED_BESIDE, ids=[f"{x[0]}-{x[2]}" for x in STATED_BESIDE])
def test_a_gc_state_told_beside_a_belief_is_read(client: TestClient, lang: str, text: str, state: bool) -> None:
    assert _context(client, lang, text).get("gradient_checkpointing") is state
