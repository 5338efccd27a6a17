"""A Python client generated from the checked-in `openapi/` (openapi-python-client) works against the service:
a diagnose, a search and a 422, each parsed into the generated models."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from fastapi.testclient import TestClient

from remedy.http.app import create_app
from remedy.runtime import Runtime
from tests.conftest import REPO

PACKAGE = "remedy_api_client"


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    out = tmp_path_factory.mktemp("client")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(
        [Path(sys.executable).parent / "openapi-python-client", "generate", "--path", str(REPO / "openapi" /
         "openapi.json"), "--output-path", str(out / PACKAGE), "--meta", "none"],
        capture_output=True, text=True, env=env, timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Warning" not in done.stdout, done.stdout
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


@pytest.fixture(scope="module")
def api(generated: ModuleType, runtime: Runtime) -> Iterator[Any]:
    with TestClient(create_app(runtime=runtime), base_url="http://testserver") as http:
        client = generated.Client(base_url="http://testserver")
        client.set_httpx_client(http)  # the generated client speaks httpx; TestClient is one, in process
        yield client


def module(name: str) -> Any:
    return importlib.import_module(f"{PACKAGE}.{name}")


def test_diagnose_through_the_generated_client(api: Any) -> None:
    models = module("models")
    body = models.DiagnoseRequest(query="OOM bei Step 2, nachdem ich Gradient Checkpointing ausgeschaltet habe",
                                  lang="de")
    response = module("api.diagnose.diagnose").sync_detailed(client=api, body=body)
    assert response.status_code == 200
    answer = response.parsed
    assert isinstance(answer, models.DiagnoseResponse)
    assert answer.lang == "de" and answer.symptom.id == "oom-early-steps"
    assert answer.steps[0].id == "enable-gradient-checkpointing"


def test_search_through_the_generated_client(api: Any) -> None:
    models = module("models")
    answer = module("api.search.search").sync(client=api, q="OOM beim Erzeugen der Samples", lang="de", limit=3)
    assert isinstance(answer, models.SearchResponse)
    assert answer.hits[0].id == "oom-during-sampling" and len(answer.hits) <= 3


def test_a_422_is_a_problem_through_the_generated_client(api: Any) -> None:
    models = module("models")
    response = module("api.diagnose.diagnose").sync_detailed(client=api, body=models.DiagnoseRequest(lang="ko"))
    assert response.status_code == 422
    problem = response.parsed
    assert isinstance(problem, models.Problem)
    assert problem.code == "missing-input" and problem.lang == "ko" and problem.status == 422
