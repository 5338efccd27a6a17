"""The service's own strings (error titles, page labels) and language negotiation, through Babel.

Catalogs are gettext `.po` files under `locales/<lang>/LC_MESSAGES/remedy.po`, compiled by Babel into
`.mo` files next to them (`pybabel compile -d locales -D remedy`; a test keeps them in step). They are
loaded once at start-up; a missing translation falls back to the English message id.
"""

from __future__ import annotations

import gettext
from dataclasses import dataclass
from pathlib import Path

from babel import Locale, negotiate_locale
from babel.core import LOCALE_ALIASES

DOMAIN = "remedy"


@dataclass(frozen=True, slots=True)
class Negotiated:
    """The language served, and why not the one asked for (`fallback` is None when it was honoured)."""

    lang: str
    requested: str | None
    fallback: str | None


class Catalogs:
    """Translations of the service's strings and locale names for the supported languages."""

    def __init__(self, locales_dir: Path, languages: tuple[str, ...], default: str) -> None:
        self.languages = languages
        self.default = default
        self._translations: dict[str, gettext.NullTranslations] = {}
        for lang in languages:
            try:
                self._translations[lang] = gettext.translation(DOMAIN, locales_dir, languages=[lang])
            except FileNotFoundError:
                self._translations[lang] = gettext.NullTranslations()
        self.locales = {lang: Locale.parse(lang) for lang in languages}
        # The primary subtags that can match a supported language (Babel's aliases included): a tag with any
        # other is skipped without asking Babel (an Accept-Language of 32 unknown tags costs 32 of its calls).
        primaries = {lang.split("-", 1)[0].lower() for lang in languages}
        self._primaries = frozenset(primaries | {alias.lower() for alias, target in LOCALE_ALIASES.items()
                                                 if target.split("_", 1)[0].lower() in primaries})

    def gettext(self, lang: str, message: str) -> str:
        return self._translations.get(lang, gettext.NullTranslations()).gettext(message)

    def name(self, lang: str, in_lang: str | None = None) -> str:
        """The language's name in its own language (`español`), or in `in_lang`."""
        locale = self.locales[lang]
        name = locale.get_display_name(in_lang or lang) or lang
        return str(name)

    def negotiate(self, requested: str | None, accept_language: str | None) -> Negotiated:
        """PRODUCT.md §3: explicit `lang`, then Accept-Language (q-values, regional tags), then default."""
        if requested:
            match = self._match([requested])
            if match:
                return Negotiated(match, requested, None)
            header_match = self._match(parse_accept_language(accept_language or ""))
            lang = header_match or self.default
            return Negotiated(lang, requested, f"unsupported-language:{requested}")
        preferred = parse_accept_language(accept_language or "")
        match = self._match(preferred)
        if match:
            return Negotiated(match, None, None)
        if preferred:
            return Negotiated(self.default, None, f"unsupported-language:{preferred[0]}")
        return Negotiated(self.default, None, None)

    def _match(self, preferred: list[str]) -> str | None:
        for tag in preferred:
            tag = tag.strip().replace("_", "-")
            if not tag or tag == "*" or tag.split("-", 1)[0].lower() not in self._primaries:
                continue
            found = negotiate_locale([tag], list(self.languages), sep="-")
            if found is None:
                found = negotiate_locale([tag.split("-", 1)[0].lower()], list(self.languages), sep="-")
            if found:
                # Babel answers with the tag as requested (`ES`): serve the supported code it matched.
                return next((lang for lang in self.languages if lang.lower() == str(found).lower()), None)
        return None


def parse_accept_language(header: str) -> list[str]:
    """Language tags of an Accept-Language header, best first (q-values honoured, q=0 dropped).

    >>> parse_accept_language("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5")
    ['fr-CH', 'fr', 'en', 'de', '*']
    >>> parse_accept_language("de;q=0.2, ko")
    ['ko', 'de']
    """
    items: list[tuple[float, int, str]] = []
    for pos, part in enumerate(header.split(",", 32)[:32]):  # the first 32 tags, without splitting the rest
        tag, _, params = part.strip().partition(";")
        tag = tag.strip()
        if not tag or len(tag) > 35:
            continue
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if q > 0:
            items.append((-q, pos, tag))
    return [tag for _, _, tag in sorted(items)]
