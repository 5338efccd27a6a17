"""Issue 12, session 10 (a `none` post read as a symptom): whose event, of what run, told as the user's present
problem. A symptom word counts only in a sentence role that tells it: a wish or a request is what it asks for ("please
add an option to enable GC so 8GB cards don't run out of memory": no OOM of the user's, no GC stated on), and a
question's second option is asked of ("can I train Wan on 16GB, or will it run out of memory?"); an OOM the log reader
finds in the user's own sentences keeps their role ("I'm afraid of getting CUDA out of memory"), and the failure named
after an error denied did not come ("no CUDA out of memory error, it just hangs"). Each rule's probes
hold at least as many twins that must keep their symptom as `none` probes, in six languages. Sentences written for the
test, as forum users write (none is a line of the real-message corpora or of the blind sets)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from remedy.index.build import Index
from remedy.understanding.matcher import understand
from tests.understanding.probes import diagnose, diagnosed_symptom, search

OOMS = ("oom-general", "oom-early-steps", "oom-during-sampling", "oom-bucket-spike", "oom-persists-with-gc")


def _none(client: TestClient, lang: str, text: str) -> None:
    """No symptom, and no search hit that follows one."""
    assert diagnose(client, lang, text)["symptom"] is None
    assert search(client, lang, text)["match"] == "none"


# --- 1. a wish or a request: what it asks for is no failure told, nor a setting's state ----------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Feature request: please add an option to enable gradient checkpointing so people with 8GB cards don't run "
           "out of memory."),
    ("en", "It would be nice if you added block swap, so 12GB users don't get OOM with Wan."),
    ("es", "Propuesta: añadir una opción para activar gradient checkpointing y así evitar el out of memory en "
           "tarjetas de 8GB."),
    ("pt", "Sugestão: adicionar uma opção pra ativar o gradient checkpointing e evitar out of memory em placas de "
           "8GB."),
    ("fr", "Suggestion : ajouter une option pour activer le gradient checkpointing et éviter les out of memory sur les "
           "cartes de 8 Go."),
    ("de", "Vorschlag: eine Option zum Aktivieren von Gradient Checkpointing hinzufügen, damit 8-GB-Karten kein Out of "
           "Memory bekommen."),
    ("ko", "기능 요청: 8GB 카드에서도 메모리 부족이 안 나게 gradient checkpointing 켜는 옵션을 추가해 주세요."),
])
def test_what_a_request_asks_for_is_no_failure(client: TestClient, lang: str, text: str) -> None:
    _none(client, lang, text)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I get CUDA out of memory at every start on my 8GB card. Could you add an option for gradient "
           "checkpointing?"),
    ("en", "Training Flux runs out of memory at step 1 on my 12GB card, please add block swap"),
    ("es", "Me sale CUDA out of memory con mi tarjeta de 8GB. ¿Podrían añadir una opción para gradient checkpointing?"),
    ("pt", "Dá CUDA out of memory na minha placa de 8GB. Dá pra adicionar uma opção de gradient checkpointing?"),
    ("fr", "J'ai un CUDA out of memory avec ma carte de 8 Go. Vous pourriez ajouter une option pour le gradient "
           "checkpointing ?"),
    ("de", "Ich bekomme CUDA out of memory mit meiner 8-GB-Karte. Könntet ihr eine Option für Gradient Checkpointing "
           "einbauen?"),
    ("ko", "8GB 카드에서 CUDA out of memory가 나요. gradient checkpointing 옵션을 추가해 줄 수 있나요?"),
])
def test_a_failure_told_beside_a_request_stays(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) in OOMS


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Please add an option to enable gradient checkpointing for the Wan trainer"),
    ("es", "Podrían añadir una opción para activar el gradient checkpointing en el entrenador de Wan"),
    ("pt", "Poderiam adicionar uma opção pra ativar o gradient checkpointing no treinador do Wan"),
    ("fr", "Pourriez-vous ajouter une option pour activer le gradient checkpointing dans l'entraîneur Wan"),
    ("de", "Könnt ihr eine Option hinzufügen, um Gradient Checkpointing im Wan-Trainer zu aktivieren"),
    ("ko", "Wan 트레이너에 gradient checkpointing 켜는 옵션을 추가해 주세요"),
])
def test_a_setting_asked_for_is_no_state(index: Index, lang: str, text: str) -> None:
    assert understand(index.matcher, text, lang).stated.gradient_checkpointing is None


@pytest.mark.parametrize(("lang", "text", "on"), [
    ("en", "Gradient checkpointing is enabled and it still runs out of memory, please add block swap", True),
    ("es", "Tengo el gradient checkpointing activado y sigue sin memoria, por favor añadan block swap", True),
    ("pt", "O gradient checkpointing tá ativado e continua faltando memória, por favor adicionem block swap", True),
    ("fr", "Le gradient checkpointing est activé et ça manque toujours de mémoire, merci d'ajouter le block swap",
     True),
    ("de", "Gradient Checkpointing ist aktiviert und der Speicher reicht trotzdem nicht, bitte fügt Block Swap hinzu",
     True),
    ("ko", "gradient checkpointing 켜져 있는데도 메모리가 부족해요, block swap 추가해 주세요", True),
])
def test_a_state_told_beside_a_request_stays(index: Index, lang: str, text: str, on: bool) -> None:
    assert understand(index.matcher, text, lang).stated.gradient_checkpointing is on


# --- 2. a question's second option is asked of, not told ----------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Can I train a Wan 2.1 LoRA on a 16GB card or will it run out of memory?"),
    ("en", "Is 12GB of VRAM enough for Flux LoRA training, or will I hit OOM?"),
    ("es", "¿Se puede entrenar una LoRA de Wan en 16GB o se quedará sin memoria?"),
    ("pt", "Dá pra treinar uma LoRA de Wan com 16GB ou vai faltar memória?"),
    ("fr", "Est-ce qu'on peut entraîner une LoRA Wan sur 16 Go ou ça va manquer de mémoire ?"),
    ("de", "Kann man ein Wan-LoRA auf 16 GB trainieren oder geht dann der Speicher aus?"),
    ("ko", "16GB로 Wan 로라 학습이 가능한가요, 아니면 메모리가 부족할까요?"),
])
def test_a_questions_option_is_no_failure(client: TestClient, lang: str, text: str) -> None:
    _none(client, lang, text)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I tried to train a Wan 2.1 LoRA on my 16GB card and it runs out of memory."),
    ("en", "It runs out of memory at step 1 on 16GB, should I lower the batch or the resolution?"),
    ("es", "Intenté entrenar una LoRA de Wan en mi tarjeta de 16GB y se queda sin memoria."),
    ("es", "Se queda sin memoria en el paso 1 con 16GB, ¿bajo el batch o la resolución?"),
    ("pt", "Tentei treinar uma LoRA de Wan na minha placa de 16GB e falta memória."),
    ("fr", "J'ai essayé d'entraîner une LoRA Wan sur ma carte de 16 Go et ça manque de mémoire."),
    ("de", "Ich habe versucht, ein Wan-LoRA auf meiner 16-GB-Karte zu trainieren, und der Speicher geht aus."),
    ("ko", "16GB 카드로 Wan 로라 학습을 해봤는데 메모리가 부족해요."),
])
def test_a_failure_told_before_the_options_stays(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) in OOMS


# --- 3. an OOM the log reader finds in the user's own words keeps its sentence's role ----------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I'm afraid of getting CUDA out of memory on my 8GB card, can I even train Flux?"),
    ("en", "Would be great to have a low VRAM mode to avoid CUDA out of memory on smaller GPUs."),
    ("es", "Me da miedo que salga CUDA out of memory con mi tarjeta de 8GB, ¿se puede entrenar Flux?"),
    ("pt", "Tenho medo de dar CUDA out of memory na minha placa de 8GB, dá pra treinar Flux?"),
    ("fr", "J'ai peur d'avoir un CUDA out of memory avec ma carte de 8 Go, on peut entraîner Flux ?"),
    ("de", "Ich habe Angst, dass CUDA out of memory kommt mit meiner 8-GB-Karte, kann man Flux trainieren?"),
    ("ko", "8GB 카드라서 CUDA out of memory 날까 봐 걱정인데 Flux 학습 가능할까요?"),
])
def test_an_oom_named_as_a_fear_or_a_wish_is_no_oom(client: TestClient, lang: str, text: str) -> None:
    _none(client, lang, text)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I used to get CUDA out of memory but since I enabled GC it's really slow, 12 s/it."),
    ("es", "Antes me salía CUDA out of memory, pero desde que activé GC va lentísimo, 12 s/it."),
])
def test_a_past_oom_in_a_post_about_speed_is_the_speed(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == "slow-training"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "It crashes at step 40 with CUDA out of memory, GPU is a 3060 12GB."),
    ("en", "I was told it would be fine on 12GB, but I get CUDA out of memory at step 40."),
    ("en", "Last week I got torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB, it's back "
           "today"),
    ("es", "Se cae en el paso 40 con CUDA out of memory, la GPU es una 3060 de 12GB."),
    ("pt", "Cai no passo 40 com CUDA out of memory, a GPU é uma 3060 de 12GB."),
    ("fr", "Ça plante au step 40 avec un CUDA out of memory, le GPU est une 3060 de 12 Go."),
    ("de", "Es stürzt bei Schritt 40 mit CUDA out of memory ab, die GPU ist eine 3060 mit 12 GB."),
    ("ko", "40스텝에서 CUDA out of memory로 죽어요, GPU는 3060 12GB예요."),
])
def test_an_oom_told_in_the_users_words_stays(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) in OOMS


# --- 4. the failure named after an error denied is the error that did not come --------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "It just hangs at step 40, no CUDA out of memory error or anything, GPU usage drops to 0."),
    ("pt", "Trava no passo 40, sem nenhum erro de CUDA out of memory, o uso da GPU cai pra 0."),
    ("fr", "Ça bloque au step 40, aucune erreur CUDA out of memory, l'utilisation du GPU tombe à 0."),
    ("de", "Es hängt bei Schritt 40, kein CUDA out of memory Fehler, die GPU-Auslastung fällt auf 0."),
    ("ko", "40스텝에서 멈춰요, CUDA out of memory 에러는 없고 GPU 사용률이 0으로 떨어져요."),
])
def test_an_oom_denied_by_name_is_no_oom(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) not in OOMS


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "No errors during caching, then CUDA out of memory at step 40."),
    ("es", "Ningún error al cachear, luego CUDA out of memory en el paso 40."),
    ("pt", "Nenhum erro no cache, depois CUDA out of memory no passo 40."),
    ("fr", "Aucune erreur pendant le cache, puis CUDA out of memory au step 40."),
    ("de", "Keine Fehler beim Caching, dann CUDA out of memory bei Schritt 40."),
    ("ko", "캐싱할 때는 에러 없었는데 40스텝에서 CUDA out of memory 나요."),
    ("es", "no me alcanza la vram para entrenar, que parametros bajo?"),
])
def test_an_oom_after_an_error_denied_in_another_clause_stays(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) in OOMS


# --- 5. a speed told as fine: its rate is a figure of the run, no slowness ---------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Training runs fine at 3 s/it on my 3090. How do I add a trigger word to the captions?"),
    ("es", "Entrena bien a 3 s/it en mi 3090. ¿Cómo agrego una palabra clave a los captions?"),
    ("pt", "Treina de boa a 3 s/it na minha 3090. Como eu coloco uma palavra-gatilho nas legendas?"),
    ("fr", "Ça tourne bien à 3 s/it sur ma 3090. Comment j'ajoute un mot déclencheur aux légendes ?"),
    ("de", "Läuft gut mit 3 s/it auf meiner 3090. Wie füge ich ein Triggerwort zu den Captions hinzu?"),
    ("ko", "3090에서 3 s/it로 잘 돌아가요. 캡션에 트리거 단어는 어떻게 넣나요?"),
])
def test_a_rate_told_as_fine_is_no_slowness(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) is None


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "It runs at 30 s/it on my 3090, that can't be right. How do I speed it up?"),
    ("en", "It ran fine at 3 s/it at first, but now it's at 30 s/it."),
    ("es", "Va a 30 s/it en mi 3090, no puede ser. ¿Cómo lo acelero?"),
    ("pt", "Tá rodando a 30 s/it na minha 3090, não pode ser. Como acelero?"),
    ("fr", "Ça tourne à 30 s/it sur ma 3090, c'est pas normal. Comment accélérer ?"),
    ("de", "Es läuft mit 30 s/it auf meiner 3090, das kann nicht sein. Wie mache ich es schneller?"),
    ("ko", "3090에서 30 s/it 나와요, 이게 말이 되나요? 어떻게 빠르게 하죠?"),
    ("ko", "학습 자체는 에러 없이 잘 돌아가는데 30 s/it라서 너무 오래 걸려요."),
])
def test_a_rate_told_as_slow_stays_slow(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == "slow-training"


def test_a_fine_speed_beside_a_bad_result_is_the_result(client: TestClient) -> None:
    text = "Speed is fine at 2 s/it, but after 2000 steps the samples look nothing like my face."
    assert diagnosed_symptom(client, "en", text) == "weak-samples"
