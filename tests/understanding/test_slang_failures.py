"""Issue 12, session 13 (blind set 13's dev half): a run that "goes boom" whenever the previews start is the
sampling OOM in every language's slang ("truena", "estoura", "ça pète", "kackt ab", "터져요"), and a FLUX.1 Krea LoRA
is a FLUX LoRA ("Krea lora", "크레아"). Its twin: a loss that "exploded" is no crash. Sentences written for the test
(none is a line of a query set)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.understanding.probes import answered_symptom, diagnose


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Krea lora: training runs fine but every time it hits the samples it goes boom"),
    ("es", "lora de Krea: el entrenamiento va bien pero cada vez que llega a las samples truena"),
    ("pt", "lora do Krea: o treino vai bem mas toda vez que chega nas amostras estoura"),
    ("fr", "lora Krea : l'entraînement tourne mais à chaque fois qu'il arrive aux samples ça pète"),
    ("de", "Krea Lora: Training läuft, aber jedes Mal wenn die Samples kommen, kackt es ab"),
    ("ko", "크레아 로라 학습은 잘 되는데 샘플 생성할 때마다 터져요"),
])
def test_a_run_that_goes_boom_at_the_samples(client: TestClient, lang: str, text: str) -> None:
    answer = diagnose(client, lang, text)
    assert answered_symptom(answer) == "oom-during-sampling"
    assert answer["context"]["model_family"] == "flux"  # type: ignore[index]


def test_a_loss_that_exploded_is_no_crash(client: TestClient) -> None:
    assert answered_symptom(diagnose(client, "en", "the loss exploded after 2000 steps")) is None
