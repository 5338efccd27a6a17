"""Reading pasted logs: realistic AI Toolkit + PyTorch tails, table-driven, plus texts, fuzzing and speed."""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

from remedy.understanding.logs import MAX_CHARS, LogReading, looks_like_log, read_log

KNOWLEDGE = Path(__file__).resolve().parents[2] / "knowledge"
LANGS = ("en", "es", "pt", "fr", "de", "ko")
PHASES = {None, "sampling", "training", "caching", "loading", "saving"}
SIGNAL_IDS = {
    "cuda-oom",
    "inference-run",
    "other-process-vram",
    "fragmentation",
    "progress",
    "sampling",
    "aitk-oom-notice",
    "caching",
    "loading",
    "saving",
    "host-ram-kill",
    "cuda-error",
    "python-error",
    "nan-loss",
}

# --- realistic material -----------------------------------------------------------------------------------------

# PyTorch >= 2.1 (c10/cuda/CUDACachingAllocator.cpp), as AI Toolkit's run.py lets it propagate.
NEW_OOM = (
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.50 GiB. GPU 0 has a total capacity of 23.64 GiB "
    "of which 1.03 GiB is free. Process 12345 has 10.50 GiB memory in use. Including non-PyTorch memory, this process "
    "has 12.59 GiB memory in use. Of the allocated memory 20.10 GiB is allocated by PyTorch, and 1.20 GiB is reserved "
    "by PyTorch but unallocated. If reserved but unallocated memory is large try setting "
    "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory "
    "Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)"
)
# PyTorch 1.x - 2.0.
OLD_OOM = (
    "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 23.65 GiB total capacity; 22.10 GiB "
    "already allocated; 5.06 MiB free; 22.50 GiB reserved in total by PyTorch) If reserved memory is >> allocated "
    "memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and "
    "PYTORCH_CUDA_ALLOC_CONF"
)
RUN_TRACEBACK = """Error running job: {message}

========================================
Result:
 - 0 completed jobs
 - 1 failure
========================================
Traceback (most recent call last):
  File "/workspace/ai-toolkit/run.py", line 120, in <module>
    main()
  File "/workspace/ai-toolkit/run.py", line 108, in main
    raise e
  File "/workspace/ai-toolkit/run.py", line 96, in main
    job.run()
  File "/workspace/ai-toolkit/jobs/ExtensionJob.py", line 22, in run
    process.run()
"""
TRAIN_FRAMES = """  File "/workspace/ai-toolkit/jobs/process/BaseSDTrainProcess.py", line 2624, in run
    loss_dict = self.hook_train_loop(batch_list)
  File "/workspace/ai-toolkit/extensions_built_in/sd_trainer/SDTrainer.py", line 2245, in hook_train_loop
    loss = self.train_single_accumulation(batch)
  File "/workspace/ai-toolkit/extensions_built_in/sd_trainer/SDTrainer.py", line 2120, in train_single_accumulation
    self.accelerator.backward(loss)
  File "/usr/local/lib/python3.11/dist-packages/torch/_tensor.py", line 626, in backward
    torch.autograd.backward(
"""
SAMPLE_FRAMES = """  File "/workspace/ai-toolkit/jobs/process/BaseSDTrainProcess.py", line 2733, in run
    self.sample(self.step_num)
  File "/workspace/ai-toolkit/jobs/process/BaseSDTrainProcess.py", line 352, in sample
    self.sd.generate_images(gen_img_config_list, sampler=sample_config.sampler)
  File "/workspace/ai-toolkit/toolkit/models/base_model.py", line 540, in generate_images
    img = self.generate_single_image(
"""
CACHE_FRAMES = """  File "/workspace/ai-toolkit/toolkit/data_loader.py", line 611, in setup_epoch
    self.cache_latents_all_latents()
  File "/workspace/ai-toolkit/toolkit/dataloader_mixins.py", line 1962, in cache_latents_all_latents
    latent = self.sd.encode_images(imgs).squeeze(0)
"""


def crash(message: str, frames: str = "") -> str:
    """What AI Toolkit prints when a job dies: its own line, the summary, then Python's traceback."""
    first = message.split(": ", 1)[1] if message.startswith(("torch.", "RuntimeError")) else message
    return RUN_TRACEBACK.format(message=first) + frames + message + "\n"


def bar(desc: str, n: int, total: int, postfix: str = "", width: int = 10) -> str:
    """A tqdm line as AI Toolkit's ToolkitProgressBar draws it (desc = job name, postfix = lr / loss)."""
    pct = 100 * n // total
    filled = "█" * (width * n // total)
    rate = ",  6.00s/it" if n else ", ?it/s"
    post = f", {postfix}" if postfix else ""
    prefix = f"{desc}: " if desc else ""
    return f"{prefix}{pct:3d}%|{filled:<{width}}| {n}/{total} [00:12<5:00:01{rate}{post}]"


def train_bars(job: str, upto: int, total: int = 3000, start: int = 0) -> str:
    """The training bar's \\r updates, from `start` to `upto` (as written to the terminal or log.txt)."""
    lines = [bar(job, start, total)]
    lines += [bar(job, n, total, "lr: 1.0e-04 loss: 4.312e-01") for n in range(start + 1, upto + 1)]
    return "\r" + "\r".join(lines)


def sample_bars(images: int, steps: int, upto_image: int, upto_step: int) -> str:
    """AI Toolkit's "Generating Images" bar with the diffusers pipeline's own bare bar inside it."""
    out = ""
    for i in range(upto_image + 1):
        out += "\r" + bar("Generating Images", i, images)
        last = upto_step if i == upto_image else steps
        out += "".join("\r" + bar("", s, steps) for s in range(last + 1))
    return out


STARTUP = """Running 1 job
{
    "type": "sd_trainer",
    "training_folder": "/workspace/ai-toolkit/output",
    "device": "cuda:0"
}
Using SDPA
Loading Flux model
Loading transformer
Quantizing transformer
Loading T5
Loading checkpoint shards: 100%|██████████| 2/2 [00:05<00:00,  2.51s/it]
Quantizing T5
Loading CLIP
Making pipe
Preparing Model
Dataset: /workspace/datasets/me
  -  Preprocessing image dimensions
100%|██████████| 40/40 [00:00<00:00, 4810.32it/s]
Bucket sizes for /workspace/datasets/me:
1024x1024: 40 files
1 buckets made
Caching latents for /workspace/datasets/me
 - Saving latents to disk
Caching latents to disk: 100%|██████████| 40/40 [00:20<00:00,  1.95it/s]
"""

OOM_KILLER = """[183729.112034] python invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0, oom_score_adj=0
[183729.112071] Mem-Info:
[183729.112408] Out of memory: Killed process 4242 (python) total-vm:98765432kB, anon-rss:61234567kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:123456kB oom_score_adj:0
[183729.331524] oom_reaper: reaped process 4242 (python), now anon-rss:0kB, file-rss:0kB, shmem-rss:0kB
"""  # noqa: E501

ILLEGAL_ACCESS = """Traceback (most recent call last):
  File "/workspace/ai-toolkit/extensions_built_in/sd_trainer/SDTrainer.py", line 2245, in hook_train_loop
    loss = self.train_single_accumulation(batch)
RuntimeError: CUDA error: an illegal memory access was encountered
CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
For debugging consider passing CUDA_LAUNCH_BLOCKING=1
Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.
"""

NOTICES = """
################################################
# OOM during training step, skipping batch 1/3 #
################################################

################################################
# OOM during training step, skipping batch 2/3 #
################################################

################################################
# OOM during training step, skipping batch 3/3 #
################################################

Error running job: OOM during training step 3 times in a row, aborting training
"""

MPS_OOM = (
    "RuntimeError: MPS backend out of memory (MPS allocated: 17.11 GB, other allocations: 1.09 GB, max allowed: "
    "18.13 GB). Tried to allocate 256.00 MB on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper "
    "limit for memory allocations (may cause system failure)."
)
HIP_OOM = (
    "torch.OutOfMemoryError: HIP out of memory. Tried to allocate 3.00 GiB. GPU 1 has a total capacity of 23.98 GiB "
    "of which 512.00 MiB is free. Of the allocated memory 21.80 GiB is allocated by PyTorch, and 4.25 GiB is reserved "
    "by PyTorch but unallocated."
)
ASYNC_OOM = """torch.OutOfMemoryError: Allocation on device 0 would exceed allowed memory. (out of memory)
Currently allocated     : 22.37 GiB
Requested               : 768.00 MiB
Device limit            : 23.64 GiB
Free (according to CUDA): 210.00 MiB
PyTorch limit (set by user-supplied memory fraction)
                        : 17179869184.00 GiB
"""

CHAT = "Hi! My Flux LoRA keeps crashing on a 4090 when I turn off gradient checkpointing. What should I change?"


# --- the table --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    name: str
    text: str
    ids: tuple[str, ...] = ()  # exact signal ids, in order
    gpu_oom: bool = False
    not_gpu_oom: str | None = None
    step: int | None = None
    total: int | None = None
    phase: str | None = None
    data: dict[str, dict[str, Any]] = field(default_factory=dict)  # per signal: these keys with these values
    log: bool | None = True  # looks_like_log, when checked


NEW_FIGURES = {
    "tried_to_allocate_gib": 2.5,
    "total_capacity_gib": 23.64,
    "free_gib": 1.03,
    "allocated_by_pytorch_gib": 20.1,
    "reserved_unallocated_gib": 1.2,
    "gpu": 0,
}

CASES = [
    Case(
        "new-format OOM, every figure",
        crash(NEW_OOM, TRAIN_FRAMES),
        ids=("cuda-oom", "other-process-vram", "fragmentation"),
        gpu_oom=True,
        phase="training",
        data={
            "cuda-oom": NEW_FIGURES,
            "other-process-vram": {"processes": 1, "used_gib": 10.5},
            "fragmentation": {"reserved_unallocated_gib": 1.2},
        },
    ),
    Case(
        "old-format OOM (PyTorch < 2.1)",
        OLD_OOM,
        ids=("cuda-oom", "fragmentation"),
        gpu_oom=True,
        data={
            "cuda-oom": {
                "tried_to_allocate_gib": 0.02,
                "total_capacity_gib": 23.65,
                "allocated_by_pytorch_gib": 22.1,
                "free_gib": 0.0,
                "reserved_unallocated_gib": 0.4,  # 22.50 reserved in total - 22.10 allocated
                "gpu": 0,
            }
        },
    ),
    Case(
        "other processes, the message quoted twice, this process not counted",
        "Error running job: CUDA out of memory. Tried to allocate 720.00 MiB. GPU 0 has a total capacity of 47.40 GiB "
        "of which 301.56 MiB is free. Process 3121 has 2.10 GiB memory in use. Process 3377 has 1.50 GiB memory in "
        "use. Including non-PyTorch memory, this process has 43.31 GiB memory in use.\n"
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 720.00 MiB. GPU 0 has a total capacity of "
        "47.40 GiB of which 301.56 MiB is free. Process 3121 has 2.10 GiB memory in use. Process 3377 has 1.50 GiB "
        "memory in use. Including non-PyTorch memory, this process has 43.31 GiB memory in use.",
        ids=("cuda-oom", "other-process-vram"),
        gpu_oom=True,
        data={
            "other-process-vram": {"processes": 2, "used_gib": 3.6},
            "cuda-oom": {"tried_to_allocate_gib": 0.7, "total_capacity_gib": 47.4, "free_gib": 0.29, "gpu": 0},
        },
    ),
    Case(
        "WSL's impossible per-process figure is ignored",
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 MiB. GPU 0 has a total capacity of "
        "11.99 GiB of which 0 bytes is free. Process 1 has 17179869184.00 GiB memory in use.",
        ids=("cuda-oom",),
        gpu_oom=True,
        data={"cuda-oom": {"free_gib": 0.0, "total_capacity_gib": 11.99}},
    ),
    Case(
        "fragmentation from the figures alone (hint cut off)",
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total capacity of 23.64 "
        "GiB of which 900.00 MiB is free. Of the allocated memory 17.90 GiB is allocated by PyTorch, and 3.50 GiB is "
        "reserved by PyTorch but unallocated.",
        ids=("cuda-oom", "fragmentation"),
        gpu_oom=True,
        data={"fragmentation": {"reserved_unallocated_gib": 3.5}, "cuda-oom": {"free_gib": 0.88}},
    ),
    Case(
        "little reserved-unallocated memory and no hint: no fragmentation",
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total capacity of 23.64 "
        "GiB of which 900.00 MiB is free. Of the allocated memory 21.90 GiB is allocated by PyTorch, and 412.33 MiB "
        "is reserved by PyTorch but unallocated.",
        ids=("cuda-oom",),
        gpu_oom=True,
        data={"cuda-oom": {"reserved_unallocated_gib": 0.4}},
    ),
    Case(
        "progress 2/3000 then OOM: early training step",
        STARTUP + train_bars("flux_dev_style_lora", 2) + "\n" + crash(NEW_OOM, TRAIN_FRAMES),
        ids=("loading", "caching", "progress", "cuda-oom", "other-process-vram", "fragmentation"),
        gpu_oom=True,
        step=2,
        total=3000,
        phase="training",
        data={"progress": {"step": 2, "total": 3000}, "cuda-oom": NEW_FIGURES},
    ),
    Case(
        "bar printed right before the traceback, no newline (stderr)",
        train_bars("my_wan_lora", 241, 2000, start=230) + crash(NEW_OOM),
        ids=("progress", "cuda-oom", "other-process-vram", "fragmentation"),
        gpu_oom=True,
        step=241,
        total=2000,
        phase="training",
    ),
    Case(
        "Generating Images after a save, then OOM: sampling at step 500",
        train_bars("my_lora", 500, start=480)
        + "\nSaving at step 500\n"
        + "Saved checkpoint to /workspace/ai-toolkit/output/my_lora/my_lora_000000500.safetensors\n"
        + sample_bars(images=4, steps=25, upto_image=1, upto_step=3)
        + "\n"
        + crash(NEW_OOM, SAMPLE_FRAMES),
        ids=("progress", "saving", "sampling", "cuda-oom", "other-process-vram", "fragmentation"),
        gpu_oom=True,
        step=500,
        total=3000,
        phase="sampling",
        data={"sampling": {"baseline": False}, "saving": {"step": 500}},
    ),
    Case(
        "baseline samples before training go OOM",
        STARTUP
        + "Generating baseline samples before training\n"
        + sample_bars(images=2, steps=8, upto_image=0, upto_step=1)
        + "\n"
        + crash(NEW_OOM, SAMPLE_FRAMES),
        ids=("loading", "caching", "sampling", "cuda-oom", "other-process-vram", "fragmentation"),
        gpu_oom=True,
        phase="sampling",
        data={"sampling": {"baseline": True}},
    ),
    Case(
        "OOM in training after the baseline samples went fine",
        "Generating baseline samples before training\n"
        + sample_bars(images=2, steps=8, upto_image=2, upto_step=8)
        + train_bars("zimage_lora", 3)
        + "\n"
        + crash(NEW_OOM, TRAIN_FRAMES),
        ids=("sampling", "progress", "cuda-oom", "other-process-vram", "fragmentation"),
        gpu_oom=True,
        step=3,
        total=3000,
        phase="training",
    ),
    Case(
        "caching latents, then OOM",
        "Caching latents for /workspace/datasets/me\n - Saving latents to disk\n"
        + "\r".join(bar("Caching latents to disk", n, 40) for n in range(19))
        + "\n"
        + crash(NEW_OOM, CACHE_FRAMES),
        ids=("caching", "cuda-oom", "other-process-vram", "fragmentation"),
        gpu_oom=True,
        phase="caching",
    ),
    Case(
        "loading checkpoint shards, then OOM",
        "Loading Qwen Image model\nLoading transformer\n"
        + bar("Loading checkpoint shards", 1, 2)
        + "\n"
        + crash(OLD_OOM),
        ids=("loading", "cuda-oom", "fragmentation"),
        gpu_oom=True,
        phase="loading",
        data={"loading": {"text": "Loading checkpoint shards"}},
    ),
    Case(
        "the Linux OOM killer: host RAM, not a GPU OOM",
        STARTUP + OOM_KILLER,
        ids=("loading", "caching", "host-ram-kill"),
        not_gpu_oom="host-ram-kill",
        phase="caching",
        data={"host-ram-kill": {"text": OOM_KILLER.splitlines()[0].strip()}},
    ),
    Case(
        "plain Killed from the shell",
        "Loading transformer\n" + bar("Loading checkpoint shards", 1, 3) + "\nKilled\n",
        ids=("loading", "host-ram-kill"),
        not_gpu_oom="host-ram-kill",
        phase="loading",
    ),
    Case(
        "illegal memory access: a CUDA error, not an OOM",
        train_bars("my_lora", 12, start=10) + "\n" + ILLEGAL_ACCESS,
        ids=("progress", "cuda-error"),
        not_gpu_oom="cuda-error",
        step=12,
        total=3000,
        phase="training",
        data={"cuda-error": {"message": "RuntimeError: CUDA error: an illegal memory access was encountered"}},
    ),
    Case(
        "AI Toolkit's own notices (the OOM was caught)",
        train_bars("my_lora", 17, start=15) + NOTICES,
        ids=("progress", "aitk-oom-notice"),
        gpu_oom=True,
        step=17,
        total=3000,
        phase="training",
        data={"aitk-oom-notice": {"text": NOTICES.strip().splitlines()[-1]}},
    ),
    Case(
        "RuntimeError: CUDA error: out of memory",
        "RuntimeError: CUDA error: out of memory\nCUDA kernel errors might be asynchronously reported at some other "
        "API call, so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1",
        ids=("cuda-oom",),
        gpu_oom=True,
    ),
    Case(
        "cuBLAS could not allocate its workspace",
        "RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`",
        ids=("cuda-oom",),
        gpu_oom=True,
    ),
    Case(
        "ROCm / HIP",
        HIP_OOM,
        ids=("cuda-oom", "fragmentation"),
        gpu_oom=True,
        data={"cuda-oom": {"gpu": 1, "free_gib": 0.5, "reserved_unallocated_gib": 4.25, "tried_to_allocate_gib": 3.0}},
    ),
    Case(
        "Apple MPS",
        MPS_OOM,
        ids=("cuda-oom",),
        gpu_oom=True,
        data={
            "cuda-oom": {"allocated_by_pytorch_gib": 17.11, "total_capacity_gib": 18.13, "tried_to_allocate_gib": 0.25}
        },
    ),
    Case(
        "cudaMallocAsync backend",
        ASYNC_OOM,
        ids=("cuda-oom",),
        gpu_oom=True,
        data={
            "cuda-oom": {
                "allocated_by_pytorch_gib": 22.37,
                "tried_to_allocate_gib": 0.75,
                "total_capacity_gib": 23.64,
                "free_gib": 0.21,
                "gpu": 0,
            }
        },
    ),
    Case(
        "Python MemoryError (host RAM)",
        'Traceback (most recent call last):\n  File "/workspace/ai-toolkit/run.py", line 96, in main\n    job.run()\n'
        "MemoryError\n",
        ids=("host-ram-kill",),
        not_gpu_oom="host-ram-kill",
    ),
    Case(
        "errno 12",
        "OSError: [Errno 12] Cannot allocate memory",
        ids=("host-ram-kill",),
        not_gpu_oom="host-ram-kill",
    ),
    Case(
        "torchrun child killed with -9",
        "torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: -9) local_rank: 0 (pid: 4242) of "
        "binary: /usr/bin/python3",
        ids=("host-ram-kill",),
        not_gpu_oom="host-ram-kill",
    ),
    Case(
        "SIGKILL",
        "Signal 9 (SIGKILL) received by PID 4242",
        ids=("host-ram-kill",),
        not_gpu_oom="host-ram-kill",
        log=None,
    ),
    Case(
        "GPU OOM wins over a later kill",
        crash(NEW_OOM) + "Killed\n",
        ids=("cuda-oom", "other-process-vram", "fragmentation", "host-ram-kill"),
        gpu_oom=True,
    ),
    Case(
        "ANSI colours and Windows line endings",
        ("\x1b[32mLoading transformer\x1b[0m\r\n" + train_bars("win_lora", 5, start=3) + "\r\n")
        + "\x1b[31m"
        + crash(NEW_OOM, TRAIN_FRAMES).replace("\n", "\r\n")
        + "\x1b[0m",
        ids=("loading", "progress", "cuda-oom", "other-process-vram", "fragmentation"),
        gpu_oom=True,
        step=5,
        total=3000,
        phase="training",
    ),
    Case(
        "updates glued together without \\r (a viewer dropped it)",
        "".join(bar("glued_lora", n, 1000, "lr: 1.0e-04 loss: 2.000e-01") for n in range(40, 48))
        + "\n"
        + crash(NEW_OOM),
        ids=("progress", "cuda-oom", "other-process-vram", "fragmentation"),
        gpu_oom=True,
        step=47,
        total=1000,
        phase="training",
    ),
    Case(
        "a log viewer's timestamps before every line",
        "\n".join(
            f"2024-06-01T12:{n // 60:02d}:{n % 60:02d}.000Z {line}"
            for n, line in enumerate(
                ["Caching latents for /workspace/datasets/me", bar("Caching latents to disk", 40, 40)]
                + [bar("ts_lora", k, 2000, "lr: 1.0e-04 loss: 3.100e-01") for k in range(1, 31)]
                + [NEW_OOM]
            )
        ),
        ids=("caching", "progress", "cuda-oom", "other-process-vram", "fragmentation"),
        gpu_oom=True,
        step=30,
        total=2000,
        phase="training",
    ),
    Case(
        "only a traceback: the frames tell the phase",
        'Traceback (most recent call last):\n  File "/workspace/ai-toolkit/jobs/process/BaseSDTrainProcess.py", '
        'line 1822, in run\n    self.sd.load_model()\n  File "/workspace/ai-toolkit/extensions_built_in/'
        'diffusion_models/qwen_image/qwen_image.py", line 120, in load_model\n    transformer.to(self.device_torch)\n'
        + OLD_OOM,
        ids=("loading", "cuda-oom", "fragmentation"),
        gpu_oom=True,
        phase="loading",
    ),
    Case(
        "step N of M said in a sentence",
        "it crashes at Step 2 of 3000 with torch.OutOfMemoryError: CUDA out of memory",
        ids=("progress", "cuda-oom"),
        gpu_oom=True,
        step=2,
        total=3000,
        phase="training",
    ),
    Case(
        "a normal chat sentence",
        CHAT,
        log=False,
    ),
    Case(
        "chat that mentions killing a process is not a kill",
        "I killed the other python process and restarted, is that enough?",
        log=False,
    ),
    Case("empty string", "", log=False),
    Case("only whitespace", " \n\r\n\t ", log=False),
    Case(
        "a Python error ends the traceback (a config problem)",
        'Traceback (most recent call last):\n  File "/app/ai-toolkit/run.py", line 90, in main\n'
        "    job = get_job(config_file, args.name)\nKeyError: 'job'\n",
        ids=("python-error",),
        not_gpu_oom="python-error",
        data={"python-error": {"type": "KeyError", "message": "KeyError: 'job'"}},
    ),
    Case(
        "a weights file that cannot be read, then AI Toolkit's wrapper",
        "Loading Flux model\nsafetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge\n"
        "Error running job: Error while deserializing header: HeaderTooLarge\n",
        ids=("loading", "python-error"),
        not_gpu_oom="python-error",
        phase="loading",
        data={"python-error": {"type": "SafetensorError"}},
    ),
    Case(
        "an NCCL watchdog timeout",
        "[rank0]:[E1102 04:21:33.118 ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught collective operation timeout: "
        "WorkNCCL(SeqNum=1842, OpType=ALLREDUCE) ran for 600041 milliseconds before timing out.\n"
        "terminate called after throwing an instance of 'c10::DistBackendError'\n",
        ids=("cuda-error",),
        not_gpu_oom="cuda-error",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_read_log(case: Case) -> None:
    got = read_log(case.text)
    assert [s.id for s in got.signals] == list(case.ids)
    assert got.gpu_oom is case.gpu_oom
    assert got.not_gpu_oom == case.not_gpu_oom
    assert (got.step, got.total_steps) == (case.step, case.total)
    assert got.phase == case.phase
    by_id = {s.id: s.data for s in got.signals}
    for sid, expected in case.data.items():
        assert {k: by_id[sid].get(k) for k in expected} == expected, sid
    if case.log is not None:
        assert looks_like_log(case.text) is case.log


def test_new_format_figures_are_exactly_those_present() -> None:
    data = {s.id: s.data for s in read_log(NEW_OOM).signals}
    assert data["cuda-oom"] == NEW_FIGURES
    got = read_log("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.5 GB.")
    partial = {s.id: s.data for s in got.signals}
    assert partial == {"cuda-oom": {"tried_to_allocate_gib": 1.5}}


def test_kernel_oom_killer_is_never_a_cuda_oom() -> None:
    got = read_log("Out of memory: Killed process 1234 (python) total-vm:80000000kB")
    assert [s.id for s in got.signals] == ["host-ram-kill"]
    assert not got.gpu_oom and got.not_gpu_oom == "host-ram-kill"


def test_signals_appear_once_in_order_of_first_appearance() -> None:
    text = crash(NEW_OOM, SAMPLE_FRAMES) + "\n" + train_bars("again", 3) + "\n" + crash(NEW_OOM, TRAIN_FRAMES)
    got = read_log(text)
    ids = [s.id for s in got.signals]
    assert ids == ["cuda-oom", "other-process-vram", "fragmentation", "sampling", "progress"]
    assert got.phase == "training"  # the last failure is the one that counts


def test_only_the_tail_is_read() -> None:
    head = "Generating baseline samples before training\n" + "x" * 10 + "\n"
    filler = ("some harmless warning line\n" * (MAX_CHARS // 27 + 10))[: MAX_CHARS + 10]
    got = read_log(head + filler + crash(NEW_OOM))
    assert "sampling" not in {s.id for s in got.signals}
    assert got.gpu_oom


def test_bare_bars_outside_sampling_count_as_training() -> None:
    got = read_log(bar("", 7, 400) + "\n" + crash(NEW_OOM))
    assert (got.step, got.total_steps, got.phase) == (7, 400, "training")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (crash(NEW_OOM), True),
        (train_bars("my_lora", 2), True),
        ("2024-06-01 12:00:03 | INFO | step done", True),
        ('  File "/workspace/ai-toolkit/run.py", line 120, in <module>', True),
        ("loss went to nan, see torch.isnan", True),
        ("ERROR: job failed", True),
        ("Killed", True),
        (CHAT, False),
        ("I train at 1024x1024 with batch 2 and 24GB VRAM, is that too much?", False),
        ("", False),
    ],
)
def test_looks_like_log(text: str, expected: bool) -> None:
    assert looks_like_log(text) is expected


# --- robustness and speed ----------------------------------------------------------------------------------------

FRAGMENTS = [
    "%|",
    "|",
    "\r",
    "\n",
    "\r\n",
    "\x1b[31m",
    "\x1b]0;title\x07",
    "\x1b",
    "CUDA out of memory. ",
    "Tried to allocate ",
    "GiB",
    " MiB",
    "GPU 0 has a total capacity of ",
    "Process ",
    " has ",
    " memory in use",
    "Killed",
    "Out of memory: Killed process ",
    "Generating Images",
    "Caching latents",
    "Loading transformer",
    "Saving at step ",
    "step ",
    "/",
    " of ",
    "OOM during training step",
    "CUDA error: ",
    '  File "x.py", line 3, in sample',
    "█",
    "İ",
    "\ud800",
    "\x00",
    "99999999999999999999",
    "1.2.3",
    ": ",
    "]",
    "[00:12<",
]


def _random_text(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randint(0, 60)):
        if rng.random() < 0.6:
            parts.append(rng.choice(FRAGMENTS))
        else:
            parts.append("".join(chr(rng.randint(0, 0x2FFF)) for _ in range(rng.randint(0, 12))))
    return "".join(parts)


def _check_invariants(got: LogReading) -> None:
    assert isinstance(got, LogReading)
    ids = [s.id for s in got.signals]
    assert len(ids) == len(set(ids)) and set(ids) <= SIGNAL_IDS
    assert got.phase in PHASES
    assert got.not_gpu_oom in (None, "host-ram-kill", "cuda-error")
    if got.gpu_oom:
        assert got.not_gpu_oom is None
    json.dumps([s.data for s in got.signals])


def test_fuzz_random_garbage_never_raises() -> None:
    rng = random.Random(20240601)
    real = [crash(NEW_OOM, TRAIN_FRAMES), STARTUP + OOM_KILLER, ILLEGAL_ACCESS, MPS_OOM, ASYNC_OOM, NOTICES]
    for i in range(400):
        if i % 2:
            text = _random_text(rng)
        else:  # a real log, cut and spliced at random places
            base = rng.choice(real) + train_bars("fz", rng.randint(0, 20))
            a, b = sorted(rng.randrange(len(base) + 1) for _ in range(2))
            text = base[:a] + _random_text(rng) + base[b:]
        _check_invariants(read_log(text))
        assert isinstance(looks_like_log(text), bool)


def test_wrong_types_say_nothing() -> None:
    assert read_log(None) == read_log("")  # type: ignore[arg-type]
    assert looks_like_log(b"Traceback") is False  # type: ignore[arg-type]


def test_large_inputs_are_read_to_the_end() -> None:
    # Speed is measured in bench/inprocess.py, not here: this checks only that big inputs are read whole.
    tail = "\n" + crash(NEW_OOM, TRAIN_FRAMES)
    large = STARTUP + train_bars("speed", 3000)[-200_000:] + tail
    reading = read_log(large)
    assert reading.step == 3000 and reading.gpu_oom
    assert read_log((CHAT + "\n") * (MAX_CHARS // len(CHAT))).signals == ()


# --- texts ------------------------------------------------------------------------------------------------------

_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")
# Data keys every signal always carries (placeholders may use only these).
ALWAYS = {
    "other-process-vram": {"processes", "used_gib"},
    "progress": {"step", "total"},
    "sampling": {"baseline"},
    "aitk-oom-notice": {"text"},
    "caching": {"text"},
    "loading": {"text"},
    "saving": {"text"},
    "host-ram-kill": {"text"},
    "cuda-error": {"message"},
    "python-error": {"type", "message"},
    "inference-run": {"text"},
    "nan-loss": {"text"},
}


@pytest.mark.parametrize("lang", LANGS)

def test_every_signal_has_a_sentence_with_safe_placeholders(lang: str) -> None:
    texts = yaml.safe_load((KNOWLEDGE / "text" / lang / "signals.yaml").read_text(encoding="utf-8"))
    english = yaml.safe_load((KNOWLEDGE / "text" / "en" / "signals.yaml").read_text(encoding="utf-8"))
    assert set(texts) == SIGNAL_IDS
    for sid, sentence in texts.items():
        assert isinstance(sentence, str) and sentence.strip(), sid
        names = set(_PLACEHOLDER.findall(sentence))
        assert names == set(_PLACEHOLDER.findall(english[sid])), sid
        assert names <= ALWAYS.get(sid, set()), sid


def test_the_signal_table_declares_the_data_each_signal_always_carries() -> None:
    from remedy.understanding.log_rules import YIELDS

    assert {sid: set(keys) for sid, keys in YIELDS.items() if keys} == ALWAYS


def test_always_present_data_is_always_present() -> None:
    for case in CASES:
        for s in read_log(case.text).signals:
            assert ALWAYS.get(s.id, set()) <= set(s.data), (case.name, s.id)
