"""Issue 12, session 13 (blind set 13's dev half): a run that "goes boom" whenever the previews start is the
sampling OOM in every language's slang ("truena", "estoura", "ça pète", "kackt ab", "터져요"), and a FLUX.1 Krea LoRA
is a FLUX LoRA ("Krea lora", "크레아"); the VRAM that "jumps" before a crash with mixed photo sizes ("pega un salto",
"dá um salto", "fait un bond", "macht einen Sprung", "확 튀어요") is the bucket spike. Twins: a loss that "exploded"
is no crash; words that stem like a vocabulary word say nothing of it (Spanish "pasos" is no "pasado", overcooked;
English "came out" names no CAME optimizer). Sentences written for the test (none is a line of a query set)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from remedy.index.build import Index
from remedy.understanding.matcher import understand
from tests.understanding.probes import answered_symptom, diagnose


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Krea lora: training runs fine but every time it hits the samples it goes boom"),
    ("es", "lora de Krea: el entrenamiento va bien pero cada vez que llega a las samples truena"),
    ("pt", "lora do Krea: o treino vai bem mas toda vez que chega nas amostras estoura"),
    ("fr", "lora Krea : l'entraînement tourne mais à chaque fois qu'il arrive aux samples ça pète"),
    ("de", "Krea Lora: Training läuft, aber jedes Mal wenn die Samples kommen, kackt es ab"),
    ("ko", "크레아 로라 학습은 잘 되는데 샘플 생성할 때마다 터져요"),
])
def test_a_run_that_goes_boom_at_the_samples(client: TestClient, lang: str, text: str) -> None:
    answer = diagnose(client, lang, text)
    assert answered_symptom(answer) == "oom-during-sampling"
    assert answer["context"]["model_family"] == "flux"  # type: ignore[index]


def test_a_loss_that_exploded_is_no_crash(client: TestClient) -> None:
    assert answered_symptom(diagnose(client, "en", "the loss exploded after 2000 steps")) is None


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "runs fine for hundreds of steps then suddenly crashes, right before the VRAM jumps up. I mix 768, 1024 and "
           "1280 photos"),
    ("es", "va estable cientos de pasos y de repente se cae, justo antes la VRAM pega un salto. Mezclo fotos de 768, "
           "1024 y 1280"),
    ("pt", "roda estável centenas de passos e de repente cai, logo antes a VRAM dá um salto. Misturo fotos de 768, "
           "1024 e 1280"),
    ("fr", "ça tourne des centaines de steps puis d'un coup ça plante, juste avant la VRAM fait un bond. Je mélange "
           "des photos 768, 1024 et 1280"),
    ("de", "läuft hunderte Steps stabil und dann plötzlich Absturz, kurz davor macht der VRAM einen Sprung. Ich mische "
           "Bilder mit 768, 1024 und 1280"),
    ("ko", "수백 스텝 잘 돌다가 갑자기 죽어요, 직전에 VRAM이 확 튀어요. 768, 1024, 1280 사진 섞여 있어요"),
])
def test_the_vram_jumping_before_a_crash_with_mixed_sizes(client: TestClient, lang: str, text: str) -> None:
    assert answered_symptom(diagnose(client, lang, text)) == "oom-bucket-spike"


@pytest.mark.parametrize(("lang", "text", "concept"), [
    ("es", "va estable cientos de pasos y de repente se cae", "colour_off"),
    ("pt", "roda estável centenas de passos e de repente cai", "colour_off"),
    ("en", "my lora came out blurry, what should I change?", "optimizer_name"),
    ("es", "mezcladas con unas fotos de camara enormes", "optimizer_name"),
])
def test_a_word_that_stems_like_a_vocabulary_word(index: Index, lang: str, text: str, concept: str) -> None:
    assert concept not in understand(index.matcher, text, lang).concepts


# Session 13: a LoRA judged in the street words of each language ("turned out like crap", "quedó una mierda", "ficou
# uma bosta", "à chier", "Schrott", "쓰레기") is a weak result; the same word as an interjection beside an OOM is no
# judgement of the LoRA; "com a minha namorada" names no second LoRA.
@pytest.mark.parametrize(("lang", "text"), [
    ("en", "my lora turned out like crap"),
    ("es", "el lora quedó una mierda"),
    ("pt", "o lora ficou uma bosta, não parece nada com a minha namorada"),
    ("fr", "le lora est à chier"),
    ("de", "das LoRA ist Schrott"),
    ("ko", "로라 결과물이 쓰레기예요"),
])
def test_a_lora_judged_in_street_words_is_weak(client: TestClient, lang: str, text: str) -> None:
    assert answered_symptom(diagnose(client, lang, text)) == "weak-samples"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "shit, OOM again at step 3 with my lora"),
    ("es", "mierda, otra vez OOM en el paso 3"),
    ("de", "Mist, schon wieder OOM bei Step 3"),
])
def test_an_interjection_beside_an_oom_judges_nothing(client: TestClient, lang: str, text: str) -> None:
    assert answered_symptom(diagnose(client, lang, text)) == "oom-early-steps"
