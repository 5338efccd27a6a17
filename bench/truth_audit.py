"""Audit of whole answers against what their inputs state: every fact an answer's texts rely on or state, with where it
came from, and the answers whose facts come from nowhere stated (PRODUCT.md §2.6, "every sentence true").

For every dev item of every query set (`query_sets.py`: check items are counted, never shown) and the probes of
`tests/understanding/test_answer_truth.py`, the diagnose answer on the free text is rendered whole, and each fact of
its context is traced:

- `text`: the text states it; its witness is the token that says it (the number, the GC mention, the model's
  name), with that token's role in the text: `own` (a sentence of the user's present job), `asked` (a question),
  `past` (a clause told as past), `other` (another person's run, a supposition: `own_run.not_own`), `log` (a figure
  of a pasted log or config line, outside the prose);
- `inferred`: the chosen symptom implies it (`oom-persists-with-gc` implies GC on) and the text does not state it;
- `derived`: it follows from another fact (the family from a pasted `arch`).

An answer is flagged when a fact has no witness in the text (a number that is not there), when every witness of a
text fact is `other`, and for every inferred fact (the text did not state it).
The texts each fact chose are listed too: the reason variant of each step, the risk rule and its reasons.
Search is audited alike: a confident symptom hit whose title states a fact (`oom-persists-with-gc`: GC on) the text
does not state. The config check and diagnose with a config or an explicit context (`--configs`) list each fact's
source: `config` (a key of the submitted config), `default` (AI Toolkit's own default), `explicit`.

    .venv/bin/python bench/truth_audit.py            # every dev item and probe: the flagged answers, then counts
    .venv/bin/python bench/truth_audit.py --all      # every audited answer with its facts, flagged or not
    .venv/bin/python bench/truth_audit.py --configs  # the config fixtures through config/check and diagnose
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys
from collections import Counter
from typing import Any

import yaml
from query_sets import ROOT, is_check_key, queries

NUMERIC = ("step", "batch_size", "num_frames", "control_images", "gradient_accumulation", "sample_every",
           "sample_steps")
PROBES = ROOT / "tests" / "understanding" / "test_answer_truth.py"
Aliases = dict[tuple[str, ...], str]  # an alias's words -> its family


def _probe_items() -> list[tuple[str, str, str]]:
    """(key, lang, text) of the probe tables of the answer-truth test (its module-level lists of tuples)."""
    spec = importlib.util.spec_from_file_location("answer_truth_probes", PROBES)
    if spec is None or spec.loader is None:
        return []
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = []
    for name in ("OTHERS", "SUPPOSED", "CHANGED", "OWN", "REPLACED", "ASKED", "SETTINGS"):
        for i, row in enumerate(getattr(module, name, ())):
            out.append((f"probe:{name}:{i}", row[0], row[1]))
    return out


def _items() -> tuple[list[tuple[str, str, str]], Counter[str]]:
    """The dev items of every set and the probes; the check items only counted, per set."""
    out: list[tuple[str, str, str]] = []
    hidden: Counter[str] = Counter()
    for key, lang, text in queries():
        if is_check_key(key):
            hidden[key.partition(":")[0]] += 1
        else:
            out.append((key, lang, text))
    return out + _probe_items(), hidden


class Auditor:
    """The runtime, and what is needed to read a text's witnesses again (its sentences, its spotted words)."""

    def __init__(self) -> None:
        from remedy.runtime import load_runtime
        from remedy.settings import Settings

        self.rt = load_runtime(Settings())
        self.index = self.rt.index
        self.matcher = self.index.matcher
        from remedy.understanding.normalize import normalize, split_tokens

        self.aliases: Aliases = {tuple(split_tokens(normalize(alias))): family.id
                                 for family in self.index.content.families for alias in family.aliases}

    def roles(self, text: str, lang: str) -> tuple[list[Any], list[Any], dict[int, str]]:
        """The text's tokens, spotted words, and each token's role (`own`, `asked`, `past`, `other`)."""
        from remedy.understanding.logs import read_log
        from remedy.understanding.own_run import not_own, of_this_run
        from remedy.understanding.prose import split_text
        from remedy.understanding.sentences import read_sentences

        parts = split_text(text, read_log(text), self.matcher.sentences.wrapping)
        reading = read_sentences(self.matcher.sentences, parts.prose, lang, parts.lead)
        hits, others = of_this_run(self.matcher.lexicon.spot(reading.tokens, reading.lang))
        other, asked, past = not_own(reading, hits, others), reading.asked(), reading.past
        role = {i: "other" if i in other else "asked" if i in asked else "past" if i in past else "own"
                for i in range(len(reading.tokens))}
        return reading.tokens, hits, role

    def audit(self, lang: str, text: str) -> dict[str, Any]:
        """The diagnose answer's facts with their sources and witnesses, the texts they chose, and the flags."""
        from remedy.answers import _text_context, answer_diagnosis, answer_search
        from remedy.catalogs import Negotiated
        from remedy.understanding.matcher import understand

        neg = Negotiated(lang, None, None)
        answer = answer_diagnosis(self.index, self.rt.catalogs, neg, query=text, caches=self.rt.caches)
        search = answer_search(self.index, self.rt.catalogs, neg, text, 5, caches=self.rt.caches)
        u = understand(self.matcher, text, lang, self.rt.caches)
        stated = _text_context(u)
        tokens, hits, role = self.roles(text, lang)
        symptom = (answer.get("symptom") or {}).get("id")
        implies = dict(self.index.symptoms[symptom].symptom.implies) if symptom else {}
        facts, flags = [], []
        for field, value in sorted(answer["context"].items()):
            source = "text" if field in stated else "inferred" if field in implies else "derived"
            seen = _witnesses(field, value, tokens, hits, self.aliases) if source == "text" else []
            where = sorted({role[i] for i in seen if i in role})
            if source == "text" and not seen and _in_paste(field, value, text, self.aliases):
                seen, where = [-1], ["log"]  # a pasted log, config or command line, outside the prose read
            facts.append((field, value, source, ",".join(where) or "-"))
            if source == "text" and not seen and field not in ("phase", "model_arch", "resolutions") and not (
                    field == "model_family" and "model_arch" in stated):
                flags.append(f"{field}={value!r}: no witness in the text")
            elif source == "text" and where == ["other"]:
                flags.append(f"{field}={value!r}: told only of another run or supposed")
            elif source == "inferred":
                flags.append(f"{field}={value!r}: inferred from {symptom}, not stated")
        top = search["hits"][0]["id"] if search["hits"] else None
        gc_stated = u.stated.gradient_checkpointing is True
        if search["match"] == "confident" and top == "oom-persists-with-gc" and not gc_stated:
            flags.append("search: confident 'OOM with GC on' while the text states no GC on")
        texts = [f"{s['id']}<{s['reason']['rule']}>" for s in answer.get("steps", [])]
        risk = answer.get("risk") or {}
        return {"match": answer["match"], "symptom": symptom, "facts": facts, "flags": flags, "texts": texts,
                "risk": f"{risk.get('level')}:{risk.get('rule')}[{','.join(r['id'] for r in risk.get('reasons', []))}]"
                if risk else "-"}


def _in_paste(field: str, value: Any, text: str, aliases: Aliases) -> bool:
    """Whether the whole text (its pasted logs, configs, command lines and paths included) holds the fact: its
    figure, a GC key or flag, a name of the family in a path or a script's name (`train_qwen_edit_lora.py`)."""
    if field in NUMERIC:
        return re.search(rf"(?<![\d.]){value}(?!\d)", text) is not None
    plain = " " + re.sub(r"[^a-z0-9.]+", " ", text.lower()) + " "
    if field == "gradient_checkpointing":
        return "checkpointing" in plain
    if field == "model_family":
        return any(f" {' '.join(words)} " in plain for words, family in aliases.items() if family == value)
    return False


def _witnesses(field: str, value: Any, tokens: list[Any], hits: list[Any], aliases: Aliases) -> list[int]:
    """The positions of the tokens that state a fact: its number, the GC mention (a pasted key holds it too), the
    family's name. Facts read whole from a paste or a log (`phase`, `model_arch`, `resolutions`) are not traced."""
    if field in NUMERIC:
        lead = re.compile(rf"^{value}(?!\d)")
        return [i for i, t in enumerate(tokens) if t.number == value or lead.match(t.text)]
    if field == "gradient_checkpointing":
        return [h.start for h in hits if h.concept == "gc"] or [
            i for i, t in enumerate(tokens) if "checkpointing" in t.text]
    if field == "model_family":
        words = [t.forms[-1] if t.hangul else t.text for t in tokens]
        return [i for i in range(len(words)) for n in (1, 2, 3, 4) if aliases.get(tuple(words[i:i + n])) == value]
    return [0]


_KEYS = {"model_arch": "arch", "model_family": "arch", "resolutions": "resolution",
         "sampling_disabled": "disable_sampling",
         "sample_width": "width", "sample_height": "height", "control_images": "control_path"}


def _config_source(field: str, locations: Any, dumped: str) -> str:
    """Where a config check's fact comes from: a key of the submitted config (`config`; `derived` for the family from
    the arch), else AI Toolkit's own default (`default`)."""
    if field == "model_family":
        return "derived"
    if field in locations or re.search(rf"\b{_KEYS.get(field, field)}\b", dumped):
        return "config"
    return "default"


def audit_configs(auditor: Auditor) -> int:
    """Every config fixture through config/check and diagnose: each context fact with its source."""
    from remedy.answers import answer_config_check, answer_diagnosis, read_config
    from remedy.catalogs import Negotiated

    fixtures = sorted((ROOT / "tests" / "fixtures").rglob("*.yaml"))
    shown = 0
    for path in fixtures:
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            view = read_config(auditor.index, data if isinstance(data, dict) else None, None)
        except Exception:  # not a job config
            continue
        if view is None or not isinstance(data, dict) or "config" not in data:
            continue
        neg = Negotiated("en", None, None)
        check = answer_config_check(auditor.index, auditor.rt.catalogs, neg, config=data)
        diag = answer_diagnosis(auditor.index, auditor.rt.catalogs, neg, symptom="oom-general", config=data)
        dumped = yaml.safe_dump(data)
        facts = [f"{k}={v!r}({_config_source(k, view.locations, dumped)})" for k, v in sorted(check["context"].items())]
        print(f"{path.relative_to(ROOT)}: risk {check['risk']['level']} findings "
              f"{[f['id'] for f in check['findings']]} diagnose steps {[s['id'] for s in diag['steps']][:3]}")
        print("   " + " ".join(facts))
        shown += 1
    print(f"{shown} configs")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--all", action="store_true", help="print every audited answer, flagged or not")
    ap.add_argument("--configs", action="store_true", help="audit the config fixtures instead")
    args = ap.parse_args()
    auditor = Auditor()
    if args.configs:
        return audit_configs(auditor)
    items, hidden = _items()
    flagged: Counter[str] = Counter()
    with_facts: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    for key, lang, text in items:
        report = auditor.audit(lang, text)
        name = key.rsplit(":", 1)[0]
        with_facts[name] += bool(report["facts"])
        if report["flags"]:
            flagged[name] += 1
            kinds.update(flag.split(":")[0].split("=")[0] for flag in report["flags"])
        if report["flags"] or args.all:
            print(f"{key} [{lang}] {text[:160]!r}".replace("\\n", " / "))
            print(f"   {report['match']} {report['symptom']} texts {report['texts'][:4]} risk {report['risk']}")
            print("   facts " + " ".join(f"{f}={v!r}({s}:{w})" for f, v, s, w in report["facts"]))
            for flag in report["flags"]:
                print(f"   !! {flag}")
    print("\nper set: audited (answers with facts) flagged; check items counted, not audited")
    for name in sorted(with_facts):
        print(f"  {name:32} {with_facts[name]:5} {flagged[name]:4}   (+{hidden.get(name, 0)} check items)")
    print(f"flagged answers: {sum(flagged.values())} of {len(items)}; by fact: {dict(kinds)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
