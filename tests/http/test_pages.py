"""Help pages over HTTP: complete guide in six languages, the troubleshooter, headers, escaping."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from remedy.http.app import create_app
from remedy.rendering.pages import Pages, load_assets
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
    ({"symptom": "oom-during-sampling", "model_family": "qwen-edit", "gradient_checkpointing": "false",
      "control_images": "2", "sampling_disabled": "true", "low_vram": "false", "resolutions": "1024"},
     {"symptom": "oom-during-sampling", "context": {"model_family": "qwen-edit", "gradient_checkpointing": False,
                                                    "control_images": 2, "sampling_disabled": True,
                                                    "low_vram": False, "resolutions": [1024]}}),
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
                                              ("resolutions", "big"), ("symptom", "nope"), ("model_family", "sd"),
                                              ("control_images", "65"), ("low_vram", "maybe")])
def test_bad_form_values_are_shown_not_500(client: TestClient, field: str, value: str) -> None:
    r = client.get("/help/fr/troubleshoot", params={"q": "OOM", field: value})
    assert r.status_code == 200 and 'class="form-error"' in r.text


def test_empty_troubleshooter_has_no_results(client: TestClient) -> None:
    text = client.get("/help/ko/troubleshoot").text
    assert 'id="steps"' not in text and "<form" in text


# --- what a person reads: names and labels, never ids; punctuation of the language ------------------------


def visible_text(page: str) -> str:
    """The text a reader sees: no tags, no attribute values, entities decoded."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def understood(page: str) -> list[str]:
    """The "label: value" parts of the troubleshooter's understood line."""
    found = re.search(r'<div class="understood">(.*?)</div>', page, re.S)
    assert found, "no understood line"
    return [visible_text(part).strip() for part in re.findall(r"<li>(.*?)</li>", found.group(1), re.S)]


UNDERSTOOD_LABELS = {  # "Model family" and "Failed at step" in each language, with its own colon
    "en": ("Model family: ", "Failed at step: "),
    "es": ("Familia de modelo: ", "Falló en el paso: "),
    "pt": ("Família de modelo: ", "Falhou no passo: "),
    "fr": ("Famille de modèle\u00a0: ", "Échec au step\u00a0: "),
    "de": ("Modellfamilie: ", "Abbruch bei Step: "),
    "ko": ("모델 계열: ", "실패한 스텝: "),
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("family", ["z-image", "qwen-edit", "flux", "other"])
def test_understood_line_names_the_family_and_labels_the_step(
    client: TestClient, index: Any, lang: str, family: str
) -> None:
    page = client.get(f"/help/{lang}/troubleshoot",
                      params={"q": "OOM at step 2", "model_family": family, "gradient_checkpointing": "false"}).text
    parts = understood(page)
    family_label, step_label = UNDERSTOOD_LABELS[lang]
    assert f"{family_label}{index.texts[lang].families[family].name}" in parts  # the name, never the id
    assert f"{step_label}2" in parts
    if lang != "en":
        assert not any("step 2" in part for part in parts)


IDS_SHOWN_NOWHERE = ("z-image", "qwen-edit", "oom-", "faq-", "gc-on", "gc-off")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("params", [
    {"q": "Qwen Edit, batch 2, 1024, OOM during the baseline samples, GC off"},
    {"symptom": "oom-bucket-spike", "model_family": "z-image", "resolutions": "512 1024 1536", "batch_size": "2"},
    {"symptom": "slow-training", "model_family": "other", "num_frames": "81"},
    {"q": "recette de crêpes"},
], ids=["free-text", "symptom-context", "slow-video", "no-match"])
def test_no_id_is_shown_to_a_reader(client: TestClient, index: Any, lang: str, params: dict[str, str]) -> None:
    text = visible_text(client.get(f"/help/{lang}/troubleshoot", params=params).text)
    ids = [*index.symptoms, *index.steps, *index.faq, *(s for s in index.sections if "-" in s), *IDS_SHOWN_NOWHERE]
    shown = [i for i in ids if re.search(rf"(?<![\w/#-]){re.escape(i)}", text)]
    assert not shown, shown


@pytest.mark.parametrize("lang", LANGS)
def test_guide_page_shows_no_id(client: TestClient, index: Any, lang: str) -> None:
    text = visible_text(client.get(f"/help/{lang}/{GUIDE}").text)
    ids = [*index.symptoms, *index.steps, *index.faq, *(s for s in index.sections if "-" in s)]
    assert not [i for i in ids if re.search(rf"(?<![\w/#-]){re.escape(i)}", text)]


def test_french_labels_take_a_no_break_space_before_the_colon(client: TestClient) -> None:
    page = client.get("/help/fr/troubleshoot", params={"symptom": "oom-early-steps", "model_family": "flux",
                                                        "gradient_checkpointing": "false", "batch_size": "8"}).text
    labels = re.findall(r"<strong>([^<]*)</strong>", page)
    assert labels and all(label.endswith("\u00a0:") for label in labels if ":" in label), labels
    assert "Risque de manque de mémoire\u00a0: élevé" in page
    assert re.search(r"Confiance 100\u00a0%", page)
    assert all("\u00a0: " in part and " :" not in part for part in understood(page))
    english = client.get("/help/en/troubleshoot", params={"symptom": "oom-early-steps"}).text
    assert "<strong>Why:</strong>" in english


@pytest.mark.parametrize("lang", LANGS)
def test_table_of_contents_does_not_number_numbered_titles(client: TestClient, index: Any, lang: str) -> None:
    page = client.get(f"/help/{lang}/{GUIDE}").text
    toc = re.search(r'<nav class="toc".*?</nav>', page, re.S)
    assert toc and "<ol" not in toc.group()  # the titles carry the guide's own "1) …"
    assert re.search(r"(^|\s)3\) ", visible_text(toc.group()))
    for faq_id in index.faq:  # each FAQ entry is listed under the FAQ section, with its own anchor
        assert f'href="#{faq_id}"' in toc.group() and f'id="{faq_id}"' in page


@pytest.mark.parametrize("lang", LANGS)
def test_faq_links_go_to_the_entry(client: TestClient, lang: str) -> None:
    for entry in client.get("/v1/faq", params={"lang": lang}).json()["faq"]:
        assert entry["url"].endswith(f"#{entry['id']}")
    hits = client.get("/v1/search", params={"q": "GC on and still OOM, what now?", "lang": lang}).json()["hits"]
    faq_hits = [h for h in hits if h["kind"] == "faq"]
    assert faq_hits and all(h["url"].endswith(f"#{h['id']}") for h in faq_hits)


def test_a_topic_answer_is_shown_with_its_link(runtime: Any) -> None:
    """When the answer's best match is an FAQ entry (`topic`, PRODUCT.md §6), the page shows its text and link."""
    pages = Pages(runtime.index, runtime.catalogs, load_assets())
    topic = {"kind": "faq", "id": "faq-first-run-gc-off", "title": "Faut-il un jour lancer un premier entraînement ?",
             "text": "Pour la plupart des utilisateurs\u00a0: non.", "confidence": 0.8,
             "url": "/help/fr/gradient-checkpointing-oom#faq-first-run-gc-off"}
    answer = {"match": "confident", "symptom": None, "topic": topic, "steps": [], "related": [], "context": {},
              "signals": []}
    fields = ("symptom", "gradient_checkpointing", "model_family", "batch_size", "resolutions", "num_frames",
              "control_images", "sampling_disabled", "low_vram")
    form = dict.fromkeys(fields, "") | {"q": "premier entraînement GC ?"}
    page = pages.troubleshoot("fr", "http://testserver/", form, {}, answer, "q=x")
    assert '<h2 id="results-title">Faut-il un jour lancer un premier entraînement ?</h2>' in html.unescape(page)
    assert 'href="/help/fr/gradient-checkpointing-oom#faq-first-run-gc-off"' in page


@pytest.mark.parametrize("lang", LANGS)
def test_a_question_the_guide_answers_shows_its_answer(client: TestClient, lang: str) -> None:
    """Diagnose answers a question about the guide with a topic: the troubleshooter shows its text, lists as
    lists, and links the entry's own anchor."""
    api = client.post("/v1/diagnose", json={"query": "what does gradient checkpointing actually do?", "lang": lang})
    topic = api.json()["topic"]
    page = client.get(f"/help/{lang}/troubleshoot", params={"q": "what does gradient checkpointing actually do?"}).text
    block = re.search(r'<div class="topic">(.*?)</div>', page, re.S)
    assert block and f'href="{topic["url"]}"' in block.group(1) and "<ul>" in block.group(1)
    assert "- " not in visible_text(block.group(1)).replace(" - ", "")  # no raw list markers


def page_answer(client: TestClient, href: str) -> tuple[list[str], str]:
    """The steps of a troubleshooter page and its risk badge."""
    text = client.get(href).text
    block = re.search(r'<ol id="steps"[^>]*>(.*?)</ol>', text, re.S)
    risk = re.search(r'<span class="badge risk-(\w+)">', text)
    return re.findall(r'data-step="([a-z-]+)"', block.group(1) if block else ""), risk.group(1) if risk else ""


@pytest.mark.parametrize("lang", LANGS)
def test_questions_on_the_page_change_the_answer_when_answered(client: TestClient, lang: str) -> None:
    """The page asks what would change its answer (`questions`), and following one of a question's options
    answers it: some option gives other steps or another risk, as `needs` said."""
    start = f"/help/{lang}/troubleshoot?symptom=oom-early-steps&model_family=flux"
    page = client.get(start).text
    questions = re.findall(r'<li data-field="(\w+)">(.*?)</li>', page, re.S)
    assert {"gradient_checkpointing", "batch_size"} <= {field for field, _ in questions}
    before = page_answer(client, start)
    for field, body in questions:
        hrefs = [html.unescape(h) for h in re.findall(r'href="([^"]+)"', body)]
        assert hrefs and all(f"{field}=" in h and "model_family=flux" in h for h in hrefs)
        assert any(page_answer(client, h) != before for h in hrefs), field
    answered = client.get(f"{start}&gradient_checkpointing=true").text
    assert 'data-field="gradient_checkpointing"' not in answered  # answered: not asked again


def test_the_careful_gc_off_test_lists_the_guide_conditions(client: TestClient) -> None:
    page = client.get("/help/en/troubleshoot", params={"symptom": "slow-training", "gradient_checkpointing": "true",
                                                      "model_family": "flux", "batch_size": "8"}).text
    step = re.search(r'<li data-step="test-gc-off-carefully">(.*?)</li>\s*(?:<li data-step|</ol>)', page, re.S)
    assert step
    statuses = re.findall(r'<li class="check-([a-z-]+)">', step.group(1))
    assert len(statuses) == 6 and "not-met" in statuses and "unknown" in statuses
    assert "Batch Size is still conservative" in html.unescape(step.group(1))
    assert '<p class="watch">' in step.group(1)
