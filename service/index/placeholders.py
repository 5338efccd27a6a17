"""The placeholder check of the knowledge: every {placeholder} of a conditioned text is a fact its condition makes
known, so a chosen text is always filled (`Batch Size is {batch_size}` only where the batch is known)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from ..content.context import CHECK_FACTS, CONTEXT_FIELDS, DERIVED_FIELDS, PLACEHOLDERS
from ..content.models import Content, LanguageText
from ..content.problems import Problem
from .conditions import known_fields

_PLACEHOLDER = re.compile(r"\{([a-z_]+)(?::[^{}]*)?\}")
_FACTS = frozenset(CONTEXT_FIELDS) | frozenset(DERIVED_FIELDS)


def placeholder_problems(content: Content) -> list[Problem]:
    """Every {placeholder} of a conditioned text must be a fact its condition makes known (with the step's own
    `applies`), so a chosen text is always filled: `Batch Size is {batch_size}` only where the batch is known.
    Checked on the source language; translations keep the same placeholders (content checks)."""
    text = content.texts.get(content.languages.default)
    if text is None:
        return []
    problems: list[Problem] = []

    def check(file: str, path: str, template: str, *conditions: Mapping[str, Any],
              always: frozenset[str] = frozenset()) -> None:
        known = frozenset().union(always, *(known_fields(c) for c in conditions))
        if "model_family" in known:
            known |= {"family"}
        for name in _PLACEHOLDER.findall(template):
            fact = PLACEHOLDERS.get(name, name)
            if fact in always:
                continue
            if fact not in _FACTS:
                problems.append(Problem(file, path, "unfilled-placeholder", f"{{{name}}} is no fact of an answer"))
            elif fact not in known:
                problems.append(Problem(file, path, "unfilled-placeholder",
                                        f"{{{name}}} is used where its condition does not make {fact} known"))

    base = f"text/{text.lang}"
    for step in content.steps:
        stext = text.steps.get(step.id)
        if stext is None:
            continue
        details = stext.detail if isinstance(stext.detail, dict) else {"": stext.detail}
        conditions = {vid: cond for part in step.details for vid, cond in part.items()}
        for vid, template in details.items():
            path = f"{step.id}.detail" + (f".{vid}" if vid else "")
            check(f"{base}/steps.yaml", path, template, step.applies, conditions.get(vid, {}))
        for c in step.checks:
            for note, template in stext.checks.get(c.id, {}).items():
                check(f"{base}/steps.yaml", f"{step.id}.checks.{c.id}.{note}", template, c.notes.get(note, {}))
    for rid, reason in content.rules.reasons.items():
        value = text.rules.reasons.get(rid)
        variants = value if isinstance(value, dict) else {"": value} if value else {}
        for vid, template in variants.items():
            check(f"{base}/rules.yaml", f"reasons.{rid}" + (f".{vid}" if vid else ""), template,
                  reason.variants.get(vid, {}))
    _finding_placeholders(content, text, check)
    for fid, cond in content.rules.risk_facts.items():
        risk_text = text.rules.risk_reasons.get(fid)
        if risk_text:
            check(f"{base}/rules.yaml", f"risk_reasons.{fid}", risk_text, cond)
    return problems


def _finding_placeholders(content: Content, text: LanguageText, check: Callable[..., None]) -> None:
    """The placeholder check of config-check findings: a config check always knows the facts the reader fills
    with AI Toolkit's defaults, the finding's value and, where it has one, its safer value."""
    base = f"text/{text.lang}"
    for finding in content.findings:
        always = frozenset(CHECK_FACTS) | {"value"} | (
            {"suggested"} if finding.suggested is not None or finding.suggested_builder else set())
        finding_text = text.findings.get(finding.id)
        if finding_text is None:
            continue
        for part, choices in (("title", finding.title), *(("detail", d) for d in finding.details)):
            texts = getattr(finding_text, part)
            if isinstance(texts, str):
                continue
            for vid, cond in choices.items():
                if vid in texts:
                    check(f"{base}/findings.yaml", f"{finding.id}.{part}.{vid}", texts[vid], finding.when, cond,
                          always=always)
        for part in ("title", "detail"):
            single = getattr(finding_text, part)
            if isinstance(single, str):
                check(f"{base}/findings.yaml", f"{finding.id}.{part}", single, finding.when, always=always)
