"""Context stated in free text, in every language, and the match outcome."""

from __future__ import annotations

from typing import Any

import pytest

from remedy.index.build import Index
from remedy.understanding.extract import as_context_fields
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


# --- statements versus questions, wishes, proposals and comparisons (issue 10, class 2) -----------------------


@pytest.mark.parametrize(
    ("text", "lang"),
    [("Should I turn off gradient checkpointing to speed it up?", "en"),
     ("I'd like to turn GC off, training is way too slow", "en"),
     ("Does enabling GC hurt quality?", "en"),
     ("Does turning GC off improve likeness?", "en"),
     ("¿Debería desactivar el gradient checkpointing para acelerar el entrenamiento?", "es"),
     ("Me gustaría desactivar GC, el entrenamiento va muy lento", "es"),
     ("¿Activar GC arreglaría mi OOM en el paso 3?", "es"),
     ("Devo desligar o gradient checkpointing para acelerar o treino?", "pt"),
     ("Ativar o GC piora a qualidade?", "pt"),
     ("Devrais-je désactiver le gradient checkpointing pour accélérer l'entraînement ?", "fr"),
     ("J'aimerais désactiver le GC, l'entraînement est trop lent", "fr"),
     ("Sollte ich Gradient Checkpointing ausschalten, um das Training zu beschleunigen?", "de"),
     ("Ich würde GC gern ausschalten, das Training ist zu langsam", "de"),
     ("속도를 높이려면 gradient checkpointing을 꺼야 할까요?", "ko"),
     ("학습이 너무 느려서 GC를 끄고 싶어요", "ko"),
     ("GC를 켜면 품질이 나빠지나요?", "ko")],
)
def test_a_question_wish_or_proposal_about_gc_states_no_gc_value(index: Index, text: str, lang: str) -> None:
    assert understand(index.matcher, text, lang).stated.gradient_checkpointing is None


@pytest.mark.parametrize(
    ("text", "lang", "state"),
    [("GC is off, should I turn it back on?", "en", False),
     ("GC ist an und das Training ist langsam, sollte ich es ausschalten?", "de", True),
     ("GC를 켜 놨는데 학습이 느려요, 꺼야 할까요?", "ko", True),
     ("what should I try next if checkpointing is already on and it still runs out of memory?", "en", True),
     ("o que mais posso reduzir se o GC ja esta ativo?", "pt", True),
     # the question is the last sentence; the state is told before it
     ("GC is off. Why does disabling it make it OOM at step 2?", "en", False),
     ("유튜브에서 gradient checkpointing 끄면 빠르다길래 false로 바꿨거든요. 근데 그 뒤로 스텝 2에서 OOM 떠요. "
      "사진은 몇장이 적당한가요?", "ko", False)],
)
def test_a_state_told_beside_a_question_is_still_stated(index: Index, text: str, lang: str, state: bool) -> None:
    assert understand(index.matcher, text, lang).stated.gradient_checkpointing is state


@pytest.mark.parametrize(
    ("text", "lang", "state"),
    [("It was off, now GC is on and it still OOMs", "en", True),
     ("I had GC on, switched it off to go faster, and now it OOMs at step 2", "en", False),
     ("GC estaba desactivado, ahora lo activé y sigue dando OOM", "es", True),
     ("Eu tinha GC ligado, desliguei para ir mais rápido e agora dá OOM no passo 2", "pt", False),
     ("Le GC était désactivé, je l'ai activé et j'ai toujours un OOM", "fr", True),
     ("GC war aus, jetzt ist es an und trotzdem OOM", "de", True),
     ("GC를 켜 두었다가 빠르게 하려고 껐더니 스텝 2에서 OOM이 나요", "ko", False),
     # a past marker after an unrelated word ("on step 3") still tells the state
     ("crashed with OOM on step 3, gradient checkpointing was disabled", "en", False)],
)
def test_a_past_state_gives_way_to_the_one_told_after_it(index: Index, text: str, lang: str, state: bool) -> None:
    assert understand(index.matcher, text, lang).stated.gradient_checkpointing is state


@pytest.mark.parametrize(
    ("text", "lang"),
    [("Is GC on slower than GC off?", "en"), ("¿Con GC activado va más lento que con GC desactivado?", "es"),
     ("Com GC ligado fica mais lento do que com GC desligado?", "pt"),
     ("Avec le GC activé, c'est plus lent qu'avec le GC désactivé ?", "fr"), ("Ist GC an langsamer als GC aus?", "de"),
     ("GC 켜면 GC 끈 것보다 느린가요?", "ko")],
)
def test_a_comparison_of_on_and_off_asks_the_tradeoff(index: Index, text: str, lang: str) -> None:
    u = understand(index.matcher, text, lang)
    assert u.stated.gradient_checkpointing is None and "on_or_off" in u.features
    assert u.ranked[0].id == "quick-answer"


@pytest.mark.parametrize(
    ("text", "lang"),
    [("Should I start a first training run with GC off?", "en"),
     ("¿Debería empezar un primer entrenamiento con GC desactivado?", "es"),
     ("Devo começar um primeiro treino com GC desativado?", "pt"),
     ("Dois-je lancer un premier entraînement avec le GC désactivé ?", "fr"),
     ("Sollte ich ein erstes Training mit deaktiviertem GC starten?", "de"),
     ("첫 학습을 GC 끈 상태로 시작해도 되나요?", "ko")],
)
def test_a_first_run_question_ranks_its_faq_above_every_symptom(index: Index, text: str, lang: str) -> None:
    u = understand(index.matcher, text, lang)
    assert u.ranked[0].id == "faq-first-run-gc-off" and u.stated.gradient_checkpointing is None


def test_does_enabling_gc_hurt_quality_is_the_faq_not_a_state(index: Index) -> None:
    u = understand(index.matcher, "Does enabling GC hurt quality?", "en")
    assert u.ranked[0].id == "faq-gc-hurts-quality" and u.stated.gradient_checkpointing is None
    assert "gc_on" not in u.features


@pytest.mark.parametrize(
    ("text", "lang"),
    [("Should I turn off gradient checkpointing to speed it up?", "en"),
     ("I'm thinking of disabling gradient checkpointing, each step takes 8 seconds", "en"),
     ("Lohnt es sich, GC zu deaktivieren, damit das Training schneller läuft?", "de"),
     ("학습을 빠르게 하려고 GC를 끄는 게 나을까요?", "ko")],
)
def test_a_question_about_gc_off_for_speed_is_slow_training(index: Index, text: str, lang: str) -> None:
    u = understand(index.matcher, text, lang)
    assert next(s.id for s in u.ranked if s.kind == "symptom") == "slow-training"
    assert "gc_off" not in u.features


# --- facts free text used to miss (issue 10, class 6) ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "lang", "sizes"),
    [("Z-Image, resolution 1024, batch 2, GC off, OOM at step 2", "en", (1024,)),
     ("OOM at step 3 training at 1024px with batch 1", "en", (1024,)),
     ("OOM at step 2 training at 768", "en", (768,)),
     ("Flux con bucket 1536, se queda sin VRAM en los primeros pasos", "es", (1536,)),
     ("Z-Image, resolução 1024, batch 2, GC desligado, OOM no passo 2", "pt", (1024,)),
     ("Z-Image, résolution 1024, batch 2, GC désactivé, OOM au step 2", "fr", (1024,)),
     ("Z-Image, Auflösung 1024, Batch 2, GC aus, OOM bei Schritt 2", "de", (1024,)),
     ("Qwen Image Edit, 1024er Bucket, Batch Size 2, GC aus", "de", (1024,)),
     ("Z-Image, 해상도 1024, 배치 2, GC 꺼짐, 스텝 2에서 OOM", "ko", (1024,)),
     ("Flux 버킷 1536, 처음 몇 스텝에서 VRAM 부족", "ko", (1536,)),
     ("resoluton 1024, bacth 2, OOM at step 2", "en", (1024,)),  # a typo before the number keeps the number
     ("resolutions 768 and 1024, batch 2, OOM at step 3", "en", (768, 1024))],
)
def test_a_single_resolution_is_the_bucket_list(index: Index, text: str, lang: str, sizes: tuple[int, ...]) -> None:
    assert understand(index.matcher, text, lang).stated.resolutions == sizes


@pytest.mark.parametrize(
    ("text", "lang"),
    [("random OOM when the 1536 bucket comes up", "en"),
     ("va bien un rato y derepente OOM, creo que cuando le toca el bucket de 1536", "es"),
     ("GC is on, batch 1, but the 1024px previews with 30 sample steps blow past my VRAM", "en"),
     ("1536 버킷이 나올 때 가끔 OOM", "ko")],
)
def test_one_bucket_among_several_or_a_preview_size_is_not_the_bucket_list(index: Index, text: str, lang: str) -> None:
    assert understand(index.matcher, text, lang).stated.resolutions is None


@pytest.mark.parametrize(
    ("text", "lang", "count"),
    [("Qwen Edit with 2 control images, OOM at step 2", "en", 2),
     ("Qwen Image Edit Plus, three control images, batch 1, not enough memory", "en", 3),
     ("Qwen Edit con 2 imágenes de control, OOM en el paso 2", "es", 2),
     ("Qwen Edit com 2 imagens de controle, OOM no passo 2", "pt", 2),
     ("Qwen Edit avec 2 images de contrôle, OOM au step 2", "fr", 2),
     ("Qwen Edit mit 2 Kontrollbildern, OOM bei Schritt 2", "de", 2),
     ("Qwen Image Edit Plus, 컨트롤 이미지 세 장, 배치 1, 메모리 부족", "ko", 3),
     ("2 control images at 1024, OOM", "en", 2)],  # the resolution after them is no count
)
def test_control_images_are_read(index: Index, text: str, lang: str, count: int) -> None:
    u = understand(index.matcher, text, lang)
    assert u.stated.control_images == count and as_context_fields(u.stated)["control_images"] == count


@pytest.mark.parametrize(
    ("text", "lang"),
    [("crashed with CUDA out of memory around batch 361 of 1000", "en"),
     ("after the OOM it keeps skipping batch 3", "en"),
     ("the 12th batch always crashes with OOM", "en"),
     ("Falló con CUDA out of memory alrededor del lote 361 de 1000", "es"),
     ("El lote número 12 siempre da OOM", "es"),
     ("Depois do OOM ele pula o batch 3", "pt"),
     ("O 12º lote sempre dá OOM", "pt"),
     ("Plantage CUDA out of memory vers le batch 361 sur 1000", "fr"),
     ("Nach dem OOM überspringt er Batch 3", "de"),
     ("1000개 중 361번째 배치쯤에서 CUDA out of memory로 멈췄어요", "ko"),
     ("OOM 이후 배치 3을 건너뛰어요", "ko")],
)
def test_a_batch_position_is_not_a_batch_size(index: Index, text: str, lang: str) -> None:
    assert understand(index.matcher, text, lang).stated.batch_size is None


@pytest.mark.parametrize(
    ("text", "lang", "batch"),
    [("batch size 2, OOM at batch 450 of 2000", "en", 2), ("Batchgröße 2, OOM bei Batch 450 von 2000", "de", 2),
     ("batch of 4 at 1024, OOM at step 2", "en", 4), ("배치 4에 1024로, 스텝 2에서 OOM", "ko", 4)],
)
def test_a_batch_size_beside_a_position_is_still_read(index: Index, text: str, lang: str, batch: int) -> None:
    assert understand(index.matcher, text, lang).stated.batch_size == batch


@pytest.mark.parametrize(
    ("text", "lang"),
    [("OOM at 1024px", "en"), ("batch sizee 4 resolutoin 1024 OOM", "en"), ("Auflösung 1024, OOM", "de")],
)
def test_a_single_stated_resolution_is_no_bucket_spike(index: Index, text: str, lang: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "one_bucket" in u.features
    assert next(s.id for s in u.ranked if s.kind == "symptom") != "oom-bucket-spike"


@pytest.mark.parametrize(
    ("text", "lang", "step", "batch"),
    [("bacth size 4 OOM at stpe 2", "en", 2, 4), ("bach size 4, OOM at step 2", "en", 2, 4),
     ("tamaño de lotte 4, OOM en el pazo 2", "es", 2, 4), ("Batchgrösse 4, OOM bei Schrit 2", "de", 2, 4)],
)
def test_a_typo_in_the_word_before_a_number_keeps_the_number(
    index: Index, text: str, lang: str, step: int, batch: int
) -> None:
    u = understand(index.matcher, text, lang)
    assert (u.stated.step, u.stated.batch_size) == (step, batch)


def test_the_dev_of_flux_dev_is_no_advice_question(index: Index) -> None:
    # Portuguese "devo" stems to "dev": listed alone it made every "flux dev" a "should I" question.
    u = understand(index.matcher, "flux dev 로라 gradient checkpointing 꺼놨더니 3스텝에서 터짐", "ko")
    assert "should" not in u.concepts and "asks" not in u.concepts
    assert u.ranked[0].id == "oom-early-steps" and u.stated.gradient_checkpointing is False
