"""The OpenAPI document as the server behaves: every error is a problem, every status it sends is documented.

The statuses an operation can send follow from what it takes, not from lists kept by hand: a JSON body can
be empty, malformed, too large, not JSON or not valid (400, 413, 415, 422); a query or path parameter can
be invalid (422); a path names something that may not exist (404); anything that needs the knowledge (all
but the `operations` tag) can meet a worker that is still building it (503); anything can fail (500). Each of those is
documented as `application/problem+json` with the `Problem` schema and the codes of that status (from the
error classes of `remedy.errors`). Operation ids are the route functions' names, so generated clients read
well (`diagnose`, `check_config`, `get_guide`). Request and response examples come from `examples.json`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute

from .. import errors
from ..errors import InvalidRequest, RemedyError
from .responses import PROBLEM_JSON

EXAMPLES = Path(__file__).resolve().parent / "examples.json"
PROBLEM_REF = {"$ref": "#/components/schemas/Problem"}

BODY_STATUSES = (400, 413, 415, 422)
NO_KNOWLEDGE_TAG = "operations"  # /healthz, /readyz, /metrics answer without the knowledge index
STATUS_TEXT = {
    400: "The body could not be read",
    404: "Nothing has that id",
    413: "The body is too large",
    415: "The body is not JSON",
    422: "The request does not fit the schema",
    500: "Unexpected failure (no internals; the log has it under the request id)",
    503: "The knowledge index is still being built (a worker just started); retry shortly",
}
def operation_id(route: APIRoute) -> str:
    """A route's operation id is its function's name: `diagnose`, `check_config`, `list_symptoms`."""
    return route.name


def error_classes() -> Iterator[type[RemedyError]]:
    for value in vars(errors).values():
        if isinstance(value, type) and issubclass(value, RemedyError):
            yield value


def codes_by_status() -> dict[int, list[str]]:
    table: dict[int, list[str]] = {}
    for cls in error_classes():
        if cls.code not in table.setdefault(cls.status, []):
            table[cls.status].append(cls.code)
    return table


def _statuses(operation: dict[str, Any]) -> dict[int, list[str]]:
    """The error statuses an operation can send, each with its possible codes, read from what it takes."""
    where = {param["in"] for param in operation.get("parameters", [])}
    table = codes_by_status()
    out: dict[int, list[str]] = {500: table[500]}
    if "requestBody" in operation:
        for status in BODY_STATUSES:
            out[status] = table[status]
    elif where & {"query", "path"}:
        out[422] = [InvalidRequest.code]  # a parameter that does not fit its schema (the other 422s read bodies)
    if "path" in where:
        out[404] = table[404]
    if NO_KNOWLEDGE_TAG not in operation.get("tags", ()):
        out[503] = table[503]
    return dict(sorted(out.items()))


def _problem_response(status: int, codes: list[str], described: str | None) -> dict[str, Any]:
    text = described or STATUS_TEXT.get(status, "Error")
    example = {"type": f"urn:remedy:problem:{codes[0]}", "title": "…", "status": status,
               "detail": "…", "code": codes[0], "lang": "en"}
    return {
        "description": f"{text.rstrip('.')}. Problem details (RFC 9457); `code` is one of: "
                       + ", ".join(f"`{c}`" for c in codes) + ".",
        "content": {PROBLEM_JSON: {"schema": PROBLEM_REF, "example": example}},
    }


def _add_examples(operation: dict[str, Any], examples: dict[str, Any]) -> None:
    """Request and response examples, one per language, under the operation's JSON media types."""
    if "request" in examples:
        media = operation["requestBody"]["content"]["application/json"]
        media["examples"] = {lang: {"summary": ex.get("summary", lang), "value": ex["value"]}
                             for lang, ex in examples["request"].items()}
    if "parameters" in examples:
        for param in operation.get("parameters", []):
            values = examples["parameters"].get(param["name"])
            if values:
                param["examples"] = {lang: {"value": v} for lang, v in values.items()}
    if "response" in examples:
        media = operation["responses"]["200"]["content"]["application/json"]
        media["examples"] = {lang: {"value": value} for lang, value in examples["response"].items()}


def build_openapi(app: FastAPI) -> dict[str, Any]:
    doc = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes,
                      tags=app.openapi_tags)
    examples = json.loads(EXAMPLES.read_text(encoding="utf-8"))
    for methods in doc["paths"].values():
        for operation in methods.values():
            responses = operation["responses"]
            for status, codes in _statuses(operation).items():
                described = responses.get(str(status), {}).get("description")
                responses[str(status)] = _problem_response(status, codes, described)
            for status, response in responses.items():  # a problem a router declared itself
                schema = response.get("content", {}).get("application/json", {}).get("schema")
                if schema == PROBLEM_REF:
                    codes = codes_by_status().get(int(status), ["internal-error"])
                    responses[status] = _problem_response(int(status), codes, response.get("description"))
            if operation["operationId"] in examples:
                _add_examples(operation, examples[operation["operationId"]])
    schemas = doc.get("components", {}).get("schemas", {})
    for unused in ("HTTPValidationError", "ValidationError"):
        schemas.pop(unused, None)
    return doc


def install_openapi(app: FastAPI) -> None:
    """Serve `build_openapi`'s document at /openapi.json (built once, on first use)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = build_openapi(app)
        return app.openapi_schema

    setattr(app, "openapi", openapi)  # noqa: B010 - FastAPI's documented way to replace the document

