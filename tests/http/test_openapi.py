"""The checked-in OpenAPI document equals the live one (`remedy openapi` rewrites it)."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from remedy.settings import ROOT


def test_checked_in_openapi_matches_live(client: TestClient) -> None:
    live = client.get("/openapi.json").json()
    checked_in = json.loads((ROOT / "openapi" / "openapi.json").read_text(encoding="utf-8"))
    assert live == checked_in, "openapi/ is stale: run `remedy openapi` and review the diff"


def test_every_route_is_documented(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/v1/diagnose", "/v1/guides/{guide_id}", "/v1/risk-table", "/healthz", "/readyz"):
        assert path in paths
    for path, ops in paths.items():
        for op in ops.values():
            assert op.get("description") or op.get("summary"), path
