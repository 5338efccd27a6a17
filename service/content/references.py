"""Cross-file invariants of the content's ids (`checks.check_content` reports them beside the per-language text
checks): no id given twice, every reference pointing at something, every pasted setting's concept and family known.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator

from .models import Content, TableBlock
from .problems import Problem


def reference_problems(content: Content) -> Iterator[Problem]:
    """Duplicate ids, dangling references and unknown pasted settings, in that order."""
    yield from _duplicate_ids(content)
    yield from _dangling_references(content)
    yield from _pasted_settings(content)


def _duplicate_ids(content: Content) -> Iterator[Problem]:
    groups: list[tuple[str, Iterable[str]]] = [
        ("structure/symptoms.yaml", (s.id for s in content.symptoms)),
        ("structure/steps.yaml", (s.id for s in content.steps)),
        ("structure/faq.yaml", (f.id for f in content.faq)),
        ("structure/families.yaml", (f.id for f in content.families)),
        ("structure/rules.yaml", (r.id for r in content.rules.risk)),
        ("structure/findings.yaml", (r.id for r in content.findings)),
        ("structure/guides", (g.id for g in content.guides)),
        ("languages.yaml", content.languages.supported),
    ]
    for guide in content.guides:
        groups.append((f"structure/guides/{guide.id}.yaml", (s.id for s in guide.sections)))
    for file, ids in groups:
        for ident, n in Counter(ids).items():
            if n > 1:
                yield Problem(file, ident, "duplicate-id", f"id {ident!r} is used {n} times")


def _dangling_references(content: Content) -> Iterator[Problem]:
    """Every id that points at nothing. Long on purpose: one flat list of independent reference checks, one
    per kind of reference, read top to bottom like the files they check (split, they would only be scattered)."""
    sections = {s.id for g in content.guides for s in g.sections}
    faq_ids = {f.id for f in content.faq}
    steps = {s.id for s in content.steps}
    symptoms = {s.id for s in content.symptoms}
    families = {f.id for f in content.families}
    reasons = set(content.rules.reasons)
    facts = set(content.rules.risk_facts)

    def missing(file: str, path: str, ref: str, known: set[str], what: str) -> Iterator[Problem]:
        if ref not in known:
            yield Problem(file, path, "dangling-reference", f"unknown {what} {ref!r}")

    f = "structure/symptoms.yaml"
    for i, sym in enumerate(content.symptoms):
        yield from missing(f, f"{i}.section", sym.section, sections, "section")
        for j, rel in enumerate(sym.related):
            yield from missing(f, f"{i}.related.{j}", rel, sections | faq_ids, "section or FAQ entry")
        for j, item in enumerate(sym.plan):
            yield from missing(f, f"{i}.plan.{j}.step", item.step, steps, "step")
            yield from missing(f, f"{i}.plan.{j}.reason", item.reason, reasons, "reason")
    f = "structure/steps.yaml"
    for i, step in enumerate(content.steps):
        yield from missing(f, f"{i}.section", step.section, sections, "section")
    f = "structure/faq.yaml"
    for i, entry in enumerate(content.faq):
        yield from missing(f, f"{i}.section", entry.section, sections, "section")
        if entry.symptom:
            yield from missing(f, f"{i}.symptom", entry.symptom, symptoms, "symptom")
        for j, rel in enumerate(entry.related):
            yield from missing(f, f"{i}.related.{j}", rel, sections | faq_ids, "section or FAQ entry")
    f = "structure/rules.yaml"
    for rid, reason in content.rules.reasons.items():
        yield from missing(f, f"reasons.{rid}.section", reason.section, sections, "section")
    for i, rule in enumerate(content.rules.risk):
        for j, fact in enumerate(rule.facts):
            yield from missing(f, f"risk.{i}.facts.{j}", fact, facts, "risk fact")
    for guide in content.guides:
        f = f"structure/guides/{guide.id}.yaml"
        for i, sec in enumerate(guide.sections):
            for j, block in enumerate(sec.blocks):
                if block.kind == "faq":
                    for k, ref in enumerate(block.entries):
                        yield from missing(f, f"sections.{i}.blocks.{j}.entries.{k}", ref, faq_ids, "FAQ entry")
                if isinstance(block, TableBlock):
                    for k, ref in enumerate(block.rows):
                        yield from missing(f, f"sections.{i}.blocks.{j}.rows.{k}", ref, families, "family")
    f = "structure/findings.yaml"
    for i, finding in enumerate(content.findings):
        yield from missing(f, f"{i}.step", finding.step, steps, "step")
    f = "structure/intents.yaml"
    targets = {"symptom": symptoms, "faq": faq_ids, "section": sections, "step": steps}
    implied = {imp.then for imp in content.intents.implies}
    rules = content.intents.sentences
    implied |= {s.becomes for s in rules.subjects if s.becomes} | {d.becomes for d in rules.denied}
    names = set(content.concepts) | set(content.features) | implied
    for tid, intent in content.intents.targets.items():
        yield from missing(f, f"targets.{tid}", tid, targets[intent.kind], intent.kind)
        refs = [*intent.require, *(c for g in intent.require_any for c in g), *intent.forbid, *intent.weights,
                *intent.about, *intent.rests_on]
        for ref in refs:
            yield from missing(f, f"targets.{tid}", ref, names, "concept or feature")
    for i, imp in enumerate(content.intents.implies):
        for ref in imp.all:
            yield from missing(f, f"implies.{i}", ref, names, "concept")
    for key in ("domain", "search_needs", "topic_evidence", "search_title_told", "search_title_asks",
                "search_title_persisted", "whole_phrases"):  # lists of names
        for i, ref in enumerate(getattr(content.intents, key)):
            yield from missing(f, f"{key}.{i}", ref, names, "concept or feature")
    for i, ref in enumerate(content.intents.search_generic):
        yield from missing(f, f"search_generic.{i}", ref, set(content.intents.search_needs), "search_needs subject")
    for i, ref in enumerate(content.intents.search_title_vetoes):
        yield from missing(f, f"search_title_vetoes.{i}", ref, {c for o in content.intents.outside for c in o.any},
                           "outside subject")
    for i, topic in enumerate(content.intents.topic_titles):
        for ref in (*topic.any, *topic.unless):
            yield from missing(f, f"topic_titles.{i}", ref, names, "concept or feature")
    for i, ref in enumerate(content.intents.search_title_topics):
        yield from missing(f, f"search_title_topics.{i}", ref, set(content.intents.search_title_vetoes),
                           "search_title_vetoes subject")
    for i, ref in enumerate(content.intents.search_figures):
        yield from missing(f, f"search_figures.{i}", ref, set(content.intents.search_needs), "search_needs subject")
    asked = content.intents.search_asked
    for i, ref in enumerate((*asked.elsewhere, *asked.asking, *asked.states, *asked.refers_back)):
        yield from missing(f, f"search_asked.{i}", ref, names, "concept")
    for i, outside in enumerate(content.intents.outside):
        for ref in (*outside.any, *outside.unless):
            yield from missing(f, f"outside.{i}", ref, names, "concept or feature")
    for i, avoided in enumerate(content.intents.avoided):
        for ref in (*avoided.when, avoided.by, *avoided.drop, *avoided.stop):
            yield from missing(f, f"avoided.{i}", ref, names, "concept")
    for part in ("events", "told", "asides", "cues", "qualifiers"):
        for i, ref in enumerate(getattr(rules, part)):
            yield from missing(f, f"sentences.{part}.{i}", ref, names, "concept")
    for i, subject in enumerate(rules.subjects):
        for ref in (*subject.told, *subject.training, *subject.other):
            yield from missing(f, f"sentences.subjects.{i}", ref, names, "concept")
    for i, spill in enumerate(rules.spills):
        for ref in (*spill.memory, *spill.slowness, *spill.failure, *spill.figured):
            yield from missing(f, f"sentences.spills.{i}", ref, names, "concept")
    for i, denial in enumerate(rules.denied):
        for ref in (*denial.praise, *denial.by, *denial.owners, *denial.subjects, denial.becomes):
            yield from missing(f, f"sentences.denied.{i}", ref, names, "concept")
    for lang, text in content.texts.items():
        f = f"text/{lang}/vocabulary.yaml"
        for concept in content.concepts:
            if not text.vocabulary.concepts.get(concept):
                yield Problem(f, f"concepts.{concept}", "missing-text", "no words for this concept")
        for concept in sorted(set(text.vocabulary.concepts) - set(content.concepts)):
            yield Problem(f, f"concepts.{concept}", "extra-text", "no such concept in structure/concepts.yaml")
        for tid in text.vocabulary.phrasings:
            yield from missing(f, f"phrasings.{tid}", tid, set(content.intents.targets), "intent target")
    if content.languages.default not in content.languages.supported:
        yield Problem("languages.yaml", "default", "dangling-reference", "default language is not supported")
    fallbacks = [fam.id for fam in content.families if fam.fallback]
    if len(fallbacks) != 1:
        yield Problem("structure/families.yaml", "", "dangling-reference", "exactly one family must be the fallback")


def _pasted_settings(content: Content) -> Iterator[Problem]:
    """`structure/settings.yaml`: each key names one setting, its concept and family exist."""
    f = "structure/settings.yaml"
    families = {fam.id for fam in content.families}
    for key, n in Counter(k for s in content.pasted.settings for k in s.keys).items():
        if n > 1:
            yield Problem(f, key, "duplicate-id", f"key {key!r} is given {n} times")
    for i, setting in enumerate(content.pasted.settings):
        if setting.concept is not None and setting.concept not in content.concepts:
            yield Problem(f, f"settings.{i}.concept", "dangling-reference", f"unknown concept {setting.concept!r}")
        if setting.family is not None and setting.family not in families:
            yield Problem(f, f"settings.{i}.family", "dangling-reference", f"unknown family {setting.family!r}")
    for concept in content.pasted.named:
        if concept not in content.concepts:
            yield Problem(f, "named", "dangling-reference", f"unknown concept {concept!r}")
