"""Issue 12, session 11 (miss11): real symptoms the service missed or misnamed, by cause, both ways, six languages.

- a stated fact not read: a GC setting pasted under another trainer's key (Open-Sora's `grad_checkpoint = True`,
  FastVideo's `--enable_gradient_checkpointing_type "full"`), a batch size told per GPU ("the batch size of each gpu
  is 10");
- an outcome word missing: results that cannot be reproduced, a generated video with hardly any motion, a run's
  length told as required ("460 hours are required for 10000 iterations, is this normal?");
- a veto that hid the symptom told: a bug-report title over a body that tells a weak result, a paper named beside the
  user's own attempt and its bad result ("I use the code of the paper, but the results are much worse").

Each group has twins that must not change: the same words without the symptom or the fact. Every sentence was written
for this test, as forum users write (none is a line of the real-message corpora or of the blind sets)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.understanding.probes import diagnosed_context, diagnosed_symptom

WEAK = "weak-samples"
SLOW = "slow-training"


# --- 1. GC under another trainer's key -----------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "training is really slow, around 9 s/it\n```\ngrad_checkpoint = True\nbatch_size = 1\n```"),
    ("es", "el entrenamiento va lentísimo, unos 9 s/it\n```\ngrad_checkpoint: true\nbatch_size: 1\n```"),
    ("pt", "o treino está muito lento, uns 9 s/it\n```\ngrad_checkpoint = True\n```"),
    ("fr", "l'entraînement est très lent, environ 9 s/it\n```\ngrad_checkpoint: true\n```"),
    ("de", "das Training ist extrem langsam, etwa 9 s/it\n```\n--enable_gradient_checkpointing_type \"full\"\n```"),
    ("ko", "학습이 너무 느려요, 9 s/it 정도 나와요\n```\n--enable_gradient_checkpointing_type full\n```"),
    ("en", "still OOM on 8 gpus\n```\n  --train_batch_size 1\n  --enable_gradient_checkpointing_type \"ops\"\n```"),
])
def test_gc_pasted_under_another_trainers_key_is_read(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_context(client, lang, text).get("gradient_checkpointing") is True


@pytest.mark.parametrize(("lang", "text"), [
    # the same pastes with no checkpointing key, or FastVideo's type left at its default (none)
    ("en", "training is really slow, around 9 s/it\n```\nbatch_size = 1\ngrad_clip = 1.0\n```"),
    ("de", "das Training ist extrem langsam, etwa 9 s/it\n```\n--enable_gradient_checkpointing_type none\n```"),
    ("ko", "학습이 너무 느려요, 9 s/it 정도 나와요\n```\n--train_batch_size 1\n```"),
])
def test_gc_twins_state_no_gc_on(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_context(client, lang, text).get("gradient_checkpointing") is not True


# --- 2. a batch size told per GPU ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "training speed is very low on my 4 A800s. The batch size of each gpu is 10."),
    ("en", "I use 4 gpus, the batch size on each gpu is 10 and it runs out of memory"),
    ("es", "el entrenamiento va muy lento en 4 GPUs, el batch size de cada gpu es 10"),
    ("pt", "o treino está muito lento com 4 GPUs, o batch size de cada gpu é 10"),
    ("fr", "l'entraînement est très lent sur 4 GPU, le batch size de chaque gpu est 10"),
    ("de", "das Training ist auf 4 GPUs sehr langsam, die Batch Size pro GPU ist 10"),
    ("ko", "GPU 4개로 학습하는데 너무 느려요. GPU당 배치 사이즈는 10이에요"),
])
def test_batch_told_per_gpu_is_read(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_context(client, lang, text).get("batch_size") == 10


@pytest.mark.parametrize(("lang", "text"), [
    # a memory or a speed per GPU is no batch size
    ("en", "I have 8 gpus with 48GB per gpu and training is very slow"),
    ("en", "training is very slow on each gpu, 10 s/it"),
    ("es", "tengo 8 GPUs con 48GB por gpu y el entrenamiento va muy lento"),
    ("de", "ich habe 8 GPUs mit 48GB pro GPU und das Training ist sehr langsam"),
])
def test_per_gpu_twins_state_no_batch(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_context(client, lang, text).get("batch_size") is None


# --- 3. results not reproduced, motion absent: weak results --------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I trained with the same images and settings as the repo but I cannot reproduce the results"),
    ("es", "entrené con las mismas imágenes y ajustes del repo pero no consigo reproducir los resultados"),
    ("pt", "treinei com as mesmas imagens e configurações do repo mas não consigo reproduzir os resultados"),
    ("fr", "j'ai entraîné avec les mêmes images et réglages que le repo mais je n'arrive pas à reproduire les "
           "résultats"),
    ("de", "ich habe mit denselben Bildern und Einstellungen trainiert, aber ich kann die Ergebnisse nicht "
           "reproduzieren"),
    ("ko", "같은 이미지랑 설정으로 학습했는데 결과 재현이 안 돼요"),
    ("en", "the video generated by the model I trained has no obvious motion"),
    ("es", "los videos que genera la lora que entrené tienen muy poco movimiento"),
    ("pt", "os vídeos gerados pela lora que eu treinei têm pouco movimento"),
    ("fr", "les vidéos générées avec la lora que j'ai entraînée ont très peu de mouvement"),
    ("de", "die Videos von meinem trainierten LoRA haben kaum Bewegung"),
    ("ko", "제가 학습한 로라로 만든 영상이 움직임이 거의 없어요"),
])
def test_results_not_reproduced_and_motion_absent_are_weak(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == WEAK


@pytest.mark.parametrize(("lang", "text"), [
    # the same words with the result there
    ("en", "I trained with the settings of the repo and I can reproduce the results, thanks"),
    ("es", "entrené con los ajustes del repo y consigo reproducir los resultados, gracias"),
    ("en", "the video generated by the model I trained has a lot of motion, exactly what I wanted"),
    ("de", "die Videos von meinem trainierten LoRA haben viel Bewegung, genau wie gewollt"),
])
def test_weak_twins_stay_unchanged(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) != WEAK


# --- 4. a paper named beside the user's own attempt, a bug-report title over a weak result -------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I use the images and code in the paper, but the results are much worse than in the paper"),
    ("en", "[Bug] LoRA vs full finetune\nI trained a LoRA with the same data and I got a much worse validation result "
           "than the full finetune."),
])
def test_own_attempt_beside_a_paper_or_under_a_bug_title_is_weak(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == WEAK


@pytest.mark.parametrize(("lang", "text"), [
    # a question to the authors, and a bug report with no result told
    ("en", "how were the plastic faces mitigated in your paper?"),
    ("en", "[Bug] LoRA vs full finetune\nThe LoRA script crashes with a KeyError when it loads the dataset."),
])
def test_paper_and_bug_twins_stay_none(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) is None


# --- 5. a run's length told as required ----------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "on 4 A40s it shows that 460 hours are required for 10000 iterations. Is this normal?"),
    ("es", "con 4 GPUs dice que se necesitan 460 horas para 10000 iteraciones, ¿es normal?"),
    ("pt", "com 4 GPUs ele mostra que são necessárias 460 horas para 10000 iterações, é normal?"),
    ("fr", "avec 4 GPU il affiche qu'il faut 460 heures pour 10000 itérations, c'est normal ?"),
    ("de", "mit 4 GPUs werden 460 Stunden für 10000 Iterationen benötigt, ist das normal?"),
    ("ko", "GPU 4개로 10000 스텝에 460시간 필요하다고 나와요, 정상인가요?"),
])
def test_run_length_told_as_required_is_slow(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == SLOW


@pytest.mark.parametrize(("lang", "text"), [
    # memory told as required: no duration
    ("en", "24GB of VRAM are required for this model, is that normal?"),
    ("es", "se necesitan 24GB de VRAM para este modelo, ¿es normal?"),
    ("de", "für dieses Modell werden 24GB VRAM benötigt, ist das normal?"),
])
def test_memory_required_twins_are_not_slow(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) != SLOW


# --- 6. a capability question in a title over a body that tells the user's OOM lasting through their fix ----------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "does it support training a lora on a 4090?\nI have added --gradient_checkpointing and --cache_latents, but "
           "it still OOMs at step 1"),
    ("es", "¿soporta entrenar una lora en una 4090?\nYa activé gradient checkpointing y sigue dando OOM en el paso 1"),
    ("pt", "dá suporte para treinar lora numa 4090?\nJá ativei o gradient checkpointing e continua dando OOM no "
           "passo 1"),
    ("de", "Unterstützt es LoRA-Training auf einer 4090?\nIch habe Gradient Checkpointing aktiviert, aber es gibt "
           "immer noch OOM bei Schritt 1"),
])
def test_own_failure_overrules_a_capability_title(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == "oom-persists-with-gc"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Native LyCORIS support?\nI trained a lycoris with it and my samples are all noise after 2000 steps"),
    ("es", "¿Soporte nativo para LyCORIS?\nEntrené una lycoris y mis muestras salen borrosas después de 2000 pasos"),
])
def test_own_bad_result_overrules_a_feature_title(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == WEAK


@pytest.mark.parametrize(("lang", "text"), [
    # an OOM only named in a request, and no OOM at all
    ("en", "does it support training a lora on a 4090?\nWould be great, gradient checkpointing could remove the OOM on "
           "small cards"),
    ("en", "does it support training a lora on a 4090?\nI have added --gradient_checkpointing and --cache_latents, "
           "just wondering if it is supported"),
    ("en", "Native LyCORIS support?\nWould be great, many loras from the community are overcooked"),
])
def test_capability_title_twins_stay_none(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) is None
