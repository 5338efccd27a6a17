"""Issue 12, session 14: a trained LoRA that another program fails to load (ComfyUI's "lora key not loaded", Forge's
"unmatched keys", A1111's "Couldn't find Lora with name", "won't load", "no carga", "não carrega", "ne se charge pas",
"lädt nicht", "로드가 안 돼요") is a loading problem the guide does not answer (`load_error`), even when the job's
previews were fine; twins: previews fine but the LoRA does little in ComfyUI (preview parity), a LoRA with no
likeness, and a training OOM keep their symptoms. Sentences written for the test (none is a line of a query set)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.understanding.probes import answered_symptom, diagnose


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "my Flux LoRA won't load in Forge, previews in the job were fine. console: [LORA] Loading sks.safetensors "
           "for KModel with unmatched keys ['lora_unet_double_blocks_0']"),
    ("en", "comfy says lora key not loaded: diffusion_model.blocks.0.cross_attn.k.lora_A.weight, the image is the "
           "same as without the lora"),
    ("es", "el lora de flux no carga en forge, las muestras del job estaban bien"),
    ("pt", "a lora do wan não carrega no comfyui, as amostras do treino estavam boas"),
    ("fr", "mon lora flux ne se charge pas dans forge, les previews étaient bonnes"),
    ("de", "mein Flux-LoRA lädt nicht in Forge, die Samples im Job sahen gut aus"),
    ("ko", "포지에서 플럭스 로라가 로드가 안 돼요, 학습 샘플은 잘 나왔어요"),
])
def test_a_lora_another_program_fails_to_load_is_outside(client: TestClient, lang: str, text: str) -> None:
    assert answered_symptom(diagnose(client, lang, text)) is None
    assert client.get("/v1/search", params={"q": text, "lang": lang}).json()["match"] == "none"


@pytest.mark.parametrize(("lang", "text", "symptom"), [
    ("en", "previews during training look great but in comfy the lora barely changes anything", "weak-samples"),
    ("es", "en las muestras sale bien pero en comfy el lora casi no cambia nada", "weak-samples"),
    ("en", "my lora doesn't look like her at all", "weak-samples"),
    ("de", "das LoRA sieht der Person nicht ähnlich", "weak-samples"),
    ("en", "OOM at step 2, the model doesn't load into VRAM, gradient checkpointing off", "oom-early-steps"),
])
def test_results_and_training_failures_keep_their_symptom(
    client: TestClient, lang: str, text: str, symptom: str
) -> None:
    assert answered_symptom(diagnose(client, lang, text)) == symptom
