"""The build maps the repository onto the package `remedy`: every Python package under service/ is listed, and
every data file the service reads at run time is matched by the package data (.ci/wheel then installs the
wheel outside the checkout and serves it)."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

from tests.conftest import REPO

CONFIG = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]


def test_every_subpackage_of_service_is_built() -> None:
    found = {"remedy" + "".join(f".{part}" for part in p.parent.relative_to(REPO / "service").parts)
             for p in (REPO / "service").rglob("__init__.py")}
    assert found | {"remedy.knowledge", "remedy.locales"} == set(CONFIG["packages"])


def _shipped(package: str, folder: Path) -> list[Path]:
    patterns = CONFIG["package-data"][package]
    files = [p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".py"]
    missing = [p for p in files if not any(fnmatch(p.relative_to(folder).as_posix(), pat) or
                                           (fnmatch(p.name, pat) and "/" not in pat) for pat in patterns)]
    return missing


def test_every_data_file_is_in_the_wheel() -> None:
    assert _shipped("remedy", REPO / "service") == []
    assert _shipped("remedy.knowledge", REPO / "knowledge") == []
    assert _shipped("remedy.locales", REPO / "locales") == []
