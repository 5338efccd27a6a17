"""Start-up: load, check and compile the knowledge once. Shared by the CLI and the HTTP layer."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from .catalogs import Catalogs
from .content.checks import check_content
from .content.loader import load_content
from .content.problems import ContentProblems
from .index.build import Index, build_index
from .settings import Settings
from .understanding.caches import Caches
from .understanding.limits import WorkLimits


@dataclass(frozen=True, slots=True)
class Runtime:
    settings: Settings
    index: Index
    catalogs: Catalogs
    caches: Caches  # what understanding remembers between requests (the index stays read-only)

    @property
    def limits(self) -> WorkLimits:
        """The work caps of one text (understanding/limits.py), from the settings."""
        s = self.settings
        return WorkLimits(tokens=s.max_query_tokens, corrections=s.max_typo_candidates, log_lines=s.max_log_lines)


@contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic GC while the knowledge is built: start-up makes ~100k long-lived objects and no cyclic
    garbage (a full collection afterwards finds none), so the collections it would trigger only walk the
    same objects again and again (about 100 ms of a 2 s start-up budget)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def load_runtime(settings: Settings) -> Runtime:
    """Load everything or raise `ContentProblems` with every problem (the service must not start)."""
    with gc_paused():
        content = load_content(settings.knowledge_dir)
        problems, _ = check_content(content)
        if problems:
            raise ContentProblems(problems)
        index = build_index(content)
        catalogs = Catalogs(settings.locales_dir, index.languages, index.default_lang)
    caches = Caches(settings.word_cache_bytes, settings.rank_cache_bytes)
    return Runtime(settings, index, catalogs, caches)
