"""Issue 12, session 12 (noneweak12): a bad result of generating with a LoRA, in a text that names no training, is
the generation's, not a weak result of the user's run.

Real posts ("Generating images with LORA in Flux dev renders 2nd and subsequent images increasingly noisy until they
degrade into total fuzz") were read as weak samples: the whole-text rule of `intents.yaml` `sentences.subjects` for a
bad result counted "generating images" and a bare "lora" as training subjects, so a LoRA in use ("with the lora")
never made the result another subject's. Now "with the lora" is a generation's subject and "generating images" no
training of its own in that rule; the result becomes `told_elsewhere` and `outside` takes the text out of the domain.

Twins keep their symptom: the same sentence after "I trained a lora on 20 photos" names the training, so the bad
result stays a weak result of the run.

The generation setting "sampler" (Euler, DPM++), asked of as the cause ("¿es del lora o del sampler?"), stemmed in
Spanish, Portuguese, French and German to the stem of "sample" and so named the training's previews, which English
and Korean never read in it; it is kept as written there (`profile.yaml` `kept_words`). Twins that name the
training's samples keep their weak result.

Every sentence was written for this test, as forum users write in each language (none is a line of the real-message
corpora)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.understanding.probes import diagnosed_symptom

GENERATED = [
    ("en", "Generating images with the lora renders every second image more and more noisy until it is all fuzz."),
    ("es", "generando imagenes con la lora, cada imagen sale mas borrosa y con ruido hasta que es puro ruido"),
    ("pt", "gerando imagens com a lora, cada imagem sai mais borrada e com ruido ate virar so ruido"),
    ("fr", "en générant des images avec la lora, chaque image sort plus floue et bruitée jusqu'à n'être que du bruit"),
    ("de", "beim Bilder generieren mit der LoRA wird jedes Bild verrauschter und unscharf, bis nur noch Rauschen "
           "bleibt"),
    ("ko", "로라로 이미지 생성하면 갈수록 흐릿하고 노이즈가 심해져서 결국 노이즈만 나와요"),
]

TRAINED = [
    ("en", "I trained a lora on 20 photos of my dog. Generating images with the lora, every image comes out blurry "
           "and noisy."),
    ("es", "entrené una lora con 20 fotos de mi perro. generando imagenes con la lora, todas salen borrosas y con "
           "ruido"),
    ("pt", "treinei uma lora com 20 fotos do meu cachorro. gerando imagens com a lora, todas saem borradas e com "
           "ruido"),
    ("fr", "j'ai entraîné une lora sur 20 photos de mon chien. en générant des images avec la lora, elles sortent "
           "toutes floues et bruitées"),
    ("de", "ich habe eine LoRA mit 20 Fotos meines Hundes trainiert. Beim Bilder generieren mit der LoRA sind alle "
           "unscharf und verrauscht"),
    ("ko", "강아지 사진 20장으로 로라를 학습했어요. 로라로 이미지 생성하면 전부 흐릿하고 노이즈가 껴요"),
]


@pytest.mark.parametrize(("lang", "text"), GENERATED)
def test_a_bad_generation_with_a_lora_and_no_training_is_none(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) is None


@pytest.mark.parametrize(("lang", "text"), TRAINED)
def test_the_same_result_after_a_training_named_stays_weak(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == "weak-samples"


SAMPLER_ASKED = [
    ("en", "with my lora the hands come out deformed in forge, is it the lora or the sampler?"),
    ("es", "con mi lora las manos salen deformes en forge, es del lora o del sampler?"),
    ("pt", "com a minha lora as mãos saem deformadas no forge, é da lora ou do sampler?"),
    ("fr", "avec ma lora les mains sortent déformées dans forge, c'est la lora ou le sampler ?"),
    ("de", "mit meiner LoRA kommen die Hände in Forge verformt raus, liegt das an der LoRA oder am Sampler?"),
    ("ko", "내 로라 쓰면 포지에서 손이 뭉개져서 나와요, 로라 문제인가요 샘플러 문제인가요?"),
]

SAMPLES_ASKED = [
    ("en", "the training samples show deformed hands since step 1500, is it the lora or the sampler?"),
    ("es", "las muestras del entrenamiento salen con manos deformes desde el paso 1500, es del lora o del sampler?"),
    ("pt", "as amostras do treino saem com mãos deformadas desde o passo 1500, é da lora ou do sampler?"),
    ("fr", "les samples de l'entraînement sortent avec des mains déformées depuis le step 1500, c'est la lora ou le "
           "sampler ?"),
    ("de", "die Samples vom Training haben seit Schritt 1500 verformte Hände, liegt das an der LoRA oder am Sampler?"),
    ("ko", "학습 샘플이 1500스텝부터 손이 뭉개져서 나와요, 로라 문제인가요 샘플러 문제인가요?"),
]


@pytest.mark.parametrize(("lang", "text"), SAMPLER_ASKED)
def test_a_sampler_asked_of_is_no_preview(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) is None


@pytest.mark.parametrize(("lang", "text"), SAMPLES_ASKED)
def test_the_trainings_samples_beside_the_sampler_stay_weak(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == "weak-samples"
