"""GET /v1/search and free-text POST /v1/diagnose as callers see them."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient


def test_search_shape_and_language(client: TestClient) -> None:
    r = client.get("/v1/search", params={"q": "¿Activar GC afecta la calidad?", "lang": "de", "limit": 3})
    body = r.json()
    assert r.status_code == 200 and r.headers["content-language"] == "de"
    assert body["match"] in ("confident", "ambiguous") and 1 <= len(body["hits"]) <= 3
    top = body["hits"][0]
    assert top["id"] == "faq-gc-hurts-quality" and top["kind"] == "faq"
    assert top["title"] == "Schadet GC AN der Ausgabequalität?"
    assert top["url"].startswith("/help/de/gradient-checkpointing-oom#") and 0 < top["score"] <= 1
    assert [h["score"] for h in body["hits"]] == sorted((h["score"] for h in body["hits"]), reverse=True)


@pytest.mark.parametrize("q", ["how much is a pro plan", "recette de crêpes", "비밀번호 변경"])
def test_search_off_topic_is_none(client: TestClient, q: str) -> None:
    body = client.get("/v1/search", params={"q": q}).json()
    assert body["match"] == "none" and body["hits"] == []


@pytest.mark.parametrize("params", [{}, {"q": ""}, {"q": "oom", "limit": 0}, {"q": "oom", "limit": 500},
                                    {"q": "x" * 2001}])
def test_search_bad_parameters(client: TestClient, params: dict[str, object]) -> None:
    r = client.get("/v1/search", params=params)
    assert r.status_code == 422 and r.json()["code"] == "invalid-request"


def test_diagnose_free_text_reads_context_and_answers_in_requested_language(client: TestClient) -> None:
    a = client.post("/v1/diagnose", json={"query": "Qwen Edit 1024 배치 2 GC 꺼짐 스텝 2 OOM", "lang": "es"}).json()
    assert a["lang"] == "es" and a["match"] == "confident"
    assert a["symptom"]["id"] == "oom-early-steps" and 0 < a["symptom"]["confidence"] <= 1
    assert a["context"] == {**a["context"], "model_family": "qwen-edit", "batch_size": 2,
                            "gradient_checkpointing": False, "step": 2}
    assert a["steps"][0]["id"] == "enable-gradient-checkpointing"
    assert a["steps"][0]["title"] == "Vuelve a activar Gradient Checkpointing"
    assert a["risk"]["level"] == "high"


def test_explicit_context_wins_over_text(client: TestClient) -> None:
    a = client.post("/v1/diagnose", json={"query": "GC off, OOM at step 2",
                                          "context": {"gradient_checkpointing": True}}).json()
    assert a["context"]["gradient_checkpointing"] is True
    assert "enable-gradient-checkpointing" not in [s["id"] for s in a["steps"]]


def test_log_signals_are_returned(client: TestClient) -> None:
    log = ("Generating Images:  50%|█████     | 1/2 [00:25<00:25, 25.1s/it]\n"
           "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.50 GiB. GPU 0 has a total capacity of "
           "23.64 GiB of which 1.03 GiB is free. Process 4242 has 6.00 GiB memory in use.")
    a = client.post("/v1/diagnose", json={"query": log, "lang": "fr"}).json()
    assert a["symptom"]["id"] == "oom-during-sampling" and a["context"]["phase"] == "sampling"
    signals = {s["id"]: s for s in a["signals"]}
    assert signals["cuda-oom"]["data"]["tried_to_allocate_gib"] == 2.5
    assert "other-process-vram" in signals and signals["other-process-vram"]["text"]


def test_host_ram_kill_is_not_a_gpu_oom(client: TestClient) -> None:
    log = "[ 91.0] Out of memory: Killed process 4242 (python)\nKilled"
    a = client.post("/v1/diagnose", json={"query": log}).json()
    assert a["match"] == "none" and a["symptom"] is None and a["steps"] == []
    assert [s["id"] for s in a["signals"]] == ["host-ram-kill"]


def test_a_question_the_guide_answers_is_a_topic_not_a_plan(client: TestClient) -> None:
    a = client.post("/v1/diagnose", json={"query": "what does gradient checkpointing actually do?"}).json()
    assert a["symptom"] is None and a["match"] != "none" and a["steps"] == [] and "risk" not in a
    assert a["topic"]["kind"] == "section" and a["topic"]["id"] == "what-gc-does"
    assert "activation" in a["topic"]["text"] and a["topic"]["url"].endswith("#what-gc-does")


def test_off_topic_diagnose_is_none(client: TestClient) -> None:
    a = client.post("/v1/diagnose", json={"query": "¿cómo cambio mi contraseña?", "lang": "es"}).json()
    assert a["match"] == "none" and a["symptom"] is None and a["related"] == []


def test_blank_query_is_missing_input(client: TestClient) -> None:
    r = client.post("/v1/diagnose", json={"query": "   "})
    assert r.status_code == 422 and r.json()["code"] == "missing-input"
