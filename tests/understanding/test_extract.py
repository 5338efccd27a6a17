"""Context stated in free text, in every language, and the match outcome."""

from __future__ import annotations

from typing import Any

import pytest

from remedy.index.build import Index
from remedy.understanding.matcher import outcome, understand


def stated(index: Index, text: str, lang: str) -> dict[str, Any]:
    u = understand(index.matcher, text, lang)
    out = {k: getattr(u.stated, k) for k in ("step", "gradient_checkpointing", "batch_size", "resolutions",
                                              "num_frames")}
    out["family"] = u.family
    out["phase"] = u.phase
    return {k: v for k, v in out.items() if v is not None}


@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [
        ("turned off gradient checkpointing and now OOM", "en", {"gradient_checkpointing": False}),
        ("GC is on and I still run out of memory", "en", {"gradient_checkpointing": True}),
        ("GC is not enabled", "en", {"gradient_checkpointing": False}),
        ("GC desligado, OOM no passo 3", "pt", {"gradient_checkpointing": False, "step": 3}),
        ("GC를 켰는데 OOM", "ko", {"gradient_checkpointing": True}),
        ("GC를 안 켰어요", "ko", {"gradient_checkpointing": False}),
        ("gradient_checkpointing: false", "en", {"gradient_checkpointing": False}),
        ("Qwen Edit 1024 배치 2 GC 꺼짐 스텝 2 OOM", "ko",
         {"family": "qwen-edit", "batch_size": 2, "gradient_checkpointing": False, "step": 2}),
        ("zimage turbo with batch size 4 at 1024 and 1536", "en",
         {"family": "z-image", "batch_size": 4, "resolutions": (1024, 1536)}),
        ("flux-dev, buckets 512, 768, 1024", "en", {"family": "flux", "resolutions": (512, 768, 1024)}),
        ("Wan 2.2 mit 81 Frames, Speicherfehler", "de", {"family": "other", "num_frames": 81}),
        ("OOM pendant la prévisualisation", "fr", {"phase": "sampling"}),
    ],
)
def test_stated_context(index: Index, text: str, lang: str, expected: dict[str, Any]) -> None:
    got = stated(index, text, lang)
    assert {k: got.get(k) for k in expected} == expected


def test_one_named_bucket_is_not_the_bucket_list(index: Index) -> None:
    assert "resolutions" not in stated(index, "OOM when the 1536 bucket comes up", "en")


def test_log_step_comes_from_the_progress_bar(index: Index) -> None:
    log = ("my_lora:   0%|          | 2/3000 [00:14<6:00:00,  7.2s/it, lr: 1.0e-04 loss: 4.1e-01]\n"
           "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB.")
    u = understand(index.matcher, log, "en")
    assert u.stated.step == 2 and u.log.gpu_oom and u.phase == "training"


@pytest.mark.parametrize(
    "text",
    ["[ 9132.004411] Out of memory: Killed process 4242 (python)\nKilled",
     "RuntimeError: CUDA error: an illegal memory access was encountered"],
)
def test_non_gpu_failures_match_nothing(index: Index, text: str) -> None:
    u = understand(index.matcher, text, "en")
    assert u.ranked == () and u.log.not_gpu_oom


@pytest.mark.parametrize(
    ("best", "second", "match"),
    [(8.0, 2.0, "confident"), (3.0, 2.9, "ambiguous"), (0.5, 0.4, "none"), (0.0, 0.0, "none")],
)
def test_outcome(best: float, second: float, match: str) -> None:
    got, confidence = outcome(best, second, 0.5, 0.25)
    assert got == match and 0.0 <= confidence <= 1.0


def test_outcome_confidence_grows_with_margin() -> None:
    assert outcome(6.0, 5.5, 0.5, 0.25)[1] < outcome(6.0, 2.0, 0.5, 0.25)[1]


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("this is way too slow, anything I can tweak?\n"
         "my_lora:  12%|█▎        | 361/3000 [31:12<3:48:05,  5.18s/it, lr: 1.0e-04 loss: 4.120e-01]", "en"),
        ("das dauert ewig, kann man das beschleunigen?\n"
         "lora_stil:   3%|▍         | 95/3000 [12:40<6:27:20,  8.00s/it, lr: 1.0e-04 loss: 4.902e-01]", "de"),
    ],
)
def test_a_pasted_training_bar_puts_speed_words_in_the_domain(index: Index, text: str, lang: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "log_training" in u.features and u.ranked[0].id == "slow-training"


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("my phone keeps saying it's out of memory, how do i clear it", "en"),
        ("mi celular dice que no tiene memoria suficiente", "es"),
        ("quanto de memória tem o plano pro?", "pt"),
        ("wie speichere ich einen Checkpoint in meinem Spiel", "de"),
        ("폰 저장공간 부족하다고 뜨는데 어떻게 정리해요", "ko"),
    ],
)
def test_another_subject_is_outside_the_domain(index: Index, text: str, lang: str) -> None:
    u = understand(index.matcher, text, lang)
    assert u.concepts & {"elsewhere", "billing"} and not u.in_domain and u.ranked == ()


def test_another_subject_next_to_the_training_job_stays_in_the_domain(index: Index) -> None:
    u = understand(index.matcher, "my lora training runs out of memory while I browse on my phone", "en")
    assert u.in_domain and u.ranked[0].kind == "symptom"


@pytest.mark.parametrize(
    ("text", "lang", "asked"),
    [
        ("GC an oder aus?", "de", True),
        ("should gradient checkpointing be on or off", "en", True),
        # "back on ... without changing": an on word and an off word far apart are no question
        ("Turned checkpointing back on, retried without changing anything else, still out of memory", "en", False),
    ],
)
def test_on_or_off_is_a_question_only_side_by_side(index: Index, text: str, lang: str, asked: bool) -> None:
    u = understand(index.matcher, text, lang)
    assert ("on_or_off" in u.features) is asked
    if not asked:
        assert u.stated.gradient_checkpointing is True


@pytest.mark.parametrize(
    ("text", "lang"),
    [("can I get a refund for the hours my training job sat in the queue", "en"),
     ("¿cómo cambio la contraseña de mi cuenta?", "es")],
)
def test_accounts_and_money_are_never_the_subject(index: Index, text: str, lang: str) -> None:
    u = understand(index.matcher, text, lang)
    assert not u.in_domain and u.ranked == ()


@pytest.mark.parametrize(
    ("text", "lang", "section"),
    [("what does this guide go over?", "en", "covers"),
     ("o que esse guia explica? quais tópicos ele cobre", "pt", "covers"),
     ("hay alguna sección de preguntas frecuentes?", "es", "faq"),
     ("자주 묻는 질문 보여줘", "ko", "faq")],
)
def test_questions_about_the_guide_itself(index: Index, text: str, lang: str, section: str) -> None:
    assert understand(index.matcher, text, lang).ranked[0].id == section


@pytest.mark.parametrize(
    ("text", "lang"),
    [("What rank should I use for an SDXL character LoRA?", "en"), ("welchen rank nimmt man für ein SDXL lora", "de")],
)
def test_a_general_training_question_is_not_a_remedy(index: Index, text: str, lang: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "check-rank" not in [s.id for s in u.ranked]


@pytest.mark.parametrize(
    ("text", "lang"),
    [("how do I make training faster without running out of VRAM?", "en"),
     ("¿cómo hago que el entrenamiento sea más rápido sin quedarme sin VRAM?", "es"),
     ("comment accélérer un entraînement flux sans risquer l'OOM", "fr"),
     ("OOM 안 나게 학습 빠르게 하는 방법", "ko")],
)
def test_an_oom_to_avoid_while_going_faster_is_not_a_stated_oom(index: Index, text: str, lang: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "oom" not in u.concepts
    assert next(s.id for s in u.ranked if s.kind == "symptom") == "slow-training"


def test_what_is_done_without_is_gc_not_the_oom(index: Index) -> None:
    # "without GC": the avoided span stops at the GC mention, so the OOM still counts.
    u = understand(index.matcher, "without GC it's faster but OOM at step 2", "en")
    assert "oom" in u.concepts and u.ranked[0].id == "oom-early-steps"


def test_java_out_of_memory_is_not_a_gpu_oom(index: Index) -> None:
    u = understand(index.matcher, "java.lang.OutOfMemoryError: Java heap space, wie erhöhe ich Xmx", "de")
    assert not u.log.gpu_oom and not u.in_domain


@pytest.mark.parametrize(
    ("text", "lang"),
    [("quel learning rate pour un LoRA de style sur FLUX ?", "fr"), ("can I train a LoRA on a Mac?", "en")],
)
def test_a_training_question_the_guide_does_not_answer_is_outside(index: Index, text: str, lang: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "untaught" in u.concepts and not u.in_domain


def test_a_named_failure_keeps_an_untaught_subject_in_the_domain(index: Index) -> None:
    u = understand(index.matcher, "after I changed the learning rate it runs out of memory at step 2", "en")
    assert u.in_domain and u.ranked[0].id == "oom-early-steps"


@pytest.mark.parametrize(
    ("text", "lang", "step"),
    [("it crashes almost right away, like at 2 of 3000, saying CUDA ran out of memory", "en", 2),
     ("O treino nem começa direito, no contador 1/2000 ja aparece falta de VRAM", "pt", 1),
     ("OOM with buckets 512/768 at the start", "en", None)],
)
def test_a_progress_counter_in_the_users_words_gives_the_step(index: Index, text: str, lang: str, step: int) -> None:
    assert understand(index.matcher, text, lang).stated.step == step


def test_two_model_families_named_ask_for_the_risk_table(index: Index) -> None:
    u = understand(index.matcher, "GC 끄면 Qwen Edit가 Flux보다 더 잘 터져?", "ko")
    assert "two_families" in u.features and u.ranked[0].id == "risk-table"


def test_a_pasted_config_fragment_names_the_model(index: Index) -> None:
    text = 'still OOM even with checkpointing on\nmodel:\n  arch: "wan22_14b"\ntrain:\n  batch_size: 1\n'
    u = understand(index.matcher, text, "en")
    assert u.arch == "wan22_14b" and index.family_of_arch(u.arch) == "other"


@pytest.mark.parametrize(
    ("text", "lang", "batch"),
    [("Z-Image Turbo, dos imágenes por batch, checkpointing desactivado, OOM", "es", 2),
     ("zimage, zwei Bilder pro Batch, Checkpointing deaktiviert: out of memory", "de", 2)],
)
def test_images_per_batch_is_the_batch_size(index: Index, text: str, lang: str, batch: int) -> None:
    assert understand(index.matcher, text, lang).stated.batch_size == batch


@pytest.mark.parametrize(
    ("text", "lang"),
    [("no errors, no OOM, it's just slow", "en"), ("aucun plantage, aucune erreur, juste de la lenteur", "fr"),
     ("keine Fehler, kein OOM, nur langsam", "de")],
)
def test_an_error_stated_as_absent_is_not_stated(index: Index, text: str, lang: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "oom" not in u.concepts and "crash" not in u.concepts


@pytest.mark.parametrize(
    ("text", "lang"),
    [("Não sei por que o GC está desligado no meu job. Religo ou deixo como está?", "pt"),
     ("keine Ahnung warum GC bei mir aus ist, hab die config von nem Kumpel. einfach wieder einschalten?", "de")],
)
def test_not_knowing_why_gc_is_off_points_to_the_checklist(index: Index, text: str, lang: str) -> None:
    assert understand(index.matcher, text, lang).ranked[0].id == "checklist"


@pytest.mark.parametrize(
    ("text", "lang"),
    [("Qwen Edit avec GC désactivé, ça explose pile à la première préview", "fr"),
     ("Qwen Edit mit GC aus, beim ersten Preview ist sofort Feierabend mit OOM", "de")],
)
def test_a_phrase_holding_the_gc_mention_is_a_statement_not_a_question(index: Index, text: str, lang: str) -> None:
    assert understand(index.matcher, text, lang).stated.gradient_checkpointing is False


@pytest.mark.parametrize(
    ("text", "lang"),
    [("thinking about switching gradient checkpointing off so training goes quicker, good idea?", "en"),
     ("vale a pena desligar o GC pra ganhar velocidade?", "pt"),
     ("je pense couper le gradient checkpointing pour aller plus vite, bonne idee ?", "fr")],
)
def test_a_switch_only_thought_of_is_not_the_current_state(index: Index, text: str, lang: str) -> None:
    u = understand(index.matcher, text, lang)
    assert u.stated.gradient_checkpointing is None
    assert next(s.id for s in u.ranked if s.kind == "symptom") == "slow-training"


def test_a_switch_already_made_is_the_state(index: Index) -> None:
    u = understand(index.matcher, "ever since I flipped GC off every single run ends in out of memory", "en")
    assert u.stated.gradient_checkpointing is False


@pytest.mark.parametrize(
    ("text", "lang"),
    [("is switching GC off a good way to train quicker?", "en"),
     ("couper le GC pour aller plus vite, bonne idée ?", "fr"),
     ("Bringt GC aus wirklich Tempo beim Training?", "de")],
)
def test_a_question_about_switching_gc_off_states_no_state(index: Index, text: str, lang: str) -> None:
    assert understand(index.matcher, text, lang).stated.gradient_checkpointing is None


@pytest.mark.parametrize(
    ("text", "lang"),
    [("GC is already true, what other knobs can I turn to save memory", "en"),
     ("GC ist schon true – was kann ich sonst noch runterdrehen?", "de")],
)
def test_gc_on_and_what_else_to_lower_is_the_still_oom_faq(index: Index, text: str, lang: str) -> None:
    assert understand(index.matcher, text, lang).ranked[0].id == "faq-still-oom-with-gc"
