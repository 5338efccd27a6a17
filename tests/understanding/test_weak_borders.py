"""Weak results' borders (session 5, round 2): what is and is not the user's own LoRA giving weak results. A likeness
"nowhere near" is a weak result; LoRAs stacked or loaded by a node at generation, a quality said to be kept and a
question about how someone else's model got its results are not. Each on sentences written for the test, in the six
languages (none is a line of the real-message corpora)."""

from __future__ import annotations

import pytest

from remedy.index.build import Index
from remedy.understanding.matcher import understand
from tests.understanding.probes import first_symptom as _symptom

# --- 1. far from the likeness or from the wanted output: a weak result ----------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I trained a lora of my dog, the results are nowhere near the likeness I expected"),
    ("es", "entrené una lora de mi perro y el parecido ni de lejos se acerca"),
    ("pt", "treinei uma lora do meu cachorro e a semelhança nem chega perto"),
    ("fr", "j'ai entraîné une lora de mon chien, la ressemblance est très loin de l'original"),
    ("de", "hab ein LoRA von meinem Hund trainiert, die Ähnlichkeit ist nicht annähernd da"),
    ("ko", "강아지 로라를 학습했는데 닮음이 근처에도 못 가요"),
])
def test_far_from_the_likeness_is_weak_samples(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "far_off" in u.concepts and "weak" in u.concepts
    assert _symptom(u) == "weak-samples"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "my 8 GB card is nowhere near enough, how do I train flux?"),
    ("de", "meine 8 GB reichen nicht annähernd, wie trainiere ich flux?"),
])
def test_far_from_enough_memory_is_no_weak_result(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "far_off" in u.concepts
    assert "weak" not in u.concepts


# --- 2. LoRAs stacked or loaded by a node at generation: the generation's, not the training's -------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "when I use more than one lora my images get blurry and full of artifacts"),
    ("en", "the output with the lora loader node is bad compared to the other node"),
    ("es", "cuando pongo más de un lora las imágenes salen borrosas"),
    ("pt", "quando uso mais de uma lora as imagens ficam borradas"),
    ("fr", "dès que je mets plus d'un lora les images deviennent floues"),
    ("de", "sobald ich mehr als ein LoRA nehme, werden die Bilder unscharf"),
    ("ko", "로라 여러 개 넣으면 이미지가 흐릿해져요"),
])
def test_stacked_loras_at_generation_are_no_weak_samples(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "inference_act" in u.concepts
    assert _symptom(u) is None


def test_stacked_loras_beside_a_training_keep_the_weak_result(index: Index) -> None:
    text = "after training, my lora alone already looks blurry, even before using more than one lora"
    u = understand(index.matcher, text, "en")
    assert _symptom(u) == "weak-samples"


# --- 3. a quality said to be kept: no weak result ---------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "thanks! the lora trained with your settings works with other loras with no quality loss"),
    ("es", "¡gracias! la lora entrenada con tus ajustes funciona con otras loras sin pérdida de calidad"),
    ("pt", "valeu! a lora treinada com suas configurações funciona com outras loras sem perda de qualidade"),
    ("fr", "merci ! la lora entraînée avec tes réglages marche avec d'autres loras sans perte de qualité"),
    ("de", "danke! das mit deinen Einstellungen trainierte LoRA läuft mit anderen LoRAs ohne Qualitätsverlust"),
    ("ko", "감사합니다! 알려주신 설정으로 학습한 로라가 다른 로라랑 써도 품질 저하 없이 잘 돼요"),
])
def test_a_quality_kept_is_no_weak_result(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "quality_kept" in u.concepts
    assert "quality" not in u.concepts and "weak" not in u.concepts
    assert _symptom(u) is None


# --- 4. how someone else's model got its results: the authors' work, not the user's LoRA -------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "great project! could you share more details on how over-saturation and plastic skin were mitigated?"),
    ("es", "¡gran proyecto! ¿cómo evitaron la sobresaturación y la piel de plástico en su método?"),
    ("pt", "projeto incrível! como vocês evitaram a supersaturação e a pele de plástico?"),
    ("fr", "super projet ! comment avez-vous évité la sursaturation et la peau plastique ?"),
    ("de", "tolles Projekt! Wie habt ihr das vermieden, die Übersättigung und die Plastikhaut?"),
    ("ko", "좋은 프로젝트네요! 과포화랑 플라스틱 같은 피부는 어떻게 완화하셨나요?"),
])
def test_a_question_about_their_method_is_no_weak_samples(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "their_method" in u.concepts
    assert not u.in_domain
    assert _symptom(u) is None


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "how did you avoid over-saturation in your paper? my lora comes out oversaturated"),
    ("fr", "comment avez-vous évité la sursaturation ? mon lora sort complètement délavé, aucune ressemblance"),
])
def test_their_method_beside_the_users_own_weak_lora_stays_weak(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "their_method" in u.concepts and "own_lora" in u.concepts
    assert _symptom(u) == "weak-samples"


# --- 5. the subject missing from the output: a weak result; a LoRA missing from a list is not -------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "after training, the result doesn't show my character at all"),
    ("es", "después de entrenar, el resultado no muestra a la chica"),
    ("pt", "depois de treinar, o resultado não mostra o personagem"),
    ("fr", "après l'entraînement, le résultat ne montre pas le personnage"),
    ("de", "nach dem Training zeigt das Ergebnis nicht den Charakter"),
    ("ko", "로라 학습하고 결과물을 뽑아봤는데 캐릭터가 안 나와요"),
])
def test_the_subject_not_shown_is_weak_samples(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "not_shown" in u.concepts and "weak" in u.concepts
    assert _symptom(u) == "weak-samples"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "the lora doesn't show up in the list after training"),
    ("fr", "le lora n'apparaît pas dans la liste"),
    ("de", "die LoRA taucht nicht auf in der Liste"),
])
def test_a_lora_missing_from_a_list_is_no_weak_result(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "weak" not in u.concepts
    assert _symptom(u) != "weak-samples"
