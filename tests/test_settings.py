"""Settings refuse bad values, and every setting is documented in the README."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from remedy.settings import ROOT, Settings


def test_every_setting_is_documented() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in Settings.model_fields:
        assert f"`REMEDY_{name.upper()}`" in readme, name


@pytest.mark.parametrize(("name", "value"), [("port", "0"), ("port", "http"), ("workers", "0"),
                                             ("log_level", "loud"), ("knowledge_dir", "/nonexistent")])
def test_bad_values_are_refused(monkeypatch: pytest.MonkeyPatch, name: str, value: str) -> None:
    monkeypatch.setenv(f"REMEDY_{name.upper()}", value)
    with pytest.raises(ValidationError):
        Settings()
