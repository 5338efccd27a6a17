"""Issue 12, session 9 (`none` posts read as a training symptom because their event happens outside training): what
runs decides whose failure it is. The training (its steps, its previews while it runs) fails in the guide's way; an
inference program generating with the LoRA afterwards (ComfyUI, Forge, A1111, Wan2GP, a diffusers script), or another
program's own run (a captioning or tagging tool, a conversion script, an install), does not. Images generated with no
word of whose (`generating`: "gero imagens", "이미지 생성", "generating images") are the run's previews unless an
inference program or a LoRA in use is their subject (`intents.yaml` `sentences.subjects`). Sentences written for the
test in six languages, as forum users write (none is a line of the real-message corpora or of the blind sets); each
kind beside its twin that must keep its symptom."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.understanding.probes import diagnose, diagnosed_symptom, search

OOMS = ("oom-general", "oom-early-steps", "oom-during-sampling", "oom-bucket-spike", "oom-persists-with-gc")


def _none(client: TestClient, lang: str, text: str) -> None:
    """No symptom, and no search hit that follows one."""
    assert diagnose(client, lang, text)["symptom"] is None
    assert search(client, lang, text)["match"] == "none"


# --- 1. generating in an inference program -----------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "ComfyUI runs out of VRAM when I generate images with my lora at 1024x1024"),
    ("en", "Getting CUDA out of memory in A1111 on txt2img as soon as I enable hires fix with the lora"),
    ("en", "Wan2GP gives me OOM when I try to render a 5 second video with the lora, 12GB card"),
    ("en", "Training finished fine. But now when I use the LoRA in Forge it runs out of VRAM"),
    ("en", "The KSampler node throws out of memory when I load two loras in my workflow"),
    ("es", "ComfyUI se queda sin VRAM cuando genero imágenes con mi lora"),
    ("es", "Al generar en Forge con la lora me sale CUDA out of memory"),
    ("es", "El entrenamiento terminó bien, pero ahora al usar la lora en Forge se queda sin memoria"),
    ("pt", "o ComfyUI fica sem VRAM quando gero imagens com a minha lora"),
    ("pt", "Quando gero imagens no Forge com a lora dá CUDA out of memory, tenho 8GB"),
    ("pt", "O treino terminou certinho, mas agora ao usar a lora no Forge falta memória"),
    ("fr", "ComfyUI manque de VRAM quand je génère des images avec ma lora"),
    ("fr", "L'entraînement s'est bien terminé, mais maintenant en utilisant la lora dans Forge je manque de VRAM"),
    ("fr", "l'upscale dans ComfyUI plante en out of memory depuis que j'utilise ma lora"),
    ("de", "beim Generieren in Forge kommt OOM, sobald ich mein LoRA lade"),
    ("de", "In ComfyUI bekomme ich beim Erzeugen von Bildern mit dem LoRA immer CUDA out of memory"),
    ("de", "Das Training lief sauber durch, aber jetzt beim Benutzen des LoRA in Forge geht der VRAM aus"),
    ("ko", "ComfyUI에서 이미지 생성할 때 메모리 부족이 떠요"),
    ("ko", "포지에서 로라 넣고 이미지 생성하면 CUDA out of memory 나와요"),
    ("ko", "학습은 잘 끝났는데 포지에서 로라 쓰면 VRAM이 부족해요"),
    ("en", "txt2img with the lora gives CUDA out of memory at 1024x1024"),
    ("en", "img2img crashes with OOM as soon as the lora is enabled"),
    ("es", "cuando uso la lora en txt2img me da CUDA out of memory"),
    ("pt", "quando uso a lora no txt2img dá CUDA out of memory"),
    ("fr", "quand j'utilise la lora en txt2img j'ai un CUDA out of memory"),
    ("de", "wenn ich das LoRA in txt2img benutze, kommt CUDA out of memory"),
    ("ko", "txt2img에서 로라 쓰면 CUDA out of memory 떠요"),
])
def test_an_oom_of_an_inference_program_is_no_symptom(client: TestClient, lang: str, text: str) -> None:
    _none(client, lang, text)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Generating a single image in ComfyUI with my lora takes 3 minutes, is that normal?"),
    ("es", "Generar una imagen en ComfyUI con mi lora tarda 3 minutos, ¿es normal?"),
    ("pt", "Gerar uma imagem no ComfyUI com a minha lora demora 3 minutos, é normal?"),
    ("fr", "Générer une image dans ComfyUI avec ma lora prend 3 minutes, c'est normal ?"),
    ("de", "Ein Bild in ComfyUI mit meinem LoRA zu generieren dauert 3 Minuten, ist das normal?"),
    ("ko", "컴피유아이에서 로라로 이미지 한 장 생성하는데 3분 걸려요 정상인가요?"),
    ("pt", "o Wan2GP tá muito lento pra gerar vídeo, 20 minutos pra 81 frames"),
])
def test_a_slow_generation_is_no_slow_training(client: TestClient, lang: str, text: str) -> None:
    _none(client, lang, text)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "OOM while generating the sample images during training, at step 250"),
    ("en", "ai-toolkit crashes with CUDA out of memory every time it generates the preview images"),
    ("es", "Me da OOM mientras genera las imágenes de muestra durante el entrenamiento"),
    ("pt", "Dá OOM quando o treino vai gerar as imagens de amostra no passo 250"),
    ("pt", "o ai-toolkit fica sem VRAM quando gera as amostras durante o treino"),
    ("fr", "OOM pendant la génération des images d'aperçu de l'entraînement au step 250"),
    ("ko", "학습 중에 샘플 이미지 생성하다가 OOM이 나요"),
])
def test_an_oom_of_the_trainers_previews_stays_a_sampling_oom(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == "oom-during-sampling"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "the training crashes with out of memory when generating images at step 500"),
    ("es", "el entrenamiento se queda sin memoria generando imágenes en el paso 500"),
    ("pt", "o treino fica sem VRAM gerando imagens no passo 500"),
    ("ko", "학습 500스텝에서 이미지 생성할 때 메모리 부족으로 꺼져요"),
])
def test_images_generated_during_the_run_are_its_previews(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == "oom-during-sampling"


# --- 2. a hang or a crash whose memory the user denies ---------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Training stops at the sample step and never continues, no error. It's not a VRAM problem, only 10 of 24 GB "
           "used."),
    ("en", "ai-toolkit freezes right after 'Generating Images', it is not running out of memory, nvidia-smi shows half "
           "the VRAM free"),
    ("en", "The job just dies at step 40 without a traceback. Memory is not the issue, I checked."),
    ("es", "El entrenamiento se congela al generar las muestras, sin error. No es problema de memoria, la VRAM "
           "está a la mitad."),
    ("es", "Se cuelga en el paso 40 sin ningún mensaje, y no es por falta de VRAM"),
    ("pt", "O treino trava quando vai gerar as amostras, sem erro nenhum. Não é problema de memória, a VRAM tá "
           "em 12 de 24 GB."),
    ("pt", "trava no passo 40 sem mensagem nenhuma, e não é falta de VRAM"),
    ("fr", "L'entraînement se fige au moment des samples, aucune erreur. Ce n'est pas un problème de mémoire, la "
           "VRAM est à moitié vide."),
    ("fr", "ça bloque au step 40 sans message, et c'est pas un manque de VRAM"),
    ("de", "Das Training hängt beim Erzeugen der Samples, ohne Fehlermeldung. Am Speicher liegt es nicht, der VRAM ist "
           "nur halb voll"),
    ("de", "Bei Schritt 40 bleibt es einfach stehen, keine Fehlermeldung, und es ist kein Speicherproblem"),
    ("ko", "샘플 만들 때 학습이 멈춰요. 에러는 없고 메모리 문제는 아니에요, VRAM 절반밖에 안 써요."),
    ("ko", "40스텝에서 그냥 멈춰요 에러 없음 메모리 부족 아님"),
])
def test_a_hang_whose_memory_is_denied_is_no_oom(client: TestClient, lang: str, text: str) -> None:
    _none(client, lang, text)


@pytest.mark.parametrize(("lang", "text", "symptoms"), [
    ("en", "Training stops at the sample step with CUDA out of memory, the VRAM is full", ("oom-during-sampling",)),
    ("en", "It's not a memory issue, the training is just really slow, 20 s/it on a 4090", ("slow-training",)),
    ("es", "No es problema de memoria, el entrenamiento va lentísimo, 20 s/it", ("slow-training",)),
    ("pt", "Não é problema de memória, o treino tá muito lento, 20 s/it", ("slow-training",)),
    ("fr", "C'est pas un problème de mémoire, l'entraînement est juste très lent, 20 s/it", ("slow-training",)),
    ("de", "Kein Speicherproblem, das Training ist einfach extrem langsam, 20 s/it", ("slow-training",)),
    ("ko", "메모리 문제는 아니고 학습이 그냥 너무 느려요 20초/it", ("slow-training",)),
    ("en", "No memory problems at all, but after 2000 steps the lora looks nothing like her", ("weak-samples",)),
    ("en", "I don't have much VRAM, only 8GB, and it runs out of memory at step 1", OOMS),
    ("de", "Flux passt nicht in meine 12GB, es stürzt mit CUDA out of memory ab", OOMS),
])
def test_a_symptom_told_beside_a_denied_memory_stays(client: TestClient, lang: str, text: str,
                                                     symptoms: tuple[str, ...]) -> None:
    assert diagnosed_symptom(client, lang, text) in symptoms


def test_a_gc_question_of_a_small_card_still_finds_its_faq(client: TestClient) -> None:
    text = "I don't have a lot of VRAM, should I turn gradient checkpointing off for my first run?"
    assert search(client, "en", text)["hits"][0]["id"] == "faq-first-run-gc-off"


# --- 3. another program's own run: a captioning or tagging tool, a conversion script --------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "the convert script to diffusers format runs out of memory on my 16GB card"),
    ("en", "Joycaption runs out of VRAM when captioning my dataset folder"),
    ("es", "El script de conversión a safetensors se queda sin memoria"),
    ("pt", "o Florence2 fica sem VRAM quando faço as legendas do dataset"),
    ("fr", "WD14 tagger plante en out of memory quand je tague mes images"),
    ("de", "Beim Taggen meiner Bilder mit dem WD14 Tagger bekomme ich CUDA out of memory"),
    ("ko", "joycaption으로 캡션 만들 때 VRAM 부족 떠요"),
])
def test_an_oom_of_another_tool_is_no_symptom(client: TestClient, lang: str, text: str) -> None:
    _none(client, lang, text)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I captioned everything with Joycaption, but the training itself runs out of memory at step 3"),
    ("es", "Hice los captions con Florence2, pero el entrenamiento se queda sin memoria en el paso 3"),
    ("de", "Die Captions habe ich mit WD14 gemacht, aber das Training selbst bricht bei Schritt 3 mit CUDA out of "
           "memory ab"),
])
def test_an_oom_of_the_training_beside_a_tool_stays_an_oom(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) in OOMS


@pytest.mark.parametrize(("lang", "text"), [
    ("de", "OOM beim Generieren der Sample-Bilder während des Trainings bei Schritt 250"),
    ("es", "el entrenamiento se queda sin memoria al generar imágenes de muestra en el paso 500"),
    ("fr", "l'entraînement plante en OOM en générant des images au step 500"),
    ("ko", "학습 500스텝에서 샘플 이미지 생성할 때 OOM 나요"),
])
def test_a_generation_word_beside_the_trainers_samples_is_the_previews(client: TestClient, lang: str,
                                                                        text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == "oom-during-sampling"


@pytest.mark.parametrize(("lang", "text"), [
    ("de", "beim Generieren in Forge kommt OOM, sobald ich mein LoRA lade"),
    ("es", "al generar imágenes en Forge con mi lora se queda sin VRAM"),
    ("fr", "en générant des images dans ComfyUI avec ma lora je tombe en out of memory"),
    ("ko", "포지에서 이미지 생성할 때 로라 쓰면 메모리 부족 떠요"),
])
def test_the_same_generation_word_in_an_inference_program_is_no_symptom(client: TestClient, lang: str,
                                                                         text: str) -> None:
    _none(client, lang, text)


# --- 4. words of speed that tell no slowness of the run: a model's performance, a run told as too short ---------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Is there a metric to evaluate the performance of the trained model? When should I stop?"),
    ("en", "how do you measure model performance after fine-tuning, FID or something else?"),
    ("es", "¿Cómo se mide el rendimiento del modelo entrenado? ¿Hay alguna métrica?"),
    ("pt", "Como vocês medem o desempenho do modelo treinado? Tem alguma métrica?"),
    ("fr", "Comment vous mesurez les performances du modèle entraîné ? Il y a une métrique ?"),
    ("de", "Wie messt ihr die Leistung des trainierten Modells? Gibt es eine Metrik?"),
    ("ko", "학습된 모델 성능은 어떻게 평가하나요? 지표가 있나요?"),
    ("en", "One epoch takes only 4 minutes, is that expected? It seems way too short to me"),
    ("es", "Una época tarda solo 4 minutos, ¿es normal? Me parece demasiado corto"),
    ("pt", "Uma época leva só 4 minutos, é normal? Acho curto demais"),
    ("fr", "Une epoch prend seulement 4 minutes, c'est normal ? Ça me paraît beaucoup trop court"),
    ("de", "Eine Epoche dauert nur 4 Minuten, ist das normal? Kommt mir viel zu kurz vor"),
    ("ko", "한 에폭에 4분밖에 안 걸려요 정상인가요? 너무 짧은 것 같아요"),
])
def test_a_models_performance_or_a_short_run_is_no_slowness(client: TestClient, lang: str, text: str) -> None:
    _none(client, lang, text)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "training performance is terrible on my 3090, 9 s/it"),
    ("es", "el rendimiento del entrenamiento es horrible, 9 s/it en una 3090"),
    ("de", "die Leistung beim Training ist mies, 9 s/it auf einer 3090"),
    ("ko", "학습 속도 성능이 너무 안 나와요 3090에서 9초/it"),
    ("en", "One epoch takes 4 hours, is that expected? It seems way too long to me"),
])
def test_the_trainings_own_speed_stays_a_slow_run(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == "slow-training"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Is a 4060 Ti fast enough to train Flux loras, or should I rent a GPU?"),
    ("en", "Which GPU is faster for lora training, a used 3090 or a new 4070 Ti?"),
    ("es", "¿Una 4060 Ti es suficientemente rápida para entrenar loras de Flux o mejor alquilo una GPU?"),
    ("es", "¿Qué GPU entrena más rápido, una 3090 usada o una 4070 Ti nueva?"),
    ("pt", "Uma 4060 Ti é rápida o suficiente pra treinar loras de Flux ou é melhor alugar uma GPU?"),
    ("pt", "Qual GPU treina mais rápido, uma 3090 usada ou uma 4070 Ti nova?"),
    ("fr", "Une 4060 Ti est assez rapide pour entraîner des loras Flux ou je loue un GPU ?"),
    ("fr", "Quelle carte entraîne plus vite, une 3090 d'occasion ou une 4070 Ti neuve ?"),
    ("de", "Ist eine 4060 Ti schnell genug, um Flux-LoRAs zu trainieren, oder sollte ich eine GPU mieten?"),
    ("de", "Welche GPU trainiert schneller, eine gebrauchte 3090 oder eine neue 4070 Ti?"),
    ("ko", "4060 Ti로 플럭스 로라 학습하기에 충분히 빠른가요? 아니면 GPU 빌리는 게 나을까요?"),
    ("ko", "로라 학습은 중고 3090이랑 새 4070 Ti 중에 뭐가 더 빠른가요?"),
])
def test_which_card_is_fast_enough_is_a_capability_question(client: TestClient, lang: str, text: str) -> None:
    _none(client, lang, text)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "My 4060 Ti trains Flux loras at 12 s/it, is it fast enough or is something wrong?"),
    ("de", "Meine 4060 Ti trainiert Flux-LoRAs mit 12 s/it, ist das schnell genug oder stimmt was nicht?"),
])
def test_a_cards_own_rate_beside_the_question_stays_a_slow_run(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == "slow-training"


# --- 5. no GPU OOM told: the host's shared memory, an OOM only asked about --------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "DataLoader worker (pid 1234) is killed by signal: Bus error. It is possible that dataloader's workers are "
           "out of shared memory. Please try to raise your shared memory limit."),
    ("en", "In docker the training dies because /dev/shm is only 64MB, how do I raise the shm size?"),
    ("en", "Can I train a Flux lora on an 8GB card at all, or will it just OOM?"),
    ("es", "¿Se puede entrenar una lora de Flux con 8GB o me va a dar OOM?"),
    ("pt", "Dá pra treinar lora de Flux com 8GB ou vai dar OOM?"),
    ("de", "Kann man mit 8GB überhaupt ein Flux-LoRA trainieren oder gibt das nur OOM?"),
    ("ko", "8GB로 플럭스 로라 학습 가능한가요? 아니면 OOM 날까요?"),
    ("en", "RuntimeError: CUDA error: an illegal memory access was encountered, right after the first step"),
])
def test_no_gpu_oom_told_is_no_oom(client: TestClient, lang: str, text: str) -> None:
    _none(client, lang, text)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I'm training a Flux lora on my 8GB card and it OOMs right away, what can I change?"),
    ("de", "Ich trainiere ein Flux-LoRA auf meiner 8GB-Karte und es gibt sofort OOM, was kann ich ändern?"),
    ("ko", "8GB 카드로 플럭스 로라 학습하는데 바로 OOM 나요 뭘 바꿔야 하나요?"),
])
def test_an_oom_of_ones_own_run_on_a_small_card_stays(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) in OOMS
