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


class CheckOut(BaseModel):
    """One of the guide's conditions for a step, judged from what is known of the job."""

    id: str
    text: str = Field(description="The condition, in the guide's words.")
    status: Literal["met", "not-met", "unknown"]
    status_text: str
    note: str | None = Field(None, description="What the known facts show, where they show something.")


class StepOut(BaseModel):
    order: int
    id: str
    title: str
    detail: str = Field(description="What to do, filled from what is known of the job.")
    reason: Reason
    config_patch: dict[str, Any] | None
    ui_path: list[str]
    source: Source
    checks: list[CheckOut] | None = Field(
        None, description="`test-gc-off-carefully`: the guide's conditions, each met, not met or unknown."
    )
    watch: list[str] | None = Field(None, description="What to watch while trying the step, in the guide's words.")


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


class Option(BaseModel):
    value: Any = Field(description="The value to send back in `context.<field>`.")
    label: str


class Question(BaseModel):
    """An input that would change this answer, with a question a bot can ask in the answer's language."""

    field: str = Field(description="The `context` field the reply goes to.")
    text: str
    options: list[Option]


class ConflictOut(BaseModel):
    """Inputs that contradict each other, and which one the answer follows."""

    fields: list[str]
    text: str


class Topic(BaseModel):
    """The FAQ entry or guide section that answers the question, when no symptom does."""

    kind: Literal["faq", "section"]
    id: str
    title: str
    text: str = Field(description="The entry's or section's text, one paragraph or list item per line.")
    url: str
    confidence: float = Field(ge=0, le=1)


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
    risk: RiskOut | None = Field(
        None, description="The job's OOM risk from the known facts; absent when no plan answers (`match: none`, "
        "a topic)."
    )
    related: list[Related]
    needs: list[str] = Field(description="Unknown inputs one of whose values would change the steps or risk level.")
    questions: list[Question] = Field(description="A localized question per `needs` entry, with its options.")
    conflicts: list[ConflictOut]
    topic: Topic | None = None
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
