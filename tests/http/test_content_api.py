"""Content endpoints: every resource in every language, negotiation headers, ETags and 304s."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.conftest import LANGS

RESOURCES = [
    "/v1/locales", "/v1/guides", "/v1/guides/gradient-checkpointing-oom", "/v1/symptoms",
    "/v1/symptoms/oom-early-steps", "/v1/steps", "/v1/faq", "/v1/risk-table", "/v1/meta",
]


@pytest.mark.parametrize("path", RESOURCES)
@pytest.mark.parametrize("lang", LANGS)
def test_resource_in_every_language(client: TestClient, path: str, lang: str) -> None:
    r = client.get(path, params={"lang": lang})
    assert r.status_code == 200
    assert r.headers["content-language"] == lang
    assert "Accept-Language" in r.headers["vary"]
    assert r.headers["etag"].startswith('"') and not r.headers["etag"].startswith("W/")
    assert "max-age=" in r.headers["cache-control"]
    body = r.json()
    assert body["lang"] == lang and body["knowledge_revision"]
    assert "fallback" not in body


@pytest.mark.parametrize("path", RESOURCES)
def test_if_none_match_gives_304(client: TestClient, path: str) -> None:
    first = client.get(path, params={"lang": "de"})
    again = client.get(path, params={"lang": "de"}, headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304
    assert again.content == b""
    assert again.headers["etag"] == first.headers["etag"]
    other = client.get(path, params={"lang": "fr"}, headers={"If-None-Match": first.headers["etag"]})
    assert other.status_code == 200


def test_etag_differs_per_language_and_list_of_etags_matches(client: TestClient) -> None:
    es = client.get("/v1/faq", params={"lang": "es"}).headers["etag"]
    ko = client.get("/v1/faq", params={"lang": "ko"}).headers["etag"]
    assert es != ko
    r = client.get("/v1/faq", params={"lang": "ko"}, headers={"If-None-Match": f'"x", W/{ko}'})
    assert r.status_code == 304


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("pt-BR,pt;q=0.9,en;q=0.8", "pt"),
        ("de-CH", "de"),
        ("ko-KR", "ko"),
        ("en;q=0.5, fr;q=0.9", "fr"),
        ("ja, es;q=0.3", "es"),
        ("es;q=0, de", "de"),
        ("", "en"),
    ],
)
def test_accept_language_negotiation(client: TestClient, header: str, lang: str) -> None:
    r = client.get("/v1/guides", headers={"Accept-Language": header})
    assert r.headers["content-language"] == lang
    assert r.json()["lang"] == lang


def test_lang_parameter_wins_over_header(client: TestClient) -> None:
    r = client.get("/v1/guides", params={"lang": "ko"}, headers={"Accept-Language": "fr"})
    assert r.json()["lang"] == "ko"


@pytest.mark.parametrize(("requested", "header"), [("ja", None), (None, "ja-JP")])
def test_unsupported_language_falls_back_with_reason(client: TestClient, requested: str | None,
                                                     header: str | None) -> None:
    r = client.get("/v1/steps", params={"lang": requested} if requested else {},
                   headers={"Accept-Language": header} if header else {})
    body = r.json()
    assert r.status_code == 200 and body["lang"] == "en"
    assert body["fallback"]["reason"] == "unsupported-language"
    assert body["fallback"]["requested"].startswith("ja")


def test_locales_have_their_own_names(client: TestClient) -> None:
    names = {loc["code"]: loc["name"] for loc in client.get("/v1/locales").json()["locales"]}
    assert names == {"en": "English", "es": "español", "pt": "português", "fr": "français", "de": "Deutsch",
                     "ko": "한국어"}


def test_guide_has_every_section_in_order(client: TestClient) -> None:
    guide = client.get("/v1/guides/gradient-checkpointing-oom", params={"lang": "fr"}).json()["guide"]
    assert [s["id"] for s in guide["sections"]] == [
        "intro", "covers", "quick-answer", "checklist", "what-gc-does", "why-sudden-oom", "risk-table",
        "where-to-change", "speed-alternatives", "when-gc-off-ok", "what-gc-off-is-not", "faq", "summary",
    ]
    kinds = {b["kind"] for s in guide["sections"] for b in s["blocks"]}
    assert {"paragraph", "list", "checklist", "table", "code", "faq", "ordered_list"} <= kinds


def test_risk_table_rows_and_thresholds(client: TestClient) -> None:
    table = client.get("/v1/risk-table", params={"lang": "es"}).json()["risk_table"]
    assert [r["family"] for r in table["rows"]] == ["z-image", "qwen-edit", "flux"]
    assert len(table["columns"]) == 3 and all(len(r["cells"]) == 3 for r in table["rows"])
    flux = table["rows"][2]
    assert flux["safe_batch"] == 4 and {r["level"] for r in flux["rules"]} == {"high"}


@pytest.mark.parametrize(("path", "code"), [
    ("/v1/guides/nope", "unknown-guide"),
    ("/v1/symptoms/nope", "unknown-symptom"),
    ("/v1/nothing-here", "not-found"),
])
def test_unknown_ids_are_localized_404_problems(client: TestClient, path: str, code: str) -> None:
    r = client.get(path, params={"lang": "de"})
    assert r.status_code == 404
    assert r.headers["content-type"] == "application/problem+json"
    body = r.json()
    assert body["code"] == code and body["lang"] == "de" and body["status"] == 404


def test_health_and_readiness(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    ready = client.get("/readyz").json()
    assert ready["ready"] is True and ready["knowledge_revision"]
