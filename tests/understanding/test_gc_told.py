"""Issue 12, session 7 (blind set 5's dev half): how forum users of the six languages tell the state of gradient
checkpointing when no on/off word is said of it. GC told as used or had ("I'm already using GC", "tengo el GC",
`GC 쓰는데도`), or denied ("no uso el GC"); a preposition right before the mention ("avec le GC", "mit GC"); and a
switch told again after an earlier one ("I disabled GC ..., so I turned it back on"): the state now, however far
from the mention. A wrong GC state makes the answer's reason untrue. Sentences written for the test, in every
language (none is a line of a query set)."""

from __future__ import annotations

import pytest

from remedy.index.build import Index
from remedy.understanding.matcher import understand
from remedy.understanding.prose import prose_of


def _gc(index: Index, lang: str, text: str) -> bool | None:
    return understand(index.matcher, text, lang).stated.gradient_checkpointing


# --- 1. GC told as used or had is on -------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "i already use gradient checkpointing and batch 1 but it still OOMs randomly when the 1536 bucket comes up"),
    ("en", "i'm already using GC. still random ooms at step 300 or 1100 when the 1536 images come up"),
    ("en", "i have gradient checkpointing and batch 1 and still get random OOMs with the 1536 images"),
    ("en", "random OOM with the 1536 bucket, using gc and batch 1"),
    ("es", "ya uso gradient checkpointing y batch 1, pero igual peta de vez en cuando cuando toca una imagen de 1536"),
    ("es", "tengo puesto el gradient checkpointing, batch 1, buckets hasta 1536, y me da OOM en pasos distintos"),
    ("es", "tengo el gradient checkpointing y batch 1 y aun asi me da OOM con las imagenes de 1536"),
    ("pt", "ja to usando gradient checkpointing e batch 1 mas da OOM do nada quando pega imagem de 1536"),
    ("pt", "tenho o gradient checkpointing e batch 1 e mesmo assim da OOM nas imagens de 1536"),
    ("fr", "j'utilise deja le gradient checkpointing et batch 1, ca plante quand meme au hasard avec les 1536"),
    ("fr", "j'ai le gradient checkpointing et batch 1 et ca fait quand meme des OOM sur les 1536"),
    ("fr", "j'ai mis le gradient checkpointing, batch 1, et ca plante au hasard sur les images 1536"),
    ("de", "ich nutze schon gradient checkpointing und batch 1, trotzdem random OOM bei den 1536er bildern"),
    ("de", "GC läuft schon, batch 1, buckets bis 1536, OOM an verschiedenen steps"),
    ("ko", "gradient checkpointing 이미 쓰고 있고 배치 1인데도 1536 이미지에서 가끔 터져요"),
    ("ko", "GC 써도 1536 이미지 나오면 가끔 터져요"),
    ("ko", "GC 사용하고 있는데 1536 이미지에서 랜덤으로 OOM"),
])
def test_gc_told_as_used_is_on(index: Index, lang: str, text: str) -> None:
    assert _gc(index, lang, text) is True


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "i'm not using gradient checkpointing, OOM at step 2"),
    ("en", "i don't use gc because it's slow, and now OOM at step 2"),
    ("es", "no uso gradient checkpointing, OOM en el paso 2"),
    ("es", "sin usar el GC peta en el paso 2"),
    ("pt", "nao uso gradient checkpointing, OOM no passo 2"),
    ("pt", "sem usar o GC da OOM no passo 2"),
    ("fr", "je n'utilise pas le gradient checkpointing, OOM au step 2"),
    ("fr", "sans utiliser le GC ca plante au step 2"),
    ("de", "ich nutze kein gradient checkpointing, OOM bei step 2"),
    ("ko", "gradient checkpointing 안 쓰고 있어요, 2스텝에서 OOM"),
    ("ko", "GC 안 쓰고 돌리면 2스텝에서 터져요"),
])
def test_gc_told_as_not_used_is_off(index: Index, lang: str, text: str) -> None:
    assert _gc(index, lang, text) is False


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "When I drop gradient_checkpointing to use only_optimize_lora, I got oom"),  # "use" has another object
    ("fr", "faut-il lancer un premier entrainement avec le GC desactive ?"),  # the state asked about, not "avec"
    ("fr", "concrètement le gradient checkpointing fait quoi avec la mémoire ?"),  # a preposition after the mention
    ("de", "Gradient Checkpointing hab ich nicht angefasst, es läuft nur langsam"),
    ("pt", "ligar o GC deixa o resultado pior?"),
    ("ko", "GC 쓰면 느려지나요?"),  # a use named as a condition
    ("ko", "GC 쓰고 싶은데 속도가 걱정돼요"),  # a use wished
])
def test_a_use_word_that_tells_no_state(index: Index, lang: str, text: str) -> None:
    assert _gc(index, lang, text) is None


# --- 2. a preposition right before the mention ---------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("fr", "avec GC et batch 1 ca plante de temps en temps sur les 1536"),
    ("fr", "meme avec le GC ca fait des OOM au hasard sur les 1536"),
    ("de", "mit GC und batch 1 kommt ab und zu OOM bei den 1536ern"),
    ("de", "sogar mit GC gibts random OOM bei den 1536er bildern"),
    ("de", "trotz gradient checkpointing geht der 4080 der Speicher aus"),
    ("pt", "mesmo com o GC da OOM do nada nas imagens de 1536"),
    ("es", "aun con el GC me da OOM al azar con las de 1536"),
    ("en", "even with GC it OOMs at random steps when the 1536 bucket comes"),
])
def test_a_preposition_before_the_mention_says_on(index: Index, lang: str, text: str) -> None:
    assert _gc(index, lang, text) is True


@pytest.mark.parametrize(("lang", "text"), [
    ("de", "Sollte man den allerersten Trainingslauf mit deaktiviertem GC starten?"),  # "mit" governs the state
    ("fr", "z image avec le gc coupé, batch 4, et ça crash au step 2"),
])
def test_a_preposition_gives_way_to_the_state_it_governs(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert u.stated.gradient_checkpointing is not True and not u.stated.on_or_off


# --- 3. a switch told again undoes the one before it ---------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "i switched gc off to go faster, it crashed at step 3, so i turned it back on and now it's just slow"),
    ("en", "I disabled GC and it ran out of memory at the first sample, I re-enabled it and it's stable now but slow"),
    ("es", "desactive el GC para ir mas rapido, peto en el paso 3, asi que lo volvi a activar y ahora solo va lento"),
    ("es", "quite el gradient checkpointing y me dio OOM al primer sample, lo reactive y ahora va estable pero lento"),
    ("pt", "desliguei o GC pra ir mais rapido, crashou no passo 3, entao liguei de novo e agora so ta lento"),
    ("pt", "tirei o gradient checkpointing e deu OOM no primeiro sample, reativei e agora ta estavel mas lento"),
    ("fr", "j'ai desactive le GC pour aller plus vite, ca a plante au step 3, donc je l'ai reactive, c'est juste lent"),
    ("fr", "j'ai coupe le gradient checkpointing et OOM au premier sample, je l'ai remis et c'est stable mais lent"),
    ("de", "hab GC ausgemacht damit es schneller geht, crash bei step 3, also wieder eingeschaltet, jetzt nur langsam"),
    ("de", "gradient checkpointing deaktiviert, OOM beim ersten sample, dann wieder aktiviert und jetzt stabil"),
    ("ko", "속도 때문에 GC 껐더니 3스텝에서 터져서 다시 켰고 지금은 그냥 느려요"),
    ("ko", "gradient checkpointing 끄고 첫 샘플에서 OOM 나서 도로 켰는데 지금은 안정적이지만 느려요"),
])
def test_a_switch_told_again_is_the_state_now(index: Index, lang: str, text: str) -> None:
    assert _gc(index, lang, text) is True


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "had gradient checkpointing on for weeks, tried without it, then disabled it again today and it OOMs"),
    ("en", "turned GC off, OOM at step 2. turned the previews back on too, same thing"),  # another switch
    ("ko", "GC 끄고 나서 2스텝에서 터졌어요. 프리뷰 다시 켰는데도 똑같아요"),
])
def test_a_switch_again_of_another_thing_or_to_off(index: Index, lang: str, text: str) -> None:
    assert _gc(index, lang, text) is False


# --- 4. a Korean "never" after its verb is not said of the next clause -----------------------------------------

@pytest.mark.parametrize(("lang", "text", "state"), [
    ("ko", "랜덤 OOM, 같은 스텝에서 터진 적이 없어요. GC 켜져 있고 배치 1", True),
    ("ko", "GC 한번도 끈 적 없어요. 근데 1536 이미지에서 가끔 터져요", True),
])
def test_a_korean_never_governs_the_verb_before_it(index: Index, lang: str, text: str, state: bool) -> None:
    assert _gc(index, lang, text) is state


# --- 5. a graphics card's number is no step; a feared OOM in a post about speed is no OOM -----------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "it dies with OOM on my 4070 Ti, right at the start"),
    ("es", "peta por falta de memoria en mi 3060 nada mas empezar"),
    ("pt", "da OOM na minha 3080 logo no começo"),
    ("fr", "ça fait un OOM sur ma 4060 Ti dès le début"),
    ("de", "OOM auf meiner 3070 direkt am Anfang"),
    ("ko", "4070 Ti에서 시작하자마자 OOM 나요"),
])
def test_a_cards_number_is_no_step(index: Index, lang: str, text: str) -> None:
    assert understand(index.matcher, text, lang).stated.step is None


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "training is way too slow, 12 s/it on my 3060. any tips that won't make it run out of memory again?"),
    ("en", "it takes 9 hours per lora on a 4070 ti. i'd like it faster but i don't want to OOM again like last time"),
    ("es", "tarda 9 horas por lora en una 4070 ti. lo quiero mas rapido pero no quiero volver a tener OOM"),
    ("pt", "leva 9 horas por lora numa 4070 ti. queria mais rapido mas nao quero tomar OOM de novo"),
    ("fr", "ca prend 9 heures par lora sur une 4070 ti. je veux plus rapide mais je veux pas reprendre un OOM"),
    ("de", "9 stunden pro lora auf einer 4070 ti. will es schneller aber will nicht wieder OOM bekommen"),
    ("ko", "4070 ti에서 로라 하나에 9시간 걸려요. 빠르게 하고 싶은데 OOM 다시 나는 건 싫어요"),
])
def test_a_feared_oom_in_a_post_about_speed_is_slowness(index: Index, lang: str, text: str) -> None:
    ranked = understand(index.matcher, text, lang).ranked
    assert next(s.id for s in ranked if s.kind == "symptom") == "slow-training"


# --- 6. in a post with a pasted log, a line of the user's that names the error is still the user's -------------

_TAIL = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of "
         "23.99 GiB of which 1.10 GiB is free.")


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "random OOM crashes\nGC is on and batch is 1 but I still get CUDA out of memory at random steps:\n" + _TAIL),
    ("en", "random OOM crashes\nbuckets 512 768 1024 1536. gradient checkpointing is enabled, 24 GB card.\n" + _TAIL),
    ("es", "OOM aleatorio\nel GC esta activado y batch 1 pero sigo teniendo CUDA out of memory al azar:\n" + _TAIL),
    ("pt", "OOM aleatorio\no GC ta ligado e batch 1 mas continuo tomando CUDA out of memory do nada:\n" + _TAIL),
    ("fr", "OOM aleatoire\nle GC est active et batch 1 mais j'ai encore des CUDA out of memory au hasard :\n" + _TAIL),
    ("de", "random OOM\nGC ist an und batch 1, trotzdem kommt bei zufälligen steps CUDA out of memory:\n" + _TAIL),
    ("ko", "랜덤 OOM\nGC 켜져 있고 배치 1인데 랜덤 스텝에서 CUDA out of memory 떠요:\n" + _TAIL),
    ("ko", "계속 터져요\n배치 1이고 GC도 켜져 있어요. 로그 마지막은 " + _TAIL + " 이렇게 끝나요."),
])
def test_the_users_line_naming_the_error_is_read(index: Index, lang: str, text: str) -> None:
    assert _gc(index, lang, text) is True


@pytest.mark.parametrize("line", [
    "# OOM during training step, skipping batch 1/3 and retrying the whole thing",
    "05/04/2025 10:38:03 - INFO - trainer - Precomputing latent for video and prompt embedding ... Done",
    "[rank0]: torch.OutOfMemoryError: CUDA out of memory while the trainer was running the step",
    "  File \"/app/ai-toolkit/run.py\", line 120, in <module> when the job starts training",
])
def test_a_log_line_stays_a_log_line(line: str) -> None:
    assert prose_of("it fails\n" + line + "\nany idea?") == "it fails\nany idea?"


# --- 7. an OOM told of another program's generation is no training OOM; the training's own still is -----------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "my lora trained fine but when I load it in forge and generate at 1536 it runs out of vram"),
    ("en", "after training, using the lora in comfyui makes the ksampler run out of vram"),
    ("es", "el lora se entreno bien, pero al usarlo en comfyui para generar a 1536 me quedo sin vram"),
    ("pt", "o lora treinou de boa, mas quando uso ele no forge pra gerar em 1536 da falta de memoria"),
    ("fr", "le lora s'est bien entraine mais dans comfyui pour generer en 1536 avec, je tombe a court de vram"),
    ("de", "das lora hat sauber trainiert, aber wenn ich es in forge zum generieren in 1536 nutze, geht der vram aus"),
    ("ko", "로라 학습은 잘 끝났는데 컴피유아이에서 로라 넣고 1536으로 생성하면 vram 부족으로 터져요"),
])
def test_an_oom_of_another_programs_generation_is_none(index: Index, lang: str, text: str) -> None:
    assert not any(s.kind == "symptom" for s in understand(index.matcher, text, lang).ranked)


@pytest.mark.parametrize(("lang", "text", "symptom"), [
    ("en", "training OOMs at step 250 when it starts generating the sample images", "oom-during-sampling"),
    ("en", "I trained in ai-toolkit and it runs out of memory at step 3, I use comfyui only later", "oom-early-steps"),
    ("es", "el entrenamiento se queda sin memoria en el paso 250 cuando genera las muestras", "oom-during-sampling"),
    ("pt", "o treino da OOM no passo 250 quando vai gerar as amostras", "oom-during-sampling"),
    ("fr", "l'entrainement tombe en OOM au step 250 quand il genere les samples", "oom-during-sampling"),
    ("de", "das training hat bei step 250 OOM, wenn es die samples generiert", "oom-during-sampling"),
    ("ko", "학습 중 250스텝에서 샘플 이미지 생성할 때 OOM 나요", "oom-during-sampling"),
])
def test_the_trainings_own_oom_is_kept(index: Index, lang: str, text: str, symptom: str) -> None:
    ranked = understand(index.matcher, text, lang).ranked
    assert next(s.id for s in ranked if s.kind == "symptom") == symptom


# --- 8. a feared OOM told as a clause ("worried that ... will run out of memory") is no OOM ---------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "results are overcooked and fried. I'm worried that more steps will make it crash with out of memory"),
    ("es", "la cara sale generica, nada que ver. no subi la resolucion por miedo a que pete por falta de memoria"),
    ("pt", "o rosto sai generico, nada a ver. nao aumentei a resolucao com medo de ficar sem memoria na placa"),
    ("fr", "visage generique, rien a voir. resolution pas montee de peur que ca plante par manque de memoire"),
    ("de", "das lora sieht ihr nach 2000 steps null ähnlich. batch 1 gelassen aus Angst, dass der Speicher ausgeht"),
])
def test_a_feared_oom_clause_leaves_the_weak_result(index: Index, lang: str, text: str) -> None:
    ranked = understand(index.matcher, text, lang).ranked
    assert next(s.id for s in ranked if s.kind == "symptom") == "weak-samples"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I'm worried because it keeps running out of memory at step 3"),
    ("es", "me preocupa porque se queda sin memoria en el paso 3 siempre"),
    ("fr", "j'ai peur, ça plante en OOM au step 3 à chaque fois"),
])
def test_a_worry_about_what_happens_keeps_the_oom(index: Index, lang: str, text: str) -> None:
    ranked = understand(index.matcher, text, lang).ranked
    assert next(s.id for s in ranked if s.kind == "symptom") == "oom-early-steps"


# --- 9. of two batch sizes told, the one told now ------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "GC is on, I went from batch 4 down to batch 2 and it still OOMs"),
    ("en", "GC on, used batch 4 before, now batch 2, and it still runs out of memory"),
    ("es", "GC activado, antes batch 4 y ahora batch 2, y sigue petando"),
    ("pt", "GC ligado, antes era batch 4 e agora batch 2, e continua crashando"),
    ("fr", "GC active, avant batch 4 et maintenant batch 2, ca plante toujours"),
    ("de", "GC an, vorher batch 4, jetzt batch 2, stürzt immer noch ab"),
    ("ko", "GC 켰고 전에는 배치 4, 지금은 배치 2인데 계속 터져요"),
    ("ko", "GC 켠 상태로 배치 4 대신 2로 해도 계속 메모리 부족"),
])
def test_the_batch_size_told_now(index: Index, lang: str, text: str) -> None:
    assert understand(index.matcher, text, lang).stated.batch_size == 2


@pytest.mark.parametrize(("lang", "text", "batch"), [
    ("en", "OOM at batch size 1 with ramtorch, but it works at batch size 8 without it, and at batch size 4 too", 1),
    ("de", "Batch Size 8 weil ich auf einer H100 dachte das geht. Mit Batch 2 lief es letzte Woche", 8),
])
def test_a_batch_size_told_beside_another_is_not_a_change(index: Index, lang: str, text: str, batch: int) -> None:
    assert understand(index.matcher, text, lang).stated.batch_size == batch


# --- 10. "a case where it makes sense to try GC off", with memory to spare: the when-GC-off-is-OK section -------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "everything is stable with gc on and I have plenty of vram left. is this a case where it makes sense to "
           "turn gc off?"),
    ("es", "todo va estable con el gc activado y me sobra un montón de vram. es un caso en el que tiene sentido apagar "
           "el gc?"),
    ("pt", "ta tudo estavel com o gc ligado e sobra um monte de vram. e um caso em que faz sentido desligar o gc?"),
    ("fr", "tout est stable avec le gc active et il me reste plein de vram. c'est un cas ou ca a du sens de couper le "
           "gc ?"),
    ("de", "alles läuft stabil mit GC an und ich hab massig VRAM frei. ist das ein Fall wo es sinnvoll ist GC "
           "auszuschalten?"),
    ("ko", "gc 켜고 안정적으로 돌아가고 vram도 엄청 많이 남아요. 이런 경우 gc 꺼도 괜찮은 상황인가요?"),
])
def test_a_case_where_gc_off_makes_sense(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert u.searched[0].id == "when-gc-off-ok"
    assert not any(s.kind == "symptom" for s in u.ranked[:1])  # plentiful memory is no full memory


# --- 11. a negation before the mention denies the on/off word said of it -------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "OOM at step 2. I don't have gradient checkpointing on"),
    ("en", "OOM at step 2, I haven't enabled GC"),
    ("en", "OOM at step 2 with no GC"),
    ("en", "OOM at step 2, got rid of GC to speed things up"),
    ("es", "OOM en el paso 2, no tengo el GC activado"),
    ("pt", "OOM no passo 2, nao to com o GC ligado"),
    ("fr", "OOM au step 2, j'ai pas le GC active"),
    ("de", "OOM bei step 2, hab GC nicht an"),
    ("ko", "2스텝에서 OOM, GC 안 켰어요"),
])
def test_a_negation_before_the_mention_says_off(index: Index, lang: str, text: str) -> None:
    assert _gc(index, lang, text) is False


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Before this I had no problems. GC is on, batch 1, and it OOMs on the 1536 images"),
    ("de", "random OOM, nie beim selben step. GC ist an, batch 1"),
])
def test_a_negation_of_another_thing_leaves_gc_on(index: Index, lang: str, text: str) -> None:
    assert _gc(index, lang, text) is True


# Session 13: a GC state told of the config file ("the config says GC is on", "en el yaml pone gradient_checkpointing:
# true", "yaml 파일에는 ... true인데") gives way to a switch the user tells after it ("but I turned it off in the
# UI"): the state now is off; with no switch after it, the file's state stands.
@pytest.mark.parametrize(("lang", "text", "state"), [
    ("en", "the config says GC is on but I turned it off in the UI, now it OOMs at step 3", False),
    ("es", "en el yaml pone gradient_checkpointing: true pero lo desactivé en la interfaz, ahora OOM en el paso 3",
     False),
    ("pt", "no yaml tá gradient_checkpointing: true mas eu desliguei na interface, agora dá OOM no passo 3", False),
    ("fr", "dans la config c'est gradient_checkpointing: true mais je l'ai désactivé dans l'interface, OOM au step 3",
     False),
    ("de", "in der Config steht GC an, aber ich hab es ausgeschaltet, jetzt OOM bei Step 3", False),
    ("ko", "yaml 파일에는 gradient_checkpointing: true인데 UI에서 껐어요, 이제 3스텝에서 OOM 나요", False),
    ("en", "my config says gradient_checkpointing: true and it still OOMs at step 3", True),
    ("es", "en el yaml pone gradient_checkpointing: true y aun así me da OOM en el paso 3", True),
])
def test_the_files_state_gives_way_to_a_switch_told_after_it(index: Index, lang: str, text: str, state: bool) -> None:
    assert _gc(index, lang, text) is state
