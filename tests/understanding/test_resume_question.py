"""Issue 12, session 12 (lead): a question how to resume a run from its saved state is no symptom of the guide.

"My RunPod instance died at step 1800, how do I resume from the last checkpoint?" told a stop at a step, which reads
as an OOM without memory evidence (`crash_oom`), so an OOM at step 1800 was answered to a user who asked how to go on
from a saved file, in all six languages. The question is a `resume_question` now (`intents.yaml` `outside`): the
guide has no answer for it, and the stop beside it is no memory evidence. Only the question is: the resume words alone
("I resumed the training and it crashes at step 2", "학습 재개했더니 2스텝에서 죽어요") are `untaught`, whose rule keeps
a crash, so a resumed run told failing keeps its OOM. Twins that tell the memory running out or GC turned off beside
the same question keep their symptom.

Every sentence was written for this test, as forum users write in each language (none is a line of the query sets)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.understanding.probes import diagnosed_symptom

RESUME_ASKED = [
    ("en", "My RunPod instance died at step 1800 of 3000. How do I resume training from the last checkpoint?"),
    ("en", "spot instance got preempted at step 2600, can I pick up where it left off with the saved safetensors?"),
    ("es", "Se me cayo el pod en el paso 1800. Como retomo el entrenamiento desde el ultimo checkpoint?"),
    ("es", "se cortó la luz en el paso 900, ¿cómo reanudo desde el último guardado sin empezar de cero?"),
    ("pt", "Minha instância caiu no passo 1800. Como retomar o treino do último checkpoint sem começar do zero?"),
    ("pt", "o colab desconectou no passo 1200, dá pra continuar de onde parou com o arquivo salvo?"),
    ("fr", "Mon instance a planté au step 1800. Comment reprendre l'entraînement depuis le dernier checkpoint ?"),
    ("fr", "le pod s'est arrêté au step 2000, je peux reprendre là où il s'est arrêté avec le fichier sauvegardé ?"),
    ("de", "Meine Instanz ist bei Step 1800 abgestürzt. Wie setze ich das Training vom letzten Checkpoint fort?"),
    ("de", "Strom weg bei Schritt 900, kann ich das Training fortsetzen oder muss ich von vorne anfangen?"),
    ("ko", "런팟 인스턴스가 1800 스텝에서 죽었어요. 마지막 체크포인트에서 이어서 학습하려면 어떻게 하나요?"),
    ("ko", "코랩이 1200스텝에서 끊겼는데 저장된 파일로 학습 재개할 수 있나요?"),
]

OOM_THEN_RESUME = [
    ("en", "CUDA out of memory at step 1800, how do I resume from the last checkpoint?", "oom-general"),
    ("en", "I turned gradient checkpointing off and it crashed at step 2, how do I resume the run?", "oom-early-steps"),
    ("es", "me quedé sin VRAM en el paso 1800, ¿cómo retomo desde el último checkpoint?", "oom-general"),
    ("pt", "deu out of memory no passo 1800, como retomar do último checkpoint?", "oom-general"),
    ("fr", "CUDA out of memory au step 1800, comment reprendre depuis le dernier checkpoint ?", "oom-general"),
    ("de", "CUDA out of memory bei Step 1800, wie setze ich das Training vom letzten Checkpoint fort?", "oom-general"),
    ("ko", "1800 스텝에서 CUDA out of memory 떴어요, 체크포인트에서 이어서 학습하려면 어떻게 하나요?", "oom-general"),
]


RESUMED_AND_FAILING = [
    ("en", "I resumed the training from the last checkpoint and now it crashes at step 2"),
    ("es", "reanudé el entrenamiento desde el checkpoint y se muere en el paso 2"),
    ("pt", "retomei o treino do último checkpoint e agora morre no passo 2"),
    ("fr", "j'ai repris l'entraînement depuis le dernier checkpoint et ça plante au step 2"),
    ("de", "Training vom letzten Checkpoint fortgesetzt, jetzt stürzt es bei Step 2 ab"),
    ("ko", "학습 재개했더니 2스텝에서 죽어요"),
]


@pytest.mark.parametrize(("lang", "text"), RESUME_ASKED)
def test_a_resume_question_is_no_symptom(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) is None


@pytest.mark.parametrize(("lang", "text", "symptom"), OOM_THEN_RESUME)
def test_an_oom_told_beside_it_keeps_its_symptom(client: TestClient, lang: str, text: str, symptom: str) -> None:
    assert diagnosed_symptom(client, lang, text) == symptom


@pytest.mark.parametrize(("lang", "text"), RESUMED_AND_FAILING)
def test_a_resumed_run_told_failing_keeps_its_oom(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == "oom-early-steps"
