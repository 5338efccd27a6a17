"""One handler family, one problem+json shape (RFC 9457), localized through the catalogs."""

from __future__ import annotations

import logging
from collections.abc import MutableMapping
from typing import Any
from urllib.parse import parse_qs

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response

from ..catalogs import Catalogs, Negotiated
from ..errors import (
    BadRequest,
    EmptyBody,
    InvalidRequest,
    MalformedJson,
    MethodNotAllowed,
    NotFound,
    Overloaded,
    PayloadTooLarge,
    RemedyError,
    UnsupportedMediaType,
)
from .deps import runtime_of
from .responses import PROBLEM_JSON, dumps, json_response

log = logging.getLogger("remedy.http")


def problem_type(code: str) -> str:
    return f"urn:remedy:problem:{code}"


def _negotiated(request: Request, body_lang: str | None = None) -> Negotiated:
    runtime = runtime_of(request)
    lang = getattr(request.state, "lang", None)
    if lang:
        return Negotiated(lang, None, None)
    requested = body_lang or request.query_params.get("lang")
    return runtime.catalogs.negotiate(requested[:35] if requested else None, request.headers.get("accept-language"))


def problem_body(catalogs: Catalogs | None, lang: str, error: RemedyError) -> dict[str, Any]:
    """The RFC 9457 body of an error in `lang` (English message ids when no catalogs are loaded yet)."""

    def tr(message: str) -> str:
        return catalogs.gettext(lang, message) if catalogs else message

    params = {k: str(v)[:200] for k, v in error.params.items()}
    body: dict[str, Any] = {
        "type": problem_type(error.code),
        "title": tr(error.title),
        "status": error.status,
        "detail": tr(error.detail).format(**params) if params else tr(error.detail),
        "code": error.code,
        "lang": lang,
    }
    body.update({k: v for k, v in error.extra.items() if k != "allow"})
    return body


def asgi_problem(scope: MutableMapping[str, Any], error: RemedyError) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    """A problem answer for ASGI middleware, negotiated from the request's `lang` and Accept-Language."""
    runtime = getattr(scope["app"].state, "runtime", None)
    headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", ())}
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    lang = "en"
    if runtime is not None:
        requested = query.get("lang", [None])[0]
        lang = runtime.catalogs.negotiate(requested[:35] if requested else None, headers.get("accept-language")).lang
    body = dumps(problem_body(runtime.catalogs if runtime else None, lang, error))
    return error.status, [(b"content-type", PROBLEM_JSON.encode()), (b"content-language", lang.encode()),
                          (b"vary", b"Accept-Language"), (b"content-length", str(len(body)).encode())], body


def problem_response(request: Request, error: RemedyError, body_lang: str | None = None) -> Response:
    runtime = getattr(request.app.state, "runtime", None)
    if runtime is None:
        neg = Negotiated("en", None, None)
        body = problem_body(None, "en", error)
    else:
        neg = _negotiated(request, body_lang)
        body = problem_body(runtime.catalogs, neg.lang, error)
    response = json_response(body, neg, status=error.status, media_type=PROBLEM_JSON)
    if error.status == 405 and "allow" in error.extra:
        response.headers["Allow"] = error.extra.pop("allow")
    if isinstance(error, Overloaded):  # raised by the heavy lane when its process is down or late
        response.headers["Retry-After"] = str(error.params["seconds"])
    return response


def _is_json(content_type: str) -> bool:
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or (media.startswith("application/") and media.endswith("+json"))


def _validation_error(exc: RequestValidationError, content_type: str) -> RemedyError:
    errors = list(exc.errors())
    body_errors = [e for e in errors if tuple(e.get("loc", ())) == ("body",)]
    if body_errors and not _is_json(content_type):
        return UnsupportedMediaType()
    if any(e.get("type") == "json_invalid" for e in errors):
        return MalformedJson()
    if any(e.get("type") == "missing" and tuple(e.get("loc", ())) == ("body",) for e in errors):
        return EmptyBody()
    error = InvalidRequest()
    error.extra["errors"] = [
        {"loc": [str(p) for p in e.get("loc", ())], "type": e.get("type"), "msg": e.get("msg")} for e in errors[:50]
    ]
    return error


def install_handlers(app: FastAPI) -> None:
    @app.exception_handler(RemedyError)
    async def remedy_error(request: Request, exc: RemedyError) -> Response:
        return problem_response(request, exc)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> Response:
        body = exc.body
        body_lang = body.get("lang") if isinstance(body, dict) and isinstance(body.get("lang"), str) else None
        return problem_response(request, _validation_error(exc, request.headers.get("content-type", "")), body_lang)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 405:
            error: RemedyError = MethodNotAllowed()
            allow = (exc.headers or {}).get("Allow")
            if allow:
                error.extra["allow"] = allow
        elif exc.status_code == 404:
            error = NotFound()
        elif exc.status_code == 413:
            error = PayloadTooLarge(limit="?")
        elif 400 <= exc.status_code < 500:
            error = BadRequest()
        else:
            error = RemedyError()
        return problem_response(request, error)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> Response:
        # Answered by the outermost error middleware, outside RequestContext: carry the request id here.
        request_id = getattr(request.state, "request_id", None)
        log.exception("unexpected error on %s %s", request.method, request.url.path,
                      extra={"fields": {"request_id": request_id}})
        response = problem_response(request, RemedyError())
        if request_id:
            response.headers["X-Request-ID"] = request_id
        return response
