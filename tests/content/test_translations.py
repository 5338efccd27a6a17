"""Invariants of the real content across languages: same ids, protected tokens kept, no English left behind."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from remedy.content.checks import check_content
from remedy.content.loader import load_content
from remedy.content.models import Content, LanguageText
from remedy.settings import Settings
from tests.conftest import LANGS

TRANSLATIONS = [lang for lang in LANGS if lang != "en"]
PROSE_MIN = 40  # shorter units are labels, names and list fragments that may legitimately stay in English


@pytest.fixture(scope="module")
def content() -> Content:
    return load_content(Settings().knowledge_dir)


def flatten(node: object, path: str = "") -> Iterator[tuple[str, str]]:
    """(path, text) for every string of a dumped language text, lists indexed as `[i]`."""
    if isinstance(node, str):
        yield path, node
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from flatten(value, f"{path}.{key}" if path else str(key))
    elif isinstance(node, list | tuple):
        for i, value in enumerate(node):
            yield from flatten(value, f"{path}[{i}]")


def units(text: LanguageText) -> dict[str, str]:
    """Every prose unit of one language. Not translated 1:1: the guide's optional `title_variants`, and the
    vocabulary (how people say things differs per language, so its lists differ in length)."""
    return {path: value for path, value in flatten(text.model_dump(exclude={"lang", "vocabulary"}))
            if ".title_variants[" not in path}


def has_token(text: str, token: str) -> bool:
    """`token` occurs as a whole: `1024` counts in `1024–1536` but not in `10240`."""
    if not token[:1].isalnum():
        return token in text
    return re.search(rf"(?<![0-9A-Za-z_]){re.escape(token)}(?![0-9A-Za-z])", text) is not None


def folded(text: str) -> str:
    return " ".join(text.split()).casefold()


def is_prose(en: str, tokens: tuple[str, ...]) -> bool:
    """Long English prose without a protected token: a translation must not contain it verbatim."""
    return len(en) > PROSE_MIN and not any(has_token(en, t) for t in tokens)


def untranslated(english: dict[str, str], other: dict[str, str], tokens: tuple[str, ...]) -> list[str]:
    """Paths whose English prose reappears verbatim (case and spacing aside) in the translation."""
    return [path for path, en in english.items() if is_prose(en, tokens) and folded(en) in folded(other.get(path, ""))]


def test_every_supported_language_has_text(content: Content) -> None:
    assert content.languages.default == "en"
    assert set(content.languages.supported) == set(LANGS)
    assert set(content.texts) == set(LANGS)


@pytest.mark.parametrize("lang", LANGS)
def test_same_ids_in_every_language(content: Content, lang: str) -> None:
    text = content.texts[lang]
    assert set(text.symptoms) == {s.id for s in content.symptoms}
    assert set(text.steps) == {s.id for s in content.steps}
    assert set(text.faq) == {f.id for f in content.faq}
    assert set(text.families) == {f.id for f in content.families}
    assert set(text.rules.reasons) == set(content.rules.reasons)
    assert set(text.rules.risk_reasons) == set(content.rules.risk_facts)
    assert set(text.guides) == {g.id for g in content.guides}
    for guide in content.guides:
        assert set(text.guides[guide.id].sections) <= {s.id for s in guide.sections}


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_same_units_as_english(content: Content, lang: str) -> None:
    english, other = units(content.texts["en"]), units(content.texts[lang])
    assert sorted(set(english) ^ set(other)) == []


def test_checks_find_no_problem_in_real_content(content: Content) -> None:
    problems, _ = check_content(content)
    assert [str(p) for p in problems] == []


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_protected_tokens_survive_translation(content: Content, lang: str) -> None:
    tokens = content.languages.protected.tokens
    english, other = units(content.texts["en"]), units(content.texts[lang])
    lost = [
        f"{path}: {token!r}"
        for path, en in english.items()
        for token in tokens
        if has_token(en, token) and not has_token(other.get(path, ""), token)
    ]
    assert lost == []


def test_protected_tokens_are_used(content: Content) -> None:
    english = units(content.texts["en"]).values()
    unused = [t for t in content.languages.protected.tokens if not any(has_token(en, t) for en in english)]
    assert unused == []


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_no_english_prose_left_untranslated(content: Content, lang: str) -> None:
    tokens = content.languages.protected.tokens
    english = units(content.texts["en"])
    assert sum(is_prose(en, tokens) for en in english.values()) > 50, "the rule would check almost nothing"
    assert untranslated(english, units(content.texts[lang]), tokens) == []


def test_untranslated_detector_catches_a_pasted_english_unit(content: Content) -> None:
    tokens = content.languages.protected.tokens
    english = units(content.texts["en"])
    path, en = next((p, e) for p, e in english.items() if is_prose(e, tokens))
    pasted = dict(units(content.texts["fr"]), **{path: f"Note :  {en.upper()}"})
    assert untranslated(english, pasted, tokens) == [path]
