"""Hostile traffic against a real `remedy serve` on loopback (issue 13), shared by tests/http/test_attacks.py
(bounded, asserts behaviour) and bench/attack.py (measures RSS, latency, cost).

Every attack is bounded in connections, bytes and time, and only ever talks to 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import random
import signal
import socket
import string
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
_LETTERS = bytes(string.ascii_lowercase[b % 26].encode()[0] for b in range(256))
HOST = "127.0.0.1"


def free_port() -> int:
    """A free loopback port: the first free one of `REMEDY_TEST_PORTS` (`8130-8139`) when set, else any."""
    low, _, high = os.environ.get("REMEDY_TEST_PORTS", "0-0").partition("-")
    for port in range(int(low), int(high or low) + 1):
        with socket.socket() as s:
            try:
                s.bind((HOST, port))
            except OSError:
                continue
            return int(s.getsockname()[1])
    raise RuntimeError("no free port in REMEDY_TEST_PORTS")


def rss_mb(pid: int) -> float:
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return 0.0  # gone
    for line in lines:
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


@dataclass
class Server:
    proc: subprocess.Popen[bytes]
    port: int
    log: Path

    @property
    def pid(self) -> int:
        return self.proc.pid

    def children(self) -> list[int]:
        """The worker's child processes (the heavy lane's, with `REMEDY_HEAVY_LANE=process`)."""
        path = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children")
        try:
            return [int(pid) for pid in path.read_text().split()]
        except OSError:
            return []

    def rss(self) -> float:
        """RSS of the worker and of its children, added (pages they share are counted in each: an upper bound)."""
        return rss_mb(self.proc.pid) + sum(rss_mb(pid) for pid in self.children())

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None,
                timeout: float = 10.0) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection(HOST, self.port, timeout=timeout)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            r = conn.getresponse()
            return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
        finally:
            conn.close()


def start_server(env: dict[str, str] | None = None, port: int | None = None, argv: list[str] | None = None,
                 wait: bool = True, log: Path | None = None) -> Server:
    """`remedy serve` (one worker) on loopback, with its log in a file; waits for /readyz unless told not to."""
    port = port or free_port()
    log = log or Path(os.environ.get("TMPDIR", "/tmp")) / f"remedy-attack-{port}.log"
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("REMEDY_")}
    full_env.update({"REMEDY_LOG_LEVEL": "warning", "REMEDY_PORT": str(port), "REMEDY_HOST": HOST, **(env or {})})
    command = argv or [sys.executable, "-m", "remedy.cli", "serve"]
    with log.open("wb") as out:
        proc = subprocess.Popen(command, cwd=ROOT, env=full_env, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
    server = Server(proc, port, log)
    if wait:
        wait_ready(server)
    return server


def wait_ready(server: Server, timeout: float = 40.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.proc.poll() is not None:
            raise RuntimeError(f"the server exited ({server.proc.returncode}): {server.log.read_text()[-2000:]}")
        try:
            if server.request("GET", "/readyz", timeout=1)[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.05)
    raise RuntimeError("the server did not become ready")


def stop_server(server: Server) -> None:
    if server.proc.poll() is None:
        os.killpg(server.proc.pid, signal.SIGKILL)
        server.proc.wait(10)


@contextmanager
def running(env: dict[str, str] | None = None) -> Iterator[Server]:
    server = start_server(env)
    try:
        yield server
    finally:
        stop_server(server)


# --- raw sockets -------------------------------------------------------------------------------------------------


def raw_exchange(port: int, data: bytes, timeout: float = 10.0) -> bytes:
    """Send bytes, read the answer until the server closes or `timeout`."""
    with socket.create_connection((HOST, port), timeout=timeout) as s:
        with contextlib.suppress(OSError):  # the server may refuse before it has read everything
            s.sendall(data)
        chunks = []
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
                if b"\r\n\r\n" in b"".join(chunks) and b"content-length" not in b"".join(chunks).lower():
                    break
        except (TimeoutError, ConnectionResetError):
            pass
        return b"".join(chunks)


def status_of(answer: bytes) -> int:
    try:
        return int(answer.split(b" ", 2)[1])
    except (IndexError, ValueError):
        return 0


def slow_headers(port: int, connections: int, hold: float) -> int:
    """Open connections that send an unfinished request head and stop; how many the server closed in `hold`."""
    socks = []
    for _ in range(connections):
        s = socket.create_connection((HOST, port), timeout=5)
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n")
        socks.append(s)
    time.sleep(hold)
    closed = 0
    for s in socks:
        s.settimeout(0.2)
        try:
            if s.recv(1024) == b"":
                closed += 1
        except (TimeoutError, ConnectionResetError):
            pass
        except OSError:
            closed += 1
        s.close()
    return closed


def slow_bodies(port: int, connections: int, hold: float) -> list[int]:
    """Requests that announce a body and send half of it; the statuses the server answered within `hold`."""
    socks = []
    body = json.dumps({"query": "OOM at step 2 " * 20}).encode()
    for _ in range(connections):
        s = socket.create_connection((HOST, port), timeout=5)
        s.sendall(b"POST /v1/diagnose HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: %d\r\n\r\n%s" % (len(body), body[: len(body) // 2]))
        socks.append(s)
    deadline = time.monotonic() + hold
    statuses = []
    for s in socks:
        s.settimeout(max(deadline - time.monotonic(), 0.05))
        try:
            statuses.append(status_of(s.recv(4096)))
        except (TimeoutError, OSError):
            statuses.append(0)
        s.close()
    return statuses


def big_header(port: int, size: int) -> int:
    head = b"GET /v1/symptoms HTTP/1.1\r\nHost: x\r\nAccept-Language: " + b"e" * size + b"\r\n\r\n"
    return status_of(raw_exchange(port, head))


def many_headers(port: int, count: int) -> int:
    head = b"GET /v1/symptoms HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-H%d: 1\r\n" % i for i in range(count)) + b"\r\n"
    return status_of(raw_exchange(port, head))


def long_url(port: int, size: int) -> int:
    return status_of(raw_exchange(port, b"GET /v1/search?q=" + b"a" * size + b" HTTP/1.1\r\nHost: x\r\n\r\n"))


# --- floods of distinct requests ------------------------------------------------------------------------------------


def unique_words(rng: random.Random, count: int, length: int = 5) -> str:
    """`count` random lowercase words of `length` letters, made cheaply (an attacker's CPU is not the server's)."""
    letters = rng.randbytes(count * length).translate(_LETTERS).decode("ascii")
    return " ".join(letters[i : i + length] for i in range(0, len(letters), length))


def word_query(rng: random.Random) -> bytes:
    """A query of the largest size accepted (20,000 characters) made of unique five-letter words (made in C:
    the attacker's CPU is the server's on this machine)."""
    letters = bytearray(rng.randbytes(19_998).translate(_LETTERS))
    letters[5::6] = b" " * len(range(5, 19_998, 6))
    return b'{"query": "' + bytes(letters) + b'"}'


def long_word_query(rng: random.Random) -> bytes:
    return json.dumps({"query": unique_words(rng, 1, 19_990)}).encode()


def config_body(rng: random.Random, size: int = 250_000) -> bytes:
    """A config check body near the body limit, distinct each time (a long unique job name)."""
    name = rng.randbytes(size - 200).translate(_LETTERS)
    return (b'{"config_yaml": "job: train\\nconfig:\\n  name: ' + name +
            b'\\n  process:\\n  - train: {batch_size: 2, gradient_checkpointing: false}\\n"}')


_AL_BODY = json.dumps({"query": "OOM at step 2"}).encode()


def accept_language_flood(rng: random.Random) -> tuple[bytes, dict[str, str]]:
    """Distinct Accept-Language headers just under the header limit (a raw header was once part of the key)."""
    tags = bytearray(rng.randbytes(15_000).translate(_LETTERS))
    tags[10::11] = b"," * len(range(10, 15_000, 11))
    return _AL_BODY, {"Accept-Language": tags.decode("ascii")}


@dataclass
class Flood:
    """`threads` clients sending `make()` bodies to `path` back to back until `stop` is set or `limit` are sent."""

    port: int
    path: str
    make: Callable[[random.Random], bytes | tuple[bytes, dict[str, str]]]
    threads: int = 2
    limit: int = 1_000_000
    statuses: dict[int, int] = field(default_factory=dict)
    sent: int = 0

    def run(self, stop: threading.Event, seed: int = 13) -> None:
        lock = threading.Lock()

        def client(k: int) -> None:
            rng = random.Random(seed * 100 + k)
            conn = http.client.HTTPConnection(HOST, self.port, timeout=30)
            while not stop.is_set():
                with lock:
                    if self.sent >= self.limit:
                        return
                    self.sent += 1
                made = self.make(rng)
                body, headers = made if isinstance(made, tuple) else (made, {})
                try:
                    conn.request("POST", self.path, body=body,
                                 headers={"Content-Type": "application/json", **headers})
                    r = conn.getresponse()
                    r.read()
                    status = r.status
                    if r.getheader("connection", "").lower() == "close":
                        conn.close()
                except (OSError, http.client.HTTPException):
                    status = 0
                    conn.close()
                    conn = http.client.HTTPConnection(HOST, self.port, timeout=30)
                with lock:
                    self.statuses[status] = self.statuses.get(status, 0) + 1
            conn.close()

        workers = [threading.Thread(target=client, args=(k,), daemon=True) for k in range(self.threads)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()


def timed(server: Server, method: str, path: str, body: bytes | None = None,
          headers: dict[str, str] | None = None) -> tuple[int, float]:
    started = time.perf_counter()
    status = server.request(method, path, body, headers)[0]
    return status, (time.perf_counter() - started) * 1000


def normal_requests(server: Server, seconds: float, interval: float = 0.01) -> list[tuple[int, float]]:
    """A calm client's requests (a free-text diagnose, cache-busting), for `seconds`: (status, ms) each."""
    out = []
    deadline = time.monotonic() + seconds
    i = 0
    while time.monotonic() < deadline:
        i += 1
        body = json.dumps({"query": f"CUDA out of memory at step {i % 50 + 2} with gradient checkpointing off",
                           "context": {"batch_size": i % 8 + 1}}).encode()
        out.append(timed(server, "POST", "/v1/diagnose", body, {"Content-Type": "application/json"}))
        time.sleep(interval)
    return out


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def answer_json(raw: bytes) -> Any:
    return json.loads(raw.decode("utf-8"))
