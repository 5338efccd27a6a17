"""The OpenAPI examples (`remedy/http/examples.json`) are true: each request example, sent, gets the answer
its response example shows (same match, symptom, step ids, hits), and each response example fits the schema.

`pytest tests/http/test_examples.py --update-golden` rewrites the examples from the service (trimmed to a
few steps, hits and findings so that the document stays readable); review the diff.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from remedy.http import schemas
from remedy.http.contract import EXAMPLES
from tests.conftest import FIXTURES, LANGS

QUERIES = {
    "en": "OOM at step 2 right after I turned gradient checkpointing off",
    "es": "se me llena la VRAM en el paso 2 con GC desactivado",
    "pt": "deu OOM no passo 2 depois que desliguei o gradient checkpointing",
    "fr": "OOM à l'étape 2 juste après avoir désactivé le gradient checkpointing",
    "de": "OOM bei Step 2, nachdem ich Gradient Checkpointing ausgeschaltet habe",
    "ko": "그래디언트 체크포인팅을 끄고 나서 2스텝에서 OOM이 나요",
}
SEARCHES = {"en": "OOM during preview sampling", "es": "OOM al generar las muestras", "pt": "OOM ao gerar amostras",
            "fr": "OOM pendant les aperçus", "de": "OOM beim Erzeugen der Samples", "ko": "샘플 생성 중 OOM"}
CONFIG = (FIXTURES / "aitk-configs" / "train_lora_qwen_image_edit_32gb.yaml").read_text(encoding="utf-8")
CONFIG_OFF = CONFIG.replace("gradient_checkpointing: true", "gradient_checkpointing: false").replace(
    "batch_size: 1", "batch_size: 2")


def trim(answer: dict[str, Any]) -> dict[str, Any]:
    out = dict(answer)
    for key, keep in (("steps", 2), ("alternatives", 1), ("hits", 3), ("findings", 2), ("reasons", 2)):
        if key in out:
            out[key] = out[key][:keep]
    return out


def outline(answer: dict[str, Any]) -> dict[str, Any]:
    """What an example promises: the outcome and the ids, not the wording (which the knowledge may refine)."""
    return {
        "match": answer.get("match"),
        "symptom": (answer.get("symptom") or {}).get("id"),
        "steps": [s["id"] for s in answer.get("steps", [])],
        "hits": [(h["kind"], h["id"]) for h in answer.get("hits", [])],
        "findings": [f["id"] for f in answer.get("findings", [])],
        "risk": (answer.get("risk") or {}).get("level"),
    }


def live(client: TestClient) -> dict[str, Any]:
    """The examples as the service answers them now."""
    diagnose_req = {lang: {"query": q, "lang": lang} for lang, q in QUERIES.items()}
    check_req = {lang: {"config_yaml": CONFIG_OFF, "lang": lang} for lang in LANGS}
    return {
        "diagnose": {
            "request": {lang: {"summary": f"free text ({lang})", "value": v} for lang, v in diagnose_req.items()},
            "response": {lang: trim(client.post("/v1/diagnose", json=v).json()) for lang, v in diagnose_req.items()},
        },
        "search": {
            "parameters": {"q": SEARCHES, "lang": {lang: lang for lang in LANGS}, "limit": {lang: 3 for lang in LANGS}},
            "response": {lang: client.get("/v1/search", params={"q": q, "lang": lang, "limit": 3}).json()
                         for lang, q in SEARCHES.items()},
        },
        "check_config": {
            "request": {lang: {"summary": f"Qwen-Edit job, GC off, batch 2 ({lang})", "value": v}
                        for lang, v in check_req.items()},
            "response": {lang: trim(client.post("/v1/config/check", json=v).json()) for lang, v in check_req.items()},
        },
    }


def test_examples_are_what_the_service_answers(client: TestClient, request: pytest.FixtureRequest) -> None:
    now = live(client)
    if request.config.getoption("--update-golden"):
        EXAMPLES.write_text(json.dumps(now, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    stored = json.loads(EXAMPLES.read_text(encoding="utf-8"))
    assert stored.keys() == now.keys()
    for operation, parts in now.items():
        assert stored[operation].get("request") == parts.get("request"), operation
        assert stored[operation].get("parameters") == parts.get("parameters"), operation
        assert sorted(stored[operation]["response"]) == sorted(LANGS), operation
        for lang, answer in parts["response"].items():
            assert outline(stored[operation]["response"][lang]) == outline(answer), (operation, lang)


@pytest.mark.parametrize(("operation", "model"), [("diagnose", schemas.DiagnoseResponse),
                                                  ("search", schemas.SearchResponse),
                                                  ("check_config", schemas.ConfigCheckResponse)])
def test_response_examples_fit_the_schema(operation: str, model: type[schemas.BaseModel]) -> None:
    stored = json.loads(EXAMPLES.read_text(encoding="utf-8"))
    for lang, answer in stored[operation]["response"].items():
        assert model.model_validate(answer).model_dump(mode="json", exclude_unset=True)["lang"] == lang
