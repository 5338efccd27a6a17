"""The diagnosis context: what is known about the failing job (PRODUCT.md §6).

The same object is accepted in requests, filled from configs and free text, and returned in answers.
Every field is optional: unknown is a normal state, and the rules treat it explicitly.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

Phase = Literal["loading", "caching", "sampling", "training", "saving"]
# Strict: a request's `true` or `"2"` is not taken as a number, nor `1` or `"yes"` as a switch (issue 13).
PositiveInt = Annotated[int, Field(ge=1, le=1_000_000, strict=True)]
Resolution = Annotated[int, Field(ge=64, le=16_384, strict=True)]
Switch = Annotated[bool, Field(strict=True)]


class Context(BaseModel):
    """What is known about the job. Unknown fields are left out (null)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    model_family: str | None = Field(None, description="Model family id: z-image, qwen-edit, flux or other.")
    model_arch: str | None = Field(None, max_length=100, description="AI Toolkit `model.arch`, e.g. `zimage:turbo`.")
    gradient_checkpointing: Switch | None = Field(None, description="`train.gradient_checkpointing`.")
    batch_size: PositiveInt | None = Field(None, description="Effective batch size.")
    gradient_accumulation: PositiveInt | None = None
    resolutions: tuple[Resolution, ...] | None = Field(
        None, max_length=32, description="Resolution buckets, e.g. [512, 768, 1024]."
    )
    num_frames: PositiveInt | None = Field(None, description="Frames per sample; more than 1 means video.")
    control_images: Annotated[int, Field(ge=0, le=64, strict=True)] | None = Field(
        None, description="Conditioning (control) images per sample."
    )
    sample_width: PositiveInt | None = None
    sample_height: PositiveInt | None = None
    sample_steps: PositiveInt | None = None
    sample_every: PositiveInt | None = None
    sampling_disabled: Switch | None = None
    low_vram: Switch | None = None
    quantize: Switch | None = None
    step: Annotated[int, Field(ge=0, le=100_000_000, strict=True)] | None = Field(
        None, description="Step at which it failed."
    )
    phase: Phase | None = Field(None, description="What the job was doing when it failed.")


CONTEXT_FIELDS: tuple[str, ...] = tuple(Context.model_fields)

# Facts derived from a context that rules may test besides its own fields, and the input each comes from.
DERIVED_FIELDS: dict[str, str] = {
    "family": "model_family",
    "max_resolution": "resolutions",
    "bucket_count": "resolutions",
    # facts of a config check (structure/findings.yaml)
    "risk_level": "gradient_checkpointing",
    "batch_above_safe": "batch_size",
    "sample_area": "sample_width",
    "sample_frames": "sample_width",
    "sample_count": "sample_every",
}

# Facts about a query, besides its concepts, that intents may weigh (computed by the matcher).
MATCH_FEATURES: tuple[str, ...] = (
    "gc_on",  # the text says gradient checkpointing is on
    "gc_off",  # ... is off
    "early_step",  # it failed at a step number of 10 or less
    "late_step",  # it failed at a later step
    "log_training",  # a pasted log shows training progress (a step count)
    "log_gpu_oom",  # a pasted log shows a GPU out-of-memory
    "log_sampling",  # ... while generating samples
    "log_baseline",  # ... the baseline samples before training
    "log_other_process",  # ... with another process holding VRAM
    "big_bucket",  # a resolution of 1024 or more is named
    "question",  # the text asks a question
    "on_or_off",  # ... whether something should be on or off ("on or off?", "an oder aus")
    "two_families",  # it names two model families or more (a comparison: "Qwen Edit or Flux?")
)
