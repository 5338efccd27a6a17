"""Issue 12, session 6 (`posts`): OOM details stated, not guessed (GC on, the first steps, the batch size in every
form a trainer or a user writes it), a pasted progress bar's rate asked about, the sides of a training size, and a
long post's sentences that matter read within the budget. Sentences written for the test, never a line of a thread."""

from __future__ import annotations

import pytest

from remedy.index.build import Index
from remedy.understanding.log_bars import seconds_per_step
from remedy.understanding.matcher import understand
from remedy.understanding.prose import prose_of

from .probes import top_symptom

_BAR = "steps:  12%|#1        | 120/1000 [10:00<1:13:20,  5.00s/it, lr: 1e-4 loss: 0.12]"


# --- GC on is stated, never guessed ------------------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "CUDA out of memory even with bs=1"),
    ("en", "still out of memory after I enabled cache latents and fp8"),
    ("es", "sigue dando out of memory incluso con batch 1"),
    ("pt", "continua sem memória mesmo com batch 1"),
    ("fr", "toujours CUDA out of memory même avec un batch de 1"),
    ("de", "immer noch CUDA out of memory, sogar mit Batchgröße 1"),
    ("ko", "배치 1로 해도 계속 메모리 부족"),
])
def test_an_on_word_said_of_another_setting_is_no_gc_on(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert u.stated.gradient_checkpointing is None
    assert top_symptom(index, text, lang) == "oom-general"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "gradient checkpointing is on and it still runs out of memory"),
    ("es", "tengo el gradient checkpointing activado y sigue el out of memory"),
    ("ko", "그래디언트 체크포인팅 켰는데도 메모리 부족"),
])
def test_gc_told_on_keeps_the_oom_that_persists(index: Index, lang: str, text: str) -> None:
    assert top_symptom(index, text, lang) == "oom-persists-with-gc"


# --- the first steps need their evidence --------------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "CUDA out of memory after setting gradient_checkpointing: false, batch size 2"),
    ("es", "CUDA out of memory después de poner gradient_checkpointing: false, batch size 2"),
    ("pt", "CUDA out of memory depois de colocar gradient_checkpointing: false, batch size 2"),
    ("fr", "CUDA out of memory après avoir mis gradient_checkpointing: false, batch size 2"),
    ("de", "CUDA out of memory, nachdem ich gradient_checkpointing: false gesetzt habe, Batch Size 2"),
    ("ko", "gradient_checkpointing: false로 바꾸고 나서 계속 OOM 남"),
])
def test_an_oom_with_gc_off_and_no_step_told_is_no_first_step_oom(index: Index, lang: str, text: str) -> None:
    assert top_symptom(index, text, lang) == "oom-general"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "gradient checkpointing off and it OOMs at step 2"),
    ("es", "con el GC desactivado da OOM en el paso 2"),
    ("de", "GC aus und OOM gleich beim zweiten Step"),
])
def test_a_step_told_early_keeps_the_first_step_oom(index: Index, lang: str, text: str) -> None:
    assert top_symptom(index, text, lang) == "oom-early-steps"


# --- the batch size, in every form ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "CUDA out of memory even with a batch size of 1"),
    ("en", "OOM even with bs=1"),
    ("en", "OOM with batch 1 at 512"),
    ("en", "OOM even at 1 per device"),
    ("en", "out of memory with batch size per device 1"),
    ("es", "me quedo sin memoria con un tamaño de lote de 1"),
    ("es", "sin memoria con 1 por dispositivo"),
    ("pt", "falta de memória com 1 por dispositivo"),
    ("fr", "plus de mémoire avec 1 par appareil"),
    ("de", "Speicher voll mit 1 pro Gerät"),
    ("ko", "디바이스당 1인데 메모리 부족"),
    ("ko", "배치 사이즈 1인데도 메모리 부족"),
])
def test_the_batch_size_told_in_prose(index: Index, lang: str, text: str) -> None:
    assert understand(index.matcher, text, lang).stated.batch_size == 1


@pytest.mark.parametrize("paste", [
    "--train_batch_size=1",  # sd-scripts, diffusers, SimpleTuner flags
    "--train_batch_size 1",
    "['/usr/bin/python3', 'train_network.py', '--cache_latents', '--train_batch_size=1', '--max_train_epochs=12']",
    "train_batch_size = 1",  # a toml
    '"--train_batch_size": 1,',  # SimpleTuner config.json
    "TRAIN_BATCH_SIZE=1",  # SimpleTuner config.env
    "export TRAIN_BATCH_SIZE=1",
    '"batch_size": 1,',  # OneTrainer, kohya_ss JSON
    "batch_size: 1",  # AI Toolkit YAML
    "train.batch_size=1",
    "micro_batch_size_per_gpu = 1",  # diffusion-pipe
    "per_device_train_batch_size: 1",  # transformers-style
    "batch size per device / バッチサイズ: 1",  # sd-scripts' own log
    "Instantaneous batch size per device = 1",  # diffusers' and SimpleTuner's log
])
def test_the_batch_size_of_every_trainers_paste(index: Index, paste: str) -> None:
    u = understand(index.matcher, paste + "\ntorch.OutOfMemoryError: CUDA out of memory.", "en")
    assert u.stated.batch_size == 1


# --- a progress bar's rate asked about ------------------------------------------------------------------------------


@pytest.mark.parametrize(("line", "seconds"), [
    (_BAR, 5.0),
    ("my_lora:   2%|   | 49/3000 [13:26<00:08, 4.00it/s, lr: 1.0e-04]", 0.25),
    ("steps:  12%|#1        | 120/1000 [10:00<?, ?it/s]", None),
])
def test_a_bars_rate_is_read_as_seconds_per_step(line: str, seconds: float | None) -> None:
    assert seconds_per_step(line) == seconds


@pytest.mark.parametrize(("lang", "question"), [
    ("en", "is this normal?"),
    ("es", "¿es normal?"),
    ("pt", "isso é normal?"),
    ("fr", "c'est normal ?"),
    ("de", "ist das normal?"),
    ("ko", "이거 정상인가요?"),
])
def test_a_bar_under_is_this_normal_is_a_rate_asked_about(index: Index, lang: str, question: str) -> None:
    assert top_symptom(index, question + "\n" + _BAR, lang) == "slow-training"
    assert top_symptom(index, _BAR + "\n" + question, lang) == "slow-training"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "is this normal?\nsteps:  12%|#1        | 120/1000 [10:00<?, ?it/s, lr: 1e-4]"),  # no rate shown yet
    ("en", "my loss looks like this, is this normal?\n" + _BAR),  # asked of the loss
    ("es", "mi loss se ve así, ¿es normal?\n" + _BAR),
    ("de", "der Loss sieht so aus, ist das normal?\n" + _BAR),
    ("ko", "로스가 이렇게 나오는데 정상인가요?\n" + _BAR),
])
def test_a_bar_asked_about_for_something_else_is_no_slowness(index: Index, lang: str, text: str) -> None:
    assert top_symptom(index, text, lang) is None


def test_a_bar_with_no_question_is_no_slowness(index: Index) -> None:
    assert top_symptom(index, "here is my log\n" + _BAR, "en") is None


# --- the sides of a training size -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("paste", "resolutions"), [
    ("accelerate launch train_cogvideox_lora.py --height 480 --width 720 --train_batch_size 1", (720,)),
    ("python train.py --width=832 --height=480 --use_gradient_checkpointing", (832,)),
    ("export WIDTH=768\nexport HEIGHT=1024", (1024,)),
    # AI Toolkit's sample block gives the previews' size, not the training's
    ("sample:\n  width: 1024\n  height: 1024\ndatasets:\n  - resolution: [512, 768]", (512, 768)),
])
def test_height_and_width_flags_give_the_training_size(
    index: Index, paste: str, resolutions: tuple[int, ...],
) -> None:
    u = understand(index.matcher, paste + "\ntorch.OutOfMemoryError: CUDA out of memory.", "en")
    assert u.stated.resolutions == resolutions


# --- a long post's sentences that matter, within the budget --------------------------------------------------------

_LONG = {  # a past, slow story told again and again, then the present failure, told last
    "en": ("Last month my first LoRA on the old card took forever to train, it was really slow.",
           "Now it crashes running out of memory at step 3 every single time."),
    "es": ("El mes pasado mi primera LoRA en la tarjeta vieja tardó una eternidad, era muy lenta.",
           "Ahora se cae sin memoria en el paso 3 cada vez."),
    "pt": ("No mês passado minha primeira LoRA na placa antiga demorou uma eternidade, era muito lenta.",
           "Agora fica sem memória no passo 3 toda vez."),
    "fr": ("Le mois dernier ma première LoRA sur l'ancienne carte a pris une éternité, c'était très lent.",
           "Maintenant ça plante par manque de mémoire au step 3 à chaque fois."),
    "de": ("Letzten Monat hat meine erste LoRA auf der alten Karte ewig gedauert, es war sehr langsam.",
           "Jetzt stürzt es jedes Mal bei Step 3 mit zu wenig Speicher ab."),
    "ko": ("지난달에 예전 카드로 처음 로라 학습할 때는 엄청 오래 걸렸고 진짜 느렸어요.",
           "지금은 매번 3스텝에서 메모리 부족 나요."),
}


@pytest.mark.parametrize("lang", sorted(_LONG))
def test_a_long_post_reads_its_present_failure_before_its_past_story(index: Index, lang: str) -> None:
    past, now = _LONG[lang]
    text = "Flux LoRA\n" + " ".join([past] * 12) + " " + now  # twelve times the story: past the token budget
    u = understand(index.matcher, text, lang)
    assert u.stated.step == 3
    assert top_symptom(index, text, lang) == "oom-early-steps"


def test_a_question_asked_under_a_long_paste_is_the_users() -> None:
    lines = [f"I changed option number {n} and tried again" for n in range(12)]
    text = "OOM on my 4090\n" + "\n".join(lines) + "\ntorch.OutOfMemoryError: CUDA out of memory.\nwhat else can I try?"
    prose = prose_of(text)
    assert "what else can I try?" in prose
    assert "option number 11" not in prose  # past the first lines, only the questions


# --- a one-word aside marker opens its sentence ---------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Training got stuck at 8%. The first run was also stuck at 7% and did not continue."),
    ("es", "El entrenamiento se quedó atascado en 8%. La primera vez además se quedó en 7% y no avanza."),
    ("pt", "O treino travou em 8%. A primeira vez também travou em 7% e não sai do lugar."),
    ("fr", "L'entraînement est bloqué à 8%. La première fois il était aussi bloqué à 7% et n'avance plus."),
    ("de", "Das Training hängt bei 8%. Beim ersten Mal hing es außerdem bei 7% und kommt nicht weiter."),
    ("ko", "학습이 8%에서 멈췄어요. 처음에도 7%에서 진행이 안 됐어요."),
])
def test_also_inside_a_sentence_is_no_aside(index: Index, lang: str, text: str) -> None:
    # the sentence that says the run did not go on is the user's story, not a side remark: a hang, no slow run
    assert top_symptom(index, text, lang) is None


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Also, unrelated: does the toolkit support Wan 2.2? My run OOMs at step 3."),
    ("es", "Además, otra cosa: ¿el toolkit soporta Wan 2.2? Mi entrenamiento da OOM en el paso 3."),
    ("de", "Außerdem, andere Frage: unterstützt das Toolkit Wan 2.2? Mein Training hat OOM bei Step 3."),
])
def test_an_aside_that_opens_its_sentence_stays_an_aside(index: Index, lang: str, text: str) -> None:
    assert top_symptom(index, text, lang) == "oom-early-steps"
