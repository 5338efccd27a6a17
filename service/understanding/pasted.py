"""Pasted settings (engine layer): a line of a config or a command line (not the user's words), and a number that
is another setting's value (`--max_train_steps 1600`). Used by `sentences` and `extract`."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .analysis import Token
from .lexicon import Hit

# A line of settings: a config entry with one value (`resolution = "768,768"`, `"batch_size": 2,`,
# `TRAIN_BATCH_SIZE=1`), or a command line mostly made of flags (`accelerate launch train.py --cache_latents`).
_ENTRY = re.compile(r"^\s*\"?[A-Za-z][\w.-]*\"?\s*[:=]\s*\S+\s*\\?\s*$")
_A_FLAG = re.compile(r"(?<!\S)--[A-Za-z]")
_FLAG_SHARE = 3  # at least one word in three a flag


def setting_line(line: str) -> bool:
    """A line of a pasted config or command line, not the user's words.

    >>> setting_line("  --max_train_steps=1600 \\\\"), setting_line('"gradient_checkpointing": "ON",')
    (True, True)
    >>> setting_line("I tried --cache_latents and it still OOMs"), setting_line("error: out of memory")
    (False, False)
    """
    if _ENTRY.match(line):
        return True
    flags = len(_A_FLAG.findall(line))
    return flags > 0 and flags * _FLAG_SHARE >= len(line.split())


# The last word of a config key or flag that names the training size (`img_size`, `--resolution`, `target_reso`);
# a key's first word that makes it a limit of the sizes (`--max_bucket_reso 2048`), not one trained.
_SIZE_KEYS = ("size", "reso", "res", "resolution", "width", "height")
_LIMIT_KEYS = ("min", "max")


def keyed(tokens: list[Token], i: int, buckets: Sequence[Hit]) -> bool:
    """The number at `i` is the value of another setting's key, right before it on a pasted command line or in a
    config (`--max_train_steps 1600`, `--cutoff_len=512`, `max_bucket_reso = 2048`): a flag or key is written with
    underscores, and only one that names the size (the bucket vocabulary's, or `img_size`) gives a size."""
    key = tokens[i - 1].text if i > 0 else ""
    if "_" not in key:
        return False
    words = key.strip("-_").split("_")
    named = any(b.start <= i - 1 < b.end for b in buckets) or words[-1] in _SIZE_KEYS
    return not named or words[0] in _LIMIT_KEYS
