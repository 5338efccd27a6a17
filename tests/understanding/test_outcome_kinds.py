"""Issue 12, session 6 (weakmiss): a LoRA's outcome told by its kind, a run's rate told by its figures, and the words
of one never read as the other. Weak results: an aspect missed or not learnt (the face is off, the style is not
picked up), no effect or a strength raised to see one, colours gone wrong, overfitting, later checkpoints worse,
previews that do not match inference, a LoRA that does not work. Slowness: a duration for a number of steps, an idle
GPU, a speed judged bad. Each mechanism on sentences written for the test, in the six languages (none is a line of
the real-message corpora), with the sentences where it must not fire."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from remedy.index.build import Index
from remedy.understanding.matcher import understand
from tests.understanding.probes import first_symptom as _symptom

# --- 1. an aspect the LoRA was trained for, missed or not learnt ------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "trained it on 30 pics of my wife, the face is a bit off and looks like someone else"),
    ("en", "it gives a generic face, not my character"),
    ("es", "entrené una lora de mi novia y la cara sale como otra persona"),
    ("pt", "sai um rosto genérico, não o meu personagem"),
    ("fr", "le visage est un peu bizarre, c'est pas elle"),
    ("de", "es kommt ein generisches Gesicht raus, nicht mein Charakter"),
    ("ko", "얼굴이 뭔가 이상해요, 그 사람이 아니에요"),
])
def test_an_aspect_missed_is_weak_samples(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert {"aspect", "miss", "weak"} <= u.concepts
    assert _symptom(u) == "weak-samples"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "it learned the colors but not the art style"),
    ("es", "no aprendió el estilo, sale el estilo normal de flux"),
    ("pt", "não aprendeu o estilo, sai o estilo normal do flux"),
    ("fr", "elle n'a pas appris le style, ça sort le style normal de flux"),
    ("de", "es hat den Stil nicht gelernt, kommt nur der normale Flux-Stil raus"),
    ("ko", "스타일을 못 배웠어요, 그냥 플럭스 기본 스타일로 나와요"),
])
def test_an_aspect_not_learnt_is_weak_samples(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "weak" in u.concepts
    assert _symptom(u) == "weak-samples"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "which style of captions is best for a character lora?"),
    ("en", "I can't identify what's wrong with the config, can you help?"),
    ("es", "¿qué estilo de captions va mejor para una lora de personaje?"),
    ("de", "welcher Stil von Captions ist am besten für ein Charakter-LoRA?"),
])
def test_an_aspect_named_without_a_miss_is_no_weak_result(index: Index, lang: str, text: str) -> None:
    assert _symptom(understand(index.matcher, text, lang)) is None


# --- 2. no effect, or a strength raised to see one -----------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I have to crank the lora weight to 1.5 to see anything"),
    ("en", "the trained lora has almost no influence on the output"),
    ("es", "tengo que subir el peso de la lora a 1.5 para que se note algo"),
    ("pt", "tenho que subir o peso da lora pra 1.5 pra notar alguma coisa"),
    ("fr", "je dois monter le poids de la lora à 1.5 pour voir quelque chose"),
    ("de", "ich muss das LoRA-Gewicht auf 1.5 hochdrehen damit man was sieht"),
    ("ko", "로라 가중치를 1.5까지 올려야 뭔가 보여요"),
])
def test_no_effect_or_a_raised_strength_is_weak_samples(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "weak" in u.concepts
    assert _symptom(u) == "weak-samples"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "my finished lora file won't download, the button does nothing"),
    ("en", "what lora strength should I use for a character lora?"),
    ("de", "der Knopf zum Herunterladen von meinem LoRA macht nichts"),
])
def test_nothing_happening_beside_a_lora_is_no_weak_result(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "weak" not in u.concepts
    assert _symptom(u) is None


# --- 3. colours, overfitting, later checkpoints, previews against inference -----------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "colors are completely off, everything has a green tint"),
    ("en", "it gives the same pose every time no matter the prompt"),
    ("en", "later checkpoints are worse than the early ones"),
    ("en", "the samples in ai toolkit are far better than in comfyui"),
    ("en", "the results don't match my dataset at all"),
    ("es", "los colores salen raros, todo con un tinte verde"),
    ("es", "los checkpoints posteriores son peores que los primeros"),
    ("pt", "sempre a mesma pose não importa o prompt"),
    ("pt", "a lora da epoch 5 é melhor que a final"),
    ("fr", "les couleurs sont bizarres, tout a une dominante verte"),
    ("fr", "elle recrache le dataset, même fond et mêmes vêtements"),
    ("de", "die Farben sind komisch, alles hat einen Grünstich"),
    ("de", "die späteren Checkpoints sind schlechter als die ersten"),
    ("ko", "색감이 이상해요, 전부 초록빛이 돌아요"),
    ("ko", "이후 체크포인트가 초반 것보다 나빠졌어요"),
])
def test_an_outcome_of_another_kind_is_weak_samples(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "weak" in u.concepts
    assert _symptom(u) == "weak-samples"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "my dataset has the same pose in half the photos, is that a problem?"),
    ("en", "how do I change the colors of the ui theme?"),
    ("de", "wie ändere ich die Farben der Oberfläche?"),
])
def test_the_same_words_about_something_else_are_no_weak_result(index: Index, lang: str, text: str) -> None:
    assert _symptom(understand(index.matcher, text, lang)) is None


# --- 4. a LoRA that does not work, and its borders --------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "trained lora isn't working, the images look the same as before"),
    ("en", "the trained lora doesn't seem to work at all after 3000 steps"),
    ("es", "la lora entrenada no funciona, las imágenes salen igual"),
    ("pt", "a lora treinada não funciona, as imagens saem iguais"),
    ("fr", "la lora entraînée ne marche pas, les images sont pareilles"),
    ("de", "das trainierte LoRA funktioniert nicht, die Bilder sind gleich"),
    ("ko", "학습한 로라가 안 먹혀요, 이미지가 똑같아요"),
])
def test_a_trained_lora_that_does_not_work_is_weak_samples(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "weak" in u.concepts
    assert _symptom(u) == "weak-samples"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "the lora doesn't work in comfyui"),
    ("en", "my lora doesn't work, any idea?"),
    ("fr", "ma lora ne marche pas, une idée ?"),
    ("en", "LoRAs aren't working in KoboldCPP since the last build"),
    ("es", "la lora no funciona en comfyui"),
    ("de", "das LoRA funktioniert nicht in ComfyUI"),
])
def test_a_lora_not_working_in_another_program_has_no_answer(client: TestClient, lang: str, text: str) -> None:
    d = client.post("/v1/diagnose", json={"query": text, "lang": lang}).json()
    assert d["symptom"] is None


def test_a_training_that_does_not_work_is_no_weak_result(index: Index) -> None:
    u = understand(index.matcher, "lora training not working, it crashes at step 5", "en")
    assert "weak" not in u.concepts


# --- 5. slowness told by its figures ----------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "4 hours for 1000 steps on a 4090"),
    ("en", "GPU usage is only 30% during training"),
    ("en", "the run has been going for 2 days"),
    ("es", "4 horas para 1000 pasos en una 4090, es normal?"),
    ("es", "el uso de la gpu se queda en 30% durante el entrenamiento"),
    ("pt", "4 horas pra 1000 passos numa 4090, é normal?"),
    ("pt", "o uso da gpu fica em 30% durante o treino"),
    ("fr", "4 heures pour 1000 steps sur une 4090, c'est normal ?"),
    ("fr", "l'utilisation du gpu reste à 30% pendant l'entraînement"),
    ("de", "4 Stunden für 1000 Steps auf einer 4090, ist das normal?"),
    ("de", "die GPU-Auslastung liegt beim Training nur bei 30%"),
    ("ko", "4090에서 1000스텝에 4시간 걸리는데 정상인가요?"),
    ("ko", "학습 중에 gpu 사용률이 30%밖에 안 돼요"),
])
def test_a_rate_or_an_idle_gpu_is_slow_training(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "speed" in u.concepts
    assert _symptom(u) == "slow-training"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "training speed is terrible on wsl2, around 20 s/it"),
    ("en", "poor performance since the update, the training got much slower"),
    ("es", "mal rendimiento desde la actualización, el entrenamiento va mucho más lento"),
    ("pt", "desempenho ruim depois da atualização, o treino ficou bem mais lento"),
    ("fr", "baisse de performances depuis la mise à jour, l'entraînement est bien plus lent"),
    ("de", "seit dem Update schlechte Performance, das Training ist viel langsamer"),
    ("ko", "업데이트 후에 학습 속도 저하가 심해요, 너무 느려요"),
])
def test_a_speed_judged_bad_is_slowness_not_weak_results(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "weak" not in u.concepts
    assert _symptom(u) == "slow-training"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "the samples are slowly getting worse with every save"),
    ("es", "los resultados van empeorando poco a poco con cada guardado"),
    ("pt", "os resultados vão piorando aos poucos a cada save"),
    ("fr", "les résultats se dégradent petit à petit à chaque sauvegarde"),
    ("de", "die Ergebnisse werden langsam immer schlechter mit jedem Speichern"),
    ("ko", "저장할 때마다 결과가 점점 나빠져요"),
])
def test_results_slowly_getting_worse_are_weak_not_slow(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "speed" not in u.concepts
    assert _symptom(u) == "weak-samples"


def test_slow_and_bad_keeps_both(index: Index) -> None:
    u = understand(index.matcher, "training is slow and the samples look bad", "en")
    symptoms = [s.id for s in u.ranked if s.kind == "symptom"]
    assert {"slow-training", "weak-samples"} <= set(symptoms)


# --- 6. common words stay themselves: a new vocabulary word is no typo target -----------------------------------

@pytest.mark.parametrize(("lang", "text", "kept", "not_read"), [
    ("en", "in order to use less vram I keep gradient checkpointing on", "gc", "saved_file"),
    ("en", "layer offloading with gradient checkpointing on", "gc", "saved_file"),
    ("en", "what's all this stuff about gradient checkpointing?", "gc", "weak"),
    ("es", "cualquier cosa que cambio en la cara del dataset", "aspect", "miss"),
])
def test_common_words_are_not_corrected_into_new_vocabulary(index: Index, lang: str, text: str, kept: str,
                                                           not_read: str) -> None:
    u = understand(index.matcher, text, lang)
    assert kept in u.concepts
    assert not_read not in u.concepts


# --- 7. the card's memory named beside a weak outcome is no OOM; a run not halfway after hours is slow -----------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I have a 4090 with 24GB VRAM but the lora results are terrible"),
    ("es", "tengo una 4090 con 24GB de VRAM pero los resultados de la lora son horribles"),
    ("pt", "tenho uma 4090 com 24GB de VRAM mas os resultados da lora são horríveis"),
    ("fr", "j'ai une 4090 avec 24 Go de VRAM mais les résultats de la lora sont horribles"),
    ("de", "ich hab eine 4090 mit 24GB VRAM, aber die Ergebnisse vom LoRA sind grottig"),
    ("ko", "24GB VRAM 4090인데 로라 결과물이 너무 구려요"),
])
def test_the_cards_memory_beside_a_weak_outcome_is_no_oom(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "oom" not in u.concepts
    assert _symptom(u) == "weak-samples"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "12 hours of training and it's not even halfway"),
    ("es", "12 horas y el entrenamiento ni a la mitad"),
    ("pt", "12 horas de treino e nem na metade"),
    ("fr", "12 heures d'entraînement et même pas à la moitié"),
    ("de", "seit 12 Stunden am Trainieren und nicht mal bei der Hälfte"),
    ("ko", "12시간째 학습 중인데 반도 안 됐어요"),
])
def test_hours_and_not_halfway_is_slow_training(index: Index, lang: str, text: str) -> None:
    assert _symptom(understand(index.matcher, text, lang)) == "slow-training"
