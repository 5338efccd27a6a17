"""POST /v1/diagnose: steps per PRODUCT.md §5, identical ids and order in all six languages."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.conftest import LANGS

CONTEXTS: list[dict[str, Any]] = [
    {},
    {"gradient_checkpointing": False, "model_arch": "qwen_image_edit", "batch_size": 2, "resolutions": [512, 1024]},
    {"gradient_checkpointing": True, "model_family": "flux", "batch_size": 8, "resolutions": [512, 768, 1024]},
    {"gradient_checkpointing": True, "model_arch": "wan22_14b", "batch_size": 1, "num_frames": 81,
     "resolutions": [512]},
    {"model_arch": "zimage:turbo", "gradient_checkpointing": False, "batch_size": 1, "low_vram": True},
]
SYMPTOMS = ["oom-early-steps", "oom-during-sampling", "oom-bucket-spike", "oom-persists-with-gc", "oom-general",
            "slow-training", "weak-samples"]


def diagnose(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/v1/diagnose", json=body)
    assert r.status_code == 200, r.text
    result: dict[str, Any] = r.json()
    return result


@pytest.mark.parametrize("symptom", SYMPTOMS)
@pytest.mark.parametrize("ctx", range(len(CONTEXTS)))
def test_same_steps_in_every_language(client: TestClient, symptom: str, ctx: int) -> None:
    answers = {lang: diagnose(client, symptom=symptom, context=CONTEXTS[ctx], lang=lang) for lang in LANGS}
    ids = {lang: [s["id"] for s in a["steps"]] for lang, a in answers.items()}
    assert len({tuple(v) for v in ids.values()}) == 1, ids
    assert ids["en"], "every symptom has at least one step in these contexts"
    for lang, answer in answers.items():
        assert answer["lang"] == lang
        assert [s["order"] for s in answer["steps"]] == list(range(1, len(answer["steps"]) + 1))
        assert answer["risk"]["level"] == answers["en"]["risk"]["level"]
        assert answer["needs"] == answers["en"]["needs"]
        if lang != "en":
            assert answer["symptom"]["title"] != answers["en"]["symptom"]["title"]
            assert [s["detail"] for s in answer["steps"]] != [s["detail"] for s in answers["en"]["steps"]]


def test_answer_shape(client: TestClient) -> None:
    a = diagnose(client, symptom="oom-early-steps", lang="es",
                 context={"gradient_checkpointing": False, "model_arch": "qwen_image_edit", "batch_size": 2,
                          "resolutions": [512, 1024]})
    assert a["match"] == "confident" and a["symptom"]["id"] == "oom-early-steps"
    assert a["symptom"]["confidence"] == 1.0 and a["alternatives"] == [] and a["signals"] == []
    assert a["context"]["model_family"] == "qwen-edit"
    assert a["risk"] == {**a["risk"], "level": "high", "family": "qwen-edit"}
    assert all(r["text"] for r in a["risk"]["reasons"])
    first = a["steps"][0]
    assert first["id"] == "enable-gradient-checkpointing"
    assert first["config_patch"] == {"train": {"gradient_checkpointing": True}}
    assert "gradient_checkpointing: true" in first["detail"]
    assert first["reason"]["rule"] == "gc-first" and first["reason"]["text"]
    assert first["source"]["url"] == "/help/es/gradient-checkpointing-oom#checklist"
    batch = next(s for s in a["steps"] if s["id"] == "reduce-batch-size")
    assert batch["config_patch"] == {"train": {"batch_size": 1}}
    assert {r["kind"] for r in a["related"]} <= {"faq", "section"} and a["related"]
    assert a["knowledge_revision"]


def test_no_batch_step_at_batch_one(client: TestClient) -> None:
    a = diagnose(client, symptom="oom-general", context={"batch_size": 1, "gradient_checkpointing": True})
    assert "reduce-batch-size" not in [s["id"] for s in a["steps"]]


def test_lang_from_body_then_query_then_header(client: TestClient) -> None:
    r = client.post("/v1/diagnose?lang=fr", json={"symptom": "weak-samples", "lang": "ko"},
                    headers={"Accept-Language": "de"})
    assert r.json()["lang"] == "ko" and r.headers["content-language"] == "ko"
    r = client.post("/v1/diagnose?lang=fr", json={"symptom": "weak-samples"}, headers={"Accept-Language": "de"})
    assert r.json()["lang"] == "fr"
    r = client.post("/v1/diagnose", json={"symptom": "weak-samples"}, headers={"Accept-Language": "de-AT"})
    assert r.json()["lang"] == "de" and r.headers["vary"] == "Accept-Language"


def test_unsupported_language_answers_in_english_and_says_so(client: TestClient) -> None:
    a = diagnose(client, symptom="weak-samples", lang="it")
    assert a["lang"] == "en" and a["fallback"]["reason"] == "unsupported-language"
    assert a["fallback"]["requested"] == "it"
