"""Issue 12, session 18: runs that are not a diffusion training on a CUDA card are outside the guide, and say so.

- A training that does not find the GPU and runs on the CPU in its place ("it says CUDA isn't found", "Torch not
  compiled with CUDA enabled", "no detecta la gpu", "CUDA를 못 찾아요"): an install problem (`no_cuda`), even when the
  slowness it causes is told.
- The memory of an Apple computer's GPU ("MPS backend out of memory", "M3 Max", "memoria unificada"): the computer's
  own shared memory (`unified_memory`), even where its message reads as a GPU OOM line; its slowness stays slowness.
- A vision-language model's or a Keras model's fine-tune running out of memory (LLaVA, InternVL, TensorFlow's
  ResourceExhaustedError in prose): another kind of training (`other_domain`).
- The host machine told as what ran out of memory: the computer's own RAM (`host_ram`).

Twins: a slow run on the GPU, a run with the optimizer offloaded to the CPU, a CUDA OOM, and a Mac's slow previews
keep their symptoms. Sentences written for the test (none is a line of a query set)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.understanding.probes import answered_symptom, diagnose


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "when I start training it says CUDA isn't found and everything runs on the CPU, so it is very slow"),
    ("en", "AssertionError: Torch not compiled with CUDA enabled. Training takes forever, 90 s/it"),
    ("es", "me dice que no encuentra cuda y el entrenamiento va lentísimo, 40 s/it"),
    ("pt", "o ai-toolkit não detecta a gpu e o treino fica muito lento"),
    ("fr", "ai-toolkit ne détecte pas le gpu, l'entraînement est hyper lent"),
    ("de", "CUDA nicht verfügbar, das Training läuft ewig auf der CPU"),
    ("ko", "CUDA를 못 찾는다고 나오고 학습이 너무 느려요"),
    ("en", "training a flux lora on my M3 Max: RuntimeError: MPS backend out of memory (MPS allocated: 45.18 GiB)"),
    ("es", "entrenando un lora en mi Mac con 32 GB de memoria unificada me quedo sin memoria"),
    ("pt", "treinando lora no m2 max com memória unificada, fica sem memória"),
    ("fr", "sur mon M2 Max, 32 Go de mémoire unifiée, l'entraînement du lora manque de mémoire"),
    ("de", "auf dem M3 Max mit 36 GB unified memory läuft das LoRA-Training in OOM"),
    ("ko", "M2 Max 통합 메모리 32GB인데 로라 학습하면 메모리 부족 나요"),
    ("en", "I fine-tune the LLaVA-7B model on two 3090s and it still shows out of memory"),
    ("en", "InternVL fine-tuning goes out of memory at batch size 1"),
    ("en", "keras model training: ResourceExhaustedError, OOM when allocating tensor with shape [64,64,3,3]"),
    ("en", "in my case the host machine ran out of memory, I gave it more and the fine-tuning ran"),
])
def test_runs_outside_a_cuda_training_are_outside(client: TestClient, lang: str, text: str) -> None:
    assert answered_symptom(diagnose(client, lang, text)) is None


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "when I start training it says CUDA isn't found and everything runs on the CPU, so it is very slow"),
    ("ko", "CUDA를 못 찾는다고 나오고 학습이 너무 느려요"),
])
def test_search_has_no_answer_for_a_training_without_its_gpu(client: TestClient, lang: str, text: str) -> None:
    assert client.get("/v1/search", params={"q": text, "lang": lang}).json()["match"] == "none"


@pytest.mark.parametrize(("lang", "text", "symptom"), [
    ("en", "training is very slow on my 4090, 40 s/it", "slow-training"),
    ("en", "with the optimizer offloaded to the cpu the training is very slow, 40 s/it", "slow-training"),
    ("es", "el entrenamiento va lentísimo en mi 4090, 40 s/it", "slow-training"),
    ("en", "CUDA out of memory at step 2 with gradient checkpointing off", "oom-early-steps"),
    ("ko", "2스텝에서 CUDA out of memory 나요", "oom-early-steps"),
    ("en", "training a lora on my M2 Ultra gets very slow after it generates the samples, 20 s/it", "slow-training"),
])
def test_runs_on_the_gpu_keep_their_symptom(client: TestClient, lang: str, text: str, symptom: str) -> None:
    assert answered_symptom(diagnose(client, lang, text)) == symptom
