"""The quiet lines of a post (engine layer): the lines that tell no event — an environment line listing the machine,
a template's routine lines, an update that only says the problem goes on — and whose words are therefore no subject of
the post: a memory size in the machine's list is no host-RAM failure, the form's "training" no training problem.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from .lexicon import Hit
from .sentences import Reading


def machine_lines(events: Iterable[str], reading: Reading, hits: list[Hit]) -> frozenset[int]:
    """The sentences that are environment lines ("RTX 3090 24GB, 64GB RAM, Windows 11", "RAM: 32GB";
    `wrapped.spec_line`) telling no event: they list the machine."""
    return _eventless(events, reading, hits, [k for k, s in enumerate(reading.sentences) if s.spec])


def machine_specs(specs: Iterable[str], machine: frozenset[int], reading: Reading, hits: list[Hit]) -> list[Hit]:
    """The hits without those of `specs` (`sentences.specs`: the RAM's size, the memory's name) in the `machine` lines
    (`machine_lines`): "64GB RAM" in a list of the machine is no host-RAM failure beside "it crashes at step 2"."""
    return without(specs, machine, reading, hits)


def quiet_routine(events: Iterable[str], reading: Reading, hits: list[Hit]) -> frozenset[int]:
    """The sentences of a template's routine lines (`Sentence.routine`: its reproduction steps, its environment) that
    tell no event: "1. Start the job with my config", "- Job: Flux LoRA, batch 1"; "2. OOM at step 3" tells one."""
    return _eventless(events, reading, hits, [k for k, s in enumerate(reading.sentences) if s.routine])


def template_routine(routine: Iterable[str], quiet: frozenset[int], reading: Reading, hits: list[Hit]) -> list[Hit]:
    """The hits without those of `routine` (`sentences.routine`: the training, the trainer, its config) in the `quiet`
    routine lines (`quiet_routine`): "1. Start the job with my config" and "- Trainer: ai-toolkit" are the form's, so
    a question on billing or a LoRA that does nothing in ComfyUI above them is not the training's. A phrase may run
    into the line from the one before ("... aborting training" + "Start the job" is no "training start"): a hit that
    ends in it is its."""
    return without(routine, quiet, reading, hits, ending=True)


def quiet_updates(events: Iterable[str], reading: Reading, hits: list[Hit]) -> frozenset[int]:
    """The update lines (`Sentence.update`) that tell no event and ask nothing: "EDIT: still happens", "Edit: tried
    again, same thing" say the post's problem goes on, no new subject ("EDIT: now it OOMs at step 3" tells one)."""
    marked = [k for k, s in enumerate(reading.sentences) if s.update and not s.question]
    return _eventless(events, reading, hits, marked)


def _eventless(events: Iterable[str], reading: Reading, hits: list[Hit], marked: list[int]) -> frozenset[int]:
    """The `marked` sentences in which no hit of `events` is told."""
    if not marked:
        return frozenset()
    told = frozenset(events)
    eventful = {reading.sentence_of(h.start) for h in hits if h.concept in told}
    return frozenset(k for k in marked if k not in eventful)


def without(concepts: Iterable[str], where: Collection[int], reading: Reading, hits: list[Hit],
             ending: bool = False) -> list[Hit]:
    """The hits without those of `concepts` that start in a sentence of `where` (or, `ending`, end in one)."""
    only = frozenset(concepts)
    if not only or not where:
        return hits
    return [h for h in hits if h.concept not in only or (reading.sentence_of(h.start) not in where
                                                         and not (ending and reading.sentence_of(h.end - 1) in where))]


def routine_only(quiet: frozenset[int], reading: Reading, hits: list[Hit]) -> frozenset[str]:
    """The concepts named only in the `quiet` routine lines ("batch 1" in the environment section): the form's
    details, which do not bring a text into the guide's domain ("the video quality on my Zoom calls is bad")."""
    if not quiet:
        return frozenset()
    inside = {h.concept for h in hits if reading.sentence_of(h.start) in quiet}
    return frozenset(inside - {h.concept for h in hits if reading.sentence_of(h.start) not in quiet})


def updates(updated: Iterable[str], reading: Reading, hits: list[Hit]) -> list[Hit]:
    """The hits without those of an update line's opener ("EDIT:", Korean `수정:`) and those of `updated`
    (`sentences.updated`) in it: "EDIT: still happens" tells that the post's problem goes on, not a failure despite a
    setting ("GC on, OOM while sampling. EDIT: still happens" is no OOM that persists with GC)."""
    sentences = reading.sentences
    if not any(s.update for s in sentences):
        return hits
    only = frozenset(updated)
    out = []
    for h in hits:
        s = sentences[reading.sentence_of(h.start)]
        opener = s.clauses[0] if s.clauses else s.start
        if not s.update or (h.end > opener and h.concept not in only):  # "Update: solved" is a phrase of its own
            out.append(h)
    return out
