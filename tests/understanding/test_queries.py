"""The free-text matcher scored on our own query set and the shared development queries.

Each query is checked the way a caller sees it (POST /v1/diagnose, GET /v1/search), with the semantics of
the shared eval's run_eval.py; a language below the threshold fails with the list of misses.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from tests.conftest import LANGS

OWN = Path(__file__).parent / "queries.yaml"
MORE = Path(__file__).parent / "queries_more.yaml"  # fourteen more sets, each written blind in session 2
LONG = Path(__file__).parent / "queries_long.yaml"  # keyword-style and long forum posts: a known gap
# Questions, wishes and comparisons that state no GC value; single resolutions, control images, batch positions.
STATEMENTS = Path(__file__).parent / "queries_statements.yaml"
# Real users' messages (issue 12): almost all English, so one bar for each whole set, a little under its score
# (batch 1: first run 0.483, 0.756 after session 3, 0.814 after session 4; see real_messages.md).
# Batch 2 (session 4, 94 items): first run 0.521, 0.819 after session 4's mechanisms (dev half 0.894, check 0.745).
# Batch 3 (session 5, 89 items, GUI/Colab/notebook trainers and forks): first run 0.629 on main at e69f576 (dev half
# 0.644, check 0.614); 0.753 after session 5's mechanisms (dev 0.867, check 0.636).
# Batch 4 (session 5, 81 items): labelled before any run, first scored on the session's merged understanding: 0.667
# (dev 0.610, check 0.725). End of session 5: batch 1 0.855, 2 0.862, 3 0.809, 4 0.778 (check halves 0.744, 0.766,
# 0.659, 0.725: the honest figure for new messages).
# Batch 5 (session 6, 94 items): labelled before any run, first scored on the session's starting main: 0.628 (dev
# 0.638, check 0.617); 0.670 at the end of session 6 (dev 0.745, check 0.596). End of session 6: batch 1 0.884, 2
# 0.915, 3 0.865, 4 0.827 (check halves 0.791, 0.851, 0.750, 0.775).
# Batches 6 and 7 (session 7, 95 and 94 items): labelled before any run, first scored on the session's starting
# understanding: 0.695 and 0.670; neither half was read during the session: 0.716 and 0.670 at its end. End of session
# 7: batch 1 0.890, 2 0.915, 3 0.854, 4 0.864, 5 0.702 (check halves 0.802, 0.851, 0.750, 0.825, 0.638).
# Batches 8 and 9 (session 8, 91 and 79 items): labelled before any run, first scored on the session's starting
# understanding (0.637 and 0.633) and kept unread: 0.681 and 0.620 at its end. End of session 8: batch 1 0.901, 2
# 0.915, 3 0.876, 4 0.889, 5 0.766, 6 0.811, 7 0.787 (batches 6 and 7's dev halves were read in session 8).
# Batches 10 and 11 (session 9, 63 and 83 items): labelled before any run, first scored on the session's starting
# understanding (0.651 and 0.651) and kept unread: 0.635 and 0.663 at its end. Session 9 read batches 8 and 9's dev
# halves: 0.780 and 0.658 at its end; batches 5-7 0.787, 0.832, 0.851.
# Batches 12 and 13 (session 10, 61 and 74 items, image and video trainers): labelled before any run, first scored on
# the session's starting understanding (0.672 and 0.703) and kept unread: 0.689 and 0.703 at its end. Session 10 read
# batches 10 and 11's dev halves: 0.651 and 0.687 at its end; batches 8 and 9 0.813 and 0.696.
# Batches 14 and 15 (session 11, 56 and 50 items, owners A-M and N-Z): labelled before any run, first scored on the
# session's starting understanding (0.607 and 0.600) and kept unread. Session 11 read batches 12 and 13's dev halves.
# Batches 16 and 17 (session 12, 54 and 20 items, owners A-M and N-Z; the N-Z pool is nearly used up): labelled before
# any run, first scored on the session's starting understanding (0.685 and 0.650) and kept unread. Session 12 read
# batches 14 and 15's dev halves.
# Batch 18 (session 13, 51 items from 47 repositories, research trainers mostly: the trainers' own threads are used up):
# labelled before any run, first scored on the session's starting understanding (0.549: dev 14/26, check 14/25) and
# kept unread. Batch 19 (session 13, 48 items, trainer users' later replies and research repositories): labelled
# before any run, first scored when it was merged, on the session's code at 14ba947 (0.646: dev 15/24, check 16/24;
# the session's starting code scores it 0.625), kept unread. Session 13 read batches 16 and 17's dev halves.
# Batch 20 (session 14, 4 items, all none: later replies in used threads; the session's helpers lost most of their
# time to interruptions): labelled before any run, first scored on the session's starting understanding (0.750: dev 2/2,
# check 1/2). Session 14 read batches 18 and 19's dev halves.
# Batches 21 (35 English items: ai-toolkit, musubi-tuner, diffusion-pipe, later replies in used threads) and 22 (20
# Korean items, mostly other domains: voice diffusion, TTS, LLM; no es/pt/fr/de user message was findable) (session
# 16): labelled by helpers before any run, first scored on the session's starting understanding at 2968105 (0.657: dev
# 12/18, check 11/17; and 0.250: dev 2/10, check 3/10). Session 16 read their dev halves.
# Batches 24 (session 18, 23 English items from forums, blogs and unused GitHub threads, 19 of them none: LLM and VLM
# fine-tunes, a Mac) and 25 (20 items, ko 15, pt 4, fr 1, mostly none: Korean contest servers, TensorFlow): labelled by
# helpers before any run, first scored on the session's starting code at 44e6852 (0.565: dev 6/12, check 7/11; and
# 0.250: dev 3/10, check 2/10). Session 18 read their dev halves.
# Batch 23 (session 17, 31 English items from 22 repositories, 23 of them none: the trainers' OOM, speed and likeness
# threads are used up): labelled by a helper before any run, first scored on the session's starting code at 30e2e4e
# (0.710: dev 12/16, check 10/15) and on the session's code when it came (the same 0.710). Session 17 read its dev half.
REAL = {
    Path(__file__).parent / "real_messages.yaml": 0.87,
    Path(__file__).parent / "real_messages_2.yaml": 0.89,
    Path(__file__).parent / "real_messages_3.yaml": 0.84,
    Path(__file__).parent / "real_messages_4.yaml": 0.86,
    Path(__file__).parent / "real_messages_5.yaml": 0.76,
    Path(__file__).parent / "real_messages_6.yaml": 0.8,
    Path(__file__).parent / "real_messages_7.yaml": 0.82,
    Path(__file__).parent / "real_messages_8.yaml": 0.78,
    Path(__file__).parent / "real_messages_9.yaml": 0.66,
    Path(__file__).parent / "real_messages_10.yaml": 0.62,
    Path(__file__).parent / "real_messages_11.yaml": 0.65,
    Path(__file__).parent / "real_messages_12.yaml": 0.65,
    Path(__file__).parent / "real_messages_13.yaml": 0.67,
    Path(__file__).parent / "real_messages_14.yaml": 0.55,
    Path(__file__).parent / "real_messages_15.yaml": 0.56,
    Path(__file__).parent / "real_messages_16.yaml": 0.63,
    Path(__file__).parent / "real_messages_17.yaml": 0.6,
    Path(__file__).parent / "real_messages_18.yaml": 0.5,
    Path(__file__).parent / "real_messages_19.yaml": 0.6,
    Path(__file__).parent / "real_messages_20.yaml": 0.5,
    Path(__file__).parent / "real_messages_21.yaml": 0.7,
    Path(__file__).parent / "real_messages_22.yaml": 0.3,
    Path(__file__).parent / "real_messages_23.yaml": 0.66,
    Path(__file__).parent / "real_messages_24.yaml": 0.7,
    Path(__file__).parent / "real_messages_25.yaml": 0.2,
}
# Written blind in session 4 as forum users write, 40 per language (first run 0.883, then 0.950; queries_blind.md).
BLIND = Path(__file__).parent / "queries_blind.yaml"
# A second blind set, written from the guide alone in session 5 (first run 0.946, 36 to 40 of 40; then 0.975, 38 to 40
# of 40; queries_blind.md). Both blind sets are held per language a little under their lowest language.
BLIND_2 = Path(__file__).parent / "queries_blind_2.yaml"
# What the guide does not answer, said as a symptom would be, and its twins about the training itself (session 5, 30 per
# language; first run 0.850, de and es 24 of 30; held a little under its lowest language since).
BORDERS = Path(__file__).parent / "queries_borders.yaml"
# A third blind set, written from the guide alone in session 6 and labelled before any run (first run 0.933: en 34 of
# 40 lowest, dev half 0.950, check half 0.917; 0.983 after session 6, check 0.967; queries_blind.md); held per
# language under its first run's lowest language.
BLIND_3 = Path(__file__).parent / "queries_blind_3.yaml"
# A fourth, short blind set (session 6, 20 per language, written quickly from the guide alone): first run 0.992 (ko 19
# of 20); its author judges it easier than real users' messages, so it is a floor, not a held-out figure.
BLIND_4 = Path(__file__).parent / "queries_blind_4.yaml"
# A fifth blind set (session 7, 40 per language), written to be as hard as real forum users make it (outcomes, rates,
# host RAM in prose, OOMs without the words, long posts with pasted tails); labelled before any run. First run 0.854
# (fr and ko 33 of 40 lowest; dev 0.850, check 0.858); 0.963 after session 7, whose engineers read its dev half
# (check 0.925, ko 37 of 40 lowest): held per language under that.
BLIND_5 = Path(__file__).parent / "queries_blind_5.yaml"
# A sixth blind set (session 7, 30 per language, another author, same brief), kept unread through the session: first
# run 0.911 (es 26 of 30 lowest), 0.917 at the end of session 7 (es 24 of 30); session 8 read its dev half: 0.972 (es
# 28 of 30).
BLIND_6 = Path(__file__).parent / "queries_blind_6.yaml"
# A seventh blind set (session 8, 30 per language, a new author, same brief), kept unread through the session: first
# run 0.922 (en 26 of 30 lowest), 0.911 at its end (de and en 26 of 30): held per language under its lowest language.
BLIND_7 = Path(__file__).parent / "queries_blind_7.yaml"
# Blind sets 8 and 9 (session 9, 30 per language, two new authors, the same brief), kept unread through the session:
# first run 0.900 (es and ko 25 of 30 lowest) and 0.894 (de and pt 26 of 30); 0.928 (ko 25 of 30) and 0.917 (27 of 30
# lowest) at its end: held per language under their lowest language.
BLIND_8 = Path(__file__).parent / "queries_blind_8.yaml"
BLIND_9 = Path(__file__).parent / "queries_blind_9.yaml"
# Blind sets 10 (short messages) and 11 (long posts), session 10, 30 per language, two new authors, kept unread through
# the session: first run 0.944 (en and pt 27 of 30 lowest) and 0.883 (ko 24 of 30); 0.944 and 0.889 at its end (ko 24
# of 30): held per language under their lowest language.
BLIND_10 = Path(__file__).parent / "queries_blind_10.yaml"
BLIND_11 = Path(__file__).parent / "queries_blind_11.yaml"
# Blind set 12 (session 11, 30 per language, a new author, an even mix of one-liners, medium and long posts), kept
# unread through the session: first run 0.906 (de 25 of 30 lowest): held per language under its lowest language.
BLIND_12 = Path(__file__).parent / "queries_blind_12.yaml"
# Blind set 13 (session 12, 30 per language, a new author, the same mix), kept unread through the session: first run
# 0.828 (es, pt and fr 24 of 30 lowest): held per language under its lowest language.
BLIND_13 = Path(__file__).parent / "queries_blind_13.yaml"
# Blind set 14 (session 13, 30 per language, a new author; Discord fragments, replies to others, GC one way in a config
# block and the other in prose, step totals vs the failing step, RunComfy wording), kept unread through the session:
# first run 0.717 (es and ko 19 of 30 lowest): held per language under its lowest language.
BLIND_14 = Path(__file__).parent / "queries_blind_14.yaml"
# Blind set 15 (session 13, 30 per language, a new author writing each language's own stories: bot follow-ups, vague
# numbers, two runs compared, feared OOMs, partial logs, config fragments mid-sentence, key-word typos), first scored
# when it was merged, on the session's code at 8ad41ff (0.872, ko 23 of 30 lowest; the session's starting code scores
# it 0.844), kept unread through the session: held per language under its lowest language.
BLIND_15 = Path(__file__).parent / "queries_blind_15.yaml"
# Blind set 16 (session 14, the plain mix of a support bot's users; only its English block was written, 30 items):
# first run 0.933 on the session's starting code (dev 15/15, check 13/15), held as a whole set like a real batch.
BLIND_16 = Path(__file__).parent / "queries_blind_16.yaml"
ENGLISH_ONLY = {BLIND_16: 0.85}
WHOLE_SETS = REAL | ENGLISH_ONLY  # the sets held as a whole, not per language
# Blind set 17 (session 14, 30 per language, a new author: phone typing, dictation run-ons, code-switching, numbers as
# words, an old solved problem before the real one): first run 0.944 on the session's starting code (en 27 of 30
# lowest; dev 87/90, check 83/90): held per language under its lowest language.
BLIND_17 = Path(__file__).parent / "queries_blind_17.yaml"
# Blind set 18 (session 18, 30 per language, a new author: replies to a support bot's quoted question, UI label lines,
# attempt histories, doubted states, mixed languages, video families): first run 0.828 on the session's starting code
# at 44e6852 (pt 21 of 30 lowest; dev 72/90, check 77/90): held per language under its lowest language.
BLIND_18 = Path(__file__).parent / "queries_blind_18.yaml"
SMALL_SETS = {BLIND_4: 20}  # items per language, where a set has fewer than the usual 30
THRESHOLD = 0.95
# Long forum posts (0.950 since sentence-level reading, 27 to 30 of 30 per language) and the blind set (36 to 40 of 40)
# are held per language a little under their lowest language.
THRESHOLDS = {OWN: THRESHOLD, MORE: THRESHOLD, LONG: 0.86, STATEMENTS: THRESHOLD, BLIND: 0.95, BLIND_2: 0.925,
              BORDERS: 0.95, BLIND_3: 0.825, BLIND_4: 0.9, BLIND_5: 0.925,
              BLIND_6: 0.9, BLIND_7: 0.85, BLIND_8: 0.85, BLIND_9: 0.85, BLIND_10: 0.85, BLIND_11: 0.75, BLIND_12: 0.8,
              BLIND_13: 0.75, BLIND_14: 0.65, BLIND_15: 0.8, BLIND_17: 0.85, BLIND_18: 0.75}
SETS = [OWN, MORE, LONG, STATEMENTS, BLIND, BLIND_2, BORDERS, BLIND_3, BLIND_4, BLIND_5, BLIND_6, BLIND_7, BLIND_8,
        BLIND_9, BLIND_10, BLIND_11, BLIND_12, BLIND_13, BLIND_14, BLIND_15, BLIND_17, BLIND_18]
SET_IDS = ["queries", "queries_more", "queries_long", "queries_statements", "queries_blind", "queries_blind_2",
           "queries_borders", "queries_blind_3", "queries_blind_4", "queries_blind_5",
           "queries_blind_6", "queries_blind_7", "queries_blind_8", "queries_blind_9", "queries_blind_10",
           "queries_blind_11", "queries_blind_12", "queries_blind_13", "queries_blind_14", "queries_blind_15",
           "queries_blind_17", "queries_blind_18"]


def failures(client: TestClient, item: dict[str, Any]) -> list[str]:
    """Why one query fails; empty when it passes."""
    why: list[str] = []
    kind = item["kind"]
    if kind in ("symptom", "none"):
        d = client.post("/v1/diagnose", json={"query": item["q"], "lang": item["lang"]}).json()
        got = (d.get("symptom") or {}).get("id")
        if kind == "none":
            if got is not None:
                why.append(f"expected no symptom, got {got}")
        else:
            steps = [s["id"] for s in d.get("steps", [])]
            if got not in item["ids"]:
                why.append(f"symptom {got} not in {item['ids']}")
            if "first_step" in item and steps[:1] != [item["first_step"]]:
                why.append(f"first step {steps[:1]} != {item['first_step']}")
            why += [f"missing step {s}" for s in item.get("includes_steps", []) if s not in steps]
            why += [f"unwanted step {s}" for s in item.get("excludes_steps", []) if s in steps]
            ctx = d.get("context") or {}
            why += [f"context.{k}={ctx.get(k)!r} != {v!r}" for k, v in (item.get("ctx") or {}).items()
                    if ctx.get(k) != v]
    if kind in ("faq", "section", "none"):
        s = client.get("/v1/search", params={"q": item["q"], "lang": item["lang"]}).json()
        hits = s.get("hits") or []
        if kind == "none":
            if s.get("match") != "none":
                why.append(f"search match={s.get('match')}, top={hits[0]['id'] if hits else None}")
        elif not hits or hits[0]["id"] not in item["ids"]:
            why.append(f"top hit {hits[0]['id'] if hits else None} not in {item['ids']}")
    return why


def score(client: TestClient, items: list[dict[str, Any]]) -> dict[str, tuple[int, int, list[str]]]:
    per: dict[str, tuple[int, int, list[str]]] = defaultdict(lambda: (0, 0, []))
    for item in items:
        ok, n, misses = per[item["lang"]]
        why = failures(client, item)
        per[item["lang"]] = (ok + (not why), n + 1, misses + ([f"{item['q'][:70]!r}: {'; '.join(why)}"] if why else []))
    return per


def own_items(path: Path) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return items


@pytest.fixture(scope="module")
def own_scores(client: TestClient) -> dict[Path, dict[str, tuple[int, int, list[str]]]]:
    return {path: score(client, own_items(path)) for path in SETS}


@pytest.mark.parametrize("path", SETS, ids=SET_IDS)
def test_own_set_is_big_enough(path: Path) -> None:
    counts: dict[str, int] = defaultdict(int)
    for item in own_items(path):
        counts[item["lang"]] += 1
    assert all(counts[lang] >= SMALL_SETS.get(path, 30) for lang in LANGS), counts


@pytest.mark.parametrize("path", SETS, ids=SET_IDS)
@pytest.mark.parametrize("lang", LANGS)
def test_own_queries_per_language(
    own_scores: dict[Path, dict[str, tuple[int, int, list[str]]]], path: Path, lang: str
) -> None:
    ok, n, misses = own_scores[path][lang]
    assert n and ok / n >= THRESHOLDS[path], f"{path.name} {lang}: {ok}/{n}\n" + "\n".join(misses)


@pytest.mark.parametrize("path", list(WHOLE_SETS), ids=[p.stem for p in WHOLE_SETS])
def test_real_messages(client: TestClient, path: Path) -> None:
    per = score(client, own_items(path))
    ok, n = sum(v[0] for v in per.values()), sum(v[1] for v in per.values())
    misses = [m for v in per.values() for m in v[2]]
    assert ok / n >= WHOLE_SETS[path], f"{path.name}: {ok}/{n}\n" + "\n".join(misses)


def test_shared_dev_queries(client: TestClient, shared: Path) -> None:
    items = yaml.safe_load((shared / "eval" / "dev_queries.yaml").read_text(encoding="utf-8"))
    misses = [f"[{i['lang']}] {i['q']!r}: {failures(client, i)}" for i in items if failures(client, i)]
    assert not misses, "\n".join(misses)
