"""Build the read-only `Index` from `Content` once at start-up.

Every condition is compiled to a predicate, every id resolved to its object, so the engine does lookups
only. Problems found here (unknown operators, fields, builders) are content problems with stable codes.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from pydantic import ValidationError

from ..content.context import CHECK_FACTS, CONTEXT_FIELDS, DERIVED_FIELDS, PLACEHOLDERS, Context
from ..content.models import (
    Conflict,
    Content,
    Family,
    FaqEntry,
    FindingRule,
    Guide,
    LanguageText,
    NeedSpec,
    RiskRule,
    Step,
    StepCheck,
    Symptom,
    TableBlock,
    Variants,
)
from ..content.problems import ContentProblems, Problem
from ..understanding.matcher import Matcher, build_matcher
from .conditions import ConditionError, Predicate, compile_condition, condition_fields, known_fields
from .patches import BUILDERS, VALUE_BUILDERS, Builder, ValueBuilder

Choice = tuple[tuple[str, Predicate], ...]  # text variants in order: (variant id, its condition)


def choose(choice: Choice, facts: Mapping[str, Any]) -> str | None:
    """The first variant whose condition holds for the facts, or None."""
    for variant, holds in choice:
        if holds(facts):
            return variant
    return None


@dataclass(frozen=True, slots=True)
class CompiledCheck:
    check: StepCheck
    met: Predicate | None
    not_met: Predicate | None
    notes: Choice


@dataclass(frozen=True, slots=True)
class CompiledStep:
    step: Step
    applies: Predicate
    reads: frozenset[str]
    builder: Builder | None
    details: tuple[Choice, ...] = ()
    checks: tuple[CompiledCheck, ...] = ()


@dataclass(frozen=True, slots=True)
class PlanItem:
    step: CompiledStep
    reason: str
    when: Predicate | None = None


@dataclass(frozen=True, slots=True)
class CompiledNeed:
    spec: NeedSpec
    unless: Predicate | None


@dataclass(frozen=True, slots=True)
class CompiledConflict:
    conflict: Conflict
    when: Predicate


@dataclass(frozen=True, slots=True)
class CompiledSymptom:
    symptom: Symptom
    plan: tuple[PlanItem, ...]
    reads: frozenset[str]


@dataclass(frozen=True, slots=True)
class CompiledRisk:
    rule: RiskRule
    when: Predicate
    facts: tuple[tuple[str, Predicate], ...]


@dataclass(frozen=True, slots=True)
class CompiledFinding:
    rule: FindingRule
    when: Predicate
    high_when: Predicate | None
    builder: ValueBuilder | None
    title: Choice = ()  # the title's text variants (empty: one title)
    details: tuple[Choice, ...] = ()  # each detail sentence's text variants, in order


@dataclass(frozen=True, slots=True)
class Index:
    revision: str
    default_lang: str
    languages: tuple[str, ...]
    guides: Mapping[str, Guide]
    faq: Mapping[str, FaqEntry]
    symptoms: Mapping[str, CompiledSymptom]
    steps: Mapping[str, CompiledStep]
    families: Mapping[str, Family]
    fallback_family: str
    risk: tuple[CompiledRisk, ...]
    risk_reads: frozenset[str]
    findings: tuple[CompiledFinding, ...]
    needs: tuple[CompiledNeed, ...]
    reasons: Mapping[str, Choice]  # reason id -> its text variants (empty: one text)
    conflicts: tuple[CompiledConflict, ...]
    sections: Mapping[str, str]  # section id -> guide id
    texts: Mapping[str, LanguageText]
    content: Content
    matcher: Matcher
    flag_arch: Mapping[str, str]  # legacy config flag (`is_flux`) -> an arch of its family (`flux`)
    risk_table: tuple[Guide, str, TableBlock] | None = None  # the guide's table of families: (guide, section, block)

    def family_of_arch(self, arch: str) -> str:
        """Map an AI Toolkit `arch` (`zimage:turbo`, `flux`, `wan22_14b`) to a family id."""
        name = arch.split(":", 1)[0].strip().lower()
        for family in self.families.values():
            if any(fnmatch.fnmatchcase(name, pattern) for pattern in family.arch):
                return family.id
        return self.fallback_family


def build_index(content: Content) -> Index:
    """Compile `content`; raise `ContentProblems` if a rule cannot be compiled."""
    problems: list[Problem] = []

    def compiled(condition: Mapping[str, Any], file: str, path: str) -> Predicate:
        try:
            return compile_condition(condition)
        except ConditionError as exc:
            problems.append(Problem(file, f"{path}.{exc.path}", exc.code, str(exc)))
            return _never

    def choice(variants: Variants, file: str, path: str) -> Choice:
        return tuple((vid, compiled(cond, file, f"{path}.{vid}")) for vid, cond in variants.items())

    steps: dict[str, CompiledStep] = {}
    for i, step in enumerate(content.steps):
        builder = None
        if step.patch_builder:
            builder = BUILDERS.get(step.patch_builder)
            if builder is None:
                problems.append(
                    Problem("structure/steps.yaml", f"{i}.patch_builder", "dangling-reference",
                            f"no patch builder {step.patch_builder!r}")
                )
        where = "structure/steps.yaml"
        steps[step.id] = CompiledStep(
            step=step,
            applies=compiled(step.applies, where, f"{i}.applies"),
            reads=_reads(step.applies),
            builder=builder,
            details=tuple(choice(part, where, f"{i}.details.{k}") for k, part in enumerate(step.details)),
            checks=tuple(
                CompiledCheck(
                    check=check,
                    met=compiled(check.met, where, f"{i}.checks.{k}.met") if check.met else None,
                    not_met=compiled(check.not_met, where, f"{i}.checks.{k}.not_met") if check.not_met else None,
                    notes=choice(check.notes, where, f"{i}.checks.{k}.notes"),
                )
                for k, check in enumerate(step.checks)
            ),
        )

    symptoms: dict[str, CompiledSymptom] = {}
    for i, sym in enumerate(content.symptoms):
        for key in sym.implies:
            if key not in CONTEXT_FIELDS:
                problems.append(Problem("structure/symptoms.yaml", f"{i}.implies.{key}", "unknown-field",
                                        f"the context has no field {key!r}"))
        plan = tuple(
            PlanItem(steps[e.step], e.reason,
                     compiled(e.when, "structure/symptoms.yaml", f"{i}.plan.{j}.when") if e.when else None)
            for j, e in enumerate(sym.plan) if e.step in steps
        )
        reads = frozenset().union(*(item.step.reads for item in plan), *(_reads(e.when) for e in sym.plan))
        symptoms[sym.id] = CompiledSymptom(sym, plan, reads)

    facts = {
        fid: compiled(cond, "structure/rules.yaml", f"risk_facts.{fid}")
        for fid, cond in content.rules.risk_facts.items()
    }
    risk = tuple(
        CompiledRisk(
            rule=rule,
            when=compiled(rule.when, "structure/rules.yaml", f"risk.{i}.when"),
            facts=tuple((f, facts[f]) for f in rule.facts if f in facts),
        )
        for i, rule in enumerate(content.rules.risk)
    )
    risk_reads = frozenset().union(*(_reads(r.when) for r in content.rules.risk))
    findings = []
    for i, rule in enumerate(content.findings):
        value_builder = None
        if rule.suggested_builder:
            value_builder = VALUE_BUILDERS.get(rule.suggested_builder)
            if value_builder is None:
                problems.append(Problem("structure/findings.yaml", f"{i}.suggested_builder", "dangling-reference",
                                        f"no value builder {rule.suggested_builder!r}"))
        findings.append(CompiledFinding(
            rule=rule,
            when=compiled(rule.when, "structure/findings.yaml", f"{i}.when"),
            high_when=compiled(rule.high_when, "structure/findings.yaml", f"{i}.high_when") if rule.high_when else None,
            builder=value_builder,
            title=choice(rule.title, "structure/findings.yaml", f"{i}.title"),
            details=tuple(choice(part, "structure/findings.yaml", f"{i}.details.{k}")
                          for k, part in enumerate(rule.details)),
        ))
    for i, need in enumerate(content.rules.needs):
        if need.field not in CONTEXT_FIELDS:
            problems.append(Problem("structure/rules.yaml", f"needs.{i}.field", "unknown-field",
                                    f"the context has no field {need.field!r}"))
            continue
        for k, option in enumerate(need.options):
            try:
                Context.model_validate({need.field: option})
            except ValidationError:
                problems.append(Problem("structure/rules.yaml", f"needs.{i}.options.{k}", "schema",
                                        f"{option!r} is not a valid {need.field}"))
    reasons = {
        rid: choice(reason.variants, "structure/rules.yaml", f"reasons.{rid}.variants")
        for rid, reason in content.rules.reasons.items()
    }
    needs = tuple(
        CompiledNeed(n, compiled(n.unless, "structure/rules.yaml", f"needs.{i}.unless") if n.unless else None)
        for i, n in enumerate(content.rules.needs)
    )
    conflicts = tuple(
        CompiledConflict(c, compiled(c.when, "structure/rules.yaml", f"conflicts.{i}.when"))
        for i, c in enumerate(content.rules.conflicts)
    )
    if not problems:  # placeholders are judged on conditions that compiled
        problems.extend(_placeholder_problems(content))
    if problems:
        raise ContentProblems(problems)

    fallback = next(f.id for f in content.families if f.fallback)
    return Index(
        revision=content.revision,
        default_lang=content.languages.default,
        languages=content.languages.supported,
        guides=_frozen({g.id: g for g in content.guides}),
        faq=_frozen({f.id: f for f in content.faq}),
        symptoms=_frozen(symptoms),
        steps=_frozen(steps),
        families=_frozen({f.id: f for f in content.families}),
        fallback_family=fallback,
        risk=risk,
        risk_reads=risk_reads,
        findings=tuple(findings),
        needs=needs,
        reasons=_frozen(reasons),
        conflicts=conflicts,
        sections=_frozen({s.id: g.id for g in content.guides for s in g.sections}),
        texts=_frozen(dict(content.texts)),
        content=content,
        matcher=build_matcher(content),
        risk_table=next(((g, sec.id, b) for g in content.guides for sec in g.sections for b in sec.blocks
                          if isinstance(b, TableBlock)), None),
        flag_arch=_frozen({
            flag: next((p for p in family.arch if "*" not in p), family.id)
            for family in content.families
            for flag in family.legacy_flags
        }),
    )


_PLACEHOLDER = re.compile(r"\{([a-z_]+)(?::[^{}]*)?\}")
_FACTS = frozenset(CONTEXT_FIELDS) | frozenset(DERIVED_FIELDS)


def _placeholder_problems(content: Content) -> list[Problem]:
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
    for finding in content.findings:
        # a config check always knows the facts the reader fills with AI Toolkit's defaults, the finding's value
        # and, where it has one, its safer value
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
    for fid, cond in content.rules.risk_facts.items():
        risk_text = text.rules.risk_reasons.get(fid)
        if risk_text:
            check(f"{base}/rules.yaml", f"risk_reasons.{fid}", risk_text, cond)
    return problems


def _reads(condition: Mapping[str, Any]) -> frozenset[str]:
    """Input fields a condition depends on, with derived facts mapped back to their inputs."""
    return frozenset(DERIVED_FIELDS.get(f, f) for f in condition_fields(condition))


def _never(_: Mapping[str, Any]) -> bool:
    return False


def _frozen(mapping: dict[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(mapping)


