"""The ids the understanding code reads or emits by name, checked against those the knowledge declares.

Renaming a concept in YAML must not silently disable the code that reads it, and a signal with no texts must
not show its raw id: `id_problems` runs at start-up (index build) and reports every mismatch as a content
problem (`id-mismatch`) with the file and path of the declaration:

- concepts: every concept the code reads (`CONCEPTS_READ`) is declared in `structure/concepts.yaml`;
- features: the features the code computes (`features.FEATURES`) are those of `structure/features.yaml`;
- signals: the signals the log reader records (`log_rules.RULES`) are those of `structure/signals.yaml`, the
  features read only those, and each language's sentence uses only data its signal always carries;
- intents: every symptom and FAQ entry is an intent target of its kind (free text can reach it).
"""

from __future__ import annotations

import re
from typing import Final

from ..content.models import Content
from ..content.problems import Problem
from .features import FEATURES, SIGNALS_READ
from .log_rules import SIGNAL_IDS, YIELDS

# Concept -> the stage that reads it by name.
CONCEPTS_READ: Final[dict[str, str]] = {
    "step": "extract: the step number",
    "batch": "extract: the batch size",
    "frames": "extract: the frame count",
    "bucket": "extract: bucket sizes",
    "largest": "extract: one bucket named (not the list)",
    "intermittent": "extract: one bucket named (not the list)",
    "time_unit": "extract: a duration is not a step",
    "gpu": "extract: a graphics card's number is not a step",
    "gc": "extract: GC on/off",
    "on": "extract: GC on/off",
    "off": "extract: GC on/off",
    "negation": "extract: GC on/off; gate: a denied sentence states no `stated_only` concept",
    "unsure": "extract: GC on/off (not sure is no state)",
    "doubt_if": "extract: GC on/off (a doubt of whether reaches the switch of its clause: no state)",
    "only_when": "extract: one bucket named (an OOM only with it: not the list)",
    "complied": "extract: a reply's yes or 'did that' takes up the switch of the quote it answers",
    "considering": "extract: GC on/off (a proposal is no state)",
    "dreaded": "extract: GC on/off (a switch feared is no state)",
    "not_this_run": "own_run: another person's run, a tutorial's or one tried next states no setting of the user's",
    "their_run": "own_run: the person a reply answers; their settings and failures are none of the user's run",
    "file_state": "extract: GC on/off told of the config file gives way to a switch the user tells after it",
    "contrast": "own_run: a contrast ('but', 'pero') ends another person's clause",
    "supposed_after": "own_run: a supposition told after its clause (`4로 하면 어떨까요`) states no setting of the run",
    "shared_setup": "own_run: another's run told as the user's copied ('same config') states the user's settings too",
    "replaced": "own_run: the name or number a change replaced ('instead of flux', 'flux 말고') is not the run's",
    "either_or": "extract: 'on or off?'",
    "training": "spoken: a sentence naming the training keeps a generation-told OOM the run's",
    "run_done": "spoken: ... unless it tells the training went well",
    "asks": "extract: an advice question governs the switch after it (no state)",
    "past": "extract: a past state gives way to one told after it",
    "now": "extract: a state told now ('now it's on')",
    "it": "extract: a switch told of 'it' in a story",
    "later": "extract: a switch told 'then', 'depois', 'luego' after a past or the file's state goes on the story",
    "avoid": "extract: a short preposition is said of GC only right next to it",
    "lasting": "extract: a lasting state ('by default', 'von Anfang an') counts no distance; asked, no state",
    "unchanged": "extract: 'without other changes' is no GC off and no 'on or off?'",
    "than": "extract: a comparison states no GC value",
    "control": "extract: the control image count",
    "counter": "extract: a counter word after a number ('세 장')",
    "position": "extract: a batch position is not a batch size",
    "after_a_while": "extract: one bucket named after steps ran fine (not the list)",
    "when": "extract: a single bucket named in a 'when' clause is not the job's one resolution",
    "never": "extract: 'never turned it off' flips the on/off word of its clause",
    "in_use": "gc_words: GC told as used or had is on, when no on/off word tells its state",
    "with": "gc_words: a preposition right before the GC mention says it is on ('avec le GC', 'mit GC')",
    "not_in_use": "gc_words: GC told as not used is off, when no on/off word tells its state",
    "again": "gc_words: a switch told again undoes the GC state told before it",
    "low_vram": "gc_words: a switch told again of another thing than GC",
    "disable_sampling": "gc_words: a switch told again of another thing than GC",
    "baseline": "gc_words: a switch told again of another thing than GC",
    "accumulation": "gc_words: a switch told again of another thing than GC",
    "captions": "gc_words: a switch told again of another thing than GC",
    "none_of": "gc_words: 'with no GC' denies the on word said of the mention",
    "still": "gc_words: a word that may stand between a negation and the GC mention it denies",
    "deliberate": "gc_words: a word that may stand between a negation and the GC mention it denies",
    "span_to": "stated_numbers: a range of steps is no step; a change takes its new value",
    "crash": "stated_numbers: the failing step is next to the failure; preview_steps: or after a count",
    "halt": "stated_numbers: the failing step is next to the failure; preview_steps: or after a count",
    "exhausted": "stated_numbers: the failing step is next to the failure; preview_steps: or after a count",
    "error_word": "stated_numbers: the failing step is next to the failure; preview_steps: or after a count",
    "memory": "stated_numbers: the failing step is the one next to the failure",
    "step_passed": "stated_numbers: a step told as passed is not the failing one",
    "output": "stated_numbers: a number beside what it counts ('now 2 images') is no new batch size",
    "lora": "stated_numbers: a number beside what it counts ('now 2 loras') is no new batch size",
    "rate": "stated_numbers: a number beside what it counts ('now 2 s/it') is no new batch size",
    "steps_count": "stated_numbers: a number beside what it counts is no new batch size",
    "gpu_memory": "stated_numbers: a number beside what it counts ('now 2 GB of VRAM') is no new batch size",
    "run_length": "stated_numbers: a count beside a length word ('3000 steps in total') is no failing step",
    "preview_steps": "preview_steps: a preview's own step count is no failing step",
    "every": "preview_steps: a cadence ('every 250 steps') is no preview step count",
    "oom": "matcher: the phase of a stated OOM; outcome: memory evidence",
    "preview": "matcher: the phase of a stated OOM",
    "phase_caching": "matcher: the phase of a stated OOM",
    "phase_loading": "matcher: the phase of a stated OOM",
    "phase_saving": "matcher: the phase of a stated OOM",
    "rank": "stated_numbers: a value set after another setting's word is that setting's, no new batch size",
    "untaught": "stated_numbers: a setting the guide does not teach, whose later value is no batch size",
}
_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")
_CODE = "id-mismatch"


def id_problems(content: Content) -> list[Problem]:
    """Every id the code and the knowledge disagree on."""
    return [*_concepts(content), *_features(content), *_signals(content), *_intents(content)]


def _concepts(content: Content) -> list[Problem]:
    return [
        Problem("structure/concepts.yaml", cid, _CODE, f"the code reads concept {cid!r} ({why}); it is not declared")
        for cid, why in CONCEPTS_READ.items()
        if cid not in content.concepts
    ]


def _features(content: Content) -> list[Problem]:
    f = "structure/features.yaml"
    return [
        *(Problem(f, name, _CODE, "the code computes this feature (features.FEATURES); it is not declared")
          for name in FEATURES if name not in content.features),
        *(Problem(f, name, _CODE, "no function computes this feature (features.FEATURES)")
          for name in content.features if name not in FEATURES),
    ]


def _signals(content: Content) -> list[Problem]:
    f = "structure/signals.yaml"
    out = [
        *(Problem(f, sid, _CODE, "the log reader records this signal (log_rules.RULES); it is not declared")
          for sid in sorted(SIGNAL_IDS) if sid not in content.signals),
        *(Problem(f, sid, _CODE, "no rule of the log reader records this signal (log_rules.RULES)")
          for sid in content.signals if sid not in SIGNAL_IDS),
        *(Problem(f, sid, _CODE, "the features read this signal (features.SIGNALS_READ); it is not declared")
          for sid in sorted(SIGNALS_READ) if sid not in content.signals),
    ]
    for lang, text in content.texts.items():
        for sid, sentence in text.signals.items():
            extra = sorted(set(_PLACEHOLDER.findall(sentence)) - YIELDS.get(sid, frozenset()))
            if extra:
                out.append(Problem(f"text/{lang}/signals.yaml", sid, _CODE,
                                   f"{{{'}, {'.join(extra)}}} is not data the signal always carries"))
    return out


def _intents(content: Content) -> list[Problem]:
    targets = content.intents.targets
    reachable = [("symptom", s.id) for s in content.symptoms] + [("faq", e.id) for e in content.faq]
    return [
        Problem("structure/intents.yaml", f"targets.{tid}", _CODE, f"the {kind} {tid!r} has no intent of its kind")
        for kind, tid in reachable
        if tid not in targets or targets[tid].kind != kind
    ]
