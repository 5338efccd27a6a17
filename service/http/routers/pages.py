"""Help pages: /help/ redirects by language; the guide and the troubleshooter in six languages."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request
from starlette.responses import RedirectResponse, Response

from ...catalogs import Negotiated
from ...content.context import Context
from ...errors import NotFound, NotReady, RemedyError, UnknownGuide
from ...rendering.pages import GUIDE_ID, LINK_QUERY_CHARS, Pages
from ..deps import RuntimeDep
from ..lane import compute
from ..responses import etag_matches, strong_etag
from ..work import Work

router = APIRouter(tags=["help pages"])

CSP = ("default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; connect-src 'self'; "
       "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")


def _pages(request: Request) -> Pages:
    pages: Pages | None = getattr(request.app.state, "pages", None)
    if pages is None:
        raise NotReady()
    return pages


def _public_base(request: Request) -> str:
    """Canonical and hreflang links start with the configured public address, never the request's Host
    header (the pages are cached publicly); without one they are paths."""
    return request.app.state.settings.public_base_url or ""


def html_response(request: Request, html: str | tuple[bytes, str], lang: str, max_age: int) -> Response:
    """An HTML answer with its headers; `html` may come encoded already, with its ETag."""
    body, etag = html if isinstance(html, tuple) else (html.encode("utf-8"), "")
    etag = etag or strong_etag(body)
    headers = {
        "Content-Language": lang,
        "Vary": "Accept-Language",
        "ETag": etag,
        "Cache-Control": f"public, max-age={max_age}",
        "Content-Security-Policy": CSP,
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "same-origin",
    }
    if etag_matches(request, etag):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="text/html; charset=utf-8", headers=headers)


def _lang_or_redirect(runtime: RuntimeDep, lang: str, request: Request) -> str | Response:
    if lang in runtime.index.languages:
        return lang
    match = runtime.catalogs.negotiate(lang, None)
    if match.fallback is None:  # a regional tag such as pt-BR: the page exists under its language
        path = request.url.path.replace(f"/help/{lang}", f"/help/{match.lang}", 1)
        return RedirectResponse(path + (f"?{request.url.query}" if request.url.query else ""), status_code=301)
    raise NotFound()


@router.get("/help", include_in_schema=False)
@router.get("/help/", summary="Help pages in the reader's language (redirect)", response_class=Response,
            status_code=307,
            responses={307: {"description": "To the guide in the best language for `Accept-Language`."}})
async def help_root(request: Request, runtime: RuntimeDep) -> Response:
    """Redirects to the guide in the best language for `Accept-Language` (English when none fits)."""
    neg = runtime.catalogs.negotiate(None, request.headers.get("accept-language"))
    return RedirectResponse(f"/help/{neg.lang}/{GUIDE_ID}", status_code=307, headers={"Vary": "Accept-Language"})


_REGIONAL: dict[int | str, dict[str, Any]] = {
    301: {"description": "A regional tag (`pt-BR`): the same page under its language (`pt`)."},
    304: {"description": "Not modified (the `If-None-Match` ETag still holds)."},
}


@router.get("/help/{lang}/troubleshoot", summary="Troubleshooter page", response_class=Response,
            responses={200: {"content": {"text/html": {}}}, **_REGIONAL})
async def troubleshoot_page(
    lang: str,
    request: Request,
    runtime: RuntimeDep,
    q: Annotated[str, Query(max_length=20_000)] = "",
    symptom: Annotated[str, Query(max_length=64)] = "",
    gradient_checkpointing: Annotated[str, Query(max_length=10)] = "",
    model_family: Annotated[str, Query(max_length=64)] = "",
    batch_size: Annotated[str, Query(max_length=10)] = "",
    resolutions: Annotated[str, Query(max_length=200)] = "",
    num_frames: Annotated[str, Query(max_length=10)] = "",
    control_images: Annotated[str, Query(max_length=10)] = "",
    sampling_disabled: Annotated[str, Query(max_length=10)] = "",
    low_vram: Annotated[str, Query(max_length=10)] = "",
) -> Response:
    """The troubleshooter: a form (symptom, free text, GC on/off, family, batch size, buckets, frames, control
    images, Disable Sampling, low_vram) whose GET answer renders the same ordered steps as `POST /v1/diagnose`,
    in `<ol id="steps">` items carrying `data-step`, and the answer's questions with links that answer them.
    Works without JavaScript."""
    resolved = _lang_or_redirect(runtime, lang, request)
    if isinstance(resolved, Response):
        return resolved
    pages = _pages(request)
    def t(message: str) -> str:
        return runtime.catalogs.gettext(resolved, message)

    form = {"q": q, "symptom": symptom, "gradient_checkpointing": gradient_checkpointing,
            "model_family": model_family, "batch_size": batch_size, "resolutions": resolutions,
            "num_frames": num_frames, "control_images": control_images, "sampling_disabled": sampling_disabled,
            "low_vram": low_vram}
    context, errors = _read_form(runtime, form, t)
    answer = None
    if not errors and (q.strip() or symptom):
        try:
            answer = await compute(request, Work("diagnose", Negotiated(resolved, None, None), {
                "symptom": symptom or None, "query": q if q.strip() else None, "context": context}))
        except RemedyError:
            errors["q"] = t("Unknown value.")
    # The language switcher keeps the form; a long free text (a pasted log) is not copied into its six links.
    carried = {k: v for k, v in form.items() if v and (k != "q" or len(v) <= LINK_QUERY_CHARS)}
    query_string = urlencode(carried)
    html = pages.troubleshoot(resolved, _public_base(request), form, errors, answer, query_string)
    return html_response(request, html, resolved, runtime.settings.cache_max_age)


def _whole(raw: str) -> bool:
    """ASCII digits only, at most 9: `str.isdigit` also accepts `²` or `٣`, which `int` then refuses or reads.

    >>> _whole("12"), _whole("²"), _whole("٣"), _whole("1" * 10)
    (True, False, False, False)
    """
    return raw.isascii() and raw.isdigit() and len(raw) <= 9


def _read_form(
    runtime: RuntimeDep, form: dict[str, str], tr: Callable[[str], str]
) -> tuple[Context, dict[str, str]]:
    """The form's values as a context, and a localized message for each field that could not be read."""
    errors: dict[str, str] = {}
    values: dict[str, object] = {}
    if form["symptom"] and form["symptom"] not in runtime.index.symptoms:
        errors["symptom"] = tr("Unknown value.")
    for name in ("gradient_checkpointing", "sampling_disabled", "low_vram"):
        switch = form[name].strip().lower()
        if switch in ("true", "on", "1"):
            values[name] = True
        elif switch in ("false", "off", "0"):
            values[name] = False
        elif switch:
            errors[name] = tr("Unknown value.")
    if form["model_family"]:
        if form["model_family"] in runtime.index.families:
            values["model_family"] = form["model_family"]
        else:
            errors["model_family"] = tr("Unknown value.")
    for name in ("batch_size", "num_frames"):
        raw = form[name].strip()
        if raw:
            if _whole(raw) and 1 <= int(raw) <= 100_000:
                values[name] = int(raw)
            else:
                errors[name] = tr("Enter a whole number of at least 1.")
    raw = form["control_images"].strip()
    if raw:
        if raw.isdigit() and int(raw) <= 64:
            values["control_images"] = int(raw)
        else:
            errors["control_images"] = tr("Enter a whole number from 0 to 64.")
    sizes = form["resolutions"].replace(",", " ").split()
    if sizes:
        if len(sizes) <= 32 and all(_whole(r) and 64 <= int(r) <= 16_384 for r in sizes):
            values["resolutions"] = sorted({int(r) for r in sizes})
        else:
            errors["resolutions"] = tr("Enter sizes such as 512, 768, 1024.")
    return Context.model_validate(values), errors


@router.get("/help/{lang}", include_in_schema=False)
async def help_lang(lang: str, request: Request, runtime: RuntimeDep) -> Response:
    resolved = _lang_or_redirect(runtime, lang, request)
    if isinstance(resolved, Response):
        return resolved
    return RedirectResponse(f"/help/{resolved}/{GUIDE_ID}", status_code=307)


@router.get("/help/{lang}/{guide_id}", summary="The guide as a page", response_class=Response,
            responses={200: {"content": {"text/html": {}}}, **_REGIONAL})
async def guide_page(lang: str, guide_id: str, request: Request, runtime: RuntimeDep) -> Response:
    """The whole guide rendered from the same data as `GET /v1/guides/{guide_id}`: table of contents with
    anchors equal to the section ids, the risk table, checklists, YAML code blocks and the FAQ."""
    resolved = _lang_or_redirect(runtime, lang, request)
    if isinstance(resolved, Response):
        return resolved
    if guide_id not in runtime.index.guides:
        raise UnknownGuide(id=guide_id)
    page = _pages(request).guide(resolved, guide_id, _public_base(request))
    return html_response(request, page, resolved, runtime.settings.cache_max_age)


@router.get("/static/{name}", include_in_schema=False)
async def static_asset(name: str, request: Request) -> Response:
    asset = _pages(request).assets.get(name)
    if asset is None:
        raise NotFound()
    headers = {"ETag": asset.etag, "Cache-Control": "public, max-age=31536000, immutable",
               "X-Content-Type-Options": "nosniff"}
    if etag_matches(request, asset.etag):
        return Response(status_code=304, headers=headers)
    return Response(asset.body, media_type=asset.media_type, headers=headers)
