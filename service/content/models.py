"""Strict, frozen models of the knowledge files (`knowledge/structure/…` and `knowledge/text/<lang>/…`).

Structure is language-neutral and stored once; prose sits per language under the same ids and keys.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from .paste_models import PastedSetting, PastedSettings
from .profile_models import LanguageProfile, OrdinaryWords
from .sentence_models import Asked, Key, SentenceMarkers, SentenceRules

Id = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$", max_length=64)]
Text = Annotated[str, StringConstraints(min_length=1, max_length=4000)]
Condition = dict[str, Any]
__all__ = [  # besides the models below
    "Key", "LanguageProfile", "OrdinaryWords", "PastedSetting", "PastedSettings", "SentenceMarkers", "SentenceRules",
]


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


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


class Implication(Frozen):
    """`all` these concepts mean `then`: said in one sentence, or anywhere in the text when `across` ("GC is off.
    Not sure why." is unsure of GC; "I have 24 GB. The samples are weak." is no OOM)."""

    all: tuple[Key, ...]
    then: Key
    across: bool = False


class Intent(Frozen):
    """How a target (symptom, FAQ entry, section, step) is recognised from the concepts of a query.

    A target is a candidate only when every concept of `require` is present, at least one concept of each
    group of `require_any` is, and none of `forbid` is. Its score is `prior` plus the weight of each concept or feature
    present.
    """

    kind: Literal["symptom", "faq", "section", "step"]
    require: tuple[Key, ...] = ()
    require_any: tuple[tuple[Key, ...], ...] = ()
    forbid: tuple[Key, ...] = ()
    prior: float = 0.0
    weights: dict[Key, float] = {}
    # The subjects of the guide a search hit on this target may rest on, besides those its requirements and
    # positive weights name (`search_needs`): "why does VRAM spike when I turn GC off" is about `why-sudden-oom`.
    about: tuple[Key, ...] = ()
    # When set, the only subjects a search hit on this target rests on: "does GC hurt quality?" answers a text
    # about GC, not every text that says the LoRA looks bad.
    rests_on: tuple[Key, ...] = ()


class Outside(Frozen):
    """A query holding one of `any` is about something else, unless it also holds one of `unless`."""

    any: tuple[Key, ...]
    unless: tuple[Key, ...] = ()


class Avoided(Frozen):
    """What a query names as something to avoid is not stated: with one of `when` present (or always, when it is
    empty), hits of `drop` in the
    few words after a `by` word ("faster without running out of VRAM") do not count. The span stops at a
    `stop` hit: in "without GC, OOM at step 2" what is done without is GC."""

    when: tuple[Key, ...]
    by: Key
    drop: tuple[Key, ...]
    stop: tuple[Key, ...] = ()
    span: int = 3
    # What is dropped follows the word in every language, Korean too: a subject and what is said of it ("로스 곡선이
    # 노이즈가 심해요"), not a postposition, which in Korean follows what it governs ("OOM 없이")
    after_in_korean: bool = False
    # The `by` words' own tokens count too: French "plein de VRAM" (plenty of) holds `plein`, which also says full
    inside: bool = False


class Intents(Frozen):
    sentences: SentenceRules = SentenceRules()
    implies: tuple[Implication, ...] = ()
    domain: tuple[Key, ...]
    outside: tuple[Outside, ...] = ()  # ... and in none of these
    avoided: tuple[Avoided, ...] = ()
    # Concepts whose phrases are read whole: a word inside says nothing of its own ("with default settings": no GC on).
    whole_phrases: tuple[Key, ...] = ()
    # A search hit needs one of these (a subject the guide is about): a model or trainer name alone is none.
    search_needs: tuple[Key, ...] = ()
    # Of those, the ones that say only where a thing is set ("where do I set that?"): alone, or no hit rests on them.
    search_generic: tuple[Key, ...] = ()
    # Concepts that, said as the unit of a figure ("24GB VRAM"), state the run's context: no search hit rests on them.
    search_figures: tuple[Key, ...] = ()
    # `outside` subjects that, named in a text's title line, keep their veto on search whatever the body tells, unless
    # the title or a pasted log tells one of the rule's exceptions ("Pretrained LoRA bug" over a progress bar).
    search_title_vetoes: tuple[Key, ...] = ()
    topic_titles: tuple[Outside, ...] = ()  # a post's topic in its title or opening outweighs its body's symptom words
    topic_evidence: tuple[Key, ...] = ()  # ... unless the body tells one of these (an OOM, a rate)
    search_title_topics: tuple[Key, ...] = ()  # ... of which topics a body's told `search_title_told` overrules
    search_title_told: tuple[Key, ...] = ()  # (an OOM told as the present state)
    search_asked: Asked = Asked()  # what a text asks about (`gate.asked`): no FAQ entry or section for another subject
    targets: dict[Id, Intent]


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
