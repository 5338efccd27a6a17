"""Prometheus metrics of one worker (prometheus-client), on a registry of the app's own."""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest

LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.requests = Counter(
            "remedy_requests_total", "HTTP requests by route, method and status.",
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

    def render(self) -> bytes:
        return generate_latest(self.registry)

    def count_match(self, scope: MutableMapping[str, Any], endpoint: str, lang: str, match: str) -> None:
        """Count a free-text outcome, and note it in the request scope so that the response cache counts it
        again each time it serves the same answer (the metric is per answer served, cached or not)."""
        self.matches.labels(endpoint, lang, match).inc()
        scope[MATCH_SCOPE_KEY] = (endpoint, lang, match)


MATCH_SCOPE_KEY = "remedy.match"
