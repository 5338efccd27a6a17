"""Build the read-only `Index` from `Content` once at start-up.

Every condition is compiled to a predicate, every id resolved to its object, so the engine does lookups
only. Problems found here (unknown operators, fields, builders) are content problems with stable codes.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from pydantic import ValidationError

from ..content.context import CONTEXT_FIELDS, DERIVED_FIELDS, Context
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
from ..understanding.ids import id_problems
from ..understanding.matcher import Matcher, build_matcher
from ..understanding.profiles import profile_problems
from .conditions import ConditionError, Predicate, compile_condition, condition_fields
from .patches import BUILDERS, VALUE_BUILDERS, Builder, ValueBuilder
from .placeholders import placeholder_problems

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
    c = _Compiler()
    steps = c.steps(content)
    symptoms = c.symptoms(content, steps)
    risk, risk_reads = c.risk(content)
    findings = c.findings(content)
    needs = c.needs(content)
    reasons = c.reasons(content)
    conflicts = c.conflicts(content)
    c.problems.extend(profile_problems(content))
    c.problems.extend(id_problems(content))
    if not c.problems:  # placeholders are judged on conditions that compiled
        c.problems.extend(placeholder_problems(content))
    if c.problems:
        raise ContentProblems(c.problems)

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
        findings=findings,
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


class _Compiler:
    """Compiles each part of the content, collecting every problem instead of stopping at the first."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def condition(self, condition: Mapping[str, Any], file: str, path: str) -> Predicate:
        try:
            return compile_condition(condition)
        except ConditionError as exc:
            self.problems.append(Problem(file, f"{path}.{exc.path}", exc.code, str(exc)))
            return _never

    def choice(self, variants: Variants, file: str, path: str) -> Choice:
        return tuple((vid, self.condition(cond, file, f"{path}.{vid}")) for vid, cond in variants.items())

    def steps(self, content: Content) -> dict[str, CompiledStep]:
        steps: dict[str, CompiledStep] = {}
        for i, step in enumerate(content.steps):
            builder = None
            if step.patch_builder:
                builder = BUILDERS.get(step.patch_builder)
                if builder is None:
                    self.problems.append(
                        Problem("structure/steps.yaml", f"{i}.patch_builder", "dangling-reference",
                                f"no patch builder {step.patch_builder!r}")
                    )
            steps[step.id] = CompiledStep(
                step=step,
                applies=self.condition(step.applies, "structure/steps.yaml", f"{i}.applies"),
                reads=_reads(step.applies),
                builder=builder,
                details=tuple(self.choice(part, "structure/steps.yaml", f"{i}.details.{k}")
                              for k, part in enumerate(step.details)),
                checks=tuple(self.check(check, f"{i}.checks.{k}") for k, check in enumerate(step.checks)),
            )
        return steps

    def check(self, check: StepCheck, path: str) -> CompiledCheck:
        where = "structure/steps.yaml"
        return CompiledCheck(
            check=check,
            met=self.condition(check.met, where, f"{path}.met") if check.met else None,
            not_met=self.condition(check.not_met, where, f"{path}.not_met") if check.not_met else None,
            notes=self.choice(check.notes, where, f"{path}.notes"),
        )

    def symptoms(self, content: Content, steps: Mapping[str, CompiledStep]) -> dict[str, CompiledSymptom]:
        symptoms: dict[str, CompiledSymptom] = {}
        for i, sym in enumerate(content.symptoms):
            for key in sym.implies:
                if key not in CONTEXT_FIELDS:
                    self.problems.append(Problem("structure/symptoms.yaml", f"{i}.implies.{key}", "unknown-field",
                                                 f"the context has no field {key!r}"))
            plan = tuple(
                PlanItem(steps[e.step], e.reason,
                         self.condition(e.when, "structure/symptoms.yaml", f"{i}.plan.{j}.when") if e.when else None)
                for j, e in enumerate(sym.plan) if e.step in steps
            )
            reads = frozenset().union(*(item.step.reads for item in plan), *(_reads(e.when) for e in sym.plan))
            symptoms[sym.id] = CompiledSymptom(sym, plan, reads)
        return symptoms

    def risk(self, content: Content) -> tuple[tuple[CompiledRisk, ...], frozenset[str]]:
        facts = {
            fid: self.condition(cond, "structure/rules.yaml", f"risk_facts.{fid}")
            for fid, cond in content.rules.risk_facts.items()
        }
        risk = tuple(
            CompiledRisk(
                rule=rule,
                when=self.condition(rule.when, "structure/rules.yaml", f"risk.{i}.when"),
                facts=tuple((f, facts[f]) for f in rule.facts if f in facts),
            )
            for i, rule in enumerate(content.rules.risk)
        )
        return risk, frozenset().union(*(_reads(r.when) for r in content.rules.risk))

    def findings(self, content: Content) -> tuple[CompiledFinding, ...]:
        findings = []
        f = "structure/findings.yaml"
        for i, rule in enumerate(content.findings):
            value_builder = None
            if rule.suggested_builder:
                value_builder = VALUE_BUILDERS.get(rule.suggested_builder)
                if value_builder is None:
                    self.problems.append(Problem(f, f"{i}.suggested_builder", "dangling-reference",
                                                 f"no value builder {rule.suggested_builder!r}"))
            findings.append(CompiledFinding(
                rule=rule,
                when=self.condition(rule.when, f, f"{i}.when"),
                high_when=self.condition(rule.high_when, f, f"{i}.high_when") if rule.high_when else None,
                builder=value_builder,
                title=self.choice(rule.title, f, f"{i}.title"),
                details=tuple(self.choice(part, f, f"{i}.details.{k}") for k, part in enumerate(rule.details)),
            ))
        return tuple(findings)

    def needs(self, content: Content) -> tuple[CompiledNeed, ...]:
        f = "structure/rules.yaml"
        for i, need in enumerate(content.rules.needs):
            if need.field not in CONTEXT_FIELDS:
                self.problems.append(Problem(f, f"needs.{i}.field", "unknown-field",
                                             f"the context has no field {need.field!r}"))
                continue
            for k, option in enumerate(need.options):
                try:
                    Context.model_validate({need.field: option})
                except ValidationError:
                    self.problems.append(Problem(f, f"needs.{i}.options.{k}", "schema",
                                                 f"{option!r} is not a valid {need.field}"))
        return tuple(
            CompiledNeed(n, self.condition(n.unless, f, f"needs.{i}.unless") if n.unless else None)
            for i, n in enumerate(content.rules.needs)
        )

    def reasons(self, content: Content) -> dict[str, Choice]:
        return {rid: self.choice(reason.variants, "structure/rules.yaml", f"reasons.{rid}.variants")
                for rid, reason in content.rules.reasons.items()}

    def conflicts(self, content: Content) -> tuple[CompiledConflict, ...]:
        return tuple(CompiledConflict(c, self.condition(c.when, "structure/rules.yaml", f"conflicts.{i}.when"))
                     for i, c in enumerate(content.rules.conflicts))


def _reads(condition: Mapping[str, Any]) -> frozenset[str]:
    """Input fields a condition depends on, with derived facts mapped back to their inputs."""
    return frozenset(DERIVED_FIELDS.get(f, f) for f in condition_fields(condition))


def _never(_: Mapping[str, Any]) -> bool:
    return False


def _frozen(mapping: dict[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(mapping)


