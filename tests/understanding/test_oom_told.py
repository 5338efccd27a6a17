"""OOMs and slowness told as real users tell them (issue 12, session 8), each form on posts written for the test in six
languages: memory evidence in prose without the words ("ran out of vram", "se me cae en el paso 0"), a PyTorch
message pasted alone or as a post's first line (its advice tail is the library's words), a pasted log's finished
loop (`9/9` reading image sizes) that is no failing step, an OOM told in the body of a post titled about another
topic, the subtype read from what is told of the crash (sampling, the first steps, GC on); and their `none` twins:
another program's OOM, a past OOM now solved, a rate shared in a post about a run gone well, a model swapped."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from remedy.index.build import Index
from remedy.understanding.matcher import understand
from tests.understanding.probes import diagnosed_symptom

GEN, EARLY, SAMP = "oom-general", "oom-early-steps", "oom-during-sampling"
GC, SLOW = "oom-persists-with-gc", "slow-training"

# PyTorch's message as it prints it, pasted alone or above the user's line
TORCH = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of "
         "23.55 GiB of which 1.47 GiB is free. Including non-PyTorch memory, this process has 22.06 GiB memory in use. "
         "Of the allocated memory 20.60 GiB is allocated by PyTorch, and 1.02 GiB is reserved by PyTorch but "
         "unallocated. If reserved but unallocated memory is large try setting "
         "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory "
         "Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)")
# sd-scripts' start of a run: reading the image sizes (a bar at its total), the buckets, the model loading
LOADING = ("loading image sizes.\n100%|██████████████████████| 9/9 [00:00<00:00, 1799.62it/s]\nmake buckets\n"
           "bucket 0: resolution (704, 1280), count: 20\nbucket 1: resolution (1024, 1024), count: 60\n"
           "preparing accelerator\nloading model for process 0/1\nbuilding U-Net\nloading U-Net from checkpoint\n"
           "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB.")

TOLD = [
    ("en", "ran out of vram training a flux lora on my 3060, batch 1 at 1024", (GEN,)),
    ("en", "it crashes at step 0 on my 12gb card, flux lora at 1024", (EARLY,)),
    ("en", "CUDA error: out of memory while caching latents, 4060 Ti 16GB, wan 2.1 lora", (GEN,)),
    ("en", "torch.OutOfMemoryError: Allocation on device\nthat's all I get when I train a wan lora on my 4090", (GEN,)),
    ("en", TORCH, (GEN,)),
    ("en", "Cuda out of memory with my 3070, any ideas?\n" + LOADING, (GEN,)),
    ("en", "OOM when sampling\nTraining runs fine for 400 steps, then when it generates the sample images it dies "
           "with CUDA out of memory", (SAMP,)),
    ("en", "gradient checkpointing is on and batch is 1 but it still goes OOM on my 16gb card", (GC,)),
    ("en", "Question about captions\nI'm training a character lora with 40 images. Also, every time I set the "
           "resolution to 1024 my 16gb card runs out of memory, 768 works.", (GEN,)),
    ("en", "my 3060 just can't handle it, it maxes out the vram and the training dies before the "
           "first step", (EARLY, GEN)),
    ("es", "me quedé sin vram entrenando una lora de flux en mi 3060, batch 1 a 1024", (GEN,)),
    ("es", "se me cae en el paso 0 con mi tarjeta de 12gb, lora de flux a 1024", (EARLY,)),
    ("es", "CUDA error: out of memory mientras cachea los latents, 4060 Ti de 16GB", (GEN,)),
    ("es", "Error al muestrear\nEl entrenamiento va bien 400 pasos y cuando genera las imágenes de muestra se cae "
           "por falta de memoria en la GPU", (SAMP,)),
    ("es", "tengo el gradient checkpointing activado y batch 1 y aun así me da OOM en la de 16gb", (GC,)),
    ("es", "Pregunta sobre los captions\nEstoy entrenando una lora de personaje con 40 fotos. Aparte, cada vez "
           "que pongo la resolución a 1024 se queda sin memoria la gráfica de 16gb, con 768 va bien.", (GEN,)),
    ("es", TORCH + "\nme pasa entrenando una lora de wan en la 4090", (GEN,)),
    ("pt", "fiquei sem vram treinando uma lora de flux na minha 3060, batch 1 em 1024", (GEN,)),
    ("pt", "dá pau logo no passo 0 na minha placa de 12gb, lora de flux em 1024", (EARLY,)),
    ("pt", "CUDA error: out of memory enquanto faz o cache dos latents, 4060 Ti de 16GB", (GEN,)),
    ("pt", "Erro nas amostras\nO treino roda bem por 400 passos e quando vai gerar as imagens de amostra cai por "
           "falta de memória na GPU", (SAMP,)),
    ("pt", "o gradient checkpointing tá ligado e o batch é 1 mas continua dando OOM na placa de 16gb", (GC,)),
    ("pt", "a vram da minha placa de 12gb enche toda e o treino morre com erro de memória", (GEN,)),
    ("pt", TORCH + "\nacontece treinando uma lora de wan na 4090", (GEN,)),
    ("fr", "plus de vram en entraînant une lora flux sur ma 3060, batch 1 en 1024", (GEN,)),
    ("fr", "ça plante dès le step 0 sur ma carte de 12 Go, lora flux en 1024", (EARLY,)),
    ("fr", "CUDA error: out of memory pendant la mise en cache des latents, 4060 Ti 16 Go", (GEN,)),
    ("fr", "Plantage pendant les samples\nL'entraînement tourne bien pendant 400 steps, puis quand il génère les "
           "images d'exemple ça plante, mémoire GPU insuffisante", (SAMP,)),
    ("fr", "le gradient checkpointing est activé et le batch à 1 mais j'ai toujours un OOM "
           "sur ma carte de 16 Go", (GC,)),
    ("fr", "ma carte de 12 Go n'a plus assez de mémoire, l'entraînement s'arrête avec une erreur de mémoire", (GEN,)),
    ("fr", TORCH + "\nça m'arrive en entraînant une lora wan sur la 4090", (GEN,)),
    ("de", "mir ist beim Training einer Flux-LoRA auf meiner 3060 der VRAM ausgegangen, Batch 1 bei 1024", (GEN,)),
    ("de", "es stürzt schon bei Step 0 ab, meine Karte hat 12 GB, Flux-LoRA bei 1024", (EARLY,)),
    ("de", "CUDA error: out of memory beim Cachen der Latents, 4060 Ti 16GB", (GEN,)),
    ("de", "Absturz bei den Samples\nDas Training läuft 400 Steps gut, dann beim Erzeugen der Sample-Bilder "
           "bricht es ab, zu wenig GPU-Speicher", (SAMP,)),
    ("de", "Gradient Checkpointing ist an und Batch ist 1, aber ich bekomme trotzdem OOM auf der 16GB-Karte", (GC,)),
    ("de", "der Grafikspeicher meiner 12GB-Karte läuft voll und das Training bricht "
           "mit einem Speicherfehler ab", (GEN,)),
    ("de", TORCH + "\npassiert beim Training einer Wan-LoRA auf der 4090", (GEN,)),
    ("ko", "3060에서 플럭스 로라 학습하다가 vram이 부족해서 터졌어요, 배치 1에 1024", (GEN,)),
    ("ko", "12기가 카드에서 0스텝에서 바로 터져요, 플럭스 로라 1024", (EARLY,)),
    ("ko", "latents 캐싱하는 중에 CUDA error: out of memory 나요, 4060 Ti 16GB", (GEN,)),
    ("ko", "샘플 생성 중 오류\n400스텝까지는 잘 도는데 샘플 이미지 만들 때 GPU 메모리 부족으로 죽어요", (SAMP,)),
    ("ko", "그래디언트 체크포인팅 켜고 배치 1인데도 16기가 카드에서 계속 OOM 나요", (GC,)),
    ("ko", TORCH + "\n4090에서 wan 로라 학습할 때 이래요", (GEN,)),
    ("en", "training takes forever, 25 s/it on a 3090 with flux", (SLOW,)),
    ("en", "each step takes about 40 seconds, is this normal? 4090, batch 1", (SLOW,)),
    ("es", "el entrenamiento va lentísimo, 25 s/it en una 3090 con flux", (SLOW,)),
    ("pt", "o treino tá muito lento, cada passo leva uns 40 segundos, é normal?", (SLOW,)),
    ("fr", "l'entraînement est hyper lent, 25 s/it sur une 3090 avec flux", (SLOW,)),
    ("de", "das Training dauert ewig, 25 s/it auf einer 3090 mit Flux", (SLOW,)),
    ("ko", "학습이 너무 느려요, 3090에서 플럭스로 25 s/it 나와요", (SLOW,)),
]


@pytest.mark.parametrize(("lang", "text", "ids"), TOLD)
def test_an_oom_or_a_slow_run_told_as_users_tell_it(client: TestClient, lang: str, text: str,
                                                    ids: tuple[str, ...]) -> None:
    assert diagnosed_symptom(client, lang, text) in ids


TWINS = [
    ("en", "ComfyUI runs out of VRAM when I generate images with my lora"),
    ("en", "I used to get OOMs on my 3060 but after lowering the batch size it trains fine now, thanks"),
    ("en", "Finished! 2000 steps at 1.2 it/s, the lora looks great"),
    ("en", "Got this error, I swapped it out for the fp16 model and now it trains, thanks"),
    ("es", "A ComfyUI se le acaba la VRAM cuando genero imágenes con mi lora"),
    ("es", "antes me daba OOM en la 3060 pero bajé el batch y ya entrena bien, gracias"),
    ("es", "¡Terminado! 2000 pasos a 1.2 it/s, la lora quedó genial"),
    ("pt", "antes dava OOM na 3060 mas baixei o batch e agora treina normal, valeu"),
    ("pt", "Terminou! 2000 passos a 1.2 it/s, a lora ficou ótima"),
    ("fr", "ComfyUI manque de VRAM quand je génère des images avec ma lora"),
    ("fr", "avant j'avais des OOM sur la 3060 mais j'ai baissé le batch et maintenant ça entraîne bien, merci"),
    ("fr", "Fini ! 2000 steps à 1.2 it/s, la lora est top"),
    ("de", "ComfyUI geht der VRAM aus, wenn ich Bilder mit meiner LoRA generiere"),
    ("de", "früher hatte ich OOMs auf der 3060, aber mit kleinerem Batch läuft das Training jetzt, danke"),
    ("de", "Fertig! 2000 Steps mit 1.2 it/s, die LoRA ist super geworden"),
    ("ko", "예전엔 3060에서 OOM 났는데 배치 줄이니까 이제 잘 돌아가요, 감사합니다"),
    ("ko", "끝났어요! 2000스텝에 1.2 it/s, 로라 아주 잘 나왔어요"),
]


@pytest.mark.parametrize(("lang", "text"), TWINS)
def test_their_twins_tell_no_symptom(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) is None


def test_pytorchs_advice_is_no_word_of_the_users(index: Index) -> None:
    # "to avoid fragmentation", "but unallocated", "Memory Management": the library's, not an avoidance, a contrast or
    # an inference program's log; the message pasted alone is in the domain
    u = understand(index.matcher, TORCH, "en")
    assert u.in_domain and "oom" in u.concepts
    assert u.concepts.isdisjoint({"avoid", "inference_act"})


def test_a_finished_loop_is_no_failing_step(index: Index) -> None:
    u = understand(index.matcher, "Cuda out of memory with my 3070, any ideas?\n" + LOADING, "en")
    assert u.stated.step is None and "early_step" not in u.features


@pytest.mark.parametrize("text", [
    "Got this error, swapped it out for the full model, same error.",
    "I swapped the dataset for a smaller one",
])
def test_a_thing_swapped_is_no_host_memory(index: Index, text: str) -> None:
    assert "host_ram" not in understand(index.matcher, text, "en").concepts


@pytest.mark.parametrize("text", [
    "my PC has 16GB of system RAM and it starts swapping when the model is loading",
    "RAM hits swap file and the job gets killed",
    "I tried to increase swap memory but it still freezes",
])
def test_the_host_swapping_is_host_memory(index: Index, text: str) -> None:
    assert "host_ram" in understand(index.matcher, text, "en").concepts


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "After training started, I found\n1. training speed is super slow:>   1%|█▉        | 495/63437 "
           "[8:21:06<1053:49:57, 60.27s/it].... why?"),
    ("es", "el entrenamiento va lentísimo, mira:  3%|█  | 30/1000 [10:00<5:23:20, 20.00s/it]"),
    ("de", "das Training ist extrem langsam geworden:  3%|█  | 30/1000 [10:00<5:23:20, 20.00s/it]"),
])
def test_the_words_before_a_bar_pasted_in_a_line_are_the_users(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == SLOW


@pytest.mark.parametrize(("text", "ids"), [
    # "it starts" / "to start training" is no time of the crash: the first steps are told as the crash's time
    ("I can't get the configs right to start training on my 4090, no matter what I try I still get OOM", (GEN,)),
    ("it goes OOM the moment it starts making the sample images, training itself was fine", (SAMP,)),
    ("it OOMs as soon as I start training", (EARLY,)),
    ("CUDA out of memory right after it starts, batch 2 at 1024", (EARLY,)),
    ("the run doesn't even start, CUDA out of memory before the first step", (EARLY,)),
])
def test_the_first_steps_are_told_as_the_crashs_time(client: TestClient, text: str, ids: tuple[str, ...]) -> None:
    assert diagnosed_symptom(client, "en", text) in ids


@pytest.mark.parametrize(("lang", "text"), [
    # someone's tutorial is no question about this guide: the OOM told beside it is the post's subject
    ("en", "thanks for the great work and tutorial, I followed it on my 3060 12GB but I got an out of memory error"),
    ("es", "gracias por el tutorial, lo seguí en mi 3060 de 12GB pero me salta un error de falta de memoria"),
    ("pt", "valeu pelo tutorial, segui tudo na minha 3060 de 12GB mas deu erro de falta de memória"),
    ("fr", "merci pour le tuto, je l'ai suivi sur ma 3060 12 Go mais j'ai une erreur de mémoire insuffisante"),
    ("de", "danke für das Tutorial, hab es auf meiner 3060 mit 12GB befolgt, aber ich bekomme einen "
           "Out-of-Memory-Fehler"),
    ("ko", "튜토리얼 따라서 3060 12기가로 돌렸는데 메모리 부족 에러가 나요"),
])
def test_someones_tutorial_beside_an_oom_is_no_question_about_the_guide(client: TestClient, lang: str,
                                                                         text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == GEN


@pytest.mark.parametrize(("lang", "text", "step"), [
    # a run's length is no failing step; a step told after its word is, and a number after another fact's word is
    # that fact's ("for" is no length word: "fine for 400 steps then OOM" tells the failing step)
    ("en", "a total of 3000 steps on my 3090 and it crashes with CUDA out of memory", None),
    ("en", "I train 3000 steps and get OOM right at step 1", 1),
    ("en", "it crashes after 500 steps with CUDA out of memory", 500),
    ("en", "fine for 400 steps then out of memory", 400),
    ("es", "son 3000 pasos en total y se me cae por falta de memoria", None),
    ("es", "después de 500 pasos se cae por falta de memoria", 500),
    ("pt", "são 3000 passos no total e dá OOM", None),
    ("fr", "ça plante en OOM, 3000 steps au total", None),
    ("de", "insgesamt 3000 Steps und es stürzt mit OOM ab", None),
    ("ko", "총 3000스텝 학습인데 OOM 나요", None),
])
def test_a_runs_length_is_no_failing_step(index: Index, lang: str, text: str, step: int | None) -> None:
    assert understand(index.matcher, text, lang).stated.step == step


@pytest.mark.parametrize(("lang", "text", "step"), [
    ("en", "after 500 steps of training it crashes with CUDA out of memory", 500),
    ("fr", "après 500 steps sur ma 3090 ça plante en OOM", 500),
])
def test_a_step_told_beside_other_words_stays_the_failing_one(index: Index, lang: str, text: str, step: int) -> None:
    assert understand(index.matcher, text, lang).stated.step == step


@pytest.mark.parametrize(("lang", "text"), [
    # a sample that is the data's item or an example file is no preview: the OOM is no sampling OOM
    ("en", "any one success in training with the movie shot data sample with 24G VRAM? I get CUDA out of memory"),
    ("en", "I used the sample config from the repo and it runs out of memory on my 4090"),
    ("es", "usé la config de ejemplo del repo y se queda sin memoria la 4090"),
    ("pt", "usei a config de exemplo do repo e a 4090 fica sem memória"),
    ("fr", "j'ai pris la config d'exemple du repo et ma 4090 manque de mémoire, OOM"),
    ("de", "mit der Beispiel-Config aus dem Repo läuft der VRAM voll, Training bricht mit OOM ab"),
    ("ko", "레포 예제 설정 그대로 썼는데 4090에서 메모리 부족 나요"),
])
def test_a_data_sample_or_a_sample_config_is_no_preview(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == GEN
