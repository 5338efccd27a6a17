"""What the words around a GC mention say of its state (engine layer): a doubt about the switch, a negation or a
"never" that flips an on/off word, a short word that is often a preposition. Used by `extract.gc_state`."""

from __future__ import annotations

from collections.abc import Sequence

from .analysis import Token
from .lexicon import Hit

_NONE: tuple[Hit, ...] = ()
_UNSURE_REACH = 5  # "not sure if GC is on or off": the doubt covers the clause it opens (three words, plus two)
_NEGATION_REACH = 2  # "not on", "not turned on": a negation one or two words before the on/off word
_NEVER_REACH = 4  # "I never turned it off", "je l'ai jamais désactivé": "never" governs its whole short clause


def distance(a: Hit, b: Hit) -> int:
    """Tokens between two hits, plus one (0 when they overlap)."""
    if a.end <= b.start:
        return b.start - a.end + 1
    if b.end <= a.start:
        return a.start - b.end + 1
    return 0


# Korean endings of "whether" (`켜져있는지`): the doubt that follows (`모르겠어요`) is about the switch.
_KOREAN_WHETHER = ("는지", "은지", "인지", "는지는", "은지는", "인지는", "는지도", "인지도")


def unsure(spans: dict[str, list[Hit]], gcs: list[Hit], tokens: list[Token]) -> bool:
    """A doubt about the switch: an unsure word near a GC mention with no on/off word between them ("not sure if
    GC is on", not "GC já ligado, não sei mais o que fazer"), or, in Korean, after an on/off word in the
    "whether" form (`켜져있는지 꺼져있는지는 모르겠어요`)."""
    switches = [h for c in ("on", "off") for h in spans.get(c, _NONE)]
    for u in spans.get("unsure", _NONE):
        for g in gcs:
            lo, hi = (u.end, g.start) if u.end <= g.start else (g.end, u.start)
            if distance(u, g) <= _UNSURE_REACH and not any(lo <= w.start < hi for w in switches):
                return True
        if tokens[u.start].hangul and any(
            0 < u.start - w.end + 1 <= _UNSURE_REACH and _whether(w, tokens) for w in switches
        ):
            return True
    return False


def _whether(word: Hit, tokens: list[Token]) -> bool:
    after = tokens[word.end].text if word.end < len(tokens) and tokens[word.end].hangul else ""
    return tokens[word.end - 1].text.endswith(_KOREAN_WHETHER) or after.endswith(_KOREAN_WHETHER)


def negated(word: Hit, negations: Sequence[Hit], nevers: Sequence[Hit], tokens: list[Token]) -> bool:
    """A negation one or two words before the on/off word (right after it in Korean: `켜지 않았다`), or a "never"
    in its clause."""
    return any(
        0 < word.start - n.end + 1 <= _NEGATION_REACH or (n.start == word.end and tokens[n.start].hangul)
        for n in negations
    ) or any(_never(n, word, tokens) for n in nevers)


def short_word(word: Hit, tokens: list[Token]) -> bool:
    """A one-word on/off word of up to four letters ("on", "with", "sin", "mit"): often a preposition."""
    return word.end - word.start == 1 and len(tokens[word.start].text) <= 4 and not tokens[word.start].hangul


def _never(never: Hit, word: Hit, tokens: list[Token]) -> bool:
    """"Never" before the on/off word in its short clause ("I never turned it off", "nunca lo desactivé",
    `한번도 끈 적 없어요`), or, in Korean, right after it (`끈 적이 없어요`)."""
    if tokens[never.start].hangul and never.start == word.end:
        return True
    return 0 < word.start - never.end + 1 <= _NEVER_REACH
