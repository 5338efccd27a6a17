"""The heavy lane in a process of its own, at a lower CPU priority (`REMEDY_HEAVY_LANE=process`, issue 13).

In a thread, a large request shares the worker's interpreter: on two busy cores it takes the interpreter back
every switch interval, and a normal request's p99 under a flood of large ones stayed 6-7x calm. Here each
worker has one child process that computes the large requests, one at a time in arrival order, at
`os.nice(NICE)`: the kernel runs the worker's event loop first when both want a core, and nothing of the
worker's interpreter is shared.

- Start: once the worker's runtime is loaded. On Linux the child is forked from the event loop's thread, so
  it has the knowledge already (copy-on-write, nothing loaded twice); elsewhere (fork is not safe with threads
  on macOS) it is spawned and loads the knowledge itself. The child closes every descriptor it inherited but
  its socket (the listener and the clients' connections stay the worker's alone), ignores SIGTERM and SIGINT
  (sent to the process group, they are the worker's to handle: it drains, then closes the child's socket and
  the child ends) and, on Linux, dies with the worker (`PR_SET_PDEATHSIG`); it says on its socket when it is up.
- A request crosses as bytes: the `work.Work` (kind, negotiated language, the request's inputs) pickled in,
  the answer (or the `RemedyError` it raised) pickled out, length-prefixed on a Unix socket pair; the worker
  never blocks on it (asyncio streams). At most `REMEDY_MAX_HEAVY` are held at once (`guards.ConcurrencyLimit`).
- Deadline: a request not answered within `REMEDY_HEAVY_TIMEOUT` seconds gets 503 `overloaded` with
  `Retry-After`, and the child (stuck) is killed. When the child dies, each request it held gets the same
  clean 503 at once, never a 500 or a hang; `ready` is false (so is `/readyz`) until a new child is up, which
  is started at once (after 1 s if the previous one lived less than a second).
- Where no child process can be had (fork or spawn fails, or the child never says it is up), the lane computes
  in a `lane.ThreadLane` instead, and says so in the log.
- Logs: a request's id and trace id cross with it, so a line the child logs while computing it carries them.
- Memory: the child hands free C heap back to the system after each request (`malloc_trim`), as the thread
  lane does.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pickle
import signal
import socket
import struct
import subprocess
import sys
import time
import traceback
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..errors import Overloaded, RemedyError
from ..runtime import Runtime, load_runtime
from ..settings import Settings
from .lane import ThreadLane, malloc_trim
from .logconfig import REQUEST_ID, TRACE_ID, configure_logging
from .work import Work, perform

log = logging.getLogger("remedy.lane")
NICE = 10  # the child's niceness: a CFS weight of 110 against the worker's 1024
FRAME = struct.Struct("!I")  # each message: its length, then its pickle
UP = b"up"
START_TIMEOUT = 60.0  # seconds a spawned child has to load the knowledge and say it is up
RETRY_SECONDS = 1


def forks_safely() -> bool:
    """Whether a child may be forked from a worker with threads: Linux (glibc, no Objective-C runtime)."""
    return hasattr(os, "fork") and sys.platform.startswith("linux")


class LaneCrash(RuntimeError):
    """The child raised something other than a `RemedyError` (a bug: a 500, as it would be in the worker)."""


class ProcessLane:
    """One child process computing a worker's large requests (see the module's docstring)."""

    def __init__(self, settings: Settings, method: str | None = None) -> None:
        self.settings = settings
        self.timeout = settings.heavy_timeout
        self.method = method or ("fork" if forks_safely() else "spawn")
        self.pid: int | None = None
        self.fallback: ThreadLane | None = None
        self.started_at = 0.0
        self._runtime: Runtime | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._pending: deque[asyncio.Future[bytes]] = deque()
        self._tasks: set[asyncio.Task[None]] = set()
        self._closing = False
        self._trim = malloc_trim()
        self._trimmer: ThreadPoolExecutor | None = None
        self._trim_queued = False

    @property
    def ready(self) -> bool:
        """Whether large requests can be computed now: the child is up (or the thread lane stands in)."""
        return self.fallback is not None or self._writer is not None

    async def start(self, runtime: Runtime) -> None:
        """Start the child for `runtime` (the worker's, loaded); the thread lane if no child can be had."""
        self._runtime = runtime
        try:
            await self._launch()
        except Exception as exc:  # OSError, TimeoutError, a platform without Unix sockets...
            log.warning("no heavy-lane process (%s: %s): large requests compute in a thread", type(exc).__name__, exc)
            self._stop_child()
            self.fallback = ThreadLane()

    async def _launch(self) -> None:
        parent, child = socket.socketpair()
        self.started_at = time.monotonic()
        try:
            if self.method == "fork":
                self.pid = _fork(child, self._runtime)
            else:
                self._proc = _spawn(child)
                self.pid = self._proc.pid
        finally:
            child.close()
        reader, writer = await asyncio.open_unix_connection(sock=parent)
        if self.method != "fork":
            _write(writer, pickle.dumps(self.settings))
        try:
            async with asyncio.timeout(START_TIMEOUT):
                if await _read(reader) != UP:
                    raise OSError("the heavy-lane process did not say it was up")
        except BaseException:
            writer.close()
            raise
        self._writer = writer
        self._spawn_task(self._read_answers(reader, writer))
        log.info("heavy-lane process %d up (%s, in %.0f ms)", self.pid, self.method,
                 (time.monotonic() - self.started_at) * 1000)

    async def run(self, runtime: Runtime, work: Work) -> dict[str, Any]:
        """The answer of `work`, computed in the child; 503 `overloaded` if it is not up, dies or is late."""
        if self.fallback is not None:
            return await self.fallback.run(runtime, work)
        writer = self._writer
        if writer is None:
            raise Overloaded(seconds=RETRY_SECONDS)
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._pending.append(future)
        # The request's ids go with it, so what the child logs for it carries them as the worker's lines do.
        _write(writer, pickle.dumps((work, REQUEST_ID.get(), TRACE_ID.get()), protocol=pickle.HIGHEST_PROTOCOL))
        try:
            async with asyncio.timeout(self.timeout):
                await writer.drain()
                message = await future
        except TimeoutError:
            log.error("heavy-lane process %s did not answer within %.1f s: restarting it", self.pid, self.timeout)
            self._kill()
            raise Overloaded(seconds=RETRY_SECONDS) from None
        except ConnectionError:
            raise Overloaded(seconds=RETRY_SECONDS) from None
        finally:
            self._trim_later()
        return _outcome(message)

    def _trim_later(self) -> None:
        """Hand the worker's free C heap back too, in a thread (without the interpreter), one trim queued at a
        time: the large bodies the worker read and pickled were freed into its heap, which kept them (distinct
        250 KB configs grew a worker by ~65 MB per 500 untrimmed)."""
        if self._trim is None or self._trim_queued:
            return
        if self._trimmer is None:
            self._trimmer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="remedy-trim")
        self._trim_queued = True
        self._trimmer.submit(self._run_trim)

    def _run_trim(self) -> None:
        self._trim_queued = False
        if self._trim is not None:
            self._trim()

    async def _read_answers(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Hand each answer to the request waiting for it, in order; when the child is gone, fail the rest."""
        try:
            while True:
                message = await _read(reader)
                future = self._pending.popleft()
                if not future.done():  # a request whose client left is not waiting any more
                    future.set_result(message)
        except (asyncio.IncompleteReadError, ConnectionError, IndexError):
            pass
        finally:
            writer.close()
            self._down()

    def _down(self) -> None:
        """The child is gone: every request it held gets 503 now, and a new child starts."""
        self._writer = None
        while self._pending:
            future = self._pending.popleft()
            if not future.done():
                future.set_exception(Overloaded(seconds=RETRY_SECONDS))
        lived = time.monotonic() - self.started_at
        self._stop_child()
        if self._closing:
            return
        log.error("heavy-lane process gone after %.1f s: starting another", lived)
        delay = 0.0 if lived >= 1.0 else 1.0
        asyncio.get_running_loop().call_later(delay, lambda: self._spawn_task(self._restart()))

    async def _restart(self) -> None:
        if self._closing or self._writer is not None or self._runtime is None:
            return
        await self.start(self._runtime)

    def _spawn_task(self, coroutine: Any) -> None:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _kill(self) -> None:
        """Kill the child at once (not ready from now on); its socket then ends and `_down` follows."""
        self._writer = None
        if self.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)

    def _stop_child(self, grace: float = 0.0) -> None:
        """Reap the child, whose socket is closed: it ends within `grace` seconds, else SIGKILL."""
        pid, self.pid = self.pid, None
        proc, self._proc = self._proc, None
        if pid is None:
            return
        deadline = time.monotonic() + grace
        while True:
            with contextlib.suppress(ChildProcessError):
                if proc is not None:
                    if proc.poll() is not None:
                        return
                elif os.waitpid(pid, os.WNOHANG)[0] == pid:
                    return
            if time.monotonic() >= deadline:
                break
            time.sleep(0.01)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            proc.wait() if proc is not None else os.waitpid(pid, 0)

    def close(self) -> None:
        """The worker stops: the child ends with it (its socket closes; SIGKILL if it still runs after 1 s)."""
        self._closing = True
        if self._trimmer is not None:
            self._trimmer.shutdown(wait=False, cancel_futures=True)
            self._trimmer = None
        if self.fallback is not None:
            self.fallback.close()
        if self._writer is not None:
            # The child reads the end now, not once the loop turns again (uvloop's transport sockets have no
            # `shutdown`: a duplicate of the descriptor has).
            with contextlib.suppress(OSError, AttributeError, TypeError):
                fd = self._writer.get_extra_info("socket").fileno()
                with socket.socket(fileno=os.dup(fd)) as duplicate:
                    duplicate.shutdown(socket.SHUT_RDWR)
            self._writer.close()
            self._writer = None
        self._stop_child(grace=1.0)


def _outcome(message: bytes) -> dict[str, Any]:
    """The answer the child sent, or the error it raised, raised here."""
    outcome = pickle.loads(message)
    if outcome[0] == "answer":
        answer: dict[str, Any] = outcome[1]
        return answer
    if outcome[0] == "error":
        _, cls, params, extra = outcome
        error: RemedyError = cls(**params)
        error.extra.update(extra)
        raise error
    raise LaneCrash(outcome[1])


def _write(writer: asyncio.StreamWriter, payload: bytes) -> None:
    writer.writelines((FRAME.pack(len(payload)), payload))


async def _read(reader: asyncio.StreamReader) -> bytes:
    (size,) = FRAME.unpack(await reader.readexactly(FRAME.size))
    return await reader.readexactly(size)


# --- the child ---------------------------------------------------------------------------------------------------


def _fork(sock: socket.socket, runtime: Runtime | None) -> int:
    """Fork the child (it runs `_serve` with the worker's runtime, then exits); the child's pid."""
    assert runtime is not None
    pid = os.fork()
    if pid:
        return pid
    code = 1
    try:
        _detach(sock.fileno())
        _serve(sock.makefile("rwb"), runtime)
        code = 0
    except BaseException:
        traceback.print_exc()
    finally:
        os._exit(code)


def _spawn(sock: socket.socket) -> subprocess.Popen[bytes]:
    """Start a fresh interpreter as the child (`python -m remedy.http.lane_process FD`)."""
    fd = sock.fileno()
    return subprocess.Popen([sys.executable, "-m", __name__, str(fd)], pass_fds=(fd,), close_fds=True)


def _detach(keep: int) -> None:
    """In the forked child: only its socket and the standard streams stay open."""
    os.closerange(3, keep)
    os.closerange(keep + 1, 1 << 20)


def _own_signals() -> None:
    """The child's signals: SIGTERM or Ctrl-C sent to the whole process group are the worker's to handle (it
    keeps serving for its grace period, then closes the child's socket, and the child ends)."""
    signal.set_wakeup_fd(-1)
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, signal.SIG_IGN)
    for sig in (signal.SIGHUP, signal.SIGQUIT):
        signal.signal(sig, signal.SIG_DFL)


def _die_with_parent() -> None:
    """Linux: the kernel kills this child when the worker dies (even by SIGKILL)."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _serve(channel: Any, runtime: Runtime) -> None:
    """The child's loop: a request's bytes in, its answer's bytes out, until the worker closes the socket."""
    _own_signals()
    _die_with_parent()
    with contextlib.suppress(OSError):
        os.nice(NICE)
    trim = malloc_trim()
    _send(channel, UP)
    while (message := _receive(channel)) is not None:
        work, request_id, trace_id = pickle.loads(message)
        ids = REQUEST_ID.set(request_id), TRACE_ID.set(trace_id)
        try:
            outcome: tuple[Any, ...] = ("answer", perform(runtime, work))
        except RemedyError as error:
            outcome = ("error", type(error), error.params, error.extra)
        except Exception:
            outcome = ("crash", traceback.format_exc())
        try:
            payload = pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:
            payload = pickle.dumps(("crash", traceback.format_exc()))
        REQUEST_ID.reset(ids[0])
        TRACE_ID.reset(ids[1])
        _send(channel, payload)
        if trim is not None:
            trim()


def _send(channel: Any, payload: bytes) -> None:
    channel.write(FRAME.pack(len(payload)))
    channel.write(payload)
    channel.flush()


def _receive(channel: Any) -> bytes | None:
    header = channel.read(FRAME.size)
    if len(header) < FRAME.size:
        return None
    (size,) = FRAME.unpack(header)
    payload: bytes = channel.read(size)
    return payload if len(payload) == size else None


def main() -> None:
    """The spawned child: the settings arrive on the socket, the knowledge is loaded, then `_serve`."""
    _own_signals()
    sock = socket.socket(fileno=int(sys.argv[1]))
    channel = sock.makefile("rwb")
    message = _receive(channel)
    if message is None:
        return
    settings: Settings = pickle.loads(message)
    configure_logging(settings)  # the worker's log format (a forked child has it already)
    _serve(channel, load_runtime(settings))


if __name__ == "__main__":
    main()
