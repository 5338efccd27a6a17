"""What other trainers' pasted command lines and configs state (round 3, `trainers`): sentences written for the test
in the shapes those trainers' public docs give their flags and options, never a line of a thread."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from remedy.index.build import Index
from remedy.understanding.matcher import understand
from remedy.understanding.pasted import read_settings, setting_line
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


# --- every paste form of the trainers' own settings (`structure/settings.yaml`, `pasted.read_settings`) -------------
# Each paste is written for the test in the shape the trainer's own argument parser, config class or example config
# gives (the sources cited in the table), never a line of a thread.

_KOHYA_TOML = """OOM at step 3 with this config
gradient_checkpointing = false
train_batch_size = 2
resolution = "1024,1024"
cache_latents = true
cache_text_encoder_outputs = true
enable_bucket = true
min_bucket_reso = 256
max_bucket_reso = 2048
max_train_steps = 1600"""
_KOHYA_GUI_JSON = """I get CUDA out of memory with this config
{
  "LoRA_type": "Standard",
  "sdxl": true,
  "gradient_checkpointing": false,
  "train_batch_size": 4,
  "max_resolution": "768,768",
  "cache_latents": true,
  "sample_every_n_steps": 250,
  "sample_sampler": "euler_a",
  "sample_prompts": "a photo of a cat --w 768 --h 768 --s 20"
}"""
_SD_SCRIPTS = (
    "accelerate launch flux_train_network.py --pretrained_model_name_or_path /models/flux1-dev.safetensors "
    "--cache_latents --cache_text_encoder_outputs --gradient_checkpointing --train_batch_size 2 "
    "--gradient_accumulation_steps 4 --resolution 1024,1024 --sample_prompts prompts.txt --sample_every_n_steps 100\n"
    "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB"
)
_DIFFUSERS = (
    "accelerate launch train_dreambooth_lora_flux.py \\\n"
    "  --pretrained_model_name_or_path=black-forest-labs/FLUX.1-dev \\\n"
    "  --train_batch_size=4 \\\n  --resolution=1024 \\\n  --gradient_checkpointing \\\n  --mixed_precision bf16 \\\n"
    "  --validation_steps 100\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"
)
_SIMPLETUNER_ENV = """runs out of memory right at step 1
export MODEL_FAMILY="flux"
export TRAIN_BATCH_SIZE=1
export RESOLUTION=1024
export GRADIENT_ACCUMULATION_STEPS=2"""
_SIMPLETUNER_JSON = ('OOM after the first steps\n{"--model_family": "sdxl", "--gradient_checkpointing": false, '
                     '"--train_batch_size": 2, "--validation_steps": 100, "--validation_num_inference_steps": 20}')
_ONETRAINER = ('out of memory during training\n{"model_type": "FLUX_DEV_1", "batch_size": 2, "resolution": "1024", '
               '"frames": "25", "transformer": {"gradient_checkpointing": true}, '
               '"text_encoder": {"gradient_checkpointing": false}}')
_DIFFUSION_PIPE = """CUDA OOM with this toml
micro_batch_size_per_gpu = 1
gradient_accumulation_steps = 4
activation_checkpointing = 'unsloth'
[model]
type = 'wan'
resolutions = [512, 768]
frame_buckets = [1, 33]"""


@pytest.mark.parametrize(("text", "stated", "family", "top"), [
    pytest.param(_KOHYA_TOML, {"gradient_checkpointing": False, "batch_size": 2, "resolutions": (1024,), "step": 3},
                 None, "oom-early-steps", id="kohya-toml"),
    pytest.param(_KOHYA_GUI_JSON, {"gradient_checkpointing": False, "batch_size": 4, "resolutions": (768,),
                                   "sample_every": 250}, "other", "oom-general", id="kohya-gui-json"),
    pytest.param(_SD_SCRIPTS, {"gradient_checkpointing": True, "batch_size": 2, "gradient_accumulation": 4,
                               "resolutions": (1024,), "sample_every": 100}, "flux", "oom-persists-with-gc",
                 id="sd-scripts-flags"),
    pytest.param(_DIFFUSERS, {"gradient_checkpointing": True, "batch_size": 4, "resolutions": (1024,),
                              "sample_every": 100}, "flux", "oom-persists-with-gc", id="diffusers-flags"),
    pytest.param(_SIMPLETUNER_ENV, {"batch_size": 1, "resolutions": (1024,), "gradient_accumulation": 2, "step": 1},
                 "flux", "oom-early-steps", id="simpletuner-env"),
    pytest.param(_SIMPLETUNER_JSON, {"gradient_checkpointing": False, "batch_size": 2, "sample_every": 100,
                                     "sample_steps": 20}, "other", "oom-early-steps", id="simpletuner-json-flags"),
    pytest.param(_ONETRAINER, {"gradient_checkpointing": True, "batch_size": 2, "resolutions": (1024,),
                               "num_frames": 25}, "flux", "oom-persists-with-gc", id="onetrainer-json"),
    pytest.param(_DIFFUSION_PIPE, {"gradient_checkpointing": True, "batch_size": 1, "gradient_accumulation": 4,
                                   "resolutions": (512, 768), "num_frames": 33}, "other", "oom-persists-with-gc",
                 id="diffusion-pipe-toml"),
])
def test_a_trainers_paste_states_its_settings(
    index: Index, text: str, stated: dict[str, object], family: str | None, top: str,
) -> None:
    u = understand(index.matcher, text, "en")
    assert {k: getattr(u.stated, k) for k in stated} == stated
    assert u.family == family
    assert u.phase is None  # caching, bucket and sample options name no phase
    assert u.ranked[0].id == top


def test_setting_keys_name_no_phase_bucket_or_preview(index: Index) -> None:
    u = understand(index.matcher, _KOHYA_TOML, "en")
    assert "phase_caching" not in u.concepts and u.ranked[0].id != "oom-bucket-spike"
    u = understand(index.matcher, _KOHYA_GUI_JSON, "en")
    assert "phase_caching" not in u.concepts and u.ranked[0].id != "oom-during-sampling"
    flag = understand(index.matcher, "I tried --cache_latents and it still runs out of memory at step 2", "en")
    prose = understand(index.matcher, "it runs out of memory while caching latents", "en")
    assert (flag.phase, flag.stated.step) == (None, 2)
    assert prose.phase == "caching"  # the same words as the user's own keep their meaning


@pytest.mark.parametrize(("text", "values"), [
    ("--gradient_checkpointing --train_batch_size=4 --resolution 768", {"gradient_checkpointing": True,
                                                                        "batch_size": 4, "resolutions": (768,)}),
    ("--gradient-checkpointing=false", {"gradient_checkpointing": False}),
    ('"gradient_checkpointing": "CPU_OFFLOADED",', {"gradient_checkpointing": True}),
    ("gradient_checkpointing: false\nbatch_size: 2", {"gradient_checkpointing": False, "batch_size": 2}),
    ("train.batch_size=2", {"batch_size": 2}),  # a dotted override, by its last part
    ("resolution: [512, 768, 1024]", {"resolutions": (512, 768, 1024)}),  # a YAML list: the buckets
    ('resolution = "1024,768"', {"resolutions": (1024,)}),  # sd-scripts' 'width,height': the larger side
    ("target_frames = [1, 25, 45]", {"num_frames": 45}),
    ("micro_batch_size_per_gpu = 2 gradient_accumulation_steps = 1", {"batch_size": 2, "gradient_accumulation": 1}),
    ("Resolutions: 512 and 768 only", {}),  # a label in the user's sentence, not a setting
    ("resolution 1024 and batch 2", {}),  # prose: read from the words (`extract`), not here
    ("--gradient_checkpointing_interval 2 --checkpointing_steps 500", {}),  # other settings than the switch
    ("--per_device_eval_batch_size 8", {}),  # another loop's batch
])
def test_every_paste_form_reads_the_keys_value(index: Index, text: str, values: dict[str, object]) -> None:
    assert dict(read_settings(text, index.matcher.settings).values) == values


@pytest.mark.parametrize(("lang", "lead"), [
    ("en", "it keeps running out of memory at step 3"),
    ("es", "me quedo sin memoria en el paso 3"),
    ("pt", "fica sem memória no passo 3"),
    ("fr", "ça plante en manque de mémoire au step 3"),
    ("de", "bei Schritt 3 läuft der VRAM über"),
    ("ko", "3스텝에서 메모리 부족으로 멈춰요"),
])
def test_a_command_line_before_the_users_words_in_every_language(index: Index, lang: str, lead: str) -> None:
    text = ("accelerate launch sdxl_train_network.py --cache_latents --gradient_checkpointing --train_batch_size 2 "
            "--resolution 1024,1024\n" + lead)
    u = understand(index.matcher, text, lang)
    assert u.lang == lang
    assert (u.stated.gradient_checkpointing, u.stated.batch_size, u.stated.step) == (True, 2, 3)
    assert (u.family, u.phase) == ("other", None)
    assert u.ranked[0].id in ("oom-early-steps", "oom-persists-with-gc")


_BAR = "steps:  20%|##        | 200/1000 [03:20<13:20, 1.00s/it, avr_loss=nan]"


def test_a_progress_bar_is_no_users_line(index: Index) -> None:
    u = understand(index.matcher, _BAR + "\nmis muestras salen negras", "en")
    assert u.lang == "es"  # the user's line, not the bar's labels
    assert u.stated.step == 200  # the bar's step, not its percentage
    assert "speed" not in u.concepts  # the bar's rate above the user's words tells no speed
    alone = understand(index.matcher, _BAR.replace("1.00s/it", "9.00s/it"), "en")
    assert alone.stated.step == 200  # one line: still the bar's step, not "20%"


def test_a_trainers_sampling_oom_log_gives_the_phase_and_step(index: Index) -> None:
    text = ("steps:  25%|##5       | 500/2000 [10:00<30:00, 1.20s/it, avr_loss=0.1]\n"
            "generating sample images at step: 500\n"
            "Traceback (most recent call last):\n"
            '  File "train_network.py", line 1100, in train\n'
            "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB")
    u = understand(index.matcher, text, "en")
    assert (u.phase, u.stated.step, u.ranked[0].id) == ("sampling", 500, "oom-during-sampling")


def test_a_host_ram_kill_after_a_command_line_is_no_gpu_oom(index: Index) -> None:
    u = understand(index.matcher, "accelerate launch train_network.py --cache_latents --train_batch_size 1\n"
                   "loading model\nKilled", "en")
    assert u.log.not_gpu_oom == "host-ram-kill"
    assert not u.log.gpu_oom and u.phase != "caching"


@pytest.mark.parametrize(("log", "values"), [
    ("running training / 学習開始\n  batch size per device / バッチサイズ: 2, 1\n"
     "  gradient accumulation steps / 勾配を合計するステップ数 = 4\n  total optimization steps / 学習ステップ数: 2000",
     {"batch_size": 2, "gradient_accumulation": 4}),  # sd-scripts' header, one batch size per dataset
    ("***** Running training *****\n  Instantaneous batch size per device = 1\n  Gradient Accumulation steps = 2\n"
     "  Total optimization steps = 1000", {"batch_size": 1, "gradient_accumulation": 2}),  # diffusers, SimpleTuner
    ("--train_batch_size 4\n  Instantaneous batch size per device = 1", {"batch_size": 4}),  # the setting first
])
def test_the_settings_a_trainers_log_prints(index: Index, log: str, values: dict[str, object]) -> None:
    assert dict(read_settings(log, index.matcher.settings).values) == values


_MUSUBI = """still out of memory
accelerate launch src/musubi_tuner/wan_train_network.py --dataset_config dataset.toml --gradient_checkpointing \\
  --fp8_base --blocks_to_swap 20
[general]
resolution = [960, 544]
batch_size = 1
[[datasets]]
target_frames = [1, 25, 45]"""


def test_a_video_trainers_command_and_dataset_toml(index: Index) -> None:
    u = understand(index.matcher, _MUSUBI, "en")
    s = u.stated
    assert (s.gradient_checkpointing, s.batch_size, s.resolutions, s.num_frames) == (True, 1, (960,), 45)
    assert (u.family, u.ranked[0].id) == ("other", "oom-persists-with-gc")  # `wan` in the script's name
    assert "host_ram" not in u.concepts  # `--blocks_to_swap` swaps model blocks, not the host's memory


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "still out of memory even with block swap"),
    ("es", "sigue sin memoria incluso con el intercambio de bloques"),
    ("pt", "continua sem memória mesmo com a troca de blocos"),
    ("fr", "toujours à court de mémoire même avec l'échange de blocs"),
    ("de", "immer noch kein Speicher mehr, auch mit Block-Swap"),
    ("ko", "블록 스왑을 켜도 계속 메모리 부족이에요"),
])
def test_block_swap_is_the_low_memory_path_not_the_hosts_swap(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "low_vram" in u.concepts and "host_ram" not in u.concepts
    assert u.in_domain and u.ranked


def test_caching_the_text_encoders_outputs_is_the_caching_phase(index: Index) -> None:
    log = "caching Text Encoder outputs...\ntorch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB"
    assert understand(index.matcher, log, "en").phase == "caching"


@pytest.mark.parametrize(("log", "nan"), [
    (_BAR + "\nmy samples are black", True),  # sd-scripts' bar postfix
    ("Steps:  10%|#         | 100/1000 [01:40<15:00, 1.00s/it, loss=nan, lr=0.0001]", True),  # diffusers' bar
    ("step 120: loss is NaN, stopping", True),  # a trainer's own message
    ("lora_v1:  12%|#2  | 120/1000 [02:00<14:40, 1.00s/it, lr: 1.0e-04 loss: 4.006e-01]", False),
])
def test_a_nan_loss_is_a_signal_not_a_memory_error(index: Index, log: str, nan: bool) -> None:
    u = understand(index.matcher, log, "en")
    assert ("nan-loss" in {s.id for s in u.log.signals}) is nan
    assert not u.log.gpu_oom


@pytest.mark.parametrize("lang", ["en", "es", "pt", "fr", "de", "ko"])
def test_a_pasted_command_lines_settings_are_the_answers_context(client: TestClient, lang: str) -> None:
    body = client.post("/v1/diagnose", json={"query": _SD_SCRIPTS, "lang": lang}).json()
    assert body["context"] == {"model_family": "flux", "gradient_checkpointing": True, "batch_size": 2,
                               "gradient_accumulation": 4, "resolutions": [1024], "sample_every": 100}
    assert body["symptom"]["id"] == "oom-persists-with-gc"
    steps = [s["id"] for s in body["steps"]]
    assert "enable-gradient-checkpointing" not in steps  # GC is known on: never suggested
    assert "drop-highest-bucket" not in steps  # one training size: no bucket to drop
