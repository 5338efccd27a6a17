"""`remedy` command line: serve the API, diagnose a failure, check a job config, validate the knowledge,
write the OpenAPI document. Every command reads the `REMEDY_*` settings of the service."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
from pydantic import ValidationError

from . import __version__
from .content.checks import check_content
from .content.context import Context
from .content.loader import load_content, revision_of
from .content.problems import ContentProblems
from .errors import RemedyError
from .settings import Settings

# Exit codes (README "Command line" has the same table; a test keeps them distinct and documented).
EXIT_OK = 0
EXIT_INVALID_KNOWLEDGE = 1  # `validate` found problems; other commands refuse to run on broken knowledge
EXIT_USAGE = 2  # unknown command or option, or an option value that cannot be read (argparse's own code)
EXIT_HIGH_RISK = 3  # `check`: the job's out-of-memory risk is high (a launch script can stop on it)
EXIT_BAD_INPUT = 4  # the config file cannot be read or is not a training job config; an unknown symptom id
EXIT_BAD_SETTINGS = 5  # a REMEDY_* environment variable has a value the service refuses
EXIT_BROKEN_PIPE = 141  # the reader went away (`remedy ... | head`): 128 + SIGPIPE, as a shell tool would

EXIT_CODES = """exit codes:
  0    success
  1    the knowledge is invalid (validate lists every problem with file, path and code)
  2    usage: unknown command or option, unreadable option value
  3    check: the job's out-of-memory risk is high
  4    the input cannot be used: config file unreadable, not YAML, not a training job, unknown symptom
  5    a REMEDY_* setting has a value the service refuses
  141  output closed early (e.g. piped into head)"""


def _env(name: str) -> str:
    """`(REMEDY_NAME, default X)` for a setting, so that each option's help names its variable."""
    field = Settings.model_fields[name]
    default = field.get_default(call_default_factory=True)
    return f"(env REMEDY_{name.upper()}; default {default})"


DATA_SETTINGS = "knowledge from REMEDY_KNOWLEDGE_DIR, catalogs from REMEDY_LOCALES_DIR (both shipped in the package)"


def build_parser() -> argparse.ArgumentParser:
    settings = "environment (read by every command; README \"Settings\" says what each does):\n" + "\n".join(
        f"  REMEDY_{name.upper()}" for name in Settings.model_fields)
    parser = argparse.ArgumentParser(prog="remedy", description=__doc__, epilog=f"{EXIT_CODES}\n\n{settings}",
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=_version())
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = sub.add_parser("serve", help="run the HTTP API", epilog=EXIT_CODES,
                           formatter_class=argparse.RawDescriptionHelpFormatter,
                           description="Run the HTTP API (uvicorn). Every REMEDY_* setting applies; see README.")
    serve.add_argument("--host", help=f"address to bind {_env('host')}")
    serve.add_argument("--port", type=int, help=f"port to listen on {_env('port')}")
    serve.add_argument("--workers", type=int, help=f"worker processes {_env('workers')}")

    lang_help = "answer language: en es pt fr de ko; another falls back to English with a notice on stderr"
    diag = sub.add_parser("diagnose", help="ordered remediation steps for a failure (free text, log or symptom)",
                          description=f"The answer of POST /v1/diagnose; {DATA_SETTINGS}.", epilog=EXIT_CODES,
                          formatter_class=argparse.RawDescriptionHelpFormatter)
    diag.add_argument("text", nargs="?", help="free text or a pasted log, any language ('-' reads stdin)")
    diag.add_argument("--symptom", help="symptom id, e.g. oom-early-steps")
    diag.add_argument("--context-json", help='context as JSON, e.g. \'{"batch_size": 2}\'')
    diag.add_argument("--lang", default=None, help=lang_help)
    diag.add_argument("--json", action="store_true", help="print the API answer as JSON")
    diag.add_argument("--config", help="the job config file the failure came from")

    check = sub.add_parser("check", help="check an AI Toolkit job config; exits 3 on high risk",
                           description=f"The answer of POST /v1/config/check; {DATA_SETTINGS}.", epilog=EXIT_CODES,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
    check.add_argument("config_file", help="the job config (.yaml, .yml or .json); '-' reads stdin")
    check.add_argument("--lang", default=None, help=lang_help)
    check.add_argument("--json", action="store_true", help="print the API answer as JSON")

    sub.add_parser("validate", help="content QA report; exits 1 on any problem",
                   description=f"Load, check and compile the knowledge, and check its sources/ texts line by line "
                               f"against the served guides; {DATA_SETTINGS}.", epilog=EXIT_CODES,
                   formatter_class=argparse.RawDescriptionHelpFormatter)

    api = sub.add_parser("openapi", help="write the OpenAPI document",
                         description="Write the OpenAPI document (the checked-in one is openapi/openapi.json).")
    api.add_argument("out", nargs="?", type=Path, default=None,
                     help="file to write, '-' for stdout (default: openapi/openapi.json under the current folder)")
    api.add_argument("--out", dest="out_option", type=Path, default=None, help=argparse.SUPPRESS)
    return parser


def _version() -> str:
    from .settings import ROOT

    knowledge = ROOT / "knowledge"
    revision = revision_of(knowledge) if knowledge.is_dir() else "unknown"
    return f"remedy {__version__} (knowledge revision {revision})"


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    commands: dict[str, Callable[[argparse.Namespace], int]] = {
        "serve": _serve, "diagnose": _diagnose, "check": _check, "validate": lambda _: _validate(),
        "openapi": lambda a: _openapi(a.out_option or a.out or Path("openapi") / "openapi.json"),
    }
    try:
        return commands[args.command](args)
    except ContentProblems as exc:
        print(f"remedy: the knowledge is invalid ({len(exc.problems)} problem(s)):", file=sys.stderr)
        print(exc, file=sys.stderr)
        return EXIT_INVALID_KNOWLEDGE
    except ValidationError as exc:
        print(f"remedy: invalid setting:\n{exc}", file=sys.stderr)
        return EXIT_BAD_SETTINGS
    except BrokenPipeError:
        # The reader closed the pipe: stop quietly, and keep Python from complaining again at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_BROKEN_PIPE


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
    metrics_dir = _metrics_dir()  # before prometheus_client is imported anywhere: workers inherit it
    from .http.logconfig import log_config

    if settings.metrics_port:
        from prometheus_client import start_http_server

        from .http.metrics import collecting_registry

        start_http_server(settings.metrics_port, addr=settings.host, registry=collecting_registry())
    try:
        uvicorn.run(
            "remedy.http.app:serve_app",
            factory=True,
            access_log=False,  # the app writes one log line per request, with its request id
            log_config=log_config(settings),  # uvicorn's own lines in the same format
            host=settings.host,
            port=settings.port,
            workers=settings.workers,
            log_level=settings.log_level,
            proxy_headers=True,
            forwarded_allow_ips=settings.forwarded_allow_ips,
            env_file=None,
            **uvicorn_options(settings),
        )
    finally:
        if metrics_dir is not None:
            shutil.rmtree(metrics_dir, ignore_errors=True)
    return EXIT_OK


def _metrics_dir() -> str | None:
    """Point prometheus-client's multiprocess mode at an empty folder (made here, or the operator's own
    PROMETHEUS_MULTIPROC_DIR, emptied of a previous run's files); return the folder to remove at exit."""
    given = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if given:
        for stale in Path(given).glob("*.db"):
            stale.unlink()
        return None
    made = tempfile.mkdtemp(prefix="remedy-metrics-")
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = made
    return made


def _diagnose(args: argparse.Namespace) -> int:
    from .answers import Thresholds, answer_diagnosis
    from .runtime import load_runtime

    runtime = load_runtime(Settings())
    neg = _negotiate(runtime, args.lang)
    try:
        context = Context.model_validate_json(args.context_json) if args.context_json else None
    except ValidationError as exc:
        print(f"remedy: --context-json is not a context: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    text = sys.stdin.read() if args.text == "-" else args.text
    config_yaml = _read(args.config) if args.config else None
    if isinstance(config_yaml, int):
        return config_yaml
    thresholds = Thresholds(runtime.settings.match_confident, runtime.settings.match_minimum)
    try:
        answer = answer_diagnosis(runtime.index, runtime.catalogs, neg, symptom=args.symptom, context=context,
                                  query=text, config_yaml=config_yaml, thresholds=thresholds,
                                  caches=runtime.caches, limits=runtime.limits)
    except RemedyError as exc:
        print(_problem_line(runtime, neg.lang, exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    _write(orjson.dumps(answer, option=orjson.OPT_INDENT_2).decode() if args.json else _format_answer(answer))
    return EXIT_OK


def _negotiate(runtime: Any, lang: str | None) -> Any:
    """The answer language; an unsupported `--lang` is said on stderr (the JSON answer has `fallback` too)."""
    from .answers import fallback_view

    neg = runtime.catalogs.negotiate(lang, None)
    fallback = fallback_view(runtime.catalogs, neg)
    if fallback is not None:
        print(f"remedy: {fallback['message']}", file=sys.stderr)
    return neg


def _read(name: str) -> str | int:
    """The text of a file ('-': stdin), or EXIT_BAD_INPUT after saying why it cannot be read."""
    try:
        return sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"remedy: cannot read {name}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT


def _write(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()  # a closed pipe shows here, inside main's BrokenPipeError handler


def _problem_line(runtime: Any, lang: str, exc: RemedyError) -> str:
    title = runtime.catalogs.gettext(lang, exc.title)
    detail = runtime.catalogs.gettext(lang, exc.detail).format(**exc.params)
    return f"remedy: {title}: {detail} [{exc.code}]"


def _check(args: argparse.Namespace) -> int:
    from .answers import answer_config_check
    from .runtime import load_runtime

    runtime = load_runtime(Settings())
    neg = _negotiate(runtime, args.lang)
    text = _read(args.config_file)
    if isinstance(text, int):
        return text
    try:
        answer = answer_config_check(runtime.index, runtime.catalogs, neg, config_yaml=text)
    except RemedyError as exc:
        print(_problem_line(runtime, neg.lang, exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    _write(orjson.dumps(answer, option=orjson.OPT_INDENT_2).decode() if args.json else _format_check(answer))
    return EXIT_HIGH_RISK if answer["risk"]["level"] == "high" else EXIT_OK


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
    topic = answer.get("topic")
    if topic:
        lines.append(f"{topic['title']}  {topic['url']}")
        lines.extend(f"  {line}" for line in topic["text"].split("\n"))
    risk = answer.get("risk")
    if risk:
        lines.append(f"risk: {risk['level']}" + (f" ({risk['family']})" if risk["family"] else ""))
        lines.extend(f"  - {r['text']}" for r in risk["reasons"])
    lines.extend(f"conflict: {c['text']}" for c in answer.get("conflicts", ()))
    lines.append("")
    for step in answer["steps"]:
        lines.append(f"{step['order']}. {step['title']}  [{step['id']}]")
        lines.append(f"   {step['detail']}")
        if step["config_patch"]:
            lines.append(f"   config: {json.dumps(step['config_patch'], ensure_ascii=False)}")
    if answer.get("questions"):
        lines.append("")
        for question in answer["questions"]:
            options = " / ".join(o["label"] for o in question["options"])
            lines.append(f"? {question['text']}  ({options})")
    return "\n".join(lines)


def _validate() -> int:
    from .index.build import build_index
    from .rendering.fidelity import check_sources
    from .rendering.pages import GUIDE_ID

    settings = Settings()
    try:
        content = load_content(settings.knowledge_dir)
    except ContentProblems as exc:
        for problem in exc.problems:
            print(problem)
        print(f"\n{len(exc.problems)} problem(s); the knowledge does not load.")
        return EXIT_INVALID_KNOWLEDGE
    problems, coverage = check_content(content)
    if not problems:
        try:
            index = build_index(content)
        except ContentProblems as exc:
            problems = exc.problems
        else:
            problems = check_sources(index, settings.knowledge_dir / "sources", GUIDE_ID)
    print(f"knowledge revision {content.revision}")
    print(f"{'lang':<6}{'texts':>10}{'coverage':>10}{'problems':>10}")
    for lang, cov in coverage.items():
        print(f"{lang:<6}{cov.present:>5}/{cov.expected:<4}{cov.ratio:>9.1%}{len(cov.problems):>10}")
    for problem in problems:
        print(problem)
    print(f"{len(problems)} problem(s)")
    return EXIT_INVALID_KNOWLEDGE if problems else EXIT_OK


def _openapi(out: Path) -> int:
    from .http.app import create_app

    text = json.dumps(create_app().openapi(), indent=2, ensure_ascii=False, sort_keys=True) + "\n"
    if str(out) == "-":
        _write(text.rstrip("\n"))
        return EXIT_OK
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out}", file=sys.stderr)
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
