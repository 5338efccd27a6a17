"""The figures of a GPU out-of-memory message (sizes, the GPU, other processes), read after the line rules.

Each message is read in a window of text from its line up to the next one; the last messages win.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Final

from .log_text import MAX_GIB, NUM, Gated, first_match, gib, search_near

if TYPE_CHECKING:
    from .logs import _Reader

WINDOW: Final = 1_500  # characters of an out-of-memory message read for its figures
MAX_WINDOWS: Final = 16  # out-of-memory messages read for figures, the last ones

_FIGURES: Final[tuple[tuple[str, str, re.Pattern[str]], ...]] = (
    ("tried_to_allocate_gib", "allocate", re.compile(r"tried\s+to\s+allocate\s+" + NUM)),
    ("tried_to_allocate_gib", "requested", re.compile(r"requested\s*:\s*" + NUM)),
    ("total_capacity_gib", "capac", re.compile(r"total\s+capac\w*\s+of\s+" + NUM)),
    ("total_capacity_gib", "capac", re.compile(NUM + r"\s+total\s+capacity")),
    ("total_capacity_gib", "limit", re.compile(r"device\s+limit\s*:\s*" + NUM)),
    ("total_capacity_gib", "allowed", re.compile(r"max\s+allowed\s*:\s*" + NUM)),
    ("free_gib", "which", re.compile(r"of\s+which\s+" + NUM + r"\s+is\s+free")),
    ("free_gib", "free", re.compile(r";\s*" + NUM + r"\s+free\b")),
    ("free_gib", "according", re.compile(r"free\s+\(according\s+to\s+cuda\)\s*:\s*" + NUM)),
    ("allocated_by_pytorch_gib", "allocated", re.compile(NUM + r"\s+is\s+allocated\s+by\s+pytorch")),
    ("allocated_by_pytorch_gib", "allocated", re.compile(NUM + r"\s+already\s+allocated")),
    ("allocated_by_pytorch_gib", "allocated", re.compile(r"currently\s+allocated\s*:\s*" + NUM)),
    ("allocated_by_pytorch_gib", "allocated", re.compile(r"mps\s+allocated\s*:\s*" + NUM)),
    (
        "reserved_unallocated_gib",
        "unallocated",
        re.compile(NUM + r"\s+is\s+reserved\s+by\s+pytorch\s+but\s+unallocated"),
    ),
)
_RESERVED_TOTAL = re.compile(NUM + r"\s+reserved\s+in\s+total")
# "GPU 0 has a total capacity", "(GPU 0; 23.99 GiB total capacity", "allocation on device 0"
_GPU: Final[Gated] = (
    (("gpu",), re.compile(r"gpu(?<!\wgpu)\s+(\d{1,3})\s+has\s+a\s+total")),
    (("(gpu",), re.compile(r"\(gpu\s+(\d{1,3})\s*;")),
    (("device",), re.compile(r"allocation\s+on\s+device\s+(\d{1,3})\b")),
)
# "Process 12345 has 10.50 GiB memory in use" -- another process; "this process has ..." is the trainer itself.
_PROCESS = re.compile(
    r"process(?<![\w-]process)(?<!this process)\s+(\d{0,10})\s*has\s+" + NUM + r"\s+memory\s+in\s+use"
)


def other_processes(r: _Reader, start: int, low: str) -> None:
    """Every other process a line says holds GPU memory (`Process 12345 has 10.50 GiB memory in use`)."""
    for m in _PROCESS.finditer(low):
        used = gib(m.group(2), m.group(3))
        if used is None or used > MAX_GIB:
            continue
        r.processes[(m.group(1), used)] = used  # the same process quoted twice counts once
        r.signal("other-process-vram", r.key(start + m.start()))


def read_figures(r: _Reader, low: str) -> None:
    """Read the figures of each GPU OOM message (a window of text from its line, up to the next one)."""
    starts = sorted(set(r.oom_lines))
    merged: dict[str, Any] = {}
    first = max(0, len(starts) - MAX_WINDOWS)  # the last messages are the ones that count (later wins)
    for i in range(first, len(starts)):
        start = starts[i]
        stop = min(start + WINDOW, starts[i + 1] if i + 1 < len(starts) else len(low))
        window = low[start:stop]
        found: dict[str, Any] = {}
        at = 0  # where the reserved-but-unallocated figure is, in the window
        for name, word, pattern in _FIGURES:
            if name in found:
                continue
            m = search_near(pattern, window, word)
            if m is not None:
                value = gib(m.group(1), m.group(2))
                if value is not None:
                    found[name] = value
                    at = m.start() if name == "reserved_unallocated_gib" else at
        allocated = found.get("allocated_by_pytorch_gib")
        if "reserved_unallocated_gib" not in found and allocated is not None:
            # The older message: reserved in total - already allocated.
            m = search_near(_RESERVED_TOTAL, window, "reserved")
            reserved = gib(m.group(1), m.group(2)) if m is not None else None
            if m is not None and reserved is not None and reserved >= allocated:
                found["reserved_unallocated_gib"] = round(reserved - allocated, 2)
                at = m.start()
        m = first_match(window, _GPU)
        if m is not None:
            found["gpu"] = int(m.group(1))
        if "memory in use" in window:
            other_processes(r, start, window)
        if found.get("reserved_unallocated_gib", 0.0) >= 1.0:
            r.signal("fragmentation", r.key(start + at))
        merged.update(found)
    if "cuda-oom" in r.data:
        r.data["cuda-oom"].update(merged)
    if "fragmentation" in r.data and "reserved_unallocated_gib" in merged:
        r.data["fragmentation"]["reserved_unallocated_gib"] = merged["reserved_unallocated_gib"]
    if r.processes:
        r.data["other-process-vram"].update(
            processes=len(r.processes), used_gib=round(sum(r.processes.values()), 2)
        )
