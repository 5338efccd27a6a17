"""Reading a pasted AI Toolkit / PyTorch log: which failure, its figures, and the phase it happened in.

Pure functions, no I/O. Only the last `MAX_CHARS` characters are read. The text is normalised (ANSI colour
codes removed, `\\r` tqdm updates and Windows line endings turned into lines), then split in two:

- progress-bar lines (`...%|...|`), grouped into runs of updates of the same bar, only the last update of a run
  being parsed;
- every other line, joined and lowered once, where a few anchor words (`memory`, `error`, `loading`, ...) are
  looked up with `str.find` and only the lines holding one are matched against the detailed patterns.

Every finding becomes an ordered event; one forward pass over the events gives the phase at the failure, the
last training step and whether the last sampling was the baseline one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final

MAX_CHARS: Final = 200_000
_TEXT_MAX: Final = 200  # longest `text` / `message` kept in signal data
_WINDOW: Final = 1_500  # characters of an out-of-memory message read for its figures
_MAX_WINDOWS: Final = 16  # out-of-memory messages read for figures, the last ones
_REACH: Final = 64  # characters between a figure's anchor word and either end of its match, at most
_MAX_GIB: Final = 4_096.0  # larger "memory in use" figures are reporting bugs (WSL prints 2**64 bytes)


@dataclass(frozen=True, slots=True)
class Signal:
    """One fact read from the text; `data` is JSON-serialisable (numbers as int/float, strings, booleans)."""

    id: str
    data: dict[str, Any]


@dataclass(frozen=True, slots=True)
class LogReading:
    """What a log says about a failure."""

    signals: tuple[Signal, ...]  # in order of first appearance, one per id
    gpu_oom: bool  # a GPU out-of-memory was seen
    not_gpu_oom: str | None  # id of a failure that is NOT a GPU OOM, when seen and no GPU OOM was seen
    step: int | None  # the last training step seen (progress bar / message)
    total_steps: int | None
    phase: str | None  # "sampling" | "training" | "caching" | "loading" | "saving" | None: phase at failure


_EMPTY: Final = LogReading(signals=(), gpu_oom=False, not_gpu_oom=None, step=None, total_steps=None, phase=None)

# --- patterns (all matched against lowered text) ---------------------------------------------------------------
#
# Speed: `re` skips ahead quickly only to a literal prefix; a pattern that starts with `\b`, a lookbehind, `\d` or
# an alternation of different words is tried at every position of the line (about 20-50 us on a 600-character
# PyTorch message). So patterns start with a literal (a word boundary, if needed, is a lookbehind after it), and
# the figures that start with a number are only tried near their anchor word (`_search_near`).

_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]?")

_NUM = r"(\d{1,12}(?:\.\d{1,6})?)\s*(bytes?|[kmgtp]i?b)\b"
# PyTorch's MPS allocator prints binary sizes as "MB"/"GB", so decimal-looking units are read as binary too.
_UNIT_GIB: Final[dict[str, float]] = {
    "b": 1 / 1024**3,
    "byte": 1 / 1024**3,
    "bytes": 1 / 1024**3,
    "kb": 1 / 1024**2,
    "kib": 1 / 1024**2,
    "mb": 1 / 1024,
    "mib": 1 / 1024,
    "gb": 1.0,
    "gib": 1.0,
    "tb": 1024.0,
    "tib": 1024.0,
    "pb": 1024.0**2,
    "pib": 1024.0**2,
}

_Gated = tuple[tuple[tuple[str, ...], re.Pattern[str]], ...]  # (any of these words in the line, then the pattern)

# A GPU out-of-memory error (CUDA, ROCm/HIP, XPU, Apple MPS, cuBLAS/cuDNN allocation, cudaMallocAsync).
# The Linux OOM killer's "Out of memory: Killed process" matches none of these.
_OOM: Final[_Gated] = (
    (
        ("memory",),
        re.compile(
            r"(?:cuda|hip|xpu|npu|mps\s+backend)\s+out\s+of\s+memory"
            r"|cuda\s+error:\s*out\s+of\s+memory"
            r"|(?:torch|cuda)\.outofmemoryerror"  # not java.lang.OutOfMemoryError
            r"|cuda_error_out_of_memory|cudaerrormemoryallocation"
            r"|allocation\s+on\s+device\s+\d+\s+would\s+exceed\s+allowed\s+memory"
        ),
    ),
    (("_alloc_failed",), re.compile(r"c(?:ublas|udnn)_status_alloc_failed")),
)
_FIGURES: Final[tuple[tuple[str, str, re.Pattern[str]], ...]] = (
    ("tried_to_allocate_gib", "allocate", re.compile(r"tried\s+to\s+allocate\s+" + _NUM)),
    ("tried_to_allocate_gib", "requested", re.compile(r"requested\s*:\s*" + _NUM)),
    ("total_capacity_gib", "capac", re.compile(r"total\s+capac\w*\s+of\s+" + _NUM)),
    ("total_capacity_gib", "capac", re.compile(_NUM + r"\s+total\s+capacity")),
    ("total_capacity_gib", "limit", re.compile(r"device\s+limit\s*:\s*" + _NUM)),
    ("total_capacity_gib", "allowed", re.compile(r"max\s+allowed\s*:\s*" + _NUM)),
    ("free_gib", "which", re.compile(r"of\s+which\s+" + _NUM + r"\s+is\s+free")),
    ("free_gib", "free", re.compile(r";\s*" + _NUM + r"\s+free\b")),
    ("free_gib", "according", re.compile(r"free\s+\(according\s+to\s+cuda\)\s*:\s*" + _NUM)),
    ("allocated_by_pytorch_gib", "allocated", re.compile(_NUM + r"\s+is\s+allocated\s+by\s+pytorch")),
    ("allocated_by_pytorch_gib", "allocated", re.compile(_NUM + r"\s+already\s+allocated")),
    ("allocated_by_pytorch_gib", "allocated", re.compile(r"currently\s+allocated\s*:\s*" + _NUM)),
    ("allocated_by_pytorch_gib", "allocated", re.compile(r"mps\s+allocated\s*:\s*" + _NUM)),
    (
        "reserved_unallocated_gib",
        "unallocated",
        re.compile(_NUM + r"\s+is\s+reserved\s+by\s+pytorch\s+but\s+unallocated"),
    ),
)
_RESERVED_TOTAL = re.compile(_NUM + r"\s+reserved\s+in\s+total")
# "GPU 0 has a total capacity", "(GPU 0; 23.99 GiB total capacity", "allocation on device 0"
_GPU: Final[_Gated] = (
    (("gpu",), re.compile(r"gpu(?<!\wgpu)\s+(\d{1,3})\s+has\s+a\s+total")),
    (("(gpu",), re.compile(r"\(gpu\s+(\d{1,3})\s*;")),
    (("device",), re.compile(r"allocation\s+on\s+device\s+(\d{1,3})\b")),
)
# "Process 12345 has 10.50 GiB memory in use" -- another process; "this process has ..." is the trainer itself.
_PROCESS = re.compile(
    r"process(?<![\w-]process)(?<!this process)\s+(\d{0,10})\s*has\s+" + _NUM + r"\s+memory\s+in\s+use"
)
_FRAG_HINT: Final[_Gated] = (
    (
        ("setting",),
        re.compile(r"try\s+setting\s+(?:pytorch_cuda_alloc_conf\s*=\s*expandable_segments|max_split_size_mb)"),
    ),
    (("large",), re.compile(r"reserved\s+but\s+unallocated\s+memory\s+is\s+large")),
)
# AI Toolkit's own notices (jobs/process/BaseSDTrainProcess.py): "# OOM during training step, skipping batch 1/3 #"
# and "OOM during training step 3 times in a row, aborting training".
_NOTICE: Final[_Gated] = (
    (
        ("during", "skipping"),
        re.compile(
            r"\boom\s+during\s+(?:training\s+)?step\b"
            r"|(?:out\s+of\s+memory|\boom\b).{0,120}?skipping\s+batch"
            r"|skipping\s+batch.{0,60}?(?:out\s+of\s+memory|\boom\b)"
        ),
    ),
)
# The process was killed or starved for host RAM: not a GPU OOM.
_HOST: Final[_Gated] = (
    (
        ("killed",),
        re.compile(
            r"^[\W\d_]*+killed\W*+$"  # the shell's bare "Killed"
            r"|\b\d+\s+killed\s"  # "run.sh: line 3: 4242 Killed  python run.py"
            r"|\]\+?\s+killed\s"  # "[1]+  Killed  python run.py"
            r"|\bkilled\s+(?:process\s+\d|python|accelerate|torchrun)"
            r"|out\s+of\s+memory:\s+kill"  # the kernel's OOM killer
        ),
    ),
    (("kill",), re.compile(r"\boom[-_]kill|\bsigkill\b")),
    (("reaper",), re.compile(r"oom[-_]reaper")),
    (("cgroup",), re.compile(r"memory\s+cgroup\s+out\s+of\s+memory")),
    (("signal",), re.compile(r"\bsignal\s*:?\s*9\b")),
    (
        ("exit",),
        re.compile(r"\bexit\s*(?:code|status)\s*[:=]?\s*(?:-9|137)\b|\bexited\s+with\s+(?:code|status)\s*(?:-9|137)\b"),
    ),
    (("memoryerror",), re.compile(r"memoryerror\b(?<!\wmemoryerror)")),  # Python's, not torch's OutOfMemoryError
    (("allocate",), re.compile(r"cannot\s+allocate\s+memory")),
    (("errno",), re.compile(r"\[errno\s+12\]")),
    (("bad_alloc",), re.compile(r"std::bad_alloc")),
    (("cpuallocator",), re.compile(r"defaultcpuallocator:\s*(?:not\s+enough\s+memory|can't\s+allocate)")),
    (("paging", "1455"), re.compile(r"paging\s+file\s+is\s+too\s+small|os\s+error\s+1455")),
)
# A CUDA error that is not an out-of-memory error.
_CUDA_ERROR: Final[_Gated] = (
    (("error",), re.compile(r"cuda\s+error:\s*(?!out\s+of\s+memory|c(?:ublas|udnn)_status_alloc_failed)\S")),
    (("nccl",), re.compile(r"nccl(?:(?<!\wnccl)\s+error|unhandledcudaerror|systemerror|internalerror)")),
    (("cudnn",), re.compile(r"cudnn(?<!\wcudnn)\s+error")),
    (("assert",), re.compile(r"device-side\s+assert\s+triggered")),
    (
        ("driver",),
        re.compile(
            r"cuda\s+driver\s+version\s+is\s+insufficient"
            r"|nvidia\s+driver\s+on\s+your\s+system\s+is\s+too\s+old|found\s+no\s+nvidia\s+driver"
        ),
    ),
    (("kernel",), re.compile(r"no\s+kernel\s+image\s+is\s+available")),
    (("launch",), re.compile(r"unspecified\s+launch\s+failure")),
    (("illegal",), re.compile(r"illegal\s+memory\s+access|illegal\s+instruction\s+was\s+encountered")),
    (("misaligned",), re.compile(r"misaligned\s+address")),
    (("_status_",), re.compile(r"c(?:udnn|ublas)_status_(?!alloc_failed)[a-z_]+")),
    (("cuda_error_",), re.compile(r"cuda_error_(?!out_of_memory)[a-z_]+")),
    (("watchdog",), re.compile(r"watchdog\s+caught\s+collective\s+operation\s+timeout")),
    (("distbackenderror",), re.compile(r"c10::distbackenderror")),
)
# The exception that ended a Python traceback (`KeyError: 'job'`, `safetensors_rust.SafetensorError: ...`) or AI
# Toolkit's `Error running job: ...`, when it is not an out-of-memory error: the job failed for another reason.
_PYTHON_ERROR = re.compile(
    r"^\W*(?:\[[^\]\n]{0,40}\]:?\s*)*"  # a log prefix such as "[rank0]:"
    r"(?:((?:[a-z_]\w*\.){0,4}[a-z_]\w*(?:error|exception))\s*:|(error\s+running\s+job)\s*:)"
)
_SAMPLING = re.compile(
    r"\bgenerating\s+(?:(baseline|first)\s+)?(?:\d+\s+)?(?:images?|samples?)\b"
    r"|\bsampling(?:\s*(?:\.\.\.|\u2026)|\s+at\s+step\b|\s+images\b)"
)
_CACHING = re.compile(
    r"\bcaching\s+(?:latents|text[\s_]embeddings|embeddings|clip\s+vision|validation|control|\d+\s+unconditional)"
)
_LOADING = re.compile(
    r"\bloading\s+(?:checkpoint\s+shards|pipeline\s+components"
    r"|(?:[\w.()/-]+\s+){0,3}?(?:model|transformer|vae|t5|te|text\s+encoders?|encoders?|clip|unet|dit|weights|"
    r"tokenizer|lora|shards|checkpoint|connectors|from|qwen[\w.-]*|mistral|llama[\w.-]*|umt5|gemma[\w.-]*)\b)"
    r"|\bquantizing\s+(?:[\w.()-]+\s+){0,2}?(?:model|transformer|te|text\s+encoder|encoder|blocks|unet)\b"
    r"|\bfetching\s+\d+\s+files\b"
)
_SAVING = re.compile(
    r"\bsaving\s+at\s+step\s+(\d{1,9})"
    r"|\bsaving\s+(?:the\s+)?(?:model|checkpoint|lora|weights)\b"
    r"|\bsaved\s+(?:checkpoint\s+|optimizer\s+|model\s+|lora\s+)?to\b"
)
_STEP = re.compile(r"\bstep\s*[:#]?\s*(\d{1,9})\s*(?:/|\bof\b)\s*(\d{1,9})\b")
_FRAME = re.compile(r"line\s+\d+,\s+in\s+([a-z_]\w*)")
_FRAME_PHASE: Final[dict[str, str]] = {
    # AI Toolkit (BaseSDTrainProcess, models) and the libraries it calls
    "sample": "sampling",
    "generate_images": "sampling",
    "generate_single_image": "sampling",
    "hook_train_loop": "training",
    "train_single_accumulation": "training",
    "calculate_loss": "training",
    "backward": "training",
    "cache_latents_all_latents": "caching",
    "cache_text_embeddings": "caching",
    "cache_clip_vision_to_disk": "caching",
    "load_model": "loading",
    "from_pretrained": "loading",
    "_load_pretrained_model": "loading",
    "load_checkpoint_and_dispatch": "loading",
    "save_weights": "saving",
    "save_model": "saving",
}
# A timestamp a log viewer may print before each line.
_STAMP = (
    r"(?:\[?\d{4}-\d{2}-\d{2}[ Tt]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:[Zz]|[+-]\d{2}:?\d{2})?\]?[ \t]+"
    r"|\[?\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\]?[ \t]+)?"
)
# A tqdm bar line and the updates of the same bar right after it (the head, group 1, repeated; blank lines skipped).
_BAR_RUN = re.compile(
    _STAMP + r"([^\n|%]*?)[ \t]*\d{1,3}%\|[^\n]*\][ \t]*+(?=\n|$)"
    r"(?:(?:\n[ \t]*(?=\n))*\n" + _STAMP + r"\1[ \t]*\d{1,3}%\|[^\n]*\][ \t]*+(?=\n|$))*"
)
_PCT_BLOCK = re.compile(r"(?:[^\n]*%\|[^\n]*(?:\n|\Z))+")  # consecutive lines holding "%|"
_ODD_STREAK: Final = 64
_BAR_NUMS = re.compile(r"\d{1,3}%\|[^|\n]*\|\s*(\d{1,9})/(\d{1,9})\b")
_DIGITS_SPACE: Final = "0123456789 \t"
# A timestamp or log level a log viewer put before a bar's description.
_HEAD_PREFIX = re.compile(
    r"^(?:\[?\d{4}-\d{2}-\d{2}[ t]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:z|[+-]\d{2}:?\d{2})?\]?"
    r"|\[?\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\]?"
    r"|\[?(?:info|warning|debug|stdout|stderr)\]?:?"
    r"|[\s\-:|>])+"
)
_BAR_SAMPLING = re.compile(r"generating\s+(?:baseline\s+|first\s+)?(?:images?|samples?)\b")

# Anchor words looked up in the lowered non-bar text, and the families of patterns a line holding one is tried on.
_ANCHORS: Final[tuple[tuple[str, frozenset[str]], ...]] = (
    ("memory", frozenset({"oom", "process", "frag", "host", "cuda", "notice"})),
    ("_alloc", frozenset({"oom", "host"})),
    ("oom", frozenset({"notice", "host"})),
    ("kill", frozenset({"host"})),
    ("signal", frozenset({"host"})),
    ("exit", frozenset({"host"})),
    ("errno", frozenset({"host"})),
    ("paging file", frozenset({"host"})),
    ("error", frozenset({"cuda", "host", "python"})),
    ("exception", frozenset({"python"})),
    ("watchdog", frozenset({"cuda"})),
    ("generating", frozenset({"sampling"})),
    ("sampling", frozenset({"sampling"})),
    ("caching", frozenset({"caching"})),
    ("loading", frozenset({"loading"})),
    ("quantizing", frozenset({"loading"})),
    ("fetching", frozenset({"loading"})),
    ("sav", frozenset({"saving"})),
    ("step", frozenset({"step", "notice"})),
    ("skipping batch", frozenset({"notice"})),
    (", line ", frozenset({"frame"})),
)

# Progress-bar descriptions that are not the training bar (tqdm `desc`), by first word.
_BAR_PHASE: Final[dict[str, str]] = {
    "caching": "caching",
    "loading": "loading",
    "fetching": "loading",
    "downloading": "loading",
    "quantizing": "loading",
    "attaching": "loading",
    "saving": "saving",
    "sampling": "sampling",
}
_BAR_OTHER: Final = frozenset(
    {
        "processing",
        "building",
        "merging",
        "converting",
        "extracting",
        "encoding",
        "captioning",
        "matching",
        "analyzing",
        "inverting",
        "updating",
        "syncing",
        "transcribing",
        "equalizing",
        "unmatched",
        "annotating",
        "repaired",
        "map",
        "filter",
        "generating",
        "validating",
    }
)

# --- looks_like_log ---------------------------------------------------------------------------------------------

# Any of these is log material on its own.
_LOG_LITERALS: Final = (
    "Traceback (most recent call last)",
    "%|",
    "torch.",
    'File "',
    "Error running job",
    "Error:",
    "Exception:",
    "out of memory. Tried to allocate",
    "OOM during training step",
)
# Otherwise these patterns, each tried only when its word is in the text.
_LOG_PATTERNS: Final[_Gated] = (
    (("ERROR", "FATAL", "WARNING", "INFO"), re.compile(r"(?m)^\W{0,3}(?:ERROR|FATAL|WARNING|INFO)\b")),
    ((".py", ".cpp", ".cu", ".sh"), re.compile(r"\.(?:py|cpp|cu|h|c|sh)\b\"?(?::|,\s*line\s+)\d+")),
    (("-",), re.compile(r"\b\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}")),  # timestamps
    ((":",), re.compile(r"\b\d{1,2}:\d{2}:\d{2}\b")),
    (("|",), re.compile(r"\|[^|\n]{0,80}\|\s*\d+/\d+")),  # |####| 2/3000 bars
    (("<",), re.compile(r"\[\d{1,3}:\d{2}<")),  # tqdm's [00:12<5:00:01
    (("illed", "ILLED"), re.compile(r"(?im)killed\s+process\s+\d|^\s*+killed\s*+$")),
    (("Segmentation fault",), re.compile(r"(?m)^\s*Segmentation fault")),
)


def looks_like_log(text: str) -> bool:
    """True when the text contains log or traceback material rather than only prose."""
    try:
        if not isinstance(text, str) or not text:
            return False
        text = text[-MAX_CHARS:]
        if any(lit in text for lit in _LOG_LITERALS):
            return True
        return any(any(w in text for w in words) and p.search(text) is not None for words, p in _LOG_PATTERNS)
    except Exception:  # never raise on any input
        return False


# --- read_log ---------------------------------------------------------------------------------------------------


def read_log(text: str) -> LogReading:
    """Read a log (or free text quoting one): signals, GPU OOM or not, last step, phase at the failure."""
    try:
        if not isinstance(text, str) or not text:
            return _EMPTY
        return _Reader(_normalise(text[-MAX_CHARS:])).read()
    except Exception:  # never raise on any input: a reading that fails says nothing
        return _EMPTY


def _normalise(text: str) -> str:
    if "\x1b" in text:
        text = _ANSI.sub("", text)
    if "\r" in text:
        text = text.replace("\r", "\n")  # tqdm updates and CRLF alike (a blank line changes nothing)
    return text


def _gib(number: str, unit: str) -> float | None:
    try:
        value = float(number) * _UNIT_GIB[unit]
    except (ValueError, KeyError):
        return None
    return round(value, 2)


def _clip(line: str) -> str:
    return line.strip()[:_TEXT_MAX]


# Event kinds, in the order they are replayed.
_PHASE, _TRAIN, _BARE, _FAIL = "phase", "train", "bare", "fail"
_Key = tuple[int, int, int]  # (position in the non-bar text, 0 = bar run before it / 1 = in it, sequence)


class _Reader:
    """One reading: collects events and signal data, then replays the events in order."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.seq = 0
        self.events: list[tuple[_Key, str, Any]] = []
        self.first: dict[str, _Key] = {}
        self.data: dict[str, dict[str, Any]] = {}
        self.processes: dict[tuple[str, float], float] = {}
        self.oom_lines: list[int] = []  # start of each line holding a GPU OOM, in the lowered non-bar text
        self.markers: list[tuple[_Key, str, dict[str, Any]]] = []  # caching / loading / saving markers

    # -- recording

    def key(self, pos: int, tier: int = 1) -> _Key:
        self.seq += 1
        return (pos, tier, self.seq)

    def signal(self, sid: str, key: _Key, **data: Any) -> None:
        if sid not in self.first:
            self.first[sid] = key
            self.data[sid] = {}
        self.data[sid].update(data)

    def event(self, key: _Key, kind: str, payload: Any) -> None:
        self.events.append((key, kind, payload))

    def failure(self, sid: str, key: _Key, **data: Any) -> None:
        """A failure that is not a GPU OOM: its signal keeps the data of its first occurrence (the exception
        itself, not what quotes it later); every occurrence is an event."""
        if sid not in self.first:
            self.signal(sid, key, **data)
        self.event(key, _FAIL, sid)

    # -- reading

    def read(self) -> LogReading:
        nb_text = self.split_bars()
        low = nb_text.lower()
        if len(low) != len(nb_text):  # only U+0130 lowers to two characters
            low = nb_text.replace("\u0130", "I").lower()
        self.scan(nb_text, low)
        self.figures(low)
        return self.replay()

    def split_bars(self) -> str:
        """Record progress-bar runs as events; return the text between them (every other line)."""
        text = self.text
        if "%|" not in text:
            return text
        n = len(text)
        nb: list[str] = []
        offset = 0  # length of the non-bar text so far
        runs: list[tuple[int, str, str]] = []  # (offset, last update, head)
        pos = 0  # always at a line start
        odd_end = -2  # end of the last odd bar line
        streak = 0  # odd bar lines in a row
        while pos < n:
            p = text.find("%|", pos)
            if p < 0:
                nb.append(text[pos:])
                break
            start = text.rfind("\n", pos, p) + 1 or pos
            if start > pos:
                nb.append(text[pos:start])
                offset += start - pos
                streak = 0
            m = _BAR_RUN.match(text, start) if streak < _ODD_STREAK else None
            if m is not None:  # one bar and its following updates, matched in one go
                end = m.end()
                last = text[text.rfind("\n", start, end) + 1 or start : end]
                runs.append((offset, last, m.group(1)))
                streak = 0
                pos = end + 1
                continue
            # An odd bar line, or one with something printed right after the bar: read it both ways. Past a long
            # streak of them, take every following line holding "%|" as one block (bounded work on odd input).
            if streak < _ODD_STREAK:
                end = text.find("\n", p)
                if end < 0:
                    end = n
            else:
                block = _PCT_BLOCK.match(text, start)
                end = block.end() if block is not None else n  # the block holds at least the line itself
                if end > start and text[end - 1] == "\n":
                    end -= 1
            line = text[text.rfind("\n", start, end) + 1 or start : end]
            cut = line.find("%|")
            head = line[:cut].rstrip(_DIGITS_SPACE) if cut >= 0 else ""
            if runs and odd_end == start - 1 and runs[-1][2] == head:
                runs[-1] = (runs[-1][0], line, head)  # more of the same odd lines: one run
            else:
                runs.append((offset, line, head))
            nb.append(text[start:end] + "\n")
            offset += end - start + 1
            odd_end = end
            streak += 1
            pos = end + 1
        kinds: dict[str, str] = {}
        for off, last, head in runs:
            kind = kinds.get(head)
            if kind is None:
                kind = kinds[head] = _bar_kind(head)
            self.bar(off, last, head, kind)
        return "".join(nb)

    def bar(self, offset: int, line: str, head: str, kind: str) -> None:
        nums = None
        for m in _BAR_NUMS.finditer(line):
            nums = m
        low = line.lower()
        if kind in ("bare", "other") and ("lr:" in low or "loss" in low):
            kind = "training"
        key = self.key(offset, 0)
        if kind in ("training", "bare"):
            if nums is not None:
                step, total = int(nums.group(1)), int(nums.group(2))
                if total > 0:
                    self.event(key, _TRAIN if kind == "training" else _BARE, (step, total))
        elif kind != "other":
            label = _clip(head.rsplit("|", 1)[-1].rstrip(": "))
            self.phase(key, kind, label)

    def phase(self, key: _Key, phase: str, text: str, baseline: bool | None = None, step: int | None = None) -> None:
        self.event(key, _PHASE, (phase, baseline))
        if phase == "sampling":
            self.signal("sampling", key)
        elif phase != "training":
            self.signal(phase, key)
            self.markers.append((key, phase, {"text": text} if step is None else {"text": text, "step": step}))

    def scan(self, text: str, low: str) -> None:
        """Find anchor words; try the families of patterns they call for on each line holding one."""
        lines: dict[int, set[str]] = {}
        for word, families in _ANCHORS:
            pos = low.find(word)
            while pos >= 0:
                start = low.rfind("\n", 0, pos) + 1
                end = low.find("\n", pos)
                if end < 0:
                    end = len(low)
                got = lines.get(start)
                if got is None:
                    lines[start] = set(families)
                else:
                    got.update(families)
                pos = low.find(word, end)
        for start in sorted(lines):
            end = low.find("\n", start)
            if end < 0:
                end = len(low)
            self.line(start, low[start:end], text[start:end], lines[start])

    def line(self, start: int, low: str, line: str, families: set[str]) -> None:
        if "frame" in families:
            m = _FRAME.search(low)
            if m is not None:
                phase = _FRAME_PHASE.get(m.group(1))
                if phase is not None:
                    self.phase(self.key(start + m.start()), phase, _clip(line))
        if "sampling" in families:
            m = _SAMPLING.search(low)
            if m is not None:
                baseline: bool | None = None
                if m.group(1) or "before training" in low:
                    baseline = True
                elif "at step" in low[m.start() : m.end() + 1]:
                    baseline = False
                self.phase(self.key(start + m.start()), "sampling", _clip(line), baseline)
        if "caching" in families:
            m = _CACHING.search(low)
            if m is not None:
                self.phase(self.key(start + m.start()), "caching", _clip(line))
        if "loading" in families:
            m = _LOADING.search(low)
            if m is not None:
                self.phase(self.key(start + m.start()), "loading", _clip(line))
        if "saving" in families:
            m = _SAVING.search(low)
            if m is not None:
                step = int(m.group(1)) if m.group(1) else None
                self.phase(self.key(start + m.start()), "saving", _clip(line), step=step)
        if "step" in families:
            for m in _STEP.finditer(low):
                step, total = int(m.group(1)), int(m.group(2))
                if total > 0:
                    self.event(self.key(start + m.start()), _TRAIN, (step, total))
        failed = False  # a failure of a known kind was read on this line
        if "notice" in families:
            m = _first(low, _NOTICE)
            if m is not None:
                failed = True
                key = self.key(start + m.start())
                if "training step" in low:
                    self.event(key, _PHASE, ("training", None))
                key = self.key(start + m.start())
                self.signal("aitk-oom-notice", key, text=_clip(line))
                self.event(key, _FAIL, "aitk-oom-notice")
        if "oom" in families:
            m = _first(low, _OOM)
            if m is not None:
                failed = True
                key = self.key(start + m.start())
                self.signal("cuda-oom", key)
                self.event(key, _FAIL, "cuda-oom")
                self.oom_lines.append(start)
        if "process" in families and "memory in use" in low:
            self.other_processes(start, low)
        if "frag" in families:
            m = _first(low, _FRAG_HINT)
            if m is not None:
                self.signal("fragmentation", self.key(start + m.start()))
        if "host" in families:
            m = _first(low, _HOST)
            if m is not None:
                failed = True
                self.failure("host-ram-kill", self.key(start + m.start()), text=_clip(line))
        if "cuda" in families:
            m = _first(low, _CUDA_ERROR)
            if m is not None:
                failed = True
                self.failure("cuda-error", self.key(start + m.start()), message=_clip(line))
        if "python" in families and not failed and "out of memory" not in low and "outofmemory" not in low:
            m = _PYTHON_ERROR.match(low)
            if m is not None:
                kind = line[m.start(1) : m.end(1)] if m.group(1) else line[m.start(2) : m.end(2)]
                self.failure(
                    "python-error", self.key(start + m.start()), type=kind.rsplit(".", 1)[-1], message=_clip(line)
                )

    def other_processes(self, start: int, low: str) -> None:
        for m in _PROCESS.finditer(low):
            used = _gib(m.group(2), m.group(3))
            if used is None or used > _MAX_GIB:
                continue
            self.processes[(m.group(1), used)] = used  # the same process quoted twice counts once
            self.signal("other-process-vram", self.key(start + m.start()))

    def figures(self, low: str) -> None:
        """Read the figures of each GPU OOM message (a window of text from its line, up to the next one)."""
        starts = sorted(set(self.oom_lines))
        merged: dict[str, Any] = {}
        first = max(0, len(starts) - _MAX_WINDOWS)  # the last messages are the ones that count (later wins)
        for i in range(first, len(starts)):
            start = starts[i]
            stop = min(start + _WINDOW, starts[i + 1] if i + 1 < len(starts) else len(low))
            window = low[start:stop]
            found: dict[str, Any] = {}
            at = 0  # where the reserved-but-unallocated figure is, in the window
            for name, word, pattern in _FIGURES:
                if name in found:
                    continue
                m = _search_near(pattern, window, word)
                if m is not None:
                    value = _gib(m.group(1), m.group(2))
                    if value is not None:
                        found[name] = value
                        at = m.start() if name == "reserved_unallocated_gib" else at
            allocated = found.get("allocated_by_pytorch_gib")
            if "reserved_unallocated_gib" not in found and allocated is not None:
                # The older message: reserved in total - already allocated.
                m = _search_near(_RESERVED_TOTAL, window, "reserved")
                reserved = _gib(m.group(1), m.group(2)) if m is not None else None
                if m is not None and reserved is not None and reserved >= allocated:
                    found["reserved_unallocated_gib"] = round(reserved - allocated, 2)
                    at = m.start()
            m = _first(window, _GPU)
            if m is not None:
                found["gpu"] = int(m.group(1))
            if "memory in use" in window:
                self.other_processes(start, window)
            if found.get("reserved_unallocated_gib", 0.0) >= 1.0:
                self.signal("fragmentation", self.key(start + at))
            merged.update(found)
        if "cuda-oom" in self.data:
            self.data["cuda-oom"].update(merged)
        if "fragmentation" in self.data and "reserved_unallocated_gib" in merged:
            self.data["fragmentation"]["reserved_unallocated_gib"] = merged["reserved_unallocated_gib"]
        if self.processes:
            self.data["other-process-vram"].update(
                processes=len(self.processes), used_gib=round(sum(self.processes.values()), 2)
            )

    def replay(self) -> LogReading:
        """Walk the events in order: phase at each failure, training progress, baseline sampling."""
        self.events.sort(key=lambda e: e[0])
        phase: str | None = None
        step: int | None = None
        total: int | None = None
        train_total: int | None = None
        in_baseline = False  # baseline samples started and no training step seen since
        sampling_baseline = False  # the last sampling seen was the baseline one
        at_fail: dict[str, tuple[_Key, str | None, bool]] = {}
        progress_first: _Key | None = None
        for key, kind, payload in self.events:
            if kind == _BARE:
                if phase not in (None, "training") or (train_total is not None and payload[1] != train_total):
                    continue
                kind = _TRAIN
            if kind == _TRAIN:
                phase = "training"
                step, total = payload
                train_total = total
                in_baseline = False
                if progress_first is None:
                    progress_first = key
            elif kind == _PHASE:
                phase, baseline = payload
                if phase == "sampling":
                    if baseline is not None:
                        in_baseline = baseline
                    sampling_baseline = in_baseline
            elif kind == _FAIL:
                at_fail[payload] = (key, phase, sampling_baseline)

        gpu = [at_fail[s] for s in ("cuda-oom", "aitk-oom-notice") if s in at_fail]
        other = [(at_fail[s], s) for s in ("host-ram-kill", "cuda-error", "python-error") if s in at_fail]
        gpu_oom = bool(gpu)
        not_gpu_oom: str | None = None
        if gpu_oom:
            _, phase, sampling_baseline = max(gpu)
        elif other:
            (_, phase, sampling_baseline), not_gpu_oom = max(other)

        if progress_first is not None and step is not None and total is not None:
            self.signal("progress", progress_first, step=step, total=total)
        if "sampling" in self.data:
            self.data["sampling"]["baseline"] = sampling_baseline
        for _, sid, data in sorted(self.markers, key=lambda m: m[0]):  # in text order: the last marker's text wins
            self.data[sid].update(data)
        ordered = sorted(self.first, key=self.first.__getitem__)
        return LogReading(
            signals=tuple(Signal(sid, self.data[sid]) for sid in ordered),
            gpu_oom=gpu_oom,
            not_gpu_oom=not_gpu_oom,
            step=step,
            total_steps=total,
            phase=phase,
        )


def _first(low: str, patterns: _Gated) -> re.Match[str] | None:
    """The earliest match of the patterns whose words the line holds."""
    best: re.Match[str] | None = None
    for words, pattern in patterns:
        for word in words:  # a loop, not any(): this runs for every pattern of every line read
            if word in low:
                m = pattern.search(low)
                if m is not None and (best is None or m.start() < best.start()):
                    best = m
                break
    return best


def _search_near(pattern: re.Pattern[str], text: str, word: str) -> re.Match[str] | None:
    """`pattern.search(text)` for a pattern whose every match holds `word` within `_REACH` characters of its
    ends: only the text around each occurrence of the word is tried, so a pattern that starts with a number is
    not tried at every position of a long message."""
    p = text.find(word)
    while p >= 0:
        m = pattern.search(text, max(0, p - _REACH), p + len(word) + _REACH)
        if m is not None:
            return m
        p = text.find(word, p + 1)
    return None


def _bar_kind(head: str) -> str:
    """What a progress bar is, from its description: training, bare (none), other, or a phase."""
    desc = _HEAD_PREFIX.sub("", head.rsplit("|", 1)[-1].strip().lower()).rstrip(":").strip()
    if not desc:
        return "bare"
    first = desc.split(None, 1)[0]
    if first == "generating":
        return "sampling" if _BAR_SAMPLING.match(desc) else "other"
    if "shards" in desc:
        return "loading"
    phase = _BAR_PHASE.get(first)
    if phase is not None:
        return phase
    if first in _BAR_OTHER:
        return "other"
    return "training"
