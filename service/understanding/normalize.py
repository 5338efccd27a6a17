"""The first stage of understanding: text normalized and split into raw tokens (pure functions, no data).

>>> normalize("Désactivé ÉTAPE  Größe")
'desactive etape grosse'
>>> split_tokens("oom at 1024x768, gradient_checkpointing: true 스텝에서")
['oom', 'at', '1024', '768', 'gradient_checkpointing', 'true', '스텝에서']
>>> split_tokens("it's at 2 it/s")
['it', 'at', '2', 'it', 's']
>>> split_tokens("batch 4->2")
['batch', '4', '→', '2']
"""

from __future__ import annotations

import re
import unicodedata

_TOKEN = re.compile(r"[a-z0-9]+(?:[_.][a-z0-9]+)*|[\uac00-\ud7a3]+|\u2192")
# An arrow between two values ("batch 4 -> 2", "4→2", "4 => 2"): a token of its own, the vocabularies' `span_to`
_ARROW = re.compile(r"-+>|=>|\u2192")
_DIGIT = re.compile("[0-9]")
_DIMENSION = re.compile(r"^(\d{2,5})x(\d{2,5})$")
# A number glued to a unit of time or rate ("295s/it", "2it/sec", "2hours", "1day"): the number and its unit.
_RATE = re.compile(r"^(\d+(?:\.\d+)?)(s|sec|secs|it|its|h|hr|hrs|hour|hours|min|mins|minutes|seconds|day|days)$")
# An English "'s" (it's, what's, the LoRA's): no word of its own, so "it's" is never the rate "it/s".
_APOSTROPHE_S = re.compile(r"(?<=[a-z])['\u2019]s\b")
# Combining diacritical marks (the blocks Latin, Greek and Cyrillic accents decompose into).
_COMBINING = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")


def normalize(text: str) -> str:
    """NFKC, case-folded, accents removed (Hangul kept), whitespace collapsed."""
    if text.isascii():
        return " ".join(text.casefold().split())
    text = unicodedata.normalize("NFKC", text).casefold()
    stripped = _COMBINING.sub("", unicodedata.normalize("NFD", text))
    return " ".join(unicodedata.normalize("NFC", stripped).split())


def fold(text: str) -> str:
    """Accents removed (the last step of `normalize`)."""
    return unicodedata.normalize("NFC", _COMBINING.sub("", unicodedata.normalize("NFD", text)))


def is_hangul(token: str) -> bool:
    """True when the token starts with a Hangul syllable."""
    return token[:1] >= "\uac00" and token[:1] <= "\ud7a3"


def split_tokens(normalized: str) -> list[str]:
    """Tokens of normalized text: Latin words/numbers/config keys and Hangul runs, dimensions split."""
    out: list[str] = []
    if "s" in normalized and ("'" in normalized or "\u2019" in normalized):
        normalized = _APOSTROPHE_S.sub("", normalized)
    if ">" in normalized or "\u2192" in normalized:
        normalized = _ARROW.sub(" \u2192 ", normalized)
    if _DIGIT.search(normalized) is None:
        return _TOKEN.findall(normalized)  # no number: no dimension or rate to split
    for tok in _TOKEN.findall(normalized):
        dim = _DIMENSION.match(tok) if "x" in tok else None
        rate = _RATE.match(tok) if not dim and tok[:1].isdigit() else None
        if dim:
            out.extend((dim.group(1), dim.group(2)))
        elif rate:
            out.extend((rate.group(1), rate.group(2)))
        else:
            out.append(tok)
    return out
