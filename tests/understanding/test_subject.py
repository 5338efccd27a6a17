"""Issue 12, session 6 (`subject`): a slowness or a bad result is the guide's only when the training is its subject,
and an OOM symptom needs memory evidence. Each mechanism on sentences written for the test, as forum users write,
in six languages (none is a line of the real-message corpora): a generation's slowness in another program beside a
training named elsewhere, a generation's bad result with no training named, another domain's model, a post that says
its problem is solved, a GUI toolkit's "not enough memory resources", a feature request's wish for speed, a hang where
nothing happens, a run stuck at a point, the card's memory named beside a bad result, an OOM the user does not want, a
container OOM-killed by the host, a wish for better previews; and the positive twin of each (the training's own rate,
the trained LoRA's outcome, a CUDA OOM, a problem solved but another told after "but", stuck at the previews)."""

from __future__ import annotations

import pytest

from remedy.content.sentence_models import Subject
from remedy.index.build import Index
from remedy.understanding.lexicon import Hit
from remedy.understanding.matcher import understand
from remedy.understanding.subject import of_the_training
from tests.understanding.probes import top_symptom

LANGS = ("en", "es", "pt", "fr", "de", "ko")


def _none(index: Index, lang: str, text: str) -> None:
    assert top_symptom(index, text, lang) is None, understand(index.matcher, text, lang).concepts


# --- 1. the training as the subject of a slowness ---------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I trained a LoRA with ai-toolkit and when I use it in ComfyUI the generation is super slow, like 3 "
           "minutes per image."),
    ("es", "entrené un lora con ai-toolkit y cuando lo uso en ComfyUI la generación va lentísima, como 3 minutos por "
           "imagen"),
    ("pt", "treinei uma lora no ai-toolkit e quando uso no ComfyUI a geração fica muito lenta, uns 3 minutos por "
           "imagem"),
    ("fr", "j'ai entraîné un lora avec ai-toolkit et quand je l'utilise dans ComfyUI la génération est super lente, "
           "genre 3 minutes par image"),
    ("de", "hab ein LoRA mit ai-toolkit trainiert und wenn ich es in ComfyUI nutze ist die Generierung extrem langsam, "
           "so 3 Minuten pro Bild"),
    ("ko", "ai-toolkit으로 로라 학습했는데 ComfyUI에서 쓰면 생성이 너무 느려요 한 장에 3분 걸려요"),
])
def test_a_generations_slowness_is_not_the_trainings(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "training" in u.concepts or "own_lora" in u.concepts  # the training is named, yet not what is slow
    assert "slow_run" not in u.concepts
    _none(index, lang, text)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "my lora training in ai-toolkit is super slow, 20 s/it, while generating in ComfyUI is fast"),
    ("es", "el entrenamiento de mi lora en ai-toolkit va lentísimo, 20 s/it, y en ComfyUI generar va rápido"),
    ("pt", "o treino da minha lora no ai-toolkit tá muito lento, 20 s/it, e no ComfyUI gerar é rápido"),
    ("fr", "l'entraînement de mon lora dans ai-toolkit est hyper lent, 20 s/it, alors que générer dans ComfyUI va "
           "vite"),
    ("de", "das Training von meinem LoRA in ai-toolkit ist extrem langsam, 20 s/it, Generieren in ComfyUI geht "
           "schnell"),
    ("ko", "ai-toolkit에서 로라 학습이 너무 느려요 20 s/it 나와요 ComfyUI에서 생성은 빠른데요"),
])
def test_the_trainings_own_slowness_beside_a_generation_stays_slow_training(index: Index, lang: str,
                                                                            text: str) -> None:
    assert top_symptom(index, text, lang) == "slow-training"


class _OneSentence:
    """A reading of one sentence: all that `of_the_training` asks of a reading."""

    @staticmethod
    def sentence_of(i: int) -> int:
        return 0


_SPEED = Subject(told=("speed",), training=("training", "baseline"), other=("generation_word", "inference_app"),
                 nearest=True)


def test_a_slowness_follows_the_subject_named_nearest() -> None:
    """"stuck in generating baseline samples": subjects side by side are one phrase, the previews' here; "trained
    it, in ComfyUI it is slow": the program named nearest is what is slow."""
    reading = _OneSentence()
    stuck, generating, baseline = Hit("speed", 0, 2), Hit("generation_word", 3, 4), Hit("baseline", 4, 6)
    hits = [stuck, generating, baseline]
    assert of_the_training((_SPEED,), reading, hits) == hits  # type: ignore[arg-type]
    training, comfy, slow = Hit("training", 0, 1), Hit("inference_app", 4, 5), Hit("speed", 5, 6)
    assert of_the_training((_SPEED,), reading, [training, comfy, slow]) == [training, comfy]  # type: ignore[arg-type]


# --- 2. the training as the subject of a bad result -------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "the videos I generate with wan 2.1 look washed out and blurry compared to the examples"),
    ("es", "los videos que genero con wan 2.1 salen borrosos y con colores lavados"),
    ("pt", "os vídeos que eu gero com o wan 2.1 saem borrados e com as cores lavadas"),
    ("fr", "les vidéos que je génère avec wan 2.1 sont floues et les couleurs délavées"),
    ("de", "die Videos, die ich mit Wan 2.1 generiere, sind verschwommen und die Farben ausgewaschen"),
    ("ko", "wan 2.1로 생성한 영상이 흐릿하고 색이 바래 보여요"),
])
def test_a_generations_bad_result_with_no_training_named_is_none(index: Index, lang: str, text: str) -> None:
    _none(index, lang, text)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I trained a lora of my dog but when I generate with it in ComfyUI it looks nothing like him"),
    ("es", "entrené un lora de mi perro pero cuando genero con él en ComfyUI no se parece en nada"),
    ("pt", "treinei uma lora do meu cachorro mas quando gero com ela no ComfyUI não parece nada com ele"),
    ("fr", "j'ai entraîné un lora de mon chien mais quand je génère avec dans ComfyUI ça ne lui ressemble pas du tout"),
    ("de", "ich hab ein LoRA von meinem Hund trainiert, aber wenn ich damit in ComfyUI generiere sieht es ihm "
           "überhaupt nicht ähnlich"),
    ("ko", "우리 강아지로 로라 학습했는데 ComfyUI에서 생성하면 전혀 안 닮았어요"),
])
def test_the_trained_loras_outcome_seen_in_a_generation_stays_weak_samples(index: Index, lang: str,
                                                                           text: str) -> None:
    assert top_symptom(index, text, lang) == "weak-samples"


# --- 3. another domain's model ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "training a YOLOv8 model, each epoch takes 2 hours on a 3060, is that normal?"),
    ("en", "my text classifier trained for 10 epochs but the accuracy is really bad"),
    ("es", "entrenando un modelo yolov8, cada época tarda 2 horas en una 3060, ¿es normal?"),
    ("es", "entrené mi clasificador 10 épocas pero la precisión es malísima"),
    ("pt", "treinando um modelo yolov8, cada época demora 2 horas numa 3060, é normal?"),
    ("pt", "treinei meu classificador por 10 épocas mas a acurácia tá péssima"),
    ("fr", "j'entraîne un modèle yolov8, chaque époque prend 2 heures sur une 3060, c'est normal ?"),
    ("fr", "j'ai entraîné mon classifieur 10 époques mais la précision est vraiment mauvaise"),
    ("de", "ich trainiere ein yolov8 Modell, jede Epoche dauert 2 Stunden auf einer 3060, ist das normal?"),
    ("de", "hab meinen Klassifikator 10 Epochen trainiert, aber die Genauigkeit ist richtig schlecht"),
    ("ko", "yolov8 모델 학습하는데 에폭 하나에 2시간 걸려요 3060인데 정상인가요?"),
    ("ko", "분류기를 10 에폭 학습시켰는데 정확도가 너무 안 좋아요"),
])
def test_another_domains_speed_or_accuracy_is_none(index: Index, lang: str, text: str) -> None:
    assert "other_domain" in understand(index.matcher, text, lang).concepts
    _none(index, lang, text)


def test_another_domains_gpu_oom_is_not_the_guides(index: Index) -> None:
    # session 13: another kind of training's GPU OOM is outside the guide too (test_spikes.py has the six languages)
    assert top_symptom(index, "training a YOLOv8 model gives CUDA out of memory at batch 32", "en") is None


# --- 4. a post that says its problem is solved ------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Update: solved it, the OOM was because I had another app open. Thanks!"),
    ("en", "Nevermind, it was slow because I had samples every 50 steps, turned that off and now it's fine."),
    ("es", "Actualización: ya lo solucioné, el OOM era porque tenía otra app abierta. ¡Gracias!"),
    ("pt", "Atualização: já resolvi, o OOM era porque tinha outro app aberto. Valeu!"),
    ("fr", "Edit : résolu, l'OOM venait d'une autre appli ouverte. Merci !"),
    ("de", "Update: hat sich erledigt, der OOM kam von einer anderen offenen App. Danke!"),
    ("ko", "업데이트: 해결했어요, 다른 앱이 켜져 있어서 OOM이 났던 거였어요. 감사합니다!"),
])
def test_a_problem_told_as_solved_is_none(index: Index, lang: str, text: str) -> None:
    assert "solved" in understand(index.matcher, text, lang).concepts
    _none(index, lang, text)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I fixed it by turning GC back on, but now training is really slow, 10 s/it"),
    ("es", "ya lo solucioné activando GC, pero ahora el entrenamiento va lentísimo, 10 s/it"),
    ("pt", "já resolvi ligando o GC, mas agora o treino tá muito lento, 10 s/it"),
    ("fr", "édit résolu en réactivant le GC, mais maintenant l'entraînement est hyper lent, 10 s/it"),
    ("de", "hab es gelöst, indem ich GC wieder angemacht hab, aber jetzt ist das Training extrem langsam, 10 s/it"),
    ("ko", "GC 다시 켜서 해결했어요. 하지만 이제 학습이 너무 느려요 10 s/it"),
])
def test_a_new_problem_after_the_solved_one_is_the_symptom(index: Index, lang: str, text: str) -> None:
    assert top_symptom(index, text, lang) == "slow-training"


@pytest.mark.parametrize(("lang", "text", "symptom"), [
    # asked how to solve it, or denied: nothing is solved, the symptom stands
    ("en", "CUDA out of memory at step 2 with flux, how do I fix it?", "oom-early-steps"),
    ("en", "my lora looks nothing like her, how can i solve it", "weak-samples"),
    ("en", "problem not solved, training is still really slow, 10 s/it", "slow-training"),
    ("es", "me sale CUDA out of memory en el paso 2 con flux, ¿cómo lo soluciono? ¿ya lo solucionaste tú?",
     "oom-early-steps"),
    ("pt", "CUDA out of memory no passo 2 com flux, já resolveram isso? como resolvo?", "oom-early-steps"),
    ("fr", "CUDA out of memory à l'étape 2 avec flux, problème pas résolu, comment je fais ?", "oom-early-steps"),
    ("de", "CUDA out of memory bei Schritt 2 mit Flux, Problem nicht gelöst, wie behebe ich das?", "oom-early-steps"),
    ("ko", "flux 2스텝에서 CUDA out of memory 떠요. 해결했어요? 어떻게 해결하나요?", "oom-early-steps"),
])
def test_a_solution_asked_for_or_denied_solves_nothing(index: Index, lang: str, text: str, symptom: str) -> None:
    assert "solved" not in understand(index.matcher, text, lang).concepts
    assert top_symptom(index, text, lang) == symptom


# --- 5. memory evidence for an OOM: a GUI toolkit's message is none ---------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "the GUI crashes with 'Not enough memory resources are available to process this command' when I open "
           "the sample tab"),
    ("en", "Exception in Tkinter callback: Tk_GetPixmap: Error from CreateDIBSection Not enough memory resources are "
           "available to process this command."),
    ("es", "la interfaz se cierra con el error 'No hay suficientes recursos de memoria disponibles para procesar este "
           "comando' al abrir la pestaña de muestras"),
    ("pt", "a interface fecha com o erro 'Não há recursos de memória suficientes disponíveis para processar este "
           "comando' quando abro a aba de amostras"),
    ("fr", "l'interface plante avec l'erreur 'Ressources mémoire insuffisantes pour traiter cette commande' quand "
           "j'ouvre l'onglet des samples"),
    ("de", "die GUI stürzt ab mit 'Nicht genügend Speicherressourcen verfügbar, um diesen Befehl zu verarbeiten', "
           "wenn ich den Sample-Tab öffne"),
    ("ko", "샘플 탭을 열면 GUI가 '이 명령을 처리하기 위한 메모리 리소스가 부족합니다' 에러로 꺼져요"),
])
def test_a_gui_toolkits_memory_message_is_no_gpu_oom(index: Index, lang: str, text: str) -> None:
    assert "gui_memory" in understand(index.matcher, text, lang).concepts
    _none(index, lang, text)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "the GUI says not enough memory resources, and the trainer log shows CUDA out of memory, "
           "Tried to allocate 2.00 GiB"),
    ("es", "me sale CUDA out of memory al entrenar un lora de flux con 12GB"),
    ("ko", "12GB에서 flux 로라 학습하는데 CUDA out of memory 떠요"),
])
def test_a_cuda_oom_stays_an_oom(index: Index, lang: str, text: str) -> None:
    assert (top_symptom(index, text, lang) or "").startswith("oom-")


# --- 6. a feature request's wish for speed, a hang where nothing happens ----------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "feature request: please add torch.compile support to speed up training"),
    ("en", "would be nice to have an option to make the sample previews faster"),
    ("es", "sugerencia: por favor añadan soporte de torch.compile para acelerar el entrenamiento"),
    ("pt", "sugestão: por favor adicionem suporte a torch.compile pra acelerar o treino"),
    ("fr", "suggestion : merci d'ajouter le support de torch.compile pour accélérer l'entraînement"),
    ("de", "Vorschlag: bitte fügt Unterstützung für torch.compile hinzu, um das Training zu beschleunigen"),
    ("ko", "기능 요청: 학습 속도 올리게 torch.compile 지원 추가해 주세요"),
])
def test_a_feature_requests_wish_for_speed_is_none(index: Index, lang: str, text: str) -> None:
    _none(index, lang, text)


def test_a_feature_request_beside_a_slow_run_told_stays_slow_training(index: Index) -> None:
    text = "training is really slow for me, 12 s/it on a 4090. please add torch.compile support"
    assert top_symptom(index, text, "en") == "slow-training"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "training freezes at step 0 and nothing happens, GPU at 0%"),
    ("es", "el entrenamiento se congela en el paso 0 y no pasa nada, la GPU al 0%"),
    ("pt", "o treino trava no passo 0 e não acontece nada, a GPU em 0%"),
    ("fr", "l'entraînement se fige au step 0 et il ne se passe rien, GPU à 0%"),
    ("de", "das Training friert bei Schritt 0 ein und es passiert nichts, GPU bei 0%"),
    ("ko", "학습이 0스텝에서 멈추고 아무 반응이 없어요 GPU 0%"),
])
def test_a_hang_where_nothing_happens_is_none(index: Index, lang: str, text: str) -> None:
    _none(index, lang, text)


# --- 7. a run stuck at a point is a hang, at the previews a slow preview ----------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "my training is stuck at 12% since yesterday, nothing moves"),
    ("en", "training hangs at step 0 and the GPU sits at 0%"),
    ("es", "el entrenamiento se queda atascado en el paso 0 y la GPU al 0%"),
    ("pt", "o treino fica travado em 12% desde ontem"),
    ("fr", "l'entraînement reste bloqué à 12% depuis hier"),
    ("de", "das Training hängt bei 12% fest seit gestern"),
    ("ko", "학습이 12%에서 멈춰 있어요 어제부터"),
])
def test_a_run_stuck_at_a_point_is_a_hang_not_a_slow_run(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "stuck" in u.concepts and "speed" not in u.concepts
    _none(index, lang, text)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "it keeps getting stuck at generating baseline samples, 0/10 for an hour"),
    ("es", "se queda atascado en las muestras de referencia, 0/10 desde hace una hora"),
    ("pt", "fica travado em gerar as amostras, 0/10 faz uma hora"),
    ("fr", "ça reste bloqué à la génération des samples, 0/10 depuis une heure"),
    ("de", "es hängt bei der Generierung der Samples, 0/10 seit einer Stunde"),
    ("ko", "샘플 생성에서 멈춰 있어요 한 시간째 0/10이에요"),
])
def test_a_run_stuck_at_the_previews_is_a_slow_preview(index: Index, lang: str, text: str) -> None:
    assert top_symptom(index, text, lang) in ("slow-training", "oom-during-sampling")


def test_a_run_stuck_and_crawling_with_a_rate_stays_slow_training(index: Index) -> None:
    assert top_symptom(index, "training is stuck at 40% and crawling, 300 s/it", "en") == "slow-training"


# --- 8. memory named beside a bad result is no memory evidence --------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "with 8GB of VRAM my samples look bad, faces are blurry"),
    ("es", "con 8GB de VRAM mis muestras se ven mal, las caras salen borrosas"),
    ("pt", "com 8GB de VRAM minhas amostras ficam ruins, os rostos saem borrados"),
    ("fr", "avec 8 Go de VRAM mes samples sont moches, les visages sont flous"),
    ("de", "mit 8GB VRAM sehen meine Samples schlecht aus, die Gesichter sind verschwommen"),
    ("ko", "VRAM 8GB로 학습했더니 샘플이 안 좋아요 얼굴이 흐릿해요"),
])
def test_the_cards_memory_beside_a_bad_result_is_no_oom(index: Index, lang: str, text: str) -> None:
    assert "oom" not in understand(index.matcher, text, lang).concepts
    assert top_symptom(index, text, lang) == "weak-samples"


# --- 9. an OOM only wished away, a container killed by the host, a wish for better previews --------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "how much VRAM do I need to train a flux lora? I don't want to run out of memory"),
    ("es", "¿cuánta VRAM necesito para entrenar un lora de flux? no quiero quedarme sin memoria"),
    ("pt", "quanta VRAM eu preciso pra treinar uma lora de flux? não quero ficar sem memória"),
    ("fr", "il faut combien de VRAM pour entraîner un lora flux ? je ne veux pas manquer de mémoire"),
    ("de", "wie viel VRAM brauche ich für ein Flux-LoRA? ich will nicht ständig OOMs bekommen"),
    ("ko", "flux 로라 학습하려면 VRAM 얼마나 필요해요? 메모리 부족 날까봐 걱정돼요"),
])
def test_an_oom_the_user_does_not_want_is_no_oom(index: Index, lang: str, text: str) -> None:
    assert "oom" not in understand(index.matcher, text, lang).concepts
    assert not (top_symptom(index, text, lang) or "").startswith("oom-")


def test_an_oom_told_beside_what_the_user_wants_stays_an_oom(index: Index) -> None:
    text = "I want to train a flux lora but I run out of memory at step 2"
    assert top_symptom(index, text, "en") == "oom-early-steps"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "the docker container gets OOM killed when caching latents, the host has 32GB"),
    ("es", "el contenedor de docker se muere por OOM killed al cachear los latentes, el host tiene 32GB"),
    ("pt", "o container do docker toma OOM killed no cache dos latentes, o host tem 32GB"),
    ("fr", "le conteneur docker se fait OOM killed pendant la mise en cache des latents, l'hôte a 32 Go"),
    ("de", "der Docker-Container wird beim Latent-Caching OOM killed, der Host hat 32GB"),
    ("ko", "latent 캐싱할 때 도커 컨테이너가 OOM killed 돼요 호스트는 32GB예요"),
])
def test_a_container_oom_killed_is_the_hosts_memory(index: Index, lang: str, text: str) -> None:
    assert "host_ram" in understand(index.matcher, text, lang).concepts
    _none(index, lang, text)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "would be nice to have better quality previews, like using more sample steps by default"),
    ("es", "estaría bien tener previews de mejor calidad, por ejemplo con más pasos de muestreo por defecto"),
    ("pt", "seria legal ter previews com mais qualidade, tipo usar mais passos de amostragem por padrão"),
    ("fr", "ce serait bien d'avoir des aperçus de meilleure qualité, genre plus d'étapes d'échantillonnage par défaut"),
    ("de", "wäre schön, Vorschauen in besserer Qualität zu haben, also standardmäßig mehr Sampling-Schritte"),
    ("ko", "기본값으로 샘플링 스텝을 늘려서 미리보기 품질이 더 좋았으면 좋겠어요 기능 요청입니다"),
])
def test_a_wish_for_better_previews_is_no_weak_result(index: Index, lang: str, text: str) -> None:
    assert top_symptom(index, text, lang) != "weak-samples"
