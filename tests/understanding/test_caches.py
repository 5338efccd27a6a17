"""The memo tables of understanding: owned by the runtime, bounded in bytes, and never part of an answer."""

from __future__ import annotations

import yaml

from remedy.index.build import Index
from remedy.runtime import Runtime
from remedy.settings import ROOT
from remedy.understanding.caches import RANK_TABLES, Caches, Memo, estimate_bytes
from remedy.understanding.matcher import understand


def test_a_memo_never_holds_more_than_its_bytes() -> None:
    memo: Memo[str, tuple[str, ...]] = Memo(4_096)
    for i in range(1_000):
        memo.put(f"word{i}", (f"form{i}",) * 6)
        assert memo.bytes <= 4_096
    assert 0 < len(memo) < 1_000 and memo.get("word999") == ("form999",) * 6  # the newest is kept
    assert memo.get("word0") is None  # the oldest went


def test_a_bound_of_zero_keeps_nothing_and_a_value_too_large_is_not_kept() -> None:
    off: Memo[str, str] = Memo(0)
    off.put("a", "b")
    assert off.get("a") is None and len(off) == 0
    small: Memo[str, str] = Memo(100)
    small.put("a", "x" * 500)
    assert small.get("a") is None and small.bytes == 0


def test_the_entry_size_counts_keys_and_values() -> None:
    memo: Memo[str, str] = Memo(1 << 20)
    memo.put("key", "value")
    assert memo.bytes == estimate_bytes("key") + estimate_bytes("value")


def test_the_caches_belong_to_the_runtime_not_the_index(runtime: Runtime, index: Index) -> None:
    assert isinstance(runtime.caches, Caches)
    assert all(memo.max_bytes == runtime.settings.word_cache_bytes
               for name, memo in runtime.caches.tables().items() if name not in RANK_TABLES | {"stems"})
    assert all(runtime.caches.tables()[name].max_bytes == runtime.settings.rank_cache_bytes for name in RANK_TABLES)
    assert runtime.caches.stems.max_bytes == 0  # a stem costs less to compute than to remember
    assert not any(isinstance(v, Memo) for v in vars(index.matcher.analyzer).values())


def test_what_is_remembered_never_changes_an_understanding(index: Index) -> None:
    items = yaml.safe_load((ROOT / "tests" / "understanding" / "queries.yaml").read_text(encoding="utf-8"))
    caches = Caches()
    for _ in range(2):  # the second pass is served from the memo tables
        for item in items[::3]:
            assert understand(index.matcher, item["q"], item["lang"], caches) == understand(
                index.matcher, item["q"], item["lang"]
            ), item["q"]
    answers = RANK_TABLES - {"eligible"}  # a plan's needs, a search hit, a question: filled by answers, not here
    assert all(len(memo) for name, memo in caches.tables().items() if name not in answers | {"stems"})


def test_what_is_remembered_never_changes_an_answer(runtime: Runtime) -> None:
    from remedy.answers import answer_diagnosis, answer_search
    from remedy.catalogs import Negotiated

    items = yaml.safe_load((ROOT / "tests" / "understanding" / "queries.yaml").read_text(encoding="utf-8"))
    index, catalogs, caches = runtime.index, runtime.catalogs, Caches()
    for _ in range(2):  # the second pass is served from the memo tables
        for item in items[::5]:
            neg = Negotiated(item["lang"], None, None)
            assert answer_diagnosis(index, catalogs, neg, query=item["q"], caches=caches) == answer_diagnosis(
                index, catalogs, neg, query=item["q"]), item["q"]
            assert answer_search(index, catalogs, neg, item["q"], 10, caches=caches) == answer_search(
                index, catalogs, neg, item["q"], 10), item["q"]
    assert len(caches.needs) and len(caches.hits) and len(caches.questions)
