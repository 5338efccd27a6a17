"""The ids the understanding code reads by name are declared where the start-up check looks for them."""

from __future__ import annotations

import ast
from pathlib import Path

from remedy.index.build import Index
from remedy.understanding.ids import CONCEPTS_READ, id_problems

UNDERSTANDING = Path(__file__).resolve().parents[2] / "service" / "understanding"


def test_the_concepts_read_by_name_are_those_declared_in_ids(index: Index) -> None:
    # Every string literal of the understanding code that is a concept id is one the code reads by name
    # (`spans.get("step")`): it must be in `CONCEPTS_READ`, which start-up checks against concepts.yaml.
    concepts = set(index.content.concepts)
    found: dict[str, set[str]] = {}
    for path in sorted(UNDERSTANDING.glob("*.py")):
        if path.name.startswith("log") or path.name in ("ids.py", "features.py"):
            continue  # log words and signal data keys ("step", "baseline") are not concepts
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in concepts:
                found.setdefault(node.value, set()).add(path.name)
    assert set(found) == set(CONCEPTS_READ), found


def test_the_real_knowledge_and_code_agree_on_every_id(index: Index) -> None:
    assert id_problems(index.content) == []


def test_no_log_feature_holds_without_a_log_signal(index: Index) -> None:
    # `features_of` skips the log features of a text with no log signal: each needs one.
    from remedy.understanding.extract import Stated
    from remedy.understanding.features import FEATURES, LOG_FEATURES, FeatureInput
    from remedy.understanding.logs import LogReading

    bare = LogReading(signals=(), gpu_oom=False, not_gpu_oom=None, step=None, total_steps=None, phase="sampling",
                      seconds_per_step=5.0)
    f = FeatureInput("oom?", Stated(step=3, gradient_checkpointing=True), bare, 2)
    assert {
        "log_gpu_oom", "log_training", "log_rate", "log_sampling", "log_baseline", "log_other_process", "log_inference",
    } == LOG_FEATURES
    assert not any(FEATURES[name](f) for name in LOG_FEATURES)
