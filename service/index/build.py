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

from ..content.context import CHECK_FACTS, CONTEXT_FIELDS, DERIVED_FIELDS
from ..content.models import (
    Content,
    Family,
    FaqEntry,
    FindingRule,
    Guide,
    LanguageText,
    RiskRule,
    Step,
    Symptom,
    TextVariant,
)
from ..content.problems import ContentProblems, Problem
from ..understanding.matcher import Matcher, build_matcher
from .conditions import ConditionError, Predicate, compile_condition, condition_fields, known_fields
from .patches import BUILDERS, VALUE_BUILDERS, Builder, ValueBuilder


@dataclass(frozen=True, slots=True)
class CompiledStep:
    step: Step
    applies: Predicate
    reads: frozenset[str]
    builder: Builder | None


@dataclass(frozen=True, slots=True)
class PlanItem:
    step: CompiledStep
    reason: str


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
class CompiledVariant:
    text: str
    when: Predicate


@dataclass(frozen=True, slots=True)
class CompiledFinding:
    rule: FindingRule
    when: Predicate
    high_when: Predicate | None
    builder: ValueBuilder | None
    title: tuple[CompiledVariant, ...]
    detail: tuple[tuple[CompiledVariant, ...], ...]  # the detail's sentences in order, each its wordings


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
    needs_order: tuple[str, ...]
    sections: Mapping[str, str]  # section id -> guide id
    texts: Mapping[str, LanguageText]
    content: Content
    matcher: Matcher
    flag_arch: Mapping[str, str]  # legacy config flag (`is_flux`) -> an arch of its family (`flux`)

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
        steps[step.id] = CompiledStep(
            step=step,
            applies=compiled(step.applies, "structure/steps.yaml", f"{i}.applies"),
            reads=_reads(step.applies),
            builder=builder,
        )

    symptoms: dict[str, CompiledSymptom] = {}
    for i, sym in enumerate(content.symptoms):
        for key in sym.implies:
            if key not in CONTEXT_FIELDS:
                problems.append(Problem("structure/symptoms.yaml", f"{i}.implies.{key}", "unknown-field",
                                        f"the context has no field {key!r}"))
        plan = tuple(PlanItem(steps[e.step], e.reason) for e in sym.plan if e.step in steps)
        reads = frozenset().union(*(item.step.reads for item in plan)) if plan else frozenset()
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
        def variants(slot: tuple[TextVariant, ...], path: str) -> tuple[CompiledVariant, ...]:
            return tuple(CompiledVariant(v.text, compiled(v.when, "structure/findings.yaml", f"{path}.{j}.when"))
                         for j, v in enumerate(slot))

        findings.append(CompiledFinding(
            rule=rule,
            when=compiled(rule.when, "structure/findings.yaml", f"{i}.when"),
            high_when=compiled(rule.high_when, "structure/findings.yaml", f"{i}.high_when") if rule.high_when else None,
            builder=value_builder,
            title=variants(rule.title, f"{i}.title"),
            detail=tuple(variants(slot, f"{i}.detail.{name}") for name, slot in rule.detail.items()),
        ))
        problems.extend(_unfilled_placeholders(content, i, rule))
    for i, field in enumerate(content.rules.needs):
        if field not in CONTEXT_FIELDS:
            problems.append(Problem("structure/rules.yaml", f"needs.{i}", "unknown-field",
                                    f"the context has no field {field!r}"))
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
        needs_order=content.rules.needs,
        sections=_frozen({s.id: g.id for g in content.guides for s in g.sections}),
        texts=_frozen(dict(content.texts)),
        content=content,
        matcher=build_matcher(content),
        flag_arch=_frozen({
            flag: next((p for p in family.arch if "*" not in p), family.id)
            for family in content.families
            for flag in family.legacy_flags
        }),
    )


_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")
_SAME_FACT = {"family": "model_family", "model_family": "family"}  # the family fact is the context's family


def _unfilled_placeholders(content: Content, i: int, rule: FindingRule) -> list[Problem]:
    """A finding's wording may name a fact only where it is known: a fact every config has, the finding's own
    value (and safer value, when it has one), or a fact its conditions (the finding's and the wording's) prove
    known. So no text shows a {placeholder} or a guess. English is read: every translation has its placeholders."""
    always = set(CHECK_FACTS) | {"value"} | ({"suggested"} if rule.suggested is not None or rule.suggested_builder
                                              else set())
    source = content.texts.get(content.languages.default)
    texts = source.findings.get(rule.id, {}) if source else {}
    wordings = [(f"{i}.title.{j}", v) for j, v in enumerate(rule.title)]
    wordings += [(f"{i}.detail.{name}.{j}", v) for name, slot in rule.detail.items() for j, v in enumerate(slot)]
    problems = []
    for path, variant in wordings:
        known = set(known_fields(rule.when) | known_fields(variant.when))
        known |= {_SAME_FACT[f] for f in known if f in _SAME_FACT}
        for name in sorted(set(_PLACEHOLDER.findall(texts.get(variant.text, ""))) - always - known):
            problems.append(Problem("structure/findings.yaml", path, "unknown-placeholder",
                                    f"{variant.text!r} names {{{name}}}, which its conditions do not make known"))
    return problems


def _reads(condition: Mapping[str, Any]) -> frozenset[str]:
    """Input fields a condition depends on, with derived facts mapped back to their inputs."""
    return frozenset(DERIVED_FIELDS.get(f, f) for f in condition_fields(condition))


def _never(_: Mapping[str, Any]) -> bool:
    return False


def _frozen(mapping: dict[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(mapping)


