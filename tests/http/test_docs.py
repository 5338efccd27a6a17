"""`/` points to the documentation and the help pages; `/docs` is Swagger UI served by Remedy itself."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient


def test_root_points_to_docs_and_help(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200 and 'href="/docs"' in r.text and 'href="/help/"' in r.text


def test_docs_load_only_their_own_assets_under_the_csp(client: TestClient) -> None:
    r = client.get("/docs")
    csp = r.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "<script>" not in r.text  # no inline script: the CSP would block it
    sources = re.findall(r'(?:src|href)="([^"]+)"', r.text)
    assert sources and all(s.startswith("/docs/assets/") for s in sources), sources
    for source in sources:
        asset = client.get(source)
        assert asset.status_code == 200 and len(asset.content) > 100, source
        assert client.get(source, headers={"If-None-Match": asset.headers["etag"]}).status_code == 304
    assert "/openapi.json" in client.get("/docs/assets/init.js").text


def test_unknown_docs_asset_is_a_problem(client: TestClient) -> None:
    r = client.get("/docs/assets/nope.js")
    assert r.status_code == 404 and r.headers["content-type"] == "application/problem+json"
