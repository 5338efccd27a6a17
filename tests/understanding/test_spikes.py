"""Bucket spikes need spike evidence; validation is sampling; generation logs and other training domains are not the
guide's (issue 12, round 2): each mechanism on sentences written for the test, in several languages."""

from __future__ import annotations

import pytest

from remedy.index.build import Index
from remedy.understanding.logs import read_log
from remedy.understanding.matcher import understand
from tests.understanding.probes import top_symptom as _top_symptom

OOM_LINE = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"


# --- a bucket spike needs spike evidence ----------------------------------------------------------------


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I trained on a bucket of 1024 and got CUDA out of memory on my 4090"),
    ("en", "CUDA out of memory with my 720p dataset, Wan 2.1 LoRA on a 3090"),
    ("es", "Me sale CUDA out of memory entrenando con un dataset a 720p en una 3090"),
    ("pt", "Dá CUDA out of memory treinando com dataset em 720p numa 3090"),
    ("fr", "J'ai un CUDA out of memory en entraînant avec un dataset en 720p sur une 3090"),
    ("de", "Ich bekomme CUDA out of memory beim Training mit einem 720p-Datensatz auf einer 3090"),
    ("ko", "720p 데이터셋으로 학습하는데 3090에서 CUDA out of memory가 떠요"),
])
def test_a_resolution_named_beside_an_oom_is_no_spike(index: Index, lang: str, text: str) -> None:
    assert _top_symptom(index, text, lang) == "oom-general"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Training runs fine for a while, then it goes OOM when the 1536 bucket comes up"),
    ("es", "Entrena bien un rato y luego da OOM cuando le toca el bucket de 1536"),
    ("pt", "Treina um tempo e depois dá OOM quando chega o bucket de 1536"),
    ("fr", "Ça tourne un moment puis OOM quand arrive le bucket 1536"),
    ("de", "Trainiert eine Weile, dann OOM beim größten Bucket"),
    ("ko", "몇백 스텝은 괜찮다가 1536 버킷 나올 때 OOM이 나요"),
])
def test_a_bucket_after_steps_ran_fine_is_a_spike(index: Index, lang: str, text: str) -> None:
    assert _top_symptom(index, text, lang) == "oom-bucket-spike"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "After a while it crashes with CUDA out of memory"),
    ("es", "Después de un rato se cae con CUDA out of memory"),
    ("ko", "한참 돌다가 CUDA out of memory로 죽어요"),
])
def test_after_a_while_without_a_bucket_is_no_spike(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "after_a_while" in u.concepts
    assert _top_symptom(index, text, lang) == "oom-general"


# --- a validation is the sampling phase -----------------------------------------------------------------


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I get OOM when it starts the validation, the training steps themselves run fine"),
    ("es", "Me da OOM cuando empieza la validación, los pasos de entrenamiento van bien"),
    ("pt", "Dá OOM quando começa a validação, o treino em si vai bem"),
    ("fr", "OOM au moment de la validation, l'entraînement lui-même passe bien"),
    ("de", "Bei der Validierung kommt OOM, die Trainingsschritte selbst laufen durch"),
    ("ko", "밸리데이션 시작할 때 OOM이 나요, 학습 스텝 자체는 잘 돌아가요"),
])
def test_an_oom_at_the_validation_is_a_sampling_oom(index: Index, lang: str, text: str) -> None:
    assert _top_symptom(index, text, lang) == "oom-during-sampling"


@pytest.mark.parametrize("line", [
    "Running validation...", "[MyTrainValidate] executing node", "validation at step 500",
])
def test_a_validation_line_in_a_log_is_the_sampling_phase(line: str) -> None:
    reading = read_log(f"step 499/2000\n{line}\n{OOM_LINE}")
    assert reading.gpu_oom and reading.phase == "sampling"


# --- a generation program's log is not a training run ---------------------------------------------------


@pytest.mark.parametrize("log", [
    f"got prompt\nlora key not loaded: blocks.0.attn.lora_A.weight\n{OOM_LINE}",
    f'File "C:\\ComfyUI\\execution.py", line 317, in execute\n  WanVideoSampler\n{OOM_LINE}',
    f'File "n:\\FramePack-X\\system\\python\\lib\\torch\\nn\\parameter.py", line 68\n{OOM_LINE}',
])
def test_a_generation_log_is_outside_the_guide(index: Index, log: str) -> None:
    u = understand(index.matcher, f"Out of memory, what can I do?\n{log}", "en")
    assert "log_inference" in u.features
    assert not u.in_domain and u.ranked == ()


def test_a_generation_log_stays_when_training_is_named(index: Index) -> None:
    text = f'My LoRA training in ComfyUI OOMs:\nFile "C:\\ComfyUI\\execution.py", line 317, in execute\n{OOM_LINE}'
    u = understand(index.matcher, text, "en")
    assert "log_inference" in u.features and u.in_domain
    assert _top_symptom(index, text, "en") == "oom-general"


def test_a_training_log_is_no_generation_log() -> None:
    reading = read_log(f'File "/workspace/ai-toolkit/run.py", line 90, in <module>\nstep 12/3000\n{OOM_LINE}')
    assert "inference-run" not in {s.id for s in reading.signals}


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "When using two or more loras the VRAM fills up and it runs out of memory"),
    ("en", "Out of memory each image batch generation in Forge"),
    ("es", "Al usar dos o más loras se llena la VRAM y se queda sin memoria"),
    ("fr", "Avec deux loras ou plus la VRAM se remplit et ça plante en out of memory"),
    ("en", "I get out of memory in FramePack after two videos"),
])
def test_generating_with_loras_is_not_the_training_guide(index: Index, lang: str, text: str) -> None:
    assert not understand(index.matcher, text, lang).in_domain


# --- other training domains -----------------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "reinforcement learning with PPO is really slow, 200 hours per epoch"),
    ("es", "El aprendizaje por refuerzo con PPO va lentísimo, 200 horas por época"),
    ("pt", "O aprendizado por reforço com PPO está muito lento, 200 horas por época"),
    ("fr", "L'apprentissage par renforcement avec PPO est super lent, 200 heures par époque"),
    ("de", "Reinforcement Learning mit PPO ist extrem langsam, 200 Stunden pro Epoche"),
    ("ko", "강화학습 PPO 학습이 너무 느려요, 한 에폭에 200시간 걸려요"),
    ("en", "Training a LoRA in Ooba is 3x slower than yours, 2.7 s/it on a 3090"),
    ("en", "My GRPO run with vLLM only gets 20 tokens/s, why so slow?"),
    ("en", "I just started deep learning for speech synthesis, my run is at 4 seconds per step, how to optimize?"),
    ("es", "Mi entrenamiento de síntesis de voz va a 4 segundos por paso, ¿cómo lo acelero?"),
    ("pt", "Meu treino de síntese de voz está a 4 segundos por passo, como acelerar?"),
    ("fr", "Mon entraînement de synthèse vocale tourne à 4 secondes par step, comment accélérer ?"),
    ("de", "Mein Sprachsynthese-Training läuft mit 4 Sekunden pro Schritt, wie beschleunige ich das?"),
    ("ko", "음성 합성 모델 학습이 스텝당 4초 걸려요, 어떻게 빠르게 하나요?"),
])
def test_another_domains_slowness_is_not_the_guides(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert not u.in_domain and u.ranked == ()


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "CUDA out of memory while fine-tuning llama 7b with LoRA"),
    ("en", "OOM fine-tuning Mistral 7B with QLoRA on a 3090, axolotl, sequence_len 4096"),
    ("es", "Me da CUDA out of memory haciendo fine-tune de Llama 3 8B con QLoRA"),
    ("pt", "Dá falta de memória (OOM) no fine-tune do Qwen2.5 7B com o SFTTrainer"),
    ("fr", "OOM en fine-tunant Llama 3.1 8B avec LLaMA-Factory, cutoff_len 4096"),
    ("de", "OOM beim Finetunen von Llama 3 8B mit QLoRA, max_seq_length 4096"),
    ("ko", "Llama 3 8B QLoRA 파인튜닝하다가 OOM 나요"),
])
def test_a_gpu_oom_in_another_domain_is_not_the_guides(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert not u.in_domain and u.ranked == ()


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "HunyuanVideo LoRA always OOM on 16GB, llm_path = 'llama-3-8b-text-encoder-tokenizer'"),
    ("en", "I tried to train flux kontext with grpo and it went out of memory"),
    ("es", "Entrenando un LoRA de HunyuanVideo me da OOM, ¿será el text encoder llama-3-8b?"),
    ("pt", "Treinando LoRA do HunyuanVideo dá OOM, será o text encoder llama-3-8b?"),
    ("fr", "LoRA HunyuanVideo : OOM à chaque fois, c'est le text encoder llama-3-8b ?"),
    ("de", "HunyuanVideo LoRA: jedes Mal OOM, liegt das am Text-Encoder llama-3-8b?"),
    ("ko", "HunyuanVideo LoRA 학습할 때 OOM 나요, llama-3-8b 텍스트 인코더 때문인가요?"),
])
def test_a_gpu_oom_of_a_guide_family_stays_an_oom_beside_llm_words(index: Index, lang: str, text: str) -> None:
    assert _top_symptom(index, text, lang) == "oom-general"


def test_a_forge_log_is_a_generation_log(index: Index) -> None:
    log = ("[Memory Management] Current Free GPU Memory: 9773.37 MB\n"
           "[Memory Management] Required Model Memory: 6246.84 MB\n"
           f"Patching LoRAs:  43%|######     | 130/304 [00:06<00:08, 19.72it/s]\n{OOM_LINE}")
    u = understand(index.matcher, f"OOM with my LoRA\n{log}", "en")
    assert "log_inference" in u.features and not u.in_domain


# --- cadence and contrast words are no spike cues -------------------------------------------------------


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I'd like the previews generated periodically while training"),
    ("ko", "학습 중에 주기적으로 샘플 이미지를 뽑고 싶어요"),
])
def test_a_cadence_is_not_intermittent(index: Index, lang: str, text: str) -> None:
    assert "intermittent" not in understand(index.matcher, text, lang).concepts


@pytest.mark.parametrize(("lang", "contrast", "change"), [
    ("en", "The official notebook works fine, but my own script runs out of memory",
     "It worked fine before the update, now it runs out of memory"),
    ("es", "El notebook oficial funciona bien, pero mi script se queda sin memoria",
     "Funcionaba bien hasta ayer, ahora se queda sin memoria"),
])
def test_a_setup_that_works_fine_beside_one_that_fails_is_no_sudden_change(
    index: Index, lang: str, contrast: str, change: str,
) -> None:
    assert "sudden" not in understand(index.matcher, contrast, lang).concepts
    assert "sudden" in understand(index.matcher, change, lang).concepts


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "GC is on and it still runs out of memory, no validation, no samples, only training"),
    ("fr", "GC activé et toujours OOM, pas de validation, pas de samples, juste l'entraînement"),
    ("de", "GC ist an und trotzdem OOM, keine Validierung, keine Samples, nur Training"),
])
def test_no_validation_and_no_samples_is_no_sampling_phase(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "preview" not in u.concepts and "validation" not in u.concepts
    assert _top_symptom(index, text, lang) == "oom-persists-with-gc"


# --- an OOM that keeps coming is no GC told on ----------------------------------------------------------


@pytest.mark.parametrize(("lang", "text", "symptom"), [
    ("ko", "4090에서 플럭스 로라 학습하는데 계속 메모리 부족 떠요", "oom-general"),
    ("fr", "Mon entraînement plante toujours en OOM au 20e batch", "oom-general"),
    ("ko", "그래디언트 체크포인팅 켰는데도 계속 메모리 부족 떠요", "oom-persists-with-gc"),
    ("fr", "Le gradient checkpointing est activé et ça plante toujours en OOM", "oom-persists-with-gc"),
])
def test_still_failing_is_persisting_with_gc_only_when_gc_is_on(
    index: Index, lang: str, text: str, symptom: str,
) -> None:
    assert _top_symptom(index, text, lang) == symptom


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I trained a character LoRA on screenshots from 12 episodes and it takes 10 hours, is that normal?"),
    ("fr", "J'ai entraîné un LoRA de personnage sur des captures de 12 épisodes et ça prend 10 heures, c'est normal ?"),
])
def test_a_shows_episodes_in_a_dataset_are_no_other_domain(index: Index, lang: str, text: str) -> None:
    assert _top_symptom(index, text, lang) == "slow-training"
