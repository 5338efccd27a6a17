"""Every error path returns a localized problem+json with a stable code, never a 500 or a stack trace."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from remedy import errors

BAD = [
    ("empty", b"", "empty-body", 400),
    ("malformed", b'{"symptom": ', "malformed-json", 400),
    ("not-an-object", b"[1, 2]", "invalid-request", 422),
    ("nothing-to-diagnose", b'{"context": {}}', "missing-input", 422),
    ("unknown-symptom", b'{"symptom": "oom-everywhere"}', "unknown-symptom", 422),
    ("unknown-family", b'{"symptom": "oom-general", "context": {"model_family": "sd15"}}',
     "unknown-model-family", 422),
    ("wrong-type", b'{"symptom": "oom-general", "context": {"batch_size": "big"}}', "invalid-request", 422),
    ("negative", b'{"symptom": "oom-general", "context": {"batch_size": -2}}', "invalid-request", 422),
    ("unknown-field", b'{"symptom": "oom-general", "colour": "red"}', "invalid-request", 422),
    ("bad-phase", b'{"symptom": "oom-general", "context": {"phase": "dreaming"}}', "invalid-request", 422),
    ("symptom-number", b'{"symptom": 5}', "invalid-request", 422),
]


@pytest.mark.parametrize(("body", "code", "status"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
@pytest.mark.parametrize("lang", ["en", "es", "ko"])
def test_bad_diagnose_request(client: TestClient, body: bytes, code: str, status: int, lang: str) -> None:
    r = client.post("/v1/diagnose", content=body,
                    headers={"Content-Type": "application/json", "Accept-Language": lang})
    assert r.status_code == status
    assert r.headers["content-type"] == "application/problem+json"
    assert r.headers["content-language"] == lang
    problem: dict[str, Any] = r.json()
    assert problem["code"] == code and problem["status"] == status
    assert problem["type"] == f"urn:remedy:problem:{code}"
    assert problem["title"] and problem["detail"] and problem["lang"] == lang
    assert "Traceback" not in r.text


def test_problem_titles_are_translated(client: TestClient) -> None:
    titles = {
        lang: client.post("/v1/diagnose", content=b"{", headers={"Accept-Language": lang,
                                                             "Content-Type": "application/json"}).json()["title"]
        for lang in ("en", "es", "pt", "fr", "de", "ko")
    }
    assert titles["en"] == "Malformed JSON"
    assert len(set(titles.values())) == 6


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded"])
def test_non_json_body_is_415(client: TestClient, content_type: str | None) -> None:
    headers = {"Content-Type": content_type} if content_type else {}
    r = client.post("/v1/diagnose", content=b'{"symptom": "weak-samples"}', headers=headers)
    assert r.status_code == 415 and r.json()["code"] == "unsupported-media-type"


def test_json_suffix_media_type_is_accepted(client: TestClient) -> None:
    r = client.post("/v1/diagnose", content=b'{"symptom": "weak-samples"}',
                    headers={"Content-Type": "application/vnd.remedy+json; charset=utf-8"})
    assert r.status_code == 200


def test_method_not_allowed(client: TestClient) -> None:
    r = client.delete("/v1/steps")
    assert r.status_code == 405 and r.json()["code"] == "method-not-allowed"
    assert "GET" in r.headers["allow"]


def test_validation_errors_are_listed(client: TestClient) -> None:
    r = client.post("/v1/diagnose", json={"symptom": "oom-general", "context": {"batch_size": 0}})
    errs = r.json()["errors"]
    assert errs[0]["loc"] == ["body", "context", "batch_size"]


def test_every_error_code_is_documented() -> None:
    readme = (errors.__file__ and __import__("pathlib").Path(errors.__file__).parents[1] / "README.md").read_text()
    classes = [c for c in vars(errors).values() if isinstance(c, type) and issubclass(c, errors.RemedyError)]
    for cls in classes:
        assert f"`{cls.code}`" in readme, cls.code
