"""/docs in a real browser: Swagger UI renders the API from Remedy's own assets, offline, under its CSP."""

from __future__ import annotations

from typing import Any

from tests.browser.conftest import ARTIFACTS
from tests.browser.test_pages_browser import open_page


def test_docs_render_every_operation_without_csp_violations(browser: Any, live_url: str) -> None:
    page, problems = open_page(browser, f"{live_url}/docs")
    page.wait_for_selector(".opblock-summary", timeout=15_000)
    paths = page.locator(".opblock-summary-path").all_inner_texts()
    assert any("/v1/diagnose" in p for p in paths) and any("/v1/search" in p for p in paths), paths
    page.screenshot(path=str(ARTIFACTS / "docs.png"), full_page=False)
    assert not [p for p in problems if "Content Security Policy" in p or "failed:" in p], problems
    page.context.close()
