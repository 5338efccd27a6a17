"""Request and response shapes of API v1, for validation and for the OpenAPI document."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..content.context import Context

Level = Literal["high", "elevated", "normal", "unknown"]
Match = Literal["confident", "ambiguous", "none"]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class DiagnoseRequest(Strict):
    """What went wrong. Send at least one of `query`, `symptom` or `config`/`config_yaml`."""

    query: str | None = Field(None, max_length=20_000, description="Free text or a pasted log, any language.")
    symptom: str | None = Field(None, max_length=64, description="A symptom id, e.g. `oom-early-steps`.")
    context: Context | None = Field(None, description="What is known about the job; wins over config and text.")
    config: dict[str, Any] | None = Field(None, description="The AI Toolkit job config as a JSON object.")
    config_yaml: str | None = Field(None, description="The AI Toolkit job config as YAML (at most 256 KiB: 413).")
    lang: str | None = Field(None, max_length=35, description="Answer language (`es`, `pt-BR`, …).")


class Fallback(BaseModel):
    requested: str | None
    reason: str
    message: str


class SymptomRef(BaseModel):
    id: str
    title: str
    confidence: float = Field(ge=0, le=1)


class Reason(BaseModel):
    rule: str
    section: str
    text: str


class Source(BaseModel):
    guide: str
    section: str
    url: str


class StepOut(BaseModel):
    order: int
    id: str
    title: str
    detail: str
    reason: Reason
    config_patch: dict[str, Any] | None
    ui_path: list[str]
    source: Source


class RiskReason(BaseModel):
    id: str
    text: str


class RiskOut(BaseModel):
    level: Level
    family: str | None
    rule: str
    reasons: list[RiskReason]


class Related(BaseModel):
    kind: Literal["faq", "section"]
    id: str
    title: str
    url: str


class Signal(BaseModel):
    id: str
    text: str
    data: dict[str, Any] = {}


class DiagnoseResponse(BaseModel):
    lang: str
    fallback: Fallback | None = None
    match: Match
    symptom: SymptomRef | None
    alternatives: list[SymptomRef]
    context: dict[str, Any]
    steps: list[StepOut]
    risk: RiskOut
    related: list[Related]
    needs: list[str]
    signals: list[Signal]
    knowledge_revision: str


class ConfigCheckRequest(Strict):
    """The AI Toolkit job config about to be launched, as a JSON object or as YAML text (one of the two)."""

    config: dict[str, Any] | None = Field(None, description="The job config as a JSON object.")
    config_yaml: str | None = Field(None, description="The job config as YAML text (at most 256 KiB: 413).")
    lang: str | None = Field(None, max_length=35, description="Answer language (`es`, `pt-BR`, …).")


class FindingOut(BaseModel):
    id: str
    severity: Literal["high", "warning", "info"]
    title: str
    detail: str
    path: str = Field(description="Where the value is in the submitted config: `config.process[0].train.batch_size`.")
    value: Any = Field(description="The value there (AI Toolkit's default when the key is absent).")
    suggested: Any = Field(description="The safer value where the guide gives one, else null.")
    step: str = Field(description="The remediation step id that fixes it.")


class JobRef(BaseModel):
    name: str | None
    process_index: int


class ConfigCheckResponse(BaseModel):
    lang: str
    fallback: Fallback | None = None
    context: dict[str, Any]
    job: JobRef
    risk: RiskOut
    findings: list[FindingOut]
    knowledge_revision: str


class SearchHit(BaseModel):
    kind: Literal["symptom", "faq", "section", "step"]
    id: str
    title: str
    snippet: str
    score: float = Field(ge=0, le=1)
    url: str


class SearchResponse(BaseModel):
    lang: str
    fallback: Fallback | None = None
    query: str
    match: Match
    hits: list[SearchHit]
    knowledge_revision: str


class Problem(BaseModel):
    """RFC 9457 problem details, localized."""

    type: str
    title: str
    status: int
    detail: str
    code: str
    lang: str
    errors: list[dict[str, Any]] | None = None


class LocaleOut(BaseModel):
    code: str
    name: str
    english_name: str
    default: bool


class Envelope(BaseModel):
    """Every content answer carries its language and the knowledge revision."""

    model_config = ConfigDict(extra="allow")
    lang: str
    knowledge_revision: str
    fallback: Fallback | None = None


class LocalesOut(Envelope):
    locales: list[LocaleOut]


class GuidesOut(Envelope):
    guides: list[dict[str, Any]]


class GuideOut(Envelope):
    guide: dict[str, Any]


class SymptomsOut(Envelope):
    symptoms: list[dict[str, Any]]


class SymptomOut(Envelope):
    symptom: dict[str, Any]


class StepsOut(Envelope):
    steps: list[dict[str, Any]]


class FaqOut(Envelope):
    faq: list[dict[str, Any]]


class RiskTableOut(Envelope):
    risk_table: dict[str, Any]


class MetaOut(Envelope):
    meta: dict[str, Any]


class Health(BaseModel):
    status: str


class Ready(BaseModel):
    ready: bool
    knowledge_revision: str | None = None
