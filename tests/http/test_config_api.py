"""POST /v1/config/check and POST /v1/diagnose with a job config (PRODUCT.md §6).

The shared AI Toolkit configs are read in place from the `shared` fixture path; mutations load one with
`yaml.safe_load`, change the dict and send it as `config` (object) or `config_yaml` (text).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from tests.aitk import (
    EXTRACT,
    FLUX,
    OMNIGEN2,
    PUBLISHED,
    QWEN,
    WAN,
    Mutation,
    Process,
    config_text,
    dataset,
    load_config,
    train,
)
from tests.conftest import LANGS

PROBLEM_JSON = "application/problem+json"


# --- helpers -------------------------------------------------------------------------------------------------


def post_check(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/v1/config/check", json=body)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("application/json")
    answer: dict[str, Any] = r.json()
    assert r.headers["content-language"] == answer["lang"]
    return answer


def diagnose(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/v1/diagnose", json=body)
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    return answer


def problem(client: TestClient, path: str, body: Any, status: int = 422, lang: str = "en") -> dict[str, Any]:
    """A problem+json answer in the negotiated language: the body's `lang` wins over Accept-Language."""
    r = client.post(path, json=body, headers={"Accept-Language": lang})
    if isinstance(body, dict) and isinstance(body.get("lang"), str):
        lang = body["lang"]
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == PROBLEM_JSON
    assert "Traceback" not in r.text
    result: dict[str, Any] = r.json()
    assert result["status"] == status and result["lang"] == lang
    assert result["type"] == f"urn:remedy:problem:{result['code']}"
    assert result["title"] and result["detail"]
    return result


def alias_bomb(levels: int = 9, width: int = 9) -> str:
    lines = ['a0: &a0 ["lol"]']
    for i in range(1, levels + 1):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


def step_ids(answer: dict[str, Any]) -> list[str]:
    return [s["id"] for s in answer["steps"]]


def language_neutral(findings: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(f["id"], f["severity"], f["path"], f["value"], f["suggested"], f["step"]) for f in findings]


# --- POST /v1/config/check -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", PUBLISHED, ids=[n.removeprefix("train_lora_").split("_")[0] for n in PUBLISHED])
def test_published_config_as_yaml_text(client: TestClient, shared: Path, name: str) -> None:
    answer = post_check(client, config_yaml=config_text(shared, name))
    assert answer["lang"] == "en"
    assert answer["risk"]["level"] == "normal"
    assert answer["context"]["gradient_checkpointing"] is True and answer["context"]["batch_size"] == 1
    assert {f["id"] for f in answer["findings"]}.isdisjoint({"gc-off", "batch-above-safe"})
    assert answer["job"] == {"name": yaml.safe_load(config_text(shared, name))["config"]["name"], "process_index": 0}
    assert answer["knowledge_revision"]


@pytest.mark.parametrize("name", PUBLISHED, ids=[n.removeprefix("train_lora_").split("_")[0] for n in PUBLISHED])
def test_object_and_yaml_text_give_the_same_answer(client: TestClient, shared: Path, name: str) -> None:
    mutations = (train(gradient_checkpointing=False, batch_size=8),)
    as_object = post_check(client, config=load_config(shared, name, *mutations))
    as_text = post_check(client, config_yaml=yaml.safe_dump(load_config(shared, name, *mutations)))
    assert as_object == as_text


def test_answer_shape(client: TestClient, shared: Path) -> None:
    answer = post_check(client, config=load_config(shared, QWEN, train(gradient_checkpointing=False, batch_size=2)))
    assert set(answer) == {"lang", "context", "job", "risk", "findings", "knowledge_revision"}
    ctx = answer["context"]
    assert ctx["model_family"] == "qwen-edit" and ctx["model_arch"] == "qwen_image_edit"
    assert ctx["resolutions"] == [512, 768, 1024] and ctx["control_images"] == 1 and ctx["low_vram"] is True
    assert answer["risk"]["level"] == "high" and answer["risk"]["family"] == "qwen-edit"
    assert answer["risk"]["reasons"] and all(r["id"] and r["text"] for r in answer["risk"]["reasons"])
    gc = answer["findings"][0]
    assert gc == {
        **gc,
        "id": "gc-off",
        "severity": "high",
        "path": "config.process[0].train.gradient_checkpointing",
        "value": False,
        "suggested": True,
        "step": "enable-gradient-checkpointing",
    }
    assert "gradient_checkpointing: true" in gc["detail"]
    batch = next(f for f in answer["findings"] if f["id"] == "batch-above-safe")
    assert (batch["path"], batch["value"], batch["suggested"]) == ("config.process[0].train.batch_size", 2, 1)
    for f in answer["findings"]:
        assert set(f) == {"id", "severity", "title", "detail", "path", "value", "suggested", "step"}
        assert f["title"] and f["detail"] and "{" not in f["title"] + f["detail"]


CONFIGS: list[tuple[str, str, tuple[Mutation, ...]]] = [
    ("qwen-gc-off-batch-2", QWEN, (train(gradient_checkpointing=False, batch_size=2),)),
    ("flux-batch-8", FLUX, (train(batch_size=8),)),
    ("wan-gc-off-81-frames", WAN, (train(gradient_checkpointing=False), dataset(num_frames=81))),
]


@pytest.mark.parametrize(("name", "mutations"), [c[1:] for c in CONFIGS], ids=[c[0] for c in CONFIGS])
@pytest.mark.parametrize("as_yaml", [False, True], ids=["config", "config_yaml"])
def test_same_findings_in_every_language(
    client: TestClient, shared: Path, name: str, mutations: tuple[Mutation, ...], as_yaml: bool
) -> None:
    data = load_config(shared, name, *mutations)
    body: dict[str, Any] = {"config_yaml": yaml.safe_dump(data, allow_unicode=True)} if as_yaml else {"config": data}
    answers = {lang: post_check(client, **body, lang=lang) for lang in LANGS}
    en = answers["en"]
    assert en["findings"], "every case here has findings"
    for lang, answer in answers.items():
        assert answer["lang"] == lang
        assert language_neutral(answer["findings"]) == language_neutral(en["findings"])
        assert answer["context"] == en["context"]
        assert answer["job"] == en["job"]
        assert (answer["risk"]["level"], answer["risk"]["family"]) == (en["risk"]["level"], en["risk"]["family"])
        assert [r["id"] for r in answer["risk"]["reasons"]] == [r["id"] for r in en["risk"]["reasons"]]
        if lang != "en":
            for mine, english in zip(answer["findings"], en["findings"], strict=True):
                assert mine["title"] != english["title"], (lang, mine["id"])
                assert mine["detail"] != english["detail"], (lang, mine["id"])


def test_language_from_accept_language(client: TestClient, shared: Path) -> None:
    r = client.post(
        "/v1/config/check",
        json={"config": load_config(shared, FLUX, train(batch_size=8))},
        headers={"Accept-Language": "pt-BR,pt;q=0.9"},
    )
    assert r.status_code == 200 and r.json()["lang"] == "pt" and r.headers["content-language"] == "pt"
    assert "accept-language" in r.headers["vary"].lower()


def test_unsupported_language_falls_back_to_english(client: TestClient, shared: Path) -> None:
    answer = post_check(client, config=load_config(shared, FLUX), lang="ja")
    assert answer["lang"] == "en" and answer["fallback"]["requested"] == "ja"


def test_dataset_batch_path_in_the_answer(client: TestClient, shared: Path) -> None:
    answer = post_check(client, config=load_config(shared, FLUX, dataset(batch_size=8)))
    assert answer["context"]["batch_size"] == 8
    batch = next(f for f in answer["findings"] if f["id"] == "batch-above-safe")
    assert (batch["path"], batch["value"], batch["suggested"]) == ("config.process[0].datasets[0].batch_size", 8, 4)


# --- problem+json errors -------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "de", "ko"])
def test_broken_omnigen2_yaml(client: TestClient, shared: Path, lang: str) -> None:
    result = problem(client, "/v1/config/check", {"config_yaml": config_text(shared, OMNIGEN2)}, lang=lang)
    assert result["code"] == "invalid-yaml"
    assert result["line"] == 65 and result["context_line"] == 64
    assert isinstance(result["column"], int) and result["column"] >= 1
    assert "65" in result["detail"] and "64" in result["detail"]


def test_invalid_yaml_title_is_localized(client: TestClient, shared: Path) -> None:
    titles = {
        lang: problem(client, "/v1/config/check", {"config_yaml": config_text(shared, OMNIGEN2)}, lang=lang)["title"]
        for lang in LANGS
    }
    assert titles["en"] == "Invalid YAML"
    assert len(set(titles.values())) == len(LANGS)


def test_alias_bomb_is_refused(client: TestClient) -> None:
    assert problem(client, "/v1/config/check", {"config_yaml": alias_bomb()})["code"] == "yaml-too-complex"


def test_recursive_alias_is_refused(client: TestClient) -> None:
    assert problem(client, "/v1/config/check", {"config_yaml": "a: &a [*a]\n"})["code"] == "yaml-too-complex"


def test_object_tag_is_refused(client: TestClient) -> None:
    result = problem(
        client, "/v1/config/check", {"config_yaml": "job: !!python/object/apply:os.system ['echo pwned']\n"}
    )
    assert result["code"] == "yaml-unsafe-tag"
    assert "python/object/apply" in result["detail"]


def test_extract_job_is_not_a_training_job(client: TestClient, shared: Path) -> None:
    result = problem(client, "/v1/config/check", {"config_yaml": config_text(shared, EXTRACT)})
    assert result["code"] == "not-a-training-job" and "extract" in result["detail"]
    as_object = problem(client, "/v1/config/check", {"config": yaml.safe_load(config_text(shared, EXTRACT))})
    assert as_object["code"] == "not-a-training-job"


BAD: list[tuple[str, Any, str]] = [
    ("both", {"config": {"job": "extension"}, "config_yaml": "job: extension\n"}, "conflicting-input"),
    ("neither", {}, "missing-config"),
    ("only-lang", {"lang": "fr"}, "missing-config"),
    ("config-null", {"config": None}, "missing-config"),
    ("config-list", {"config": [1, 2]}, "invalid-request"),
    ("config-string", {"config": "job: extension"}, "invalid-request"),
    ("config-yaml-number", {"config_yaml": 42}, "invalid-request"),
    ("config-yaml-object", {"config_yaml": {"job": "extension"}}, "invalid-request"),
    ("unknown-field", {"config_yaml": "job: extension\n", "symptom": "oom-general"}, "invalid-request"),
    ("body-a-list", [{"config_yaml": "job: extension\n"}], "invalid-request"),
    ("empty-yaml", {"config_yaml": ""}, "invalid-config"),
    ("yaml-a-list", {"config_yaml": "- 1\n- 2\n"}, "invalid-config"),
    ("no-process", {"config_yaml": "job: extension\nconfig:\n  name: x\n"}, "invalid-config"),
    (
        "no-train-section",
        {"config": {"job": "extension", "config": {"process": [{"type": "locon"}]}}},
        "invalid-config",
    ),
    ("bad-batch", {"config": {"config": {"process": [{"train": {"batch_size": 0}}]}}}, "invalid-config"),
]


@pytest.mark.parametrize(("body", "code"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_bad_config_check_request(client: TestClient, body: Any, code: str, lang: str) -> None:
    assert problem(client, "/v1/config/check", body, lang=lang)["code"] == code


def test_wrong_type_lists_the_field(client: TestClient) -> None:
    result = problem(client, "/v1/config/check", {"config": [1, 2]})
    assert ["body", "config"] in [e["loc"] for e in result["errors"]]


def test_oversize_yaml_is_payload_too_large(client: TestClient) -> None:
    assert problem(client, "/v1/config/check", {"config_yaml": "#" * 300_000}, status=413)["code"] == (
        "payload-too-large"
    )


def test_top_bucket_alone_in_its_dataset_has_a_usable_suggestion(client: TestClient, shared: Path) -> None:
    def split(proc: Process) -> None:
        proc["datasets"] = [{"folder_path": "/a", "resolution": [512]}, {"folder_path": "/b", "resolution": 1024}]

    answer = post_check(client, config=load_config(shared, FLUX, train(gradient_checkpointing=False), split))
    bucket = next(f for f in answer["findings"] if f["id"] == "high-bucket-risky")
    assert bucket["path"] == "config.process[0].datasets[1].resolution"
    assert "None" not in bucket["detail"]


# --- POST /v1/diagnose with a config -------------------------------------------------------------------------


def test_diagnose_reads_the_context_from_config_yaml(client: TestClient, shared: Path) -> None:
    answer = diagnose(client, config_yaml=config_text(shared, QWEN), symptom="oom-early-steps", lang="fr")
    assert answer["lang"] == "fr" and answer["symptom"]["id"] == "oom-early-steps"
    ctx = answer["context"]
    assert ctx["model_family"] == "qwen-edit" and ctx["model_arch"] == "qwen_image_edit"
    assert ctx["gradient_checkpointing"] is True and ctx["batch_size"] == 1
    assert ctx["resolutions"] == [512, 768, 1024] and ctx["control_images"] == 1 and ctx["low_vram"] is True
    assert answer["risk"]["level"] == "normal" and answer["risk"]["family"] == "qwen-edit"
    ids = step_ids(answer)
    assert ids and "reduce-batch-size" not in ids, "batch 1 leaves nothing to lower"
    assert "enable-gradient-checkpointing" not in ids, "GC is on in the config"
    assert "use-low-vram-path" not in ids, "the config already sets low_vram: true"


def test_diagnose_query_with_config_yaml(client: TestClient, shared: Path) -> None:
    answer = diagnose(
        client, config_yaml=config_text(shared, FLUX), query="torch.OutOfMemoryError: CUDA out of memory at step 2"
    )
    ctx = answer["context"]
    assert ctx["model_family"] == "flux" and ctx["batch_size"] == 1 and ctx["gradient_checkpointing"] is True
    assert ctx["resolutions"] == [512, 768, 1024]
    assert "reduce-batch-size" not in step_ids(answer)


def test_config_wins_over_the_text(client: TestClient, shared: Path) -> None:
    answer = diagnose(
        client,
        config_yaml=config_text(shared, FLUX),
        query="OOM at step 2 with batch size 8 and gradient checkpointing off",
    )
    assert answer["context"]["batch_size"] == 1
    assert answer["context"]["gradient_checkpointing"] is True


def test_explicit_context_wins_over_config(client: TestClient, shared: Path) -> None:
    data = load_config(shared, QWEN, train(batch_size=4))
    answer = diagnose(
        client,
        config_yaml=yaml.safe_dump(data),
        symptom="oom-early-steps",
        context={"batch_size": 1, "gradient_checkpointing": False},
    )
    ctx = answer["context"]
    assert ctx["batch_size"] == 1 and ctx["gradient_checkpointing"] is False
    assert ctx["model_family"] == "qwen-edit", "what the context does not say still comes from the config"
    ids = step_ids(answer)
    assert ids[:2] == ["enable-gradient-checkpointing", "retry-unchanged"]
    assert "reduce-batch-size" not in ids


def test_explicit_family_wins_over_config_arch(client: TestClient, shared: Path) -> None:
    answer = diagnose(client, config=load_config(shared, QWEN), symptom="oom-general", context={"model_family": "flux"})
    assert answer["context"]["model_family"] == "flux"
    assert answer["risk"]["family"] == "flux"


@pytest.mark.parametrize(
    ("name", "batch", "target"),
    [(QWEN, 4, 1), (QWEN, 2, 1), (FLUX, 8, 4)],
    ids=["qwen-batch-4", "qwen-batch-2", "flux-batch-8"],
)
@pytest.mark.parametrize("as_yaml", [False, True], ids=["config", "config_yaml"])
def test_reduce_batch_size_patch_targets_the_safe_batch(
    client: TestClient, shared: Path, name: str, batch: int, target: int, as_yaml: bool
) -> None:
    data = load_config(shared, name, train(batch_size=batch))
    body: dict[str, Any] = {"config_yaml": yaml.safe_dump(data)} if as_yaml else {"config": data}
    answer = diagnose(client, **body, symptom="oom-early-steps")
    assert answer["context"]["batch_size"] == batch
    step = next(s for s in answer["steps"] if s["id"] == "reduce-batch-size")
    assert step["config_patch"] == {"train": {"batch_size": target}}


def test_reduce_batch_size_patch_follows_a_dataset_batch(client: TestClient, shared: Path) -> None:
    # The dataset's batch_size 8 overrides train.batch_size 1: lowering train alone would change nothing.
    answer = diagnose(client, config=load_config(shared, FLUX, dataset(batch_size=8)), symptom="oom-early-steps")
    assert answer["context"]["batch_size"] == 8
    step = next(s for s in answer["steps"] if s["id"] == "reduce-batch-size")
    assert step["config_patch"] == {"train": {"batch_size": 4}, "datasets": [{"batch_size": 4}]}


def test_diagnose_steps_identical_across_languages_with_config(client: TestClient, shared: Path) -> None:
    text = yaml.safe_dump(load_config(shared, QWEN, train(gradient_checkpointing=False, batch_size=2)))
    answers = {lang: diagnose(client, config_yaml=text, symptom="oom-early-steps", lang=lang) for lang in LANGS}
    ids = {lang: step_ids(a) for lang, a in answers.items()}
    assert len({tuple(v) for v in ids.values()}) == 1, ids
    patches = {lang: [s["config_patch"] for s in a["steps"]] for lang, a in answers.items()}
    assert len({repr(v) for v in patches.values()}) == 1
    assert ids["en"][0] == "enable-gradient-checkpointing"


def test_config_alone_is_enough_to_diagnose(client: TestClient, shared: Path) -> None:
    answer = diagnose(client, config_yaml=config_text(shared, FLUX))
    assert answer["symptom"] is None and answer["steps"] == []
    assert answer["context"]["model_family"] == "flux" and answer["risk"]["level"] == "normal"


DIAGNOSE_BAD: list[tuple[str, Callable[[Path], dict[str, Any]], str]] = [
    (
        "broken-yaml",
        lambda shared: {"config_yaml": config_text(shared, OMNIGEN2), "symptom": "oom-general"},
        "invalid-yaml",
    ),
    ("alias-bomb", lambda shared: {"config_yaml": alias_bomb(), "symptom": "oom-general"}, "yaml-too-complex"),
    ("object-tag", lambda shared: {"config_yaml": "a: !!python/object/apply:os.getcwd []\n"}, "yaml-unsafe-tag"),
    ("extract-job", lambda shared: {"config_yaml": config_text(shared, EXTRACT), "query": "OOM"}, "not-a-training-job"),
    (
        "both",
        lambda shared: {"config": {}, "config_yaml": "job: extension\n", "symptom": "oom-general"},
        "conflicting-input",
    ),
    ("config-list", lambda shared: {"config": [1], "symptom": "oom-general"}, "invalid-request"),
]


@pytest.mark.parametrize(("make", "code"), [b[1:] for b in DIAGNOSE_BAD], ids=[b[0] for b in DIAGNOSE_BAD])
def test_bad_config_in_diagnose(
    client: TestClient, shared: Path, make: Callable[[Path], dict[str, Any]], code: str
) -> None:
    result = problem(client, "/v1/diagnose", make(shared))
    assert result["code"] == code
    if code == "invalid-yaml":
        assert (result["line"], result["context_line"]) == (65, 64)
