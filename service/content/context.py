"""The diagnosis context: what is known about the failing job (PRODUCT.md §6).

The same object is accepted in requests, filled from configs and free text, and returned in answers.
Every field is optional: unknown is a normal state, and the rules treat it explicitly.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

Phase = Literal["loading", "caching", "sampling", "training", "saving"]
PositiveInt = Annotated[int, Field(ge=1, le=1_000_000)]
Resolution = Annotated[int, Field(ge=64, le=16_384)]


class Context(BaseModel):
    """What is known about the job. Unknown fields are left out (null)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    model_family: str | None = Field(None, description="Model family id: z-image, qwen-edit, flux or other.")
    model_arch: str | None = Field(None, max_length=100, description="AI Toolkit `model.arch`, e.g. `zimage:turbo`.")
    gradient_checkpointing: bool | None = Field(None, description="`train.gradient_checkpointing`.")
    batch_size: PositiveInt | None = Field(None, description="Effective batch size.")
    gradient_accumulation: PositiveInt | None = None
    resolutions: tuple[Resolution, ...] | None = Field(
        None, max_length=32, description="Resolution buckets, e.g. [512, 768, 1024]."
    )
    num_frames: PositiveInt | None = Field(None, description="Frames per sample; more than 1 means video.")
    control_images: Annotated[int, Field(ge=0, le=64)] | None = Field(
        None, description="Conditioning (control) images per sample."
    )
    sample_width: PositiveInt | None = None
    sample_height: PositiveInt | None = None
    sample_steps: PositiveInt | None = None
    sample_every: PositiveInt | None = None
    sampling_disabled: bool | None = None
    low_vram: bool | None = None
    quantize: bool | None = None
    step: Annotated[int, Field(ge=0, le=100_000_000)] | None = Field(None, description="Step at which it failed.")
    phase: Phase | None = Field(None, description="What the job was doing when it failed.")


CONTEXT_FIELDS: tuple[str, ...] = tuple(Context.model_fields)

# Facts derived from a context that rules may test besides its own fields, and the input each comes from.
DERIVED_FIELDS: dict[str, str] = {
    "family": "model_family",
    "max_resolution": "resolutions",
    "bucket_count": "resolutions",
    # facts of a plan (structure/steps.yaml checks and details)
    "safe_batch": "model_family",  # the family's safest first Batch Size
    "target_batch": "batch_size",  # the Batch Size the batch step suggests
    "risk_if_gc_off": "gradient_checkpointing",  # the risk level the job would have with GC off
    # facts of a config check (structure/findings.yaml)
    "risk_level": "gradient_checkpointing",
    "batch_above_safe": "batch_size",
    "sample_area": "sample_width",
    "sample_frames": "sample_width",
    "sample_count": "sample_every",
}

# Facts a config check always knows: the config reader applies AI Toolkit's defaults, so these are never unknown
# (service/jobconfig/reader.py; a test holds the reader to it). A finding's text may name them unconditionally;
# the model family, say, is known only when its condition proves it.
CHECK_FACTS: tuple[str, ...] = (
    "gradient_checkpointing", "batch_size", "gradient_accumulation", "num_frames", "control_images",
    "sample_width", "sample_height", "sample_steps", "sample_every", "sampling_disabled", "low_vram", "quantize",
    "max_resolution", "bucket_count", "risk_level", "batch_above_safe", "sample_area", "sample_frames", "sample_count",
)

# Placeholders of step, reason and risk texts that are not a fact of the same name, and the fact each is filled
# from (rendering/diagnosis.py `fill_values`): a text may use one only where its condition makes that fact known.
PLACEHOLDERS: dict[str, str] = {
    "family": "family",  # the family's localized name
    "high_risk": "family",  # its risk-table cells: "High risk with GC off" ...
    "safe_attempt": "family",  # ... and "Safest first attempt"
    "kept": "bucket_count",  # the buckets kept by the bucket step (all but the largest) ...
    "dropped": "bucket_count",  # ... and the one dropped
}

# Contradictions between the layers of a diagnosis (text < config < explicit context), by the two layers: the
# answer uses the later one. Their texts: text/<lang>/rules.yaml `conflicts.<id>`.
LAYER_CONFLICTS: tuple[str, ...] = ("config-over-text", "context-over-text", "context-over-config")

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
    "one_bucket",  # the text states a single training resolution ("resolution 1024"): no bucket can spike
    "question",  # the text asks a question
    "on_or_off",  # ... whether something should be on or off ("on or off?", "an oder aus")
    "two_families",  # it names two model families or more (a comparison: "Qwen Edit or Flux?")
)
