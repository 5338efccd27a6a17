"""Models of how a query is understood (content layer): `structure/intents.yaml`, the concepts that make each
target a candidate and weigh it, what rules a text out of the domain, and what search rests on."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from .base_models import FROZEN, Id
from .sentence_models import Asked, Key, SentenceRules


class Frozen(BaseModel):
    model_config = FROZEN


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
    # Only a `by` word with one of these in its span: a failure named as one not to get back ("sem voltar a ter o OOM",
    # "without getting the OOM back"), a longer span than a plain "without OOM"
    after: tuple[Key, ...] = ()
    # The span ends with its clause: "OOM every time. GC is on", "OOM every time, GC is on" (a saved file's "every
    # checkpoint" reaches no GC of the next clause); a rule whose subject may be asked of in the next sentence ("the
    # loss curve ... ? or does it look noisy?") leaves it off
    sentence: bool = False


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
    search_title_asks: tuple[Key, ...] = ()  # ... and those only a body's `search_title_persisted` overrules
    search_title_persisted: tuple[Key, ...] = ()  # (the user's own OOM lasting through a fix, own bad result)
    search_asked: Asked = Asked()  # what a text asks about (`gate.asked`): no FAQ entry or section for another subject
    targets: dict[Id, Intent]
