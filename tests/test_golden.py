"""Golden answers: a fixed list of requests in all six languages, reviewed as diffs.

`pytest tests/test_golden.py --update-golden` rewrites tests/golden/ from the service.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.conftest import LANGS

GOLDEN = Path(__file__).parent / "golden"

REQUESTS: dict[str, dict[str, Any]] = {
    "early-steps-qwen-gc-off": {"symptom": "oom-early-steps", "context": {
        "model_arch": "qwen_image_edit", "gradient_checkpointing": False, "batch_size": 2,
        "resolutions": [512, 768, 1024], "control_images": 2}},
    "sampling-zimage-unknown-gc": {"symptom": "oom-during-sampling", "context": {
        "model_arch": "zimage:turbo", "batch_size": 1, "resolutions": [1024, 1536]}},
    "bucket-spike-flux-gc-on": {"symptom": "oom-bucket-spike", "context": {
        "model_family": "flux", "gradient_checkpointing": True, "batch_size": 6, "resolutions": [512, 1024]}},
    "persists-wan-video": {"symptom": "oom-persists-with-gc", "context": {
        "model_arch": "wan22_14b", "batch_size": 1, "num_frames": 81, "resolutions": [512]}},
    "general-nothing-known": {"symptom": "oom-general"},
    "slow-training": {"symptom": "slow-training", "context": {"gradient_checkpointing": True}},
    "weak-samples": {"symptom": "weak-samples"},
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", sorted(REQUESTS))
def test_golden_answer(client: TestClient, request: pytest.FixtureRequest, name: str, lang: str) -> None:
    r = client.post("/v1/diagnose", json={**REQUESTS[name], "lang": lang})
    assert r.status_code == 200, r.text
    answer = r.json()
    answer.pop("knowledge_revision")
    path = GOLDEN / f"{name}.{lang}.json"
    if request.config.getoption("--update-golden"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps(answer, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    assert path.exists(), f"no golden answer {path.name}: run pytest --update-golden and review it"
    assert answer == json.loads(path.read_text(encoding="utf-8"))


def _job(train: dict[str, Any], model: dict[str, Any], datasets: list[dict[str, Any]],
         sample: dict[str, Any]) -> dict[str, Any]:
    return {"job": "extension", "config": {"name": "golden", "process": [
        {"type": "sd_trainer", "train": train, "model": model, "datasets": datasets, "sample": sample}]}}


CHECKS: dict[str, dict[str, Any]] = {
    # GC on, Qwen-Edit, previews at 1024x1024: a hint on previews, nothing about GC or tight memory
    "check-qwen-edit-gc-on-large-previews": _job(
        {"batch_size": 1, "gradient_checkpointing": True}, {"arch": "qwen_image_edit", "low_vram": True},
        [{"folder_path": "/d", "resolution": [512, 768, 1024], "control_path": "/c"}],
        {"width": 1024, "height": 1024, "sample_steps": 20}),
    # GC off, FLUX, batch 8 on several buckets, 40 sample steps: every finding, each naming its own facts
    "check-flux-gc-off-batch-8": _job(
        {"batch_size": 8, "gradient_checkpointing": False}, {"arch": "flux"},
        [{"folder_path": "/d", "resolution": [512, 768, 1024]}],
        {"width": 768, "height": 768, "sample_steps": 40}),
    # GC on, no arch (family unknown), video previews of 41 frames: the frames are what made it fire
    "check-unknown-model-video-previews": _job(
        {"batch_size": 1}, {"name_or_path": "some/model"}, [{"folder_path": "/d", "resolution": [512]}],
        {"width": 512, "height": 512, "sample_steps": 20, "num_frames": 41}),
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", sorted(CHECKS))
def test_golden_config_check(client: TestClient, request: pytest.FixtureRequest, name: str, lang: str) -> None:
    r = client.post("/v1/config/check", json={"config": CHECKS[name], "lang": lang})
    assert r.status_code == 200, r.text
    answer = r.json()
    answer.pop("knowledge_revision", None)
    path = GOLDEN / f"{name}.{lang}.json"
    if request.config.getoption("--update-golden"):
        path.write_text(json.dumps(answer, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    assert path.exists(), f"no golden answer {path.name}: run pytest --update-golden and review it"
    assert answer == json.loads(path.read_text(encoding="utf-8"))
