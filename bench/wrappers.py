"""Real posts come wrapped: an issue template, an environment line, a greeting and a thank-you, a signature, an earlier
reply quoted with ">", a log in a code fence, bullets, a title line, run-on text with no full stops, all lower case,
an edit line, an unrelated warning or a progress bar in the log. None of these changes what the post tells.

Every item of our own sets that is answered right (positives and `none`; of a set with halves, its dev half only)
is read again inside each wrapper, in its own language, and the script counts, per wrapper and language, the items whose
understanding changes: for a symptom, the diagnosed symptom, its match and the labelled context values; for `none`,
the diagnosed symptom and the search match; for a FAQ or section, the top search hit. It also counts the items that
become wrong (as `test_queries.failures` judges them), and shows the first few.

Run by hand, from the checkout root (a minute or two):

    .venv/bin/python bench/wrappers.py                 # every set, every wrapper
    .venv/bin/python bench/wrappers.py --only template,env_after --show 5
    .venv/bin/python bench/wrappers.py tests/understanding/queries_blind.yaml
    .venv/bin/python bench/wrappers.py --only title --wrong --show 20   # only the changes that make an item wrong

Found with it (session 7): a template's "### Describe the bug" read as a bug report and its title vetoing every
answer, "Setup: RTX 4090 24GB VRAM, 32GB RAM" as the title and the lead (a host-RAM subject, English read as the
language), "64GB RAM" in an environment line as the computer's RAM beside a crash and "RTX 3090" as a step, a quoted
reply's "turn on gradient checkpointing" as the user's setting, a greeting line taken for the lead (the step lost),
"it used to work fine" with no full stop before it making the whole failure past, and a post that names "CUDA out of
memory" in a bullet or under a title losing that line as if it were a pasted log's.
Session 8: 614 changed (330 wrong) -> 64 (13 wrong). A template's environment and routine lines, and an update that
tells nothing new, counted as sentences of the post (a question in a template asked nothing) and weighed in its
likeness to every target; "Need help" titles; solved and question tags; a finished loading bar taken for a pasted log
and for the phase of the failure; Spanish "sigue pasando" read as a step. Left: run-on text (59, 11 wrong), bullets.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml
from query_sets import is_check

from remedy.answers import answer_diagnosis, answer_search
from remedy.catalogs import Negotiated
from remedy.runtime import load_runtime
from remedy.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "tests" / "understanding"
SETS = ("queries.yaml", "queries_more.yaml", "queries_statements.yaml", "queries_long.yaml", "queries_blind.yaml",
        "queries_blind_2.yaml", "queries_blind_3.yaml", "queries_blind_4.yaml", "queries_borders.yaml")
REAL = ("real_messages.yaml", "real_messages_2.yaml", "real_messages_3.yaml", "real_messages_4.yaml",
        "real_messages_5.yaml", "real_messages_6.yaml", "real_messages_7.yaml", "real_messages_8.yaml",
        "real_messages_9.yaml")

MORE_EVERY = 5  # queries_more has 2,700 items: one in five keeps the run short

# The words of each wrapper, per language, as forum users of that language write them.
WORDS: dict[str, dict[str, str]] = {
    "en": {"hi": "Hi everyone,", "thanks": "Thanks in advance!", "sign": "Best regards,\nMark",
           "quote": "> Try a smaller batch size and turn on gradient checkpointing.",
           "title": "Need help", "runon": "every time it used to work fine", "edit": "EDIT: still happens",
           "bug": "### Describe the bug", "repro": "### Reproduction", "steps": "1. Start the job with my config",
           "expected": "### Expected behavior", "expect": "It should train normally.", "sys": "### System Info",
           "edit2": "Edit: tried again, same thing"},
    "es": {"hi": "Hola a todos,", "thanks": "¡Gracias de antemano!", "sign": "Saludos,\nCarlos",
           "quote": "> Prueba con un batch más pequeño y activa el gradient checkpointing.",
           "title": "Necesito ayuda", "runon": "cada vez antes funcionaba bien", "edit": "EDITO: sigue pasando",
           "bug": "### Descripción del error", "repro": "### Cómo reproducirlo",
           "steps": "1. Lanzo el entrenamiento con mi config", "expected": "### Comportamiento esperado",
           "expect": "Debería entrenar normal.", "sys": "### Información del sistema",
           "edit2": "Edit: probé otra vez, lo mismo"},
    "pt": {"hi": "Olá pessoal,", "thanks": "Desde já agradeço!", "sign": "Abraços,\nJoão",
           "quote": "> Tenta um batch menor e liga o gradient checkpointing.",
           "title": "Preciso de ajuda", "runon": "toda vez antes funcionava normal",
           "edit": "EDIT: continua acontecendo",
           "bug": "### Descrição do bug", "repro": "### Como reproduzir",
           "steps": "1. Inicio o treino com a minha config", "expected": "### Comportamento esperado",
           "expect": "Deveria treinar normalmente.", "sys": "### Informações do sistema",
           "edit2": "Edit: tentei de novo, a mesma coisa"},
    "fr": {"hi": "Bonjour à tous,", "thanks": "Merci d'avance !", "sign": "Cordialement,\nJulien",
           "quote": "> Essaie un batch plus petit et active le gradient checkpointing.",
           "title": "Besoin d'aide", "runon": "à chaque fois avant ça marchait bien", "edit": "EDIT : toujours pareil",
           "bug": "### Description du bug", "repro": "### Étapes pour reproduire",
           "steps": "1. Je lance l'entraînement avec ma config", "expected": "### Comportement attendu",
           "expect": "Ça devrait s'entraîner normalement.", "sys": "### Infos système",
           "edit2": "Edit : réessayé, pareil"},
    "de": {"hi": "Hallo zusammen,", "thanks": "Danke im Voraus!", "sign": "Grüße,\nStefan",
           "quote": "> Probier eine kleinere Batch-Größe und schalte Gradient Checkpointing ein.",
           "title": "Brauche Hilfe", "runon": "jedes Mal früher lief es problemlos",
           "edit": "EDIT: passiert immer noch",
           "bug": "### Fehlerbeschreibung", "repro": "### Schritte zum Reproduzieren",
           "steps": "1. Training mit meiner Config starten", "expected": "### Erwartetes Verhalten",
           "expect": "Es sollte normal trainieren.", "sys": "### Systeminfo",
           "edit2": "Edit: nochmal probiert, gleiches Ergebnis"},
    "ko": {"hi": "안녕하세요,", "thanks": "미리 감사합니다!", "sign": "감사합니다.\n민수 드림",
           "quote": "> 배치 크기를 줄이고 gradient checkpointing을 켜 보세요.",
           "title": "도움 부탁드립니다", "runon": "매번 그래요 전에는 잘 됐는데", "edit": "수정: 아직도 그래요",
           "bug": "### 버그 설명", "repro": "### 재현 방법", "steps": "1. 제 설정으로 학습 시작",
           "expected": "### 예상 동작", "expect": "정상적으로 학습되어야 합니다.", "sys": "### 시스템 정보",
           "edit2": "수정: 다시 해봤는데 똑같아요"},
}
SYSTEM = "- OS: Windows 11\n- GPU: RTX 3090 24GB\n- RAM: 32GB\n- Python 3.10.11, torch 2.4.0+cu124, driver 560.94"
ENV = "RTX 3090 24GB, 64GB RAM, Windows 11"
ENV_HEAD = "Setup: RTX 4090 24GB VRAM, 32GB RAM, Ubuntu 22.04, torch 2.5.1"
WARNING = ("```\nWARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
           "    PyTorch 2.1.0+cu121 with CUDA 1201 (you have 2.4.0+cu124)\n"
           "FutureWarning: `torch.cuda.amp.GradScaler(args...)` is deprecated. Please use "
           "`torch.amp.GradScaler('cuda', args...)` instead.\n```")
TQDM = "Loading checkpoint shards: 100%|██████████| 3/3 [00:02<00:00,  1.10it/s]"

Wrapper = Callable[[str, dict[str, str]], str | None]  # (text, words) -> the wrapped text, None when it does not apply


def _multiline(text: str) -> bool:
    return "\n" in text.strip()


def _fence(text: str, w: dict[str, str]) -> str | None:
    """The lines under a message's first one in a code fence, as users paste logs."""
    head, _, rest = text.strip().partition("\n")
    return f"{head}\n```\n{rest}\n```" if rest.strip() else None


def _bullets(text: str, w: dict[str, str]) -> str | None:
    """A one-line message's sentences as a bullet list."""
    if _multiline(text):
        return None
    parts = [p.strip() for p in re.split(r"(?<=[.!?])\s+", text.strip()) if p.strip()]
    return "\n".join(f"- {p}" for p in parts) if len(parts) > 1 else None


def _runon(text: str, w: dict[str, str]) -> str | None:
    """A one-line message with no full stops, and a trailing "every time it used to work fine" (not under a
    question: "what does GC do? it used to work fine" tells a change)."""
    if _multiline(text) or "?" in text:
        return None
    return re.sub(r"(?<=\w)[.!]+(?=\s|$)", "", text.strip()) + " " + w["runon"]


def _template(text: str, w: dict[str, str], own: bool, steps: bool = False) -> str:
    """The message in an issue template: English headings (the repository's), or the user's language's (`own`); its
    reproduction steps "1. ..." or, with `steps`, one that names the job ("1. Start the job with my config": words of
    the domain the bare message may lack, so a `none` question can become the training's)."""
    head = (lambda key: w[key]) if own else (lambda key: WORDS["en"][key])
    repro = w["steps"] if steps else "1. ..."
    return (f"{head('bug')}\n{text.strip()}\n\n{head('repro')}\n{repro}\n\n{head('expected')}\n{w['expect']}\n\n"
            f"{head('sys')}\n{SYSTEM}")


WRAPPERS: dict[str, Wrapper] = {
    "template": lambda t, w: _template(t, w, own=False),
    "template_own": lambda t, w: _template(t, w, own=True),
    "template_job": lambda t, w: _template(t, w, own=True, steps=True),
    "env_after": lambda t, w: f"{t.strip()}\n{ENV}",
    "env_before": lambda t, w: f"{ENV_HEAD}\n{t.strip()}",
    "greeting": lambda t, w: f"{w['hi']}\n{t.strip()}\n{w['thanks']}",
    "signature": lambda t, w: f"{t.strip()}\n\n{w['sign']}",
    "quoted": lambda t, w: f"{w['quote']}\n\n{t.strip()}",
    "fence": _fence,
    "bullets": _bullets,
    "title": lambda t, w: f"{w['title']}\n{t.strip()}",
    "runon": _runon,
    "lower": lambda t, w: t.lower() if t.lower() != t else None,
    "edit": lambda t, w: f"{t.strip()}\n\n{w['edit']}",
    "edit_tried": lambda t, w: f"{t.strip()}\n{w['edit2']}",
    "warning": lambda t, w: f"{t.strip()}\n{WARNING}",
    "tqdm": lambda t, w: f"{t.strip()}\n{TQDM}",
}


class Reader:
    """Reads a text the way a caller sees it: the diagnose and search answers, in process."""

    def __init__(self) -> None:
        runtime = load_runtime(Settings())
        self.index, self.catalogs, self.caches = runtime.index, runtime.catalogs, runtime.caches

    def seen(self, item: dict[str, Any], text: str) -> tuple[Any, ...]:
        """What a caller sees of the item's text (the parts its label judges), and the label's verdict."""
        neg = Negotiated(item["lang"], None, None)
        kind, why = item["kind"], []
        seen: tuple[Any, ...] = ()
        if kind in ("symptom", "none"):
            d = answer_diagnosis(self.index, self.catalogs, neg, query=text, caches=self.caches)
            got = (d.get("symptom") or {}).get("id")
            ctx = d.get("context") or {}
            keys = sorted(item.get("ctx") or {})
            seen += (got, d.get("match"), tuple(ctx.get(k) for k in keys))
            if kind == "none":
                why += [got is not None]
            else:
                steps = [s["id"] for s in d.get("steps", [])]
                why += [got not in item["ids"], "first_step" in item and steps[:1] != [item["first_step"]]]
                why += [s not in steps for s in item.get("includes_steps", [])]
                why += [s in steps for s in item.get("excludes_steps", [])]
                why += [ctx.get(k) != v for k, v in (item.get("ctx") or {}).items()]
        if kind in ("faq", "section", "none"):
            s = answer_search(self.index, self.catalogs, neg, text, 10, caches=self.caches)
            hits = s.get("hits") or []
            top = hits[0]["id"] if hits else None
            if kind == "none":
                seen += (s.get("match"),)
                why += [s.get("match") != "none"]
            else:
                seen += (top,)
                why += [top not in item["ids"]]
        return seen, not any(why)


def items_of(files: list[Path]) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for path in files:
        items = yaml.safe_load(path.read_text(encoding="utf-8"))
        for i, item in enumerate(items):
            if is_check(path.name, i):  # only dev items are read: no check item's text is ever shown
                continue
            if path.name == "queries_more.yaml" and i % MORE_EVERY:
                continue
            out.append((f"{path.stem}:{i}", item))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--only", default="", help="comma-separated wrapper names")
    parser.add_argument("--show", type=int, default=3, help="changed items shown per wrapper")
    parser.add_argument("--lang", default="", help="only the items of this language")
    parser.add_argument("--wrong", action="store_true", help="show only the changes that make an item wrong")
    args = parser.parse_args()
    files = args.files or [HERE / name for name in (*SETS, *REAL)]
    wrappers = {k: v for k, v in WRAPPERS.items() if not args.only or k in args.only.split(",")}
    reader = Reader()
    read: Counter[tuple[str, str]] = Counter()
    changed: Counter[tuple[str, str]] = Counter()
    wrong: Counter[tuple[str, str]] = Counter()
    nones: Counter[str] = Counter()  # `none` items read, and those given a symptom or a search hit, per wrapper
    lost: Counter[str] = Counter()
    shown: Counter[str] = Counter()
    right = 0
    for key, item in items_of(files):
        lang = item["lang"]
        if args.lang and lang != args.lang:
            continue
        before, ok = reader.seen(item, item["q"])
        if not ok:
            continue
        right += 1
        for name, wrap in wrappers.items():
            text = wrap(item["q"], WORDS[lang])
            if text is None:
                continue
            after, still = reader.seen(item, text)
            read[name, lang] += 1
            nones[name] += item["kind"] == "none"
            lost[name] += item["kind"] == "none" and not still
            if after != before:
                changed[name, lang] += 1
                wrong[name, lang] += not still
                shown[name] += not (args.wrong and still)
                if shown[name] <= args.show and not (args.wrong and still):
                    print(f"  {name} [{key} {lang} {item['kind']}] {item['q'][:70]!r}: {before} -> {after}")
    langs = sorted({lang for _, lang in read})
    print(f"\n{right} right items read; per wrapper: changed (wrong) of read, `none` items made wrong, then per "
          "language changed/read")
    for name in wrappers:
        n = sum(read[name, lang] for lang in langs)
        if not n:
            continue
        c, x = sum(changed[name, lang] for lang in langs), sum(wrong[name, lang] for lang in langs)
        per = " ".join(f"{lang} {changed[name, lang]}/{read[name, lang]}" for lang in langs)
        print(f"{name:<13}{c:5d} ({x:4d}) of {n:5d}  none {lost[name]:3d}/{nones[name]:<4d} {per}")
    total = sum(read.values())
    print(f"changed {sum(changed.values())} ({sum(wrong.values())} wrong) of {total}")


if __name__ == "__main__":
    sys.exit(main())
