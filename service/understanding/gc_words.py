"""What the words around a GC mention say of its state (engine layer): a doubt about the switch, a negation or a
"never" that flips an on/off word, a short word that is often a preposition; GC told as used or had when no on/off
word is said of it (`in_use`), a switch told again after an earlier one (`switched_back`). Used by
`extract.gc_state`."""

from __future__ import annotations

import re
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
    "whether" form (`켜져있는지 꺼져있는지는 모르겠어요`); a doubt of whether before the mention, whatever
    switch its clause tells (`doubt_if`: "não sei se tá ligado o GC", "not sure if GC is on"), or a Korean hedge
    after the switch said of it (`GC 켜져 있는 것 같은데`)."""
    switches = [h for c in ("on", "off") for h in spans.get(c, _NONE)]
    if any(_doubts(d, gcs, switches, tokens) for d in spans.get("doubt_if", _NONE)):
        return True
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


def _doubts(doubt: Hit, gcs: list[Hit], switches: list[Hit], tokens: list[Token]) -> bool:
    """A doubt of whether reaches the mention after it, whatever switch its clause tells ("não sei se tá ligado o
    GC"); a Korean hedge, the switch said of a mention right before it (`GC 켜져 있는 것 같은데`)."""
    if not tokens[doubt.start].hangul:
        return any(0 <= g.start - doubt.end <= _UNSURE_REACH for g in gcs)
    return any(0 <= doubt.start - w.end <= 2 and any(0 <= w.start - g.end <= 2 for g in gcs) for w in switches)


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


_ACROSS = 3  # "I don't have GC on", "no tengo el GC activado", "não tô com o GC ligado": words between the negation
# and the mention its on/off word follows
# What may stand between the negation and the mention: a verb of having or using, "already", "still" ("I don't have
# GC on", "não tô com o GC ligado"); anything else the text names ("it doesn't OOM with GC on", "never at the same
# step. GC is on") is what the negation denies.
_SHORT = 4  # an article or a particle ("el", "le", "o", "the", "have"): may stand between the negation and the mention
_BETWEEN = frozenset({"in_use", "not_in_use", "with", "now", "still", "it", "deliberate"})


def denied_across(word: Hit, gcs: list[Hit], spans: dict[str, list[Hit]], tokens: list[Token]) -> bool:
    """A negation that denies the GC mention an on/off word is said of: before the mention the word follows ("I
    don't have GC on", "no tengo el GC activado", "não tô com o GC ligado", "j'ai pas le GC activé"), or between a
    preposition and the mention ("with no GC"); not across another thing named (`_BETWEEN`)."""
    if tokens[word.start].hangul:
        return False  # Korean puts the negation right before the verb (`GC 안 켰어요`): `negated`
    gaps = [range(n.end, g.start) for n in (*spans.get("negation", _NONE), *spans.get("none_of", _NONE))  # "no GC"
            for g in gcs if n.end <= g.start <= n.end + _ACROSS
            and (0 <= word.start - g.end <= 1 or (word.end <= n.start and n.start - word.end <= 1))]
    if not gaps:
        return False
    at = {i for gap in gaps for i in gap}
    named = {i for c, hs in spans.items() if c not in _BETWEEN for h in hs for i in range(h.start, h.end) if i in at}
    allowed = {i for c in _BETWEEN for h in spans.get(c, _NONE) for i in range(h.start, h.end) if i in at}
    # a longer word of no allowed kind is something else the negation denies ("no está resuelto, tengo el GC ..."),
    # unless it names the change itself ("not turning GC off again": the switch is what is denied)
    named |= {i for i in at if i not in allowed and len(tokens[i].text) > _SHORT and not names_a_change(tokens[i].text)}
    return any(named.isdisjoint(gap) for gap in gaps)


def short_word(word: Hit, tokens: list[Token]) -> bool:
    """A one-word on/off word of up to four letters ("on", "with", "sin", "mit"): often a preposition."""
    return word.end - word.start == 1 and len(tokens[word.start].text) <= 4 and not tokens[word.start].hangul


def _never(never: Hit, word: Hit, tokens: list[Token]) -> bool:
    """"Never" before the on/off word in its short clause ("I never turned it off", "nunca lo desactivé",
    `한번도 끈 적 없어요`), or, in Korean, right after it (`끈 적이 없어요`)."""
    if tokens[never.start].hangul and never.start == word.end:
        return True
    if tokens[never.start].text.startswith(_KOREAN_NEVER_AFTER):
        return False  # `터진 적이 없어요. GC 켜져 있고`: said of the verb before it, never of one after it
    return 0 < word.start - never.end + 1 <= _NEVER_REACH


# The Korean "never" that follows its verb (`끈 적 없어요`, `터진 적이 없어요`), unlike `한번도` before it.
_KOREAN_NEVER_AFTER = ("적",)


# Verb forms that name a change rather than a state, per language (grammar as code; the verbs themselves are
# the vocabulary's): a gerund, an infinitive (`desactivar`, `désactiver`, `ausschalten`, not `ausgeschaltet`
# or `angelassen`), a Korean nominal, conditional, purpose or reported-command ending (`켜기`, `끄면`, `끄려고`,
# `꺼야`, `꺼보라던데`).
_CHANGE_LATIN = re.compile(r"^[a-z]{3,}(?:ing|ar|er|ir|re|ando|endo|iendo|indo|ant|arlo|arla|erlo|irlo)$")
_CHANGE_GERMAN = re.compile(r"^(?!.{2,}ge)[a-z]{3,}(?<!iert)(?<!et)en$")
_CHANGE_KOREAN = ("기", "면", "려고", "려면", "야", "라던데", "라고", "라는", "래서")  # ... or told to (`꺼보라던데`)


def names_a_change(word: str) -> bool:
    """True for a form of a switching verb that names the change itself, not the state it leaves.

    >>> [names_a_change(w) for w in ("enabling", "desactivar", "ausschalten", "끄면", "disabled", "ausgeschaltet")]
    [True, True, True, True, False, False]
    """
    if word[:1] >= "\uac00":
        return word.endswith(_CHANGE_KOREAN)
    return bool(_CHANGE_LATIN.match(word) or _CHANGE_GERMAN.match(word))


_USE_REACH = 2  # "I'm using GC", "uso el GC", `GC를 쓰고`: the verb and its object, an article or "already" between
_USE_GOVERNED = 4  # "I want to keep using GC": a proposal or an advice question a few words before the use word


def in_use(spans: dict[str, list[Hit]], gcs: list[Hit], tokens: list[Token], asked: frozenset[int]) -> bool | None:
    """GC told as used or had, when no on/off word tells its state: "I'm already using GC", "tengo el GC",
    "j'ai le GC", "ich nutze GC", `GC 쓰는데도` say it is on, and so does a preposition right before the mention
    ("avec le GC", "mit GC", "trotz GC", "mesmo com o GC"; never one after it: "le GC fait quoi avec la mémoire";
    `_after_ok`). Denied, off: "I'm not using GC", "no uso el GC", "je n'utilise pas le GC", "ich nutze kein GC",
    `GC 안 쓰고`. The use words are told forms (a subject and its verb: "I use", "uso", `쓰고`); one named as a
    change (`쓰면`), governed by a proposal or an advice question ("thinking about using GC", `쓰고 싶어요`), or
    next to a mention an on/off word is said of ("avec le GC désactivé ?", asked about) states nothing, nor, in
    Korean, where the subject is left out, one in a question (`GC 쓰는 게 좋나요?`) unless "already" goes with it
    (`GC 이미 쓰는데 왜 터지죠?`)."""
    negations = spans.get("negation", _NONE)
    nevers = spans.get("never", _NONE)
    governors = [h for c in ("considering", "asks") for h in spans.get(c, _NONE)]
    nows = spans.get("now", _NONE)
    switched = [h for c in ("on", "off") for h in spans.get(c, _NONE)
                if not any(h.start <= g.start < h.end for g in gcs)]  # not a phrase holding the mention (`avec le gc`)
    kinds = {(h.start, h.end): c for c in ("with", "not_in_use", "in_use") for h in spans.get(c, _NONE)}
    for (start, end), kind in sorted(kinds.items()):
        use = Hit(kind, start, end)
        near = [g for g in gcs
                if 0 < distance(use, g) <= _USE_REACH and (end <= g.start or _after_ok(use, kind, tokens))]
        if not near or _named_as_a_change(use, tokens, asked):
            continue
        if any(distance(w, g) <= 1 for w in switched for g in near):
            continue  # "avec le GC désactivé ?": the on/off word is said of the mention, even where it states nothing
        if any(_governs(h, use, tokens) for h in governors):
            continue
        if tokens[start].hangul and start in asked and not any(0 <= start - n.end <= 1 for n in nows):
            continue
        denied = kind == "not_in_use" or negated(use, negations, nevers, tokens) or any(
            min(end, g.end) <= n.start < max(start, g.start) for n in negations for g in near
        )
        return not denied
    return None


def _after_ok(use: Hit, kind: str, tokens: list[Token]) -> bool:
    """A use word may follow the mention in Korean (`GC 쓰고`) or as a phrase that puts its verb after ("GC nutze ich
    schon", "GC läuft schon"); a verb of one word after it has another object ("drop GC to use only_optimize_lora")
    and a preposition never follows its object."""
    return kind != "with" and (tokens[use.start].hangul or use.end - use.start > 1)


_GERUND = re.compile(r"^[a-z]{2,}(?:ing|ando|endo|iendo|indo)$")


def _named_as_a_change(use: Hit, tokens: list[Token], asked: frozenset[int]) -> bool:
    """A one-word use word in the infinitive or a Korean conditional (`usar`, `쓰면`); a gerund only in a question
    ("does using GC hurt?"), not told ("using gc + batch 1", "usando GC y batch 1")."""
    word = tokens[use.start].text
    if use.end - use.start > 1 or not names_a_change(word):
        return False
    return use.start in asked or _GERUND.match(word) is None


def _governs(governor: Hit, use: Hit, tokens: list[Token]) -> bool:
    """A proposal or advice word a few words before the use word, or, in Korean, right after it (`쓰고 싶어요`)."""
    if tokens[governor.start].hangul:
        return 0 <= governor.start - use.end <= 1
    return 0 <= use.start - governor.end <= _USE_GOVERNED


_BACK_REACH = 2  # "turned it back on", "lo volví a activar", "liguei de novo": the again word next to the switch
_OBJECT_REACH = 2  # "activé les previews de nouveau": another switch named this close after the on/off word
OTHER_SWITCHES = ("preview", "low_vram", "disable_sampling", "baseline", "accumulation", "captions")


def switched_back(
    spans: dict[str, list[Hit]], gcs: list[Hit], tokens: list[Token], asked: frozenset[int],
    told: list[tuple[int, bool]],
) -> bool | None:
    """A switch told again after a state of GC (`told`: the positions and states found near a GC mention): "I
    disabled GC and got an OOM, so I turned it back on", "quité el GC ... lo volví a activar", "desliguei o GC ...
    liguei de novo", "j'ai coupé le GC ... je l'ai remis", "GC ausgeschaltet ... also wieder an", `GC 껐다가 ... 다시
    켰어요`. It undoes the state told before it, so it is the state now however far it is from the mention. Not a
    switch asked about or planned ("should I turn it back on?"), denied, nor said of another thing ("turned the
    previews back on")."""
    if not told:
        return None
    agains = spans.get("again", _NONE)
    if not agains:
        return None
    others = [h for c in OTHER_SWITCHES for h in spans.get(c, _NONE)]
    governors = [h for c in ("considering", "asks") for h in spans.get(c, _NONE)]
    negations = spans.get("negation", _NONE)
    nevers = spans.get("never", _NONE)
    last: tuple[int, bool] | None = None
    for concept, state in (("off", False), ("on", True)):
        for word in spans.get(concept, _NONE):
            if word.start in asked or any(word.start <= g.start < word.end for g in gcs):
                continue
            if not any(t[0] < word.start and t[1] is not state for t in told):
                continue  # nothing before it to undo
            if not any(distance(a, word) <= _BACK_REACH for a in agains):
                continue
            if any(_object_of(o, word, agains) for o in others):
                continue
            if any(_governs(h, word, tokens) for h in governors) or negated(word, negations, nevers, tokens) or \
                    denied_across(word, gcs, spans, tokens):
                continue  # "not turning GC off again": no switch told
            if last is None or word.start > last[0]:
                last = (word.start, state)
    return None if last is None else last[1]


_STORY_REACH = 30  # "me dio OOM en el paso 2, así que ahora lo tengo activado": a story's sentence or two
_NOW_BEFORE = 3  # "now I have it on", "ahora lo tengo activado", "là je l'ai laissé à on": the "now" word this close


def story_now(
    word: Hit, gcs: list[Hit], spans: dict[str, list[Hit]], nows: Sequence[Hit], past: frozenset[int],
) -> bool:
    """An on/off word told now of a story about GC: a "now" word right before it, a past told before it, the last GC
    mention before it within a story's reach and no other switch named between them or right after it ("now I turned
    the previews off", "ahora está activado el low vram": the other switch's)."""
    if not any(0 <= word.start - n.end <= _NOW_BEFORE for n in nows) or not any(i < word.start for i in past):
        return False
    before = [g.end for g in gcs if g.end <= word.start and word.start - g.end <= _STORY_REACH]
    if not before:
        return False
    others = [h for c in OTHER_SWITCHES for h in spans.get(c, _NONE)]
    return not any(max(before) <= h.start < word.start or 0 <= h.start - word.end < _OBJECT_REACH for h in others)


def _object_of(other: Hit, word: Hit, agains: Sequence[Hit]) -> bool:
    """Another switch the on/off word is said of: before the again word that goes with it ("turned the previews
    back on", `프리뷰 다시 켰어요`, "die Previews wieder an") or just after the word ("activé les previews de
    nouveau", "liguei os previews de novo"); not the noun ending the clause before ("OOM at the first preview, so
    I turned it back on", "OOM no primeiro sample, reativei": a verb of one word takes its object after it)."""
    before = any(other.end == a.start and a.start < word.end and not _one_word(a, word) for a in agains)
    return before or 0 <= other.start - word.end < _OBJECT_REACH


def _one_word(again: Hit, word: Hit) -> bool:
    """The again word is the on/off word itself, one word (`reativei`, `remis`, "re-enabled")."""
    return again.start == word.start and again.end == word.end == word.start + 1


def skipping(a: Hit, b: Hit, skipped: frozenset[int]) -> int:
    """`distance` without the `skipped` positions between the two hits (the words of a lasting state: "GC left on by
    default", `처음부터`)."""
    d = distance(a, b)
    if d <= 1 or not skipped:
        return d
    lo, hi = _gap(a, b)
    return d - sum(1 for i in range(lo, hi) if i in skipped)


def _gap(a: Hit, b: Hit) -> tuple[int, int]:
    """Where the words between two hits start and end, in either order."""
    return (a.end, b.start) if a.end <= b.start else (b.end, a.start)


def dislocated(word: Hit, gcs: list[Hit], pronouns: Sequence[Hit], starts: frozenset[int]) -> bool:
    """A pronoun right before the on/off word and the GC mention it stands for named after it, in the same sentence:
    "lo dejé en true por defecto, el GC", "je l'ai laissé à on, le GC", "lo apagué para ir más rápido, el GC".
    A clitic opens its clause: the sentence's first or second word ("lo dejé", "je l'ai"; not "accélérer l'entraînement
    sans toucher au GC", where it is an article)."""
    return any(0 <= word.start - p.end <= 2 and _opens(p.start, starts) for p in pronouns) and any(
        word.end <= g.start and starts.isdisjoint(range(word.end, g.start + 1)) for g in gcs)


def _opens(at: int, starts: frozenset[int]) -> bool:
    """The position is a sentence's first or second word."""
    return at <= 1 or at in starts or at - 1 in starts


def across(word: Hit, gc: Hit, starts: frozenset[int]) -> bool:
    """A sentence starts between the word and the mention."""
    lo, hi = _gap(word, gc)
    return not starts.isdisjoint(range(lo, hi + 1))


def preposition_before(word: Hit, gcs: list[Hit], tokens: list[Token]) -> bool:
    """A short one-word on/off word before the GC mention ("on", "with", "con", "mit"): a preposition, said of GC
    only right before it ("with GC", "con el GC"); a verb ("décoché un truc (GC)") reaches further."""
    text = tokens[word.start].text
    return word.end - word.start == 1 and len(text) <= 4 and not tokens[word.start].hangul and all(
        word.end <= g.start for g in gcs
    )


def on_or_off_asked(spans: dict[str, list[Hit]]) -> bool:
    """An on word and an off word side by side ("on/off", "켜기 끄기"), with an "or" between them ("on or
    off", "an oder aus", "켜기 vs 끄기") or around a comparison ("GC on slower than GC off"): a question about
    the switch. ("Back on, retried without changing anything" is not one, nor is a story: "had it on, switched
    it off".)"""
    ors = {h.start for h in spans.get("either_or", _NONE) if h.end == h.start + 1}
    # A state told as past next to the new one ("tinha GC ligado, desliguei") is a story, not a question.
    pasts = {i for p in spans.get("past", _NONE) for i in range(p.start, p.end + 3)}
    # A phrase that holds the GC mention itself ("avec GC", "GC aus") states a state: no question.
    mentions = {i for g in spans.get("gc", _NONE) for i in range(g.start, g.end)}
    unchanged = {h.start for h in spans.get("unchanged", _NONE)}
    for a in spans.get("on", _NONE):
        if not mentions.isdisjoint(range(a.start, a.end)):
            continue
        for b in spans.get("off", _NONE):
            if not mentions.isdisjoint(range(b.start, b.end)) or b.start in unchanged:
                continue  # "back on, sin otros cambios": no other change, no "off"
            gap = range(min(a.end, b.end), max(a.start, b.start))
            if min(a.start, b.start) in pasts:
                continue
            if len(gap) == 0 or (len(gap) == 1 and gap[0] in ors):
                return True
            if len(gap) <= 8 and any(distance(t, a) <= 6 and distance(t, b) <= 6 for t in spans.get("than", _NONE)):
                return True  # "GC on slower than GC off", "GC 켜면 끈 것보다 느린가요": a comparison
    return False



def answered_state(spans: dict[str, list[Hit]], tokens: list[Token], asked: frozenset[int],
                   starts: frozenset[int], begin: int = 0) -> bool | None:
    """The state a reply tells of the GC its quote names, the reply naming no switch itself ("> turn on GC\\nit's been
    on from the start", "ele ta ligado desde sempre", "il est à true depuis le début", "Das ist schon die ganze Zeit
    an", `처음부터 켜져 있어요`): the first on/off word of its first sentence (from `begin` on: the answer to a question
    the reply opens by quoting), a negation flipping it; none when it is asked, or names a change ("I'll try turning
    it on")."""
    end = min(starts, default=len(tokens))
    told = [h for c in ("it", "lasting") for h in spans.get(c, _NONE)]
    # a short word ("with", "on", "an") says a state only beside a pronoun or a lasting state ("it's on", "von Anfang
    # an an"), or opening the answer to a question quoted before it ("> Is GC set to true?\nja, ist true"): "crashes
    # at step 2 with CUDA out of memory" tells none
    words = sorted((h.start, c == "on", h) for c in ("on", "off") for h in spans.get(c, _NONE) if begin <= h.start < end
                   and not (short_word(h, tokens) and not any(distance(h, t) <= _ANSWERED_REACH for t in told)
                            and not (begin and h.start - begin <= _ANSWERED_REACH)))
    if not words:
        return None
    start, state, word = words[0]
    if start in asked or names_a_change(tokens[start].text):
        return None
    return not state if negated(word, spans.get("negation", _NONE), spans.get("never", _NONE), tokens) else state


_ANSWERED_REACH = 3  # "it's been on", "il est à true depuis le début": the pronoun or the lasting words by the state
