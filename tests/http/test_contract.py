"""The API keeps its OpenAPI contract (schemathesis): no server errors, every status and content type it sends
is documented, every answer fits its schema. Examples are bounded so that the run stays short; the generated
data (random bodies, parameters, ids) is what a careless or hostile client would send."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from remedy.http.app import create_app
from remedy.runtime import Runtime
from tests.conftest import REPO

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
MAX_EXAMPLES = int(os.environ.get("REMEDY_CONTRACT_EXAMPLES", "25"))  # more by hand: e.g. 300
# The operations, read from the checked-in document (test_openapi.py keeps it equal to the live one).
OPERATIONS = [(path, method.upper()) for path, methods in
              json.loads((REPO / "openapi" / "openapi.json").read_text(encoding="utf-8"))["paths"].items()
              for method in methods]


@pytest.fixture(scope="session")
def api_schema(runtime: Runtime) -> Any:
    return schemathesis.openapi.from_asgi("/openapi.json", create_app(runtime=runtime))


@pytest.mark.parametrize(("path", "method"), OPERATIONS, ids=[f"{m} {p}" for p, m in OPERATIONS])
def test_operation_keeps_its_contract(api_schema: Any, path: str, method: str) -> None:
    # (schemathesis' own pytest plugin does not run under this pytest; hypothesis drives its strategy instead)
    @given(case=api_schema[path][method].as_strategy())
    @settings(max_examples=MAX_EXAMPLES, deadline=None, derandomize=MAX_EXAMPLES <= 25, database=None,
              suppress_health_check=list(HealthCheck))
    def keeps_contract(case: Any) -> None:
        case.call_and_validate(checks=CHECKS)

    keeps_contract()


def test_every_error_status_is_a_problem(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            for status, response in operation["responses"].items():
                if status.startswith(("4", "5")) and path != "/readyz":
                    content = response["content"]
                    assert list(content) == ["application/problem+json"], (method, path, status)
                    assert content["application/problem+json"]["schema"] == {"$ref": "#/components/schemas/Problem"}
    assert "HTTPValidationError" not in document["components"]["schemas"]


def test_operation_ids_are_named_for_clients(client: TestClient) -> None:
    ids = [op["operationId"] for methods in client.get("/openapi.json").json()["paths"].values()
           for op in methods.values()]
    assert len(ids) == len(set(ids))
    assert {"diagnose", "check_config", "search", "get_guide", "get_symptom", "readyz"} <= set(ids)
    assert all(i.isidentifier() and "_v1_" not in i for i in ids), ids
