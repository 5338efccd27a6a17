"""No input gives a 5xx (issue 13): Hypothesis over every request field of the JSON API, the query strings of
the pages and the YAML reader. Derandomized and bounded (a few hundred examples in all), so CI runs the same
examples every time in a few seconds; raise REMEDY_FUZZ_EXAMPLES for a longer hunt.

Text strategies include what broke before: lone surrogates, superscript and other Unicode digits, huge
integers, control characters, very long words.
"""

from __future__ import annotations

import json
import os
from typing import Any
from urllib.parse import quote

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from remedy.errors import RemedyError
from remedy.index.build import Index
from remedy.jobconfig.reader import read_job
from remedy.jobconfig.yamltext import load_yaml_text

EXAMPLES = int(os.environ.get("REMEDY_FUZZ_EXAMPLES", "60"))
BOUNDED = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                   suppress_health_check=list(HealthCheck))

# Text with the characters that broke things: surrogates, Unicode digits, controls, Hangul, accents.
TRICKY = st.sampled_from(["\ud800", "\udfff", "²", "٣", "①", "\x00", "\u202e", "\ufeff", "İ", "ß", "스텝", "9" * 5000,
                          "1e309", "NaN", "-0", "\r\n", "%|", "OOM", "CUDA out of memory", "step 2", "no", "~"])
TEXT = st.one_of(st.text(max_size=60), TRICKY, st.lists(TRICKY, max_size=6).map(" ".join))
SCALAR = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
                   st.floats(allow_nan=False, allow_infinity=False), TEXT)
JSON = st.recursive(SCALAR, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                     st.dictionaries(TEXT, inner, max_size=4)), max_leaves=12)
CONTEXT_KEYS = ["model_family", "model_arch", "gradient_checkpointing", "batch_size", "gradient_accumulation",
                "resolutions", "num_frames", "control_images", "sample_width", "sample_height", "sample_steps",
                "sample_every", "sampling_disabled", "low_vram", "quantize", "step", "phase", "other"]
CONTEXT = st.dictionaries(st.sampled_from(CONTEXT_KEYS), JSON, max_size=5)
# A job config shaped like AI Toolkit's, with any values where the trainer reads them.
SECTION = st.dictionaries(st.sampled_from(["gradient_checkpointing", "batch_size", "arch", "is_flux", "is_v3",
                                           "low_vram", "quantize", "width", "height", "sample_steps", "sample_every",
                                           "disable_sampling", "gradient_accumulation", "num_frames", "resolution",
                                           "control_path", "samples"]), JSON, max_size=5)
PROCESS = st.fixed_dictionaries({}, optional={"type": TEXT, "train": st.one_of(SECTION, JSON),
                                              "model": st.one_of(SECTION, JSON), "sample": st.one_of(SECTION, JSON),
                                              "datasets": st.one_of(st.lists(SECTION, max_size=3), JSON)})
CONFIG = st.one_of(JSON, st.fixed_dictionaries(
    {"job": st.one_of(st.just("train"), st.just("extension"), TEXT),
     "config": st.fixed_dictionaries({"process": st.one_of(st.lists(PROCESS, min_size=1, max_size=2), JSON)},
                                     optional={"name": TEXT})}))
LANG = st.one_of(st.none(), st.sampled_from(["en", "ES", "pt-BR", "ko", "zz", "", "*", "de-DE-x-y"]), TEXT)


def no_server_error(response: Any) -> None:
    assert response.status_code < 500, response.text[:500]
    if response.status_code >= 400:
        assert response.headers["content-type"].startswith("application/problem+json"), response.text[:200]


def query_string(params: dict[str, str]) -> str:
    """Percent-encoded as a client may send it: a lone surrogate becomes bytes that are not UTF-8."""
    return "&".join(f"{quote(k)}={quote(v, safe='', errors='surrogatepass')}" for k, v in params.items())


def post(client: TestClient, path: str, body: Any) -> Any:
    # Sent as the client wrote it: JSON with surrogates and huge numbers kept as they are.
    raw = json.dumps(body, ensure_ascii=True, allow_nan=False)
    return client.post(path, content=raw.encode(), headers={"content-type": "application/json"})


@BOUNDED
@given(query=st.one_of(st.none(), TEXT), symptom=st.one_of(st.none(), TEXT, st.just("oom-early-steps")),
       context=st.one_of(st.none(), CONTEXT, JSON), config=st.one_of(st.none(), CONFIG), lang=LANG)
def test_diagnose_never_fails(client: TestClient, query: Any, symptom: Any, context: Any, config: Any,
                              lang: Any) -> None:
    body = {k: v for k, v in {"query": query, "symptom": symptom, "context": context, "config": config,
                              "lang": lang}.items() if v is not None}
    no_server_error(post(client, "/v1/diagnose", body))


@BOUNDED
@given(config=CONFIG, as_yaml=st.booleans(), lang=LANG)
def test_config_check_never_fails(client: TestClient, config: Any, as_yaml: bool, lang: Any) -> None:
    import yaml

    if as_yaml:
        try:
            body: dict[str, Any] = {"config_yaml": yaml.safe_dump(config, allow_unicode=True)}
        except (yaml.YAMLError, UnicodeEncodeError):
            body = {"config_yaml": str(config)}
    else:
        body = {"config": config}
    if lang is not None:
        body["lang"] = lang
    no_server_error(post(client, "/v1/config/check", body))


@BOUNDED
@given(q=TEXT, lang=LANG, limit=st.one_of(st.integers(-5, 100), TEXT))
def test_search_never_fails(client: TestClient, q: str, lang: Any, limit: Any) -> None:
    params = {"q": q, "limit": str(limit)} | ({"lang": lang} if isinstance(lang, str) else {})
    no_server_error(client.get("/v1/search?" + query_string(params)))


FORM_FIELDS = ["q", "symptom", "gradient_checkpointing", "model_family", "batch_size", "resolutions", "num_frames"]


@BOUNDED
@given(form=st.dictionaries(st.sampled_from(FORM_FIELDS), TEXT, max_size=7),
       lang=st.sampled_from(["en", "es", "ko", "pt-BR", "ES", "xx", "%ED%A0%80"]))
def test_troubleshooter_page_never_fails(client: TestClient, form: dict[str, str], lang: str) -> None:
    no_server_error(client.get(f"/help/{lang}/troubleshoot?" + query_string(form)))


@BOUNDED
@given(text=st.one_of(TEXT, st.lists(st.one_of(TEXT, st.sampled_from(
    [":", "- ", "\n", "  ", "&a", "*a", "!!python/object:os.system", "{", "[", '"\\ud800"', "'", "|", "0x", "0o7",
     "1:30", "2001-12-14", "9" * 5000, "\t"])), max_size=20).map("".join)))
def test_yaml_reader_raises_only_its_own_problems(index: Index, text: str) -> None:
    try:
        data = load_yaml_text(text)
        read_job(data, index.flag_arch)
    except RemedyError as exc:
        assert exc.status < 500
