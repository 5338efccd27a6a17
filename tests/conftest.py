"""Shared fixtures: the real knowledge loaded once, an HTTP client, the shared seeds and configs."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from remedy.http.app import create_app
from remedy.index.build import Index
from remedy.runtime import Runtime, load_runtime
from remedy.settings import ROOT, Settings

SHARED = ROOT.parent / "shared"
SEEDS = SHARED / "seeds"
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
    if not SEEDS.is_dir():
        pytest.fail(f"{SHARED} is missing: tests read the shared seeds and configs in place")
    return SHARED
