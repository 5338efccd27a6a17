"""The trainers' keys found in a text by the prefixes they share (perf11: `pasted._gates`), on posts written for the
test in six languages: the gated search finds every key the plain search over each probe finds, and the settings read
from a paste are the same whether the keys share a prefix with others (`sample_`, `validation_`) or not."""

from __future__ import annotations

import pytest

from remedy.index.build import Index
from remedy.understanding.matcher import understand
from remedy.understanding.pasted import SettingTable, _key_starts, name_starts, read_settings

# (language, post, the batch size its paste states, the GC state it states): flags with `_` and `-`, keys in a YAML
# or a dict, keys that share a prefix with other keys (`sample_every`, `validation_steps`) beside the ones read
POSTS = [
    ("en", "OOM at step 3 with this:\naccelerate launch train.py --train_batch_size=4 --gradient_checkpointing "
           "--sample_every_n_steps 200 --validation_steps 100", 4, True),
    ("es", "me quedo sin VRAM en el paso 2, mi config:\nbatch_size: 2\ngradient_checkpointing: false\n"
           "sample_every: 250", 2, False),
    ("pt", "deu CUDA out of memory logo no começo\n--train-batch-size 3 --gradient-checkpointing --sample-steps 20",
     3, True),
    ("fr", "ça plante au step 5 avec ça :\n\"train_batch_size\": 1,\n\"gradient_checkpointing\": true,\n"
           "\"validation_prompt\": \"a cat\"", 1, True),
    ("de", "Speicher voll bei Schritt 4, meine Einstellungen:\nmax_train_steps = 1600\ntrain_batch_size = 6\n"
           "gradient_checkpointing = false", 6, False),
    ("ko", "2스텝에서 메모리 부족이 나요\n--train_batch_size 8 --gradient_checkpointing --save_every_n_steps 500",
     8, True),
]

# Twins: the same words in the user's own sentences, no paste: no setting is read from them
TWINS = [
    ("en", "OOM at step 3 even with batch size 4 and gradient checkpointing on"),
    ("es", "me quedo sin VRAM en el paso 2 con batch 2 y el gradient checkpointing apagado"),
    ("pt", "deu CUDA out of memory logo no começo, batch 3 e gradient checkpointing ligado"),
    ("fr", "ça plante au step 5 avec un batch de 1, le gradient checkpointing est activé"),
    ("de", "Speicher voll bei Schritt 4 mit Batch 6, Gradient Checkpointing ist aus"),
    ("ko", "2스텝에서 메모리 부족이 나요 배치 8에 그래디언트 체크포인팅 켰어요"),
]


def _plain_starts(text: str, table: SettingTable) -> list[int]:
    """The search before the gates: every probe (and, in a text with `--`, every dashed probe) looked for alone."""
    low = text.lower()
    return name_starts(low, (*table.probes, *table.dashed) if "--" in low else table.probes)


@pytest.mark.parametrize(("lang", "text", "batch", "gc"), POSTS, ids=[p[0] for p in POSTS])
def test_a_paste_states_its_settings_whatever_prefix_its_keys_share(index: Index, lang: str, text: str, batch: int,
                                                                    gc: bool) -> None:
    table = index.matcher.settings
    assert _key_starts(text, table) == _plain_starts(text, table)
    values = read_settings(text, table).values
    assert values.get("batch_size") == batch
    assert values.get("gradient_checkpointing") is gc
    stated = understand(index.matcher, text, lang).stated
    assert stated.batch_size == batch
    assert stated.gradient_checkpointing is gc


@pytest.mark.parametrize(("lang", "text"), TWINS, ids=[t[0] for t in TWINS])
def test_the_users_own_words_set_no_setting(index: Index, lang: str, text: str) -> None:
    table = index.matcher.settings
    assert _key_starts(text, table) == _plain_starts(text, table)
    assert read_settings(text, table).values == {}


def test_every_probe_sits_under_one_gate(index: Index) -> None:
    table = index.matcher.settings
    gated = [name for gate, group in table.gates for name in group if name.startswith(gate)]
    assert sorted(gated) == sorted(table.probes)
    dashed = [name for gate, group in table.dashed_gates for name in group if name.startswith(gate)]
    assert sorted(dashed) == sorted(table.dashed)
