"""Issue 12, session 11 (scope11: a `none` post read as a training symptom): a sentence that tells the training
finished well ("the training went fine in ai toolkit, finished all 2000 steps", "das Training lief problemlos durch",
"학습은 문제없이 끝났어요") tells nothing of the problem (`intents.yaml` `sentences.courtesy`, `run_done`): the
training, steps and samples named there no longer keep an OOM told of ComfyUI at generation time in the guide's
domain. Twins keep their symptom: the same words about the training failing, and a finished-well sentence that
turns ("went fine for 500 steps, then OOM", "lief problemlos, aber bei Schritt 2 OOM"), tells a weak result or a speed,
or states GC. A run stalled with the GPU at 0% beside a hang or no error is no slowness of the training (its
twins name a rate).
Sentences written for the test, as forum users write (none is a line of the real-message corpora or blind sets)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.understanding.probes import diagnose, diagnosed_symptom, search


def _none(client: TestClient, lang: str, text: str) -> None:
    """No symptom, and no search hit that follows one."""
    assert diagnose(client, lang, text)["symptom"] is None
    assert search(client, lang, text)["match"] == "none"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "the training went fine in ai toolkit, finished all 2000 steps. now when i generate with my lora in comfyui "
           "at 1536 it runs out of vram"),
    ("es", "el entrenamiento terminó sin problemas en ai toolkit. ahora en comfyui me quedo sin vram cuando genero con "
           "mi lora a 1536"),
    ("pt", "o treino terminou de boa no ai toolkit, todos os 2000 passos. agora no comfyui fica sem vram quando gero "
           "com a minha lora em 1536"),
    ("fr", "l'entraînement s'est bien passé dans ai toolkit, 2000 steps. maintenant dans comfyui je manque de vram "
           "quand je génère avec ma lora en 1536"),
    ("de", "Das Training in AI Toolkit lief problemlos durch, 2000 Schritte. Jetzt geht mir in ComfyUI der VRAM aus, "
           "wenn ich mit meiner LoRA in 1536 generiere"),
    ("ko", "AI Toolkit에서 로라 학습은 문제없이 끝났어요. 근데 컴피에서 제 로라로 1536 이미지 생성하면 "
           "VRAM 부족이 떠요"),
])
def test_an_oom_at_generation_after_a_finished_run_is_none(client: TestClient, lang: str, text: str) -> None:
    _none(client, lang, text)


@pytest.mark.parametrize(("lang", "text", "symptom"), [
    ("en", "the training in comfyui OOMs at step 2 when I start it", "oom-early-steps"),
    ("es", "el entrenamiento se queda sin vram en el paso 2", "oom-early-steps"),
    ("pt", "o treino dá OOM no passo 2 logo no começo", "oom-early-steps"),
    ("fr", "l'entraînement plante en OOM au step 2", "oom-early-steps"),
    ("de", "Das Training bricht bei Schritt 2 mit OOM ab", "oom-early-steps"),
    ("ko", "학습이 2스텝에서 OOM 나요", "oom-early-steps"),
    ("en", "the training went fine for 500 steps, then OOM at step 501 when the 1536 bucket came up",
     "oom-bucket-spike"),
    ("de", "Das Training lief problemlos, aber bei Schritt 2 kommt OOM", "oom-early-steps"),
    ("fr", "l'entraînement s'est bien passé, mais les samples ne ressemblent pas du tout à mon personnage",
     "weak-samples"),
    ("es", "el entrenamiento terminó sin problemas, pero la lora no se parece nada a mí", "weak-samples"),
    ("pt", "o treino terminou de boa com o gradient checkpointing ligado, mas demora 8 horas pra 2000 passos",
     "slow-training"),
])
def test_a_failing_or_turning_training_keeps_its_symptom(client: TestClient, lang: str, text: str,
                                                          symptom: str) -> None:
    assert diagnosed_symptom(client, lang, text) == symptom


@pytest.mark.parametrize(("lang", "text"), [
    ("fr", "Mes entraînements passent sans souci avec le gradient checkpointing activé, mais pourquoi ça coûte de la "
           "vitesse ?"),
    ("en", "My runs went fine with gradient checkpointing on, why is it slower though?"),
])
def test_gc_told_in_a_finished_run_is_still_read(client: TestClient, lang: str, text: str) -> None:
    assert diagnose(client, lang, text)["context"]["gradient_checkpointing"] is True


@pytest.mark.parametrize(("lang", "text"), [
    ("de", "Das Training in AI Toolkit lief problemlos durch, 3000 Schritte, alles gut. Wie exportiere ich die LoRA?"),
    ("en", "trained 1500 steps without any issues, now how do I use the lora in forge?"),
])
def test_a_finished_runs_step_count_is_no_failing_step(client: TestClient, lang: str, text: str) -> None:
    assert diagnose(client, lang, text)["context"].get("step") is None


# --- a run stalled with the GPU at 0% (`implies` stalled, `outside` stalled): a hang, no slowness of the training ----

@pytest.mark.parametrize(("lang", "text"), [
    ("en", 'stuck at "caching latents" for 40 minutes, no error at all, gpu at 0%. restarted twice, same spot'),
    ("es", 'se queda parado en "quantizing transformer" hace media hora, sin ningún error, la gpu al 0%'),
    ("pt", 'fica parado em "loading model" faz 40 minutos, sem erro nenhum, a gpu fica em 0%'),
    ("fr", 'bloqué sur "caching latents" depuis 40 minutes, aucune erreur, le GPU est à 0 %'),
    ("de", 'hängt seit 40 Minuten bei "Quantizing transformer", keine Fehlermeldung, GPU bei 0 %'),
    ("ko", "모델 로딩에서 40분째 멈춰있어요. 에러도 없고 gpu 사용률 0%예요"),
])
def test_a_run_stalled_with_an_idle_gpu_is_none(client: TestClient, lang: str, text: str) -> None:
    _none(client, lang, text)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "training is stuck at 30 s/it, gpu at 0% most of the time, no error"),
    ("en", "gpu usage is only 30% and training is really slow, 8 s/it"),
    ("es", "el entrenamiento va lentísimo, 30 s/it, sin ningún error"),
    ("pt", "o treino tá muito lento, 25 s/it, sem erro nenhum"),
    ("fr", "l'entraînement est super lent, 30 s/it, aucune erreur"),
    ("de", "Das Training ist extrem langsam, 30 s/it, keine Fehlermeldung"),
    ("ko", "학습이 너무 느려요 30 s/it 나와요 에러는 없어요"),
    ("en", "training is really slow, gpu at 0% most of the time and it freezes every few steps"),
    ("es", "el entrenamiento se congela cada pocos pasos y la gpu al 0%, va lentísimo"),
    ("de", "Training hängt immer wieder kurz, GPU bei 0 %, insgesamt extrem langsam"),
])
def test_a_slow_run_with_its_rate_or_told_slow_stays_slow(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == "slow-training"
