"""A GPU out-of-memory the log reader finds in the user's own words keeps the role of its sentence (engine layer).

The log reader (`logs.read_log`) reads the whole text, so "no CUDA out of memory error, it just hangs", "I'm afraid of
getting CUDA out of memory" or "a low VRAM mode to avoid CUDA out of memory would be great" held a GPU OOM whatever
the sentence told of it. In a text that is all the user's prose (`prose.split_text`: no line of
a pasted log) whose sentence reading took every OOM word for past, supposed, denied, avoided or asked for
(`told.told_now`, `gate.unavoided`), the log tells no OOM either; a text with a pasted log keeps it, whatever line
names the OOM, and so does an OOM message quoted with its figures ("would exceed allowed memory ... Currently
allocated: 11.10 GiB" under a KSampler error is the program's words, not a supposition).

The same holds for an OOM the prose tells of another program (`subject.of_the_training`: "now ComfyUI runs out of
VRAM when I generate with my lora", "포지에서 로라 넣고 생성하면 메모리 부족"): a pasted OOM under a line of a
generating program (`inference-run`: "Requested to load Flux", "Got an OOM, unloading all loaded models") and with
no training step is that program's too, no OOM of the run; an OOM the prose still tells of the training, a log with
a training step, or PyTorch's message alone (it may be the trainer's) keeps it.
"""

from __future__ import annotations

from dataclasses import replace

from ..content.sentence_models import SentenceRules
from .lexicon import Hit
from .log_rules import GPU_OOM
from .logs import LogReading
from .sentences import Reading

_GPU = frozenset(GPU_OOM)  # the log signals of a GPU out-of-memory
_INFERENCE = "inference-run"  # log_rules.py: a line of a program generating with the LoRA (KSampler, VAEDecode)
_ELSEWHERE = "told_elsewhere"  # intents.yaml `sentences.subjects`: what an OOM told of another program becomes
_DONE = "run_done"  # concepts.yaml: the training told gone well ("went fine", "lief problemlos", "문제없이 끝났고")
_TRAINING = "training"  # concepts.yaml: the training named ("training", "entrenamiento", "Training", "학습")


def as_told(log: LogReading, text: str, prose: str, rules: SentenceRules, reading: Reading, spotted: list[Hit],
            hits: list[Hit]) -> LogReading:
    """The log without its GPU OOM when the OOM is only the prose's (`sentences.spoken`: the concepts that name it)
    and no hit of them is told (`spotted`: the words found; `hits`: those told), nor named after a word of the present
    in its sentence (`sentences.spoken_now`)."""
    spoken, now = rules.spoken, rules.spoken_now
    if not log.gpu_oom:
        return log
    names, present = frozenset(spoken), frozenset(now)
    if not any(h.concept in names for h in spotted) or any(h.concept in names for h in hits):
        return log
    if log.step is None and any(s.id == _INFERENCE for s in log.signals) and _elsewhere(names, reading, spotted, hits):
        return _without_gpu_oom(log)  # the prose tells the OOM of another program: the pasted one is its own
    if any(h.concept in names and any(p.concept in present and p.end <= h.start and reading.sentence_of(p.start)
                                      == reading.sentence_of(h.start) for p in spotted) for h in spotted):
        return log  # told after a word of the present ("tenía miedo de que pasara y ahora peta con CUDA out of memory")
    if any(s.data for s in log.signals if s.id in _GPU):
        return log  # the message with its figures ("Tried to allocate 20.00 MiB"): the program's words, not the user's
    own = set(prose.splitlines())
    if any(line.strip() and line not in own for line in text.splitlines()):
        return log  # a log is pasted: its OOM is the run's, whatever line names it
    return _without_gpu_oom(log)


def _elsewhere(names: frozenset[str], reading: Reading, spotted: list[Hit], hits: list[Hit]) -> bool:
    """Whether an OOM word of the prose was judged told of another subject than the training (read as
    `told_elsewhere` where it was spotted) in a sentence that names no training ("my LoRA training in ComfyUI OOMs"
    is a training's, whatever program runs it; "the training went fine, but in Forge it OOMs" is not)."""
    elsewhere = {h.start for h in hits if h.concept == _ELSEWHERE}
    done = {reading.sentence_of(h.start) for h in spotted if h.concept == _DONE}  # the training told gone well
    trained = {reading.sentence_of(h.start) for h in spotted if h.concept == _TRAINING} - done
    return any(h.concept in names and h.start in elsewhere and reading.sentence_of(h.start) not in trained
               for h in spotted)


def _without_gpu_oom(log: LogReading) -> LogReading:
    return replace(log, gpu_oom=False, signals=tuple(s for s in log.signals if s.id not in _GPU),
                   phase=log.phase if log.not_gpu_oom else None)
