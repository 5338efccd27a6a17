"""Issue 12, session 18: an OOM told as coming only with one bucket ("OOM only when the 1536 bucket comes up", "nur
beim 1536er Bucket", `1536 버킷 나올 때만`) is the bucket spike: it comes and goes with that bucket's batches, and the
one size named is one of several buckets, no list of the run's. Twins: an OOM only at the previews stays the sampling
one, and one resolution told as the run's ("resolution 1024") is no spike. Sentences written for the test."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.understanding.probes import answered_symptom, diagnose, diagnosed_context


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "OOM only when the 1536 bucket comes up"),
    ("es", "me da OOM solo cuando le toca el bucket de 1536"),
    ("pt", "dá OOM só quando pega o bucket de 1536"),
    ("fr", "OOM seulement quand le bucket 1536 passe"),
    ("de", "OOM nur wenn der 1536er Bucket dran ist"),
    ("ko", "1536 버킷 나올 때만 OOM 나요"),
])
def test_an_oom_only_with_one_bucket_is_the_spike(client: TestClient, lang: str, text: str) -> None:
    assert answered_symptom(diagnose(client, lang, text)) == "oom-bucket-spike"
    assert "resolutions" not in diagnosed_context(client, lang, text)


@pytest.mark.parametrize(("lang", "text", "symptom"), [
    ("en", "OOM only when it makes the samples, training itself is fine", "oom-during-sampling"),
    ("de", "OOM nur beim Erstellen der Samples, das Training selbst läuft", "oom-during-sampling"),
    ("en", "resolution 1024, OOM at step 2", "oom-early-steps"),
])
def test_other_conditions_keep_their_symptom(client: TestClient, lang: str, text: str, symptom: str) -> None:
    assert answered_symptom(diagnose(client, lang, text)) == symptom
