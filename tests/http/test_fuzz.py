"""Schemathesis against the live OpenAPI document: no input it generates makes a server error, and every
answer conforms to the documented schema. A short run that fits CI; raise REMEDY_FUZZ_EXAMPLES for more."""

from __future__ import annotations

import os
from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from remedy.http.app import create_app

EXAMPLES = int(os.environ.get("REMEDY_FUZZ_EXAMPLES", "30"))


schema = schemathesis.openapi.from_asgi("/openapi.json", create_app())


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_no_server_error_and_schema_conformance(case: Any) -> None:
    case.call_and_validate(checks=[not_a_server_error, response_schema_conformance])
