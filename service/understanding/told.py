"""What the sentences change (understanding layer): the hits told as the present state, near the failure they
qualify (`intents.yaml` `sentences`), from a text's reading (`sentences.read_sentences`)."""

from __future__ import annotations

from ..content.sentence_models import Courtesy
from .lexicon import Hit
from .sentence_reader import SentenceReader
from .sentences import Reading


def told_now(reader: SentenceReader, reading: Reading, hits: list[Hit]) -> list[Hit]:
    """The hits without the events told only as past, supposed or denied ("a past OOM in a post about speed",
    "I'm afraid of an OOM", "it didn't crash"): those are not the present state; nor is what a sentence of courtesy
    names (`courtesies`)."""
    hits = courtesies(reader.rules.courtesy, reading, hits)
    events = reader.rules.events
    if not events or not (reading.past or reading.reaching or reading.settled):
        return hits
    gone = reading.over(hits, events=True) | reading.reached(hits)
    # a hit inside a phrase that is gone goes with it ("worried I'll run out of memory": its "out of memory" too)
    spans = [(h.start, h.end) for h in hits if h.concept in events and h.start in gone]
    return [h for h in hits if h.concept not in events
            or not (h.start in gone or any(a <= h.start and h.end <= b for a, b in spans))]


def near_the_failure(reader: SentenceReader, reading: Reading, hits: list[Hit]) -> list[Hit]:
    """The hits without the failure's qualifiers (`sentences.qualifiers`: when, where, how often it fails) told
    far from every sentence that tells the failure (more than `sentences.near` sentences away) and outside a pasted
    config line: in "I'm new to this (...) it crashed with CUDA out of memory", being new is no first-step OOM."""
    rules = reader.rules
    if not rules.qualifiers or len(reading.sentences) < 3:
        return hits
    failing = {reading.sentence_of(h.start) for h in hits if h.concept in rules.events}
    if not failing:
        return hits
    return [h for h in hits if h.concept not in rules.qualifiers or reading.sentences[reading.of[h.start]].setting
            or any(abs(reading.sentence_of(h.start) - k) <= rules.near for k in failing)]


def courtesies(rules: tuple[Courtesy, ...], reading: Reading, hits: list[Hit]) -> list[Hit]:
    """The hits without those of the sentences of courtesy (`sentences.courtesy`): a thanks that tells no event, result
    or speed ("Hi, thank you so much for the detailed guide!", "thanks for your wonderful job") names nothing of the
    problem; a thanks beside one ("thanks in advance, my lora looks nothing like her") keeps its sentence."""
    for rule in rules:
        thanked = {reading.sentence_of(h.start) for h in hits if h.concept in rule.by}
        if not thanked:
            continue
        keeps = frozenset(rule.keeps)
        gone = thanked - {reading.sentence_of(h.start) for h in hits if h.concept in keeps}
        if gone:
            hits = [h for h in hits if reading.sentence_of(h.start) not in gone]
    return hits
