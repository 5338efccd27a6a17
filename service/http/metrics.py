"""Prometheus metrics (prometheus-client), whole across worker processes.

`remedy serve` points `PROMETHEUS_MULTIPROC_DIR` at a fresh folder before any worker starts; each worker then
writes its values there and a scrape of any worker (or of the metrics port) reads them all, so counters add
up across workers instead of jumping between scrapes. Without that variable (tests, an embedding app) the
metrics live in this app's own registry.
"""

from __future__ import annotations

import os
import platform
import resource
import time
from collections.abc import Callable, MutableMapping
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client import multiprocess as mp
from prometheus_client.process_collector import ProcessCollector

LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
SAMPLE_EVERY_SECONDS = 5.0


def multiprocess_dir() -> str | None:
    return os.environ.get(MULTIPROC_ENV) or None


def collecting_registry() -> CollectorRegistry:
    """What a scrape reads: every worker's values (multiprocess mode) and this process's `process_*` series."""
    registry = CollectorRegistry()
    mp.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    ProcessCollector(registry=registry)
    return registry


class Metrics:
    def __init__(self) -> None:
        self.multiprocess = multiprocess_dir() is not None
        # In multiprocess mode the values go to files; this registry only keeps the names unique per app.
        self.registry = CollectorRegistry(auto_describe=True)
        self.requests = Counter(
            "remedy_requests_total", "HTTP requests by route, method and status (499: the client went away).",
            ("route", "method", "status"), registry=self.registry,
        )
        self.latency = Histogram(
            "remedy_request_duration_seconds", "Time to answer, by route.", ("route",),
            buckets=LATENCY_BUCKETS, registry=self.registry,
        )
        self.matches = Counter(
            "remedy_match_total", "Free-text outcomes by endpoint, answer language and match "
            "(the no-match rate is match=\"none\" over all).", ("endpoint", "lang", "match"), registry=self.registry,
        )
        self.cache = Counter(
            "remedy_response_cache_total", "Computed answers served from the response cache, or not.", ("result",),
            registry=self.registry,
        )
        self.build = Gauge(
            "remedy_build_info", "1, labelled with the version, the knowledge revision and the Python version.",
            ("version", "knowledge_revision", "python"), registry=self.registry, multiprocess_mode="max",
        )
        self.worker_rss = Gauge(
            "remedy_worker_resident_memory_bytes", "Resident memory of each worker (pid label when several), "
            "sampled at most every 5 s while it serves.", registry=self.registry, multiprocess_mode="all",
        )
        self.worker_cpu = Gauge(
            "remedy_worker_cpu_seconds", "CPU time used by each worker so far (user + system).",
            registry=self.registry, multiprocess_mode="all",
        )
        self.lane_rss = Gauge(
            "remedy_heavy_lane_resident_memory_bytes", "Resident memory of each worker's heavy-lane process "
            "(REMEDY_HEAVY_LANE=process; 0 while none is up), sampled with the worker's.", registry=self.registry,
            multiprocess_mode="all",
        )
        self.lane_pid: Callable[[], int | None] = lambda: None  # the worker's heavy-lane child, if any
        self._sampled = 0.0
        if not self.multiprocess:
            ProcessCollector(registry=self.registry)

    def set_build(self, version: str, knowledge_revision: str) -> None:
        self.build.labels(version, knowledge_revision, platform.python_version()).set(1)

    def sample_process(self, now: bool = False) -> None:
        """This worker's memory and CPU (and its heavy-lane child's), at most every few seconds (called after
        requests), or `now` (at scrapes, and when the heavy-lane child has come up)."""
        started = time.monotonic()
        if not now and started - self._sampled < SAMPLE_EVERY_SECONDS and self._sampled:
            return
        self._sampled = started
        usage = resource.getrusage(resource.RUSAGE_SELF)
        self.worker_cpu.set(usage.ru_utime + usage.ru_stime)
        self.worker_rss.set(resident_bytes())
        pid = self.lane_pid()
        self.lane_rss.set(resident_bytes(pid) if pid is not None else 0)

    def render(self) -> bytes:
        self.sample_process(now=True)
        return generate_latest(collecting_registry() if self.multiprocess else self.registry)

    def count_match(self, scope: MutableMapping[str, Any], endpoint: str, lang: str, match: str) -> None:
        """Count a free-text outcome, and note it in the request scope so that the response cache counts it
        again each time it serves the same answer (the metric is per answer served, cached or not)."""
        self.matches.labels(endpoint, lang, match).inc()
        scope[MATCH_SCOPE_KEY] = (endpoint, lang, match)


def resident_bytes(pid: int | None = None) -> int:
    """Current resident set size of this process, or of its child `pid` (Linux /proc). Elsewhere this process's
    peak from getrusage, and 0 for a child (unknown, and a gone child holds nothing)."""
    try:
        with open(f"/proc/{pid or 'self'}/statm", encoding="ascii") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return 0 if pid is not None else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


MATCH_SCOPE_KEY = "remedy.match"
