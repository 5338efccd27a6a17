"""Issue 12, session 7 (`none` messages read as slowness or an OOM; OOMs missed): whose speed or memory a text tells,
and in what mood. A wait told of loading, caching or downloading is that phase's, not the steps'; a run told as too
fast is a doubt of the result, no slowness; an OOM feared or asked about before trying is no OOM told; a post that
shares a run gone well gives its memory and duration as figures. Real training OOMs told without our words stay OOMs.
Each mechanism on sentences written for the test in six languages (none is a line of the real-message corpora)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from remedy.index.build import Index
from remedy.understanding.matcher import understand
from tests.understanding.probes import diagnose, diagnosed_symptom

OOMS = ("oom", "crash_oom")


def _no_symptom(client: TestClient, lang: str, text: str) -> None:
    """No symptom diagnosed (what search makes of the text is the search side's, not this file's)."""
    assert diagnose(client, lang, text)["symptom"] is None


# --- 1. a wait told of loading, caching or downloading ----------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "caching the latents takes so long, over an hour before the training even starts"),
    ("en", "loading the model takes 10 minutes every time I start the job"),
    ("es", "cachear los latentes tarda muchísimo, más de una hora antes de que empiece el entrenamiento"),
    ("es", "cargar el modelo tarda 10 minutos cada vez que lanzo el trabajo"),
    ("pt", "o cache dos latentes demora demais, mais de uma hora antes do treino começar"),
    ("pt", "carregar o modelo demora 10 minutos toda vez que inicio o job"),
    ("fr", "la mise en cache des latents prend une éternité, plus d'une heure avant que l'entraînement commence"),
    ("fr", "le chargement du modèle prend 10 minutes à chaque lancement du job"),
    ("de", "das Cachen der Latents dauert ewig, über eine Stunde bevor das Training überhaupt anfängt"),
    ("de", "das Laden des Modells dauert jedes Mal 10 Minuten, wenn ich den Job starte"),
    ("ko", "작업 시작할 때마다 모델 로딩이 10분씩 걸려요"),
])
def test_a_wait_told_of_loading_or_caching_is_no_slow_run(client: TestClient, index: Index, lang: str,
                                                          text: str) -> None:
    # the phase's wait (`sentences.subjects`: the speed's nearest subject is the loading or the caching)
    concepts = understand(index.matcher, text, lang).concepts
    assert "phase_wait" in concepts and "slow_run" not in concepts
    _no_symptom(client, lang, text)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "training is really slow, 12 s/it, and loading the model took a while too"),
    ("es", "el entrenamiento va lentísimo, 12 s/it, y cargar el modelo también tardó"),
    ("de", "das Training ist total langsam, 12 s/it, und das Laden des Modells hat auch gedauert"),
])
def test_the_steps_told_slow_beside_a_loading_wait_stay_a_slow_run(client: TestClient, lang: str,
                                                                   text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == "slow-training"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "generating a 5 second video with my trained lora takes 20 minutes on a 4090, is that normal?"),
    ("es", "generar un video de 5 segundos con mi lora entrenada tarda 20 minutos en una 4090, ¿es normal?"),
    ("pt", "gerar um vídeo de 5 segundos com a minha lora treinada leva 20 minutos numa 4090, é normal?"),
    ("fr", "générer une vidéo de 5 secondes avec ma lora entraînée prend 20 minutes sur une 4090, c'est normal ?"),
    ("de", "ein 5-Sekunden-Video mit meiner trainierten LoRA zu generieren dauert 20 Minuten auf einer 4090, "
           "ist das normal?"),
    ("ko", "학습한 로라 넣고 5초짜리 영상 생성하는 데 4090에서 20분 걸려요, 정상인가요?"),
])
def test_a_generation_with_the_trained_lora_told_slow_is_no_slow_run(client: TestClient, index: Index, lang: str,
                                                                      text: str) -> None:
    # the LoRA is in use ("with my trained lora": `with_lora`), and "is that normal?" asks of the generation's time
    concepts = understand(index.matcher, text, lang).concepts
    assert "with_lora" in concepts and "slow_run" not in concepts
    _no_symptom(client, lang, text)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "the images I generate with my trained lora look nothing like her"),
    ("es", "las imágenes que genero con mi lora entrenada no se parecen nada a ella"),
])
def test_a_weak_result_of_the_trained_lora_in_use_stays_weak(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == "weak-samples"


# --- 2. a run told as too fast ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "the training finished in 4 minutes, that seems way too fast, did it even train anything?"),
    ("es", "el entrenamiento terminó en 4 minutos, demasiado rápido, ¿de verdad entrenó algo?"),
    ("pt", "o treino terminou em 4 minutos, rápido demais, será que treinou alguma coisa?"),
    ("fr", "l'entraînement s'est terminé en 4 minutes, beaucoup trop rapide, est-ce qu'il a vraiment appris "
           "quelque chose ?"),
    ("de", "das Training war nach 4 Minuten fertig, viel zu schnell, hat es überhaupt was gelernt?"),
    ("ko", "학습이 4분 만에 끝났어요, 너무 빨라서 제대로 학습된 건지 모르겠어요"),
])
def test_a_run_told_too_fast_is_no_slowness(client: TestClient, index: Index, lang: str, text: str) -> None:
    concepts = understand(index.matcher, text, lang).concepts
    assert "too_fast" in concepts and "speed" not in concepts and "slow_run" not in concepts
    _no_symptom(client, lang, text)


# --- 3. an OOM feared or asked about before trying --------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I'm worried I'll run out of memory with 16GB, should I even try?"),
    ("en", "will I get OOM if I train at 1024 on a 4070?"),
    ("es", "me preocupa quedarme sin memoria con 16GB, ¿vale la pena intentarlo?"),
    ("es", "¿me va a dar OOM si entreno a 1024 en una 4070?"),
    ("pt", "tenho medo de ficar sem memória com 16GB, vale a pena tentar?"),
    ("pt", "vai dar OOM se eu treinar em 1024 numa 4070?"),
    ("fr", "j'ai peur de manquer de mémoire avec 16 Go, ça vaut le coup d'essayer ?"),
    ("fr", "est-ce que je vais avoir un OOM si j'entraîne en 1024 sur une 4070 ?"),
    ("de", "werde ich einen OOM bekommen, wenn ich auf einer 4070 mit 1024 trainiere?"),
    ("ko", "16GB로 메모리 부족 날까봐 걱정인데 해볼 만할까요?"),
])
def test_an_oom_feared_or_asked_before_trying_is_no_oom(client: TestClient, index: Index, lang: str,
                                                         text: str) -> None:
    concepts = understand(index.matcher, text, lang).concepts
    assert not any(c in concepts for c in OOMS)
    _no_symptom(client, lang, text)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "is 12GB of VRAM enough to train a flux lora?"),
    ("en", "can I train Wan 2.2 on 8GB VRAM?"),
    ("es", "¿12GB de VRAM alcanzan para entrenar una lora de flux?"),
    ("pt", "dá pra treinar Wan 2.2 com 8GB de VRAM?"),
    ("fr", "est-ce qu'on peut entraîner Wan 2.2 avec 8 Go de VRAM ?"),
    ("de", "reichen 12GB VRAM, um eine Flux-LoRA zu trainieren?"),
    ("ko", "8GB VRAM으로 Wan 2.2 학습 가능한가요?"),
])
def test_a_capability_question_is_no_oom(client: TestClient, lang: str, text: str) -> None:
    _no_symptom(client, lang, text)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I was worried about OOM, and now it really crashes with CUDA out of memory at step 3"),
    ("es", "tenía miedo de quedarme sin memoria y ahora se cae con CUDA out of memory en el paso 3"),
    ("de", "werde ich das jemals zum Laufen kriegen? Es stürzt bei Schritt 3 mit CUDA out of memory ab"),
])
def test_an_oom_told_beside_the_fear_is_still_an_oom(client: TestClient, lang: str, text: str) -> None:
    assert (diagnosed_symptom(client, lang, text) or "").startswith("oom-")


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I used to get OOMs with batch 4 but batch 2 works fine now"),
    ("es", "Antes me daba OOM con batch 4, con batch 2 ya va bien"),
    ("pt", "antes dava OOM com batch 4, com batch 2 já funciona de boa"),
    ("fr", "avant j'avais des OOM en batch 4, en batch 2 ça passe maintenant"),
    ("de", "früher hatte ich OOM bei batch 4, mit batch 2 läuft es jetzt problemlos"),
    ("ko", "예전엔 배치 4에서 OOM 났는데 배치 2로 하니까 잘 돌아가요"),
])
def test_a_past_oom_now_gone_is_no_oom(client: TestClient, lang: str, text: str) -> None:
    _no_symptom(client, lang, text)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "my vram usage is 22GB out of 24GB during training, is that normal or should I be worried?"),
    ("es", "el uso de VRAM es 22GB de 24GB durante el entrenamiento, ¿es normal?"),
    ("fr", "la VRAM utilisée est à 22 Go sur 24 Go pendant l'entraînement, c'est normal ?"),
    ("de", "ich sehe 22GB von 24GB VRAM belegt während des Trainings, ist das normal?"),
])
def test_a_usage_figure_out_of_the_whole_is_no_exhaustion(client: TestClient, index: Index, lang: str,
                                                          text: str) -> None:
    # "22GB out of 24GB" is a usage read whole: its "out of" tells nothing run out
    concepts = understand(index.matcher, text, lang).concepts
    assert "usage_figure" in concepts and not any(c in concepts for c in OOMS)
    _no_symptom(client, lang, text)


# --- 4. a post that shares a run gone well ----------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Trained a flux lora on my 3060 12GB, it used 11.2GB of VRAM and took 3 hours, results are great!"),
    ("es", "entrené una lora de flux en mi 3060 de 12GB, usó 11GB de VRAM y tardó 3 horas, "
           "¡los resultados son geniales!"),
    ("pt", "treinei uma lora de flux na minha 3060 de 12GB, usou 11GB de VRAM e levou 3 horas, resultados ótimos!"),
    ("fr", "j'ai entraîné une lora flux sur ma 3060 12 Go, elle a utilisé 11 Go de VRAM et ça a pris 3 heures, "
           "résultats top !"),
    ("de", "hab eine Flux-LoRA auf meiner 3060 12GB trainiert, hat 11GB VRAM gebraucht und 3 Stunden gedauert, "
           "Ergebnisse super!"),
    ("ko", "3060 12GB로 플럭스 로라 학습했는데 VRAM 11GB 쓰고 3시간 걸렸어요, 결과 아주 좋아요!"),
])
def test_a_run_shared_as_gone_well_tells_no_symptom(client: TestClient, index: Index, lang: str, text: str) -> None:
    assert "went_well" in understand(index.matcher, text, lang).concepts
    _no_symptom(client, lang, text)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "results are great, but each run takes 10 hours at 20 s/it, is that normal?"),
    ("es", "los resultados son geniales, pero cada entrenamiento tarda 10 horas a 20 s/it, ¿es normal?"),
    ("pt", "resultados ótimos, mas cada treino leva 10 horas a 20 s/it, é normal?"),
])
def test_a_slowness_told_beside_a_good_result_stays_a_slow_run(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == "slow-training"


# --- 5. real training OOMs told without the usual words ---------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "the training crashes while it allocates the model on the GPU, every time at the start"),
    ("en", "I get a not enough VRAM error as soon as the training starts"),
    ("en", "the GPU is full and the training dies at step 20"),
    ("en", "my training fails with CUBLAS_STATUS_ALLOC_FAILED when calling cublasCreate(handle)"),
    ("es", "el entrenamiento se cae al reservar memoria en la GPU, siempre al empezar"),
    ("es", "la GPU se llena y el entrenamiento se muere en el paso 20"),
    ("pt", "dá erro de VRAM insuficiente logo que o treino começa"),
    ("pt", "a GPU enche e o treino morre no passo 20"),
    ("fr", "l'entraînement plante au moment d'allouer la mémoire sur le GPU, toujours au début"),
    ("fr", "le GPU est plein et l'entraînement meurt au step 20"),
    ("de", "das Training stürzt beim Allozieren des Speichers auf der GPU ab, immer am Anfang"),
    ("de", "die GPU ist voll und das Training stirbt bei Schritt 20"),
    ("ko", "학습 시작하자마자 VRAM 부족 에러가 나요"),
    ("ko", "GPU가 꽉 차서 20스텝에서 학습이 죽어요"),
])
def test_a_training_oom_told_in_other_words_is_an_oom(client: TestClient, lang: str, text: str) -> None:
    assert (diagnosed_symptom(client, lang, text) or "").startswith("oom-")


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "training fails:\ntensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating "
           "tensor with shape[4,320,128,128]"),
    ("en", "my dreambooth training dies with jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory "
           "while trying to allocate 1073741824 bytes."),
    ("es", "el entrenamiento revienta con ResourceExhaustedError: OOM when allocating tensor with shape [1,4096,4096]"),
    ("de", "ROCm-Training bricht bei Schritt 1 mit hipErrorOutOfMemory ab"),
])
def test_another_frameworks_allocation_error_is_a_gpu_oom(client: TestClient, lang: str, text: str) -> None:
    # TensorFlow's, JAX's and HIP's own out-of-memory errors (`log_rules._OOM`), not a Python error of another kind
    assert (diagnosed_symptom(client, lang, text) or "").startswith("oom-")


# --- 6. the card's memory told as full beside a slowdown, no failure ---------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "when the VRAM fills up the training slows down from 2 s/it to 40 s/it, no crash"),
    ("en", "after 500 steps VRAM is full and the steps go from 15s/it to 60s/it"),
    ("es", "cuando la VRAM se llena el entrenamiento pasa de 2 s/it a 40 s/it, sin ningún error"),
    ("fr", "quand la VRAM est pleine l'entraînement passe de 2 s/it à 40 s/it, aucun plantage"),
    ("de", "wenn der VRAM voll ist, geht das Training von 2 s/it auf 40 s/it runter, kein Absturz"),
    ("ko", "VRAM이 꽉 차면 학습 속도가 2 s/it에서 40 s/it로 떨어져요, 에러는 없어요"),
])
def test_a_memory_full_beside_a_slowdown_is_a_slow_run(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == "slow-training"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "VRAM is full and the training is slow, then it crashes with CUDA out of memory at step 300"),
    ("en", "the VRAM is full at 3 s/it and then the job dies"),
    ("de", "der VRAM ist voll, es wird immer langsamer und dann stürzt das Training ab"),
    ("es", "la VRAM se llena a 5 s/it y luego se cae el entrenamiento"),
])
def test_a_memory_full_beside_a_failure_stays_an_oom(client: TestClient, lang: str, text: str) -> None:
    assert (diagnosed_symptom(client, lang, text) or "").startswith("oom-")
