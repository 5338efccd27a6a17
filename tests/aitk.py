"""AI Toolkit's example job configs (the project's copy under tests/fixtures/aitk-configs) and ways to mutate them."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

Process = dict[str, Any]
Mutation = Callable[[Process], None]

CHROMA = "train_lora_chroma_24gb.yaml"
FLEX = "train_lora_flex_24gb.yaml"
FLUX = "train_lora_flux_24gb.yaml"
QWEN = "train_lora_qwen_image_edit_32gb.yaml"
WAN = "train_lora_wan21_1b_24gb.yaml"
OMNIGEN2 = "train_lora_omnigen2_24gb.yaml"  # broken on purpose: an unterminated quote
EXTRACT = "extract.example.yml"  # not a training job
PUBLISHED = [CHROMA, FLEX, FLUX, QWEN, WAN]


def config_text(shared: Path, name: str) -> str:
    return (shared / "aitk-configs" / name).read_text(encoding="utf-8")


def load_config(shared: Path, name: str, *mutations: Mutation) -> dict[str, Any]:
    """A fresh copy of a shared config with `mutations` applied to its first process."""
    data = copy.deepcopy(yaml.safe_load(config_text(shared, name)))
    assert isinstance(data, dict)
    for mutate in mutations:
        mutate(data["config"]["process"][0])
    return data


def train(**values: Any) -> Mutation:
    def mutate(proc: Process) -> None:
        proc["train"].update(values)

    return mutate


def dataset(i: int = 0, **values: Any) -> Mutation:
    def mutate(proc: Process) -> None:
        proc["datasets"][i].update(values)

    return mutate


def model(**values: Any) -> Mutation:
    def mutate(proc: Process) -> None:
        proc["model"].update(values)

    return mutate
