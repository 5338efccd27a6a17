"""The heavy lane: what a large request computes runs in one thread of its own, not on the event loop (issue 13).

An event loop does not preempt: a normal request that arrives while a 5 ms one computes waits until it ends,
and a client sending large requests back to back keeps a worker's normal requests that far behind. In a thread,
the large request's computation gives the interpreter back every `REMEDY_SWITCH_INTERVAL` (CPython's switch
interval, 5 ms by default, set lower by the app): a normal request waits at most that long for the event loop,
then shares the interpreter with the lane until it is answered. The lane is one thread, so large requests
compute one at a time, queued in arrival order: together they take at most half of the interpreter while a
normal request waits for it, whatever the number of clients sending them.

A request is large (`guards.ConcurrencyLimit` marks it) when its body or query string is over
`REMEDY_HEAVY_BYTES`: pasted logs, long configs, the troubleshooter's long query. Everything the computation
shares between threads is safe to share: the memo tables take a lock to write and read with one dict lookup,
`functools.lru_cache` is thread-safe, and PyStemmer never releases the interpreter during a stem.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from starlette.requests import Request

T = TypeVar("T")
LANE = "remedy.heavy_lane"  # scope key: the lane a large request computes in (absent: on the event loop)


class HeavyLane:
    """One thread computing large requests in arrival order (started on first use, again after `close`)."""

    def __init__(self) -> None:
        self.executor: ThreadPoolExecutor | None = None

    async def run(self, work: Callable[[], T]) -> T:
        """`work()` in the lane, with this request's context (its request id for the log lines)."""
        if self.executor is None:
            self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="remedy-heavy")
        context = contextvars.copy_context()
        return await asyncio.get_running_loop().run_in_executor(self.executor, functools.partial(context.run, work))

    def close(self) -> None:
        """Stop the thread once what it computes is done (the app's lifespan ends)."""
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = None


async def computed(request: Request, work: Callable[[], T]) -> T:
    """`work()` in the heavy lane for a large request, here on the event loop for any other."""
    lane: HeavyLane | None = request.scope.get(LANE)
    return work() if lane is None else await lane.run(work)
