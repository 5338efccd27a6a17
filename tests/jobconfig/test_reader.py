"""The job-config reader reads AI Toolkit configs as the trainer does (PRODUCT.md §4, §6).

The example configs under `tests/fixtures/aitk-configs/` are read in place; mutations load one with
`yaml.safe_load`, change the dict and submit it as an object or as `yaml.safe_dump` text.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from remedy.answers import read_config
from remedy.content.context import CHECK_FACTS
from remedy.engine.check import job_facts
from remedy.engine.facts import resolve_context
from remedy.errors import (
    InvalidConfig,
    InvalidYaml,
    NotATrainingJob,
    PayloadTooLarge,
    RemedyError,
    YamlTooComplex,
    YamlUnsafeTag,
)
from remedy.index.build import Index
from remedy.jobconfig.reader import JobView, read_job
from remedy.jobconfig.yamltext import MAX_CHARS, load_yaml_text
from tests.aitk import EXTRACT, FLUX, OMNIGEN2, QWEN, WAN, Mutation, Process, config_text, dataset, load_config

GC_PATH = "config.process[0].train.gradient_checkpointing"

# (file, model_arch, family, resolutions, control_images, low_vram, quantize): every published training config
# except the broken OmniGen2 one. Common to all of them: GC on, batch 1, one frame.
PUBLISHED = [
    ("train_lora_chroma_24gb.yaml", "chroma", "flux", (512, 768, 1024), 0, False, True),
    ("train_lora_flex_24gb.yaml", "flux", "flux", (512, 768, 1024), 0, False, True),
    (FLUX, "flux", "flux", (512, 768, 1024), 0, False, True),
    (QWEN, "qwen_image_edit", "qwen-edit", (512, 768, 1024), 1, True, True),
    (WAN, "wan21", "other", (632,), 0, False, False),
]


# --- helpers -------------------------------------------------------------------------------------------------


def config_path(shared: Path, name: str) -> Path:
    return shared / "aitk-configs" / name


def mutated(shared: Path, name: str, *mutations: Mutation) -> dict[str, Any]:
    """A shared config with its first process changed by each mutation in turn."""
    data = copy.deepcopy(load_config(shared, name))
    for mutate in mutations:
        mutate(data["config"]["process"][0])
    return data


def submit(index: Index, data: Any, form: str) -> JobView:
    """Read a config the way the API does: as an object, or as YAML text."""
    view = read_config(index, data, None) if form == "object" else read_config(index, None, yaml.safe_dump(data))
    assert view is not None
    return view


def read_text(index: Index, text: str) -> JobView:
    view = read_config(index, None, text)
    assert view is not None
    return view


def family(index: Index, view: JobView) -> str | None:
    return resolve_context(index, view.context).model_family


def set_in(section: str, **values: Any) -> Mutation:
    def mutate(proc: Process) -> None:
        proc.setdefault(section, {}).update(values)

    return mutate


def drop(section: str, key: str) -> Mutation:
    def mutate(proc: Process) -> None:
        del proc[section][key]

    return mutate


def drop_dataset_key(key: str, i: int = 0) -> Mutation:
    def mutate(proc: Process) -> None:
        del proc["datasets"][i][key]

    return mutate


def add_dataset(**values: Any) -> Mutation:
    def mutate(proc: Process) -> None:
        proc["datasets"].append({"folder_path": "/path/to/more/images", **values})

    return mutate


def set_arch(arch: str) -> Mutation:
    def mutate(proc: Process) -> None:
        proc["model"].pop("is_flux", None)
        proc["model"]["arch"] = arch

    return mutate


def alias_bomb(levels: int = 9, width: int = 9) -> str:
    """A billion-laughs document: `width ** levels` strings once its aliases are expanded."""
    lines = ['a0: &a0 ["lol"]']
    for i in range(1, levels + 1):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


def raises(error: type[RemedyError], call: Callable[[], object]) -> RemedyError:
    with pytest.raises(error) as info:
        call()
    assert info.value.status == 422 or error is PayloadTooLarge
    return info.value


@pytest.fixture(params=["object", "yaml"])
def form(request: pytest.FixtureRequest) -> str:
    """Each mutation is submitted both as a JSON-like object and as YAML text."""
    value: str = request.param
    return value


# --- the published configs -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "arch", "fam", "resolutions", "controls", "low_vram", "quantize"),
    PUBLISHED,
    ids=[p[0].removeprefix("train_lora_").split("_")[0] for p in PUBLISHED],
)
def test_published_config_effective_values(
    index: Index,
    shared: Path,
    name: str,
    arch: str,
    fam: str,
    resolutions: tuple[int, ...],
    controls: int,
    low_vram: bool,
    quantize: bool,
) -> None:
    view = read_text(index, config_text(shared, name))
    ctx = view.context
    assert family(index, view) == fam
    assert ctx.model_arch == arch
    assert ctx.gradient_checkpointing is True
    assert ctx.batch_size == 1
    assert ctx.resolutions == resolutions
    assert ctx.num_frames == 1
    assert ctx.control_images == controls
    assert ctx.low_vram is low_vram
    assert ctx.quantize is quantize
    assert ctx.gradient_accumulation == 1
    assert ctx.sampling_disabled is False
    assert view.process_index == 0
    assert view.name == load_config(shared, name)["config"]["name"]
    gc = view.locations["gradient_checkpointing"]
    assert (gc.path, gc.value, gc.present) == (GC_PATH, True, True)
    batch = view.locations["batch_size"]
    assert (batch.path, batch.value, batch.present) == ("config.process[0].train.batch_size", 1, True)
    assert view.locations["resolutions"].path == "config.process[0].datasets[0].resolution"


@pytest.mark.parametrize("name", [p[0] for p in PUBLISHED])
def test_object_and_text_read_the_same(index: Index, shared: Path, name: str) -> None:
    from_text = read_text(index, config_text(shared, name))
    from_object = submit(index, load_config(shared, name), "object")
    assert from_object.context == from_text.context
    assert from_object.locations == from_text.locations
    assert from_object.facts == from_text.facts


def test_every_shared_training_config_is_covered(shared: Path) -> None:
    """A new config dropped into the shared folder must be added to PUBLISHED (or to the broken ones)."""
    names = {p.name for p in (shared / "aitk-configs").iterdir() if p.suffix in (".yaml", ".yml")}
    assert names == {p[0] for p in PUBLISHED} | {OMNIGEN2, EXTRACT}


def test_sample_values_come_from_the_sample_block(index: Index, shared: Path) -> None:
    wan = read_text(index, config_text(shared, WAN))
    ctx = wan.context
    assert (ctx.sample_width, ctx.sample_height, ctx.sample_steps, ctx.sample_every) == (832, 480, 30, 250)
    assert wan.facts == {"sample_area": 832 * 480, "sample_frames": 40, "sample_count": 1,
                         "dataset_resolutions": ((632,),)}
    assert ctx.num_frames == 1, "sample.num_frames is the preview's length, not the training clips'"
    qwen = read_text(index, config_text(shared, QWEN))
    assert qwen.facts["sample_count"] == 10 and qwen.facts["sample_frames"] == 1


# The trainer's source these tests follow: ostris/ai-toolkit at 27a03a91 (read with the search tool's `fetch`).
TRAINER = "ostris/ai-toolkit@27a03a91"


@pytest.mark.parametrize(
    ("flags", "arch", "expected_family"),
    [
        ({"is_flux": True}, "flux", "flux"),
        ({"is_v3": True}, "sd3", "other"),  # SD3's legacy flag: `elif kwargs.get('is_v3', False): self.arch = 'sd3'`
        ({"is_v3": True, "is_flux": True}, "sd3", "other"),  # tested first, so it wins
        ({"is_xl": "yes"}, "sdxl", "other"),  # a truthy value, not only `true`
        ({"is_flux": False}, None, None),
    ],
    ids=["is_flux", "is_v3", "is_v3-before-is_flux", "is_xl-truthy", "is_flux-false"],
)
def test_legacy_flags_name_the_arch_in_the_trainers_order(
    index: Index, shared: Path, flags: dict[str, Any], arch: str | None, expected_family: str | None
) -> None:
    # toolkit/config_modules.py:799-821 (ModelConfig: `if self.arch is None: if kwargs.get('is_v2', False): ...`)
    def set_flags(proc: Process) -> None:
        proc["model"].pop("arch", None)
        proc["model"].pop("is_flux", None)
        proc["model"].update(flags)

    view = submit(index, mutated(shared, FLUX, set_flags), "object")
    assert view.context.model_arch == arch
    assert family(index, view) == expected_family


def test_explicit_arch_wins_over_is_flux(index: Index, shared: Path) -> None:
    view = submit(index, mutated(shared, FLUX, set_in("model", arch="qwen_image_edit")), "object")
    assert view.context.model_arch == "qwen_image_edit" and family(index, view) == "qwen-edit"


# --- AI Toolkit's defaults -----------------------------------------------------------------------------------


def test_missing_gradient_checkpointing_is_on(index: Index, shared: Path, form: str) -> None:
    view = submit(index, mutated(shared, QWEN, drop("train", "gradient_checkpointing")), form)
    assert view.context.gradient_checkpointing is True
    gc = view.locations["gradient_checkpointing"]
    assert (gc.path, gc.value, gc.present) == (GC_PATH, True, False)


def test_null_gradient_checkpointing_is_off(index: Index, shared: Path, form: str) -> None:
    # toolkit/config_modules.py:413 `self.gradient_checkpointing = kwargs.get('gradient_checkpointing', True)`:
    # an explicit null is None, not the default; jobs/process/BaseSDTrainProcess.py:1549 `if
    # self.train_config.gradient_checkpointing:` reads None as off.
    view = submit(index, mutated(shared, FLUX, set_in("train", gradient_checkpointing=None)), form)
    assert view.context.gradient_checkpointing is False
    gc = view.locations["gradient_checkpointing"]
    assert (gc.path, gc.value, gc.present) == (GC_PATH, False, True)


@pytest.mark.parametrize(
    ("spelling", "expected"),
    [
        (False, False),
        (0, False),
        ("", False),
        ("false", True),  # a quoted string is text: Python's truthiness makes every non-empty one true
        ("off", True),
        ("no", True),
        ("Off", True),
        (True, True),
        ("true", True),
        ("yes", True),
        (1, True),
    ],
)
def test_gradient_checkpointing_reads_with_pythons_truthiness(
    index: Index, shared: Path, spelling: Any, expected: bool
) -> None:
    # toolkit/config_modules.py:413 takes the value as YAML built it (toolkit/config.py:55 `yaml.SafeLoader`, so
    # unquoted `no` / `off` are already false) and BaseSDTrainProcess.py:1549 tests it with `if`.
    view = submit(index, mutated(shared, FLUX, set_in("train", gradient_checkpointing=spelling)), "yaml")
    assert view.context.gradient_checkpointing is expected
    assert view.locations["gradient_checkpointing"].value is expected


def test_unquoted_yaml_no_is_off(index: Index) -> None:
    view = read_text(index, "job: train\nconfig:\n  process:\n  - train:\n      gradient_checkpointing: no\n")
    assert view.context.gradient_checkpointing is False


@pytest.mark.parametrize(
    ("key", "section", "spelling", "expected"),
    [
        ("low_vram", "model", "no", True),  # toolkit/config_modules.py:689 `kwargs.get("low_vram", False)`
        ("low_vram", "model", None, False),
        ("quantize", "model", "false", True),  # toolkit/config_modules.py:685 `kwargs.get("quantize", False)`
        ("quantize", "model", 0, False),
        ("disable_sampling", "train", "no", True),  # toolkit/config_modules.py:560
        ("disable_sampling", "train", None, False),
    ],
)
def test_other_switches_read_with_pythons_truthiness(
    index: Index, shared: Path, key: str, section: str, spelling: Any, expected: bool
) -> None:
    view = submit(index, mutated(shared, FLUX, set_in(section, **{key: spelling})), "object")
    field = {"disable_sampling": "sampling_disabled"}.get(key, key)
    assert getattr(view.context, field) is expected


def test_null_train_section_takes_every_default(index: Index, shared: Path) -> None:
    # jobs/process/BaseSDTrainProcess.py:112 `TrainConfig(**self.get_conf('train', {}))`, and BaseProcess.py:31-53
    # `get_conf` returns the default for a null value.
    view = submit(index, mutated(shared, FLUX, lambda proc: proc.update(train=None)), "object")
    assert view.context.gradient_checkpointing is True and view.context.batch_size == 1


def test_missing_batch_size_is_one(index: Index, shared: Path, form: str) -> None:
    view = submit(index, mutated(shared, FLUX, drop("train", "batch_size")), form)
    assert view.context.batch_size == 1
    batch = view.locations["batch_size"]
    assert (batch.path, batch.value, batch.present) == ("config.process[0].train.batch_size", 1, False)


def test_missing_resolution_is_512(index: Index, shared: Path, form: str) -> None:
    view = submit(index, mutated(shared, FLUX, drop_dataset_key("resolution")), form)
    assert view.context.resolutions == (512,)
    res = view.locations["resolutions"]
    assert (res.path, res.value, res.present) == ("config.process[0].datasets[0].resolution", 512, False)


def test_no_datasets_is_one_512_bucket(index: Index, shared: Path, form: str) -> None:
    data = mutated(shared, FLUX, lambda proc: proc.pop("datasets"))
    view = submit(index, data, form)
    assert view.context.resolutions == (512,)
    assert view.context.num_frames == 1 and view.context.control_images == 0


def test_missing_sample_block_takes_the_trainer_defaults(index: Index, shared: Path, form: str) -> None:
    view = submit(index, mutated(shared, FLUX, lambda proc: proc.pop("sample")), form)
    ctx = view.context
    assert (ctx.sample_width, ctx.sample_height, ctx.sample_steps, ctx.sample_every) == (512, 512, 20, 100)
    assert view.facts == {"sample_area": 512 * 512, "sample_frames": 1, "sample_count": 0,
                          "dataset_resolutions": ((512, 768, 1024),)}
    assert view.locations["sample"].present is False


def test_missing_low_vram_is_off(index: Index, shared: Path) -> None:
    view = submit(index, mutated(shared, QWEN, drop("model", "low_vram")), "object")
    low = view.locations["low_vram"]
    assert view.context.low_vram is False
    assert (low.path, low.value, low.present) == ("config.process[0].model.low_vram", False, False)


def test_gradient_accumulation_steps_spelling(index: Index, shared: Path) -> None:
    flux = submit(index, mutated(shared, FLUX, set_in("train", gradient_accumulation_steps=4)), "object")
    assert flux.context.gradient_accumulation == 4
    chroma = submit(
        index, mutated(shared, "train_lora_chroma_24gb.yaml", set_in("train", gradient_accumulation=2)), "object"
    )
    assert chroma.context.gradient_accumulation == 2


# --- batch size: a dataset-level value overrides train.batch_size ---------------------------------------------


def test_dataset_batch_size_overrides_train_batch_size(index: Index, shared: Path, form: str) -> None:
    view = submit(index, mutated(shared, FLUX, dataset(batch_size=4)), form)
    assert view.context.batch_size == 4
    batch = view.locations["batch_size"]
    assert (batch.path, batch.value, batch.present) == ("config.process[0].datasets[0].batch_size", 4, True)


def test_batch_size_location_names_the_dataset_that_sets_it(index: Index, shared: Path) -> None:
    view = submit(index, mutated(shared, FLUX, add_dataset(resolution=[768], batch_size=3)), "object")
    assert view.context.batch_size == 3
    assert view.locations["batch_size"].path == "config.process[0].datasets[1].batch_size"


def test_dataset_without_batch_size_uses_train_batch_size(index: Index, shared: Path) -> None:
    """The peak batch over datasets: the one without its own batch_size runs at train.batch_size."""
    view = submit(
        index,
        mutated(shared, FLUX, set_in("train", batch_size=4), dataset(batch_size=2), add_dataset(resolution=[768])),
        "object",
    )
    assert view.context.batch_size == 4
    assert view.locations["batch_size"].path == "config.process[0].train.batch_size"


def test_smaller_dataset_batch_size_overrides_train_batch_size(index: Index, shared: Path) -> None:
    view = submit(index, mutated(shared, QWEN, set_in("train", batch_size=4), dataset(batch_size=1)), "object")
    assert view.context.batch_size == 1
    assert view.locations["batch_size"].path == "config.process[0].datasets[0].batch_size"


# --- resolution, arch, frames, control images ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("resolution", "expected"),
    [
        (768, (768,)),
        ([1024], (1024,)),
        ([1024, 512, 768], (512, 768, 1024)),
        ([512, 512, 1024], (512, 1024)),
    ],
    ids=["number", "one-item-list", "unsorted-list", "duplicates"],
)
def test_resolution_is_a_number_or_a_list(
    index: Index, shared: Path, form: str, resolution: Any, expected: tuple[int, ...]
) -> None:
    view = submit(index, mutated(shared, FLUX, dataset(resolution=resolution)), form)
    assert view.context.resolutions == expected
    assert view.locations["resolutions"].value == resolution


def test_resolutions_are_merged_over_datasets(index: Index, shared: Path) -> None:
    view = submit(
        index, mutated(shared, FLUX, dataset(resolution=512), add_dataset(resolution=[768, 1280])), "object"
    )
    assert view.context.resolutions == (512, 768, 1280)
    assert view.locations["resolutions"].path == "config.process[0].datasets[1].resolution"


ARCHES = [
    ("zimage:turbo", "z-image"),
    ("zimage", "z-image"),
    ("ZImage:Turbo", "z-image"),
    ("qwen_image_edit", "qwen-edit"),
    ("qwen_image_edit_plus", "qwen-edit"),
    ("flux", "flux"),
    ("flex1", "flux"),
    ("flex2", "flux"),
    ("flux_kontext", "flux"),
    ("flux2", "flux"),
    ("chroma", "flux"),
    ("qwen_image", "other"),
    ("wan21", "other"),
    ("wan22_14b", "other"),
    ("ltx2", "other"),
    ("hidream", "other"),
    ("sdxl", "other"),
    ("omnigen2", "other"),
]


@pytest.mark.parametrize(("arch", "fam"), ARCHES, ids=[a[0] for a in ARCHES])
def test_arch_maps_to_its_family(index: Index, shared: Path, form: str, arch: str, fam: str) -> None:
    view = submit(index, mutated(shared, FLUX, set_arch(arch)), form)
    assert view.context.model_arch == arch
    assert family(index, view) == fam


def test_dataset_num_frames_means_video(index: Index, shared: Path, form: str) -> None:
    view = submit(index, mutated(shared, WAN, dataset(num_frames=81)), form)
    assert view.context.num_frames == 81
    frames = view.locations["num_frames"]
    assert (frames.path, frames.value, frames.present) == ("config.process[0].datasets[0].num_frames", 81, True)


def test_most_frames_over_datasets(index: Index, shared: Path) -> None:
    view = submit(
        index,
        mutated(shared, WAN, dataset(num_frames=33), add_dataset(num_frames=81), add_dataset(num_frames=17)),
        "object",
    )
    assert view.context.num_frames == 81
    assert view.locations["num_frames"].path == "config.process[0].datasets[1].num_frames"


CONTROLS: list[tuple[str, dict[str, Any], int]] = [
    ("one-path", {"control_path": "/c"}, 1),
    ("list-of-two", {"control_path": ["/c1", "/c2"]}, 2),
    ("list-of-three", {"control_path": ["/c1", "/c2", "/c3"]}, 3),
    (
        "numbered-1-to-3",
        {"control_path": None, "control_path_1": "/a", "control_path_2": "/b", "control_path_3": "/c"},
        3,
    ),
    ("numbered-1-and-3", {"control_path": None, "control_path_1": "/a", "control_path_3": "/c"}, 2),
    ("list-and-numbered", {"control_path": ["/c1", "/c2"], "control_path_1": "/a"}, 3),
    ("empty", {"control_path": None}, 0),
    ("empty-list", {"control_path": []}, 0),
]


@pytest.mark.parametrize(("values", "expected"), [c[1:] for c in CONTROLS], ids=[c[0] for c in CONTROLS])
def test_control_images(index: Index, shared: Path, form: str, values: dict[str, Any], expected: int) -> None:
    view = submit(index, mutated(shared, QWEN, dataset(**values)), form)
    assert view.context.control_images == expected


def test_control_images_is_the_most_over_datasets(index: Index, shared: Path) -> None:
    view = submit(index, mutated(shared, QWEN, add_dataset(control_path=["/a", "/b"])), "object")
    assert view.context.control_images == 2


def test_training_process_need_not_be_first(index: Index, shared: Path) -> None:
    data = load_config(shared, FLUX)
    data["config"]["process"].insert(0, {"type": "some_other_process"})
    view = submit(index, data, "object")
    assert view.process_index == 1
    assert view.locations["gradient_checkpointing"].path == "config.process[1].train.gradient_checkpointing"
    assert view.locations["resolutions"].path == "config.process[1].datasets[0].resolution"


@pytest.mark.parametrize("job", ["extension", "train"])
def test_training_job_kinds(index: Index, shared: Path, job: str) -> None:
    data = load_config(shared, FLUX)
    data["job"] = job
    assert submit(index, data, "object").context.batch_size == 1


# --- values the trainer could not use ------------------------------------------------------------------------

BAD_VALUES: list[tuple[str, Mutation, str]] = [
    ("batch-zero", set_in("train", batch_size=0), "config.process[0].train.batch_size"),
    ("dataset-batch-text", dataset(batch_size="four"), "config.process[0].datasets[0].batch_size"),
    ("resolution-text", dataset(resolution="big"), "config.process[0].datasets[0].resolution"),
    ("resolution-in-list", dataset(resolution=[512, "huge"]), "config.process[0].datasets[0].resolution"),
    ("resolution-bool", dataset(resolution=True), "config.process[0].datasets[0].resolution"),
    ("frames-text", dataset(num_frames="many"), "config.process[0].datasets[0].num_frames"),
    # `TrainConfig(**[])` stops the trainer (BaseSDTrainProcess.py:112): a list is no train section.
    ("train-list", lambda proc: proc.update(train=[]), "config.process[0].train"),
    ("model-list", lambda proc: proc.update(model=["flux"]), "config.process[0].model"),
    ("sample-text", lambda proc: proc.update(sample="every 100"), "config.process[0].sample"),
    # A number set to null is None to the trainer (`kwargs.get('batch_size', 1)`, config_modules.py:393).
    ("batch-null", set_in("train", batch_size=None), "config.process[0].train.batch_size"),
    ("width-null", set_in("sample", width=None), "config.process[0].sample.width"),
    ("accumulation-text", set_in("train", gradient_accumulation="2"), "config.process[0].train.gradient_accumulation"),
]


@pytest.mark.parametrize(("mutation", "where"), [b[1:] for b in BAD_VALUES], ids=[b[0] for b in BAD_VALUES])
def test_bad_value_is_invalid_config_naming_its_path(
    index: Index, shared: Path, mutation: Mutation, where: str
) -> None:
    data = mutated(shared, FLUX, mutation)
    error = raises(InvalidConfig, lambda: submit(index, data, "object"))
    assert error.code == "invalid-config"
    assert where in error.params["reason"]


# --- YAML safety ---------------------------------------------------------------------------------------------


def test_broken_omnigen2_names_line_64_and_65(index: Index, shared: Path) -> None:
    """`name_or_path: "OmniGen2/OmniGen2` (line 64) never closes its quote; the parser notices on line 65."""
    error = raises(InvalidYaml, lambda: read_text(index, config_text(shared, OMNIGEN2)))
    assert error.code == "invalid-yaml"
    assert error.extra["context_line"] == 64
    assert error.extra["line"] == 65
    assert isinstance(error.extra["column"], int) and error.extra["column"] >= 1
    assert (error.params["context_line"], error.params["line"]) == (64, 65)
    assert error.params["problem"]


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("job: extension\nconfig: [1, 2\n", 3),
        ("job: extension\nconfig:\n  name: 'open\n", 4),
        ("job: extension\n  bad: indent\n", 2),
    ],
    ids=["unclosed-flow", "unclosed-quote", "bad-indent"],
)
def test_syntax_error_names_a_line(text: str, line: int) -> None:
    error = raises(InvalidYaml, lambda: load_yaml_text(text))
    assert error.extra["line"] == line
    assert error.extra["context_line"] <= line


UNSAFE = [
    ("object-apply", "job: !!python/object/apply:os.system ['echo pwned']\n", "python/object/apply:os.system"),
    ("object-new", "job: !!python/object/new:subprocess.Popen [['ls']]\n", "python/object/new:subprocess.Popen"),
    ("name", "job: !!python/name:os.system\n", "python/name:os.system"),
    ("module", "job: !!python/module:os\n", "python/module:os"),
    ("local-tag", "job: !Ref something\n", "!Ref"),
]


@pytest.mark.parametrize(("text", "tag"), [u[1:] for u in UNSAFE], ids=[u[0] for u in UNSAFE])
def test_object_tags_are_refused(index: Index, text: str, tag: str) -> None:
    error = raises(YamlUnsafeTag, lambda: read_text(index, text))
    assert error.code == "yaml-unsafe-tag"
    assert tag in error.params["tag"]


def test_object_tag_inside_a_real_config_is_refused(index: Index, shared: Path) -> None:
    text = config_text(shared, FLUX).replace(
        'name_or_path: "black-forest-labs/FLUX.1-dev"', "name_or_path: !!python/object/apply:os.getcwd []"
    )
    assert "!!python/object/apply" in text
    assert raises(YamlUnsafeTag, lambda: read_text(index, text)).code == "yaml-unsafe-tag"


def test_alias_bomb_is_too_complex(index: Index) -> None:
    assert raises(YamlTooComplex, lambda: read_text(index, alias_bomb())).code == "yaml-too-complex"


def test_small_alias_graph_under_the_limit_is_fine() -> None:
    data = load_yaml_text(alias_bomb(levels=3, width=3))
    assert data["a3"][0][0][0] == ["lol"]
    assert len(data["a3"]) == 3


@pytest.mark.parametrize(
    "text",
    [
        "a: &a [*a]\n",
        "a: &a {b: *a}\n",
        "config: &c\n  process: [*c]\n",
    ],
    ids=["sequence", "mapping", "nested"],
)
def test_recursive_alias_is_too_complex(index: Index, text: str) -> None:
    assert raises(YamlTooComplex, lambda: read_text(index, text)).code == "yaml-too-complex"


def test_node_limit_is_a_parameter() -> None:
    with pytest.raises(YamlTooComplex):
        load_yaml_text("[" + ", ".join(["1"] * 20) + "]", max_nodes=10)
    assert load_yaml_text("[" + ", ".join(["1"] * 5) + "]", max_nodes=10) == [1] * 5


def test_oversize_text_is_payload_too_large(index: Index) -> None:
    error = raises(PayloadTooLarge, lambda: read_text(index, "#" * (MAX_CHARS + 1)))
    assert error.code == "payload-too-large" and error.status == 413
    assert error.params["limit"] == MAX_CHARS


def test_text_at_the_size_limit_is_read(index: Index, shared: Path) -> None:
    text = config_text(shared, FLUX)
    padded = text + "#" * (MAX_CHARS - len(text))
    assert len(padded) == MAX_CHARS
    assert read_text(index, padded).context == read_text(index, text).context


def test_extract_job_is_not_a_training_job(index: Index, shared: Path) -> None:
    error = raises(NotATrainingJob, lambda: read_text(index, config_text(shared, EXTRACT)))
    assert error.code == "not-a-training-job"
    assert error.params["job"] == "extract"
    error = raises(NotATrainingJob, lambda: submit(index, load_config(shared, EXTRACT), "object"))
    assert error.params["job"] == "extract"


NOT_A_JOB = [
    ("empty-text", ""),
    ("only-a-comment", "# nothing here\n"),
    ("a-list", "- job: extension\n- config: {}\n"),
    ("a-number", "42\n"),
    ("a-string", "just some text\n"),
    ("no-config", "job: extension\n"),
    ("config-is-a-list", "job: extension\nconfig: [1, 2]\n"),
    ("no-process", "job: extension\nconfig:\n  name: x\n"),
    ("empty-process", "job: extension\nconfig:\n  process: []\n"),
    ("process-not-a-list", "job: extension\nconfig:\n  process: {train: {}}\n"),
    ("no-train-section", "job: extension\nconfig:\n  process:\n    - type: locon\n"),
]


@pytest.mark.parametrize("text", [n[1] for n in NOT_A_JOB], ids=[n[0] for n in NOT_A_JOB])
def test_not_an_ai_toolkit_config_is_invalid_config(index: Index, text: str) -> None:
    error = raises(InvalidConfig, lambda: read_text(index, text))
    assert error.code == "invalid-config" and error.params["reason"]


@pytest.mark.parametrize(
    "data", [[1, 2], "text", 3, {}, {"job": "extension"}], ids=["list", "string", "number", "empty", "no-config"]
)
def test_not_a_mapping_object_is_invalid_config(data: Any) -> None:
    assert raises(InvalidConfig, lambda: read_job(data)).code == "invalid-config"


def test_minimal_training_job_reads_with_defaults(index: Index) -> None:
    view = read_text(index, "job: extension\nconfig:\n  process:\n    - type: sd_trainer\n")
    ctx = view.context
    assert (ctx.gradient_checkpointing, ctx.batch_size, ctx.resolutions, ctx.num_frames) == (True, 1, (512,), 1)
    assert (ctx.sample_width, ctx.sample_height, ctx.sample_steps, ctx.sample_every) == (512, 512, 20, 100)
    assert ctx.model_arch is None and view.name is None


def test_the_facts_a_check_always_knows_are_known_for_a_bare_config(index: Index) -> None:
    """content.context.CHECK_FACTS: finding texts name these without a condition, so the reader must fill them."""
    bare = {"config": {"process": [{"type": "sd_trainer", "train": {}}]}}
    view = read_config(index, bare, None)
    assert view is not None
    facts, _ = job_facts(index, view)
    assert [name for name in CHECK_FACTS if facts.get(name) is None] == []
