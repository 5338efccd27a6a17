"""Issue 12, session 12 (noneweak12): the generation setting "sampler" is no preview of the training.

The generation setting "sampler" (Euler, DPM++), asked of as the cause of a bad image made with a LoRA in another
program ("con mi lora las manos salen deformes en forge, ¿es del lora o del sampler?"), stemmed in Spanish,
Portuguese, French and German to the stem of "sample" and so named the training's previews, which took the text back
into the guide as a weak result; English and Korean never read a preview in it. It is kept as written there
(`profile.yaml` `kept_words`), so the text stays the inference program's (`intents.yaml` `outside` inference_app).
Twins that name the training's samples beside the same question keep their weak result.

"Distorted" told of the images of a trained LoRA is a weak result in English ("distorted" is a `weak` word) and in
German ("verzerrt", a `flaw`); Spanish "distorsionadas", Portuguese "distorcidas", French "distordues" and Korean
"왜곡돼요" were no word at all and the result was missed. They are `weak` words now; twins told of downloaded LoRAs in
an inference program after an update stay none.

Every sentence was written for this test, as forum users write in each language (none is a line of the real-message
corpora)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.understanding.probes import diagnosed_symptom

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


DISTORTED_TRAINED = [
    ("en", "I trained a lora of my cat and the images come out distorted"),
    ("es", "entrené una lora de mi gato y las imágenes salen distorsionadas"),
    ("pt", "treinei uma lora do meu gato e as imagens saem distorcidas"),
    ("fr", "j'ai entraîné une lora de mon chat et les images sortent toutes distordues"),
    ("de", "ich habe ein LoRA von meiner Katze trainiert und die Bilder sind verzerrt"),
    ("ko", "고양이 로라를 학습했는데 이미지가 왜곡돼요"),
]

DISTORTED_ELSEWHERE = [
    ("en", "since the last update every lora I download from civitai gives distorted images in forge"),
    ("es", "desde la última actualización todas las loras que bajo de civitai dan imágenes distorsionadas en forge"),
    ("pt", "desde a última atualização todas as loras que baixo do civitai dão imagens distorcidas no forge"),
    ("fr", "depuis la dernière mise à jour toutes les loras que je télécharge sur civitai donnent des images "
           "distordues dans forge"),
    ("de", "seit dem letzten Update liefern alle LoRAs von Civitai in Forge verzerrte Bilder"),
    ("ko", "최근 업데이트 이후 civitai에서 받은 로라를 포지에서 쓰면 전부 이미지가 왜곡돼요"),
]


@pytest.mark.parametrize(("lang", "text"), DISTORTED_TRAINED)
def test_distorted_images_of_a_trained_lora_are_weak(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == "weak-samples"


@pytest.mark.parametrize(("lang", "text"), DISTORTED_ELSEWHERE)
def test_distorted_images_of_downloaded_loras_in_forge_are_none(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) is None
