"""Config check: a job's effective values -> risk with its reasons, and findings with paths and safer values."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..content.context import FactInputs
from ..index.build import Index
from ..jobconfig.reader import JobView
from .facts import add_derived, facts_of, resolve_context
from .risk import Risk, assess_risk

SEVERITY_ORDER = {"high": 0, "warning": 1, "info": 2}


@dataclass(frozen=True, slots=True)
class Finding:
    id: str
    severity: str
    path: str
    value: Any
    suggested: Any
    step: str
    params: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ConfigCheck:
    view: JobView
    risk: Risk
    findings: tuple[Finding, ...]


def job_facts(index: Index, view: JobView) -> tuple[dict[str, Any], Risk]:
    """Context facts plus the config's own (sample size, frames) and the derived risk facts."""
    context = resolve_context(index, view.context)
    facts = facts_of(context)
    family = index.families[context.model_family or index.fallback_family]
    inputs = FactInputs(context, view.facts, family.safe_batch)
    add_derived(facts, inputs, "check")
    risk = assess_risk(index, context, facts)
    add_derived(facts, replace(inputs, risk_level=risk.level), "risk")
    return facts, risk


def check_job(index: Index, view: JobView) -> ConfigCheck:
    """Every finding whose rule holds, most severe first (ties keep the rules' order)."""
    facts, risk = job_facts(index, view)
    family = index.families[facts.get("family") or index.fallback_family]
    findings = []
    for compiled in index.findings:
        rule = compiled.rule
        if not compiled.when(facts):
            continue
        located = view.locations.get(rule.field)
        value = located.value if located else facts.get(rule.field)
        severity = "high" if compiled.high_when is not None and compiled.high_when(facts) else rule.severity
        suggested = rule.suggested
        if compiled.builder is not None:
            suggested = compiled.builder(facts, family.safe_batch, value)
        findings.append(Finding(
            id=rule.id,
            severity=severity,
            path=located.path if located else rule.field,
            value=value,
            suggested=suggested,
            step=rule.step,
            params={k: v for k, v in facts.items() if v is not None and not isinstance(v, tuple)},
        ))
    findings.sort(key=lambda f: SEVERITY_ORDER[f.severity])
    return ConfigCheck(view, risk, tuple(findings))
