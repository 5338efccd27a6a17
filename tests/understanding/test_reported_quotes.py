"""Issue 12, session 17: three readings of a follow-up post, found in blind set 14 ("OOM fixed, now it's slow, may I
turn GC off again?"). Another person's words quoted under a line that introduces them ("A friend told me:", "En
Reddit uno puso:", "Um amigo falou:", "Sur le Discord quelqu'un m'a répondu :", "Jemand meinte:", "누가 이렇게
말했어요:"; profile `sentences.reports`) are theirs: the GC state, the sizes and the crash they name are not the
user's. A question proposing a trial ("is it time to test with GC off?", "¿pruebo con GC apagado?", "É hora de
testar com GC desligado?") states no GC state. A run told stable after the change ("turned GC back on and it's been
stable since", "desde entonces cero errores", "ça tourne nickel depuis") closes the OOM before it. Twins keep what
the user tells as theirs. Sentences written for the test, in every language (none is a line of a query set)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.understanding.probes import answered_symptom, diagnose, diagnosed_context

REPORTED = [
    ("en", "it's stable with GC on but slow, 3 s/it. A friend told me:\n> turn GC off, it only crashed because of "
           "your 1024 bucket\nis that safe?"),
    ("es", "va estable con el GC activado pero lento, 3 s/it. En Reddit uno puso:\n> quita el GC, solo petaba por "
           "el bucket de 1024\n¿es seguro?"),
    ("pt", "tá estável com o GC ligado mas lento, 3 s/it. Um amigo falou:\n> desliga o GC, só travava por causa do "
           "bucket de 1024\né seguro?"),
    ("fr", "c'est stable avec le GC activé mais lent, 3 s/it. Sur le Discord quelqu'un m'a répondu :\n> coupe le GC, "
           "ça plantait juste à cause du bucket 1024\nc'est sûr ?"),
    ("de", "läuft stabil mit GC an, aber langsam, 3 s/it. Jemand meinte:\n> mach GC aus, es ist nur wegen dem "
           "1024er Bucket abgestürzt\nist das sicher?"),
    ("ko", "GC 켜고 안정적이긴 한데 느려요, 3 s/it. 누가 이렇게 말했어요:\n> GC 꺼, 1024 버킷 때문에 터진 거야\n"
           "괜찮을까요?"),
]


@pytest.mark.parametrize(("lang", "text"), REPORTED)
def test_a_quote_another_person_wrote_is_theirs(client: TestClient, lang: str, text: str) -> None:
    answer = diagnose(client, lang, text)
    assert answered_symptom(answer) == "slow-training"
    context = answer["context"]
    assert isinstance(context, dict)
    assert context.get("gradient_checkpointing") is True
    assert 1024 not in (context.get("resolutions") or [])


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "the console said:\n> CUDA out of memory. Tried to allocate 2.00 GiB\nit crashes at step 2 with GC off"),
    ("es", "la consola dijo:\n> CUDA out of memory. Tried to allocate 2.00 GiB\nme da OOM en el paso 2 con el GC "
           "apagado"),
])
def test_a_quoted_log_line_stays_the_run_s(client: TestClient, lang: str, text: str) -> None:
    answer = diagnose(client, lang, text)
    assert answered_symptom(answer) in ("oom-early-steps", "oom-general")
    assert answer["signals"], answer  # the quoted OOM line is read as the run's log


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "it's slow at 3 s/it. Is it time to test with GC off?"),
    ("es", "va lento, a 3 s/it. ¿Pruebo con el GC apagado?"),
    ("pt", "tá lento, 3 s/it. É hora de testar com GC desligado?"),
    ("fr", "c'est lent, 3 s/it. Je peux tester avec le GC désactivé ?"),
    ("de", "es ist langsam, 3 s/it. Zeit zu testen mit GC aus?"),
    ("ko", "3 s/it로 느려요. GC 꺼봐도 될까요?"),
])
def test_a_trial_asked_states_no_gc(client: TestClient, lang: str, text: str) -> None:
    context = diagnosed_context(client, lang, text)
    assert "gradient_checkpointing" not in context


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I had the step 2 crash, turned GC back on and it's been stable since. Now it's 3 s/it instead of 1.5"),
    ("es", "se me moría en el paso 2, volví a activar el GC y desde entonces cero errores. Ahora va a 3 s/it"),
    ("pt", "travava no passo 2, religuei o GC e tá estável desde então. Agora tá 3 s/it"),
    ("fr", "ça plantait au step 2, j'ai remis le GC, ça tourne nickel depuis. Maintenant c'est 3 s/it"),
    ("de", "ist bei Step 2 abgestürzt, GC wieder eingeschaltet, seitdem stabil. Jetzt 3 s/it"),
    ("ko", "2스텝에서 터지던 거 GC 다시 켜니까 안정적으로 돌아가요. 근데 이제 3 s/it예요"),
])
def test_a_run_told_stable_after_the_change_is_no_oom(client: TestClient, lang: str, text: str) -> None:
    assert answered_symptom(diagnose(client, lang, text)) == "slow-training"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I turned GC back on and it still crashes at step 2"),
    ("es", "volví a activar el GC y sigue muriéndose en el paso 2"),
])
def test_a_change_with_the_crash_going_on_keeps_it(client: TestClient, lang: str, text: str) -> None:
    assert answered_symptom(diagnose(client, lang, text)) in ("oom-persists-with-gc", "oom-early-steps")


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "the yaml above shows `gradient_checkpointing: true`, but I turned it off later, so now it's off. OOM at "
           "step 2"),
    ("es", "el yaml de arriba dice `gradient_checkpointing: true`, pero luego lo puse a false, así que ahora está "
           "apagado. OOM en el paso 2"),
    ("pt", "o yaml mostra `gradient_checkpointing: true`, mas depois eu desliguei, então agora tá off. OOM no passo 2"),
    ("fr", "le yaml plus haut montre `gradient_checkpointing: true`, mais ensuite je l'ai désactivé, donc maintenant "
           "c'est off. OOM au step 2"),
    ("de", "im yaml oben steht `gradient_checkpointing: true`, aber danach hab ich es ausgeschaltet, jetzt ist es "
           "aus. OOM bei Step 2"),
    ("ko", "위에 올린 설정에는 `gradient_checkpointing: true`로 돼있는데 그건 예전 거고 지금은 꺼놨어요. "
           "2스텝에서 OOM"),
])
def test_the_file_told_as_the_file_gives_way_to_the_switch_told_after(client: TestClient, lang: str,
                                                                        text: str) -> None:
    context = diagnosed_context(client, lang, text)
    assert context.get("gradient_checkpointing") is False


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "GC is already on!\n```\ntrain:\n  gradient_checkpointing: false\n```\nOOM at step 2"),
    ("es", "¡el GC ya está activado!\n```\ntrain:\n  gradient_checkpointing: false\n```\nOOM en el paso 2"),
])
def test_a_pasted_file_beats_a_belief_about_it(client: TestClient, lang: str, text: str) -> None:
    context = diagnosed_context(client, lang, text)
    assert context.get("gradient_checkpointing") is False


SHARED = [
    ("en", "my buddy trains flux with gradient checkpointing off, no problem. I copied his config and mine dies at "
           "step 3"),
    ("es", "mi colega entrena flux con el GC apagado sin problema. Tengo la misma config y a mí se me muere en el "
           "paso 3"),
    ("pt", "meu amigo treina flux com o GC desligado de boa. Eu uso a mesma config e o meu morre no passo 3"),
    ("fr", "un pote entraîne flux avec le GC désactivé sans souci. Il a exactement ma config et chez moi ça plante "
           "au step 3"),
    ("de", "mein Kumpel trainiert flux mit GC aus ohne Probleme. Ich hab die gleiche Config und bei mir stürzt es "
           "bei Step 3 ab"),
    ("ko", "친구는 GC 끄고 flux 잘 돌리는데, 저는 같은 설정 그대로 쓰니까 3스텝에서 죽어요"),
]


@pytest.mark.parametrize(("lang", "text"), SHARED)
def test_another_s_settings_copied_are_the_user_s(client: TestClient, lang: str, text: str) -> None:
    context = diagnosed_context(client, lang, text)
    assert context.get("gradient_checkpointing") is False


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "my buddy trains flux with gradient checkpointing off, no problem. Mine dies at step 3"),
    ("es", "mi colega entrena flux con el GC apagado sin problema. A mí se me muere en el paso 3"),
])
def test_another_s_settings_alone_are_theirs(client: TestClient, lang: str, text: str) -> None:
    context = diagnosed_context(client, lang, text)
    assert "gradient_checkpointing" not in context


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "> turn GC on\nit's been on from the start. still runs out"),
    ("es", "> activa el GC\nestá activado desde el principio. sigue reventando"),
    ("pt", "> liga o GC\ntá ligado desde o começo. continua estourando"),
    ("fr", "> active le GC\nil est activé depuis le début. ça plante quand même"),
    ("de", "> mach GC an\nist seit anfang an. läuft trotzdem voll"),
    ("ko", "> GC 켜세요\n처음부터 켜져 있는데요 ㅠ 그래도 터짐"),
])
def test_a_reply_that_gc_was_on_all_along_keeps_the_failure(client: TestClient, lang: str, text: str) -> None:
    assert answered_symptom(diagnose(client, lang, text)) == "oom-persists-with-gc"


@pytest.mark.parametrize(("lang", "text", "gc"), [
    ("en", "oom every time. gc is on, samples are 1024", True),
    ("en", "oom every time, gc is on", True),
    ("en", "i turned off gradient check pointing and now it crashes at step 2 out of memory", False),
])
def test_gc_named_beside_a_saved_file_word_of_another_clause(client: TestClient, lang: str, text: str,
                                                              gc: bool) -> None:
    context = diagnosed_context(client, lang, text)
    assert context.get("gradient_checkpointing") is gc


@pytest.mark.parametrize(("lang", "text"), [
    ("es", "No tengo OOM."), ("pt", "Não tenho OOM nenhum."), ("pt", "Não tenho OOM."),
    ("en", "I don't have any OOM."), ("fr", "Je n'ai aucun OOM."), ("de", "Ich habe keinen OOM."),
    ("ko", "OOM은 전혀 없어요."),
])
def test_an_oom_denied_by_a_negation_phrase_is_none(client: TestClient, lang: str, text: str) -> None:
    """A negation of the vocabulary written as a phrase ("no tengo", "não tenho") denies what follows it."""
    assert answered_symptom(diagnose(client, lang, text)) is None
