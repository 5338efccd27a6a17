"""JSON answers with the negotiation headers, strong ETags and 304s for cacheable GETs."""

from __future__ import annotations

import hashlib
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response

from ..catalogs import Negotiated

JSON = "application/json"
PROBLEM_JSON = "application/problem+json"


def dumps(body: Any) -> bytes:
    return orjson.dumps(body, option=orjson.OPT_NON_STR_KEYS)


def lang_headers(neg: Negotiated) -> dict[str, str]:
    return {"Content-Language": neg.lang, "Vary": "Accept-Language"}


def json_response(body: Any, neg: Negotiated, status: int = 200, media_type: str = JSON) -> Response:
    return Response(dumps(body), status_code=status, media_type=media_type, headers=lang_headers(neg))


def strong_etag(payload: bytes) -> str:
    return '"' + hashlib.sha256(payload).hexdigest()[:32] + '"'


def etag_matches(request: Request, etag: str) -> bool:
    header = request.headers.get("if-none-match")
    if not header:
        return False
    if header.strip() == "*":
        return True
    # If-None-Match uses the weak comparison (RFC 9110 §13.1.2): W/ prefixes are ignored.
    candidates = {tag.strip().removeprefix("W/") for tag in header.split(",")}
    return etag in candidates


def cached_response(request: Request, payload: bytes, etag: str, neg: Negotiated, max_age: int) -> Response:
    headers = lang_headers(neg)
    headers["ETag"] = etag
    headers["Cache-Control"] = f"public, max-age={max_age}"
    if etag_matches(request, etag):
        return Response(status_code=304, headers=headers)
    return Response(payload, media_type=JSON, headers=headers)
