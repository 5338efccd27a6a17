"""Real posts come wrapped (issue 12): an issue template, an environment line, a greeting and a thank-you, a quoted
reply, a code fence, a title line, run-on text with no full stops. The wrapping tells nothing, so the post is
understood as its bare words are (`understanding/wrapped.py`, `prose.own_lines`, `sentences._status`): probes written
as forum users write, in six languages; `bench/wrappers.py` counts the same over every right item of our sets."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from remedy.understanding.wrapped import Wrapping, spec_line, unwrap
from tests.understanding.probes import answered_symptom, diagnose, search

# A crash at the second step told in each language: bare, it is an early-steps OOM at step 2.
CRASH = {
    "en": "training crashes at step 2 with CUDA out of memory",
    "es": "el entrenamiento se cae en el paso 2 con CUDA out of memory",
    "pt": "o treino cai no passo 2 com CUDA out of memory",
    "fr": "l'entraînement plante à l'étape 2 avec CUDA out of memory",
    "de": "das Training bricht bei Schritt 2 mit CUDA out of memory ab",
    "ko": "학습이 2 스텝에서 CUDA out of memory로 죽어요",
}
# ... and a slowness told without an error (no log at all).
SLOW = {
    "en": "training got really slow, 12 s/it on a 4090 with gradient checkpointing on",
    "es": "el entrenamiento va lentísimo, 12 s/it en una 4090 con gradient checkpointing activado",
    "pt": "o treino ficou muito lento, 12 s/it numa 4090 com gradient checkpointing ligado",
    "fr": "l'entraînement est devenu super lent, 12 s/it sur une 4090 avec le gradient checkpointing activé",
    "de": "das Training ist extrem langsam geworden, 12 s/it auf einer 4090 mit Gradient Checkpointing an",
    "ko": "학습이 너무 느려졌어요 4090에서 gradient checkpointing 켜고 12 s/it 나와요",
}
GREETING = {"en": ("Hi everyone,", "Thanks in advance!"), "es": ("Hola a todos,", "¡Gracias de antemano!"),
            "pt": ("Olá pessoal,", "Desde já agradeço!"), "fr": ("Bonjour à tous,", "Merci d'avance !"),
            "de": ("Hallo zusammen,", "Danke im Voraus!"), "ko": ("안녕하세요,", "미리 감사합니다!")}
SIGN = {"en": "Best regards,\nMark", "es": "Saludos,\nCarlos", "pt": "Abraços,\nJoão", "fr": "Cordialement,\nJulien",
        "de": "Viele Grüße,\nStefan", "ko": "감사합니다.\n민수 드림"}
QUOTE = {"en": "> Try a smaller batch size and turn on gradient checkpointing.",
         "es": "> Prueba con un batch más pequeño y activa el gradient checkpointing.",
         "pt": "> Tenta um batch menor e liga o gradient checkpointing.",
         "fr": "> Essaie un batch plus petit et active le gradient checkpointing.",
         "de": "> Probier eine kleinere Batch-Größe und schalte Gradient Checkpointing ein.",
         "ko": "> 배치 크기를 줄이고 gradient checkpointing을 켜 보세요."}
TEMPLATE = {  # (describe, reproduce, expected, expectation, system) as each language's forum form reads
    "en": ("### Describe the bug", "### Steps to reproduce", "### Expected behavior", "It should train normally.",
           "### System Info"),
    "es": ("### Descripción del error", "### Pasos para reproducir", "### Comportamiento esperado",
           "Debería entrenar normal.", "### Información del sistema"),
    "pt": ("### Descrição do bug", "### Como reproduzir", "### Comportamento esperado", "Deveria treinar normalmente.",
           "### Informações do sistema"),
    "fr": ("### Description du bug", "### Étapes pour reproduire", "### Comportement attendu",
           "Ça devrait s'entraîner normalement.", "### Infos système"),
    "de": ("### Fehlerbeschreibung", "### Schritte zum Reproduzieren", "### Erwartetes Verhalten",
           "Es sollte normal trainieren.", "### Systeminfo"),
    "ko": ("### 버그 설명", "### 재현 방법", "### 예상 동작", "정상적으로 학습되어야 합니다.", "### 시스템 정보"),
}
TITLE = {"en": "Need help", "es": "Necesito ayuda", "pt": "Preciso de ajuda", "fr": "Besoin d'aide",
         "de": "Brauche Hilfe", "ko": "도움 부탁드립니다"}
RUNON = {  # the failure, then "every time, it used to work fine" with no full stop between
    "en": "VRAM runs out at step 2 every time it used to work fine",
    "es": "se queda sin VRAM en el paso 2 cada vez antes funcionaba bien",
    "pt": "fica sem VRAM no passo 2 toda vez antes funcionava de boa",
    "fr": "la VRAM est saturée à l'étape 2 à chaque fois avant ça marchait bien",
    "de": "der VRAM läuft bei Schritt 2 voll jedes Mal früher lief es problemlos",
    "ko": "2 스텝에서 매번 VRAM이 터져요 전에는 잘 됐는데",
}
SYSTEM = "- OS: Windows 11\n- GPU: RTX 3090 24GB\n- RAM: 32GB\n- Python 3.10.11, torch 2.4.0+cu124, driver 560.94"
ENV = "RTX 3090 24GB, 64GB RAM, Windows 11"
ENV_HEAD = "Setup: RTX 4090 24GB VRAM, 32GB RAM, Ubuntu 22.04, torch 2.5.1"
WARNING = ("WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
           "    PyTorch 2.1.0+cu121 with CUDA 1201 (you have 2.4.0+cu124)\n"
           "FutureWarning: `torch.cuda.amp.GradScaler(args...)` is deprecated.")
LANGS = tuple(CRASH)


def seen(client: TestClient, lang: str, text: str) -> tuple[object, ...]:
    """What a caller sees of a diagnosis: the symptom, its match, the step, the model family and the GC state."""
    answer = diagnose(client, lang, text)
    context = answer.get("context") or {}
    assert isinstance(context, dict)
    return (answered_symptom(answer), answer["match"], context.get("step"), context.get("family"),
            context.get("gradient_checkpointing"))


def template(lang: str, body: str) -> str:
    describe, reproduce, expected, expectation, system = TEMPLATE[lang]
    return f"{describe}\n{body}\n\n{reproduce}\n1. ...\n\n{expected}\n{expectation}\n\n{system}\n{SYSTEM}"


WRAPPERS = {
    "template": template,
    "env_after": lambda lang, body: f"{body}\n{ENV}",
    "env_before": lambda lang, body: f"{ENV_HEAD}\n{body}",
    "greeting": lambda lang, body: f"{GREETING[lang][0]}\n{body}\n{GREETING[lang][1]}",
    "signature": lambda lang, body: f"{body}\n\n{SIGN[lang]}",
    "quoted": lambda lang, body: f"{QUOTE[lang]}\n\n{body}",
    "title": lambda lang, body: f"{TITLE[lang]}\n{body}",
    "warning": lambda lang, body: f"{body}\n```\n{WARNING}\n```",
}


@pytest.mark.parametrize("lang", LANGS)
def test_the_bare_probes_are_understood(client: TestClient, lang: str) -> None:
    assert seen(client, lang, CRASH[lang])[0:3:2] == ("oom-early-steps", 2)
    assert seen(client, lang, SLOW[lang])[0] == "slow-training"


@pytest.mark.parametrize("wrapper", sorted(WRAPPERS))
@pytest.mark.parametrize("lang", LANGS)
def test_a_wrapped_crash_is_the_bare_crash(client: TestClient, lang: str, wrapper: str) -> None:
    assert seen(client, lang, WRAPPERS[wrapper](lang, CRASH[lang])) == seen(client, lang, CRASH[lang])


@pytest.mark.parametrize("wrapper", sorted(WRAPPERS))
@pytest.mark.parametrize("lang", LANGS)
def test_a_wrapped_slowness_is_the_bare_slowness(client: TestClient, lang: str, wrapper: str) -> None:
    assert seen(client, lang, WRAPPERS[wrapper](lang, SLOW[lang]))[0] == "slow-training"


@pytest.mark.parametrize("lang", LANGS)
def test_a_run_on_text_keeps_its_failure_now(client: TestClient, lang: str) -> None:
    """ "it used to work fine" with no full stop before it does not make the failure told before it past."""
    assert seen(client, lang, RUNON[lang])[0] in ("oom-early-steps", "why-sudden-oom")


@pytest.mark.parametrize("lang", LANGS)
def test_a_crash_beside_the_machines_ram_is_no_host_ram_failure(client: TestClient, lang: str) -> None:
    """ "32GB RAM" in an environment line lists the machine: the crash beside it is still the training's."""
    crash = {"en": "it crashes at step 2", "es": "se cae en el paso 2", "pt": "cai no passo 2",
             "fr": "ça plante à l'étape 2", "de": "es stürzt bei Schritt 2 ab", "ko": "2 스텝에서 죽어요"}[lang]
    bare = seen(client, lang, crash)
    assert bare[0] is not None
    assert seen(client, lang, f"{crash}\n{ENV}") == bare
    assert seen(client, lang, template(lang, crash)) == bare


@pytest.mark.parametrize("lang", LANGS)
def test_a_template_around_a_hang_is_still_no_symptom(client: TestClient, lang: str) -> None:
    hang = {"en": "the training hangs at 0% and never starts, no error", "es": "se queda colgado en 0% y nunca empieza",
            "pt": "trava em 0% e nunca começa, sem erro", "fr": "ça reste bloqué à 0 % et ça ne démarre jamais",
            "de": "es hängt bei 0 % und startet nie, kein Fehler",
            "ko": "0%에서 멈춰서 시작을 안 해요 에러도 없어요"}[lang]
    for text in (hang, template(lang, hang), f"{hang}\n{ENV}"):
        assert seen(client, lang, text)[0] is None, text
        assert search(client, lang, text)["match"] == "none", text


@pytest.mark.parametrize("lang", LANGS)
def test_a_bulleted_post_is_read_whole(client: TestClient, lang: str) -> None:
    """A post that names the error in its own words pastes no log: each bullet is the user's, the step too."""
    intro = {"en": "- Flux LoRA, batch 1", "es": "- LoRA de Flux, batch 1", "pt": "- LoRA de Flux, batch 1",
             "fr": "- LoRA Flux, batch 1", "de": "- Flux LoRA, Batch 1", "ko": "- Flux 로라, 배치 1"}[lang]
    assert seen(client, lang, f"{intro}\n- {CRASH[lang]}")[0:3:2] == ("oom-early-steps", 2)


SAMPLING = {  # an OOM while sampling with GC on: no OOM that persists with GC
    "en": "GC is on and it only runs out of memory while generating the preview samples",
    "es": "tengo el GC activado y solo se queda sin memoria al generar las imágenes de preview",
    "pt": "GC ligado e só estoura a memória na hora de gerar as amostras de preview",
    "fr": "GC activé, et ça manque de mémoire seulement pendant la génération des previews",
    "de": "GC ist an, der Speicher läuft nur beim Erzeugen der Vorschaubilder voll",
    "ko": "GC 켜져 있는데 프리뷰 샘플 뽑을 때만 메모리 부족 에러가 나요",
}
EDIT = {"en": "EDIT: still happens", "es": "EDITO: sigue pasando", "pt": "EDIT: continua acontecendo",
        "fr": "EDIT : toujours pareil", "de": "EDIT: passiert immer noch", "ko": "수정: 아직도 그래요"}


@pytest.mark.parametrize("wrapper", sorted(WRAPPERS))
@pytest.mark.parametrize("lang", LANGS)
def test_a_wrapped_sampling_oom_with_gc_on_is_the_bare_one(client: TestClient, lang: str, wrapper: str) -> None:
    """The GC state told survives the wrapping too ("Preciso de ajuda" above it asks nothing of GC)."""
    bare = seen(client, lang, SAMPLING[lang])
    assert bare[0::4] == ("oom-during-sampling", True)
    assert seen(client, lang, WRAPPERS[wrapper](lang, SAMPLING[lang]))[0::4] == bare[0::4]


@pytest.mark.parametrize("lang", LANGS)
def test_an_update_line_tells_the_problem_goes_on(client: TestClient, lang: str) -> None:
    """ "EDIT: still happens" is no "still OOM despite GC": the post's problem goes on, its symptom is the same."""
    bare = seen(client, lang, SAMPLING[lang])
    assert bare[0] == "oom-during-sampling"
    assert seen(client, lang, f"{SAMPLING[lang]}\n\n{EDIT[lang]}")[:2] == bare[:2]


def test_a_fenced_log_is_read_as_the_bare_log(client: TestClient) -> None:
    log = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"
    bare = seen(client, "fr", f"ça plante à l'étape 2\n{log}")
    assert bare[0:3:2] == ("oom-early-steps", 2)
    assert seen(client, "fr", f"ça plante à l'étape 2\n```\n{log}\n```") == bare


WRAPPING = Wrapping(frozenset({"describe the bug", "logs"}), frozenset({"expected behavior"}),
                    frozenset({"gpu", "ram", "os"}), frozenset({"hi everyone", "thanks", "best regards"}))


@pytest.mark.parametrize(("text", "unwrapped"), [
    ("**Describe the bug**\nOOM at step 2", "OOM at step 2"),
    ("### Expected behavior\nit should not OOM\n\n### Logs\nOOM at step 2", "\nOOM at step 2"),
    ("Hi everyone,\nOOM at step 2\nThanks\n\nBest regards,\nMark", "OOM at step 2"),
    ("> try batch 1\nstill OOM", "still OOM"),  # a suggestion quoted: dropped
    # a question quoted above a short answer: kept, the context the answer stands in (`replies.asks_back`)
    ("> did you try batch 1?\nyes, still OOM", "> did you try batch 1?\nyes, still OOM"),
    ("my log:\n> CUDA out of memory", "my log:\n> CUDA out of memory"),  # a quote under the user's words is pasted
    ("```\nCUDA out of memory\n```\nhelp", "CUDA out of memory\nhelp"),
    ("OOM\n1. Start the job with my config\n2) batch 4", "OOM\nStart the job with my config\nbatch 4"),
])
def test_unwrap(text: str, unwrapped: str) -> None:
    assert unwrap(text, WRAPPING) == unwrapped


@pytest.mark.parametrize(("line", "spec"), [
    ("- GPU: RTX 3090 24GB", True), ("RAM: 32GB", True), ("OS: Windows 11", True),
    ("RTX 3060 12GB, 32GB de RAM, Windows 10", True), ("4090 24기가, 램 64기가", True),
    ("Python 3.10, torch 2.4.0, driver 560.94", True),
    ("batch 4, 1024px, 2000 steps", False), ("OOM at step 2, 24GB card", False), ("it crashes at step 2", False),
])
def test_spec_line(line: str, spec: bool) -> None:
    assert spec_line(line, WRAPPING) is spec
