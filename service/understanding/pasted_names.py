"""The names of a pasted setting line (engine layer): its flags, its keys written as identifiers, its paths and files,
whose words are a program's, no prose (`setting_names`, stored per sentence: `sentences.Sentence.names`), and the hits
`setting_words` keeps of them: only the concepts the setting table lists as read there (`structure/settings.yaml`
`concept` of a key, `named`). Used by `sentences` and `matcher`."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Protocol

from .analysis import Token
from .lexicon import Hit
from .normalize import normalize, split_tokens
from .pasted import Pasted, SettingTable

# The names a setting line gives that are a program's, not the user's words: a flag (`--sample-n-frames`), a key written
# as an identifier (`sample_every:`, `"train.batch_size":`, `CUDA_VISIBLE_DEVICES=`; a plain word is a label the user
# writes: "GC: on", "GPU: 3090"), a path or a file (`hymm_sp/sample_gpu_poor.py`, `'assets/test.csv'`).
_NAME = re.compile(
    r"(?<!\S)--([A-Za-z][\w.-]{0,80})"
    r"|(?<![\w.-])([\"']?)([A-Za-z][\w.-]{0,80})\2[ \t]*[:=]"
    r"|((?:[\w.~:-]{0,80}[/\\]){1,12}[\w.-]{0,80}|[\w-]{1,80}\.(?!\d)\w{1,12})(?![\w/\\])"
)
_EXTENSION = re.compile(r"\.[A-Za-z]\w{0,11}$")


class Line(Protocol):
    """A sentence of a reading as `setting_words` reads it (`sentences.Sentence`): its tokens and its names."""

    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def names(self) -> tuple[str, ...]: ...


class Read(Protocol):
    """A reading as `setting_words` reads it (`sentences.Reading`): its tokens and its sentences."""

    @property
    def tokens(self) -> list[Token]: ...
    @property
    def sentences(self) -> Sequence[Line]: ...


def setting_names(line: str) -> tuple[str, ...]:
    """The names of a setting line (`setting_line`) whose words are no prose: its flags, its keys written as
    identifiers, its paths and files (lowered).

    >>> setting_names("CUDA_VISIBLE_DEVICES=0 python3 hymm_sp/sample_gpu_poor.py --sample-n-frames 129 \\\\")
    ('cuda_visible_devices', 'hymm_sp/sample_gpu_poor.py', 'sample-n-frames')
    >>> setting_names("GC: on"), setting_names('  "sample_every": 250,'), setting_names("--input 'assets/test.csv'")
    ((), ('sample_every',), ('input', 'assets/test.csv'))
    """
    names = []
    for m in _NAME.finditer(line):
        flag, quote, key, path = m.group(1, 2, 3, 4)
        name = flag or (path if path and _a_path(path) else None) or (
            key if key and (quote or any(c in key for c in "_.-")) else None)
        if name:
            names.append(name.lower())
    return tuple(names)


def _a_path(word: str) -> bool:
    """A path or a file, not words joined by a slash ("on/off", "w/o"): a file's extension, a root, or two folders.

    >>> _a_path("hymm_sp/sample.py"), _a_path("./out"), _a_path("models/llama-13b-hf/"), _a_path("on/off")
    (True, True, True, False)
    """
    if not any(c.isalnum() for c in word):
        return False  # a line's continuation (`\\`)
    return (_EXTENSION.search(word) is not None or word[:1] in "./~\\" or word.count("/") + word.count("\\") > 1
            or word[1:3] == ":\\")


def setting_words(hits: list[Hit], reading: Read, table: SettingTable, pasted: Pasted) -> list[Hit]:
    """The hits without the concepts a trainer's key, given as a setting (`pasted.keys`), spells as a word but does
    not mean: `--cache_latents` is a setting, no caching phase; `gradient_checkpointing` keeps GC (its `concept`).
    The same word in the user's prose ("OOM while caching latents") keeps its concepts. Inside a setting line (a
    sentence of the reading with its `setting_names`), a name's words say nothing as prose but the concept its key keeps
    by the table and those it lists as `named`: `--sample-n-frames 129` is no preview nor frame count,
    `sample_gpu_poor.py` no preview, `checkpoints/` no GC; `musubi-tuner/`, `llama-13b` still name the program, the
    model."""
    tokens = reading.tokens
    named = _named(tokens, table, reading.sentences)
    if not pasted.keys and not named:
        return hits
    out = []
    for h in hits:
        if named and all(i in named for i in range(h.start, h.end)):
            if h.concept in table.named or any(h.concept in named[i] for i in range(h.start, h.end)):
                out.append(h)
            continue
        settings = [table.by_key[t.text] for t in tokens[h.start:h.end] if t.text in pasted.keys]
        if all(s.concept == h.concept for s in settings):
            out.append(h)
    return out


def _kept(key: str, table: SettingTable) -> set[str]:
    """The concept a name keeps: its key's (`settings.yaml` `concept`), else that of each key of several words it
    holds whole (`--fsdp-activation-checkpointing` tells GC, `--train-sp-batch-size` a batch; a key of one word says
    too little: `--sample-n-frames` tells no frame count).

    >>> from remedy.content.models import PastedSetting
    >>> gc = PastedSetting(fact="gradient_checkpointing", kind="switch", keys=("x",), concept="gc")
    >>> table = SettingTable({"activation_checkpointing": gc}, frozenset(), frozenset(), (), (), {}, None)
    >>> _kept("fsdp_activation_checkpointing", table), _kept("activation_checkpointing_x", table), _kept("x", table)
    ({'gc'}, {'gc'}, set())
    """
    setting = table.by_key.get(key)
    if setting is not None:
        return {setting.concept} if setting.concept else set()
    framed = f"_{key}_"
    return {s.concept for k, s in table.by_key.items() if s.concept and "_" in k and f"_{k}_" in framed}


def _named(tokens: list[Token], table: SettingTable, lines: Iterable[Line]) -> dict[int, frozenset[str]]:
    """Per token of a setting line's names, the concepts its key keeps (`settings.yaml` `concept`; none for a key the
    table does not list, a path, a file)."""
    out: dict[int, frozenset[str]] = {}
    for line in lines:
        if not line.names:
            continue
        words: dict[str, set[str]] = {}
        for name in line.names:
            kept = _kept(name.replace("-", "_").rsplit(".", 1)[-1], table)
            for word in split_tokens(normalize(name)):
                words.setdefault(word, set()).update(kept)
        out.update((i, frozenset(words[tokens[i].text])) for i in range(line.start, line.end)
                   if tokens[i].text in words)
    return out
