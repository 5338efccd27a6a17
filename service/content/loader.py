"""Load `knowledge/` into `Content`: safe YAML, strict models, every problem reported at once."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import TypeAdapter, ValidationError

from .models import (
    Content,
    Family,
    FaqEntry,
    FindingRule,
    Guide,
    GuideText,
    Intents,
    LanguageProfile,
    Languages,
    LanguageText,
    OrdinaryWords,
    PastedSettings,
    Rules,
    Step,
    Symptom,
)
from .problems import ContentProblems, Problem

T = TypeVar("T")


_Base: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: 10x faster start-up


class _StrictLoader(_Base):  # type: ignore[misc]
    """Safe loader that refuses a repeated mapping key instead of silently keeping the last one."""


def _construct_mapping(loader: Any, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r}", key_node.start_mark
            )
        seen.add(key)
    mapping: dict[Any, Any] = loader.construct_mapping(node, deep=deep)
    return mapping


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


class _Reader:
    """Reads files relative to the knowledge root and collects problems instead of stopping."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.problems: list[Problem] = []

    def raw(self, rel: str) -> Any:
        path = self.root / rel
        if not path.is_file():
            self.problems.append(Problem(rel, "", "file-missing", "required file is missing"))
            return None
        try:
            data = yaml.load(path.read_text(encoding="utf-8"), Loader=_StrictLoader)
        except yaml.constructor.ConstructorError as exc:
            self.problems.append(Problem(rel, _mark(exc), "duplicate-key", str(exc.problem)))
        except yaml.YAMLError as exc:
            self.problems.append(Problem(rel, _mark(exc), "yaml-syntax", str(getattr(exc, "problem", exc))))
        except UnicodeDecodeError as exc:
            self.problems.append(Problem(rel, f"byte {exc.start}", "yaml-syntax", "the file is not UTF-8 text"))
        else:
            if isinstance(data, dict | list):
                return data
            shown = "nothing" if data is None else f"a single {type(data).__name__}"
            self.problems.append(Problem(rel, "", "empty-file", f"the file holds {shown}, not a mapping or a list"))
        return None

    def model(self, rel: str, adapter: TypeAdapter[T]) -> T | None:
        data = self.raw(rel)
        if data is None:
            return None
        try:
            return adapter.validate_python(data)
        except ValidationError as exc:
            for err in exc.errors():
                loc = ".".join(str(p) for p in err["loc"])
                self.problems.append(Problem(rel, loc, "schema", err["msg"]))
        return None


def _mark(exc: yaml.YAMLError) -> str:
    mark = getattr(exc, "problem_mark", None)
    return f"line {mark.line + 1}, column {mark.column + 1}" if mark else ""


def _adapter(tp: Any) -> TypeAdapter[Any]:
    return TypeAdapter(tp)


def revision_of(root: Path) -> str:
    """A short hash of every knowledge file: the `knowledge_revision` and the ETag seed."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.yaml")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def load_content(root: Path) -> Content:
    """Load and schema-check everything; raise `ContentProblems` listing every problem found."""
    reader = _Reader(root)
    languages = reader.model("languages.yaml", _adapter(Languages))
    guide_files = sorted((root / "structure" / "guides").glob("*.yaml"))
    guides = [reader.model(f"structure/guides/{p.name}", _adapter(Guide)) for p in guide_files]
    faq = reader.model("structure/faq.yaml", _adapter(tuple[FaqEntry, ...]))
    symptoms = reader.model("structure/symptoms.yaml", _adapter(tuple[Symptom, ...]))
    steps = reader.model("structure/steps.yaml", _adapter(tuple[Step, ...]))
    families = reader.model("structure/families.yaml", _adapter(tuple[Family, ...]))
    rules = reader.model("structure/rules.yaml", _adapter(Rules))
    findings = reader.model("structure/findings.yaml", _adapter(tuple[FindingRule, ...]))
    concepts = reader.model("structure/concepts.yaml", _adapter(dict[str, str]))
    features = reader.model("structure/features.yaml", _adapter(dict[str, str]))
    signals = reader.model("structure/signals.yaml", _adapter(dict[str, str]))
    intents = reader.model("structure/intents.yaml", _adapter(Intents))
    pasted = reader.model("structure/settings.yaml", _adapter(PastedSettings))

    texts: dict[str, LanguageText] = {}
    profiles: dict[str, LanguageProfile] = {}
    words: dict[str, OrdinaryWords] = {}
    for lang in languages.supported if languages else ():
        text = _load_language(reader, lang, [g.id for g in guides if g])
        if text is not None:
            texts[lang] = text
        profile = reader.model(f"text/{lang}/profile.yaml", _adapter(LanguageProfile)) if text is not None else None
        if profile is not None:
            profiles[lang] = profile
        ordinary = f"text/{lang}/words.yaml"  # optional: a language may have no list (Korean needs none)
        if text is not None and (reader.root / ordinary).is_file():
            listed = reader.model(ordinary, _adapter(OrdinaryWords))
            if listed is not None:
                words[lang] = listed

    if reader.problems:
        raise ContentProblems(reader.problems)
    assert languages and faq is not None and symptoms is not None and steps is not None
    assert families is not None and rules is not None and concepts is not None and features is not None
    assert signals is not None and intents is not None and findings is not None and pasted is not None
    return Content(
        revision=revision_of(root),
        languages=languages,
        guides=tuple(g for g in guides if g),
        faq=faq,
        symptoms=symptoms,
        steps=steps,
        families=families,
        rules=rules,
        findings=findings,
        concepts=concepts,
        features=features,
        signals=signals,
        intents=intents,
        pasted=pasted,
        texts=texts,
        profiles=profiles,
        words=words,
    )


def _load_language(reader: _Reader, lang: str, guide_ids: list[str]) -> LanguageText | None:
    base = f"text/{lang}"
    if not (reader.root / base).is_dir():
        reader.problems.append(Problem(base, "", "file-missing", f"no text for language {lang}"))
        return None
    # Each file is checked against its field's type in LanguageText (ids as keys included), so that a bad key is
    # a problem with file and path here, not an error when the parts are put together.
    def part(name: str, rel: str) -> Any:
        return reader.model(f"{base}/{rel}", _adapter(LanguageText.model_fields[name].annotation))

    guide_text = _adapter(GuideText)
    parts: dict[str, Any] = {
        "guides": {gid: reader.model(f"{base}/guides/{gid}.yaml", guide_text) for gid in guide_ids},
        "faq": part("faq", "faq.yaml"),
        "symptoms": part("symptoms", "symptoms.yaml"),
        "steps": part("steps", "steps.yaml"),
        "rules": part("rules", "rules.yaml"),
        "families": part("families", "families.yaml"),
        "signals": part("signals", "signals.yaml"),
        "findings": part("findings", "findings.yaml"),
        "vocabulary": part("vocabulary", "vocabulary.yaml"),
    }
    if any(v is None for v in parts.values()) or any(v is None for v in parts["guides"].values()):
        return None
    return LanguageText(lang=lang, **parts)


