"""Help pages: the guide and the troubleshooter rendered server-side from the same views as the API.

Pure rendering: data in, HTML out. Every reflected value goes through Jinja2's autoescape.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import yaml
from babel.numbers import format_decimal, format_percent
from cachetools import LRUCache
from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from ..catalogs import Catalogs
from ..errors import N_
from ..index.build import Index
from .views import render_guide

HERE = Path(__file__).resolve().parent
GUIDE_ID = "gradient-checkpointing-oom"
PAGE_TEMPLATES = ("base.html", "blocks.html", "guide.html", "troubleshoot.html")


@dataclass(frozen=True, slots=True)
class Asset:
    body: bytes
    media_type: str
    etag: str
    version: str


def load_assets() -> dict[str, Asset]:
    """The pages' own CSS and JS, with a content hash for cache busting and strong ETags."""
    assets = {}
    for name, media in (("remedy.css", "text/css; charset=utf-8"), ("remedy.js", "text/javascript; charset=utf-8"),
                        ("favicon.svg", "image/svg+xml")):
        body = (HERE / "static" / name).read_bytes()
        digest = hashlib.sha256(body).hexdigest()
        assets[name] = Asset(body, media, f'"{digest[:32]}"', digest[:10])
    return assets


def check_templates() -> dict[str, str]:
    """Every page template compiled once: its name -> the error, for those that do not compile (start-up check)."""
    env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=True)
    broken = {}
    for path in sorted((HERE / "templates").glob("*.html")):
        try:
            env.get_template(path.name)
        except Exception as exc:  # TemplateSyntaxError, UnicodeDecodeError, OSError
            broken[path.name] = f"{type(exc).__name__}: {exc}"
    for name in PAGE_TEMPLATES:
        if not (HERE / "templates" / name).is_file():
            broken[name] = "missing"
    return broken


def _yaml(patch: Any) -> str:
    return yaml.safe_dump(patch, sort_keys=False, allow_unicode=True, default_flow_style=False).rstrip()


class Pages:
    """Renders the help pages for every language; built once at start-up."""

    def __init__(
        self, index: Index, catalogs: Catalogs, assets: dict[str, Asset], cache_bytes: int = 8_388_608
    ) -> None:
        self.index = index
        self.catalogs = catalogs
        self.assets = assets
        self.env = Environment(
            loader=FileSystemLoader(HERE / "templates"),
            autoescape=select_autoescape(default=True, default_for_string=True),
            undefined=StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.env.globals["static"] = lambda name: f"/static/{name}?v={assets[name].version}"
        self.env.globals["yaml"] = _yaml
        # (language, guide, public base URL) -> page: the base URL comes from the Host header, so the cache is
        # bounded in bytes and keyed by a digest of it.
        self._guides: LRUCache[tuple[str, str, bytes], tuple[bytes, str]] = LRUCache(
            maxsize=max(cache_bytes, 1), getsizeof=lambda page: len(page[0]) + 256
        )
        self._cache_bytes = cache_bytes

    def _common(self, lang: str, base_url: str, path_of: Callable[[str], str], page: str) -> dict[str, Any]:
        base = base_url.rstrip("/")
        alternates = [
            {"code": code, "name": self.catalogs.name(code), "href": base + path_of(code), "switch": path_of(code)}
            for code in self.index.languages
        ]
        def t(message: str) -> str:
            return self.catalogs.gettext(lang, message)

        return {
            "lang": lang,
            "t": t,
            # a label followed by a colon, punctuated as the language writes it (French: a no-break space before)
            "colon": lambda label: t("{label}:").format(label=label),
            "pair": lambda label, value: t("{label}: {value}").format(label=label, value=value),
            "percent": lambda ratio: format_percent(ratio, locale=lang),
            "alternates": alternates,
            "x_default": base + path_of(self.index.default_lang),
            "canonical": base + path_of(lang),
            "guide_id": GUIDE_ID,
            "page": page,
            "revision": self.index.revision,
        }

    def guide(self, lang: str, guide_id: str, base_url: str) -> tuple[bytes, str]:
        """The guide page, encoded, with its strong ETag; rendered once per (language, guide, public base
        URL) while it stays in the bounded cache."""
        key = (lang, guide_id, hashlib.blake2b(base_url.encode("utf-8", "surrogateescape"), digest_size=16).digest())
        page = self._guides.get(key)
        if page is None:
            body = self._render_guide(lang, guide_id, base_url).encode("utf-8")
            page = (body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"')
            if len(body) + 256 <= self._cache_bytes:
                self._guides[key] = page
        return page

    def _render_guide(self, lang: str, guide_id: str, base_url: str) -> str:
        guide = render_guide(self.index, self.index.guides[guide_id], lang)
        context = self._common(lang, base_url, lambda code: f"/help/{code}/{guide_id}", "guide")
        first = next((b["text"] for s in guide["sections"] for b in s["blocks"] if b["kind"] == "paragraph"), "")
        return self.env.get_template("guide.html").render(
            context, guide=guide, page_title=guide["title"], description=first[:160]
        )

    def troubleshoot(self, lang: str, base_url: str, form: dict[str, str], errors: dict[str, str],
                     answer: dict[str, Any] | None, query_string: str) -> str:
        """The troubleshooter page. The query is shown once (in its text box): the alternate links are the bare
        page, and only the language switcher carries `query_string` (the form, without a long free text)."""
        text = self.index.texts[lang]
        context = self._common(lang, base_url, lambda code: f"/help/{code}/troubleshoot", "troubleshoot")
        if query_string:
            for alt in context["alternates"]:
                alt["switch"] += f"?{query_string}"
        t = context["t"]
        return self.env.get_template("troubleshoot.html").render(
            context,
            page_title=f'{t("Troubleshooter")} · Remedy',
            description=t("Describe what happened, or pick a symptom and tell what you know about the job."),
            form=form,
            errors=errors,
            answer=answer,
            understood=understood_parts(self.index, lang, answer.get("context") or {}, t) if answer else [],
            topic_blocks=text_blocks(answer["topic"]["text"]) if answer and answer.get("topic") else [],
            questions=_questions(answer, form, lang) if answer else [],
            symptoms=[{"id": sid, "title": text.symptoms[sid].title} for sid in self.index.symptoms],
            families=[{"id": fid, "name": text.families[fid].name} for fid in self.index.families],
        )


def form_value(value: Any) -> str:
    """A context value as the troubleshooter's form writes it (`true`, `flux`, `512 768`).

    >>> form_value(True), form_value([512, 768]), form_value(2)
    ('true', '512 768', '2')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return " ".join(str(v) for v in value)
    return str(value)


LINK_QUERY_CHARS = 300  # a free text longer than this is not copied into the page's links (language switcher too)


def _questions(answer: dict[str, Any], form: dict[str, str], lang: str) -> list[dict[str, Any]]:
    """The answer's questions, each option a link to the same troubleshooter with that answer added to the form:
    the page asks what would change its answer, and a click answers."""
    out = []
    for question in answer.get("questions") or ():
        if question["field"] not in form:
            continue  # an input the form has no field for
        options = []
        base = {k: v for k, v in form.items() if v}
        if len(base.get("q", "")) > LINK_QUERY_CHARS:
            # A long text (a pasted log) is not copied into every link: the link carries what it was understood
            # as instead (its symptom and the context fields the form has).
            base.pop("q")
            symptom = answer.get("symptom") or {}
            understood = {k: form_value(v) for k, v in (answer.get("context") or {}).items() if k in form}
            base = understood | base | ({"symptom": symptom["id"]} if symptom.get("id") else {})
        for option in question["options"]:
            params = base | {question["field"]: form_value(option["value"])}
            options.append({"label": option["label"], "href": f"/help/{lang}/troubleshoot?{urlencode(params)}"})
        out.append({"field": question["field"], "text": question["text"], "options": options})
    return out


def text_blocks(text: str) -> list[dict[str, Any]]:
    """A topic's text (lines; "- " items) as the guide's blocks: paragraphs, and lists of consecutive items.

    >>> [b["kind"] for b in text_blocks("Lead:\n- one\n- two\nEnd.")]
    ['paragraph', 'list', 'paragraph']
    """
    blocks: list[dict[str, Any]] = []
    for line in (raw.strip() for raw in text.splitlines()):
        if line.startswith("- "):
            if not blocks or blocks[-1]["kind"] != "list":
                blocks.append({"kind": "list", "items": []})
            blocks[-1]["items"].append(line[2:])
        elif line:
            blocks.append({"kind": "paragraph", "text": line})
    return blocks


# What the troubleshooter understood, field by field: the label (a catalog message) and how a value is shown.
# Pixel sizes stay as written (512/768/1024 are the same in every language); counts go through Babel.
UNDERSTOOD: tuple[tuple[str, str, str], ...] = (
    ("model_family", N_("Model family"), "family"),
    ("gradient_checkpointing", N_("Gradient checkpointing"), "switch"),
    ("batch_size", N_("Batch size"), "count"),
    ("gradient_accumulation", N_("Gradient Accumulation"), "count"),
    ("resolutions", N_("Resolutions (buckets)"), "sizes"),
    ("num_frames", N_("Frames per sample (video)"), "count"),
    ("control_images", N_("Control images"), "count"),
    ("sample_size", N_("Sample Width / Height"), "sizes"),
    ("sample_steps", N_("Sample Steps"), "count"),
    ("sample_every", N_("Sample Every"), "count"),
    ("sampling_disabled", N_("Disable Sampling"), "switch"),
    ("low_vram", N_("Low-memory path (low_vram)"), "switch"),
    ("quantize", N_("Quantization"), "switch"),
    ("step", N_("Failed at step"), "count"),
    ("phase", N_("Phase"), "phase"),
)
PHASES = {
    "loading": N_("loading the model"),
    "caching": N_("caching"),
    "sampling": N_("generating previews"),
    "training": N_("training"),
    "saving": N_("saving"),
}


def understood_parts(index: Index, lang: str, context: dict[str, Any], t: Callable[[str], str]) -> list[str]:
    """The context an answer understood, as localized "label: value" parts: names and labels, never an id."""
    ctx = dict(context)
    if ctx.get("sample_width") and ctx.get("sample_height"):
        ctx["sample_size"] = (ctx["sample_width"], ctx["sample_height"])
    parts = []
    for key, label, kind in UNDERSTOOD:
        value = ctx.get(key)
        if value is None:
            continue
        if kind == "family":
            family = index.texts[lang].families.get(value)
            if family is None:
                continue
            shown = family.name
        elif kind == "switch":
            shown = t("On") if value else t("Off")
        elif kind == "sizes":
            shown = " / ".join(str(v) for v in value) if key == "sample_size" else ", ".join(str(v) for v in value)
        elif kind == "phase":
            if value not in PHASES:
                continue
            shown = t(PHASES[value])
        else:
            shown = format_decimal(value, locale=lang)
        parts.append(t("{label}: {value}").format(label=t(label), value=shown))
    return parts
