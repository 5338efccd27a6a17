"""Issue 12, session 17: what the real dev halves showed of results and durations told of the run. A bad result told
of the steps trained ("trained 3000 steps, at 500 it already gets progressively worse", "entrené 3000 pasos y a los
500 ya sale peor") is the training's weak result, not a stray word beside a step ("preempted at step 2600"); a
duration told with a verb of need or cost ("it costs 1day for 50 epoch", "it needs 20 days to finish the training",
"necesita 20 días") is the run's slowness, glued units too ("1day"); and a language model named in the config of a
guide's model family (LTX-2's "gemma-3-12b" text encoder) takes the post out of the guide no more. Twins keep what
they tell apart. Sentences written for the test, in every language (none is a line of a query set)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.understanding.probes import answered_symptom, diagnose


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I trained 3000 steps, at 500 steps you can already see it get progressively worse."),
    ("es", "entrené 3000 pasos y a los 500 pasos ya se ve que sale cada vez peor."),
    ("pt", "treinei 3000 passos e com 500 passos já dá pra ver ficando cada vez pior."),
    ("fr", "j'ai entraîné 3000 steps, dès 500 steps on voit que c'est de pire en pire."),
    ("de", "3000 Steps trainiert, ab 500 Steps sieht man schon, dass es immer schlechter wird."),
    ("ko", "3000스텝 학습했는데 500스텝부터 점점 이상해져요."),
])
def test_a_bad_result_told_of_the_steps_is_weak(client: TestClient, lang: str, text: str) -> None:
    assert answered_symptom(diagnose(client, lang, text)) == "weak-samples"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I train the model and it costs 1day for 50 epoch. It needs 20 days to finish the training."),
    ("es", "entreno el modelo y necesita 20 días para terminar el entrenamiento."),
    ("pt", "treino o modelo e ele precisa de 20 dias pra terminar o treino."),
    ("de", "ich trainiere das Modell und es benötigt 20 Tage bis das Training fertig ist."),
])
def test_a_duration_told_with_a_verb_of_need_is_the_run_s_slowness(client: TestClient, lang: str,
                                                                   text: str) -> None:
    assert answered_symptom(diagnose(client, lang, text)) == "slow-training"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "it needs 24GB of VRAM, is that right?"),
    ("es", "¿necesita 24GB de VRAM?"),
])
def test_a_need_of_memory_is_no_duration(client: TestClient, lang: str, text: str) -> None:
    assert answered_symptom(diagnose(client, lang, text)) != "slow-training"


def test_a_text_encoder_named_in_a_guide_family_s_config_keeps_the_post(client: TestClient) -> None:
    text = ("training an ltx 2.3 lora, at 500 steps it already gets progressively worse\n"
            'ltx2_checkpoint = "/models/ltx-2.3-22b-dev.safetensors"\ngemma_root = "/models/gemma-3-12b-qat"')
    assert answered_symptom(diagnose(client, "en", text)) == "weak-samples"


def test_a_language_model_s_training_stays_outside(client: TestClient) -> None:
    assert answered_symptom(diagnose(client, "en", "my gemma 3 fine-tune gets worse after 500 steps")) is None

