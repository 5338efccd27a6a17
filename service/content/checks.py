"""Cross-file invariants of the content, and the per-language coverage report.

`check_content` never raises: it returns every problem, so `remedy validate` can print them all and the
service can refuse to start with the full list.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .context import LAYER_CONFLICTS
from .models import Content, FaqText, LanguageText, ListBlock, SectionText, TableBlock, TableText
from .problems import Problem
from .references import reference_problems

_PLACEHOLDER = re.compile(r"\{([a-z_]+)(?::[^{}]*)?\}")  # {name} or {name:spec} (a Korean particle)

Unit = tuple[str, str]  # (file, path inside it)


@dataclass
class Coverage:
    lang: str
    expected: int = 0
    present: int = 0
    problems: list[Problem] = field(default_factory=list)

    @property
    def ratio(self) -> float:
        return self.present / self.expected if self.expected else 0.0


def check_content(content: Content) -> tuple[list[Problem], dict[str, Coverage]]:
    """All cross-file problems, and coverage per supported language."""
    problems = list(reference_problems(content))
    coverage: dict[str, Coverage] = {}
    units: dict[str, dict[Unit, str]] = {}
    for lang in content.languages.supported:
        cov = Coverage(lang)
        text = content.texts.get(lang)
        units[lang] = _language_units(content, text, lang, cov) if text else {}
        coverage[lang] = cov
    source = units.get(content.languages.default, {})
    for lang, lang_units in units.items():
        if lang != content.languages.default:
            coverage[lang].problems.extend(_translation_problems(content, source, lang_units, lang))
    for cov in coverage.values():
        problems.extend(cov.problems)
    return problems, coverage


# --- text per language -----------------------------------------------------------------------------


def _language_units(content: Content, text: LanguageText, lang: str, cov: Coverage) -> dict[Unit, str]:
    """Every text unit the structure expects of `lang`, checking presence, extras and list lengths. Long on
    purpose: one block per text file of a language, in the order of `knowledge/text/<lang>/`, sharing the three
    local helpers that record a unit (splitting it would thread them and the coverage through every part)."""
    units: dict[Unit, str] = {}
    base = f"text/{lang}"

    def expect(file: str, path: str, value: str | None) -> None:
        cov.expected += 1
        if value is None:
            cov.problems.append(Problem(file, path, "missing-text", "no text for this key"))
            return
        cov.present += 1
        units[(file, path)] = value

    def expect_list(file: str, path: str, value: object, count: int) -> None:
        if value is not None and (isinstance(value, str) or not isinstance(value, tuple)):
            cov.expected += count
            cov.problems.append(Problem(file, path, "schema", "expected a list of texts"))
            return
        items = value or ()
        if value is not None and len(items) != count:
            cov.problems.append(
                Problem(file, path, "list-length", f"has {len(items)} items, the structure has {count}")
            )
        for k in range(count):
            expect(file, f"{path}[{k}]", items[k] if k < len(items) else None)

    def extras(file: str, path: str, have: Iterable[str], known: Iterable[str]) -> None:
        for key in sorted(set(have) - set(known)):
            cov.problems.append(Problem(file, f"{path}{key}", "extra-text", "the structure has no such id or key"))

    for guide in content.guides:
        file = f"{base}/guides/{guide.id}.yaml"
        gtext = text.guides.get(guide.id)
        if gtext is None:
            expect(file, "title", None)
            continue
        expect(file, "title", gtext.title)
        extras(file, "sections.", gtext.sections, (s.id for s in guide.sections))
        for sec in guide.sections:
            stext: SectionText = gtext.sections.get(sec.id, {})
            known = ["title"] if sec.titled else []
            if sec.titled:
                expect(file, f"sections.{sec.id}.title", _str(stext.get("title")))
            for block in sec.blocks:
                key = getattr(block, "text", None)
                if key is None:
                    continue
                known.append(key)
                path = f"sections.{sec.id}.{key}"
                value = stext.get(key)
                if isinstance(block, ListBlock):
                    expect_list(file, path, value, block.count)
                elif isinstance(block, TableBlock):
                    table = value if isinstance(value, TableText) else None
                    expect_list(file, f"{path}.header", table.header if table else None, len(block.columns))
                    rows = table.rows if table else {}
                    extras(file, f"{path}.rows.", rows, block.rows)
                    for row in block.rows:
                        expect_list(file, f"{path}.rows.{row}", rows.get(row), len(block.columns))
                else:
                    expect(file, path, _str(value))
            extras(file, f"sections.{sec.id}.", stext, known)

    file = f"{base}/faq.yaml"
    extras(file, "", text.faq, (e.id for e in content.faq))
    for entry in content.faq:
        ftext: FaqText = text.faq.get(entry.id, {})
        expect(file, f"{entry.id}.question", _str(ftext.get("question")))
        for block in entry.blocks:
            path = f"{entry.id}.{block.text}"
            if isinstance(block, ListBlock):
                expect_list(file, path, ftext.get(block.text), block.count)
            else:
                expect(file, path, _str(ftext.get(block.text)))
        extras(file, f"{entry.id}.", ftext, ["question", *(b.text for b in entry.blocks)])

    named: list[tuple[str, Mapping[str, Any], list[str], tuple[str, ...]]] = [
        ("symptoms", text.symptoms, [s.id for s in content.symptoms], ("title", "description")),
        ("steps", text.steps, [s.id for s in content.steps], ("title",)),
        ("families", text.families, [f.id for f in content.families], ("name",)),
    ]
    for name, mapping, ids, fields in named:
        file = f"{base}/{name}.yaml"
        extras(file, "", mapping, ids)
        for ident in ids:
            item = mapping.get(ident)
            for fld in fields:
                expect(file, f"{ident}.{fld}", getattr(item, fld) if item else None)

    file = f"{base}/signals.yaml"
    extras(file, "", text.signals, content.signals)
    for ident in content.signals:
        expect(file, ident, text.signals.get(ident))

    def expect_variants(file: str, path: str, value: object, variants: Iterable[str]) -> None:
        """One text when the structure declares no variants, else one text per variant id."""
        ids = list(variants)
        if not ids:
            if value is not None and not isinstance(value, str):
                cov.problems.append(Problem(file, path, "schema", "expected one text: the structure has no variants"))
            expect(file, path, _str(value))
            return
        if value is not None and not isinstance(value, Mapping):
            cov.problems.append(Problem(file, path, "schema", "expected one text per variant id"))
            value = None
        texts: Mapping[str, str] = value or {}
        extras(file, f"{path}.", texts, ids)
        for vid in ids:
            expect(file, f"{path}.{vid}", texts.get(vid))

    file = f"{base}/findings.yaml"
    extras(file, "", text.findings, [f.id for f in content.findings])
    for finding in content.findings:
        finding_text = text.findings.get(finding.id)
        expect_variants(file, f"{finding.id}.title", finding_text.title if finding_text else None, finding.title)
        expect_variants(file, f"{finding.id}.detail", finding_text.detail if finding_text else None,
                        (vid for part in finding.details for vid in part))

    file = f"{base}/steps.yaml"
    for step in content.steps:
        step_text = text.steps.get(step.id)
        expect_variants(file, f"{step.id}.detail", step_text.detail if step_text else None,
                        (vid for part in step.details for vid in part))
        notes = step_text.checks if step_text else {}
        extras(file, f"{step.id}.checks.", notes, (c.id for c in step.checks if c.notes))
        for check in step.checks:
            for note in check.notes:
                expect(file, f"{step.id}.checks.{check.id}.{note}", notes.get(check.id, {}).get(note))
            extras(file, f"{step.id}.checks.{check.id}.", notes.get(check.id, {}), check.notes)

    file = f"{base}/rules.yaml"
    for rid, reason in content.rules.reasons.items():
        expect_variants(file, f"reasons.{rid}", text.rules.reasons.get(rid), reason.variants)
    extras(file, "reasons.", text.rules.reasons, content.rules.reasons)
    groups: list[tuple[str, Mapping[Any, str], list[str]]] = [
        ("risk_reasons", text.rules.risk_reasons, list(content.rules.risk_facts)),
        ("conflicts", text.rules.conflicts, [c.id for c in content.rules.conflicts] + list(LAYER_CONFLICTS)),
    ]
    if any(step.checks for step in content.steps):
        groups.append(("check_status", text.rules.check_status, ["met", "not-met", "unknown"]))
    for group, texts, ids in groups:
        extras(file, f"{group}.", texts, ids)
        for ident in ids:
            expect(file, f"{group}.{ident}", texts.get(ident))
    extras(file, "questions.", text.rules.questions, (n.field for n in content.rules.needs))
    for need in content.rules.needs:
        question = text.rules.questions.get(need.field)
        expect(file, f"questions.{need.field}.text", question.text if question else None)
        if need.labels == "boolean":
            expect(file, f"questions.{need.field}.yes", question.yes if question else None)
            expect(file, f"questions.{need.field}.no", question.no if question else None)
    return units


def _str(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _translation_problems(content: Content, source: dict[Unit, str], units: dict[Unit, str],
                          lang: str) -> Iterator[Problem]:
    """Protected tokens and placeholders of each English unit must survive in the translation."""
    tokens = content.languages.protected.tokens
    src_prefix = f"text/{content.languages.default}/"
    for (file, path), en in source.items():
        rel = file.removeprefix(src_prefix)
        target_file = f"text/{lang}/{rel}"
        value = units.get((target_file, path))
        if value is None:
            continue
        for token in tokens:
            if _has_token(en, token) and not _has_token(value, token):
                yield Problem(target_file, path, "protected-token", f"lost {token!r} (English has it)")
        if set(_PLACEHOLDER.findall(en)) != set(_PLACEHOLDER.findall(value)):
            yield Problem(target_file, path, "placeholder-mismatch", "placeholders differ from English")


def _has_token(text: str, token: str) -> bool:
    """Whole-token containment: `1024` is in `1024–1536` but not in `10240`."""
    if token not in text:
        return False
    if not token[0].isalnum():
        return True
    pattern = rf"(?<![0-9A-Za-z_]){re.escape(token)}(?![0-9A-Za-z])"
    return re.search(pattern, text) is not None
