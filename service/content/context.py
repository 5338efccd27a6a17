"""The diagnosis context: what is known about the failing job (PRODUCT.md §6).

The same object is accepted in requests, filled from configs and free text, and returned in answers.
Every field is optional: unknown is a normal state, and the rules treat it explicitly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

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



@dataclass(frozen=True, slots=True)
class FactInputs:
    """What derived facts are computed from: a context, and for a config check what else it knows."""

    context: Context
    config: Mapping[str, Any] = field(default_factory=dict)  # measured by the config reader (`JobView.facts`)
    safe_batch: int | None = None  # the job's family's safe batch size (config check)
    risk_level: str | None = None  # the risk assessed from the facts before it (config check)


@dataclass(frozen=True, slots=True)
class Derived:
    """A fact rules may test besides the context's own fields."""

    reads: str  # the input it comes from: a rule testing it depends on that field
    compute: Callable[[FactInputs], Any] | None  # None: computed by the engine where the stage says
    # When it is known: from any context; in a config check; in a config check once its risk is assessed; in a
    # plan (engine/plan.py).
    stage: Literal["context", "check", "risk", "plan"] = "context"


def _max_resolution(f: FactInputs) -> int | None:
    return max(f.context.resolutions) if f.context.resolutions else None


def _bucket_count(f: FactInputs) -> int | None:
    return len(set(f.context.resolutions)) if f.context.resolutions else None


def _sample_area(f: FactInputs) -> int | None:
    width, height = f.context.sample_width, f.context.sample_height
    return width * height if width is not None and height is not None else f.config.get("sample_area")


def _batch_above_safe(f: FactInputs) -> bool:
    batch = f.context.batch_size
    return batch is not None and f.safe_batch is not None and batch > f.safe_batch


# Every derived fact and the function that computes it, in the order they are computed. Adding one: an entry
# here (a fact of the config reader goes in `JobView.facts` too), then use it in a rule.
DERIVED: dict[str, Derived] = {
    "family": Derived("model_family", lambda f: f.context.model_family),
    "max_resolution": Derived("resolutions", _max_resolution),
    "bucket_count": Derived("resolutions", _bucket_count),
    # facts of a config check (structure/findings.yaml)
    "sample_area": Derived("sample_width", _sample_area),
    "sample_frames": Derived("sample_width", lambda f: f.config.get("sample_frames"), "check"),
    "sample_count": Derived("sample_every", lambda f: f.config.get("sample_count"), "check"),
    "batch_above_safe": Derived("batch_size", _batch_above_safe, "check"),
    "risk_level": Derived("gradient_checkpointing", lambda f: f.risk_level, "risk"),
    # facts of a plan (structure/steps.yaml details and checks), computed by engine/facts.py `derive` and
    # engine/plan.py `plan_facts` on the facts themselves, since `needs` plans again under many values
    "safe_batch": Derived("model_family", None, "plan"),  # the family's safest first Batch Size
    "target_batch": Derived("batch_size", None, "plan"),  # the Batch Size the batch step suggests
    "risk_if_gc_off": Derived("gradient_checkpointing", None, "plan"),  # the job's risk level with GC off
}
# Facts derived from a context that rules may test besides its own fields, and the input each comes from.
DERIVED_FIELDS: dict[str, str] = {name: d.reads for name, d in DERIVED.items()}

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

