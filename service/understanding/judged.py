"""An effect denied in its clause (understanding layer): how a bad result is told without a word of blame ("lora
has no significant effect", "it doesn't seem to have any effect on the output", "no se parece en nada", "não ficou
parecido", "ça ressemble pas", "sieht nicht gut aus", "효과가 없어요").

The structure, not a list of phrases: a hit of a rule's words (`intents.yaml` `sentences.denied`: an effect, a change,
a difference; praise words were measured and left to the phrase lists) that
a negation marker of the text's language (`profile.yaml` `sentences.negation`, the markers `read_sentences` already
found) reaches in its clause is read as the rule's `becomes` concept as well; `implies` then makes it a weak result
only beside the result's subject in its sentence (the output, the LoRA, "it", an aspect trained), and
`sentences.subjects` still takes it away when it is told of another thing (a downloaded LoRA, an upscaler).
"""

from __future__ import annotations

from dataclasses import replace

from ..content.sentence_models import Denial
from .lexicon import Hit
from .sentences import Reading


def denied_effects(rules: tuple[Denial, ...], reading: Reading, hits: list[Hit],
                   negation: str = "negation") -> list[Hit]:
    """The hits, with each hit of a rule's words (`praise`: an effect, a change) a negation reaches read as the rule's
    `becomes` concept (those words and the denying ones tell nothing further: they are dropped; a rule that `replaces`
    drops only the words denied: "not a memory thing" names no memory). A negation inside
    a longer phrase of the vocabulary is read as that phrase ("don't know if the samples are good", "not bad"); the
    words of a rule's `by` concepts deny as a marker before its word does ("can't see any difference"). The praise is
    the result's when the thing named nearest to it in its clause is (`_of_the_result`). A phrase of the `negation`
    concept itself ("pas du tout", "not at all") holds its marker as a negation still."""
    if not rules:
        return hits
    phrases = [(h.start, h.end) for h in hits if h.end - h.start > 1 and h.concept != negation]
    # a praise denied in the past, or one a hypothetical reaches, is no present result ("the samples weren't good
    # before the update", "I'm afraid the results won't be good")
    hypothetical = tuple(r for r in reading.reaching if r not in reading.denials)
    unsaid = reading.over(hits)
    if hypothetical:
        unsaid |= replace(reading, reaching=hypothetical).reached(hits)
    markers = [(start, end, direction) for start, end, direction in reading.denials
               if not any(a <= start and end <= b and (a < start or b > end) for a, b in phrases)]
    added: list[Hit] = []
    helpers: set[str] = set()
    replaced: set[Hit] = set()
    for rule in rules:
        if not rule.replaces:
            helpers.update(rule.praise, rule.by)
        praise, by = frozenset(rule.praise), frozenset(rule.by)
        negations = markers + [(h.start, h.end, 1) for h in hits if h.concept in by]
        if not negations:
            continue
        owners = [h for h in hits if h.concept in rule.owners]
        named = [h for h in hits if h.concept in rule.subjects]
        for h in hits:
            if h.concept in praise and h.start not in unsaid and any(_reaches(reading, n, h, rule) for n in negations) \
                    and _of_the_result(reading, h, named, owners, bool(rule.subjects)):
                added.append(Hit(rule.becomes, h.start, h.end))
                if rule.replaces:
                    replaced.add(h)
    return [h for h in hits if h.concept not in helpers and h not in replaced] + added


def _of_the_result(reading: Reading, hit: Hit, named: list[Hit], owners: list[Hit], needed: bool) -> bool:
    """Whether a praise is said of the result: the thing named nearest to it in its clause is one of the result's
    subjects, not an owner ("the samples are not good", but "my GPU isn't good enough for a lora"; a praise word right
    before an owner is always that thing's: "I don't have a good GPU"). With no subjects to name (`needed` false),
    any praise no owner takes."""
    if any(o.start == hit.end for o in owners):
        return False
    def near(h: Hit) -> int | None:
        if not _same_clause(reading, min(hit.start, h.start), max(hit.end, h.end) - 1):
            return None
        return max(0, h.start - hit.end, hit.start - h.end)
    subject = min((d for d in map(near, named) if d is not None), default=None)
    owner = min((d for d in map(near, owners) if d is not None), default=None)
    if subject is None:
        return not needed and owner is None
    return owner is None or subject <= owner


def _reaches(reading: Reading, negation: tuple[int, int, int], hit: Hit, rule: Denial) -> bool:
    """Whether a negation marker reaches a hit in its clause: `reach` words forward from a marker before its word,
    `back` words back from a marker after it (and from a marker that reaches back, `없어요`, `reach` words)."""
    start, end, direction = negation
    if direction > 0 and hit.start >= end:
        far = hit.start - end < rule.reach
    elif hit.end <= start:
        far = start - hit.end < (rule.reach if direction < 0 else rule.back)
    else:
        return False
    return far and _same_clause(reading, min(start, hit.start), max(end, hit.end) - 1)


def _same_clause(reading: Reading, first: int, last: int) -> bool:
    """Whether tokens `first` .. `last` are in one clause of one sentence."""
    k = reading.sentence_of(first)
    if reading.sentence_of(last) != k:
        return False
    return not any(first < c <= last for c in reading.sentences[k].clauses)
