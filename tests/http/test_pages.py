"""Help pages over HTTP: complete guide in six languages, the troubleshooter, headers, escaping."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from remedy.http.app import create_app
from remedy.runtime import Runtime
from tests.conftest import LANGS

GUIDE = "gradient-checkpointing-oom"


def strings(node: Any) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        skip = ("url", "id", "kind", "language", "symptom", "related")
        return [s for k, v in node.items() if k not in skip for s in strings(v)]
    if isinstance(node, list):
        return [s for v in node for s in strings(v)]
    return []


@pytest.mark.parametrize("lang", LANGS)
def test_guide_page_is_complete(client: TestClient, lang: str) -> None:
    r = client.get(f"/help/{lang}/{GUIDE}")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    page = html.unescape(r.text)
    assert f'<html lang="{lang}">' in r.text
    guide = client.get(f"/v1/guides/{GUIDE}", params={"lang": lang}).json()["guide"]
    missing = [s for s in strings(guide["sections"]) if " ".join(s.split()) not in " ".join(page.split())]
    assert not missing, missing[:5]
    assert "{{" not in r.text and "{%" not in r.text and "Undefined" not in r.text
    for section in guide["sections"]:
        assert f'id="{section["id"]}"' in r.text
        if section["title"]:
            assert f'href="#{section["id"]}"' in r.text
    assert "<table" in r.text and '<th scope="col">' in r.text and "<pre" in r.text


@pytest.fixture(scope="module")
def public_client(runtime: Runtime) -> Iterator[TestClient]:
    settings = runtime.settings.model_copy(update={"public_base_url": "https://help.example.com"})
    with TestClient(create_app(settings, runtime=runtime)) as c:
        yield c


@pytest.mark.parametrize("lang", LANGS)
def test_alternates_canonical_and_switcher(public_client: TestClient, lang: str) -> None:
    text = public_client.get(f"/help/{lang}/{GUIDE}", headers={"Host": "evil.example"}).text
    for code in LANGS:
        assert f'hreflang="{code}" href="https://help.example.com/help/{code}/{GUIDE}"' in text
    assert f'hreflang="x-default" href="https://help.example.com/help/en/{GUIDE}"' in text
    assert f'<link rel="canonical" href="https://help.example.com/help/{lang}/{GUIDE}">' in text
    assert "evil.example" not in text
    for name in ("English", "español", "português", "français", "Deutsch", "한국어"):
        assert f">{name}</a>" in text


def test_links_without_a_public_address_are_paths_whatever_the_host(client: TestClient) -> None:
    text = client.get(f"/help/fr/{GUIDE}", headers={"Host": "evil.example"}).text
    assert f'<link rel="canonical" href="/help/fr/{GUIDE}">' in text and "evil.example" not in text
    assert f'hreflang="ko" href="/help/ko/{GUIDE}"' in text


def test_headers_cache_and_security(client: TestClient) -> None:
    r = client.get(f"/help/de/{GUIDE}")
    csp = r.headers["content-security-policy"]
    assert "unsafe-inline" not in csp and "script-src 'self'" in csp and "style-src 'self'" in csp
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["content-language"] == "de" and "max-age" in r.headers["cache-control"]
    again = client.get(f"/help/de/{GUIDE}", headers={"If-None-Match": r.headers["etag"]})
    assert again.status_code == 304
    assert "<script>" not in r.text and "style=" not in r.text  # no inline script or style: CSP holds


@pytest.mark.parametrize(("header", "lang"), [("ko-KR,ko;q=0.9", "ko"), ("pt-BR", "pt"), ("ja", "en"), ("", "en")])
def test_help_root_redirects_by_language(client: TestClient, header: str, lang: str) -> None:
    r = client.get("/help/", headers={"Accept-Language": header}, follow_redirects=False)
    assert r.status_code == 307 and r.headers["location"] == f"/help/{lang}/{GUIDE}"
    assert r.headers["vary"] == "Accept-Language"


def test_regional_path_redirects_and_unknown_language_is_404(client: TestClient) -> None:
    r = client.get(f"/help/de-CH/{GUIDE}", follow_redirects=False)
    assert r.status_code == 301 and r.headers["location"] == f"/help/de/{GUIDE}"
    assert client.get(f"/help/xx/{GUIDE}").status_code == 404
    assert client.get("/help/en/no-such-guide").status_code == 404


def test_static_assets(client: TestClient) -> None:
    page = client.get(f"/help/en/{GUIDE}").text
    css = re.search(r'href="(/static/remedy\.css\?v=\w+)"', page)
    assert css
    r = client.get(css.group(1))
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/css")
    assert "immutable" in r.headers["cache-control"]
    assert client.get("/static/nope.css").status_code == 404


def api_steps(client: TestClient, lang: str, body: dict[str, Any]) -> list[str]:
    return [s["id"] for s in client.post("/v1/diagnose", json={**body, "lang": lang}).json()["steps"]]


def page_steps(client: TestClient, lang: str, params: dict[str, str]) -> list[str]:
    text = client.get(f"/help/{lang}/troubleshoot", params=params).text
    block = re.search(r'<ol id="steps"[^>]*>(.*?)</ol>', text, re.S)
    assert block, "no steps list"
    return re.findall(r'data-step="([a-z-]+)"', block.group(1))


CASES = [
    ({"q": "OOM at step 2 after turning gradient checkpointing off"},
     {"query": "OOM at step 2 after turning gradient checkpointing off"}),
    ({"symptom": "oom-during-sampling", "gradient_checkpointing": "true", "model_family": "qwen-edit",
      "batch_size": "1", "resolutions": "512, 1024"},
     {"symptom": "oom-during-sampling", "context": {"gradient_checkpointing": True, "model_family": "qwen-edit",
                                                    "batch_size": 1, "resolutions": [512, 1024]}}),
    ({"symptom": "oom-general", "num_frames": "81", "gradient_checkpointing": "false"},
     {"symptom": "oom-general", "context": {"num_frames": 81, "gradient_checkpointing": False}}),
    ({"symptom": "weak-samples"}, {"symptom": "weak-samples"}),
]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("params", "body"), CASES)
def test_troubleshooter_gives_the_api_steps(client: TestClient, lang: str, params: dict[str, str],
                                            body: dict[str, Any]) -> None:
    steps = page_steps(client, lang, params)
    assert steps and steps == api_steps(client, lang, body)


def test_reflected_input_is_escaped(client: TestClient) -> None:
    evil = '"><script>alert(1)</script><img src=x onerror=alert(2)>'
    text = client.get("/help/en/troubleshoot", params={"q": evil, "resolutions": evil}).text
    assert "<script>alert(1)</script>" not in text and "<img src=x" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text


@pytest.mark.parametrize(("field", "value"), [("batch_size", "two"), ("batch_size", "-3"), ("num_frames", "0"),
                                              ("resolutions", "big"), ("symptom", "nope"), ("model_family", "sd")])
def test_bad_form_values_are_shown_not_500(client: TestClient, field: str, value: str) -> None:
    r = client.get("/help/fr/troubleshoot", params={"q": "OOM", field: value})
    assert r.status_code == 200 and 'class="form-error"' in r.text


def test_empty_troubleshooter_has_no_results(client: TestClient) -> None:
    text = client.get("/help/ko/troubleshoot").text
    assert 'id="steps"' not in text and "<form" in text
