"""`remedy` command line: serve, diagnose, validate, openapi (PRODUCT.md §9)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import orjson
from pydantic import ValidationError

from .content.checks import check_content
from .content.context import Context
from .content.loader import load_content
from .content.problems import ContentProblems
from .errors import RemedyError
from .settings import ROOT, Settings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="remedy", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the HTTP API")
    serve.add_argument("--host")
    serve.add_argument("--port", type=int)
    serve.add_argument("--workers", type=int)

    diag = sub.add_parser("diagnose", help="ordered remediation steps for a symptom")
    diag.add_argument("text", nargs="?", help="free text or a pasted log, any language ('-' reads stdin)")
    diag.add_argument("--symptom", help="symptom id, e.g. oom-early-steps")
    diag.add_argument("--context-json", help='context as JSON, e.g. \'{"batch_size": 2}\'')
    diag.add_argument("--lang", default=None)
    diag.add_argument("--json", action="store_true", help="print the API answer as JSON")
    diag.add_argument("--config", help="the job config file the failure came from")

    check = sub.add_parser("check", help="check an AI Toolkit job config; exits 3 on high risk")
    check.add_argument("config_file", help="the job config (.yaml, .yml or .json); '-' reads stdin")
    check.add_argument("--lang", default=None)
    check.add_argument("--json", action="store_true", help="print the API answer as JSON")

    sub.add_parser("validate", help="content QA report; exits 1 on any problem")

    api = sub.add_parser("openapi", help="write openapi/openapi.json")
    api.add_argument("--out", type=Path, default=ROOT / "openapi" / "openapi.json")

    args = parser.parse_args(argv)
    try:
        if args.command == "serve":
            return _serve(args)
        if args.command == "diagnose":
            return _diagnose(args)
        if args.command == "check":
            return _check(args)
        if args.command == "validate":
            return _validate()
        return _openapi(args.out)
    except ContentProblems as exc:
        print(f"remedy: the knowledge is invalid ({len(exc.problems)} problem(s)):", file=sys.stderr)
        print(exc, file=sys.stderr)
        return 2
    except ValidationError as exc:
        print(f"remedy: invalid setting or input:\n{exc}", file=sys.stderr)
        return 2


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from .http.app import precheck
    from .http.server import uvicorn_options

    overrides = {k: v for k, v in (("host", args.host), ("port", args.port), ("workers", args.workers)) if v}
    settings = Settings(**overrides)
    # Fail before binding if the knowledge, the catalogs, the templates or the static files are broken: file,
    # path and code on stderr. (Each worker then builds its index after binding; /readyz says when, and a
    # worker that cannot build it exits.)
    precheck(settings)
    uvicorn.run(
        "remedy.http.app:serve_app",
        factory=True,
        access_log=False,  # the app writes one JSON line per request, with its request id
        host=settings.host,
        port=settings.port,
        workers=settings.workers,
        log_level=settings.log_level,
        env_file=None,
        **uvicorn_options(settings),
    )
    return 0


def _diagnose(args: argparse.Namespace) -> int:
    from .answers import Thresholds, answer_diagnosis
    from .runtime import load_runtime

    runtime = load_runtime(Settings())
    neg = runtime.catalogs.negotiate(args.lang, None)
    context = Context.model_validate_json(args.context_json) if args.context_json else None
    text = sys.stdin.read() if args.text == "-" else args.text
    config_yaml = Path(args.config).read_text(encoding="utf-8") if args.config else None
    thresholds = Thresholds(runtime.settings.match_confident, runtime.settings.match_minimum)
    try:
        answer = answer_diagnosis(runtime.index, runtime.catalogs, neg, symptom=args.symptom, context=context,
                                  query=text, config_yaml=config_yaml, thresholds=thresholds,
                                  limits=runtime.limits)
    except RemedyError as exc:
        print(_problem_line(runtime, neg.lang, exc), file=sys.stderr)
        return 2
    if args.json:
        sys.stdout.write(orjson.dumps(answer, option=orjson.OPT_INDENT_2).decode() + "\n")
        return 0
    print(_format_answer(answer))
    return 0


HIGH_RISK_EXIT = 3


def _problem_line(runtime: Any, lang: str, exc: RemedyError) -> str:
    title = runtime.catalogs.gettext(lang, exc.title)
    detail = runtime.catalogs.gettext(lang, exc.detail).format(**exc.params)
    return f"remedy: {title}: {detail} [{exc.code}]"


def _check(args: argparse.Namespace) -> int:
    from .answers import answer_config_check
    from .runtime import load_runtime

    runtime = load_runtime(Settings())
    neg = runtime.catalogs.negotiate(args.lang, None)
    try:
        text = sys.stdin.read() if args.config_file == "-" else Path(args.config_file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"remedy: cannot read {args.config_file}: {exc}", file=sys.stderr)
        return 2
    try:
        answer = answer_config_check(runtime.index, runtime.catalogs, neg, config_yaml=text)
    except RemedyError as exc:
        print(_problem_line(runtime, neg.lang, exc), file=sys.stderr)
        return 2
    if args.json:
        sys.stdout.write(orjson.dumps(answer, option=orjson.OPT_INDENT_2).decode() + "\n")
    else:
        print(_format_check(answer))
    return HIGH_RISK_EXIT if answer["risk"]["level"] == "high" else 0


def _format_check(answer: dict[str, Any]) -> str:
    risk = answer["risk"]
    ctx = answer["context"]
    head = f"risk: {risk['level']}" + (f" ({risk['family']})" if risk["family"] else "")
    lines = [head]
    lines.extend(f"  - {r['text']}" for r in risk["reasons"])
    lines.append("effective: " + ", ".join(
        f"{k}={ctx[k]}" for k in ("model_arch", "gradient_checkpointing", "batch_size", "resolutions", "num_frames",
                                  "low_vram") if k in ctx))
    if not answer["findings"]:
        lines.append("no findings")
    for f in answer["findings"]:
        lines.append("")
        lines.append(f"[{f['severity']}] {f['title']}  ({f['id']})")
        lines.append(f"  {f['detail']}")
        change = f"  {f['path']}: {json.dumps(f['value'], ensure_ascii=False)}"
        if f["suggested"] is not None:
            change += f" -> {json.dumps(f['suggested'], ensure_ascii=False)}"
        lines.append(change + f"   step: {f['step']}")
    return "\n".join(lines)


def _format_answer(answer: dict[str, Any]) -> str:
    symptom = answer["symptom"]
    lines = [f"match: {answer['match']}"]
    if symptom:
        lines.append(f"{symptom['title']}  [{symptom['id']}]  confidence {symptom['confidence']:.2f}")
    for alt in answer["alternatives"]:
        lines.append(f"  or: {alt['title']}  [{alt['id']}]  {alt['confidence']:.2f}")
    if answer["context"]:
        lines.append("context: " + json.dumps(answer["context"], ensure_ascii=False))
    lines.extend(f"signal: {s['text']}" for s in answer["signals"])
    for rel in answer["related"] if not symptom else ():
        lines.append(f"see: {rel['title']}  {rel['url']}")
    risk = answer["risk"]
    lines.append(f"risk: {risk['level']}" + (f" ({risk['family']})" if risk["family"] else ""))
    lines.extend(f"  - {r['text']}" for r in risk["reasons"])
    lines.append("")
    for step in answer["steps"]:
        lines.append(f"{step['order']}. {step['title']}  [{step['id']}]")
        lines.append(f"   {step['detail']}")
        if step["config_patch"]:
            lines.append(f"   config: {json.dumps(step['config_patch'], ensure_ascii=False)}")
    if answer["needs"]:
        lines.append("")
        lines.append("needs: " + ", ".join(answer["needs"]))
    return "\n".join(lines)


def _validate() -> int:
    settings = Settings()
    try:
        content = load_content(settings.knowledge_dir)
    except ContentProblems as exc:
        for problem in exc.problems:
            print(problem)
        print(f"\n{len(exc.problems)} problem(s); the knowledge does not load.")
        return 1
    problems, coverage = check_content(content)
    if not problems:
        from .index.build import build_index

        try:
            build_index(content)
        except ContentProblems as exc:
            problems = exc.problems
    print(f"knowledge revision {content.revision}")
    print(f"{'lang':<6}{'texts':>10}{'coverage':>10}{'problems':>10}")
    for lang, cov in coverage.items():
        print(f"{lang:<6}{cov.present:>5}/{cov.expected:<4}{cov.ratio:>9.1%}{len(cov.problems):>10}")
    for problem in problems:
        print(problem)
    print(f"{len(problems)} problem(s)")
    return 1 if problems else 0


def _openapi(out: Path) -> int:
    from .http.app import create_app

    document = create_app().openapi()
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(document, indent=2, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
