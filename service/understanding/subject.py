"""Whose symptom a sentence tells (engine layer): the guide's slowness and weak results are a training's, so a
slowness or a bad result told of something else (a generation, another program, another domain's model) is no
symptom of the guide, even in a text that names a training elsewhere.

Each rule (`intents.yaml` `sentences.subjects`, `content.sentence_models.Subject`) names the concepts that tell the
symptom (`told`), those that make the training its subject (the run, the LoRA being trained, its samples, a trainer)
and those of another subject. A hit of `told` is judged in its sentence: by the subject named nearest to it
(`nearest`: "I trained it with ai-toolkit, but in ComfyUI the generation is slow" is the generation's), else by any
training subject the sentence names. A sentence that names no subject follows what the text's other sentences tell
the symptom of, else the training's when the text names one (`whole_text`: the text is judged as a whole). Hits judged
another thing's are read as the rule's `becomes` concept (`told_elsewhere`) before the concepts are implied, and
`intents.yaml` `outside` takes a text whose only symptom is told of something else out of the domain.
"""

from __future__ import annotations

from ..content.sentence_models import Subject
from .lexicon import Hit
from .sentences import Reading


def of_the_training(rules: tuple[Subject, ...], reading: Reading, hits: list[Hit]) -> list[Hit]:
    """The hits without the symptom words a rule judges told of another subject than the training: each is read as
    the rule's `becomes` concept, if it names one (a slowness told of a generation is that, not nothing)."""
    dropped: dict[Hit, str | None] = {}
    concepts = {h.concept for h in hits}
    for rule in rules:
        if concepts.isdisjoint(rule.other):
            continue  # no other subject named: every hit stays the training's
        training, other = frozenset(rule.training), frozenset(rule.other)
        # a subject's word inside a longer phrase of what is told is that phrase's ("it looks like the base model" tells
        # a LoRA that does nothing, not a bad result of the base model)
        phrases = [(h.start, h.end) for h in hits if h.concept in rule.told and h.end - h.start > 1]
        subjects = [s for s in _subjects([h for h in hits if h.concept in training or h.concept in other])
                    if not any(a <= s.start and s.end <= b and b - a > s.end - s.start for a, b in phrases)]
        if not any(h.concept in other for h in subjects):
            continue
        if rule.whole_text:
            if not any(h.concept in training for h in subjects):
                dropped.update((h, rule.becomes) for h in hits if h.concept in rule.told)
            continue
        judged: dict[Hit, bool] = {}  # told hit -> the training's (True) or another thing's (False)
        unnamed = []
        for hit in hits:
            if hit.concept not in rule.told:
                continue
            k = reading.sentence_of(hit.start)
            named = [s for s in subjects if reading.sentence_of(s.start) == k and s != hit]
            if not named:
                unnamed.append(hit)
            elif rule.nearest:
                judged[hit] = _nearest(hit, named, training)
            else:
                judged[hit] = any(s.concept in training for s in named)
        # A sentence that names no subject tells of what the text's other sentences tell it of ("the same workflow
        # has become five times slower" before "run speed slower"), else of the training when the text names one.
        verdicts = set(judged.values())
        default = True in verdicts or (not verdicts and any(h.concept in training for h in subjects))
        dropped.update((h, rule.becomes) for h, mine in judged.items() if not mine)
        if not default:
            dropped.update((h, rule.becomes) for h in unnamed)
    if not dropped:
        return hits
    out = []
    for h in hits:
        if h not in dropped:
            out.append(h)
        elif (becomes := dropped[h]) is not None:
            out.append(Hit(becomes, h.start, h.end))
    return out


def _nearest(hit: Hit, named: list[Hit], training: frozenset[str]) -> bool:
    """Whether the subject named nearest to a hit is the training's: subjects side by side are one phrase, the
    training's when one of them is ("generating baseline samples" is the previews' generation)."""
    near = min(_distance(hit, s) for s in named)
    group = [s for s in named if _distance(hit, s) == near]
    for s in sorted(named, key=lambda s: _distance(hit, s)):
        if any(_distance(s, g) == 0 for g in group) and s not in group:
            group.append(s)
    return any(s.concept in training for s in group)


def _subjects(hits: list[Hit]) -> list[Hit]:
    """The subject hits not inside a longer one ("with my lora" is a LoRA in use, not the LoRA being trained)."""
    return [h for h in hits
            if not any(o.start <= h.start and h.end <= o.end and o.end - o.start > h.end - h.start for o in hits)]


def _distance(a: Hit, b: Hit) -> int:
    """Words between two hits (0 when they touch or overlap)."""
    return max(0, b.start - a.end, a.start - b.end)
