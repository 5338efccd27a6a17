"""Sentence-level reading (issue 12), each mechanism on sentences written for the test, in several languages."""

from __future__ import annotations

import pytest

from remedy.index.build import Index
from remedy.understanding.limits import DEFAULT_LIMITS
from remedy.understanding.matcher import understand
from remedy.understanding.sentences import read_sentences, split_sentences


def _symptoms(index: Index, text: str, lang: str) -> list[str]:
    return [s.id for s in understand(index.matcher, text, lang).ranked if s.kind == "symptom"]


# --- sentences and their status ------------------------------------------------------------------------


def test_sentences_end_at_marks_and_line_ends_not_inside_a_name() -> None:
    assert [s.strip() for s in split_sentences("Wan2.1 at 1.5 s/it. Why is it slow?!\nthanks")] == [
        "Wan2.1 at 1.5 s/it.", "Why is it slow?!", "thanks",
    ]


def test_a_korean_sentence_ends_at_its_ending_without_a_full_stop(index: Index) -> None:
    text = "학습은 잘 돌아가요 근데 샘플이 너무 약해요 왜 그런건지 알 수 있을까요"
    assert list(split_sentences(text, index.matcher.sentences)) == [
        "학습은 잘 돌아가요", "근데 샘플이 너무 약해요", "왜 그런건지 알 수 있을까요",
    ]


@pytest.mark.parametrize(("lang", "text", "asking"), [
    ("en", "Training runs fine. Any idea why the samples look nothing like her", [False, True]),
    ("es", "El entrenamiento va bien. Alguien sabe por qué las muestras no se parecen", [False, True]),
    ("ko", "학습은 잘 돌아가요. 샘플이 왜 이렇게 약한지 알 수 있을까요", [False, True]),  # an asking ending
    ("ko", "학습은 잘 돌아가요. 에러가 나요", [False, False]),  # `나요` here tells: an error comes up
    ("de", "Das Training läuft. Warum sind die Samples so schwach?", [False, True]),
])
def test_a_sentence_asks_with_or_without_a_question_mark(
    index: Index, lang: str, text: str, asking: list[bool],
) -> None:
    reading = read_sentences(index.matcher.sentences, text, lang)
    assert [s.question for s in reading.sentences] == asking


# --- past, feared and denied failures are not the present state ------------------------------------------


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Last month I used to get OOMs at step 2. Now GC is on and every run takes 9 hours at 4 s/it. How do I "
           "make it faster?"),
    ("es", "El mes pasado me daba OOM en el paso 2. Ahora con GC activado cada entrenamiento tarda 9 horas. ¿Cómo lo "
           "acelero?"),
    ("pt", "Mês passado dava OOM no passo 2. Agora com GC ligado cada treino leva 9 horas. Como deixo mais rápido?"),
    ("fr", "Le mois dernier j'avais des OOM au step 2. Maintenant avec le GC activé chaque entraînement prend "
           "9 heures. Comment accélérer ?"),
    ("de", "Früher hatte ich OOM bei Step 2, jetzt dauert jedes Training 9 Stunden. Wie wird es schneller?"),
    ("ko", "예전에는 스텝 2에서 OOM이 났는데 지금은 GC 켜고 9시간 걸려요. 어떻게 빠르게 하나요?"),
])
def test_a_past_oom_in_a_post_about_speed_is_no_oom_symptom(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "oom" not in u.concepts
    assert _symptoms(index, text, lang)[0] == "slow-training"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Training finishes fine, no OOM, no crash. It just takes 9 hours per LoRA. What can I cut?"),
    ("es", "El entrenamiento termina bien, no da OOM ni se cuelga. Solo tarda 9 horas por LoRA. ¿Qué recorto?"),
    ("pt", "O treino termina bem, não dá OOM nem trava. Só leva 9 horas por LoRA. O que eu corto?"),
    ("fr", "L'entraînement se termine bien, pas d'OOM, pas de plantage. Il prend juste 9 heures par LoRA. Je "
           "coupe quoi ?"),
    ("de", "Das Training läuft sauber durch, kein OOM, kein Absturz. Es dauert nur 9 Stunden pro LoRA. Was kann ich "
           "kürzen?"),
    ("ko", "학습은 잘 끝나요. OOM은 없어요. 그냥 LoRA 하나에 9시간 걸려요. 뭘 줄이면 될까요?"),
])
def test_a_denied_failure_is_no_failure(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert {"oom", "crash_oom"}.isdisjoint(u.concepts)
    assert _symptoms(index, text, lang)[0] == "slow-training"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "The samples look nothing like her, the face is generic. I'm afraid of an OOM, my card has 12 GB. What "
           "should I check first?"),
    ("es", "Las muestras no se parecen a ella, la cara sale genérica. Tengo miedo de un OOM, mi gráfica tiene 12 GB. "
           "¿Qué reviso primero?"),
    ("pt", "As amostras não parecem com ela, o rosto sai genérico. Tenho medo de OOM, minha placa tem 12 GB. O que eu "
           "confiro primeiro?"),
    ("fr", "Les samples ne lui ressemblent pas, le visage est générique. J'ai peur d'un OOM, ma carte a 12 Go. Je "
           "vérifie quoi en premier ?"),
    ("de", "Die Samples sehen ihr nicht ähnlich, das Gesicht wirkt generisch. Ich habe Angst vor einem OOM, meine "
           "Karte hat 12 GB. Was prüfe ich zuerst?"),
    ("ko", "샘플이 그 사람이랑 안 닮았어요 얼굴이 너무 평범해요. 그래픽카드가 12GB라 OOM 날까봐 걱정이에요. "
           "뭐부터 확인해야 하나요?"),
])
def test_a_feared_oom_beside_weak_samples_is_no_oom(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert {"oom", "crash_oom"}.isdisjoint(u.concepts)
    assert _symptoms(index, text, lang)[0] == "weak-samples"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "checkpointing didn't fix my OOM, which knobs do I turn next?"),  # a phrase: the OOM goes on
    ("en", "No idea why it OOMs at step 2"),  # the negation does not reach the OOM
    ("en", "Before the update it worked, now it OOMs at step 3"),  # the present after the past
    ("en", "It OOMs at step 3, it didn't happen last week"),  # the past is the other clause's
    ("es", "No sé si el GC está activado, pero en el paso 3 revienta: out of memory"),
    ("ko", "가이드대로 GC 다시 켰는데 OOM이 안 없어짐"),  # does not go away: no denied OOM
    # "not sure", "weiß nicht", "no sé" are phrases of their own (unsure): their negation denies nothing
    ("en", "Not sure why OOM at step 2 with batch 4"),
    ("de", "Ich weiß nicht warum OOM bei Step 2 kommt, Batch 4"),
    ("fr", "Je sais pas pourquoi OOM au step 2, batch 4"),
    ("es", "No sé por qué OOM en el paso 2, batch 4"),
    ("pt", "Não sei por que OOM no passo 2, batch 4"),
])
def test_a_present_failure_stays(index: Index, lang: str, text: str) -> None:
    assert "oom" in understand(index.matcher, text, lang).concepts


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Previously I could train with batch 4 without any issue; after updating to the latest version it OOMs at "
           "step 1."),
    ("es", "Antes de la actualización entrenaba con batch 4 sin problemas, después de actualizar da OOM en el paso 1."),
    ("pt", "Antes da atualização eu treinava com batch 4 sem problema, depois de atualizar dá OOM no passo 1."),
    ("fr", "Avant la mise à jour je tournais en batch 4 sans souci, depuis la mise à jour j'ai un OOM au step 1."),
    ("de", "Vor dem Update lief Batch 4 ohne Probleme, nach dem Update bekomme ich OOM bei Step 1."),
    ("ko", "업데이트 전에는 배치 4로 잘 됐는데 업데이트 후에는 스텝 1에서 OOM 나요."),
])
def test_what_worked_before_an_update_leaves_the_oom_after_it(index: Index, lang: str, text: str) -> None:
    assert _symptoms(index, text, lang)[0] == "oom-early-steps"


def test_concepts_of_two_sentences_imply_nothing_together(index: Index) -> None:
    # memory + weak means an OOM in one sentence ("memory too weak"), not across two
    text = "I have 12 GB of VRAM. The samples look nothing like her."
    assert "oom" not in understand(index.matcher, text, "en").concepts


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I'm new to this, it's my first LoRA ever. I picked the default settings and twenty photos of my dog. I "
           "wrote the captions by hand. After a while it stopped with CUDA out of memory."),
    ("es", "Soy nuevo en esto, es mi primer LoRA. Elegí la configuración por defecto y veinte fotos de mi perro. "
           "Escribí los captions a mano. Al rato se paró con CUDA out of memory."),
    ("ko", "이런거 처음 해보는 초보예요. 기본 설정으로 강아지 사진 스무장 넣었어요. 캡션은 직접 달았어요. "
           "한참 돌다가 CUDA out of memory 뜨면서 멈췄어요."),
])
def test_when_it_fails_is_read_near_the_failure(index: Index, lang: str, text: str) -> None:
    assert _symptoms(index, text, lang)[0] == "oom-general"  # a first LoRA, far from the OOM, is no first step
    near = "I'm new to this. I picked the default settings. It stopped with CUDA out of memory right at the first step."
    assert _symptoms(index, near, "en")[0] == "oom-early-steps"


# --- a side remark does not veto the subject ------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "GC is on and I get CUDA out of memory at step 3 every time. By the way, what's the price of the pro plan?"),
    ("es", "GC está activado y me da CUDA out of memory en el paso 3 siempre. Por cierto, ¿cuál es el precio del plan "
           "pro?"),
    ("pt", "GC está ligado e dá CUDA out of memory no passo 3 toda vez. Aliás, qual é o preço do plano pro?"),
    ("fr", "Le GC est activé et j'ai un CUDA out of memory au step 3 à chaque fois. Au fait, c'est quoi le prix de "
           "l'offre pro ?"),
    ("de", "GC ist an und ich bekomme jedes Mal CUDA out of memory bei Step 3. Übrigens, was ist der Preis vom "
           "Pro-Plan?"),
    ("ko", "GC 켜져 있는데 매번 스텝 3에서 CUDA out of memory 떠요. 그리고 프로 플랜 가격이 얼마인가요?"),
])
def test_a_side_remark_on_prices_keeps_the_symptom(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert u.in_domain
    assert _symptoms(index, text, lang)[0] in {"oom-early-steps", "oom-persists-with-gc"}


@pytest.mark.parametrize("text", [
    "What's the price of the pro plan?",  # the only subject
    "Can I get a refund for the run that ran out of memory?",  # the symptom is told only in the billing question
    "GC is on and it OOMs at step 3. What's the price of the pro plan?",  # the question is the other subject
])
def test_the_veto_holds_when_the_other_subject_is_the_question(index: Index, text: str) -> None:
    assert not understand(index.matcher, text, "en").in_domain


@pytest.mark.parametrize(("lang", "slow", "aside", "remark"), [
    ("en", "About 3 s/it, so roughly 3.5 hours per LoRA, too slow.", "Also, unrelated: ",
     "does anyone know if Flex LoRAs load in Forge?"),
    ("fr", "Environ 3 s/it, donc presque 4 heures par LoRA, trop lent.", "Au fait, ",
     "est-ce que les LoRA Flex se chargent dans Forge ?"),
    ("ko", "3 s/it 정도라 LoRA 하나에 4시간 걸려요 너무 느려요.", "참고로 ", "Flex LoRA가 Forge에서 로드되나요?"),
])
def test_another_program_said_aside_keeps_the_symptom_and_asked_alone_vetoes(
    index: Index, lang: str, slow: str, aside: str, remark: str,
) -> None:
    said_aside = f"{slow} {aside}{remark}"
    assert _symptoms(index, said_aside, lang)[0] == "slow-training"
    assert not understand(index.matcher, f"{slow} {remark[0].upper()}{remark[1:]}", lang).in_domain


# --- the token budget by sentence ------------------------------------------------------------------------------

_FILLER = ("My dataset has forty photos of my dog taken in the garden over the summer with a phone and a camera "
           "and I wrote every caption by hand with the trigger word first. ")


@pytest.mark.parametrize(("lang", "ending", "concept"), [
    ("en", "Why does it die with CUDA out of memory at step 3?", "oom"),
    ("en", "Every run takes 9 hours at 4 s/it now.", "slow_run"),  # no question: a symptom sentence goes first
    ("ko", "스텝 3에서 메모리 부족으로 죽어요 왜 그럴까요?", "oom"),
])
def test_a_long_posts_question_and_symptom_are_read_within_the_budget(
    index: Index, lang: str, ending: str, concept: str,
) -> None:
    text = _FILLER * 8 + ending  # about 280 words: past the budget
    reading = read_sentences(index.matcher.sentences, text, lang)
    assert len(reading.tokens) <= DEFAULT_LIMITS.tokens
    assert concept in understand(index.matcher, text, lang).concepts
