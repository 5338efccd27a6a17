"""The API's own documentation, served offline: `/` points to `/docs` and `/help/`; `/docs` is Swagger UI.

Swagger UI's script and style come from the `swagger-ui-py` package (installed with Remedy), not from a CDN,
so the page works without network and under a Content-Security-Policy that allows only this origin.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from fastapi import APIRouter, Request
from starlette.responses import Response

from ...errors import NotFound
from ..responses import etag_matches, strong_etag

router = APIRouter(include_in_schema=False)

DOCS_CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            "connect-src 'self'; font-src 'self'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'")
OWN = Path(__file__).resolve().parents[2] / "rendering" / "static" / "docs"

INDEX = b"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Remedy</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><h1>Remedy</h1>
<ul><li><a href="/docs">API documentation</a> (<a href="/openapi.json">OpenAPI document</a>)</li>
<li><a href="/help/">Help pages</a> (the guide and the troubleshooter, in six languages)</li></ul>
</body></html>
"""

DOCS = b"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Remedy API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script>
</body></html>
"""


@dataclass(frozen=True, slots=True)
class DocAsset:
    body: bytes
    media_type: str
    etag: str


@cache
def docs_assets() -> dict[str, DocAsset]:
    import swagger_ui  # type: ignore[import-untyped]  # only its static files are used

    vendor = Path(swagger_ui.__file__).resolve().parent / "static"
    files = {"swagger-ui-bundle.js": vendor / "swagger-ui-bundle.js", "swagger-ui.css": vendor / "swagger-ui.css",
             "init.js": OWN / "init.js"}
    out = {}
    for name, path in files.items():
        body = path.read_bytes()
        media = "text/css; charset=utf-8" if name.endswith(".css") else "text/javascript; charset=utf-8"
        out[name] = DocAsset(body, media, strong_etag(body))
    return out


def _page(body: bytes) -> Response:
    return Response(body, media_type="text/html; charset=utf-8",
                    headers={"Content-Security-Policy": DOCS_CSP, "Cache-Control": "public, max-age=300"})


@router.get("/")
async def index() -> Response:
    return _page(INDEX)


@router.get("/docs")
async def docs() -> Response:
    return _page(DOCS)


@router.get("/docs/assets/{name}")
async def docs_asset(name: str, request: Request) -> Response:
    asset = docs_assets().get(name)
    if asset is None:
        raise NotFound()
    headers = {"ETag": asset.etag, "Cache-Control": "public, max-age=86400"}
    if etag_matches(request, asset.etag):
        return Response(status_code=304, headers=headers)
    return Response(asset.body, media_type=asset.media_type, headers=headers)
