"""One `Settings` object, read from the environment (`REMEDY_*`) and refusing bad values at start-up."""

from __future__ import annotations

import difflib
import os
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

PACKAGE = Path(__file__).resolve().parent
# Where `knowledge/` and `locales/` are: inside the package when installed from a wheel (the build puts them
# there), beside `service/` in a checkout or an editable install (whose links resolve to the checkout).
ROOT = PACKAGE if (PACKAGE / "knowledge").is_dir() else PACKAGE.parent
# `REMEDY_*` variables read by the test and benchmark tools, not by the service.
TOOL_VARIABLES = frozenset({"REMEDY_CHROMIUM", "REMEDY_FUZZ_EXAMPLES", "REMEDY_CONTRACT_EXAMPLES",
                            "REMEDY_REQUIRE_BROWSER", "REMEDY_CI_IMAGE_PORT", "REMEDY_CI_WHEEL_PORT",
                            "REMEDY_TEST_PORTS"})


class Settings(BaseSettings):
    """Every setting of the service. Each one is documented in README.md (a test checks that)."""

    model_config = SettingsConfigDict(env_prefix="REMEDY_", frozen=True, extra="forbid", enable_decoding=False)

    host: str = Field("127.0.0.1", description="Address `remedy serve` binds to.")
    port: Annotated[int, Field(ge=1, le=65535)] = Field(8000, description="Port `remedy serve` listens on.")
    workers: Annotated[int, Field(ge=1, le=64)] = Field(1, description="Worker processes for `remedy serve`.")
    knowledge_dir: Path = Field(ROOT / "knowledge", description="Folder of the knowledge YAML.")
    locales_dir: Path = Field(ROOT / "locales", description="Folder of the gettext catalogs.")
    cache_max_age: Annotated[int, Field(ge=0, le=31_536_000)] = Field(
        300, description="`Cache-Control: max-age` of GET answers, in seconds."
    )
    log_level: str = Field("info", description="Log level: debug, info, warning or error.")
    match_confident: Annotated[float, Field(gt=0, le=1)] = Field(
        0.5, description="Confidence from which a free-text match is `confident`."
    )
    match_minimum: Annotated[float, Field(gt=0, le=1)] = Field(
        0.25, description="Confidence below which a free-text match is `none`; between the two it is `ambiguous`."
    )

    max_body_bytes: Annotated[int, Field(ge=1024, le=16_777_216)] = Field(
        262_144, description="Largest request body accepted; larger ones get 413."
    )
    max_json_depth: Annotated[int, Field(ge=4, le=1000)] = Field(
        32, description="Deepest nesting of arrays and objects accepted in a JSON body."
    )
    cors_origins: list[str] = Field(
        default_factory=list,
        description="Origins allowed by CORS (comma-separated in the environment); none by default.",
    )
    response_cache_bytes: Annotated[int, Field(ge=0, le=4_294_967_296)] = Field(
        16_777_216,
        description="Bytes of computed answers (diagnose, config check, search) kept in an LRU; 0 turns it off.",
    )
    page_cache_bytes: Annotated[int, Field(ge=0, le=4_294_967_296)] = Field(
        8_388_608, description="Bytes of rendered guide pages kept in an LRU (one per language and public address)."
    )
    max_header_bytes: Annotated[int, Field(ge=1024, le=1_048_576)] = Field(
        16_384, description="Largest total size of a request's headers; larger gets 431."
    )
    max_headers: Annotated[int, Field(ge=8, le=1000)] = Field(
        64, description="Most header fields in a request; more gets 431."
    )
    header_timeout: Annotated[float, Field(gt=0, le=300)] = Field(
        10.0, description="Seconds a client has to send a request's headers; the connection is closed after."
    )
    body_timeout: Annotated[float, Field(gt=0, le=300)] = Field(
        10.0, description="Seconds a client has to send a request's body; 408 after."
    )
    max_concurrency: Annotated[int, Field(ge=1, le=10_000)] = Field(
        32, description="Requests a worker computes at once (operations routes aside); more get 503 with Retry-After."
    )
    heavy_bytes: Annotated[int, Field(ge=1024, le=16_777_216)] = Field(
        8192, description="A request whose body, query string or header fields are larger computes in the heavy lane "
        "(`REMEDY_HEAVY_LANE`), one such request at a time, beside the event loop."
    )
    heavy_lane: Literal["process", "thread", "off"] = Field(
        "process", description="Where large requests compute: `process`, a child process of each worker at a "
        "lower CPU priority (a thread where no child process can be had); `thread`, a thread of the worker, "
        "giving the interpreter back every `REMEDY_SWITCH_INTERVAL`; `off`, on the event loop."
    )
    heavy_timeout: Annotated[float, Field(gt=0, le=300)] = Field(
        5.0, description="Seconds a large request may wait and compute in the heavy-lane process; later it gets "
        "503 with Retry-After and the process is restarted."
    )
    max_heavy: Annotated[int, Field(ge=1, le=10_000)] = Field(
        4, description="Large requests a worker holds at once (computing or waiting in the heavy lane); more get "
        "503 with Retry-After, so that they never take the `REMEDY_MAX_CONCURRENCY` places of normal requests."
    )
    switch_interval: Annotated[float, Field(ge=0.0001, le=0.1)] = Field(
        0.0005, description="Seconds a thread computes before the interpreter passes to another waiting one "
        "(`sys.setswitchinterval`): the longest a normal request waits for the heavy lane to yield."
    )
    max_connections: Annotated[int, Field(ge=1, le=100_000)] = Field(
        1000, description="Open connections a worker accepts; more get 503 from the server."
    )
    shutdown_grace: Annotated[float, Field(ge=0, le=300)] = Field(
        5.0, description="Seconds `/readyz` answers 503 after SIGTERM before the worker stops listening."
    )
    max_query_tokens: Annotated[int, Field(ge=16, le=10_000)] = Field(
        160, description="Words of a query or log analysed; the rest is not read."
    )
    max_typo_candidates: Annotated[int, Field(ge=0, le=10_000)] = Field(
        32, description="Words of a query looked up for a typo correction; later unknown words stay as written."
    )
    max_log_lines: Annotated[int, Field(ge=16, le=1_000_000)] = Field(
        1000, description="Lines of a query or log read: its first line and the last ones."
    )
    word_cache_bytes: Annotated[int, Field(ge=0, le=1 << 30)] = Field(
        4 * 1024 * 1024,
        description="Bytes each word-keyed memo table of free-text understanding may hold (forms, typo "
        "corrections, tokens, concept starts, postings); oldest dropped first; 0 turns them off.",
    )
    rank_cache_bytes: Annotated[int, Field(ge=0, le=1 << 30)] = Field(
        4 * 1024 * 1024,
        description="Bytes the memo table of candidate targets per set of understood concepts may hold, and each "
        "table of the answers built from them (a plan's needed inputs, a search hit's text, a question's "
        "labels); 0 turns them off.",
    )
    hsts: bool = Field(False, description="Send Strict-Transport-Security (only behind HTTPS).")
    log_json: bool = Field(True, description="Write logs as JSON lines (one per request, with its request id).")
    public_base_url: str | None = Field(
        None, description="The service's public address (`https://help.example.com`): the canonical and hreflang "
        "links of the help pages are built from it, never from the request's Host header; unset, they are paths.",
    )
    metrics_port: Annotated[int, Field(ge=0, le=65535)] = Field(
        0, description="Serve /metrics on this port of its own (all workers' series), and not on the API port; "
        "0 keeps it on the API port.",
    )
    forwarded_allow_ips: str = Field(
        "127.0.0.1", description="Proxies whose X-Forwarded-For/-Proto headers are trusted (comma-separated "
        "addresses, or `*` behind a load balancer that is the only way in).",
    )

    @field_validator("cors_origins", mode="before")
    @classmethod
    def _split_origins(cls, value: object) -> object:
        if isinstance(value, str):
            return [o.strip() for o in value.split(",") if o.strip()]
        return value

    @field_validator("cors_origins")
    @classmethod
    def _origins_are_urls(cls, value: list[str]) -> list[str]:
        for origin in value:
            if origin != "*" and not origin.startswith(("http://", "https://")):
                raise ValueError(f"CORS origin {origin!r} must start with http:// or https://")
        return value

    @model_validator(mode="before")
    @classmethod
    def _no_unknown_variables(cls, data: Any) -> Any:
        """A misspelled `REMEDY_*` variable would be ignored silently: refuse it, naming the closest setting."""
        known = {f"REMEDY_{name.upper()}" for name in cls.model_fields} | TOOL_VARIABLES
        for variable in sorted(os.environ):
            if variable.upper().startswith("REMEDY_") and variable.upper() not in known:
                close = difflib.get_close_matches(variable.upper(), sorted(known), n=1, cutoff=0.5)
                hint = f"; did you mean {close[0]}?" if close else ""
                raise ValueError(f"unknown setting {variable}{hint}")
        return data

    @model_validator(mode="after")
    def _ordered_thresholds(self) -> Settings:
        if self.match_minimum > self.match_confident:
            raise ValueError("match_minimum must not exceed match_confident")
        return self

    @field_validator("knowledge_dir", "locales_dir")
    @classmethod
    def _must_be_dir(cls, value: Path) -> Path:
        if not value.is_dir():
            raise ValueError(f"{value} is not a folder")
        return value

    @field_validator("public_base_url")
    @classmethod
    def _base_url(cls, value: str | None) -> str | None:
        if value is None or value == "":
            return None
        if not value.startswith(("http://", "https://")) or "?" in value or "#" in value:
            raise ValueError("public_base_url must be an http:// or https:// address without query or fragment")
        return value.rstrip("/")

    @field_validator("heavy_lane", mode="before")
    @classmethod
    def _known_lane(cls, value: object) -> object:
        choices = ("process", "thread", "off")
        if isinstance(value, str) and value.strip().lower() in choices:
            return value.strip().lower()
        close = difflib.get_close_matches(str(value).lower(), choices, n=1, cutoff=0.3)
        hint = f"; did you mean {close[0]}?" if close else ""
        raise ValueError(f"heavy_lane must be process, thread or off, not {value!r}{hint}")

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        value = value.lower()
        if value not in ("debug", "info", "warning", "error"):
            raise ValueError("log_level must be debug, info, warning or error")
        return value
