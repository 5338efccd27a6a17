"""Service strings: every message translated in every language, compiled catalogs in step with the sources."""

from __future__ import annotations

import gettext
import re

import pytest
from babel.messages.pofile import read_po

from remedy import errors
from remedy.catalogs import parse_accept_language
from remedy.runtime import Runtime
from remedy.settings import ROOT
from tests.conftest import LANGS

LOCALES = ROOT / "locales"


def message_ids() -> set[str]:
    with (LOCALES / "remedy.pot").open("rb") as f:
        return {m.id for m in read_po(f) if m.id and isinstance(m.id, str)}


def test_template_has_every_error_message() -> None:
    ids = message_ids()
    for cls in vars(errors).values():
        if isinstance(cls, type) and issubclass(cls, errors.RemedyError):
            assert cls.title in ids and cls.detail in ids, cls.__name__


@pytest.mark.parametrize("lang", [lang for lang in LANGS if lang != "en"])
def test_every_message_is_translated_and_compiled(lang: str) -> None:
    with (LOCALES / lang / "LC_MESSAGES" / "remedy.po").open("rb") as f:
        catalog = {m.id: m.string for m in read_po(f) if m.id}
    assert message_ids() <= set(catalog), "run pybabel update"
    compiled = gettext.translation("remedy", LOCALES, languages=[lang])
    for msgid in message_ids():
        assert catalog[msgid], f"{lang}: untranslated {msgid!r}"
        assert compiled.gettext(msgid) == catalog[msgid], f"{lang}: .mo is stale, run pybabel compile"


def test_accept_language_parsing() -> None:
    assert parse_accept_language("fr-CH, fr;q=0.9, en;q=0.8") == ["fr-CH", "fr", "en"]
    assert parse_accept_language("de;q=0.2, ko, es;q=0") == ["ko", "de"]
    assert parse_accept_language("en;q=abc, pt") == ["pt"]
    assert parse_accept_language("") == []


# French puts a no-break space before ":" and a narrow one before ";", "!" and "?"; a colon that belongs to a
# config literal (`train:`) or an address keeps no space.
def french_punctuation_errors(text: str) -> list[str]:
    """
    >>> french_punctuation_errors("Pourquoi\u00a0: ceci\u202f; sous train: rien")
    []
    >>> french_punctuation_errors("Pourquoi : ceci; cela?")
    ['Pourquoi :', 'ceci;', 'cela?']
    """
    wrong = []
    for m in re.finditer(r"\S*\s?[:;!?]", text):
        mark, before = m.group()[-1], m.group()[:-1]
        if mark == ":" and (before.endswith("\u00a0") or re.fullmatch(r"[a-z_]+", before)):
            continue
        if mark != ":" and before.endswith("\u202f"):
            continue
        wrong.append(m.group())
    return wrong


def test_french_messages_are_punctuated_the_french_way() -> None:
    with (LOCALES / "fr" / "LC_MESSAGES" / "remedy.po").open("rb") as f:
        strings = [m.string for m in read_po(f) if m.id and isinstance(m.string, str)]
    wrong = {s: french_punctuation_errors(s) for s in strings if french_punctuation_errors(s)}
    assert not wrong, wrong
    assert any("\u00a0:" in s for s in strings) and any("\u202f;" in s for s in strings)
@pytest.mark.parametrize("tag", ["ES", "Es-mx", "PT-br"])
def test_a_tag_in_any_case_gets_the_supported_code(runtime: Runtime, tag: str) -> None:
    # Babel echoes the requested spelling (`ES`); the answer and its texts are looked up by the code (`es`).
    neg = runtime.catalogs.negotiate(tag, None)
    assert neg.lang == tag[:2].lower() and neg.fallback is None
    assert runtime.catalogs.negotiate(None, tag).lang == tag[:2].lower()
