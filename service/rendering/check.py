"""Render a config check: localized findings (title, detail from the knowledge) and the risk."""

from __future__ import annotations

from typing import Any

from ..engine.check import ConfigCheck
from ..index.build import Index
from .diagnosis import render_risk
from .fill import Word, fill
from .views import View


def _shown(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


def render_check(index: Index, check: ConfigCheck, lang: str) -> View:
    text = index.texts[lang]
    findings = []
    for finding in check.findings:
        params: dict[str, Any] = {k: _shown(v) for k, v in finding.params.items()}
        params["value"] = _shown(finding.value)
        params["suggested"] = _shown(finding.suggested)
        family = finding.params.get("family")
        if family is not None:
            params["family"] = Word(text.families[family].name, text.families[family].reading)
        ftext = text.findings[finding.id]
        findings.append({
            "id": finding.id,
            "severity": finding.severity,
            "title": fill(ftext.title, lang, params),
            "detail": fill(ftext.detail, lang, params),
            "path": finding.path,
            "value": finding.value,
            "suggested": finding.suggested,
            "step": finding.step,
        })
    return {
        "job": {"name": check.view.name, "process_index": check.view.process_index},
        "risk": render_risk(index, check.risk, lang),
        "findings": findings,
    }
