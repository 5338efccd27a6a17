"""Issue 12, session 9 (stated9): what a post states of the run, read in every language. GC told as a lasting
state (left at its default, never turned off, on since the start, "of course"), said of a pronoun whose mention
comes after it ("lo dejé en true, el GC"), or in a reply to a quoted "turn GC on" that says it already is; an OOM
told as gone ("since the OOM is gone", "o OOM sumiu", "plus de OOM", `OOM은 없어졌는데`) or feared (`날까 봐`) in a post
about speed; GC stated on with an OOM is the guide's persisting OOM, GC only asked about is not; a change of the
batch size "from A to B" keeps B. Sentences written for the test (none is a line of a query set); checked on the
answer (`/v1/diagnose`), where a wrong GC state would change the plan.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient


def _diagnose(client: TestClient, lang: str, text: str) -> dict[str, Any]:
    answer: dict[str, Any] = client.post("/v1/diagnose", json={"query": text, "lang": lang}).json()
    return answer


# --- 1. GC stated on or off, or only asked about -----------------------------------------------------------

@pytest.mark.parametrize(("lang", "text", "state"), [
    ('en', 'I left gradient checkpointing at the default true and it still runs out of memory', True),
    ('en', 'never turned gradient checkpointing off, still CUDA out of memory on step 1', True),
    ('en', 'gradient checkpointing has been on since the start and I still get OOM', True),
    ('en', 'GC is enabled of course, but I still get out of memory', True),
    ('en', "> turn on gradient checkpointing\nit's already on, still OOM", True),
    ('en', 'gradient_checkpointing: true\nbatch_size: 1\nstill out of memory at step 0', True),
    ('en', 'I kept gradient checkpointing enabled the whole time and it OOMs', True),
    ('en', 'gradient checkpointing was always on for me, OOM anyway', True),
    ('en', 'I have gradient checkpointing turned on and it still crashes with out of memory', True),
    ('en', 'GC stays on, I never touched it. OOM at step 3', True),
    ('en', "I didn't change gradient checkpointing, it's on by default. Still OOM", True),
    ('en', 'gradient checkpointing is set to true in the config and it still OOMs', True),
    ('es', 'nunca desactivé el gradient checkpointing y sigo con out of memory', True),
    ('es', 'lo dejé en true por defecto, el gradient checkpointing, y sigue el OOM', True),
    ('es', 'el gradient checkpointing está activado desde el principio y me sigue dando OOM', True),
    ('es', 'tengo el GC activado, obvio, pero igual se queda sin memoria', True),
    ('es', '> activa el gradient checkpointing\nya lo tengo activado y sigue el OOM', True),
    ('es', 'siempre tengo el gradient checkpointing activado y aún así da out of memory', True),
    ('es', 'el gradient checkpointing sigue activado, no lo toqué, y da OOM en el paso 2', True),
    ('pt', 'deixo sempre ligado o gradient checkpointing e mesmo assim dá OOM', True),
    ('pt', 'o gradient checkpointing tá ligado desde o começo e continua dando falta de memória', True),
    ('pt', 'nunca desliguei o gradient checkpointing, continua o OOM', True),
    ('pt', '> liga o gradient checkpointing\njá tá ligado, continua dando OOM', True),
    ('pt', 'deixei o gradient checkpointing no padrão, true, e ainda dá CUDA out of memory', True),
    ('pt', 'o GC tá ativado, claro, mas continua estourando a memória', True),
    ('fr', "je l'ai laissé à on, le gradient checkpointing, et j'ai toujours un OOM", True),
    ('fr', 'le gradient checkpointing est activé depuis le début et ça plante en out of memory', True),
    ('fr', "je n'ai jamais désactivé le gradient checkpointing, toujours OOM", True),
    ('fr', "> active le gradient checkpointing\nc'est déjà activé, toujours le OOM", True),
    ('fr', 'le GC est activé bien sûr, mais je manque toujours de mémoire', True),
    ('fr', 'gradient checkpointing laissé par défaut à true, ça manque de VRAM quand même', True),
    ('de', 'gradient checkpointing steht auf true und trotzdem out of memory', True),
    ('de', 'Gradient Checkpointing ist von Anfang an aktiviert, trotzdem OOM bei Step 1', True),
    ('de', 'ich hab gradient checkpointing nie ausgeschaltet, immer noch OOM', True),
    ('de', '> mach gradient checkpointing an\nist schon an, trotzdem OOM', True),
    ('de', 'GC ist natürlich an, aber der VRAM läuft trotzdem voll', True),
    ('de', 'gradient checkpointing hab ich auf dem Standard gelassen, true, immer noch OOM', True),
    ('ko', '그래디언트 체크포인팅은 처음부터 켜져 있었어요. 그래도 OOM이 나요', True),
    ('ko', 'gradient checkpointing 한번도 끈 적 없어요. 그런데도 메모리 부족이 떠요', True),
    ('ko', '> gradient checkpointing 켜보세요\n이미 켜져 있어요. 그래도 OOM 나요', True),
    ('ko', 'GC는 당연히 켜져 있고 배치 1인데도 CUDA out of memory가 나요', True),
    ('ko', 'gradient checkpointing 기본값 true 그대로 뒀는데 OOM이 나요', True),
    ('en', 'I turned gradient checkpointing off to go faster and now it OOMs', False),
    ('en', 'I disabled GC because it was slow, now I get out of memory', False),
    ('es', 'lo apagué para ir más rápido, el gradient checkpointing, y ahora da OOM', False),
    ('es', 'desactivé el gradient checkpointing y ahora se queda sin memoria', False),
    ('pt', 'desliguei o gradient checkpointing pra ficar mais rápido e agora dá OOM', False),
    ('pt', 'desativei o GC e agora estoura a memória', False),
    ('fr', "j'ai désactivé le gradient checkpointing pour aller plus vite et maintenant OOM", False),
    ('fr', "j'ai coupé le GC, depuis j'ai des out of memory", False),
    ('de', "hab's ausgemacht, das gradient checkpointing, jetzt kommt OOM", False),
    ('de', 'ich habe gradient checkpointing deaktiviert und jetzt OOM', False),
    ('ko', 'gradient checkpointing 껐더니 OOM이 나요', False),
    ('ko', '속도 때문에 GC를 껐는데 메모리 부족이 떠요', False),
    ('en', 'should I turn gradient checkpointing on? I get out of memory', None),
    ('en', 'is gradient checkpointing on by default? I get OOM', None),
    ('es', '¿debería activar el gradient checkpointing? me da OOM', None),
    ('pt', 'vale a pena ligar o gradient checkpointing? dá OOM', None),
    ('fr', "est-ce que je dois activer le gradient checkpointing ? j'ai un OOM", None),
    ('de', 'soll ich gradient checkpointing einschalten? ich bekomme OOM', None),
    ('ko', 'gradient checkpointing 켜야 하나요? OOM이 나요', None),
    ('en', "I'd like to turn gradient checkpointing off to go faster, will it OOM?", None),
    ('en', 'gradient checkpointing is on by default in the config and I never changed it, OOM at step 2', True),
    ('en', 'GC has been enabled the whole time, batch 1, and it still runs out of VRAM', True),
    ('en', '> did you enable gradient checkpointing?\nalready enabled, still CUDA OOM', True),
    ('es', 'el GC viene activado por defecto y no lo toqué, pero da OOM en el paso 1', True),
    ('es', 'tengo el gradient checkpointing activado desde siempre y sigue sin memoria', True),
    ('es', 'lo tengo activado desde el principio, el GC, y aun así OOM', True),
    ('es', 'lo desactivé hace rato, el gradient checkpointing, porque iba lento, y ahora da OOM', False),
    ('pt', 'o GC vem ligado por padrão e eu não mexi, mas dá OOM no passo 1', True),
    ('pt', 'deixei ligado desde o começo o gradient checkpointing e continua estourando a VRAM', True),
    ('pt', 'desliguei o gradient checkpointing pra ganhar velocidade e agora estoura a memória no passo 1', False),
    ('fr', "le GC est activé par défaut et je n'y ai pas touché, mais OOM au step 1", True),
    ('fr', "je l'ai toujours laissé activé, le gradient checkpointing, et ça manque quand même de VRAM", True),
    ('fr', "je l'ai désactivé pour aller plus vite, le gradient checkpointing, et maintenant OOM", False),
    ('de', 'GC ist standardmäßig an und ich hab nichts geändert, trotzdem OOM bei Step 1', True),
    ('de', 'Gradient Checkpointing ist von Anfang an eingeschaltet, der VRAM läuft trotzdem voll', True),
    ('de', 'ich hab gradient checkpointing ausgeschaltet, damit es schneller geht, jetzt OOM', False),
    ('ko', 'GC는 기본으로 켜져 있고 건드린 적 없어요. 그런데 1스텝에서 OOM이 나요', True),
    ('ko', '그래디언트 체크포인팅 처음부터 켜져 있는데 VRAM이 부족하다고 떠요', True),
    ('ko', '속도 때문에 gradient checkpointing을 껐더니 1스텝에서 OOM이 나요', False),
    ('es', '¿el gradient checkpointing viene activado por defecto? me da OOM', None),
    ('pt', 'o gradient checkpointing vem ligado por padrão? tô tendo OOM', None),
    ('fr', "le gradient checkpointing est activé par défaut ? j'ai un OOM", None),
    ('de', 'ist gradient checkpointing standardmäßig an? ich krieg OOM', None),
    ('ko', 'gradient checkpointing 기본으로 켜져 있나요? OOM이 나요', None),
    ('en', "I want to turn gradient checkpointing off to go faster but I'm afraid of OOM, should I?", None),
    # a reply's "already" said of another thing than the quoted GC advice states nothing of GC (the lead, after the
    # merge: the bare adverb had made the quote's "turn on gradient checkpointing" the user's own state)
    ('en', '> turn on gradient checkpointing\nalready tried a smaller batch, still OOM', None),
    ('en', '> did you enable gradient checkpointing?\nI already lowered the batch to 1, OOM at step 4', None),
    ('es', '> activa el gradient checkpointing\nya bajé el batch a 1 y sigue el OOM', None),
    ('pt', '> liga o gradient checkpointing\njá fiz batch 1 e continua dando OOM', None),
    ('fr', "> active le gradient checkpointing\nj'ai déjà baissé le batch à 1, toujours OOM", None),
    ('de', '> mach gradient checkpointing an\nhab schon die Batch auf 1 gesetzt, trotzdem OOM', None),
    ('ko', '> gradient checkpointing 켜보세요\n배치는 이미 1로 줄였어요. 그래도 OOM 나요', None),
])
def test_the_gc_state_a_post_tells(client: TestClient, lang: str, text: str, state: bool | None) -> None:
    context = _diagnose(client, lang, text).get("context") or {}
    assert context.get("gradient_checkpointing") is state


# --- 2. a past, gone or feared OOM in a post about speed is no OOM symptom -----------------------------------

_OOMS = {"oom-general", "oom-early-steps", "oom-persists-with-gc", "oom-during-sampling", "oom-largest-bucket",
         "oom-intermittent", "oom-bucket-spike"}


@pytest.mark.parametrize(("lang", "text"), [
    ('en', "it used to OOM, so I turned gradient checkpointing on, now it's really slow, 9 s/it"),
    ('en', "I'm afraid it will OOM again if I turn GC off, but training is so slow. How can I speed it up?"),
    ('en', 'since the OOM is gone it crawls at 9 s/it. Any way to make it faster?'),
    ('en', 'I fixed the out of memory error by lowering the resolution, but now each step takes 12 seconds'),
    ('en', 'no more OOM after enabling gradient checkpointing, but training got twice as slow'),
    ('es', 'antes me daba OOM, así que activé el gradient checkpointing y ahora va lentísimo, 9 s/it'),
    ('es', 'tengo miedo de que vuelva a dar OOM si desactivo el GC, pero el entrenamiento es muy lento'),
    ('es', 'ya no me da out of memory pero ahora tarda 10 segundos por paso, ¿cómo lo acelero?'),
    ('pt', 'antes dava OOM, aí liguei o gradient checkpointing e agora tá muito lento, 9 s/it'),
    ('pt', 'tenho medo de dar OOM de novo se eu desligar o GC, mas o treino tá lento demais'),
    ('pt', 'o OOM sumiu mas agora cada passo leva 12 segundos, como acelerar?'),
    ('fr', "avant j'avais des OOM, donc j'ai activé le gradient checkpointing, maintenant c'est super lent, 9 s/it"),
    ('fr', "j'ai peur d'avoir un OOM si je désactive le GC, mais l'entraînement est trop lent"),
    ('fr', 'plus de out of memory, mais maintenant ça rame à 10 s par step, comment accélérer ?'),
    ('de', 'früher hatte ich OOM, also hab ich gradient checkpointing angemacht, jetzt ist es extrem langsam, 9 s/it'),
    ('de', 'ich hab Angst, dass es wieder OOM gibt, wenn ich GC ausschalte, aber das Training ist viel zu langsam'),
    ('de', 'seit der OOM weg ist, kriecht es mit 9 s/it. Wie wird es schneller?'),
    ('ko', '예전에 OOM이 나서 gradient checkpointing을 켰더니 이제 너무 느려요, 9 s/it'),
    ('ko', 'GC 끄면 다시 OOM 날까 봐 무서운데 학습이 너무 느려요'),
    ('ko', 'OOM은 없어졌는데 이제 스텝당 10초씩 걸려요. 어떻게 빠르게 하죠?'),
    ('en', 'no more OOM since I enabled GC, but it went from 2 s/it to 6 s/it. Is that normal?'),
    ('fr', "plus de OOM depuis que j'ai activé le GC, par contre c'est passé de 2 s/it à 6 s/it"),
    ('es', 'el OOM se fue al activar el GC pero ahora va a 6 s/it, ¿es normal que sea tan lento?'),
    ('de', 'der OOM ist weg, seit GC an ist, aber jetzt 6 s/it statt 2. Ist das normal so langsam?'),
    ('pt', 'o OOM foi embora depois que liguei o GC, mas agora tá 6 s/it. É normal ficar tão lento?'),
    ('ko', 'GC 켜니까 OOM은 사라졌는데 2 s/it에서 6 s/it으로 느려졌어요. 정상인가요?'),
    ('en', 'I was getting OOMs last week, switched GC on and they stopped, but now 1000 steps take 5 '
           'hours. How to speed up?'),
    ('en', 'worried it will run out of memory if I disable gradient checkpointing, but 8 s/it is painful. '
           'faster options?'),
    ('en', 'the OOM went away after I enabled GC, training is just really slow now, 10 s/it on a 4090'),
    ('en', 'in the past it ran out of memory at 1024, now with GC it works but takes forever. any way to '
           'make it quicker?'),
    ('es', 'la semana pasada me daba OOM, activé el GC y se fue, pero ahora 1000 pasos tardan 5 horas. '
           '¿cómo lo acelero?'),
    ('es', 'me preocupa que se quede sin memoria si quito el GC, pero 8 s/it es lentísimo. ¿alternativas más rápidas?'),
    ('es', 'el OOM desapareció al activar el GC, ahora solo va muy lento, 10 s/it en una 4090'),
    ('pt', 'semana passada dava OOM, liguei o GC e parou, mas agora 1000 passos levam 5 horas. como acelerar?'),
    ('pt', 'tenho medo de faltar memória se eu desligar o GC, mas 8 s/it tá muito lento. tem algo mais rápido?'),
    ('pt', 'o OOM sumiu depois que ativei o GC, agora só tá muito lento, 10 s/it numa 4090'),
    ('fr', "la semaine dernière j'avais des OOM, j'ai activé le GC et c'est parti, mais maintenant 1000 "
           "steps prennent 5 heures. comment accélérer ?"),
    ('fr', "j'ai peur de manquer de mémoire si je désactive le GC, mais 8 s/it c'est trop lent. des "
           "options plus rapides ?"),
    ('fr', "le OOM a disparu après avoir activé le GC, maintenant c'est juste très lent, 10 s/it sur une 4090"),
    ('de', 'letzte Woche hatte ich OOM, hab GC angemacht und er ist weg, aber jetzt dauern 1000 Steps 5 '
           'Stunden. Wie wird es schneller?'),
    ('de', 'ich hab Angst, dass der VRAM ausgeht, wenn ich GC ausschalte, aber 8 s/it ist zu langsam. '
           'Schnellere Optionen?'),
    ('de', 'der OOM ist verschwunden, seit GC an ist, jetzt ist es nur sehr langsam, 10 s/it auf einer 4090'),
    ('ko', '지난주엔 OOM이 났는데 GC 켜니까 없어졌어요. 근데 이제 1000스텝에 5시간 걸려요. 빠르게 할 방법 있나요?'),
    ('ko', 'GC 끄면 메모리 부족 날까 봐 못 끄겠는데 8 s/it은 너무 느려요. 더 빠른 방법 있을까요?'),
    ('ko', 'GC 켜고 나서 OOM은 사라졌는데 4090에서 10 s/it으로 너무 느려요'),
])
def test_an_oom_over_or_feared_leaves_the_speed(client: TestClient, lang: str, text: str) -> None:
    answer = _diagnose(client, lang, text)
    assert (answer.get("symptom") or {}).get("id") not in _OOMS
    assert [s["id"] for s in answer.get("steps", [])][:1] != ["reduce-batch-size"]


@pytest.mark.parametrize(("lang", "text"), [
    ('en', 'it used to train fine but now it OOMs at step 1 every time'),
    ('fr', "le OOM n'est pas parti, toujours out of memory au step 1"),
    ('en', 'is the OOM gone if I use batch 1? right now it crashes with CUDA out of memory'),
])
def test_an_oom_told_now_stays(client: TestClient, lang: str, text: str) -> None:
    assert (_diagnose(client, lang, text).get("symptom") or {}).get("id") in _OOMS


# --- 3. GC stated on with an OOM persists -----------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ('en', 'gradient checkpointing is on and I still get CUDA out of memory'),
    ('en', 'I have GC enabled, batch size 1, and it still OOMs at 768'),
    ('en', 'even with gradient checkpointing enabled I run out of VRAM after a few steps'),
    ('es', 'tengo el gradient checkpointing activado y sigue dando out of memory'),
    ('pt', 'o gradient checkpointing tá ligado e continua dando OOM'),
    ('pt', 'mesmo com o GC ligado e batch 1 estoura a memória'),
    ('fr', "le gradient checkpointing est activé et j'ai toujours un CUDA out of memory"),
    ('de', 'gradient checkpointing ist an und trotzdem kommt CUDA out of memory'),
    ('de', 'selbst mit GC an läuft der VRAM nach ein paar Steps voll'),
    ('ko', 'gradient checkpointing 켜져 있는데도 계속 OOM이 나요'),
    ('fr', 'même avec le GC activé, je manque de VRAM dès les premiers steps'),
    ('ko', 'GC 켜고 배치 1인데 처음 몇 스텝에서 메모리 부족이 떠요'),
    ('es', 'aun con GC activado se queda sin VRAM en los primeros pasos'),
    ('en', 'gradient checkpointing is on, batch 1, and it OOMs at step 1 right away'),
    ('de', 'GC ist an und trotzdem OOM direkt bei Step 1'),
    ('pt', 'com o GC ligado dá OOM logo no passo 1'),
])
def test_gc_on_with_an_oom_persists(client: TestClient, lang: str, text: str) -> None:
    assert (_diagnose(client, lang, text).get("symptom") or {}).get("id") == "oom-persists-with-gc"


# --- 4. a change of the batch size keeps the new value -------------------------------------------------------

@pytest.mark.parametrize(("lang", "text", "batch"), [
    ('en', 'I went from batch 4 to 1 and it still OOMs', 1),
    ('en', 'lowered batch size from 8 to 2, still out of memory', 2),
    ('en', 'dropped the batch size from 4 down to 1 but the OOM is still there', 1),
    ('en', 'reduced my batch from 8 to 2', 2),
    ('es', 'bajé el batch de 4 a 1 y sigue el OOM', 1),
    ('es', 'reduje el batch size de 8 a 2 y nada, out of memory', 2),
    ('pt', 'baixei o batch de 4 pra 1 e continua dando OOM', 1),
    ('pt', 'reduzi o batch size de 8 para 2, ainda falta memória', 2),
    ('fr', 'baissé le batch de 8 à 2, toujours OOM', 2),
    ('fr', "j'ai réduit le batch size de 4 à 1 mais j'ai toujours out of memory", 1),
    ('de', 'Batch von 4 auf 2 runter, immer noch OOM', 2),
    ('de', 'ich hab die Batch Size von 8 auf 1 reduziert und trotzdem OOM', 1),
    ('ko', '배치를 4에서 1로 줄였는데도 OOM이 나요', 1),
    ('ko', '배치 사이즈 8에서 2로 낮췄는데 메모리 부족이 떠요', 2),
    ('en', 'batch 2 now, it was 4 before, still OOM', 2),
    ('en', 'batch size went from 4 to 2 and the OOM is still there at 1024', 2),
    ('en', 'cut batch from 2 all the way down to 1, still CUDA out of memory', 1),
    ('es', 'pasé el batch de 2 a 1 y sigue sin memoria', 1),
    ('es', 'cambié el batch size de 4 a 2, igual OOM en el paso 1', 2),
    ('pt', 'mudei o batch de 4 para 2 e continua o OOM', 2),
    ('pt', 'o batch size foi de 2 pra 1 e mesmo assim falta VRAM', 1),
    ('fr', 'passé le batch size de 2 à 1, toujours out of memory', 1),
    ('fr', "j'ai descendu le batch de 4 à 2 et ça plante toujours en OOM", 2),
    ('de', 'batch size von 2 auf 1 gesenkt, trotzdem OOM', 1),
    ('de', 'hab die Batch von 8 auf 2 gestellt, immer noch out of memory', 2),
    ('ko', '배치 4에서 2로 바꿨는데도 OOM이 나요', 2),
    ('ko', '배치 사이즈를 2에서 1로 내렸는데 메모리 부족이 계속 떠요', 1),
])
def test_a_batch_change_keeps_the_new_value(client: TestClient, lang: str, text: str, batch: int) -> None:
    assert (_diagnose(client, lang, text).get("context") or {}).get("batch_size") == batch


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "should I turn gradient checkpointing on? I get CUDA out of memory at 1024"),
    ("en", "is gradient checkpointing on by default? I get OOM"),
    ("es", "¿debería activar el gradient checkpointing? me da OOM con batch 2"),
    ("pt", "vale a pena ligar o gradient checkpointing? tá dando OOM"),
    ("fr", "est-ce que je dois activer le gradient checkpointing ? j'ai un OOM"),
    ("de", "soll ich gradient checkpointing einschalten? ich bekomme OOM"),
    ("ko", "gradient checkpointing 켜야 하나요? OOM이 나요"),
])
def test_gc_only_asked_about_is_no_persisting_oom(client: TestClient, lang: str, text: str) -> None:
    answer = _diagnose(client, lang, text)
    assert (answer.get("symptom") or {}).get("id") != "oom-persists-with-gc"
    assert (answer.get("context") or {}).get("gradient_checkpointing") is None


# --- 5. a switch put back "without other changes" is no GC off; "GC on" in French -----------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "turned gradient checkpointing back on, without any other changes, and it still OOMs"),
    ("es", "volví a activar el GC, sin otros cambios, y sigue el OOM"),
    ("pt", "religuei o gradient checkpointing, sem outras mudanças, e continua o OOM"),
    ("fr", "j'ai réactivé le GC, sans autre changement, toujours OOM"),
    ("de", "GC wieder eingeschaltet, ohne weitere Änderungen, immer noch OOM"),
    ("fr", "GC on, batch 1, et toujours out of memory"),
    ("fr", "j'ai le GC on et batch 2, ça plante quand même en OOM"),
])
def test_gc_back_on_without_other_changes(client: TestClient, lang: str, text: str) -> None:
    assert (_diagnose(client, lang, text).get("context") or {}).get("gradient_checkpointing") is True


@pytest.mark.parametrize(("lang", "text"), [
    ('en', 'I turned gradient checkpointing off and now it OOMs at step 2'),
    ('es', 'desactivé el GC y ahora da OOM en el paso 2'),
    ('fr', "j'ai désactivé le GC et maintenant OOM au step 2"),
    ('de', 'GC ausgeschaltet und jetzt OOM bei Step 2'),
    ('pt', 'desliguei o GC e agora dá OOM no passo 2'),
    ('ko', 'GC 껐더니 2스텝에서 OOM이 나요'),
])
def test_gc_turned_off_then_an_early_oom(client: TestClient, lang: str, text: str) -> None:
    assert (_diagnose(client, lang, text).get("symptom") or {}).get("id") == "oom-early-steps"
