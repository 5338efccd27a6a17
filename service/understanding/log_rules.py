"""The log reader's signal table: every kind of line it recognises, one declared entry each (engine layer).

An entry (`Rule`) names the signal it records (an id of `structure/signals.yaml`, its texts in
`text/<lang>/signals.yaml`), the anchor words that make a line worth trying, its patterns, the data it always
yields (the only placeholders its texts may use), whether it is a failure (a GPU OOM, or another failure that
puts the text outside the guide) and, by its place in `RULES`, its priority: a line is read by the rules in
table order, and a rule may give way to a failure read earlier on the same line (`python-error`).
Phase sources (traceback frames, step counters) record the phase of the signals they name, not a signal.

Adding a signal: one entry here (its patterns and `read` function), its id in `structure/signals.yaml`, its
sentence in every `text/<lang>/signals.yaml`, and a case in `tests/understanding/test_logs.py`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Literal

from .log_bars import FAIL, PHASE, TRAIN
from .log_figures import other_processes
from .log_text import NAN_LOSS, Gated, clip, first_match

if TYPE_CHECKING:
    from .logs import _Reader

# A GPU out-of-memory error (CUDA, ROCm/HIP, XPU, Apple MPS, cuBLAS/cuDNN allocation, cudaMallocAsync).
# The Linux OOM killer's "Out of memory: Killed process" matches none of these.
_OOM: Final[Gated] = (
    (
        ("memory",),
        re.compile(
            r"(?:cuda|hip|xpu|npu|mps\s+backend)\s+out\s+of\s+memory"
            r"|cuda\s+error:\s*out\s+of\s+memory"
            r"|(?:torch|cuda)\.outofmemoryerror"  # not java.lang.OutOfMemoryError
            r"|cuda_error_out_of_memory|cudaerrormemoryallocation"
            r"|allocation\s+on\s+device\s+\d+\s+would\s+exceed\s+allowed\s+memory"
        ),
    ),
    (("_alloc_failed",), re.compile(r"c(?:ublas|udnn)_status_alloc_failed")),
    # TensorFlow's and JAX's ("ResourceExhaustedError: OOM when allocating tensor with shape", "RESOURCE_EXHAUSTED: Out
    # of memory while trying to allocate"), and HIP's own error name
    (("allocating",), re.compile(r"\boom\s+when\s+allocating\b")),
    (("exhausted", "hiperror"), re.compile(r"resource_exhausted:?\s*out\s+of\s+memory|hiperroroutofmemory")),
)
_FRAG_HINT: Final[Gated] = (
    (
        ("setting",),
        re.compile(r"try\s+setting\s+(?:pytorch_cuda_alloc_conf\s*=\s*expandable_segments|max_split_size_mb)"),
    ),
    (("large",), re.compile(r"reserved\s+but\s+unallocated\s+memory\s+is\s+large")),
)
# AI Toolkit's own notices (jobs/process/BaseSDTrainProcess.py): "# OOM during training step, skipping batch 1/3 #"
# and "OOM during training step 3 times in a row, aborting training".
_NOTICE: Final[Gated] = (
    (
        ("during", "skipping"),
        re.compile(
            r"\boom\s+during\s+(?:training\s+)?step\b"
            r"|(?:out\s+of\s+memory|\boom\b).{0,120}?skipping\s+batch"
            r"|skipping\s+batch.{0,60}?(?:out\s+of\s+memory|\boom\b)"
        ),
    ),
)
# The process was killed or starved for host RAM: not a GPU OOM.
_HOST: Final[Gated] = (
    (
        ("killed",),
        re.compile(
            r"^[\W\d_]*+killed\W*+$"  # the shell's bare "Killed"
            r"|\b\d+\s+killed\s"  # "run.sh: line 3: 4242 Killed  python run.py"
            r"|\]\+?\s+killed\s"  # "[1]+  Killed  python run.py"
            r"|\bkilled\s+(?:process\s+\d|python|accelerate|torchrun)"
            r"|out\s+of\s+memory:\s+kill"  # the kernel's OOM killer
        ),
    ),
    (("kill",), re.compile(r"\boom[-_]kill|\bsigkill\b")),
    (("reaper",), re.compile(r"oom[-_]reaper")),
    (("cgroup",), re.compile(r"memory\s+cgroup\s+out\s+of\s+memory")),
    (("signal",), re.compile(r"\bsignal\s*:?\s*9\b")),
    (
        ("exit",),
        re.compile(r"\bexit\s*(?:code|status)\s*[:=]?\s*(?:-9|137)\b|\bexited\s+with\s+(?:code|status)\s*(?:-9|137)\b"),
    ),
    (("memoryerror",), re.compile(r"memoryerror\b(?<!\wmemoryerror)")),  # Python's, not torch's OutOfMemoryError
    (("allocate",), re.compile(r"cannot\s+allocate\s+memory")),
    (("errno",), re.compile(r"\[errno\s+12\]")),
    (("bad_alloc",), re.compile(r"std::bad_alloc")),
    (("cpuallocator",), re.compile(r"defaultcpuallocator:\s*(?:not\s+enough\s+memory|can't\s+allocate)")),
    (("paging", "1455"), re.compile(r"paging\s+file\s+is\s+too\s+small|os\s+error\s+1455")),
)
# A CUDA error that is not an out-of-memory error.
_CUDA_ERROR: Final[Gated] = (
    (("error",), re.compile(r"cuda\s+error:\s*(?!out\s+of\s+memory|c(?:ublas|udnn)_status_alloc_failed)\S")),
    (("nccl",), re.compile(r"nccl(?:(?<!\wnccl)\s+error|unhandledcudaerror|systemerror|internalerror)")),
    (("cudnn",), re.compile(r"cudnn(?<!\wcudnn)\s+error")),
    (("assert",), re.compile(r"device-side\s+assert\s+triggered")),
    (
        ("driver",),
        re.compile(
            r"cuda\s+driver\s+version\s+is\s+insufficient"
            r"|nvidia\s+driver\s+on\s+your\s+system\s+is\s+too\s+old|found\s+no\s+nvidia\s+driver"
        ),
    ),
    (("kernel",), re.compile(r"no\s+kernel\s+image\s+is\s+available")),
    (("launch",), re.compile(r"unspecified\s+launch\s+failure")),
    (("illegal",), re.compile(r"illegal\s+memory\s+access|illegal\s+instruction\s+was\s+encountered")),
    (("misaligned",), re.compile(r"misaligned\s+address")),
    (("_status_",), re.compile(r"c(?:udnn|ublas)_status_(?!alloc_failed)[a-z_]+")),
    (("cuda_error_",), re.compile(r"cuda_error_(?!out_of_memory)[a-z_]+")),
    (("watchdog",), re.compile(r"watchdog\s+caught\s+collective\s+operation\s+timeout")),
    (("distbackenderror",), re.compile(r"c10::distbackenderror")),
)
# The exception that ended a Python traceback (`KeyError: 'job'`, `safetensors_rust.SafetensorError: ...`) or AI
# Toolkit's `Error running job: ...`, when it is not an out-of-memory error: the job failed for another reason.
_PYTHON_ERROR = re.compile(
    r"^\W*(?:\[[^\]\n]{0,40}\]:?\s*)*"  # a log prefix such as "[rank0]:"
    r"(?:((?:[a-z_]\w*\.){0,4}[a-z_]\w*(?:error|exception))\s*:|(error\s+running\s+job)\s*:)"
)
# ... and the same exception quoted inside a sentence ("crashes at step 1 with AttributeError: 'NoneType' ..."): a
# dotted or one-word name ending in Error or Exception, then a colon; "an error:" or "CUDA error:" is not one. Its repr
# ("RuntimeError('The size of tensor a (2) must match ...')") is the same exception.
_PROSE_ERROR = re.compile(r"(?<![\w.])((?:[a-z_]\w*\.){0,4}[a-z]\w+(?:error|exception))(?:\s*:(?=\s|$)|\(['\"])")
_SAMPLING = re.compile(
    r"\bgenerating\s+(?:(baseline|first)\s+)?(?:\d+\s+)?(?:images?|samples?)\b"
    r"|\bsampling(?:\s*(?:\.\.\.|\u2026)|\s+at\s+step\b|\s+images\b)"
    # a validation run or node: "[FluxTrainValidate]", "Running validation...", "validation at step 500"
    r"|\[\w{0,40}validat\w{0,20}\]|\b(?:running|starting|start)\s+validation\b|\bvalidation\s*(?:\.\.\.|\u2026|at\s+step\b)"
)
# A generation program's own lines (ComfyUI's queue and node names, a LoRA loader's "lora key not loaded"): the
# log is of generating images or videos, not of a training run.
_INFERENCE: Final[Gated] = (
    (("lora key",), re.compile(r"\blora\s+key\s+not\s+loaded\b")),
    (("prompt",), re.compile(r"^\W*got\s+prompt\b|\bprompt\s+executed\s+in\b")),
    # ComfyUI's model management ("Got an OOM, unloading all loaded models.", "Requested to load WanTEModel", "loaded
    # completely 9210.3 4897.0 True") and Wan2GP's pinning ("The whole model was pinned to reserved RAM"): an OOM there
    # is the generation's
    (
        ("got an oom", "requested to load", "loaded completely", "loaded partially", "reserved ram"),
        re.compile(r"\bgot\s+an\s+oom,\s+unloading\s+all\s+loaded\s+models\b|^\W*requested\s+to\s+load\s+\w"
                   r"|^\W*loaded\s+(?:completely|partially)\s+\d"
                   r"|\bpinn(?:ed|ing)\s+(?:data\s+of\s+\S+\s+)?to\s+reserved\s+ram\b"),
    ),
    # Forge's own lines: "[Memory Management] Current Free GPU Memory: ...", "Patching LoRAs: 43%|..."
    (("memory management", "patching lora"), re.compile(r"^\W*\[memory\s+management\]|\bpatching\s+loras?\b")),
    (
        ("sampler", "vaedecode", "wanvideo"),
        # (each name first, its word boundary a lookbehind after it: `\b` first is tried at every position of a line)
        re.compile(r"(?:ksampler(?<!\wksampler)\w{0,12}|samplercustom(?<!\wsamplercustom)\w{0,12}"
                   r"|wanvideo(?<!\wwanvideo)\w{0,30}|vaedecode(?<!\wvaedecode)\w{0,12})\b"),
    ),
    # a generation call of a diffusers pipeline in a pasted traceback or script ("----> 1 video = pipe(prompt=prompt,
    # num_inference_steps=50)", "image = pipeline(prompt, num_inference_steps=28).images[0]"): the generation's OOM
    (("num_inference_steps",), re.compile(r"num_inference_steps\s*=")),
    # a command line running a generation script ("python3 hymm_sp/sample_gpu_poor.py --input ...", "python
    # inference.py --prompt", "python generate.py --task t2v-14B", "scripts/txt2img.py"): the generation's OOM
    (
        (".py",),
        re.compile(r"(?:^|[\s/\\])(?:sample|inference|infer|generate|txt2img|img2img|predict)(?:_[\w-]{0,30})?\.py\b"),
    ),
    # a traceback's file path inside such a program's folder: File "n:\FramePack-Eichi\system\...", ".../ComfyUI/..."
    (
        ("file",),
        re.compile(
            r"file(?<!\wfile)\s+\"[^\"\n]{0,200}?[\\/](?:comfyui|framepack[\w-]{0,20}|stable-diffusion-webui[\w-]{0,20}"
            r"|sd-webui[\w-]{0,20}|webui[\w-]{0,10}forge|forge|fooocus|wan2gp|invokeai|swarmui)[\\/]"
        ),
    ),
)
_CACHING = re.compile(
    r"\bcaching\s+(?:latents|text[\s_]embeddings|embeddings|clip\s+vision|validation|control|\d+\s+unconditional"
    r"|text\s+encoder\s+outputs)"  # sd-scripts' "caching Text Encoder outputs..."
)
_LOADING = re.compile(
    r"\bloading\s+(?:checkpoint\s+shards|pipeline\s+components"
    r"|(?:[\w.()/-]+\s+){0,3}?(?:model|transformer|vae|t5|te|text\s+encoders?|encoders?|clip|unet|dit|weights|"
    r"tokenizer|lora|shards|checkpoint|connectors|from|qwen[\w.-]*|mistral|llama[\w.-]*|umt5|gemma[\w.-]*)\b)"
    r"|\bquantizing\s+(?:[\w.()-]+\s+){0,2}?(?:model|transformer|te|text\s+encoder|encoder|blocks|unet)\b"
    r"|\bfetching\s+\d+\s+files\b"
)
_SAVING = re.compile(
    r"\bsaving\s+at\s+step\s+(\d{1,9})"
    r"|\bsaving\s+(?:the\s+)?(?:model|checkpoint|lora|weights)\b"
    r"|\bsaved\s+(?:checkpoint\s+|optimizer\s+|model\s+|lora\s+)?to\b"
)
_STEP = re.compile(r"\bstep\s*[:#]?\s*(\d{1,9})\s*(?:/|\bof\b)\s*(\d{1,9})\b")
_FRAME = re.compile(r"line\s+\d+,\s+in\s+([a-z_]\w*)")
_FRAME_PHASE: Final[dict[str, str]] = {
    # AI Toolkit (BaseSDTrainProcess, models) and the libraries it calls
    "sample": "sampling",
    "generate_images": "sampling",
    "generate_single_image": "sampling",
    "log_validation": "sampling",
    "run_validation": "sampling",
    "validate": "sampling",
    "hook_train_loop": "training",
    "train_single_accumulation": "training",
    "calculate_loss": "training",
    "backward": "training",
    "cache_latents_all_latents": "caching",
    "cache_text_embeddings": "caching",
    "cache_clip_vision_to_disk": "caching",
    "load_model": "loading",
    "from_pretrained": "loading",
    "_load_pretrained_model": "loading",
    "load_checkpoint_and_dispatch": "loading",
    "save_weights": "saving",
    "save_model": "saving",
}


# (the reader, start of the line in the lowered text, the lowered line, the line as written, a failure was read
# on this line by an earlier rule) -> whether this rule read a failure
Read = Callable[["_Reader", int, str, str, bool], bool]
Failure = Literal["gpu-oom", "other"]


@dataclass(frozen=True, slots=True)
class Rule:
    """One kind of line: the signal it records, when a line is tried, how it is read."""

    id: str  # the signal recorded (structure/signals.yaml), or the name of a phase source
    anchors: tuple[str, ...]  # a line holding one of these (lowered) is tried
    read: Read
    emits: tuple[str, ...]  # the signals it may record
    failure: Failure | None = None  # a failure: a GPU OOM, or another one (the guide does not apply)
    yields: tuple[str, ...] = ()  # data keys its signal always carries


def _frame(r: _Reader, start: int, low: str, line: str, failed: bool) -> bool:
    m = _FRAME.search(low)
    if m is not None:
        phase = _FRAME_PHASE.get(m.group(1))
        if phase is not None:
            r.phase(r.key(start + m.start()), phase, clip(line))
    return False


def _sampling(r: _Reader, start: int, low: str, line: str, failed: bool) -> bool:
    m = _SAMPLING.search(low)
    if m is not None:
        baseline: bool | None = None
        if m.group(1) or "before training" in low:
            baseline = True
        elif "at step" in low[m.start() : m.end() + 1]:
            baseline = False
        r.phase(r.key(start + m.start()), "sampling", clip(line), baseline)
    return False


def _phase_marker(pattern: re.Pattern[str], phase: str) -> Read:
    def read(r: _Reader, start: int, low: str, line: str, failed: bool) -> bool:
        m = pattern.search(low)
        if m is not None:
            r.phase(r.key(start + m.start()), phase, clip(line))
        return False

    return read


def _saving(r: _Reader, start: int, low: str, line: str, failed: bool) -> bool:
    m = _SAVING.search(low)
    if m is not None:
        step = int(m.group(1)) if m.group(1) else None
        r.phase(r.key(start + m.start()), "saving", clip(line), step=step)
    return False


def _step(r: _Reader, start: int, low: str, line: str, failed: bool) -> bool:
    for m in _STEP.finditer(low):
        step, total = int(m.group(1)), int(m.group(2))
        if total > 0:
            r.event(r.key(start + m.start()), TRAIN, (step, total, None))
    return False


def _notice(r: _Reader, start: int, low: str, line: str, failed: bool) -> bool:
    m = first_match(low, _NOTICE)
    if m is None:
        return False
    key = r.key(start + m.start())
    if "training step" in low:
        r.event(key, PHASE, ("training", None))
    key = r.key(start + m.start())
    r.signal("aitk-oom-notice", key, text=clip(line))
    r.event(key, FAIL, "aitk-oom-notice")
    return True


def _nan_loss(r: _Reader, start: int, low: str, line: str, failed: bool) -> bool:
    m = NAN_LOSS.search(low)
    if m is not None:
        r.signal("nan-loss", r.key(start + m.start()), text=clip(line))
    return False


def _inference(r: _Reader, start: int, low: str, line: str, failed: bool) -> bool:
    m = first_match(low, _INFERENCE)
    if m is not None:
        r.signal("inference-run", r.key(start + m.start()), text=clip(line))
    return False


def _cuda_oom(r: _Reader, start: int, low: str, line: str, failed: bool) -> bool:
    m = first_match(low, _OOM)
    if m is None:
        return False
    key = r.key(start + m.start())
    r.signal("cuda-oom", key)
    r.event(key, FAIL, "cuda-oom")
    r.oom_lines.append(start)  # its figures are read after the scan (`log_figures.read_figures`)
    return True


def _other_process(r: _Reader, start: int, low: str, line: str, failed: bool) -> bool:
    if "memory in use" in low:
        other_processes(r, start, low)
    return False


def _fragmentation(r: _Reader, start: int, low: str, line: str, failed: bool) -> bool:
    m = first_match(low, _FRAG_HINT)
    if m is not None:
        r.signal("fragmentation", r.key(start + m.start()))
    return False


def _failure_at(pattern: Gated, sid: str, key: str) -> Callable[[_Reader, int, str, str, bool], bool]:
    """A read function for a failure that is not a GPU OOM, told by one pattern: the line is kept under `key`."""

    def read(r: _Reader, start: int, low: str, line: str, failed: bool) -> bool:
        m = first_match(low, pattern)
        if m is None:
            return False
        r.failure(sid, r.key(start + m.start()), **{key: clip(line)})
        return True

    return read


_host_ram_kill = _failure_at(_HOST, "host-ram-kill", "text")
_cuda_error = _failure_at(_CUDA_ERROR, "cuda-error", "message")


def _python_error(r: _Reader, start: int, low: str, line: str, failed: bool) -> bool:
    if failed or "out of memory" in low or "outofmemory" in low:
        return False  # the exception of a failure already read (`torch.OutOfMemoryError: ...`)
    m = _PYTHON_ERROR.match(low) or _PROSE_ERROR.search(low)
    if m is None:
        return False
    kind = line[m.start(1) : m.end(1)] if m.group(1) else line[m.start(2) : m.end(2)]
    r.failure("python-error", r.key(start + m.start()), type=kind.rsplit(".", 1)[-1], message=clip(line))
    return True


_PHASES: Final = ("sampling", "caching", "loading", "saving")
_TEXT: Final = ("text",)

# In priority order: the order a line is read in (the events of one line keep it).
RULES: Final[tuple[Rule, ...]] = (
    Rule("traceback-frame", (", line ",), _frame, emits=_PHASES),
    Rule("sampling", ("generating", "sampling", "validat"), _sampling, emits=("sampling",), yields=("baseline",)),
    Rule("inference-run", ("lora key", "prompt", "memory management", "patching lora", "sampler", "vaedecode",
                          "wanvideo", "file", "got an oom", "requested to load", "loaded completely",
                          "loaded partially", "reserved ram", "num_inference_steps", ".py"), _inference,
         emits=("inference-run",), yields=_TEXT),
    Rule("caching", ("caching",), _phase_marker(_CACHING, "caching"), emits=("caching",), yields=_TEXT),
    Rule("loading", ("loading", "quantizing", "fetching"), _phase_marker(_LOADING, "loading"), emits=("loading",),
         yields=_TEXT),
    Rule("saving", ("sav",), _saving, emits=("saving",), yields=_TEXT),
    Rule("progress", ("step",), _step, emits=("progress",), yields=("step", "total")),
    Rule("nan-loss", ("nan",), _nan_loss, emits=("nan-loss",), yields=_TEXT),
    Rule("aitk-oom-notice", ("memory", "oom", "step", "skipping batch"), _notice, emits=("aitk-oom-notice",),
         failure="gpu-oom", yields=_TEXT),
    Rule("cuda-oom", ("memory", "_alloc", "allocating"), _cuda_oom, emits=("cuda-oom",), failure="gpu-oom"),
    Rule("other-process-vram", ("memory",), _other_process, emits=("other-process-vram",),
         yields=("processes", "used_gib")),
    Rule("fragmentation", ("memory",), _fragmentation, emits=("fragmentation",)),
    Rule("host-ram-kill", ("memory", "_alloc", "oom", "kill", "signal", "exit", "errno", "paging file", "error"),
         _host_ram_kill, emits=("host-ram-kill",), failure="other", yields=_TEXT),
    Rule("cuda-error", ("memory", "error", "watchdog"), _cuda_error, emits=("cuda-error",), failure="other",
         yields=("message",)),
    Rule("python-error", ("error", "exception"), _python_error, emits=("python-error",), failure="other",
         yields=("type", "message")),
)

# Anchor word -> the rules a line holding it is tried on, a bit per place in RULES (each word is looked up once
# per text); and each rule's bit and `read`, in the table's order.
ANCHORS: Final[tuple[tuple[str, int], ...]] = tuple(
    (word, sum(1 << i for i, rule in enumerate(RULES) if word in rule.anchors))
    for word in dict.fromkeys(w for rule in RULES for w in rule.anchors)
)
READS: Final = tuple((1 << i, rule.read) for i, rule in enumerate(RULES))
GPU_OOM: Final = tuple(rule.id for rule in RULES if rule.failure == "gpu-oom")
OTHER_FAILURE: Final = tuple(rule.id for rule in RULES if rule.failure == "other")
# Every signal the reader can record, and the data each always carries.
SIGNAL_IDS: Final = frozenset(s for rule in RULES for s in rule.emits)
YIELDS: Final = {rule.id: frozenset(rule.yields) for rule in RULES if rule.id in SIGNAL_IDS}
