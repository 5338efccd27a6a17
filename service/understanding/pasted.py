"""Pasted settings (engine layer): a line of a config or a command line (not the user's words), a number that is
another setting's value (`--max_train_steps 1600`), and what the keys of other trainers' configs, command lines and
env files state (`read_settings`, by `structure/settings.yaml`, compiled once by `compile_settings`). Used by
`sentences`, `extract` and `matcher`."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ..content.models import PastedSetting, PastedSettings
from .analysis import Token
from .lexicon import Hit

# A line of settings: a config entry with one value (`resolution = "768,768"`, `"batch_size": 2,`,
# `TRAIN_BATCH_SIZE=1`), or a command line mostly made of flags (`accelerate launch train.py --cache_latents`).
_ENTRY = re.compile(r"^\s*\"?[A-Za-z][\w.-]*\"?\s*[:=]\s*\S+\s*\\?\s*$")
_A_FLAG = re.compile(r"(?<!\S)--[A-Za-z]")
_FLAG_SHARE = 3  # at least one word in three a flag
# A line of a command continued on the next (`CUDA_VISIBLE_DEVICES=0 python3 sample.py \`, PowerShell's `` ` ``, cmd's
# `^`), or of a shell's environment (`export CPU_OFFLOAD=1`, `set PYTORCH_CUDA_ALLOC_CONF=...`): a command line's.
_CONTINUED = re.compile(r"\s[\\`^]\s*$")
_ENV = re.compile(r"^\s*(?:export|set)\s+[A-Za-z_]\w*=\S*\s*$", re.IGNORECASE)


def setting_line(line: str) -> bool:
    """A line of a pasted config or command line, not the user's words.

    >>> setting_line("  --max_train_steps=1600 \\\\"), setting_line('"gradient_checkpointing": "ON",')
    (True, True)
    >>> setting_line("CUDA_VISIBLE_DEVICES=0 python3 x.py \\\\"), setting_line("export CPU_OFFLOAD=1")
    (True, True)
    >>> setting_line("I tried --cache_latents and it still OOMs"), setting_line("error: out of memory")
    (False, False)
    """
    if ("=" in line or ":" in line) and (_ENTRY.match(line) or _ENV.match(line)):  # (each holds what it is tried for)
        return True
    if _CONTINUED.search(line):
        return True
    if "--" not in line:
        return False
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


# --- settings of other trainers' pastes ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SettingTable:
    """`structure/settings.yaml` compiled (index layer): each key name's setting, and how a switch reads."""

    by_key: Mapping[str, PastedSetting]
    on: frozenset[str]
    off: frozenset[str]
    probes: tuple[str, ...]  # what finds every key in a text (`_probes`: `batch_size` finds `train_batch_size`)
    dashed: tuple[str, ...]  # the same, as a flag may spell them (`--gradient-checkpointing`)
    printed: Mapping[str, str]  # a label a log prints a setting after -> its fact
    labels: re.Pattern[str] | None  # the printed labels and the value after them, one pattern
    # `probes` and `dashed` grouped under the prefix they share (`_gates`): a group is searched for where it is
    gates: tuple[tuple[str, tuple[str, ...]], ...] = ()
    dashed_gates: tuple[tuple[str, tuple[str, ...]], ...] = ()
    named: frozenset[str] = frozenset()  # the concepts a name's words tell in a setting line (`settings.yaml` `named`)


def compile_settings(pasted: PastedSettings) -> SettingTable:
    printed = {label: p.fact for p in pasted.printed for label in p.labels}
    probes = _probes([k for s in pasted.settings for k in s.keys])
    alternatives = "|".join(re.escape(label) for label in sorted(printed, key=len, reverse=True))
    dashed = tuple(sorted({p.replace("_", "-") for p in probes if "_" in p}))
    return SettingTable(
        by_key=MappingProxyType({k: s for s in pasted.settings for k in s.keys}),
        probes=probes,
        dashed=dashed,
        gates=_gates(probes, "_"),
        dashed_gates=_gates(dashed, "-"),
        on=frozenset(pasted.on_values),
        off=frozenset(pasted.off_values),
        printed=MappingProxyType(printed),
        named=frozenset(pasted.named),
        # the label, a translation or a unit after it ("/ バッチサイズ"), the separator, the value(s)
        labels=re.compile(rf"\b({alternatives})\b[^\n:=]{{0,40}}[:=][ \t]*(\d{{1,4}}(?:[ \t]*,[ \t]*\d{{1,4}})*)")
        if printed else None,
    )


def _probes(keys: list[str]) -> tuple[str, ...]:
    """The substrings that find every key: each key that holds no other key (`batch_size` finds `train_batch_size`;
    the whole name is read from where it starts).

    >>> _probes(["batch_size", "train_batch_size", "num_frames", "frames"])
    ('batch_size', 'frames')
    """
    return tuple(sorted(k for k in keys if not any(o != k and o in k for o in keys)))


@dataclass(frozen=True, slots=True)
class Pasted:
    """What the settings pasted in a text state: a context field's value per fact, the model family a switch
    picks, and the words that name the model (a model key's value, a training script's name)."""

    values: Mapping[str, Any]
    family: str | None = None
    models: tuple[str, ...] = ()
    keys: frozenset[str] = frozenset()  # the table's keys the text gives as settings (`--cache_latents`)


NOTHING_PASTED = Pasted(MappingProxyType({}))

# One setting, matched where `_key_starts` finds a key of the table: the key (quoted or not, a flag or not), a
# separator (`=`, `:`, or spaces after a flag or a key written with underscores), and a value (quoted, a bracketed
# list, or one word). Bounded: a key of 80 characters, a value of 400.
_SETTING = re.compile(
    r"(?<![\w.-])([\"']?)(--)?([A-Za-z][\w.-]{0,80})\1"
    r"(?:[ \t]*([:=])[ \t]*|[ \t]+)?"
    r"(\"[^\"\n]{0,400}\"|'[^'\n]{0,400}'|\[[^\]\n]{0,400}\]|(?!-)[^\s\"'`,\]\}\\]+)?"
)
_NUMBERS = re.compile(r"[\[(]?\s*\d{1,6}(?:\s*[,x×]\s*\d{1,6})*\s*,?\s*[\])]?")
# What follows a value of a key written without `--` in a paste: the line's end, a separator or comment, a flag, or
# another key (`micro_batch_size_per_gpu = 2 gradient_accumulation_steps = 1`); not more words ("Resolutions: 512
# and 768 only" is the user's sentence).
_VALUE_END = re.compile(r"[ \t]*(?:$|[,;}\])#`\\\r\n]|--|[A-Za-z][\w.-]*[ \t]*[:=])")
# The further sizes of a label line's list after its first (`Resolution: 512, 768, 1024`), up to the line's end
_MORE_SIZES = re.compile(r"(?:[ \t]*,[ \t]*\d{1,6})+[ \t]*(?=$|\r|\n)", re.M)
_SCRIPT = re.compile(r"([A-Za-z0-9][\w-]{0,80})\.py\b")
_SIZE_RANGE = (128, 8192)
_COUNT_LIMIT = 100_000
_SCRIPTS = 16  # the training scripts' names looked at (a traceback names one per frame)
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_.-")


def _gates(names: tuple[str, ...], sep: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The names grouped by their first word and its separator, each group with that prefix (a name alone, with
    itself): a name is found only in a text that holds its prefix, so a pasted traceback is searched for the ~30
    prefixes its text holds few of, not for each of ~50 names.

    >>> _gates(("sample_every", "sample_steps", "sdxl", "save_every"), "_")
    (('sample_', ('sample_every', 'sample_steps')), ('sdxl', ('sdxl',)), ('save_every', ('save_every',)))
    """
    groups: dict[str, list[str]] = {}
    for name in names:
        groups.setdefault(name[: name.index(sep) + 1] if sep in name else name, []).append(name)
    return tuple((gate if len(group) > 1 else group[0], tuple(group)) for gate, group in groups.items())


def _key_starts(text: str, table: SettingTable) -> list[int]:
    """Where each name that holds a key of the table starts, in text order (the whole name, a dotted one from its
    first part: `train.batch_size`), with the `--` and the quote before it; `read_settings` reads the name there.
    Only the groups whose shared prefix the text holds are looked for (`table.gates`)."""
    low = text.lower()
    gates = (*table.gates, *table.dashed_gates) if "--" in low else table.gates
    return name_starts(low, (name for gate, group in gates if gate in low for name in group))


def name_starts(low: str, names: Iterable[str]) -> list[int]:
    """Where each of `names` found in the lowered text `low` starts as a whole name, in text order."""
    starts: set[int] = set()
    for name in names:
        i = low.find(name)
        while i >= 0:
            j = i
            while j > 0 and low[j - 1] in _NAME_CHARS and i - j < 80:
                j -= 1
            while j < i and low[j] == "-":
                j += 1  # the name starts with its first letter; a `--` before it is the flag's
            if low.startswith("--", j - 2):
                j -= 2
            if j > 0 and low[j - 1] in "\"'":
                j -= 1
            starts.add(j)
            i = low.find(name, i + len(name))
    return sorted(starts)


def read_settings(text: str, table: SettingTable) -> Pasted:
    """The settings of the trainers' keys the text gives, in every paste form (`structure/settings.yaml`).

    Only where a key of the table is written is a setting read (`_key_starts`: a substring search per key, not a
    pattern tried at every position of a long log). A switch is on when any of its keys says so (a OneTrainer config
    checkpoints per model part); a number or sizes given twice keep the last (a command line's last flag wins, as
    argparse reads it).
    """
    if "=" not in text and ":" not in text and "--" not in text:
        return NOTHING_PASTED
    values: dict[str, Any] = {}
    family: str | None = None
    models: list[str] = []
    keys: set[str] = set()
    sides: set[str] = set()  # the facts a side of the size was given for
    for start in _key_starts(text, table):
        m = _SETTING.match(text, start)
        if m is None and text.startswith(("'", '"'), start):
            m = _SETTING.match(text, start + 1)  # a flag quoted whole in a list (`'--train_batch_size=20',`)
        if m is None:
            continue
        name = m.group(3).lower().replace("-", "_").rsplit(".", 1)[-1]
        setting = table.by_key.get(name)
        if setting is None:
            continue
        flag, sep, raw = m.group(2) is not None, m.group(4), m.group(5)
        if not flag and not _glued(text, m) and (
            (sep is None and ("_" not in name or raw is None)) or _VALUE_END.match(text, m.end()) is None
        ):
            continue  # a word of the user's ("resolution 1024", "Resolutions: 512 and 768 only"), not a setting
        if setting.side and not flag and sep == ":":
            continue  # `width: 1024` in a pasted YAML is AI Toolkit's sample size, no training size
        keys.add(name)
        value = raw.strip("\"'").strip() if raw is not None else None
        if value is not None and value.isdigit() and (more := _MORE_SIZES.match(text, m.end())) is not None:
            value += more.group()  # a list of a UI's label line ("Resolutions: 512, 768, 1024, 1536"): all its sizes
        yaml_list = sep == ":" and not m.group(1) and not flag
        read = _value(setting, value, flag, yaml_list, table)
        if read is None:
            continue
        if setting.kind == "name":
            models.append(str(read))
        elif setting.family is not None:
            family = setting.family if read is True else family
        elif setting.kind == "switch":
            values[setting.fact] = values.get(setting.fact) is True or read
        elif setting.side and setting.fact in sides:
            values[setting.fact] = max(values[setting.fact], read)  # the other side given before: the larger
        else:
            if setting.side:
                sides.add(setting.fact)
            values[setting.fact] = read
    models.extend(_scripts(text))
    values.update((fact, n) for fact, n in _printed(text, table) if fact not in values)
    return Pasted(MappingProxyType(values), family, tuple(models), frozenset(keys))


def _scripts(text: str) -> list[str]:
    r"""`_SCRIPT.findall(text)`, the first `_SCRIPTS` of them, tried only where a `.py` is: a match ends at one and
    starts at most 81 characters before it (on a pasted traceback the pattern tried at every position and backtracking
    over every word cost ~90 us; this ~8 us).

    >>> _scripts('File "/ai-toolkit/run.py", line 90\nflux_train_network.py --x'), _scripts("a.pyc")
    (['run', 'flux_train_network'], [])
    """
    out: list[str] = []
    pos, k = 0, text.find(".py")
    while k >= 0 and len(out) < _SCRIPTS:
        m = _SCRIPT.search(text, max(pos, k - 81), k + 4)  # up to the character after `.py`, for its `\b`
        if m is None:
            k = text.find(".py", k + 1)
            continue
        out.append(m.group(1))
        pos = m.end()
        k = text.find(".py", pos)
    return out


def _printed(text: str, table: SettingTable) -> list[tuple[str, int]]:
    """The settings a trainer's log prints (`batch size per device / バッチサイズ: 2`), by `settings.yaml` `printed`:
    what its config or command line gives, when both are pasted, comes first."""
    if table.labels is None:
        return []
    low = text.lower()
    if not any(label in low for label in table.printed):
        return []
    found = []
    for m in table.labels.finditer(low):
        n = max(int(v) for v in re.findall(r"\d+", m.group(2)))
        if 1 <= n <= _COUNT_LIMIT:
            found.append((table.printed[m.group(1)], n))
    return found


def _glued(text: str, m: re.Match[str]) -> bool:
    """`key=value` written without spaces (`train_dataloader.batch_size=2`, `TRAIN_BATCH_SIZE=1`): a setting, even
    with the user's words after it."""
    end = m.end(3) + len(m.group(1))
    return text.startswith("=", end) and m.group(5) is not None and m.start(5) == end + 1


def _value(setting: PastedSetting, value: str | None, flag: bool, yaml_list: bool, table: SettingTable) -> Any:
    """What one key's value says, by its kind; None when it says nothing readable.

    A bare flag (or one followed by a word that is no value of it) is on; sizes in a YAML list are the buckets,
    two numbers elsewhere are a width and a height (sd-scripts' 'width,height'), the larger the size."""
    kind = setting.kind
    if kind == "switch":
        low = value.lower() if value else None
        if low in table.on:
            return True
        if low in table.off:
            return False
        return True if flag else None
    if not value:
        return None
    if kind == "name":
        return value
    if kind == "none" or not _NUMBERS.fullmatch(value):
        return None
    numbers = [int(n) for n in re.findall(r"\d+", value)]
    if kind == "count":
        n = max(numbers)
        return n if 1 <= n <= _COUNT_LIMIT else None
    sizes = sorted({n for n in numbers if _SIZE_RANGE[0] <= n <= _SIZE_RANGE[1]})
    if not sizes:
        return None
    if len(numbers) == 2 and not setting.list and not (yaml_list and value.startswith("[")):
        return (sizes[-1],)
    return tuple(sizes)


_GC = "gradient_checkpointing"
_FILE_STATE = "file_state"  # concepts.yaml: "the yaml says", "o yaml mostra", "ahí sale", `위에 올린 설정에는`


def unless_told_changed(values: Mapping[str, Any], told: bool | None, hits: list[Hit],
                        unowned: frozenset[int]) -> Mapping[str, Any]:
    """The pasted settings (`values`), but the GC state (`told`) the user's own words tell now, against the pasted
    one: "the yaml above shows `gradient_checkpointing: true`, but I turned it off in Show Advanced, so now it's
    off", `위에 올린 설정에는 true로 돼있는데 지금은 꺼놨어요`: the file is the state it was, the prose the state it is
    where the user's words tell the file's state as the file's; without them, the pasted file is the run's own truth
    ("GC is already on" above a pasted `gradient_checkpointing: false` is the mistake the guide warns of)."""
    if told is None or values.get(_GC, told) == told:
        return values
    if not any(h.concept == _FILE_STATE and h.start not in unowned for h in hits):
        return values  # "GC is already on" against a pasted `false`: the file is the run's truth
    return {k: v for k, v in values.items() if k != _GC}
