"""Issue 12, session 11 (story11): a post that tells a past failure, what was done and the present state, six languages.

Forum users often write a follow-up: the OOM they had, what they changed (GC turned back on, GC enabled), and what
goes on now: a slow run, a run that works, a bug they found. The present state is what the answer is about: a slow run
after a remedied OOM is `slow-training` with GC on (it was turned back on), never off; an OOM remedied with the run
working now, or told beside a result or a bug report, is no symptom; an OOM feared, reported by others or named as one
not to get back is no OOM.

The other side must not move: GC enabled and the OOM goes on is `oom-persists-with-gc`; it worked before and fails
today is an OOM; a run that works for a while and then runs out of memory still runs out of memory.

Every sentence was written for this test, as forum users write in each language (none is a line of the query sets or
the real-message corpora)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.understanding.probes import diagnose, diagnosed_symptom, search

SLOW = "slow-training"

# A past OOM, GC put back, and the run slow now: slow-training, GC on.
REMEDIED_THEN_SLOW = [
    ("en", "The OOMs at step 2 were because I had turned GC off. Turned it back on and it trains now, but at 7 s/it "
           "3000 steps take all night. How do I speed it up?"),
    ("en", "update: the step 2 OOMs were me having disabled GC, re-enabled it and it trains now. but 6 s/it on flux, "
           "2000 steps take forever. any way to speed it up? not turning GC off again lol"),
    ("es", "Los OOM en el paso 2 eran porque había desactivado el GC. Lo volví a activar y ya entrena, pero va a "
           "7 s/it y 3000 pasos tardan toda la noche. ¿Cómo lo acelero?"),
    ("pt", "Os OOM no passo 2 eram porque eu tinha desligado o GC. Liguei de novo e agora treina, mas está a 7 s/it "
           "e 3000 passos levam a noite toda. Como acelero?"),
    ("fr", "Les OOM au step 2 venaient du GC que j'avais désactivé. Je l'ai réactivé et ça entraîne, mais à 7 s/it "
           "3000 steps prennent toute la nuit. Comment accélérer ?"),
    ("de", "Die OOMs bei Schritt 2 kamen daher, dass ich GC ausgeschaltet hatte. Wieder eingeschaltet, jetzt läuft "
           "es, aber mit 7 s/it dauern 3000 Schritte die ganze Nacht. Wie mache ich es schneller?"),
    ("ko", "GC를 꺼서 2스텝에서 OOM이 났었어요. GC 다시 켰더니 이제 학습은 되는데 7 s/it라서 3000스텝에 밤을 새요. "
           "어떻게 빠르게 하나요?"),
    # ... and the OOM named as one not to get back
    ("en", "Last month I had OOMs at step 3 with GC off, so now GC stays on. But now it's 8 s/it for 2000 steps. How "
           "can I make it faster without getting the OOM back?"),
    ("es", "El mes pasado tuve OOM en el paso 3 con el GC apagado, así que ahora lo dejo siempre activado. Pero ahora "
           "va a 8 s/it para 2000 pasos. ¿Cómo lo hago más rápido sin que vuelva a salir el OOM?"),
    ("pt", "Mês passado tive OOM no passo 3 com o GC desligado, então agora deixo sempre ligado. Só que agora está a "
           "8 s/it pra 2000 passos. Como deixo mais rápido sem voltar a ter OOM?"),
    ("fr", "Le mois dernier j'avais des OOM au step 3 avec le GC coupé, donc maintenant je le laisse activé. Mais "
           "maintenant c'est 8 s/it pour 2000 steps. Comment accélérer sans que l'OOM revienne ?"),
    ("de", "Letzten Monat hatte ich OOM bei Schritt 3 mit GC aus, deshalb lasse ich GC jetzt immer an. Aber jetzt "
           "sind es 8 s/it für 2000 Schritte. Wie wird es schneller, ohne dass der OOM wiederkommt?"),
    ("ko", "지난달에 GC 끄고 3스텝에서 OOM 났어서 지금은 GC 항상 켜놔요. 근데 지금 2000스텝에 8 s/it예요. "
           "OOM 다시 안 나게 빠르게 하는 방법 있나요?"),
]

# A slow run, and an OOM feared or told by others if GC goes off: slow-training, no GC state (nothing was switched).
FEARED_WHILE_SLOW = [
    ("en", "training is slow, 8 s/it for 2000 steps. I read that turning GC off makes it faster but I'm afraid of "
           "getting an OOM. What else can I do?"),
    ("es", "el entrenamiento va lento, 8 s/it para 2000 pasos. Leí que quitando el GC va más rápido pero me da miedo "
           "el OOM. ¿Qué más puedo hacer?"),
    ("pt", "o treino está lento, 8 s/it para 2000 passos. Li que desligar o GC deixa mais rápido mas tenho medo de "
           "dar OOM. O que mais posso fazer?"),
    ("fr", "l'entraînement est lent, 8 s/it pour 2000 steps. J'ai lu que couper le GC accélère mais j'ai peur d'un "
           "OOM. Je peux faire quoi d'autre ?"),
    ("ko", "학습이 느려요, 2000스텝에 8 s/it예요. GC 끄면 빨라진다던데 OOM 날까 봐 무서워요. 다른 방법 있나요?"),
]

# Left (seen, not solved): a Korean conditional on/off verb (`GC 끄면 ...`) is read as a change named, and with no
# state told firmly it gives the state (off); skipping it loses "끄면 빠르다길래 false로 바꿨거든요" (queries_long),
# where the change told after it is too far from the mention. The OOM reported (`난다고`) is no OOM already.
LEFT_GC_UNKNOWN = [
    ("ko", "학습이 너무 느려요. GC 끄면 빨라진다는데 이 모델은 GC 끄면 OOM 잘 난다고 해서 못 건드리겠어요. "
           "다른 방법 있을까요?"),
]

# An OOM remedied by a change, the run working now, or told beside a bug report: no symptom.
REMEDIED_NOW_FINE = [
    ("en", "I was getting OOM errors on my 3090. Turned gradient checkpointing on and the training is working great "
           "now, already at step 4000 and the samples look good."),
    ("es", "Ayer me daba OOM en mi 3090. Activé el gradient checkpointing y ahora el entrenamiento va genial, ya voy "
           "por el paso 4000 y las muestras se ven bien."),
    ("pt", "Ontem eu tava tendo OOM na minha 3090. Ativei o gradient checkpointing e agora o treino está funcionando "
           "muito bem, já estou no passo 4000 e as amostras estão boas."),
    ("fr", "Hier j'avais des OOM sur ma 3090. J'ai activé le gradient checkpointing et maintenant l'entraînement "
           "marche très bien, je suis déjà au step 4000 et les samples sont bons."),
    ("de", "Gestern hatte ich noch OOM-Fehler auf meiner 3090. Hab Gradient Checkpointing eingeschaltet und jetzt "
           "läuft das Training super, schon bei Schritt 4000 und die Samples sehen gut aus."),
    ("ko", "어제는 3090에서 OOM이 났었어요. gradient checkpointing 켜니까 지금은 학습 잘 돌아가요, 벌써 4000스텝이고 "
           "샘플도 좋아요."),
    ("en", "I got OOM on my 4090 with batch 4, but training with gradient checkpointing enabled works fine. By the "
           "way, the docs have a typo in the config example."),
    ("en", "got OOM on the A100 at 1024 but with gradient checkpointing enabled it works. also the readme has a broken "
           "link to the dataset script"),
    ("es", "Me daba OOM en la 4090 con batch 4, pero entrenando con gradient checkpointing activado funciona bien. "
           "Por cierto, la documentación tiene un error en el ejemplo de config."),
    ("pt", "Dava OOM na 4090 com batch 4, mas treinando com gradient checkpointing ativado funciona bem. Aliás, a "
           "documentação tem um erro no exemplo de config."),
    ("fr", "J'avais un OOM sur la 4090 en batch 4, mais avec le gradient checkpointing activé ça marche bien. Au "
           "fait, la doc a une coquille dans l'exemple de config."),
    ("de", "Ich hatte OOM auf der 4090 mit Batch 4, aber mit aktiviertem Gradient Checkpointing funktioniert es gut. "
           "Übrigens hat die Doku einen Tippfehler im Config-Beispiel."),
    ("ko", "4090에서 배치 4로 하니까 OOM이 났었는데, gradient checkpointing 켜고 하니까 잘 돼요. 그리고 문서 config "
           "예시에 오타가 있어요."),
]

# Twins that must not move: GC enabled and the OOM goes on.
STILL_OOM_WITH_GC = [
    ("en", "I enabled gradient checkpointing and it still OOMs at step 2 on my 3090."),
    ("es", "Activé el gradient checkpointing y todavía me da OOM en el paso 2 con mi 3090."),
    ("pt", "Ativei o gradient checkpointing e ainda dá OOM no passo 2 na minha 3090."),
    ("fr", "J'ai activé le gradient checkpointing et ça fait encore OOM au step 2 sur ma 3090."),
    ("de", "Hab Gradient Checkpointing eingeschaltet und es gibt immer noch OOM bei Schritt 2 auf meiner 3090."),
    ("ko", "gradient checkpointing 켰는데도 3090에서 2스텝에서 아직도 OOM 나요."),
    # ... works for a while, then runs out of memory
    ("en", "with GC on it works fine for 300 steps, then CUDA out of memory"),
    ("es", "con el GC activado funciona bien 300 pasos y luego CUDA out of memory"),
    ("fr", "avec le GC activé ça marche bien pendant 300 steps, puis CUDA out of memory"),
]

# ... and it worked before, today it fails: an OOM at step 2.
WORKED_BEFORE_OOM_NOW = [
    ("en", "it worked yesterday, today it OOMs at step 2 with the same config"),
    ("es", "ayer funcionaba, hoy me da OOM en el paso 2 con la misma config"),
    ("pt", "ontem funcionava, hoje dá OOM no passo 2 com a mesma config"),
    ("fr", "hier ça marchait, aujourd'hui OOM au step 2 avec la même config"),
    ("de", "gestern lief es noch, heute OOM bei Schritt 2 mit derselben Config"),
    ("ko", "어제는 잘 됐는데 오늘은 같은 설정으로 2스텝에서 OOM 나요"),
]


@pytest.mark.parametrize(("lang", "text"), REMEDIED_THEN_SLOW)
def test_a_slow_run_after_a_remedied_oom_is_slow_training_with_gc_on(client: TestClient, lang: str, text: str) -> None:
    answer = diagnose(client, lang, text)
    assert answer["symptom"] is not None and answer["symptom"]["id"] == SLOW  # type: ignore[index]
    assert answer["context"].get("gradient_checkpointing") is True  # type: ignore[union-attr]


@pytest.mark.parametrize(("lang", "text"), FEARED_WHILE_SLOW)
def test_an_oom_feared_beside_a_slow_run_is_slow_training_with_no_gc_state(
        client: TestClient, lang: str, text: str) -> None:
    answer = diagnose(client, lang, text)
    assert answer["symptom"] is not None and answer["symptom"]["id"] == SLOW  # type: ignore[index]
    assert "gradient_checkpointing" not in answer["context"]  # type: ignore[operator]


@pytest.mark.parametrize(("lang", "text"), REMEDIED_NOW_FINE)
def test_an_oom_remedied_and_working_now_is_no_symptom(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) is None
    assert search(client, lang, text)["match"] != "confident"


@pytest.mark.parametrize(("lang", "text"), STILL_OOM_WITH_GC)
def test_an_oom_that_goes_on_with_gc_enabled_stays(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == "oom-persists-with-gc"


@pytest.mark.parametrize(("lang", "text"), WORKED_BEFORE_OOM_NOW)
def test_it_worked_before_and_fails_today_is_an_oom(client: TestClient, lang: str, text: str) -> None:
    answer = diagnose(client, lang, text)
    assert answer["symptom"] is not None and answer["symptom"]["id"] == "oom-early-steps"  # type: ignore[index]
    assert answer["context"].get("step") == 2  # type: ignore[union-attr]


@pytest.mark.parametrize(("lang", "text"), LEFT_GC_UNKNOWN)
def test_left_an_oom_reported_is_slow_training(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == SLOW


@pytest.mark.xfail(strict=True, reason="left: see LEFT_GC_UNKNOWN")
@pytest.mark.parametrize(("lang", "text"), LEFT_GC_UNKNOWN)
def test_left_a_korean_condition_states_no_gc(client: TestClient, lang: str, text: str) -> None:
    assert "gradient_checkpointing" not in diagnose(client, lang, text)["context"]  # type: ignore[operator]
