"""Shared fixtures: the real knowledge loaded once, an HTTP client, the project's copies of the guide's source
texts (`knowledge/sources/`) and of AI Toolkit's example configs (`tests/fixtures/`). Nothing outside the
checkout is read: a fresh clone passes on its own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from remedy.http.app import create_app
from remedy.index.build import Index
from remedy.runtime import Runtime, load_runtime
from remedy.settings import Settings

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures"
SOURCES = REPO / "knowledge" / "sources"
# The guide's source texts came as seeds/<name> from the shared folder; the project keeps each as
# knowledge/sources/<lang>.txt.
SEED_LANGS = {
    "000_87d66341779f0022.txt": "es",
    "001_7a2e3fa8cc7a40ba.txt": "pt",
    "002_3fb697d5fd9f0c67.txt": "fr",
    "003_48200cbe31a0129c.txt": "de",
    "004_50344f95fbd6bc7a.txt": "ko",
}
LANGS = ("en", "es", "pt", "fr", "de", "ko")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true", help="rewrite tests/golden/ from the service")


@pytest.fixture(scope="session")
def runtime() -> Runtime:
    return load_runtime(Settings())


@pytest.fixture(scope="session")
def index(runtime: Runtime) -> Index:
    return runtime.index


@pytest.fixture(scope="session")
def client(runtime: Runtime) -> Iterator[TestClient]:
    with TestClient(create_app(runtime=runtime), raise_server_exceptions=False) as c:
        yield c


@pytest.fixture(scope="session")
def shared() -> Path:
    """The folder holding `aitk-configs/` (AI Toolkit's example job configs, MIT; see its ORIGIN.md)."""
    return FIXTURES
