"""Models of other trainers' pasted settings (content layer): `structure/settings.yaml`, the keys of their configs,
command lines and env files and the fact each states (read by `understanding/pasted.py`)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, StringConstraints, model_validator

from .base_models import FROZEN, Id
from .sentence_models import Key


class _Frozen(BaseModel):
    model_config = FROZEN

SettingName = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$", max_length=64)]
SettingValue = Annotated[str, StringConstraints(pattern=r"^[a-z0-9_]+$", max_length=32)]


class PastedSetting(_Frozen):
    """Keys of other trainers' configs and command lines that state one fact (`structure/settings.yaml`)."""

    fact: Literal[
        "gradient_checkpointing", "batch_size", "gradient_accumulation", "resolutions", "num_frames", "sample_every",
        "sample_steps", "sampling_disabled", "low_vram", "model_family", "none",
    ]
    kind: Literal["switch", "count", "sizes", "name", "none"]
    keys: tuple[SettingName, ...]
    concept: Key | None = None  # the concept the key's own word keeps
    family: Id | None = None  # a switch that picks this model family when on
    list: bool = False  # sizes: the value is a list of buckets in every form (not a width and a height)
    side: bool = False  # sizes: one side of the training size (`--height 480 --width 832`: the larger is the size)

    @model_validator(mode="after")
    def _kind_fits(self) -> PastedSetting:
        if (self.fact == "none") != (self.kind == "none"):
            raise ValueError("a setting states nothing (`fact: none`) exactly when its kind is `none`")
        if (self.family is not None) != (self.fact == "model_family" and self.kind == "switch"):
            raise ValueError("`family` is given exactly for a switch that picks a model family")
        if self.side and (self.kind != "sizes" or self.list):
            raise ValueError("`side` is given only for sizes that are no list of buckets")
        return self


class PrintedSetting(_Frozen):
    """The labels a trainer's log prints one setting's value after (`batch size per device / バッチサイズ: 2`)."""

    fact: Literal["batch_size", "gradient_accumulation"]
    labels: tuple[Annotated[str, StringConstraints(pattern=r"^[a-z][a-z ]*[a-z]$", max_length=64)], ...]


class PastedSettings(_Frozen):
    """`structure/settings.yaml`: how a switch's value reads, the keys of every fact, the settings a log prints."""

    on_values: tuple[SettingValue, ...]
    off_values: tuple[SettingValue, ...]
    settings: tuple[PastedSetting, ...]
    printed: tuple[PrintedSetting, ...] = ()
    named: tuple[Key, ...] = ()  # the concepts a pasted name's words tell wherever it is (the program, the model)
