"""What other trainers' pasted command lines and configs state (round 3, `trainers`): sentences written for the test
in the shapes those trainers' public docs give their flags and options, never a line of a thread."""

from __future__ import annotations

import pytest

from remedy.index.build import Index
from remedy.understanding.matcher import understand
from remedy.understanding.pasted import setting_line
from remedy.understanding.prose import lead_of

_COMMAND = (
    "accelerate launch train_network.py --gradient_checkpointing --train_batch_size 2 "
    '--resolution "1024,1024" --max_train_steps 1600 --cache_latents --network_dim 32'
)


@pytest.mark.parametrize(("line", "setting"), [
    ("  --max_bucket_reso=2048 \\", True),
    (_COMMAND, True),
    ('resolution = "768,768"', True),
    ('"gradient_checkpointing": "CPU_OFFLOADED",', True),
    ("TRAIN_BATCH_SIZE=1", True),
    ("I tried --cache_latents and it still runs out of memory", False),  # the user's words naming a flag
    ("Note: it worked yesterday", False),  # a label and a sentence, not one value
])
def test_a_line_of_settings_is_told_from_the_users_words(line: str, setting: bool) -> None:
    assert setting_line(line) is setting


def test_the_lead_skips_a_pasted_command_line() -> None:
    assert lead_of(_COMMAND + "\nme quedo sin VRAM en el paso 3") == "me quedo sin VRAM en el paso 3"
    assert lead_of("CUDA out of memory.\nepoch 1/10") == "CUDA out of memory."  # no command first: the first line


def test_a_command_line_before_the_error_states_its_settings(index: Index) -> None:
    u = understand(index.matcher, _COMMAND + "\ntorch.OutOfMemoryError: CUDA out of memory", "en")
    assert u.lang == "en"  # the flags are no French words: the language is the error line's
    assert u.stated.gradient_checkpointing is True
    assert u.stated.batch_size == 2
    assert u.stated.resolutions == (1024,)  # the run's length (`--max_train_steps 1600`) is no size


@pytest.mark.parametrize(("text", "resolutions"), [
    ("keeps running out of memory:\n--resolution=768 --train_batch_size=2 --network_dim=256 --max_bucket_reso=1024",
     (768,)),  # a limit of the buckets and the network's size are other settings' values
    ("python finetune.py --cutoff_len=512 --micro_batch_size=8\nCUDA out of memory", None),
    ("OOM with this config:\ndata:\n  img_size: 1024\n  train_batch_size: 1", (1024,)),  # a key naming the size
])
def test_only_a_key_that_names_the_size_gives_a_size(
    index: Index, text: str, resolutions: tuple[int, ...] | None,
) -> None:
    assert understand(index.matcher, text, "en").stated.resolutions == resolutions


def test_a_config_block_states_the_runs_settings_wherever_its_lines_are(index: Index) -> None:
    text = ("I get CUDA out of memory with this config:\ngradient_checkpointing = true\ntrain_batch_size = 4\n"
            "learning_rate = 1e-4\nresolution = \"768,768\"\nmax_train_steps = 3000")
    s = understand(index.matcher, text, "en").stated
    assert (s.gradient_checkpointing, s.batch_size, s.resolutions) == (True, 4, (768,))


@pytest.mark.parametrize(("lang", "lead"), [
    ("en", "still out of memory with this config"),
    ("es", "sigo quedándome sin memoria con esta config"),
    ("pt", "continua dando falta de memória com essa config"),
    ("fr", "toujours en manque de mémoire avec cette config"),
    ("de", "immer noch kein Speicher mehr mit dieser Config"),
    ("ko", "이 설정으로도 계속 메모리 부족이 떠요"),
])
def test_an_offloaded_checkpointing_enum_is_gc_on(index: Index, lang: str, lead: str) -> None:
    text = lead + '\n{"gradient_checkpointing": "CPU_OFFLOADED", "batch_size": 1}'
    s = understand(index.matcher, text, lang).stated
    assert (s.gradient_checkpointing, s.batch_size) == (True, 1)
    off = understand(index.matcher, lead + '\n{"gradient_checkpointing": "OFF", "batch_size": 1}', lang).stated
    assert off.gradient_checkpointing is False


def test_the_failing_step_is_the_users_line_after_a_command(index: Index) -> None:
    text = ("accelerate launch flux_train_network.py --network_dim 64 --max_train_epochs 20 --train_batch_size 1 "
            "--resolution 512\nCUDA out of memory at step 250")
    s = understand(index.matcher, text, "en").stated
    assert (s.step, s.batch_size, s.resolutions) == (250, 1, (512,))


def test_a_progress_bar_beside_the_oom_gives_the_step(index: Index) -> None:
    text = ("epoch 1/10\nsteps:  12%|#2        | 190/1600 [02:10<16:00, 1.46it/s, avr_loss=0.1]\n"
            "torch.cuda.OutOfMemoryError: CUDA out of memory.")
    assert understand(index.matcher, text, "en").stated.step == 190
