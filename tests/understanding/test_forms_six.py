"""Issue 12, session 10 (multi10): how users of six languages tell a slowness with GC on after an OOM of the past, the
state GC is in now, and the failing step. Sentences written for the test (forum register, missing accents, English
terms mixed in); none is a line of a query set or of the real-message corpora. Every mechanism has its twin where it
gives way.

1. A frequency ("constantly", "siempre", "sempre", "tout le temps", "ständig", `매번`) inside a past clause says how
   often it happened then: it ends no past ("last week I constantly got OOMs with GC off"), and a setting put back
   after it still closes the failure ("... so I turned it back on"); with no past told, it is the state now ("OOM at
   step 3 every time").
2. A setting put back in the words users write: Latin American "lo volví a prender", Korean `다시 켰거든요`.
3. A fear of switching ("afraid to turn GC off", "me da miedo quitar el GC", "tenho medo de desligar", "j'ose pas
   désactiver", "ich trau mich nicht, GC auszuschalten", `GC 끄기 무서워요`) is a change only thought of: no GC state;
   a switch told ("I turned GC off") still is one.
4. A GC state told in a sentence's past ("last month I had OOMs with GC off") gives way to the state told after it
   ("so now I keep GC on"), and a state told now of the story's pronoun ("now I have it on", "ahora lo tengo
   activado", "là je l'ai laissé à on") is GC's however far the mention is, unless another switch is named there.
5. A step number glued to its word ("step3", "passo3", "Schritt3", "3steps") and the French `pas` after a number ("au
   3e pas", "après 3 pas") tell the failing step; a model name or a card glued to a number ("flux1", "rtx3090"), and
   the French negation `pas`, tell none.
6. A slowness told with GC on is a slowness, its first step the previews' (never a persisting OOM), and GC on with an
   OOM still is the persisting OOM.
7. GC switched on for a purpose ("to stop the OOMs", "para no tener más OOM", "pra parar de dar OOM", "pour ne plus
   avoir d'OOM", "damit kein OOM mehr kommt") names the OOM to be rid of, and "now it doesn't crash" ("ça ne plante
   plus", `이제 안 터지는데`) tells it gone: with a slowness after it, the post is about speed; an OOM told again
   after it ("but it still runs out of memory at step 3") is the persisting OOM.
8. A run that goes fine until the previews, and fails only there ("it only dies when it makes the samples", `잘 돌다가
   샘플 뽑을 때만`), is the sampling OOM, not a bucket's spike; an OOM at random steps when the largest bucket comes
   still is the spike, whatever is said of the samples.
9. GC told on in forms not seen before: an on word after a lasting default ("GC is left at its default (on)"), French
   "bien mis"; a default with no on word states nothing (a trainer's default is not known), and "bien mis" said of
   another setting leaves GC's own word.
10. A run told slow whose training then stops or waits for its previews ("las previews tardan 5 minutos y el entreno se
    para", `프리뷰 하나에 5분씩 걸리고 학습이 멈춰 있어요`) pauses: a slowness, no sampling OOM; a stop with memory
    evidence after it ("... and then the training stops with CUDA out of memory") is the sampling OOM.
11. The step asked about or not known ("I don't know at which step", "no sé en qué paso", "não sei em que passo", "je
    sais pas à quel step", "ich weiß nicht bei welchem Schritt", `어느 스텝에서 터졌는지 모르겠어요`) tells no step: an
    OOM of no known time; a step told after the question ("at which step does it die? step 3") still is the step.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from remedy.index.build import Index
from remedy.understanding.matcher import understand
from tests.understanding.probes import answered_symptom, diagnose

G, E, P, T = "oom-general", "oom-early-steps", "oom-persists-with-gc", "slow-training"


def _context(answer: dict[str, object]) -> dict[str, object]:
    context = answer["context"]
    assert isinstance(context, dict)
    return context


def _first_step(answer: dict[str, object]) -> str | None:
    steps = answer["steps"]
    assert isinstance(steps, list)
    return steps[0]["id"] if steps else None


# --- 1, 2. a frequency inside a past, a setting put back ---------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Training takes forever. Last week I constantly got OOMs in the first steps with GC off, so I turned it "
           "back on and now it's stable, but 2000 steps take 9 hours"),
    ("es", "el entreno tarda una eternidad. la semana pasada con el gc apagado siempre me daba OOM en los primeros "
           "pasos, lo volví a prender y ahora va estable pero son 9 horas para 2000 pasos"),
    ("pt", "o treino demora uma eternidade. semana passada com o gc desligado sempre dava OOM nos primeiros passos, "
           "religuei e agora tá estável mas leva 9 horas pra 2000 passos"),
    ("fr", "l'entraînement prend une éternité. la semaine dernière avec le gc désactivé j'avais tout le temps des OOM "
           "dans les premiers steps, je l'ai réactivé et maintenant c'est stable mais 9 heures pour 2000 steps"),
    ("de", "Training dauert ewig. Letzte Woche hatte ich mit GC aus ständig OOM in den ersten Steps, hab es wieder "
           "eingeschaltet, jetzt läuft es stabil, aber 2000 Steps brauchen 9 Stunden"),
    ("ko", "학습이 너무 오래 걸려요. 지난주에 GC 끄고 돌렸을 때 매번 초반 스텝에서 OOM 나서 다시 켰거든요. "
           "지금은 안정적인데 2000스텝에 9시간 걸려요"),
])
def test_a_frequency_inside_a_past_ends_no_past(client: TestClient, lang: str, text: str) -> None:
    answer = diagnose(client, lang, text)
    assert answered_symptom(answer) == T
    assert _first_step(answer) == "cheapen-preview-sampling"
    assert _context(answer).get("gradient_checkpointing") is True


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "OOM at step 3 every time, constantly"),
    ("es", "siempre me da OOM en el paso 3"),
    ("pt", "sempre dá OOM no passo 3"),
    ("fr", "j'ai tout le temps un OOM au step 3"),
    ("de", "ständig OOM bei Schritt 3"),
    ("ko", "매번 3스텝에서 OOM 나요"),
])
def test_a_frequency_with_no_past_is_the_state_now(client: TestClient, lang: str, text: str) -> None:
    answer = diagnose(client, lang, text)
    assert answered_symptom(answer) == E
    assert _context(answer).get("step") == 3


@pytest.mark.parametrize(("lang", "text"), [
    ("es", "con el gc apagado tenía OOM en los primeros pasos, lo volví a prender y ahora va bien pero lento, 12 s/it"),
    ("ko", "GC 껐다가 초반 스텝에서 OOM 나서 다시 켰거든요. 지금은 괜찮은데 12s/it라 너무 느려요"),
])
def test_a_setting_put_back_as_users_write_it_closes_the_failure(client: TestClient, lang: str, text: str) -> None:
    assert answered_symptom(diagnose(client, lang, text)) == T


# --- 3. a fear of switching -----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I'm afraid to turn GC off, training is slow, 8 s/it"),
    ("en", "too scared to disable gradient checkpointing, it crawls at 8 s/it"),
    ("es", "me da miedo quitar el GC, el entreno va lento, 8 s/it"),
    ("pt", "tenho medo de desligar o GC, o treino tá lento, 8 s/it"),
    ("fr", "j'ose pas désactiver le GC, l'entraînement est lent, 8 s/it"),
    ("fr", "j'ai peur de couper le GC, ça rame à 8 s/it"),
    ("de", "ich trau mich nicht, GC auszuschalten, das Training ist langsam, 8 s/it"),
    ("ko", "GC 끄기 무서워요 학습이 느려요 8s/it"),
])
def test_a_fear_of_switching_states_no_gc_state(index: Index, lang: str, text: str) -> None:
    assert understand(index.matcher, text, lang).stated.gradient_checkpointing is None


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I turned GC off, training is slow, 8 s/it"),
    ("es", "quité el GC y el entreno va lento, 8 s/it"),
    ("pt", "desliguei o GC e o treino tá lento, 8 s/it"),
    ("fr", "j'ai désactivé le GC et l'entraînement est lent, 8 s/it"),
    ("de", "ich habe GC ausgeschaltet, das Training ist langsam, 8 s/it"),
    ("ko", "GC 껐는데 학습이 느려요 8s/it"),
])
def test_a_switch_told_still_states_the_gc_state(index: Index, lang: str, text: str) -> None:
    assert understand(index.matcher, text, lang).stated.gradient_checkpointing is False


# --- 4. the state now after a story ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I'm scared to turn GC off again, the last time I did I got out of memory at step 3. Now I have it on and "
           "it's slow, 10 s/it"),
    ("es", "me da miedo desactivar el GC otra vez, la última vez que lo quité me dio out of memory en el paso 3, así "
           "que ahora lo tengo activado. va lento, 10 s/it"),
    ("pt", "mês passado tive OOM no passo 3 com o gc desligado, então agora deixo o gc ligado. só que tá lento, "
           "10 s/it"),
    ("fr", "j'ose pas recouper le GC, la dernière fois que je l'ai coupé j'ai eu un OOM au step 3. là je l'ai laissé à "
           "on et c'est lent, 10 s/it"),
    ("de", "Letzten Monat hatte ich mit GC aus OOM bei Schritt 3, deshalb lasse ich GC jetzt an. Aber es ist langsam, "
           "10 s/it"),
    ("ko", "지난달에 GC 끄고 3스텝에서 OOM 났었어요. 그래서 지금은 GC 켜놨는데 느려요 10s/it"),
])
def test_the_state_told_now_after_a_story_is_the_gc_state(client: TestClient, lang: str, text: str) -> None:
    answer = diagnose(client, lang, text)
    assert answered_symptom(answer) == T
    assert _context(answer).get("gradient_checkpointing") is True


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "the last time I turned GC off I got an OOM at step 2. Now I have the previews turned off and it's slow"),
    ("es", "la última vez que quité el GC me dio OOM en el paso 2. ahora tengo activado el low vram y va lento"),
])
def test_a_state_told_now_of_another_switch_is_not_gcs(index: Index, lang: str, text: str) -> None:
    assert understand(index.matcher, text, lang).stated.gradient_checkpointing is not True


# --- 5. step numbers as users write them ----------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "OOM at step3 every time, flux lora on 24gb"),
    ("es", "me da OOM en el paso3"),
    ("pt", "dá OOM no passo3 sempre"),
    ("fr", "OOM au step3 à chaque fois"),
    ("de", "CUDA out of memory bei Schritt3"),
    ("ko", "스텝3에서 OOM 나요"),
    ("fr", "OOM au 3e pas"),
    ("fr", "ça plante en out of memory après 3 pas"),
])
def test_a_step_number_as_users_write_it_is_the_failing_step(client: TestClient, lang: str, text: str) -> None:
    answer = diagnose(client, lang, text)
    assert answered_symptom(answer) == E
    assert _context(answer).get("step") == 3


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "OOM on my rtx3090 with flux1 dev"),
    ("en", "cuda out of memory with fp16 on sdxl1"),
    ("fr", "OOM mais je n'ai pas 2 GPU"),
])
def test_a_name_glued_to_a_number_or_a_french_negation_tells_no_step(client: TestClient, lang: str, text: str) -> None:
    assert _context(diagnose(client, lang, text)).get("step") is None


def test_a_model_name_glued_to_its_number_keeps_its_family(index: Index) -> None:
    assert understand(index.matcher, "OOM on my 4090 with flux1 dev", "en").family == "flux"


def test_the_french_negation_pas_stays_a_negation(index: Index) -> None:
    assert "step" not in understand(index.matcher, "ça ne passe pas, pas de OOM", "fr").concepts


# --- 6. slowness with GC on ------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "GC is on and training crawls at 9 s/it on my 4090, how do I speed it up?"),
    ("en", "after enabling GC the out of memory is gone but training went from 2 s/it to 6 s/it"),
    ("es", "activé el GC para que no me diera OOM, ya no peta pero ahora va lentísimo, 10 s/it"),
    ("es", "el gc esta prendido y aun asi tarda una eternidad, 6 horas para 2000 pasos"),
    ("pt", "depois que ativei o gradient checkpointing o erro de memória sumiu mas o treino ficou 3x mais lento"),
    ("pt", "gc ligado e mesmo assim demora demais, 8 horas pra 3000 passos"),
    ("fr", "depuis que j'ai mis gradient checkpointing à true plus d'out of memory mais chaque step prend 3 fois plus"),
    ("fr", "gc activé et ça rame quand même, 10h pour 3000 pas"),
    ("de", "GC ist eingeschaltet und trotzdem dauert es ewig, 10 Stunden für 3000 Schritte"),
    ("de", "Gradient Checkpointing ist an und das Training ist extrem langsam, 9 s/it"),
    ("ko", "gradient checkpointing 켜고 나서 메모리 부족은 없어졌는데 속도가 3배 느려졌어요"),
    ("ko", "GC 켜놨는데 스텝당 12초씩 걸려요 어떻게 빠르게 하죠?"),
])
def test_a_slowness_told_with_gc_on_is_a_slowness(client: TestClient, lang: str, text: str) -> None:
    answer = diagnose(client, lang, text)
    assert answered_symptom(answer) == T
    assert _first_step(answer) == "cheapen-preview-sampling"
    assert _context(answer).get("gradient_checkpointing") is True


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I disabled GC and got OOM at step 2, so I turned it back on, but it still runs out of memory at step 50"),
    ("es", "quité el GC y me dio OOM, lo volví a activar y sigue dando OOM en el paso 50"),
    ("pt", "desliguei o GC e deu OOM, liguei de novo e continua dando OOM no passo 50"),
    ("fr", "j'ai désactivé le GC et j'ai eu un OOM, je l'ai réactivé et j'ai toujours un OOM au step 50"),
    ("de", "hab GC ausgeschaltet und bekam OOM, hab es wieder eingeschaltet und immer noch OOM bei Schritt 50"),
    ("ko", "GC 껐다가 OOM 나서 다시 켰는데 50스텝에서 또 OOM 나요"),
])
def test_gc_on_again_with_an_oom_now_is_the_persisting_oom(client: TestClient, lang: str, text: str) -> None:
    answer = diagnose(client, lang, text)
    assert answered_symptom(answer) == P
    assert _context(answer).get("gradient_checkpointing") is True


# --- 7. GC switched on to be rid of the OOM ----------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I turned gradient checkpointing on to stop the OOMs, now it doesn't crash but it's painfully slow "
           "(11 s/it)"),
    ("es", "activé el GC para no tener más OOM, ya no peta pero va lentísimo, 10 s/it"),
    ("pt", "liguei o GC pra parar de dar OOM, agora não quebra mas ficou lento demais, 10 s/it"),
    ("fr", "j'ai activé le GC pour ne plus avoir d'OOM, ça ne plante plus mais c'est hyper lent, 10 s/it"),
    ("de", "hab GC eingeschaltet, damit kein OOM mehr kommt. Jetzt ist es stabil, aber elend langsam, 10 s/it"),
    ("ko", "OOM 때문에 GC 켰더니 이제 안 터지는데 너무 느려요 10s/it"),
])
def test_gc_switched_on_to_be_rid_of_the_oom_then_slow_is_a_slowness(client: TestClient, lang: str, text: str) -> None:
    answer = diagnose(client, lang, text)
    assert answered_symptom(answer) == T
    assert _context(answer).get("gradient_checkpointing") is True


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I turned gradient checkpointing on to stop the OOMs but it still runs out of memory at step 3"),
    ("es", "activé el GC para no tener más OOM pero sigue dando OOM en el paso 3"),
    ("pt", "liguei o GC pra parar de dar OOM mas continua dando OOM no passo 3"),
    ("fr", "j'ai activé le GC pour ne plus avoir d'OOM mais j'ai toujours un OOM au step 3"),
    ("de", "hab GC eingeschaltet, damit kein OOM mehr kommt, trotzdem OOM bei Schritt 3"),
    ("ko", "OOM 때문에 GC 켰는데 3스텝에서 또 OOM 나요"),
])
def test_an_oom_told_again_after_the_purpose_persists(client: TestClient, lang: str, text: str) -> None:
    answer = diagnose(client, lang, text)
    assert answered_symptom(answer) == P
    assert _context(answer).get("step") == 3


# --- 8. fine until the previews ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "training goes fine for a while, then it only runs out of memory when the preview images are generated"),
    ("es", "el entreno va bien un rato y solo se queda sin memoria cuando genera las muestras"),
    ("pt", "o treino vai bem por um tempo e só dá falta de memória quando gera as amostras"),
    ("fr", "l'entraînement tourne bien un moment, puis ça manque de mémoire seulement quand il génère les samples"),
    ("de", "das Training läuft eine Weile gut, nur beim Erzeugen der Samples geht der Speicher aus"),
    ("ko", "학습은 잘 돌다가 샘플 뽑을 때만 vram 부족으로 터져요"),
])
def test_a_run_fine_until_the_previews_is_a_sampling_oom(client: TestClient, lang: str, text: str) -> None:
    assert answered_symptom(diagnose(client, lang, text)) == "oom-during-sampling"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "OOM at random steps when the 1024 bucket comes up, the samples look fine"),
    ("es", "OOM en pasos aleatorios cuando toca el bucket de 1024, las muestras salen bien"),
    ("fr", "OOM à des steps au hasard quand le bucket 1024 arrive, les samples sont bien"),
    ("ko", "1024 버킷 나올 때 랜덤하게 OOM 나요 샘플은 괜찮아요"),
])
def test_an_oom_at_random_steps_at_the_largest_bucket_is_a_spike(client: TestClient, lang: str, text: str) -> None:
    assert answered_symptom(diagnose(client, lang, text)) == "oom-bucket-spike"


# --- 9. GC told on in other forms --------------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "GC is left at its default (on). OOM at step 40"),
    ("fr", "le gc est bien mis, OOM au step 40 quand même"),
])
def test_gc_told_on_in_other_forms_is_on(client: TestClient, lang: str, text: str) -> None:
    answer = diagnose(client, lang, text)
    assert answered_symptom(answer) == P
    assert _context(answer).get("gradient_checkpointing") is True


@pytest.mark.parametrize(("lang", "text", "state"), [
    ("en", "GC left at its default, OOM at step 40", None),
    ("fr", "le batch est bien mis à 1 et le gc est désactivé, OOM au step 40", False),
])
def test_a_default_or_another_setting_states_no_gc_on(index: Index, lang: str, text: str, state: bool | None) -> None:
    assert understand(index.matcher, text, lang).stated.gradient_checkpointing is state


# --- 10. a run paused for its previews -----------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("es", "tengo el GC activado. las previews tardan 5 minutos cada una y el entreno se para, ¿puedo hacer el "
           "muestreo más barato?"),
    ("ko", "GC 켜져 있어요. 프리뷰 하나에 5분씩 걸리고 학습이 멈춰 있어요 샘플링 가볍게 할 수 있나요?"),
    ("pt", "o GC tá ligado. cada preview leva 5 minutos e o treino fica parado, dá pra deixar as amostras mais leves?"),
    ("de", "GC ist an. Jede Vorschau dauert 5 Minuten und das Training wartet, kann ich das Sampling billiger machen?"),
])
def test_a_run_paused_for_slow_previews_is_a_slowness(client: TestClient, lang: str, text: str) -> None:
    answer = diagnose(client, lang, text)
    assert answered_symptom(answer) == T
    assert _first_step(answer) == "cheapen-preview-sampling"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "the samples take 5 minutes and then the training stops with CUDA out of memory"),
    ("es", "las muestras tardan 5 minutos y luego el entreno se para por falta de memoria"),
    ("ko", "샘플 5분 걸리고 나서 학습이 메모리 부족으로 멈춰요"),
    ("de", "Samples dauern 5 Minuten, danach bleibt das Training mit out of memory stehen"),
])
def test_a_stop_with_memory_evidence_after_slow_previews_is_a_sampling_oom(
    client: TestClient, lang: str, text: str
) -> None:
    assert answered_symptom(diagnose(client, lang, text)) == "oom-during-sampling"


# --- 11. the step not known ------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "the job died with CUDA out of memory but I don't know at which step, the terminal closed"),
    ("es", "el job murió con CUDA out of memory pero no sé en qué paso, se cerró la terminal"),
    ("pt", "o job morreu com CUDA out of memory mas não sei em que passo, o terminal fechou"),
    ("fr", "le job est mort en CUDA out of memory mais je sais pas à quel step, le terminal s'est fermé"),
    ("de", "der Job ist mit CUDA out of memory gestorben, aber ich weiß nicht bei welchem Schritt, Terminal zu"),
    ("ko", "CUDA out of memory로 작업이 죽었는데 어느 스텝에서 터졌는지 모르겠어요 터미널이 꺼져서"),
])
def test_a_step_not_known_tells_no_step(client: TestClient, lang: str, text: str) -> None:
    answer = diagnose(client, lang, text)
    assert answered_symptom(answer) == G
    assert _context(answer).get("step") is None


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "at which step does it die? step 3, cuda out of memory every time"),
    ("es", "¿en qué paso muere? en el paso 3, CUDA out of memory"),
    ("ko", "3스텝에서 OOM 나요 어느 스텝인지 확실해요"),
])
def test_a_step_told_beside_the_question_is_the_step(client: TestClient, lang: str, text: str) -> None:
    answer = diagnose(client, lang, text)
    assert answered_symptom(answer) == E
    assert _context(answer).get("step") == 3
