"""Batch 3's dev classes (issue 12, session 5), each mechanism on sentences written for the test in six languages:
a stop without memory evidence, rates and iteration times, weak results told by outcome, the loss curve, a
validation bar, "after a few steps", the card's memory told as too small, a trainer's status lines."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from remedy.index.build import Index
from remedy.understanding.matcher import understand
from remedy.understanding.prose import prose_of
from tests.understanding.probes import top_symptom as _top_symptom

OOMS = ("oom", "crash_oom")


def _diagnose(client: TestClient, text: str, lang: str) -> dict[str, object]:
    answer: dict[str, object] = client.post("/v1/diagnose", json={"query": text, "lang": lang}).json()
    return answer


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "My LoRA training just stops without giving an error, no message at all"),
    ("en", "Colab kicked me out for inactivity while training and the run got cancelled"),
    ("es", "El entrenamiento del LoRA se cuelga sin dar ningún error"),
    ("pt", "O treino da LoRA simplesmente trava, sem erro nenhum"),
    ("fr", "L'entraînement du LoRA s'arrête tout seul, sans aucune erreur"),
    ("de", "Das LoRA-Training bleibt einfach stehen, ohne Fehlermeldung"),
    ("ko", "로라 학습이 에러 없이 그냥 멈춰요"),
])
def test_a_stop_without_memory_evidence_is_no_oom(client: TestClient, index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "halt" in u.concepts and u.concepts.isdisjoint(OOMS)
    assert _diagnose(client, text, lang)["symptom"] is None
    assert client.get("/v1/search", params={"q": text, "lang": lang}).json()["match"] == "none"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "training stops at step 3 with CUDA out of memory"),
    ("es", "el entrenamiento se detiene en el paso 3 con CUDA out of memory"),
    ("pt", "o treino para de rodar no passo 3 com CUDA out of memory"),
    ("fr", "l'entraînement s'arrête à l'étape 3 avec CUDA out of memory"),
    ("de", "das Training hört bei Schritt 3 auf, CUDA out of memory"),
    ("ko", "학습이 3스텝에서 멈추고 CUDA out of memory가 떠요"),
])
def test_a_stop_with_memory_evidence_is_still_an_oom(index: Index, lang: str, text: str) -> None:
    assert _top_symptom(index, text, lang) == "oom-early-steps"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "the LoRA I trained generates noise only, it is not usable"),
    ("es", "la LoRA que entrené genera solo ruido, es inservible"),
    ("pt", "a LoRA que treinei só gera borrões, é inutilizável"),
    ("fr", "le LoRA que j'ai entraîné ne donne que du bruit, il est inutilisable"),
    ("de", "die trainierte LoRA erzeugt nur Rauschen, völlig unbrauchbar"),
    ("ko", "학습한 로라가 노이즈만 나와서 쓸 수가 없어요"),
    ("en", "my trained lora makes everything look oversaturated, faces come out melted"),
    ("es", "la lora que entrené saca caras derretidas"),
    ("pt", "a LoRA treinada deixa tudo supersaturado"),
    ("fr", "mon LoRA entraîné donne des visages fondus"),
    ("de", "meine trainierte LoRA macht nur graue Bilder"),
    ("ko", "학습한 로라로 뽑으면 얼굴이 녹아내린 것처럼 나와요"),
    ("en", "I trained a LoRA with kohya and it just outputs noise"),
    ("es", "entrené una LoRA y en ComfyUI solo saca ruido"),
    ("pt", "treinei uma LoRA e só sai ruído"),
    ("fr", "j'ai entraîné un LoRA et il ne sort que du bruit"),
    ("de", "LoRA trainiert, die Bilder kommen total verrauscht raus"),
    ("ko", "로라 학습했는데 얼굴이 뭉개져서 나와요"),
])
def test_a_weak_result_told_by_its_outcome(index: Index, lang: str, text: str) -> None:
    assert _top_symptom(index, text, lang) == "weak-samples"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "the iteration time of my LoRA training is very high, is that normal?"),
    ("es", "el tiempo por iteración de mi entrenamiento de LoRA es altísimo, ¿es normal?"),
    ("pt", "o tempo por iteração do treino da LoRA está altíssimo, é normal?"),
    ("fr", "le temps par itération de mon entraînement LoRA est énorme, c'est normal ?"),
    ("de", "die Zeit pro Iteration beim LoRA-Training ist riesig, ist das normal?"),
    ("ko", "로라 학습 이터레이션 시간이 너무 길어요, 정상인가요?"),
])
def test_an_iteration_time_is_the_training_speed(index: Index, lang: str, text: str) -> None:
    assert _top_symptom(index, text, lang) == "slow-training"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "in my LoRA training, is the loss curve expected to look noisy?"),
    ("es", "¿es normal que la curva de loss de mi entrenamiento de LoRA se vea ruidosa?"),
    ("pt", "é normal a curva de loss do treino da LoRA ficar ruidosa?"),
    ("fr", "pour mon LoRA, c'est normal que la courbe de loss soit bruitée ?"),
    ("de", "beim LoRA-Training: ist es normal, dass die Loss-Kurve so verrauscht aussieht?"),
    ("ko", "로라 학습할 때 로스 곡선이 노이즈가 심한 게 정상인가요?"),
])
def test_what_is_said_of_the_loss_is_no_weak_sample(index: Index, lang: str, text: str) -> None:
    # what follows the loss, up to the LoRA or the samples named again, is said of the loss
    u = understand(index.matcher, text, lang)
    assert "loss_curve" in u.concepts and "weak" not in u.concepts


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "CUDA out of memory, but only after a few steps"),
    ("es", "CUDA out of memory, pero solo tras unos pocos pasos"),
    ("pt", "CUDA out of memory, mas só depois de poucos passos"),
    ("fr", "CUDA out of memory, mais seulement après quelques étapes"),
    ("de", "CUDA out of memory, aber erst nach ein paar Schritten"),
    ("ko", "몇 스텝 돌다가 CUDA out of memory가 나요"),
])
def test_after_a_few_steps_is_early(index: Index, lang: str, text: str) -> None:
    assert _top_symptom(index, text, lang) == "oom-early-steps"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "My graphics card has only 6GB of memory.\nThe training blew up on startup"),
    ("es", "Mi gráfica solo tiene 6GB.\nEl entrenamiento se cae al empezar"),
    ("pt", "Minha placa só tem 6GB.\nO treino falha logo no começo"),
    ("fr", "Ma carte n'a que 6 Go.\nL'entraînement plante dès le début"),
    ("de", "Meine Karte hat nur 6GB.\nDas Training stürzt gleich am Anfang ab"),
    ("ko", "VRAM이 6GB밖에 안 돼요.\n학습 시작하자마자 터져요"),
])
def test_a_card_told_too_small_is_memory_evidence(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "small_gpu" in u.concepts and "oom" in u.concepts


def test_a_validation_bar_is_the_preview_phase(index: Index) -> None:
    log = ("Out of memory in the validation step\n"
           "Valid (loss 1.23) epoch 1:   9%|#         | 1/11 [00:01<00:13,  1.33s/it]"
           "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n")
    u = understand(index.matcher, log, "en")
    assert u.log.phase == "sampling" and u.log.step is None
    assert _top_symptom(index, log, "en") == "oom-during-sampling"


def test_a_trainers_status_lines_are_no_prose() -> None:
    text = ("the dataset folder is not found\nStarting job lora.yaml\nUsing TF32 for faster training on Ampere GPUs\n"
            "Loading VAE\nLoading unet\nException: no images found")
    assert prose_of(text) == "the dataset folder is not found"
    # two lines of one's own that start alike are prose
    assert "Using GC" in prose_of("it fails\nUsing GC on a 4090\nLoading takes forever. Why?")


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "with my LoRA added, one step of generation takes 8 minutes, then OOM before the 2nd step"),
    ("es", "con mi LoRA, un paso de generación tarda 8 minutos y luego OOM antes del paso 2"),
    ("pt", "com a minha LoRA, um passo de geração leva 8 minutos e depois dá OOM antes do passo 2"),
    ("fr", "avec mon LoRA, une étape de génération prend 8 minutes, puis OOM avant l'étape 2"),
    ("de", "mit meiner LoRA dauert ein Generierungsschritt 8 Minuten, dann OOM vor Schritt 2"),
    ("ko", "로라 넣으면 생성 스텝 하나에 8분 걸리고 2스텝 전에 OOM 나요"),
])
def test_a_generation_step_is_no_training_step(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "inference_act" in u.concepts and not u.in_domain


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "block swap 20"), ("es", "intercambio de bloques 20"), ("pt", "troca de blocos 20"),
    ("fr", "échange de blocs 20"), ("de", "Block-Swap 20"), ("ko", "블록 스왑 20"),
])
def test_block_swap_is_the_low_vram_path(index: Index, lang: str, text: str) -> None:
    assert "low_vram" in understand(index.matcher, text, lang).concepts


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "training crashed at epoch 3, no error shown"),
    ("es", "el entrenamiento se cae en la época 3 sin dar ningún error"),
    ("pt", "o treino falha na época 3, sem erro nenhum"),
    ("fr", "l'entraînement plante à l'epoch 3 sans aucune erreur"),
    ("de", "das Training stürzt in Epoche 3 ab, ohne Fehlermeldung"),
    ("ko", "3 에폭에서 에러 없이 학습이 죽어요"),
])
def test_a_crash_with_no_error_at_all_is_no_oom(client: TestClient, lang: str, text: str) -> None:
    assert _diagnose(client, text, lang)["symptom"] is None
    assert client.get("/v1/search", params={"q": text, "lang": lang}).json()["match"] == "none"


@pytest.mark.parametrize(("lang", "text", "symptom"), [
    ("en", "it crashes at step 3 with no error message since I turned GC off", "oom-early-steps"),
    ("en", "it finished without errors but the LoRA looks nothing like her", "weak-samples"),
    ("de", "Training läuft ohne Fehler durch, aber die LoRA sieht ihr überhaupt nicht ähnlich", "weak-samples"),
])
def test_no_error_beside_a_setting_or_an_outcome_keeps_the_symptom(
    index: Index, lang: str, text: str, symptom: str,
) -> None:
    assert _top_symptom(index, text, lang) == symptom


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Training fails after the first epoch with KeyError: 'caption'"),
    ("es", "el entrenamiento falla en la época 2 con un FileNotFoundError"),
    ("pt", "o treino falha depois da primeira época com ModuleNotFoundError"),
    ("fr", "l'entraînement plante après la première epoch avec un ValueError"),
    ("de", "das Training stürzt nach der ersten Epoche mit einem TypeError ab"),
    ("ko", "학습이 에폭 1 끝나고 KeyError로 죽어요"),
])
def test_an_exception_named_in_prose_is_another_failure(client: TestClient, lang: str, text: str) -> None:
    assert _diagnose(client, text, lang)["symptom"] is None


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "runs fine but goes OOM while evaluating at the end of the epoch"),
    ("es", "se queda sin memoria en el paso de evaluación"),
    ("pt", "fica sem memória na etapa de avaliação"),
    ("fr", "CUDA out of memory pendant l'évaluation"),
    ("de", "CUDA out of memory bei der Evaluierung"),
    ("ko", "평가 단계에서 메모리 부족이 떠요"),
])
def test_an_oom_in_the_evaluation_is_the_sampling_phase(index: Index, lang: str, text: str) -> None:
    assert _top_symptom(index, text, lang) == "oom-during-sampling"
