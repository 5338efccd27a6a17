"""The inputs that once gave a 500 or a wrong reading (issue 13), each with the answer it must get now."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

JSON = {"content-type": "application/json"}
JOB = "job: train\nconfig:\n  name: job\n  process:\n  - train: {batch_size: %s}\n"


def post(client: TestClient, path: str, raw: str) -> tuple[int, dict[str, object]]:
    r = client.post(path, content=raw.encode(), headers=JSON)
    return r.status_code, r.json()


@pytest.mark.parametrize(
    ("path", "raw"),
    [
        ("/v1/config/check",
         '{"config_yaml": "job: train\\nconfig:\\n  name: \\ud800\\n  process:\\n  - train: {}\\n"}'),
        ("/v1/config/check", '{"config": {"job": "train", "config": {"name": "\\ud800", "process": [{"train": {}}]}}}'),
        ("/v1/diagnose", '{"query": "OOM", "config": {"job": "train", "config": {"name": "\\udc00x", '
                         '"process": [{"train": {}}]}}}'),
        ("/v1/diagnose", '{"query": "OOM at step 2 \\ud83d"}'),
    ],
    ids=["config_yaml", "config-object", "diagnose-config", "diagnose-query"],
)
def test_half_a_surrogate_pair_is_invalid_utf8(client: TestClient, path: str, raw: str) -> None:
    status, body = post(client, path, raw)
    assert (status, body["code"]) == (400, "invalid-utf8")


def test_a_whole_surrogate_pair_is_text(client: TestClient) -> None:
    status, _ = post(client, "/v1/diagnose", '{"query": "OOM at step 2 \\ud83d\\ude00"}')
    assert status == 200


def test_a_yaml_integer_of_thousands_of_digits_is_invalid_yaml_with_its_line(client: TestClient) -> None:
    status, body = post(client, "/v1/config/check", json.dumps({"config_yaml": JOB % ("1" * 4301)}))
    assert (status, body["code"], body["line"]) == (422, "invalid-yaml", 5)


@pytest.mark.parametrize(("field", "value"), [("batch_size", "²"), ("num_frames", "²"), ("resolutions", "512 ²"),
                                              ("batch_size", "٣"), ("batch_size", "9" * 10)])
def test_unicode_digits_in_the_troubleshooter_are_a_field_error(client: TestClient, field: str, value: str) -> None:
    r = client.get("/help/en/troubleshoot", params={"q": "OOM at step 2", field: value})
    assert r.status_code == 200
    assert 'aria-invalid="true"' in r.text or "Enter" in r.text


@pytest.mark.parametrize("value", [True, "2", 2.0, "true"])
def test_context_numbers_are_strict(client: TestClient, value: object) -> None:
    status, body = post(client, "/v1/diagnose", json.dumps({"query": "OOM", "context": {"batch_size": value}}))
    assert (status, body["code"]) == (422, "invalid-request")


@pytest.mark.parametrize("value", [1, "false", "no"])
def test_context_switches_are_strict(client: TestClient, value: object) -> None:
    status, body = post(client, "/v1/diagnose",
                        json.dumps({"query": "OOM", "context": {"gradient_checkpointing": value}}))
    assert (status, body["code"]) == (422, "invalid-request")


def test_train_as_a_list_is_not_a_training_job(client: TestClient) -> None:
    status, body = post(client, "/v1/config/check",
                        json.dumps({"config_yaml": "job: train\nconfig:\n  process:\n  - train: []\n"}))
    assert (status, body["code"]) == (422, "invalid-config")


def test_the_troubleshooter_shows_a_long_query_once(client: TestClient) -> None:
    query = ("it runs out of VRAM at step 2 with gradient checkpointing off " * 400)[:20_000]
    r = client.get("/help/en/troubleshoot", params={"q": query})
    assert r.status_code == 200
    assert r.text.count("it runs out of VRAM at step 2") == query.count("it runs out of VRAM at step 2")
    assert len(r.content) < len(query) + 40_000  # the page around it, not 13 copies of it
    short = client.get("/help/en/troubleshoot", params={"q": "OOM at step 2", "batch_size": "2"})
    # the language switcher (6 links) and the answer's questions (a link per option) keep the short form
    assert short.text.count("q=OOM+at+step+2&amp;batch_size=2") >= 6
