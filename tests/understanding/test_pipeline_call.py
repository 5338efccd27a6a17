"""Issue 12, session 12 (lead): a diffusers pipeline's generation call in a pasted traceback is the generation's OOM.

A user who pastes the traceback of their own generation script ("----> 1 video = pipe(prompt=prompt,
num_inference_steps=50).frames[0]" over "CUDA out of memory") has an inference-side OOM the guide does not answer;
the CUDA message alone read as a training OOM. A line that calls a pipeline with `num_inference_steps=` is now a line
of a generating program (`log_rules` `inference-run`), so the text reads outside the guide (`intents.yaml` `outside`
`log_inference`) unless the training, the trainer or its previews are told. Twins: a training script's validation
that makes its images with the same call, under the training's progress bar, keeps its sampling OOM.

Every text was written for this test (none is a line of the query sets)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.understanding.probes import diagnosed_symptom

_GENERATION = (
    "\n```\nTraceback (most recent call last):\n  File \"gen.py\", line 14, in <module>\n"
    "    image = pipe(prompt, num_inference_steps=28, guidance_scale=3.5).images[0]\n"
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB. GPU 0 has a total capacity of 23.55 GiB"
    "\n```"
)
_VALIDATION = (
    "\n```\n  5%|▌         | 250/5000 [10:11<3:01:00,  2.42s/it, lr: 1.0e-04 loss: 8.1e-02]\n"
    "Traceback (most recent call last):\n  File \"train_lora.py\", line 1780, in log_validation\n"
    "    images = [pipeline(**pipeline_args, num_inference_steps=28).images[0] for _ in range(4)]\n"
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB. GPU 0 has a total capacity of 23.55 GiB"
    "\n```"
)

GENERATING = [
    ("en", "running my lora with this script gives an error:"),
    ("es", "al probar mi lora con este script me sale esto:"),
    ("pt", "rodando a minha lora com esse script dá isso:"),
    ("fr", "quand je lance ma lora avec ce script j'ai ça :"),
    ("de", "wenn ich meine LoRA mit diesem Skript benutze, kommt das:"),
    ("ko", "이 스크립트로 제 로라 적용해서 이미지 뽑으면 이렇게 나와요:"),
]

VALIDATING = [
    ("en", "the training dies when it makes the validation images:"),
    ("es", "el entrenamiento se muere cuando hace las imágenes de validación:"),
    ("pt", "o treino morre quando gera as imagens de validação:"),
    ("fr", "l'entraînement plante quand il génère les images de validation :"),
    ("de", "das Training stirbt, wenn es die Validierungsbilder erzeugt:"),
    ("ko", "학습이 검증 이미지 만들 때 죽어요:"),
]


@pytest.mark.parametrize(("lang", "text"), GENERATING)
def test_a_pipeline_call_over_the_oom_is_the_generations(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text + _GENERATION) is None


@pytest.mark.parametrize(("lang", "text"), VALIDATING)
def test_a_trainings_validation_call_keeps_its_sampling_oom(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text + _VALIDATION) == "oom-during-sampling"


# Session 13 (batch 17's dev half): a command line that runs a generation script ("python generate.py --task
# t2v-14B", "python inference.py", "scripts/txt2img.py") is a generation's; a training script's stays a training's.
@pytest.mark.parametrize(("lang", "text"), [
    ("en", "OOM when running python generate.py --task t2v-14B --size 1280*720"),
    ("es", "Me da OOM al ejecutar python inference.py --prompt 'un gato' en una 4090"),
    ("pt", "Dá OOM quando rodo python scripts/txt2img.py --prompt 'um gato' numa 3060"),
    ("fr", "J'ai un OOM en lançant python generate.py --task i2v-14B sur une 4090"),
    ("de", "OOM beim Ausführen von python infer.py --prompt 'eine Katze' auf einer 3090"),
    ("ko", "python generate.py --task t2v-14B 실행하면 OOM 나요"),
])
def test_a_command_that_runs_a_generation_script(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) is None


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "OOM when running python train.py --config flux_lora.yaml"),
    ("de", "OOM beim Ausführen von python run.py config/flux_lora.yaml"),
])
def test_a_command_that_runs_a_training_script(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == "oom-general"
