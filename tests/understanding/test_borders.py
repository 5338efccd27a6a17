"""Issue 12, session 5 (borders): what the guide does not answer, said as a symptom would be, against its twin about
the training itself. Each mechanism on sentences written for the test in six languages (none is a line of
`queries_borders.yaml` or of the real-message corpora); every rule has a case where it holds and one where it gives
way."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from remedy.index.build import Index
from remedy.understanding.matcher import understand
from tests.understanding.probes import diagnosed_symptom, search
from tests.understanding.probes import first_symptom as _symptom

# --- 1. a setting the guide does not teach, weighed on quality or speed -----------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "does adafactor give better quality than prodigy on a style lora?"),
    ("en", "is lion faster than adamw8bit for flux loras?"),
    ("es", "adafactor da mejor calidad que prodigy en un lora de estilo?"),
    ("pt", "adafactor da mais qualidade que prodigy numa lora de estilo?"),
    ("fr", "adafactor donne une meilleure qualité que prodigy sur un lora de style ?"),
    ("de", "bringt adafactor bessere qualität als prodigy bei einem style lora?"),
    ("ko", "스타일 로라에 adafactor가 prodigy보다 품질 좋아요?"),
])
def test_a_choice_between_untaught_settings_is_no_symptom(
    client: TestClient, index: Index, lang: str, text: str
) -> None:
    u = understand(index.matcher, text, lang)
    assert "setting_choice" in u.concepts and not u.in_domain
    assert diagnosed_symptom(client, lang, text) is None and search(client, lang, text)["match"] == "none"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "trained with prodigy and the samples look awful, would adamw8bit be better than that?"),
    ("es", "entrene con prodigy y las muestras salen horribles, adamw8bit seria mejor?"),
    ("pt", "treinei com prodigy e as amostras ficaram horriveis, adamw8bit seria melhor?"),
    ("fr", "entraîné avec prodigy et les samples sont affreux, adamw8bit serait meilleur ?"),
    ("de", "mit prodigy trainiert und die samples sehen furchtbar aus, wäre adamw8bit besser?"),
    ("ko", "prodigy로 학습했는데 샘플이 엉망이에요 adamw8bit가 더 좋을까요?"),
])
def test_a_weak_result_beside_the_choice_is_still_told(index: Index, lang: str, text: str) -> None:
    assert _symptom(understand(index.matcher, text, lang)) == "weak-samples"


# --- 2. how to caption a dataset ------------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "should the captions mention the background or only the subject?"),
    ("es", "los captions tienen que describir el fondo o solo al personaje?"),
    ("pt", "as legendas devem descrever o fundo ou so o personagem?"),
    ("fr", "les captions doivent décrire le fond ou seulement le personnage ?"),
    ("de", "sollen die captions den hintergrund beschreiben oder nur die figur?"),
    ("ko", "캡션에 배경도 적어야 하나요 아니면 인물만 적나요?"),
])
def test_a_captioning_question_is_none(client: TestClient, index: Index, lang: str, text: str) -> None:
    assert not understand(index.matcher, text, lang).in_domain
    assert search(client, lang, text)["match"] == "none"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "my captions only mention the subject and the trained lora looks nothing like her"),
    ("es", "los captions solo describen al personaje y el lora entrenado no se parece en nada"),
    ("pt", "as legendas so descrevem o personagem e a lora treinada nao parece nada com ela"),
    ("fr", "les captions décrivent seulement le perso et le lora entraîné ne lui ressemble pas du tout"),
    ("de", "die captions beschreiben nur die figur und das trainierte lora sieht ihr null ähnlich"),
    ("ko", "캡션에 인물만 적었는데 학습한 로라가 하나도 안 닮았어요"),
])
def test_captions_beside_a_weak_result_stay_in_the_guide(index: Index, lang: str, text: str) -> None:
    assert _symptom(understand(index.matcher, text, lang)) == "weak-samples"


# --- 3. phrases read whole ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "still out of memory with the default config, rtx 4070"),
    ("es", "sigue el out of memory con la config por defecto en una 4070"),
    ("pt", "continua o out of memory com a config padrão numa 4070"),
    ("fr", "toujours out of memory avec la config par défaut sur une 4070"),
    ("de", "immer noch out of memory mit den standardwerten auf einer 4070"),
    ("ko", "4070에서 기본값으로 돌려도 계속 OOM 나요"),
])
def test_defaults_switch_no_gc_on(client: TestClient, index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "defaults" in u.concepts and "on" not in u.concepts
    assert diagnosed_symptom(client, lang, text) == "oom-general"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "still out of memory with gradient checkpointing on"),
    ("es", "sigue el out of memory con el gradient checkpointing activado"),
    ("de", "immer noch out of memory mit gradient checkpointing an"),
])
def test_gc_told_on_still_persists(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == "oom-persists-with-gc"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "i didn't change anything and now each step takes 12 seconds"),
    ("es", "no he cambiado nada y ahora cada paso tarda 12 segundos"),
    ("pt", "não alterei nada e agora cada passo demora 12 segundos"),
    ("fr", "je n'ai rien changé et maintenant chaque step prend 12 secondes"),
    ("de", "habe nichts geändert und jetzt dauert jeder step 12 sekunden"),
    ("ko", "아무것도 안 바꿨는데 이제 한 스텝에 12초 걸려요"),
])
def test_i_changed_nothing_is_no_weak_result(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "unchanged" in u.concepts and "weak" not in u.concepts
    assert _symptom(u) == "slow-training"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "after 3000 steps the trained lora changes nothing in the images"),
    ("es", "despues de 3000 pasos el lora entrenado no cambia nada en las imagenes"),
])
def test_a_lora_that_changes_nothing_is_still_weak(index: Index, lang: str, text: str) -> None:
    assert _symptom(understand(index.matcher, text, lang)) == "weak-samples"


# --- 4. the GUI is the trainer, the guide is the guide ---------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("es", "la GUI se queda en blanco al abrirla"),
    ("pt", "a GUI fica em branco quando abro"),
    ("ko", "GUI 열면 하얀 화면만 떠요"),
])
def test_the_gui_is_no_guide(client: TestClient, index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "guide" not in u.concepts and "toolkit" in u.concepts
    assert search(client, lang, text)["match"] == "none"


@pytest.mark.parametrize(("lang", "text"), [
    ("es", "de que trata esta guia?"),
    ("pt", "do que fala esse guia?"),
])
def test_the_guide_is_still_the_guide(index: Index, lang: str, text: str) -> None:
    assert "guide" in understand(index.matcher, text, lang).concepts


# --- 5. Korean "so that it does not drop" ----------------------------------------------------------------------

def test_korean_quality_to_keep_is_no_weak_result(client: TestClient, index: Index) -> None:
    text = "화질 떨어지지 않도록 학습 속도만 올리고 싶어요 지금 5 s/it 나와요"
    u = understand(index.matcher, text, "ko")
    assert not {"quality", "hurt"} & u.concepts
    assert _symptom(u) == "slow-training"
    hits = client.get("/v1/search", params={"q": text, "lang": "ko"}).json()["hits"]
    assert hits and hits[0]["id"] != "faq-gc-hurts-quality"


def test_korean_quality_that_drops_is_still_told(index: Index) -> None:
    assert "hurt" in understand(index.matcher, "GC 켜면 화질이 떨어지나요?", "ko").concepts


# --- 6. generating with a LoRA is not training it -------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "rendering a 1024 image with my lora takes a full minute"),
    ("en", "during inference the faces come out distorted"),
    ("en", "this lora i downloaded makes everything blurry"),
    ("es", "generar una imagen con mi lora tarda un minuto entero"),
    ("pt", "gerar uma imagem com minha lora demora um minuto inteiro"),
    ("fr", "générer une image avec mon lora prend une minute entière"),
    ("de", "ein bild mit meinem lora zu generieren dauert eine ganze minute"),
    ("ko", "로라 넣으면 이미지 한 장 생성에 1분 걸려요"),
    ("ko", "추론할 때 얼굴이 뭉개져요"),
])
def test_generating_with_a_lora_is_none(client: TestClient, index: Index, lang: str, text: str) -> None:
    assert not understand(index.matcher, text, lang).in_domain
    assert diagnosed_symptom(client, lang, text) is None and search(client, lang, text)["match"] == "none"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "forge needs 90 seconds per image since i added my trained lora"),
    ("en", "the generation got really slow after adding a second lora"),
    ("es", "la generación va lentísima desde que meti un segundo lora"),
    ("pt", "a geração ficou muito lenta depois que coloquei uma segunda lora"),
    ("fr", "90 secondes par image depuis que j'ai ajouté mon lora entraîné"),
    ("de", "90 sekunden pro bild seit ich mein trainiertes lora drin habe"),
    ("ko", "두 번째 로라 넣고 나서 생성이 엄청 느려졌어요"),
])
def test_a_generation_speed_is_none(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) is None and search(client, lang, text)["match"] == "none"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "the samples take 90 seconds per image during training"),
    ("es", "las muestras tardan 90 segundos por imagen durante el entrenamiento"),
    ("de", "die samples brauchen beim training 90 sekunden pro bild"),
])
def test_a_preview_speed_per_image_is_slowness(index: Index, lang: str, text: str) -> None:
    assert _symptom(understand(index.matcher, text, lang)) == "slow-training"


@pytest.mark.parametrize(("lang", "text", "symptom"), [
    ("en", "training my lora takes a full minute per step", "slow-training"),
    ("en", "the samples during training come out distorted at step 2500", "weak-samples"),
    ("es", "entrenar mi lora tarda un minuto por paso", "slow-training"),
    ("pt", "treinar minha lora demora um minuto por passo", "slow-training"),
    ("fr", "l'entraînement de mon lora prend une minute par step", "slow-training"),
    ("de", "das training von meinem lora dauert eine minute pro step", "slow-training"),
    ("ko", "로라 학습이 스텝당 1분 걸려요 너무 느려요", "slow-training"),
])
def test_the_training_named_stays_in_the_guide(index: Index, lang: str, text: str, symptom: str) -> None:
    assert _symptom(understand(index.matcher, text, lang)) == symptom


# --- 7. an exception quoted in a sentence ------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "it dies at step 2 with IndexError: list index out of range"),
    ("es", "se muere en el paso 2 con IndexError: list index out of range"),
    ("pt", "morre no passo 2 com IndexError: list index out of range"),
    ("fr", "ça meurt au step 2 avec IndexError: list index out of range"),
    ("de", "stirbt bei step 2 mit IndexError: list index out of range"),
    ("ko", "2스텝에서 IndexError: list index out of range 뜨고 죽어요"),
])
def test_a_quoted_python_error_is_no_oom(client: TestClient, index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert u.log.not_gpu_oom == "python-error" and not u.in_domain
    assert diagnosed_symptom(client, lang, text) is None


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "it dies at step 2 with torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 MiB"),
    ("en", "it dies at step 2 with an error: nothing else in the log"),
])
def test_an_oom_or_a_bare_error_is_not_a_python_error(index: Index, lang: str, text: str) -> None:
    assert understand(index.matcher, text, lang).log.not_gpu_oom is None


# --- 8. a wait that is not the training's steps -----------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "my job sits in the queue for ages before it starts"),
    ("en", "uploading 200 images takes forever"),
    ("es", "mi trabajo se queda en la cola una eternidad antes de empezar"),
    ("pt", "meu job fica na fila uma eternidade antes de começar"),
    ("fr", "mon job reste dans la file d'attente une éternité avant de démarrer"),
    ("de", "mein job hängt ewig in der warteschlange bevor er startet"),
    ("ko", "작업이 대기열에서 한참 걸려요 시작을 안 해요"),
])
def test_a_wait_outside_the_run_is_none(client: TestClient, index: Index, lang: str, text: str) -> None:
    assert not understand(index.matcher, text, lang).in_domain
    assert diagnosed_symptom(client, lang, text) is None


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "the upload was quick but the job runs at 9 s/it"),
    ("es", "la subida fue rapida pero el job va a 9 s/it"),
    ("de", "der upload ging schnell aber der job läuft mit 9 s/it"),
])
def test_a_rate_beside_the_wait_is_slowness(index: Index, lang: str, text: str) -> None:
    assert _symptom(understand(index.matcher, text, lang)) == "slow-training"


# --- 9. feature requests and billing -------------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "please add an option to save the samples as png"),
    ("es", "sugerencia: guardar las muestras en png"),
    ("pt", "sugestão: salvar as amostras em png"),
    ("fr", "suggestion : enregistrer les samples en png"),
    ("de", "vorschlag: die samples als png speichern"),
    ("ko", "건의: 샘플을 png로 저장하게 해주세요"),
])
def test_a_feature_request_naming_samples_is_none(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) is None and search(client, lang, text)["match"] == "none"


@pytest.mark.parametrize(("lang", "text"), [
    ("de", "der job war langsam, bekomme ich das geld zurück?"),
    ("es", "el job fue lento, me pueden hacer una devolución?"),
    ("pt", "o job foi lento, dá pra fazer estorno?"),
])
def test_billing_after_a_slow_job_is_none(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) is None and search(client, lang, text)["match"] == "none"


# --- 10. the user's own stop, and a bug report -----------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "to see previews i have to wait for a save, stop training, copy the lora and restart"),
    ("es", "para ver previews tengo que esperar a que guarde, parar el entrenamiento y copiar el lora"),
    ("pt", "pra ver as previas tenho que esperar salvar, parar o treino e copiar a lora"),
    ("fr", "pour voir les previews je dois attendre la sauvegarde, arrêter l'entraînement et copier le lora"),
    ("de", "für previews muss ich aufs speichern warten, training abbrechen und das lora kopieren"),
    ("ko", "프리뷰 보려면 저장 기다렸다가 학습 멈추고 로라 복사해야 해요"),
])
def test_stopping_the_job_oneself_is_no_crash(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "own_stop" in u.concepts and "crash" not in u.concepts and _symptom(u) is None


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "the training stops at step 40 with cuda out of memory"),
    ("es", "el entrenamiento se para en el paso 40 con cuda out of memory"),
    ("ko", "학습이 40스텝에서 멈추고 cuda out of memory 떠요"),
])
def test_a_training_that_stops_with_an_oom_is_still_one(index: Index, lang: str, text: str) -> None:
    assert _symptom(understand(index.matcher, text, lang)) in ("oom-general", "oom-early-steps")


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "bug: batch_size 2 breaks the bucket sorting, see traceback"),
    ("es", "bug: con batch_size 2 se rompe el orden de los buckets"),
    ("pt", "bug: com batch_size 2 a ordem dos buckets quebra"),
    ("fr", "bug : avec batch_size 2 le tri des buckets casse"),
    ("de", "bug: mit batch_size 2 geht die bucket-sortierung kaputt"),
    ("ko", "버그: batch_size 2면 버킷 정렬이 깨져요"),
])
def test_a_bug_report_naming_a_setting_is_none(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) is None and search(client, lang, text)["match"] == "none"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "bug? batch_size 2 runs out of memory at step 1 since the update"),
    ("de", "bug? mit batch_size 2 out of memory bei step 1 seit dem update"),
])
def test_a_bug_report_with_an_oom_is_an_oom(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) in ("oom-early-steps", "oom-general")


# --- 11. a LoRA that barely does anything beside good previews (the preview-parity case) ---------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "the training previews look right, but in forge the lora has hardly any effect"),
    ("es", "las previews del entrenamiento se ven bien, pero en forge el lora casi no hace nada"),
    ("pt", "as previas do treino ficam certas, mas no forge a lora quase não faz nada"),
    ("fr", "les previews de l'entraînement sont bonnes, mais dans forge le lora fait presque rien"),
    ("de", "die previews im training passen, aber in forge bewirkt das lora so gut wie nichts"),
    ("ko", "학습 프리뷰는 괜찮은데 forge에서는 로라 효과가 거의 없어요"),
])
def test_a_lora_that_barely_acts_beside_good_previews_is_weak(client: TestClient, lang: str, text: str) -> None:
    answer = client.post("/v1/diagnose", json={"query": text, "lang": lang}).json()
    assert answer["symptom"]["id"] == "weak-samples"
    assert "check-preview-parity" in [s["id"] for s in answer["steps"]]


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "a lora from civitai has hardly any effect in forge"),
    ("de", "ein lora von civitai bewirkt in forge so gut wie nichts"),
])
def test_a_lora_that_barely_acts_with_no_training_named_is_none(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) is None


# --- 12. a prompt of the previews is no caption --------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "can i set a negative prompt for the samples?"),
    ("es", "se puede poner un prompt negativo en las muestras?"),
    ("pt", "da pra colocar prompt negativo nas amostras?"),
    ("fr", "on peut mettre un prompt négatif pour les samples ?"),
    ("de", "kann man für die samples einen negativen prompt setzen?"),
    ("ko", "샘플에 네거티브 프롬프트 넣을 수 있어요?"),
])
def test_a_preview_prompt_question_is_none(client: TestClient, index: Index, lang: str, text: str) -> None:
    assert "captions" not in understand(index.matcher, text, lang).concepts
    assert search(client, lang, text)["match"] == "none"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "my captions are one word each and the trained lora looks awful"),
    ("de", "meine captions sind nur ein wort und das trainierte lora sieht furchtbar aus"),
])
def test_captions_still_count_beside_a_weak_result(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "captions" in u.concepts and _symptom(u) == "weak-samples"


# --- 13. a wait while loading or saving ----------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "loading the base model takes 12 minutes every single time"),
    ("es", "cargar el modelo base tarda 12 minutos cada vez"),
    ("pt", "carregar o modelo base demora 12 minutos toda vez"),
    ("fr", "le chargement du modèle de base prend 12 minutes à chaque fois"),
    ("de", "das laden vom basismodell dauert jedes mal 12 minuten"),
    ("ko", "베이스 모델 로딩이 매번 12분이나 걸려요"),
])
def test_a_wait_while_loading_is_none(client: TestClient, index: Index, lang: str, text: str) -> None:
    assert "phase_wait" in understand(index.matcher, text, lang).concepts
    assert diagnosed_symptom(client, lang, text) is None


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "loading takes 12 minutes and then the training crawls at 11 s/it"),
    ("es", "cargar tarda 12 minutos y luego el entrenamiento va a 11 s/it"),
    ("de", "das laden dauert 12 minuten und dann läuft das training mit 11 s/it"),
])
def test_a_training_rate_beside_the_loading_wait_is_slowness(index: Index, lang: str, text: str) -> None:
    assert _symptom(understand(index.matcher, text, lang)) == "slow-training"


# --- 14. a +1 on a support request, with the user's settings beside it ---------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "+1 on this, would love support for hunyuan, i run batch 2 with gradient accumulation elsewhere"),
    ("es", "+1, quiero soporte para hunyuan, en otros trainers uso batch 2"),
    ("pt", "+1, quero suporte pro hunyuan, nos outros trainers uso batch 2"),
    ("fr", "+1, je veux le support de hunyuan, j'utilise batch 2 ailleurs"),
    ("de", "+1, hätte gern support für hunyuan, in anderen trainern nutze ich batch 2"),
    ("ko", "저도 hunyuan 지원 원해요 다른 트레이너에서는 배치 2로 써요"),
])
def test_a_support_request_with_settings_beside_it_is_none(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) is None and search(client, lang, text)["match"] == "none"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "support for hunyuan works, but batch 2 runs out of memory at step 1"),
    ("de", "support für hunyuan klappt, aber batch 2 läuft bei step 1 in out of memory"),
])
def test_an_oom_beside_a_support_word_is_an_oom(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) in ("oom-early-steps", "oom-general")


# --- where a setting is changed in the job's panel (session 5): a UI place is a wait only when slowness is told -----

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "where do I change that in the dashboard of the training job?"),
    ("es", "¿dónde cambio eso en el panel del entrenamiento?"),
    ("pt", "onde eu mudo isso no painel do treino?"),
    ("fr", "où je change ça dans le tableau de bord de l'entraînement ?"),
    ("de", "wo stell ich das im Dashboard vom Training um?"),
    ("ko", "학습 대시보드에서 그거 어디서 바꿔요?"),
])
def test_where_in_the_jobs_panel_is_the_where_to_change_section(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert u.ranked and u.ranked[0].id == "where-to-change"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "the dashboard is so laggy today"),
    ("es", "el panel va lentísimo hoy, la web no carga"),
    ("de", "das Dashboard laggt heute extrem"),
])
def test_a_slow_panel_alone_stays_outside(index: Index, lang: str, text: str) -> None:
    assert not understand(index.matcher, text, lang).ranked
