"""Issue 12's mechanisms, each on a sentence written for the test (not a line of the real-message corpus)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from remedy.index.build import Index
from remedy.understanding.analysis import split_tokens
from remedy.understanding.matcher import understand
from remedy.understanding.pasted import read_settings


@pytest.mark.parametrize(("line", "state"), [
    ("accelerate launch train.py \\\n  --gradient_checkpointing \\\n  --lr 1e-4", True),
    ("python train.py --use_gradient_checkpointing_offload", True),
    ("--gradient_checkpointing True --bf16", True),
    ("--gradient-checkpointing=false", False),
    ("--checkpointing_steps 500 \\", None),  # a value that is no boolean: another setting
    ("gradient_checkpointing: true", True),  # a YAML entry is a setting too
])
def test_a_command_line_flag_states_gc(index: Index, line: str, state: bool | None) -> None:
    assert read_settings(line, index.matcher.settings).values.get("gradient_checkpointing") is state


@pytest.mark.parametrize(("text", "tokens"), [
    ("295s/it", ["295", "s", "it"]),
    ("2it/sec", ["2", "it", "sec"]),
    ("2hours", ["2", "hours"]),
    ("24gb", ["24gb"]),  # a size is no rate
])
def test_a_number_glued_to_a_time_unit_is_split(text: str, tokens: list[str]) -> None:
    assert split_tokens(text) == tokens


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "my system memory fills up to 60GB and the python process gets killed"),
    ("en", "it hits the page file and swap, then dies"),
    ("fr", "la mémoire virtuelle monte à 80 Go puis le processus est tué"),
    ("en", "the workflow throws OOM in the KSampler when I add my LoRA"),
    ("en", "my LLM trains at 1 token per second, so slow"),
])
def test_outside_the_guide(index: Index, lang: str, text: str) -> None:
    assert not understand(index.matcher, text, lang).ranked


@pytest.mark.parametrize(("lang", "text", "symptom"), [
    ("en", "my lora changes nothing, the outputs look the same with and without it", "weak-samples"),
    ("en", "the LoRA is overcooked and fried after 2000 steps", "weak-samples"),
    ("es", "la lora no se parece a la persona, resultados raros", "weak-samples"),
    ("en", "training 2000 steps takes 10 hours on my 4090", "slow-training"),
    ("de", "das LoRA Training dauert 5 Stunden", "slow-training"),
    ("en", "it's at 1.2it/s, is that normal?", "slow-training"),
    ("en", "64GB system RAM, 24GB VRAM, CUDA out of memory at step 2", "oom-early-steps"),
])
def test_how_real_users_write(index: Index, lang: str, text: str, symptom: str) -> None:
    ranked = [s for s in understand(index.matcher, text, lang).ranked if s.kind == "symptom"]
    assert ranked and ranked[0].id == symptom


def test_an_error_during_training_alone_is_no_oom(index: Index) -> None:
    u = understand(index.matcher, "I get an error during training, not sure what it is", "en")
    assert "oom" not in u.concepts and "crash_oom" not in u.concepts


def test_a_saved_checkpoint_is_not_gc(index: Index) -> None:
    assert "gc" not in understand(index.matcher, "how often should it be saving a checkpoint", "en").concepts


@pytest.mark.parametrize("text", [
    "Any plan to support Wan 2.2 high and low noise LoRAs? There is no option for it",
    "is Hunyuan supported?",
])
def test_search_needs_a_guide_subject(client: TestClient, text: str) -> None:
    assert client.get("/v1/search", params={"q": text, "lang": "en"}).json()["match"] == "none"
