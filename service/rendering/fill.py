"""Fill a text's {placeholders} from the facts, in the grammar of its language.

Numbers go through Babel for the locale (no digit grouping: `1024` is a bucket size, not an amount); bucket
lists are joined as the guide writes them (`512 / 768`). In Korean a placeholder may carry the particle that
follows it as its format spec, written in its after-a-consonant form: `{family:은}` gives `Z-Image는` or
`Qwen-Edit은`, chosen by the final sound of the word as read aloud (a Hangul syllable's final consonant; for a
Latin name, its `reading` in text/ko/families.yaml, else the name of its last letter; for a number, the
reading of its last digit or power of ten).

>>> fill("{family:은} {n:이}", "ko", {"family": Word("Qwen-Edit", "큐웬 에딧"), "n": 1536})
'Qwen-Edit은 1536이'
>>> fill("{kept}", "fr", {"kept": (512, 768)})
'512 / 768'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from babel.numbers import format_decimal


@dataclass(frozen=True, slots=True)
class Word:
    """A name to show, and how it is read aloud (for grammar that depends on its sound)."""

    text: str
    reading: str | None = None

    def __str__(self) -> str:
        return self.text


# particle spec (after a consonant) -> (after a consonant, after a vowel); 으로 takes 로 after ㄹ as well.
PARTICLES: dict[str, tuple[str, str]] = {
    "은": ("은", "는"),
    "이": ("이", "가"),
    "을": ("을", "를"),
    "과": ("과", "와"),
    "으로": ("으로", "로"),
    "이나": ("이나", "나"),
    "이라": ("이라", "라"),
}
_HANGUL_FIRST, _HANGUL_LAST = 0xAC00, 0xD7A3
_RIEUL = 8  # the index of ㄹ among final consonants
# Final sound of each digit and power of ten read in Sino-Korean: None = a vowel, "ㄹ", or another consonant "c".
_DIGITS = {"0": "c", "1": "ㄹ", "2": None, "3": "c", "4": None, "5": None, "6": "c", "7": "ㄹ", "8": "ㄹ", "9": None}
_TENS = ("c", "c", "c", "c")  # 십, 백, 천, 만: every power of ten ends in a consonant
# The Korean names of Latin letters end in a vowel except L (엘), M (엠), N (엔), R (알), and Z (제트) read here as 지.
_LETTERS = {"l": "ㄹ", "m": "c", "n": "c", "r": "ㄹ"}


def fill(template: str, lang: str, values: Mapping[str, Any]) -> str:
    """`template` with every {placeholder} replaced (an unknown one stays visible, never raises)."""
    if "{" not in template:
        return template
    try:
        return template.format_map(_Values(values, lang))
    except (ValueError, IndexError, AttributeError):  # a malformed template is shown as it is
        return template


class _Shown(str):
    """A value as shown, which takes a Korean particle as its format spec."""

    reading: str | None = None

    def __format__(self, spec: str) -> str:
        if spec in PARTICLES:
            return str(self) + particle(self.reading or str(self), spec)
        return format(str(self), spec)


class _Values(dict[str, Any]):
    def __init__(self, values: Mapping[str, Any], lang: str) -> None:
        super().__init__()
        self._source, self._lang = values, lang

    def __missing__(self, key: str) -> str:
        if key not in self._source:
            return _Missing(key)
        value = self._source[key]
        shown = _Shown(show(value, self._lang))
        if isinstance(value, Word):
            shown.reading = value.reading
        return shown


class _Missing(str):
    """An unknown placeholder stays visible as it was written, spec included."""

    def __new__(cls, key: str) -> _Missing:
        return super().__new__(cls, key)

    def __format__(self, spec: str) -> str:
        return "{" + str(self) + (":" + spec if spec else "") + "}"


def show(value: Any, lang: str) -> str:
    """A value as a person reads it in `lang`: numbers through Babel, bucket lists joined by " / "."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return _number(value, lang)
    if isinstance(value, tuple | list):
        return " / ".join(show(v, lang) for v in value)
    return str(value)


@lru_cache(maxsize=4096)
def _number(value: float, lang: str) -> str:
    return str(format_decimal(value, locale=lang, group_separator=False))


def particle(word: str, spec: str) -> str:
    """The form of the particle `spec` that follows `word` (`particle("Z-Image", "은")` is `는`)."""
    after_consonant, after_vowel = PARTICLES[spec]
    final = final_sound(word)
    if spec == "으로":
        return after_vowel if final in (None, "ㄹ") else after_consonant
    return after_vowel if final is None else after_consonant


def final_sound(word: str) -> str | None:
    """None when `word` ends in a vowel sound, "ㄹ" for ㄹ, "c" for another consonant."""
    core = word.rstrip(" )]}\"'.,!?·-”»’")
    if not core:
        return None
    last = core[-1]
    code = ord(last)
    if _HANGUL_FIRST <= code <= _HANGUL_LAST:
        batchim = (code - _HANGUL_FIRST) % 28
        return None if batchim == 0 else "ㄹ" if batchim == _RIEUL else "c"
    if last.isdigit():
        digits = core[len(core.rstrip("0123456789")):]
        zeros = len(digits) - len(digits.rstrip("0"))
        if zeros and zeros < len(digits) + 1 and digits.strip("0"):
            return _TENS[min(zeros, 4) - 1]
        return _DIGITS.get(last)
    return _LETTERS.get(last.lower())
