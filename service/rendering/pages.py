"""Help pages: the guide and the troubleshooter rendered server-side from the same views as the API.

Pure rendering: data in, HTML out. Every reflected value goes through Jinja2's autoescape.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from cachetools import LRUCache
from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from ..catalogs import Catalogs
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
        return {
            "lang": lang,
            "t": lambda message: self.catalogs.gettext(lang, message),
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
            understood=_understood(answer, t) if answer else "",
            symptoms=[{"id": sid, "title": text.symptoms[sid].title} for sid in self.index.symptoms],
            families=[{"id": fid, "name": text.families[fid].name} for fid in self.index.families],
        )


def _understood(answer: dict[str, Any], t: Callable[[str], str]) -> str:
    ctx = answer.get("context") or {}
    parts = []
    labels = {"gradient_checkpointing": "Gradient checkpointing", "model_family": "Model family",
              "batch_size": "Batch size", "resolutions": "Resolutions (buckets)",
              "num_frames": "Frames per sample (video)"}
    for key, label in labels.items():
        if key in ctx:
            value = ctx[key]
            if isinstance(value, bool):
                shown = t("On") if value else t("Off")
            elif isinstance(value, list | tuple):
                shown = ", ".join(str(v) for v in value)
            else:
                shown = str(value)
            parts.append(f"{t(label)}: {shown}")
    if "step" in ctx:
        parts.append(f"step {ctx['step']}")
    return " · ".join(parts)
