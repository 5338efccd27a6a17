"""The heavy lane: what a large request computes runs beside the event loop, not on it (issue 13).

An event loop does not preempt: a normal request that arrives while a 5 ms one computes waits until it ends,
and a client sending large requests back to back keeps a worker's normal requests that far behind. A request is
large (`guards.ConcurrencyLimit` marks it) when its body or query string is over `REMEDY_HEAVY_BYTES`: pasted
logs, long configs, the troubleshooter's long query. `REMEDY_HEAVY_LANE` says where it computes:

- `process` (the default; `lane_process.ProcessLane`): in a child process of the worker, at a lower CPU
  priority, the request crossing as bytes. The large request no longer shares the worker's interpreter at all,
  and the kernel runs the worker first when both want a core.
- `thread` (`ThreadLane`, also where no child process can be had): in one thread of the worker. Its computation
  gives the interpreter back every `REMEDY_SWITCH_INTERVAL` (CPython's switch interval, 5 ms by default, set
  lower by the app): a normal request waits at most that long, then shares the interpreter with the lane.
- `off`: on the event loop, like every other request.

Either lane is one line of work: large requests compute one at a time, in arrival order.

Thread-lane memory: glibc gives each thread a malloc arena of its own, and the lane's kept what large requests
had freed (distinct 250 KB configs grew a worker by ~110 MB, against ~34 MB computed on the event loop). After
each large request the lane hands free memory back to the system (`malloc_trim`, ~0.3 ms, run by the lane after
the answer and without holding the interpreter); where the C library has no `malloc_trim`, nothing is done.
Everything the computation shares between threads is safe to share: the memo tables take a lock to write and
read with one dict lookup, `functools.lru_cache` is thread-safe, and PyStemmer never releases the interpreter.
"""

from __future__ import annotations

import asyncio
import contextvars
import ctypes
import ctypes.util
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

from starlette.requests import Request

from ..runtime import Runtime
from .work import Work, perform

LANE = "remedy.heavy_lane"  # scope key: the lane a large request computes in (absent: on the event loop)


class Lane(Protocol):
    """Where large requests compute: started once the worker's runtime is loaded, closed with the app."""

    @property
    def ready(self) -> bool: ...

    async def start(self, runtime: Runtime) -> None: ...

    async def run(self, runtime: Runtime, work: Work) -> dict[str, Any]: ...

    def close(self) -> None: ...


def malloc_trim() -> Callable[[], object] | None:
    """glibc's `malloc_trim(0)` (ctypes releases the interpreter while it runs), or None without it."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):
        return None
    return functools.partial(trim, 0)


class ThreadLane:
    """One thread computing large requests in arrival order (started on first use, again after `close`)."""

    def __init__(self) -> None:
        self.executor: ThreadPoolExecutor | None = None
        self.trim = malloc_trim()
        self.trim_queued = False

    @property
    def ready(self) -> bool:
        return True

    async def start(self, runtime: Runtime) -> None:
        """Nothing to start: the thread starts with the first large request."""

    async def run(self, runtime: Runtime, work: Work) -> dict[str, Any]:
        """`work` in the lane, with this request's context (its request id for the log lines); then, once the
        answer is handed back, the lane trims the C heap (one trim queued at a time)."""
        if self.executor is None:
            self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="remedy-heavy")
        context = contextvars.copy_context()
        try:
            return await asyncio.get_running_loop().run_in_executor(
                self.executor, functools.partial(context.run, perform, runtime, work))
        finally:
            if self.trim is not None and not self.trim_queued and self.executor is not None:
                self.trim_queued = True
                self.executor.submit(self._trim)

    def _trim(self) -> None:
        self.trim_queued = False
        if self.trim is not None:
            self.trim()

    def close(self) -> None:
        """Stop the thread once what it computes is done (the app's lifespan ends)."""
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = None


async def compute(request: Request, work: Work) -> dict[str, Any]:
    """The answer of `work`: in the heavy lane for a large request, here on the event loop for any other."""
    runtime: Runtime = request.app.state.runtime
    lane: Lane | None = request.scope.get(LANE)
    return perform(runtime, work) if lane is None else await lane.run(runtime, work)
