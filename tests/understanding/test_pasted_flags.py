"""Pasted command lines and config lines are read as flags, not prose (issue 12, flags13): the words of a flag, of a key
written as an identifier, of a path or a script's name tell only what `structure/settings.yaml` reads from them (a GC
key's own words still tell GC, its value on or off comes from `pasted.read_settings`), never a preview, a phase or a
frame count. Probes written for the test, never lines of a query set; twins keep what the user's own words tell."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from remedy.index.build import Index
from remedy.understanding.matcher import understand
from remedy.understanding.pasted import setting_line
from remedy.understanding.pasted_names import setting_names

from .probes import diagnosed_symptom

# A generation script run with flags whose words are the trainers' prose words (sample, frames, steps).
_GENERATION = (
    "CUDA_VISIBLE_DEVICES=0 python3 scripts/generate_i2v.py \\\n"
    "    --image-path assets/cat.png \\\n"
    "    --sample-n-frames 97 \\\n"
    "    --sample-steps 40 \\\n"
    "    --seed 42\n"
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.50 GiB"
)
# A training script run with GC on, and the flags of its caching, samples and saves.
_TRAINING = (
    "accelerate launch train_network.py \\\n"
    "  --pretrained_model_name_or_path models/flux1-dev.safetensors \\\n"
    "  --gradient-checkpointing --cache-latents-to-disk \\\n"
    "  --sample-every-n-steps 250 --sample_prompts prompts/cat.txt \\\n"
    "  --save-every-n-steps 500 --train_batch_size 1\n"
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"
)
_CONFIG = "train:\n  batch_size: 1\n  gradient_checkpointing: false\nsample:\n  sample_every: 250\n  sample_steps: 20\n"

_RUN = {
    "en": "Getting CUDA out of memory on my 4090, this is the command I run:",
    "es": "Me sale CUDA out of memory en mi 4090, este es el comando que ejecuto:",
    "pt": "Dá CUDA out of memory na minha 4090, este é o comando que eu rodo:",
    "fr": "J'ai un CUDA out of memory sur ma 4090, voici la commande que je lance :",
    "de": "Ich bekomme CUDA out of memory auf meiner 4090, das ist mein Befehl:",
    "ko": "4090에서 CUDA out of memory가 나요, 실행한 명령어는 이거예요:",
}
_CONFIG_TOLD = {
    "en": "My LoRA training runs out of VRAM, here is my config:",
    "es": "Mi entrenamiento de LoRA se queda sin VRAM, esta es mi config:",
    "pt": "Meu treino de LoRA fica sem VRAM, essa é minha config:",
    "fr": "Mon entraînement LoRA manque de VRAM, voici ma config :",
    "de": "Mein LoRA-Training hat zu wenig VRAM, hier ist meine Config:",
    "ko": "LoRA 학습하다가 VRAM이 부족해요, 제 설정은 이거예요:",
}
# The twins: the same config under a sentence that tells the samples failing in the user's own words.
_SAMPLES_TOLD = {
    "en": "My LoRA training runs out of VRAM every time it generates the samples, here is my config:",
    "es": "Mi entrenamiento de LoRA se queda sin VRAM cada vez que genera las muestras, esta es mi config:",
    "pt": "Meu treino de LoRA fica sem VRAM toda vez que gera as amostras, essa é minha config:",
    "fr": "Mon entraînement LoRA manque de VRAM à chaque fois qu'il génère les échantillons, voici ma config :",
    "de": "Mein LoRA-Training hat jedes Mal zu wenig VRAM, wenn es die Samples erzeugt, hier ist meine Config:",
    "ko": "LoRA 학습하다가 샘플 생성할 때마다 VRAM이 부족해요, 제 설정은 이거예요:",
}
_PROSE_PHASES = {"preview", "phase_caching", "phase_saving", "frames"}


@pytest.mark.parametrize(("line", "setting"), [
    ("CUDA_VISIBLE_DEVICES=0 python3 scripts/generate_i2v.py \\", True),  # a command line continued on the next
    ("accelerate launch train_network.py `", True),  # PowerShell's continuation
    ("export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True", True),
    ("set CPU_OFFLOAD=1", True),
    ("I run python train.py and it still runs out of memory", False),
])
def test_a_continued_command_line_and_an_env_line_are_setting_lines(line: str, setting: bool) -> None:
    assert setting_line(line) is setting


@pytest.mark.parametrize(("line", "names"), [
    ("CUDA_VISIBLE_DEVICES=0 python3 hymm/sample_video.py \\", ("cuda_visible_devices", "hymm/sample_video.py")),
    ("    --sample-n-frames 129 --seed 7 \\", ("sample-n-frames", "seed")),
    ('  "sample_every": 250,', ("sample_every",)),
    ("  output_dir: ./checkpoints/run1", ("output_dir", "./checkpoints/run1")),
    ("GC: on", ()),  # a label the user writes: its words stay prose
    ("Mode: on/off", ()),  # words joined by a slash are no path
])
def test_the_names_of_a_setting_line(line: str, names: tuple[str, ...]) -> None:
    assert setting_names(line) == names


@pytest.mark.parametrize("lang", list(_RUN))
def test_a_generation_scripts_command_line_stays_none(client: TestClient, index: Index, lang: str) -> None:
    text = f"{_RUN[lang]}\n{_GENERATION}"
    u = understand(index.matcher, text, lang)
    assert u.phase is None and u.stated.num_frames is None  # `--sample-n-frames 97` is no preview, no frame count
    assert not u.concepts & _PROSE_PHASES
    assert diagnosed_symptom(client, lang, text) is None


@pytest.mark.parametrize("lang", list(_RUN))
def test_a_training_scripts_command_line_says_gc_on_and_keeps_its_oom(
    client: TestClient, index: Index, lang: str,
) -> None:
    text = f"{_RUN[lang]}\n{_TRAINING}"
    u = understand(index.matcher, text, lang)
    assert u.stated.gradient_checkpointing is True and u.stated.sample_every == 250
    assert "gc" in u.concepts  # the GC flag's own words still tell GC
    assert u.phase is None and not u.concepts & _PROSE_PHASES  # no caching, sampling or saving phase invented
    assert diagnosed_symptom(client, lang, text) == "oom-persists-with-gc"


@pytest.mark.parametrize("lang", list(_CONFIG_TOLD))
def test_a_config_block_with_gc_false_says_gc_off(client: TestClient, index: Index, lang: str) -> None:
    text = f"{_CONFIG_TOLD[lang]}\n{_CONFIG}"
    u = understand(index.matcher, text, lang)
    assert u.stated.gradient_checkpointing is False and u.stated.batch_size == 1
    assert (u.stated.sample_every, u.stated.sample_steps) == (250, 20)  # settings, no preview told as failing
    assert u.phase is None and "preview" not in u.concepts
    assert diagnosed_symptom(client, lang, text) == "oom-general"


@pytest.mark.parametrize("lang", list(_SAMPLES_TOLD))
def test_the_samples_told_in_the_users_words_stay_a_sampling_oom(client: TestClient, index: Index, lang: str) -> None:
    text = f"{_SAMPLES_TOLD[lang]}\n{_CONFIG}"
    u = understand(index.matcher, text, lang)
    assert u.stated.gradient_checkpointing is False and u.phase == "sampling"
    assert diagnosed_symptom(client, lang, text) == "oom-during-sampling"


@pytest.mark.parametrize("flag", ["--sample_every 250", "--sample-every 250"])
def test_a_sample_every_flag_is_a_setting(index: Index, flag: str) -> None:
    text = f"OOM right away when I launch\npython train.py --config flux.yaml {flag} --train_batch_size 1"
    u = understand(index.matcher, text, "en")
    assert u.stated.sample_every == 250 and u.phase is None and "preview" not in u.concepts
