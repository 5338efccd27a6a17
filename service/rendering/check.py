"""Render a config check: localized findings (the title and detail sentences the engine chose, filled from the
facts) and the risk."""

from __future__ import annotations

from typing import Any

from ..engine.check import ConfigCheck
from ..index.build import Index
from .diagnosis import Params, render_risk
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
        params = Params({k: _shown(v) for k, v in finding.params.items()})
        params["value"] = _shown(finding.value)
        params["suggested"] = _shown(finding.suggested)
        family = finding.params.get("family")
        if family is not None:
            params["family"] = text.families[family].name
        ftext = text.findings[finding.id]
        title, *sentences = (ftext[t].format_map(params) for t in finding.texts)
        findings.append({
            "id": finding.id,
            "severity": finding.severity,
            "title": title,
            "detail": " ".join(sentences),
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
