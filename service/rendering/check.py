"""Render a config check: localized findings (the title and detail sentences the engine chose for the facts,
filled from them) and the risk."""

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
        title = ftext.title if isinstance(ftext.title, str) else ftext.title[finding.title_variant or ""]
        detail = [ftext.detail] if isinstance(ftext.detail, str) else [ftext.detail[v] for v in finding.detail_parts]
        findings.append({
            "id": finding.id,
            "severity": finding.severity,
            "title": fill(title, lang, params),
            "detail": " ".join(fill(sentence, lang, params) for sentence in detail),
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
