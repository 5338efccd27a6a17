"""Issue 12, round 2 (outcomes): weak results told by their outcome, a question about duration, support and feature
questions, the GPU's memory told as exceeded, host RAM told plainly. Each mechanism on sentences written for the
test, in several languages (none is a line of the real-message corpora)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from remedy.index.build import Index
from remedy.understanding.lexicon import size_width
from remedy.understanding.matcher import understand
from tests.understanding.probes import first_symptom as _symptom

# --- 1. weak results told by their outcome -------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "after training my lora every image shows a completely different person"),
    ("en", "the trained lora gives me the wrong person every time"),
    ("en", "I generated two images, one with and one without the lora, and they are identical"),
    ("en", "the lora is not doing anything to my generations"),
    ("en", "my outputs are unrelated to the training data"),
    ("en", "the lora ignores my trigger word, the results are plain base model"),
    ("es", "después de entrenar la lora los resultados son personas completamente diferentes"),
    ("es", "la lora ignora la palabra clave, los resultados no tienen nada que ver"),
    ("pt", "treinei a lora e os resultados mostram outra pessoa"),
    ("pt", "as imagens com ou sem a lora não têm nenhuma diferença"),
    ("fr", "après l'entraînement, mes résultats montrent une autre personne"),
    ("fr", "la lora ne fait rien, aucune différence sur les images"),
    ("de", "nach dem Training zeigen die Ergebnisse eine andere Person"),
    ("de", "die Bilder mit oder ohne LoRA: kein Unterschied"),
    ("ko", "로라 학습하고 나니 결과물에 완전 다른 사람이 나와요"),
    ("ko", "학습 데이터와 상관없는 이미지가 나와요"),
])
def test_an_outcome_told_is_weak_samples(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "weak" in u.concepts
    assert _symptom(u) == "weak-samples"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "after training the samples look great, exactly the right person"),
    ("fr", "les résultats sont superbes, ça ressemble parfaitement"),
])
def test_a_good_outcome_is_no_weak_result(index: Index, lang: str, text: str) -> None:
    assert "weak" not in understand(index.matcher, text, lang).concepts


# --- 2. a question about expected duration is no slowness complaint ------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "how long does it take to train a video lora on a 3090?"),
    ("en", "what is the expected runtime for 4000 steps on a 4090?"),
    ("es", "¿cuánto tarda entrenar una lora de video en una 4090?"),
    ("pt", "quanto tempo demora pra treinar uma lora na 4090?"),
    ("fr", "combien de temps ça prend pour entraîner une lora sur une 4090 ?"),
    ("de", "wie lange dauert das Training einer LoRA auf einer 4090?"),
    ("ko", "4090에서 로라 학습하는데 얼마나 걸리나요?"),
])
def test_a_duration_question_has_no_answer(client: TestClient, lang: str, text: str) -> None:
    d = client.post("/v1/diagnose", json={"query": text, "lang": lang}).json()
    assert d["match"] == "none" and d["symptom"] is None
    assert client.get("/v1/search", params={"q": text, "lang": lang}).json()["match"] == "none"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "it takes 20 hours for 3000 steps, is that normal?"),
    ("en", "how long should it take? mine takes 30 hours on a 4090"),
    ("es", "¿cuánto tiempo debería tardar? a mí me tarda 20 horas"),
    ("fr", "combien de temps ça devrait prendre ? chez moi ça prend 20 heures, trop lent"),
    ("de", "wie lange sollte das dauern? bei mir dauert es 20 Stunden"),
    ("ko", "학습이 보통 얼마나 걸리나요? 제 학습은 너무 느려요, 하루 종일 걸려요"),
])
def test_a_duration_told_as_ones_own_stays_slow_training(index: Index, lang: str, text: str) -> None:
    assert _symptom(understand(index.matcher, text, lang)) == "slow-training"


# --- 3. support and feature questions ------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Does it support LoRAs?"),
    ("en", "Lora support?"),
    ("en", "any plans to support Flux Kontext?"),
    ("en", "please include the RAM requirement in the readme"),
    ("en", "is it supposed to run on a 12gb card?"),
    ("es", "¿soporta loras de video?"),
    ("pt", "tem suporte para loras de vídeo?"),
    ("fr", "est-ce que ça supporte les lora vidéo ?"),
    ("de", "unterstützt es Video-LoRAs?"),
    ("ko", "비디오 로라 지원 여부가 궁금해요"),
])
def test_a_support_question_has_no_answer(client: TestClient, lang: str, text: str) -> None:
    d = client.post("/v1/diagnose", json={"query": text, "lang": lang}).json()
    assert d["match"] == "none"
    assert client.get("/v1/search", params={"q": text, "lang": lang}).json()["match"] != "confident"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Does it support LoRAs? I get CUDA out of memory at step 2"),
    ("en", "I can't get it under the vram limit whatever I do, is it supposed to run on a 12gb card?"),
])
def test_a_failure_told_beside_a_support_question_is_answered(index: Index, lang: str, text: str) -> None:
    assert (_symptom(understand(index.matcher, text, lang)) or "").startswith("oom-")


# --- 4. the GPU's memory told as exceeded; host RAM told plainly ---------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "the training exceeds my vram on every run"),
    ("es", "el entrenamiento supera la vram en cada intento"),
    ("fr", "l'entraînement dépasse la vram à chaque fois"),
    ("de", "das Training sprengt den VRAM jedes Mal"),
    ("ko", "학습할 때마다 vram 초과가 나요"),
])
def test_the_gpu_memory_exceeded_is_an_oom(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "oom" in u.concepts and (_symptom(u) or "").startswith("oom-")


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "training gives OOM on system RAM while loading the model"),
    ("en", "what is the RAM requirement to train flux?"),
    ("es", "¿cuál es el requisito de ram para entrenar flux?"),
    ("fr", "quel est le besoin en ram pour entraîner flux ?"),
    ("de", "welche RAM-Anforderungen hat das Training von Flux?"),
])
def test_host_ram_told_plainly_is_no_gpu_oom(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert not u.in_domain and _symptom(u) is None


def test_faster_without_exceeding_vram_states_no_oom(index: Index) -> None:
    u = understand(index.matcher, "how can I train faster without exceeding my vram?", "en")
    assert "oom" not in u.concepts and _symptom(u) == "slow-training"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "the job uses all 64GB of system RAM and then it crashes"),
    ("en", "training eats all 64 GB of my RAM before it dies"),
    ("es", "el entrenamiento usa los 64gb de ram y se cuelga"),
    ("fr", "l'entraînement utilise les 64 Go de ram et plante"),
    ("de", "das Training frisst die ganzen 64 GB Arbeitsspeicher und stürzt ab"),
])
def test_a_size_inside_a_host_ram_phrase_is_read(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "host_ram" in u.concepts and not u.in_domain


def test_a_spec_line_with_a_ram_size_is_no_host_ram_veto(index: Index) -> None:
    u = understand(index.matcher, "OOM at step 2 on my 4090, 64GB RAM, 24GB VRAM", "en")
    assert "host_ram" not in u.concepts and _symptom(u) == "oom-early-steps"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "training ooms on system ram and prints CUDA error: out of memory"),
    ("es", "el entrenamiento se queda sin ram del sistema y sale CUDA error: out of memory"),
    ("de", "beim Training OOM im Arbeitsspeicher, danach CUDA error: out of memory"),
])
def test_an_oom_told_of_the_system_ram_is_no_gpu_oom(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert not u.in_domain and _symptom(u) is None


def test_the_size_slot_spans_one_or_two_words(index: Index) -> None:
    _, tokens = index.matcher.analyzer.tokens("all 64gb of 64 GB and 64 apples", "en")
    assert [size_width(tokens, i) for i in range(len(tokens))] == [0, 1, 0, 2, 0, 0, 0, 0]


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "colab free tier has 12gb ram, the training crashes"),
    ("en", "my machine: 2x 3090, 128GB of memory, the training crashes at step 3"),
    ("es", "tengo 32 GB de RAM y el entrenamiento se cuelga"),
    ("pt", "meu pc tem 16 GB de RAM e o treino trava"),
    ("fr", "j'ai 32 Go de RAM et l'entraînement plante"),
    ("de", "ich habe 32 GB Arbeitsspeicher und das Training stürzt ab"),
])
def test_a_machine_ram_beside_a_crash_is_no_gpu_oom(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "ram_size" in u.concepts and "memory" not in u.concepts and not u.in_domain


@pytest.mark.parametrize(("lang", "text", "symptom"), [
    ("en", "5070 ti 16gb vram, 64 gb RAM, always CUDA out of memory", "oom-general"),
    ("en", "4090 24gb, 64gb ram, the training is really slow", "slow-training"),
    ("de", "4090, 64 GB Arbeitsspeicher, OOM bei Schritt 2", "oom-early-steps"),
])
def test_a_machine_ram_beside_a_told_symptom_keeps_it(index: Index, lang: str, text: str, symptom: str) -> None:
    assert _symptom(understand(index.matcher, text, lang)) == symptom


# --- 5. going faster without hurting quality is a speed question -------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "how can I make the training faster without hurting the quality?"),
    ("es", "¿cómo entreno más rápido sin que la calidad empeore?"),
    ("pt", "como deixar o treino mais rápido sem perder qualidade?"),
    ("fr", "comment rendre l'entraînement plus rapide sans flinguer la qualité ?"),
    ("de", "wie wird das Training schneller, ohne dass die Qualität leidet?"),
])
def test_quality_kept_while_going_faster_is_no_weak_result(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "weak" not in u.concepts and "quality" not in u.concepts
    assert _symptom(u) == "slow-training"


def test_weak_results_told_beside_speed_are_kept(index: Index) -> None:
    u = understand(index.matcher, "the training is faster now but the samples look bad and blurry", "en")
    assert "weak" in u.concepts


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "after training, the lora doesn't show the character at all"),
    ("es", "uso la lora y no sale el personaje en las imágenes"),
    ("pt", "uso a lora e o personagem não aparece nas imagens"),
    ("fr", "avec la lora, le personnage n'apparaît pas sur les images"),
    ("de", "mit dem LoRA taucht der Charakter nicht auf, nur fremde Gesichter"),
    ("ko", "학습한 로라를 써도 캐릭터가 안 나와요"),
])
def test_a_subject_missing_from_the_outputs_is_weak_samples(index: Index, lang: str, text: str) -> None:
    assert _symptom(understand(index.matcher, text, lang)) == "weak-samples"


# --- "nothing weird": a weak word after "nothing" names no weak result ---------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "training runs at 4 s/it and the samples look fine, nothing weird, it is just too slow"),
    ("es", "entrena a 4 s/it, las muestras salen bien, ni nada raro, pero va lentísimo"),
    ("pt", "treina a 4 s/it, as amostras saem boas, nada de estranho, só que é lento demais"),
    ("fr", "ça tourne à 4 s/it, les samples sont bons, rien de bizarre, mais c'est beaucoup trop lent"),
    ("ko", "4 s/it 정도고 샘플은 괜찮아요 이상한 건 없어요 그냥 너무 느려요"),
])
def test_nothing_weird_is_no_weak_result(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "weak" not in u.concepts
    assert _symptom(u) == "slow-training"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "the lora does nothing, nothing changed in my images"),
    ("es", "la lora no hace nada, los resultados salen raros"),
])
def test_a_weak_result_told_beside_nothing_stays_weak(index: Index, lang: str, text: str) -> None:
    assert _symptom(understand(index.matcher, text, lang)) == "weak-samples"
