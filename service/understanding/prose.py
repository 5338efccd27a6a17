"""Reading the raw text before analysis (engine layer): the user's own lines around a pasted log, a progress
counter quoted in their words, a pasted config fragment's model arch.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .chat import unchatted
from .log_bars import BAR_COUNT
from .logs import LogReading, looks_like_log
from .pasted import setting_line
from .stated_sizes import BUCKET_SIZES
from .wrapped import NO_WRAPPING, Wrapping, spec_line, unwrap

MAX_PROSE_LINES = 8
MAX_OWN_LINES = 64  # the user's lines looked at past the first ones, for a question
# Lines of a pasted log (progress bars, tracebacks, figures): `logs.read_log` reads them, the matcher
# reads the user's own words around them. Plain words are looked up with `in` (a regex alternation that does
# not start with one literal is tried at every position of a long line); the regex sees only the others.
_LOG_WORDS = ("%|", "traceback", 'file "', "error", "exception", "torch.", "cuda")
# Else the shape of a log line, each pattern tried only when the line holds its literal (as `logs` does): two
# bars (a table or progress bar), a stack frame ("  at ..."), a size unit (`gb`, `mib`), a line starting with
# `#` or `[`, a time, a line number. A pattern starting with a letter class is skipped to quickly by `re`.
_LOG_SHAPES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("|", re.compile(r"\|.*\|")),
    ("at ", re.compile(r"^\s+at ")),
    ("b", re.compile(r"[gmk](?<!\w[gmk])i?b\b")),
    ("#", re.compile(r"^\s*#")),
    ("[", re.compile(r"^\s*\[")),
    (":", re.compile(r"\d\d:\d\d")),
    ("line ", re.compile(r"\bline \d")),
)


class Parts(NamedTuple):
    """A text split for analysis."""

    prose: str  # the user's own words (the whole text when it holds no log)
    lead: str | None  # the first line of a text holding a log (its language is the user's)
    log_like: bool  # the text holds a log


def split_text(text: str, log: LogReading, wrapping: Wrapping = NO_WRAPPING) -> Parts:
    """The user's words of a text, without what wraps them (`wrapped.unwrap`: a template's headings, quoted
    replies, fences); a pasted log is mostly English whatever the user speaks, so its language is taken from the
    user's first own line."""
    text = unheeded(unwrap(unchatted(text), wrapping, _is_log_line))
    pasted = looks_like_log(text)
    if pasted and "%|" in text:
        # Finished progress bars alone ("Loading checkpoint shards: 100%|####| 3/3 [00:02<00:00]") are the run's
        # residue, no pasted log: the user's lines are all theirs (the log reading still reads the bars).
        bare = "\n".join(line for line in text.split("\n") if not _finished_bar(line))
        if bare.strip() and not looks_like_log(bare):
            return Parts(bare, None, bool(log.signals))
    if not (pasted or log.signals):
        return Parts(text, None, False)
    # A failure named in the user's words ("- got CUDA out of memory at step 2" in a bulleted post) pastes no log: every
    # line is theirs, in their language.
    return Parts(prose_of(text, wrapping), lead_of(text, wrapping), True) if pasted else Parts(text, None, True)


# A warning a library prints at start-up (`WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions`, `FutureWarning:
# ... is deprecated`, `UserWarning:`), and the indented lines under it: it tells nothing of the failure.
_WARNING = re.compile(r"^\W{0,3}(?:[A-Za-z]*Warning\b|WARNING\b)")


# PyTorch's advice under its out-of-memory message ("If reserved but unallocated memory is large try setting
# PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation. See documentation for Memory Management
# (url)", the older "If reserved memory is >> allocated memory try setting max_split_size_mb ..."): the library's
# words, never the user's, even where the message is a post's first line or quoted in a sentence (its "avoid", "but"
# and "Memory Management" would tell an avoidance, a contrast and an inference program's log).
# (Without the spaces before it, which `_unadvised` takes too: a pattern that starts with `\s*` is tried at every
# position of the text, ~20 us on a pasted traceback; one that starts with a literal is skipped to it.)
_ADVICE = re.compile(
    r"If reserved (?:but unallocated )?memory is[^\n]{0,200}?fragmentation\.?"
    r"(?:\s*See documentation for Memory Management\s*(?:\([^)\n]{0,200}\))?)?"
)


# A link's address ("https://github.com/kohya-ss/musubi-tuner/blob/main/docs/framepack.md"): no words of the user's
# (its "blob" is no blob in an image); a Markdown link keeps its text ("[LoRA](https://...)").
_ADDRESS = re.compile(r"\b(?:https?|ftp)://[^\s)\]>\"'`]+")
_SCHEMES = (5, 4, 3)  # how far before its `://` an address starts: `https`, `http`, `ftp`


def unheeded(text: str) -> str:
    r"""The text without the warnings a library prints (`_WARNING`), so a post is no pasted log for an xformers
    warning under it, without PyTorch's advice under its out-of-memory message (`_ADVICE`), and without the
    addresses of its links (`_ADDRESS`).

    >>> unheeded("I followed https://github.com/x/y/blob/main/docs/a.md and the lora is fried")
    'I followed  and the lora is fried'

    >>> unheeded("OOM at step 2\nFutureWarning: `torch.cuda.amp` is deprecated.\n  warnings.warn(\nthanks")
    'OOM at step 2\nthanks'
    >>> unheeded("CUDA out of memory. If reserved but unallocated memory is large try setting X to avoid "
    ...          "fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs)\nhelp")
    'CUDA out of memory.\nhelp'
    """
    if "://" in text:
        text = _unaddressed(text)
    if "reserved" in text and "fragmentation" in text:
        text = _unadvised(text)
    if "arning" not in text and "ARNING" not in text:
        return text
    out: list[str] = []
    warned = False
    for line in text.split("\n"):
        if _WARNING.match(line) is not None:
            warned = True
        elif not (warned and line[:1] in (" ", "\t")):
            warned = False
            out.append(line)
    return "\n".join(out)


def _unaddressed(text: str) -> str:
    """`_ADDRESS.sub("", text)`, the pattern tried only where an address can start: 3 to 5 characters before each
    `://` (tried at every position of a long log, `\\b` first, it cost ~25 us on a pasted traceback).

    >>> _unaddressed("see https://a.b/c and ftp://d, not x://y or https:// alone")
    'see  and  not x://y or https:// alone'
    """
    out: list[str] = []
    last, at = 0, text.find("://")
    while at >= 0:
        m = next((m for back in _SCHEMES if at - back >= last
                  for m in (_ADDRESS.match(text, at - back),) if m is not None), None)
        if m is None:
            at = text.find("://", at + 1)
            continue
        out.append(text[last:m.start()])
        last = m.end()
        at = text.find("://", last)
    return "".join(out) + text[last:] if out else text


def _unadvised(text: str) -> str:
    """`re.sub(r"\\s*" + _ADVICE.pattern, "", text)`: each piece of advice and the spaces before it (not those before
    the end of the one removed before it).

    >>> _unadvised("CUDA out of memory.  If reserved memory is >> allocated memory try setting max_split_size_mb to "
    ...            "avoid fragmentation.\\nhelp")
    'CUDA out of memory.\\nhelp'
    """
    out: list[str] = []
    last = 0
    for m in _ADVICE.finditer(text):
        start = m.start()
        while start > last and text[start - 1].isspace():
            start -= 1
        out.append(text[last:start])
        last = m.end()
    return "".join(out) + text[last:] if out else text


def lead_of(text: str, wrapping: Wrapping = NO_WRAPPING) -> str:
    """The first line of a text that is the user's, past the pasted command line, config lines, progress bars, log
    lines and environment lines it may open with: those are the trainer's or the machine's (English flags, bar labels
    and errors, whatever the user speaks), not the user's first words.

    >>> lead_of('accelerate launch train.py --train_batch_size 2 --cache_latents\\nno entiendo por qué falla')
    'no entiendo por qué falla'
    >>> lead_of("I used --cache_latents and it still OOMs\\nTraceback (most recent call last):")
    'I used --cache_latents and it still OOMs'
    >>> lead_of("steps:  20%|##        | 200/1000 [02:00<14:40, 1.00s/it, avr_loss=nan]\\nle loss passe à nan")
    'le loss passe à nan'
    >>> lead_of("torch.OutOfMemoryError: CUDA out of memory.\\ntengo el GC apagado")
    'tengo el GC apagado'
    >>> lead_of('```\\n{\\n  "train_batch_size": 2\\n}\\n```\\nça plante au step 5')
    'ça plante au step 5'
    """
    lines = text.strip().split("\n")
    own = [line for line in lines[:MAX_PROSE_LINES] if _worded(line) and not setting_line(line) and not _bar_line(line)]
    # The first line that reads as the user's own words (an environment line, "RTX 3090 24GB, 64GB RAM", is none: it
    # is no sentence of the user's language), else the first one that is no setting nor bar.
    words = (line for line in own if _LOG_START.match(line.lower()) is None and not spec_line(line, wrapping))
    return next(words, own[0] if own else lines[0])


def _worded(line: str) -> bool:
    """A line holding a word: not a blank line, a fence or a bracket of a pasted config (```, `{`, `},`)."""
    return any(c.isalpha() for c in line)


# How a log's own line starts (indented, as a traceback's code lines are; a traceback, an exception, a log level, a
# timestamp, a container's `name  | ` prefix);
# a line that only names an error ("I get this error:", "crash no passo 4 (CUDA out of memory)") is the user's.
_LOG_START = re.compile(
    r"[ \t]{2,}\S|\W{0,3}(?:traceback\b|file \"|torch\.|[a-z_][\w.]{0,80}(?:error|exception):"
    r"|(?:info|warning|error|debug)\b|\d{4}-\d\d-\d\d|\d\d:\d\d:\d\d|[\w-]{1,40}\s+\|\s)"
)


def _asks(line: str) -> bool:
    """A line that asks (a question mark, also the full-width one)."""
    return "?" in line or "\uff1f" in line


_TRAINING_BAR = ("steps:", "step:", "loss", "lr:", "lr=")  # a training bar's description or postfix


def _finished_bar(line: str) -> bool:
    """A progress bar's line that reached its total, not the training's ("Loading checkpoint shards: 100%|####| 3/3
    [00:02<00:00]"; "steps: 100%|####| 1100/1100 [05:10<00:00, loss=0.152]" is the run's own end).

    >>> _finished_bar("Loading checkpoint shards: 100%|####| 3/3 [00:02<00:00]"), _finished_bar("steps: 2%|| 2/100")
    (True, False)
    >>> _finished_bar("steps: 100%|####| 1100/1100 [05:10<00:00,  3.54it/s, loss=0.152]")
    False
    """
    m = BAR_COUNT.search(line) if "%|" in line else None
    if m is None or m.group(1) != m.group(2):
        return False
    low = line.lower()
    return not any(word in low for word in _TRAINING_BAR)


def _bar_line(line: str) -> bool:
    """A progress bar's line (`steps:  12%|##  | 120/1000 [...]`): the trainer's, never the user's words."""
    return "%|" in line




def counter_step(text: str, counter: re.Pattern[str]) -> int | None:
    r"""The step of the first progress counter in the text (a total of 100 or more; not a pair of bucket sizes).
    `counter` is `Matcher.counter` (`profiles.counter_pattern`: "at 2 of 3000", "1/2000", "2 sur 3000").

    >>> c = re.compile(r"(\d{1,7})\s*(?:/|\bof\b)\s*(\d{3,7})")
    >>> counter_step("it crashes at 2 of 3000", c), counter_step("buckets 512/768", c), counter_step("batch 4", c)
    (2, None, None)
    """
    for m in counter.finditer(text):
        step, total = int(m.group(1)), int(m.group(2))
        if total >= 100 and step <= total and not (step in BUCKET_SIZES and total in BUCKET_SIZES):
            return step
    return None


# A config fragment pasted in the text: `arch: "wan22_14b"`, or the older `is_flux: true`.
_ARCH = re.compile(r"^[ \t]*arch[ \t]*:[ \t]*[\"']?([A-Za-z0-9_.:-]{1,60})[\"']?[ \t]*$", re.MULTILINE)
_IS_FLUX = re.compile(r"^[ \t]*is_flux[ \t]*:[ \t]*true[ \t]*$", re.MULTILINE | re.IGNORECASE)


def pasted_arch(text: str) -> str | None:
    """The model arch a pasted config fragment names, if any.

    >>> pasted_arch('model:\\n  arch: "wan22_14b"\\ntrain:'), pasted_arch("model:\\n  is_flux: true")
    ('wan22_14b', 'flux')
    >>> pasted_arch("flux") is None
    True
    """
    if "arch" in text:
        m = _ARCH.search(text)
        if m is not None:
            return m.group(1)
    if "is_flux" in text and _IS_FLUX.search(text):
        return "flux"
    return None


def prose_of(text: str, wrapping: Wrapping = NO_WRAPPING) -> str:
    r"""The user's own lines of a text that holds a log (the first line always counts, unless it is a progress bar and
    the user wrote other lines: "steps: 20%|...| avr_loss=nan" above "my samples are black" tells no speed; the line
    under an environment line counts as a first line: "RTX 4090 24GB, 32GB RAM" above "CUDA OOM at step 2").

    >>> prose_of("it fails\nStarting job\nUsing TF32 for faster training\nLoading VAE\nany idea?")
    'it fails\nany idea?'
    """
    lines = text.strip().splitlines()
    # Under environment lines, the first line past them counts as the first line does.
    first = next((i for i, line in enumerate(lines[:MAX_PROSE_LINES]) if not spec_line(line, wrapping)), 0)
    kept = lines[: first + 1]
    status = _status_lines(lines)
    own = [mine for i, line in enumerate(lines[first + 1 :], first + 1) if line.strip() and i not in status
           for mine in (_own_part(line),) if mine]
    kept += own[: MAX_PROSE_LINES - 1]
    # Past those, the questions the user asks under the log (the question of a long post is often its last line).
    kept += [line for line in own[MAX_PROSE_LINES - 1 : MAX_OWN_LINES] if _asks(line) and not setting_line(line)]
    if len(kept) > 1 and _bar_line(kept[0]):
        kept = kept[1:]
    return "\n".join(kept)


# A trainer's status line: a capitalised verb in -ing and what it does, no sentence end ("Loading VAE", "Using TF32
# for faster training on Ampere GPUs", "Starting job train.yaml"). Printed in runs, which the user's prose is not.
_STATUS = re.compile(r"^\s*[A-Z][a-z]+ing\b(?:[^\n?!]*[^\s.?!])?\s*$")
_STATUS_RUN = 3


def _status_lines(lines: list[str]) -> frozenset[int]:
    """The indexes of the lines in runs of `_STATUS_RUN` or more status lines in a row (blank lines skipped)."""
    out: set[int] = set()
    run: list[int] = []
    for i, line in enumerate([*lines, "."]):
        if not line.strip() and i < len(lines):
            continue
        if _STATUS.match(line) is not None or (run and _is_log_line(line) and line[:1].isupper()):
            run.append(i)
            continue
        if len(run) >= _STATUS_RUN:
            out.update(run)
        run = []
    return frozenset(out)


# What only a log prints inside a line: a module path, a traceback, a stack frame, an exception's name and colon, a
# bar, a size with its decimals (`256.00 MiB`), a clock time, a log level and its separator (`- INFO -`).
_LOG_INSIDE = re.compile(
    r"torch\.|traceback|file \"|[a-z_][\w.]*(?:error|exception):|%\||\d\.\d\d\s*[gmk]i?b\b|\d\d:\d\d:\d\d"
    r"|\b(?:info|warning|debug)\b\s*[-:|\]]"
)
_OWN_WORDS = 6  # the user's words before what a log prints: "GC is on and batch is 1 but I still get CUDA OOM"
_WORD = re.compile(r"[^\W\d_]{2,}")


def _own_part(line: str) -> str:
    """The user's words of a line: the whole line when it holds no log word; else, unless the line starts as a
    log line does (`_LOG_START`) or has a log line's shape (`_LOG_SHAPES` but a size: "24 GB" is the user's), the
    part before what only a log prints, when it holds at least `_OWN_WORDS` words ("GC is on and batch 1 but I still
    get CUDA out of memory at random steps", `로그 마지막은 torch.OutOfMemoryError: ...`: the user names the error
    in their sentence); else nothing (a log line)."""
    if not _is_log_line(line):
        return line
    low = line.lower()
    bar = low.find("%|")
    if bar > 0:
        said = _said_before_bar(line, bar)
        if said:
            return said
    if _LOG_START.match(low) is not None or any(
        literal in low and pattern.search(low) is not None for literal, pattern in _LOG_SHAPES if literal != "b"
    ):
        return ""  # a log's line, or its shape: a bar or table, a stack frame, `#` or `[` first, a time, a line number
    inside = _LOG_INSIDE.search(low)
    mine = line[: inside.start()] if inside else line
    mine = mine if len(_WORD.findall(mine)) >= _OWN_WORDS else ""
    if inside is None:
        return mine
    # the user's sentences after the message their line quotes ("...: CUDA out of memory. Tried to allocate 3.00 GiB.
    # alguem sabe oq pode ser?", "... is free. batch 1이고 나머진 거의 기본값이에요."): each sentence no log prints
    after = [s for s in _SENTENCE_END.split(line[inside.start():])
             if len(_WORD.findall(s)) >= _TAIL_WORDS and not _is_log_line(s)]
    return " ".join([mine, *after]).strip() if mine or after else ""


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_TAIL_WORDS = 3  # a sentence of the user's after a quoted message: "batch 1이고 나머진 거의 기본값이에요."


_BAR_WORDS = 4  # the user's words before a bar pasted in their line: "training speed is super slow:> 1%|..."
_BAR_START = re.compile(r"[\d.\s]*$")


def _said_before_bar(line: str, bar: int) -> str:
    """The user's words before a progress bar pasted in their own line ("training speed is super slow:>   1%|...|
    495/63437 [8:21:06<1053:49:57, 60.27s/it]"), at least `_BAR_WORDS` of them, or nothing: a bar's own label
    ("steps:", "Caching latents", "Generating baseline samples") is the trainer's.

    >>> _said_before_bar("training speed is super slow:>   1%|#  | 495/63437 [8:21:06<1053:49:57, 60.27s/it]", 33)
    'training speed is super slow:>'
    >>> _said_before_bar("Generating baseline samples before training:  0%|  | 0/4", 47)
    ''
    >>> _said_before_bar("steps: 3%|", 8)
    ''
    """
    head = line[:bar]
    m = _BAR_START.search(head)
    head = head[: m.start()] if m else head
    if len(_WORD.findall(head)) < _BAR_WORDS or _STATUS.match(head.rstrip(" :>-")) is not None:
        return ""
    if _LOG_START.match(head.lower()) is not None:
        return ""
    return head.strip()


def _is_log_line(line: str) -> bool:
    low = line.lower()
    for word in _LOG_WORDS:  # a loop, not any(): this runs for every line of a pasted log
        if word in low:
            return True
    return any(literal in low and pattern.search(low) is not None for literal, pattern in _LOG_SHAPES)
