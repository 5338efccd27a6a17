"""A template's reproduction steps and its environment section are the form's routine (issue 12): "1. Start the job
with my config" and "- Trainer: ai-toolkit" name the training, but a question on billing or a LoRA that does nothing
in ComfyUI above them is no symptom of the training (`wrapped.routine_lines`, `quiet_lines.template_routine`),
while a real symptom in the same template keeps its answer, and a step that tells a failure ("2. it crashes with CUDA
out of memory at step 2") still tells it. Probes written as forum users write, in six languages; `bench/wrappers.py
--only template_job` counts the same over every right item."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from remedy.understanding.wrapped import Wrapping, routine_lines
from tests.understanding.probes import answered_symptom, diagnose, search
from tests.understanding.test_wrappers import SYSTEM, TEMPLATE

# Reproduction steps that name the training and nothing of what goes wrong, a few wordings per language.
STEPS = {
    "en": ("1. Start the job with my config", "1. Run the training with the attached yaml\n2. Wait",
           "1. Launch a LoRA training from the UI"),
    "es": ("1. Lanzo el entrenamiento con mi config", "1. Ejecuto el entrenamiento con el yaml adjunto\n2. Espero"),
    "pt": ("1. Inicio o treino com a minha config", "1. Rodo o treinamento com o yaml em anexo\n2. Espero"),
    "fr": ("1. Je lance l'entraînement avec ma config", "1. Lancer le training avec le yaml joint\n2. Attendre"),
    "de": ("1. Training mit meiner Config starten", "1. Das Training mit der angehängten YAML starten\n2. Warten"),
    "ko": ("1. 제 설정으로 학습 시작", "1. 첨부한 설정 파일로 학습 실행\n2. 기다리기"),
}
# An environment section that names the trainer and the job, as forms ask for them.
ENVIRONMENT = {
    "en": "- Trainer: ai-toolkit, latest main\n- Job: Flux LoRA training, batch 1",
    "es": "- Trainer: ai-toolkit, última versión\n- Entrenamiento: LoRA de Flux, batch 1",
    "pt": "- Trainer: ai-toolkit, última versão\n- Treino: LoRA de Flux, batch 1",
    "fr": "- Trainer : ai-toolkit, dernière version\n- Entraînement : LoRA Flux, batch 1",
    "de": "- Trainer: ai-toolkit, aktueller main\n- Job: Flux LoRA Training, Batch 1",
    "ko": "- 트레이너: ai-toolkit 최신 버전\n- 학습: Flux LoRA, 배치 1",
}
# What the guide does not answer: the account's billing or email, a LoRA that does nothing or looks blurry in ComfyUI
# (a generation, not the training), a video call's quality.
NONE = {
    "en": ("how do I change the credit card on my account?",
           "the lora I downloaded does nothing in ComfyUI, the images look the same with and without it",
           "how do I change the email address of my account?",
           "when I generate in comfy with my lora everything comes out blurry",
           "the video quality on my Zoom calls is really bad lately"),
    "es": ("¿cómo cambio la tarjeta de crédito de mi cuenta?",
           "el lora que bajé no hace nada en ComfyUI, las imágenes salen iguales con y sin él",
           "¿cómo cambio el email de mi cuenta?", "cuando genero en comfy con mi lora todo sale borroso",
           "la calidad del video en las llamadas de Zoom es malísima"),
    "pt": ("como troco o cartão de crédito da minha conta?",
           "a lora que baixei não faz nada no ComfyUI, as imagens saem iguais com e sem ela",
           "como eu mudo o email da minha conta?", "quando gero no comfy com a minha lora sai tudo borrado",
           "a qualidade do vídeo nas chamadas de Zoom tá horrível"),
    "fr": ("comment je change la carte bancaire de mon compte ?",
           "le lora que j'ai téléchargé ne fait rien dans ComfyUI, les images sont pareilles avec et sans",
           "comment je change l'adresse mail de mon compte ?", "quand je génère dans comfy avec mon lora tout est flou",
           "la qualité vidéo de mes appels Zoom est vraiment mauvaise"),
    "de": ("wie ändere ich die Kreditkarte in meinem Konto?",
           "das runtergeladene LoRA macht in ComfyUI gar nichts, die Bilder sehen mit und ohne gleich aus",
           "wie ändere ich die E-Mail-Adresse von meinem Konto?",
           "wenn ich in comfy mit meinem lora generiere ist alles unscharf",
           "die Videoqualität in meinen Zoom-Calls ist echt schlecht"),
    "ko": ("계정에 등록된 신용카드 어떻게 바꿔요?",
           "다운받은 로라가 ComfyUI에서 아무 효과가 없어요 넣으나 안 넣으나 이미지가 똑같아요",
           "계정 이메일 주소는 어디서 바꿔요?", "comfy에서 제 로라로 생성하면 전부 흐릿하게 나와요",
           "줌 통화 화질이 너무 안 좋아요"),
}
# Their twins: a symptom of the guide told in the same template (an OOM at the second step, a slow run).
TWINS = {
    "en": ("training crashes at step 2 with CUDA out of memory",
           "training got really slow, 12 s/it on a 4090 with gradient checkpointing on"),
    "es": ("el entrenamiento se cae en el paso 2 con CUDA out of memory",
           "el entrenamiento va lentísimo, 12 s/it en una 4090 con gradient checkpointing activado"),
    "pt": ("o treino cai no passo 2 com CUDA out of memory",
           "o treino ficou muito lento, 12 s/it numa 4090 com gradient checkpointing ligado"),
    "fr": ("l'entraînement plante à l'étape 2 avec CUDA out of memory",
           "l'entraînement est devenu super lent, 12 s/it sur une 4090 avec le gradient checkpointing activé"),
    "de": ("das Training bricht bei Schritt 2 mit CUDA out of memory ab",
           "das Training ist extrem langsam geworden, 12 s/it auf einer 4090 mit Gradient Checkpointing an"),
    "ko": ("학습이 2 스텝에서 CUDA out of memory로 죽어요",
           "학습이 너무 느려졌어요 4090에서 gradient checkpointing 켜고 12 s/it 나와요"),
}
# A step that tells the failure itself: the steps are then what the post tells.
FAILING_STEP = {
    "en": "2. it crashes with CUDA out of memory at step 2", "es": "2. se cae con CUDA out of memory en el paso 2",
    "pt": "2. cai com CUDA out of memory no passo 2", "fr": "2. ça plante avec CUDA out of memory à l'étape 2",
    "de": "2. es bricht mit CUDA out of memory bei Schritt 2 ab", "ko": "2. 2 스텝에서 CUDA out of memory로 죽어요",
}
# ... under a description that tells nothing of its own.
NOTHING = {"en": "it doesn't work for me", "es": "no me funciona", "pt": "não funciona pra mim",
           "fr": "ça ne marche pas chez moi", "de": "bei mir funktioniert es nicht", "ko": "저는 안 돼요"}
LANGS = tuple(STEPS)


def template(lang: str, body: str, steps: str) -> str:
    describe, reproduce, expected, expectation, system = TEMPLATE[lang]
    return f"{describe}\n{body}\n\n{reproduce}\n{steps}\n\n{expected}\n{expectation}\n\n{system}\n{SYSTEM}"


def seen(client: TestClient, lang: str, text: str) -> tuple[object, ...]:
    """The diagnosed symptom, its match, and the search's match."""
    answer = diagnose(client, lang, text)
    return answered_symptom(answer), answer["match"], search(client, lang, text)["match"]


@pytest.mark.parametrize("lang", LANGS)
def test_a_none_question_above_the_jobs_steps_stays_none(client: TestClient, lang: str) -> None:
    for body in NONE[lang]:
        assert seen(client, lang, body) == (None, "none", "none"), body
        for steps in STEPS[lang]:
            assert seen(client, lang, template(lang, body, steps)) == (None, "none", "none"), (body, steps)


@pytest.mark.parametrize("lang", LANGS)
def test_a_symptom_above_the_same_steps_keeps_its_answer(client: TestClient, lang: str) -> None:
    for body in TWINS[lang]:
        bare = seen(client, lang, body)[:2]
        assert bare[0] is not None, body
        for steps in STEPS[lang]:
            assert seen(client, lang, template(lang, body, steps))[:2] == bare, (body, steps)


def environment(lang: str, body: str) -> str:
    describe, _, _, _, system = TEMPLATE[lang]
    return f"{describe}\n{body}\n\n{system}\n{ENVIRONMENT[lang]}\n{SYSTEM}"


@pytest.mark.parametrize("lang", LANGS)
def test_the_trainer_in_the_environment_section_is_no_subject_either(client: TestClient, lang: str) -> None:
    for body in NONE[lang]:
        assert seen(client, lang, environment(lang, body)) == (None, "none", "none"), body
    for body in TWINS[lang]:
        assert seen(client, lang, environment(lang, body))[:2] == seen(client, lang, body)[:2], body


@pytest.mark.parametrize("lang", LANGS)
def test_a_step_that_tells_the_failure_tells_it(client: TestClient, lang: str) -> None:
    """The template's description tells nothing of its own, and its second step is the OOM at step 2."""
    failure = seen(client, lang, TWINS[lang][0])[0]
    text = template(lang, NOTHING[lang], f"{STEPS[lang][0]}\n{FAILING_STEP[lang]}")
    assert seen(client, lang, text)[0] == failure


def test_a_phrase_does_not_run_from_the_log_into_the_steps(client: TestClient) -> None:
    """ "... aborting training" over "1. Start the job" is no "training start": the OOM keeps its bare answer."""
    body = "the job failed, the log says:\nOOM during training step 3 times in a row, aborting training"
    bare = seen(client, "en", body)[:2]
    assert bare[0] is not None
    assert seen(client, "en", template("en", body, STEPS["en"][0]))[:2] == bare


def test_routine_lines() -> None:
    w = Wrapping(frozenset({"describe the bug", "logs"}), frozenset({"expected behavior"}), frozenset(),
                 routine=frozenset({"steps to reproduce"}))
    text = ("### Describe the bug\nit is slow\n\n### Steps to reproduce\n1. Start the job\n2) Wait a bit\n\n"
            "after the blank line\n### Logs\nline")
    assert routine_lines(text, w) == frozenset({"start the job", "wait a bit"})
    assert routine_lines("1. Start the job\n2. Wait", w) == frozenset()
    repeated = "### Describe the bug\ntraining is slow\n### Steps to reproduce\n1. training is slow\n2. Wait"
    assert routine_lines(repeated, w) == frozenset({"wait"})
