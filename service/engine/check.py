"""Config check: a job's effective values -> risk with its reasons, and findings with paths and safer values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..content.context import FactInputs
from ..index.build import CompiledFinding, Index, choose
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
    title_variant: str | None  # the title's text variant (None: the finding has one title)
    detail_parts: tuple[str, ...]  # the text variant of each detail sentence whose condition holds, in order


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


def choose_texts(finding: CompiledFinding, facts: Mapping[str, Any]) -> tuple[str | None, tuple[str, ...]]:
    """The title's first variant whose condition holds (None: the finding has one title), and, for each sentence
    of the detail in order, its first variant whose condition holds (a sentence with none is left out)."""
    title = choose(finding.title, facts) if finding.title else None
    sentences = (choose(part, facts) for part in finding.details)
    return title, tuple(v for v in sentences if v is not None)


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
        title, parts = choose_texts(compiled, facts)
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
            title_variant=title,
            detail_parts=parts,
        ))
    findings.sort(key=lambda f: SEVERITY_ORDER[f.severity])
    return ConfigCheck(view, risk, tuple(findings))
