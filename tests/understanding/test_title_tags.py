"""A post's title tags and the lines around its question (issue 12, session 8): "Need help" and "Help pls" above a
post ask for nothing of their own, "[Solved] OOM at step 2" tells a past failure, "[Question] ..." asks; a template's
headings, its environment lines and an update that says the problem goes on are no sentences of the post, so the
question a template holds keeps its search hit; a finished progress bar ("Loading checkpoint shards: 100% 3/3") is no
phase of the failure (`wrapped.title_tag`, `gate.asked`, `gate.told_hits`, `logs`). Probes written as forum users write,
in six languages; `bench/wrappers.py` counts the same over every right item of our sets."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from remedy.content.sentence_models import SentenceMarkers
from remedy.understanding.wrapped import HELP, QUESTION, SOLVED, compile_wrapping, title_tag
from tests.understanding.probes import answered_symptom, diagnose, hit_ids, search
from tests.understanding.test_wrappers import CRASH, SAMPLING, SYSTEM, TEMPLATE

LANGS = tuple(CRASH)
# Questions of the guide as users type them, with no question mark (a query is its own question; a post's sentence
# that asks nothing is no question): where a setting is, and which models are risky without GC.
QUESTIONS = {
    "en": ("where do I change gradient checkpointing", "which models are the riskiest to train without GC"),
    "es": ("donde se cambia el gradient checkpointing", "qué modelos son más peligrosos con el GC desactivado"),
    "pt": ("onde eu mudo o gradient checkpointing", "quais modelos são mais arriscados sem GC"),
    "fr": ("où on change le gradient checkpointing", "quels modèles sont les plus risqués sans GC"),
    "de": ("wo stellt man gradient checkpointing um", "welche Modelle sind ohne GC am riskantesten"),
    "ko": ("gradient checkpointing 어디서 바꿔요", "GC 끄면 제일 위험한 모델이 뭐예요"),
}
HELPS = {  # a line that only asks for help, a few wordings per language
    "en": ("Need help", "Help pls!", "Please help"), "es": ("Necesito ayuda", "Ayuda porfa"),
    "pt": ("Preciso de ajuda", "Socorro"), "fr": ("Besoin d'aide", "Au secours"),
    "de": ("Brauche Hilfe", "Hilfe bitte"), "ko": ("도와주세요", "도움 요청"),
}
QUESTION_TAGS = {"en": "[Question]", "es": "[Pregunta]", "pt": "[Dúvida]", "fr": "[Question]", "de": "[Frage]",
                 "ko": "[질문]"}
# A solved report: the OOM in its title is past, the fix told under it.
SOLVED_TITLES = {
    "en": ("[Solved] OOM at step 2 on my flux lora", "OOM at step 2 on my flux lora (solved)"),
    "es": ("[Resuelto] OOM en el paso 2 con mi lora de flux", "Solucionado: OOM en el paso 2 con mi lora de flux"),
    "pt": ("[Resolvido] OOM no passo 2 na minha lora de flux", "OOM no passo 2 na minha lora de flux [RESOLVIDO]"),
    "fr": ("[Résolu] OOM à l'étape 2 sur mon lora flux", "Résolu : OOM à l'étape 2 sur mon lora flux"),
    "de": ("[Gelöst] OOM bei Schritt 2 mit meiner Flux LoRA", "OOM bei Schritt 2 mit meiner Flux LoRA [erledigt]"),
    "ko": ("[해결] flux 로라 2 스텝에서 OOM", "flux 로라 2 스텝에서 OOM (해결됨)"),
}
SOLVED_TAGS = {"en": "[SOLVED]", "es": "[Solucionado]", "pt": "[Resolvido]", "fr": "[Réglé]", "de": "[Behoben]",
               "ko": "[해결됨]"}
FIXED = {
    "en": "Turning on gradient checkpointing fixed it, thanks.",
    "es": "Activar el gradient checkpointing lo arregló, gracias.",
    "pt": "Ligar o gradient checkpointing resolveu, valeu.",
    "fr": "Activer le gradient checkpointing a réglé le problème, merci.",
    "de": "Gradient Checkpointing einschalten hat es behoben, danke.",
    "ko": "gradient checkpointing 켜니까 해결됐어요 감사합니다.",
}
EDITS = {"en": "EDIT: still happens", "es": "EDITO: sigue pasando", "pt": "EDIT: continua acontecendo",
         "fr": "EDIT : toujours pareil", "de": "EDIT: passiert immer noch", "ko": "수정: 아직도 그래요"}
JOB_STEP = {"en": "1. Start the job with my config", "es": "1. Lanzo el entrenamiento con mi config",
            "pt": "1. Inicio o treino com a minha config", "fr": "1. Je lance l'entraînement avec ma config",
            "de": "1. Training mit meiner Config starten", "ko": "1. 제 설정으로 학습 시작"}
TQDM = "Loading checkpoint shards: 100%|██████████| 3/3 [00:02<00:00,  1.10it/s]"


def template(lang: str, body: str, step: str = "1. ...") -> str:
    describe, reproduce, _, _, system = TEMPLATE[lang]
    return f"{describe}\n{body}\n\n{reproduce}\n{step}\n\n{system}\n{SYSTEM}"


def top_hit(client: TestClient, lang: str, text: str) -> str | None:
    ids = hit_ids(search(client, lang, text))
    return ids[0] if ids else None


def symptom_and_step(client: TestClient, lang: str, text: str) -> tuple[object, object]:
    answer = diagnose(client, lang, text)
    context = answer.get("context") or {}
    assert isinstance(context, dict)
    return answered_symptom(answer), context.get("step")


@pytest.mark.parametrize("lang", LANGS)
def test_a_question_in_a_template_keeps_its_search_hit(client: TestClient, lang: str) -> None:
    """The template's headings, its empty steps and its environment lines ask nothing and tell nothing: the one
    sentence under "Describe the bug" is the post's question, answered as the bare query is."""
    for question in QUESTIONS[lang]:
        bare = top_hit(client, lang, question)
        assert bare in ("where-to-change", "risk-table"), question
        assert top_hit(client, lang, template(lang, question)) == bare, question
        assert top_hit(client, lang, f"{question}\n\n{EDITS[lang]}") == bare, question


@pytest.mark.parametrize("lang", LANGS)
def test_a_help_line_above_a_post_asks_nothing_of_its_own(client: TestClient, lang: str) -> None:
    """ "Need help" as a title, or as a tag before a colon, is the post's kind: the question and the crash under it
    are read as they are bare (the crash's step too)."""
    crash = symptom_and_step(client, lang, CRASH[lang])
    assert crash == ("oom-early-steps", 2)
    for help_line in HELPS[lang]:
        for question in QUESTIONS[lang]:
            assert top_hit(client, lang, f"{help_line}\n{question}") == top_hit(client, lang, question), help_line
        assert symptom_and_step(client, lang, f"{help_line}\n{CRASH[lang]}") == crash, help_line
        assert symptom_and_step(client, lang, f"{help_line.rstrip('!')}: {CRASH[lang]}") == crash, help_line


@pytest.mark.parametrize("lang", LANGS)
def test_a_question_tag_is_no_content(client: TestClient, lang: str) -> None:
    question = QUESTIONS[lang][0]
    tagged = f"{QUESTION_TAGS[lang]} {question}\nflux lora, batch 1"
    assert top_hit(client, lang, tagged) == top_hit(client, lang, question) == "where-to-change"


QUESTION_SECTION = {  # (the form's question heading, another heading, the context under it)
    "en": ("### Question", "### Additional context", "Flux LoRA, batch 1"),
    "es": ("### Pregunta", "### Contexto adicional", "LoRA de Flux, batch 1"),
    "pt": ("### Pergunta", "### Contexto adicional", "LoRA de Flux, batch 1"),
    "fr": ("### Question", "### Contexte supplémentaire", "LoRA Flux, batch 1"),
    "de": ("### Frage", "### Zusätzlicher Kontext", "Flux LoRA, Batch 1"),
    "ko": ("### 질문", "### 추가 정보", "Flux 로라, 배치 1"),
}


@pytest.mark.parametrize("lang", LANGS)
def test_the_section_under_a_question_heading_asks(client: TestClient, lang: str) -> None:
    """What a form's "Question" heading holds is the post's question, typed with or without a question mark."""
    heading, other, context = QUESTION_SECTION[lang]
    for question in QUESTIONS[lang]:
        text = f"{heading}\n{question}\n\n{other}\n{context}"
        assert top_hit(client, lang, text) == top_hit(client, lang, question), question


@pytest.mark.parametrize("lang", LANGS)
def test_a_solved_title_tells_a_past_failure(client: TestClient, lang: str) -> None:
    """ "[Solved] OOM at step 2 ..." and its fix under it: the OOM is over, no plan for it (a tag of its own is the
    post's "Solved", as when it heads a post alone), even when the title quotes the error ("CUDA out of memory")."""
    for title in (*SOLVED_TITLES[lang], f"{SOLVED_TAGS[lang]} {CRASH[lang]}"):
        text = f"{title}\n{FIXED[lang]}"
        answer = diagnose(client, lang, text)
        assert answered_symptom(answer) is None, text
        assert answer["match"] == "none", text


@pytest.mark.parametrize("lang", LANGS)
def test_a_finished_bar_is_no_phase_of_the_failure(client: TestClient, lang: str) -> None:
    """A loading bar that reached its total, pasted under a sampling OOM, tells no loading phase: the words tell."""
    answer = diagnose(client, lang, f"{SAMPLING[lang]}\n{TQDM}")
    context = answer.get("context") or {}
    assert isinstance(context, dict)
    assert (answered_symptom(answer), context.get("phase")) == ("oom-during-sampling", "sampling")


SWITCHED_BACK = {  # GC switched back on, and the OOM goes on
    "en": "Turned checkpointing back on, restarted with no other changes - still OOM. Wan 2.2 video LoRA, 81 frames",
    "es": "Volví a activar el checkpointing y sigue el OOM. LoRA de video Wan 2.2 con 81 frames",
    "pt": "Liguei o checkpointing de novo e continua dando OOM. LoRA de vídeo Wan 2.2 com 81 frames",
    "fr": "J'ai réactivé le checkpointing, relancé sans rien changer d'autre - toujours OOM. LoRA vidéo Wan 2.2, "
          "81 frames",
    "de": "Hab Checkpointing wieder eingeschaltet, ohne weitere Änderungen neu gestartet - immer noch OOM. Wan 2.2 "
          "Video-LoRA mit 81 Frames",
    "ko": "checkpointing 다시 켜고 다른 건 안 바꾸고 재시작했는데 여전히 OOM이에요. Wan 2.2 영상 로라 81프레임",
}


def symptom_and_gc(client: TestClient, lang: str, text: str) -> tuple[object, object]:
    answer = diagnose(client, lang, text)
    context = answer.get("context") or {}
    assert isinstance(context, dict)
    return answered_symptom(answer), context.get("gradient_checkpointing")


@pytest.mark.parametrize("lang", LANGS)
def test_a_job_step_and_the_machine_in_a_template_keep_the_gc_state(client: TestClient, lang: str) -> None:
    """ "1. Start the job with my config" and "- GPU: RTX 3090 24GB" in one template: the GC state told stays."""
    assert symptom_and_gc(client, lang, template(lang, SAMPLING[lang], JOB_STEP[lang])) == ("oom-during-sampling", True)
    bare = symptom_and_gc(client, lang, SWITCHED_BACK[lang])
    assert bare == ("oom-persists-with-gc", True)
    assert symptom_and_gc(client, lang, template(lang, SWITCHED_BACK[lang], JOB_STEP[lang])) == bare


TAGS = compile_wrapping([SentenceMarkers(help_titles=("need help", "help"), solved_titles=("solved", "résolu", "해결"),
                                         question_titles=("question",))])


@pytest.mark.parametrize(("line", "tagged"), [
    ("Need help", (HELP, "")), ("HELP!!", (HELP, "")), ("Help: OOM at step 2", (HELP, "OOM at step 2")),
    ("[SOLVED] OOM at step 2", (SOLVED, "OOM at step 2")), ("OOM at step 2 (solved)", (SOLVED, "OOM at step 2")),
    ("Résolu : OOM à l'étape 2", (SOLVED, "OOM à l'étape 2")), ("[해결] 2 스텝에서 OOM", (SOLVED, "2 스텝에서 OOM")),
    ("[Question] where is GC set", (QUESTION, "where is GC set")),
    ("OOM at step 2 (batch 1)", ("", "OOM at step 2 (batch 1)")),
    ("Error: CUDA out of memory", ("", "Error: CUDA out of memory")),
    ("help with GC settings", ("", "help with GC settings")),
])
def test_title_tag(line: str, tagged: tuple[str, str]) -> None:
    assert title_tag(line, TAGS)[::2] == tagged


BATCH_FULL = {  # GC on, the memory full with a batch of 4
    "en": "gradient_checkpointing: true and Flux still fills all 24 GB with batch 4",
    "es": "gradient_checkpointing: true y Flux sigue llenando los 24 GB con batch 4",
    "pt": "gradient_checkpointing: true e o Flux continua enchendo os 24 GB com batch 4",
    "fr": "gradient_checkpointing: true et Flux remplit toujours les 24 Go avec un batch de 4",
    "de": "gradient_checkpointing: true und Flux füllt trotzdem die 24 GB mit Batch 4",
    "ko": "gradient_checkpointing: true인데 Flux가 배치 4로 24GB를 다 채워요",
}
STILL = {"en": "EDIT: still happening", "es": "EDITO: sigue pasando", "pt": "EDIT: continua passando",
         "fr": "EDIT : ça continue", "de": "EDIT: passiert immer noch", "ko": "수정: 계속 그래요"}


@pytest.mark.parametrize("lang", LANGS)
def test_an_update_that_it_goes_on_keeps_the_batch(client: TestClient, lang: str) -> None:
    """ "EDITO: sigue pasando" tells that it goes on (Spanish `pasar`, Portuguese `passar`: to happen, no `paso` /
    `passo` step), so the batch told above it is still the batch, no step."""
    def batch_and_step(text: str) -> tuple[object, object]:
        context = diagnose(client, lang, text).get("context") or {}
        assert isinstance(context, dict)
        return context.get("batch_size"), context.get("step")

    assert batch_and_step(BATCH_FULL[lang]) == (4, None)
    assert batch_and_step(f"{BATCH_FULL[lang]}\n\n{STILL[lang]}") == (4, None)
