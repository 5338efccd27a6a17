"""An AI Toolkit job config -> the effective values the trainer would use, and where each one lives.

Follows ostris/ai-toolkit's own reading (toolkit/config_modules.py, toolkit/data_loader.py,
jobs/process/BaseProcess.py): a section (`train`, `model`, `sample`) that is absent or null is `{}`, anything
else that is not a mapping stops the trainer; a key that is absent takes the trainer's default
(`gradient_checkpointing` true, `batch_size` 1, `resolution` 512, sample 512x512 with 20 steps every 100) but a
key set to null is None (`kwargs.get(key, default)`), and a switch is read with Python's truthiness (`if
train_config.gradient_checkpointing:`), so `gradient_checkpointing: ~` is off and the quoted string `'no'` is on;
a dataset-level `batch_size` overrides `train.batch_size`, `resolution` is a number or a list, `arch` may carry
a `:tag`, the legacy flags (`is_v3: true`, `is_flux: true`) name the arch in the trainer's order, `num_frames`
> 1 means video, and `control_path` (a path or a list) plus `control_path_1..3` are conditioning images.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from ..content.context import Context
from ..errors import InvalidConfig, NotATrainingJob

TRAINING_JOBS = frozenset({"extension", "train"})
DEFAULTS: dict[str, Any] = {
    "gradient_checkpointing": True,
    "batch_size": 1,
    "resolution": 512,
    "num_frames": 1,
    "sample_width": 512,
    "sample_height": 512,
    "sample_steps": 20,
    "sample_every": 100,
    "disable_sampling": False,
    "low_vram": False,
    "quantize": False,
}


@dataclass(frozen=True, slots=True)
class Located:
    """Where a value lives in the submitted config, and its value there (the default when absent)."""

    path: str
    value: Any
    present: bool


@dataclass(frozen=True, slots=True)
class JobView:
    name: str | None
    process_index: int
    context: Context
    facts: dict[str, Any]
    locations: dict[str, Located] = field(default_factory=dict)


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, list | tuple) else [value]


# The trainer's legacy flags under `model:`, in the order it tests them, and the arch each one means
# (toolkit/config_modules.py, ModelConfig: `if self.arch is None: if kwargs.get('is_v2', False): ...`).
LEGACY_ARCH: tuple[tuple[str, str], ...] = (
    ("is_v2", "sd2"), ("is_v3", "sd3"), ("is_xl", "sdxl"), ("is_pixart", "pixart"),
    ("is_pixart_sigma", "pixart_sigma"), ("is_auraflow", "auraflow"), ("is_flux", "flux"),
    ("is_lumina2", "lumina2"), ("is_vega", "vega"), ("is_ssd", "ssd"),
)


def _truth(value: Any) -> bool:
    """A switch as the trainer reads it: Python's truthiness (`if self.train_config.gradient_checkpointing:`).
    YAML has already turned unquoted `no` / `off` into false; a quoted `'no'` is a non-empty string, so on.

    >>> _truth(None), _truth("no"), _truth(0), _truth("false"), _truth(True)
    (False, True, False, True, True)
    """
    return bool(value)


def _section(proc: Mapping[str, Any], key: str, base: str) -> Mapping[str, Any]:
    """`get_conf(key, {})`: absent or null is `{}`; a list or a scalar would stop the trainer (`Config(**value)`)."""
    value = proc.get(key)
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise InvalidConfig(reason=f"`{base}.{key}` must be a mapping, not {type(value).__name__}")
    return value


def _training_process(config: Mapping[str, Any]) -> tuple[int, Mapping[str, Any]]:
    processes = config.get("process")
    if not isinstance(processes, list) or not processes:
        raise InvalidConfig(reason="`config.process` is missing or empty")
    for i, proc in enumerate(processes):
        if isinstance(proc, Mapping) and ("train" in proc or str(proc.get("type", "")).endswith("trainer")):
            if "train" in proc and proc["train"] is not None and not isinstance(proc["train"], Mapping):
                raise InvalidConfig(reason=f"`config.process[{i}].train` must be a mapping, not "
                                           f"{type(proc['train']).__name__}")
            return i, proc
    raise InvalidConfig(reason="no entry of `config.process` has a `train` section")


def read_job(data: Any, flag_arch: Mapping[str, str] | None = None) -> JobView:
    """The training process of a job config, as the trainer would run it. Long on purpose: it reads the config
    field by field in the trainer's own order and defaults (each line can be checked against AI Toolkit's
    code), and every field records where it was found."""
    if not isinstance(data, Mapping):
        raise InvalidConfig(reason="the document is not a mapping")
    job = data.get("job")
    if isinstance(job, str) and job not in TRAINING_JOBS:
        raise NotATrainingJob(job=job[:40])
    config = _mapping(data.get("config"))
    if not config:
        raise InvalidConfig(reason="`config` is missing")
    i, proc = _training_process(config)
    base = f"config.process[{i}]"
    train, model, sample = (_section(proc, key, base) for key in ("train", "model", "sample"))
    datasets = [d for d in _as_list(proc.get("datasets")) if isinstance(d, Mapping)]
    loc: dict[str, Located] = {}

    def at(key: str, section: Mapping[str, Any], path: str, default: Any, switch: bool = False) -> Any:
        """`kwargs.get(key, default)`: a key set to null is None, not the default."""
        present = key in section
        value = section[key] if present else default
        if switch:
            value = _truth(value)
        elif value is None:
            raise InvalidConfig(reason=f"{path}.{key} is null: the trainer needs a whole number")
        loc_key = key if not path.endswith(".sample") else f"sample_{key}"
        loc[loc_key] = Located(f"{path}.{key}", value, present)
        return value

    gc = at("gradient_checkpointing", train, f"{base}.train", True, switch=True)
    train_batch = _int(at("batch_size", train, f"{base}.train", DEFAULTS["batch_size"]), f"{base}.train.batch_size")
    resolutions: set[int] = set()
    frames, controls, best_res, best_frames = 1, 0, 0, 1
    # Each dataset runs at its own batch size when it sets one, else at train.batch_size: the job's
    # effective batch is the largest of those (toolkit/data_loader.py).
    batch: int | None = None
    per_dataset: list[tuple[int, ...]] = []
    for j, ds in enumerate(datasets):
        ds_path = f"{base}.datasets[{j}]"
        ds_batch = ds.get("batch_size")
        effective = _int(ds_batch, f"{ds_path}.batch_size") if ds_batch is not None else train_batch
        if batch is None or effective > batch:
            batch = effective
            if ds_batch is not None:
                loc["batch_size"] = Located(f"{ds_path}.batch_size", ds_batch, True)
            else:
                loc["batch_size"] = Located(f"{base}.train.batch_size", train_batch, "batch_size" in train)
        sizes = [_int(r, f"{ds_path}.resolution") for r in _as_list(ds.get("resolution", DEFAULTS["resolution"]))]
        resolutions.update(sizes)
        per_dataset.append(tuple(sizes))
        if sizes and max(sizes) > best_res:
            best_res = max(sizes)
            loc["resolutions"] = Located(f"{ds_path}.resolution", ds.get("resolution", DEFAULTS["resolution"]),
                                         "resolution" in ds)
        ds_frames = _int(ds.get("num_frames", 1), f"{ds_path}.num_frames")
        if ds_frames > best_frames or "num_frames" not in loc:
            best_frames = max(best_frames, ds_frames)
            loc["num_frames"] = Located(f"{ds_path}.num_frames", ds_frames, "num_frames" in ds)
        frames = max(frames, ds_frames)
        paths = _as_list(ds.get("control_path")) + [ds.get(f"control_path_{k}") for k in (1, 2, 3)]
        controls = max(controls, len([p for p in paths if p]))
    if not datasets:
        resolutions.add(DEFAULTS["resolution"])
    if batch is None:
        batch = train_batch

    arch = model.get("arch")
    arch = str(arch) if arch else None
    if arch is None:
        # The trainer's order, first true flag wins; the knowledge may name a flag's arch (families.yaml).
        flags = dict(LEGACY_ARCH) | dict(flag_arch or {})
        arch = next((flags[flag] for flag, _ in LEGACY_ARCH if _truth(model.get(flag, False))), None)
        if arch is None:
            arch = next((name for flag, name in (flag_arch or {}).items() if _truth(model.get(flag, False))), None)
    low_vram = at("low_vram", model, f"{base}.model", False, switch=True)
    quantize = _truth(model.get("quantize", False))
    width = at("width", sample, f"{base}.sample", DEFAULTS["sample_width"])
    height = at("height", sample, f"{base}.sample", DEFAULTS["sample_height"])
    steps = at("sample_steps", sample, f"{base}.sample", DEFAULTS["sample_steps"])
    every = at("sample_every", sample, f"{base}.sample", DEFAULTS["sample_every"])
    disabled = at("disable_sampling", train, f"{base}.train", False, switch=True)
    loc["sample"] = Located(f"{base}.sample", {"width": width, "height": height, "sample_steps": steps,
                                               "sample_every": every}, bool(sample))
    # `gradient_accumulation` and `gradient_accumulation_steps` both default to 1; they may not both be set.
    accumulation = _int(train.get("gradient_accumulation", 1), f"{base}.train.gradient_accumulation")
    if accumulation == 1:
        accumulation = _int(train.get("gradient_accumulation_steps", 1), f"{base}.train.gradient_accumulation_steps")

    raw = {
        "model_arch": arch,
        "gradient_checkpointing": gc,
        "batch_size": batch,
        "gradient_accumulation": accumulation,
        "resolutions": sorted(resolutions),
        "num_frames": frames,
        "control_images": controls,
        "sample_width": width,
        "sample_height": height,
        "sample_steps": steps,
        "sample_every": every,
        "sampling_disabled": disabled,
        "low_vram": low_vram,
        "quantize": quantize,
    }
    try:
        context = Context.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = loc.get(str(err["loc"][0]))
        raise InvalidConfig(reason=f"{where.path if where else err['loc'][0]}: {err['msg']}") from None
    sample_frames = _int(sample.get("num_frames", 1), f"{base}.sample.num_frames")
    samples = _as_list(sample.get("samples")) or _as_list(sample.get("prompts"))
    facts = {
        "sample_area": int(width) * int(height) if isinstance(width, int) and isinstance(height, int) else None,
        "sample_frames": sample_frames,
        "sample_count": len(samples),
        "dataset_resolutions": tuple(per_dataset),
    }
    name = _mapping(data.get("config")).get("name")
    return JobView(str(name) if name is not None else None, i, context, facts, loc)


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidConfig(reason=f"{where} must be a whole number, not {str(value)[:40]!r}")
    return value
