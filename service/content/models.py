"""Strict, frozen models of the knowledge files (`knowledge/structure/…` and `knowledge/text/<lang>/…`).

Structure is language-neutral and stored once; prose sits per language under the same ids and keys.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints, model_validator

from .base_models import FROZEN, Id
from .intent_models import Avoided, Implication, Intent, Intents, Outside
from .paste_models import PastedSetting, PastedSettings
from .profile_models import LanguageProfile, OrdinaryWords
from .sentence_models import Key, SentenceMarkers, SentenceRules

Text = Annotated[str, StringConstraints(min_length=1, max_length=4000)]
Condition = dict[str, Any]
__all__ = [  # besides the models below
    "Avoided", "Id", "Implication", "Intent", "Intents", "Key", "LanguageProfile", "OrdinaryWords", "Outside",
    "PastedSetting", "PastedSettings", "SentenceMarkers", "SentenceRules",
]


class Frozen(BaseModel):
    model_config = FROZEN


# --- structure -------------------------------------------------------------------------------------


class TextBlock(Frozen):
    kind: Literal["paragraph", "callout", "quote", "heading"]
    text: Key


class ListBlock(Frozen):
    kind: Literal["list", "ordered_list", "checklist"]
    text: Key
    count: Annotated[int, Field(ge=1, le=50)]
    start: Annotated[int, Field(ge=1)] = 1


class CodeBlock(Frozen):
    kind: Literal["code"]
    language: Key
    code: Text


class TableBlock(Frozen):
    kind: Literal["table"]
    text: Key
    columns: tuple[Key, ...]
    rows: tuple[Id, ...]


class FaqBlock(Frozen):
    kind: Literal["faq"]
    entries: tuple[Id, ...]


Block = Annotated[TextBlock | ListBlock | CodeBlock | TableBlock | FaqBlock, Field(discriminator="kind")]
AnswerBlock = Annotated[TextBlock | ListBlock, Field(discriminator="kind")]


class Section(Frozen):
    id: Id
    titled: bool = True
    blocks: tuple[Block, ...]


class Guide(Frozen):
    id: Id
    sections: tuple[Section, ...]


class FaqEntry(Frozen):
    id: Id
    section: Id
    symptom: Id | None = None
    blocks: tuple[AnswerBlock, ...]
    related: tuple[Id, ...] = ()


class PlanEntry(Frozen):
    step: Id
    reason: Id
    when: Condition = {}  # besides the step's own `applies`: this entry is for these facts only


class Symptom(Frozen):
    id: Id
    risk: bool = False
    implies: Condition = {}
    section: Id
    related: tuple[Id, ...] = ()
    plan: tuple[PlanEntry, ...]


# Text variants: each declares the condition under which its text is true, over the facts of the answer
# (the operators of service/index/conditions.py). The first variant whose condition holds is used; its text
# sits per language under the same variant id. No variants: one text, true wherever its item is used.
Variants = dict[Id, Condition]


class StepCheck(Frozen):
    """One of the guide's conditions for a step (`test-gc-off-carefully`: "Reasonable conditions"), judged on
    the facts: `met` when that condition holds, `not_met` when that one does, unknown otherwise. Its words are
    the guide's own (`guide`: section and list key, `item`: the position in that list); `notes` say, per
    status, what the facts show (text/<lang>/steps.yaml `checks.<id>.<note>`)."""

    id: Id
    section: Id
    key: Key
    item: Annotated[int, Field(ge=0, le=50)]
    met: Condition = {}
    not_met: Condition = {}
    notes: Variants = {}


class Step(Frozen):
    id: Id
    section: Id
    ui_path: tuple[Text, ...] = ()
    applies: Condition = {}
    patch: dict[str, Any] | None = None
    patch_builder: Id | None = None
    details: tuple[Variants, ...] = ()
    checks: tuple[StepCheck, ...] = ()
    watch: tuple[Id, Key] | None = None  # the guide's list of what to watch: (section, list key)


class Family(Frozen):
    id: Id
    in_risk_table: bool = False
    arch: tuple[Annotated[str, StringConstraints(min_length=1, max_length=64)], ...] = ()
    legacy_flags: tuple[Key, ...] = ()
    safe_batch: Annotated[int, Field(ge=1, le=64)]
    fallback: bool = False
    aliases: tuple[Annotated[str, StringConstraints(min_length=1, max_length=64)], ...] = ()


class FindingRule(Frozen):
    """A config-check finding: when it applies, how severe, the safer value and the step that fixes it, and the
    wordings of its title and of each sentence of its detail, each chosen by a condition over the facts."""

    id: Id
    field: Key
    when: Condition
    severity: Literal["info", "warning", "high"]
    high_when: Condition = {}
    suggested: Any = None
    suggested_builder: Id | None = None
    step: Id
    # Text variants (see Variants): the title's, and each sentence's of the detail, in order. For each, the first
    # variant whose condition holds is used; a title with variants ends on one that always holds, and a sentence
    # none of whose variants holds is left out. No title variants: one title, true wherever the finding is.
    title: Variants = {}
    details: tuple[Variants, ...] = ()

    @model_validator(mode="after")
    def _title_always_has_a_text(self) -> FindingRule:
        if self.title and list(self.title.values())[-1]:
            raise ValueError("the last title variant has no condition, so that every finding has a title")
        return self


class Reason(Frozen):
    section: Id
    variants: Variants = {}


class NeedSpec(Frozen):
    """An input worth asking for: the values a bot may offer (each a valid context value), and how they are
    labelled (`boolean`: the texts' yes/no, `family`: family names, `number`, `buckets`: sizes joined by " / ")."""

    field: Key
    options: tuple[Any, ...]
    labels: Literal["boolean", "family", "number", "buckets"]
    unless: Condition = {}  # where the input cannot vary (Num Frames on an image-only family), it is not asked


class Conflict(Frozen):
    """A contradiction between what a symptom means and the facts: when `when` holds for the symptom's answer."""

    id: Id
    symptoms: tuple[Id, ...]
    when: Condition
    fields: tuple[Key, ...]


class RiskRule(Frozen):
    id: Id
    level: Literal["high", "elevated", "normal", "unknown"]
    when: Condition
    facts: tuple[Id, ...]


class Rules(Frozen):
    reasons: dict[Id, Reason]
    risk_facts: dict[Id, Condition]
    risk: tuple[RiskRule, ...]
    needs: tuple[NeedSpec, ...]
    conflicts: tuple[Conflict, ...] = ()


class Protected(Frozen):
    literals: tuple[Text, ...]
    numbers: tuple[Text, ...]
    ui_labels: tuple[Text, ...]

    @property
    def tokens(self) -> tuple[str, ...]:
        return self.literals + self.numbers + self.ui_labels


class Languages(Frozen):
    default: Key
    supported: tuple[Key, ...]
    protected: Protected


# --- text per language -----------------------------------------------------------------------------


class TableText(Frozen):
    header: tuple[Text, ...]
    rows: dict[Id, tuple[Text, ...]]


SectionText = dict[Key, Text | tuple[Text, ...] | TableText]


class GuideText(Frozen):
    title: Text
    title_variants: tuple[Text, ...] = ()
    sections: dict[Id, SectionText]


FaqText = dict[Key, Text | tuple[Text, ...]]


class SymptomText(Frozen):
    title: Text
    description: Text


VariantText = Text | dict[Id, Text]  # one text, or one per variant id


class StepText(Frozen):
    title: Text
    detail: VariantText
    checks: dict[Id, dict[Id, Text]] = {}  # check id -> note id -> text (structure: steps.yaml checks.notes)


class QuestionText(Frozen):
    text: Text
    yes: Text | None = None
    no: Text | None = None


class RulesText(Frozen):
    reasons: dict[Id, VariantText]
    risk_reasons: dict[Id, Text]
    questions: dict[Key, QuestionText] = {}
    conflicts: dict[Id, Text] = {}
    check_status: dict[Literal["met", "not-met", "unknown"], Text] = {}


class FindingText(Frozen):
    title: VariantText
    detail: VariantText


class FamilyText(Frozen):
    name: Text
    reading: Text | None = None  # how the name is read aloud, where grammar depends on it (Korean particles)


class Vocabulary(Frozen):
    """How users say things in one language: concept words and example phrasings per target."""

    concepts: dict[Key, tuple[Annotated[str, StringConstraints(min_length=1, max_length=80)], ...]]
    phrasings: dict[Id, tuple[Text, ...]] = {}


class LanguageText(Frozen):
    lang: Key
    guides: dict[Id, GuideText]
    faq: dict[Id, FaqText]
    symptoms: dict[Id, SymptomText]
    steps: dict[Id, StepText]
    rules: RulesText
    families: dict[Id, FamilyText]
    signals: dict[Id, Text]
    findings: dict[Id, FindingText]
    vocabulary: Vocabulary


class Content(Frozen):
    """Everything under `knowledge/`, loaded and schema-checked; cross-file checks live in `checks`."""

    revision: str
    languages: Languages
    guides: tuple[Guide, ...]
    faq: tuple[FaqEntry, ...]
    symptoms: tuple[Symptom, ...]
    steps: tuple[Step, ...]
    families: tuple[Family, ...]
    rules: Rules
    findings: tuple[FindingRule, ...]
    concepts: dict[Key, Text]
    features: dict[Key, Text]
    signals: dict[Id, Text]
    intents: Intents
    pasted: PastedSettings
    texts: dict[Key, LanguageText]
    profiles: dict[Key, LanguageProfile]
    words: dict[Key, OrdinaryWords] = {}  # a language's ordinary words (`text/<lang>/words.yaml`), where it has some
