"""A post's title line (understanding layer): the concepts of an issue's title, read apart from its body, and the
subjects such a title vetoes search with (`intents.yaml` `search_title_vetoes`, `topic_titles`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .caches import Caches
from .gate import implied
from .wrapped import spec_line, title_tag

if TYPE_CHECKING:
    from .matcher import Matcher

# A title line: the first line of a text of several lines, of at most this many words (an issue's title).
TITLE_WORDS = 14


def title_vetoes(matcher: Matcher, subjects: frozenset[str]) -> frozenset[str]:
    """The subjects a title line vetoes search with: not a topic the guide does not teach (`search_title_topics`)
    where the body tells an OOM as the present state (`search_title_told`)."""
    if subjects.isdisjoint(matcher.title_told):
        return matcher.title_vetoes
    return matcher.title_vetoes - matcher.title_topics


def title_concepts(matcher: Matcher, prose: str, lang: str | None, caches: Caches) -> frozenset[str]:
    """The concepts of the text's title line (and those they imply), if it has one; an environment line ("RTX 4090
    24GB, 32GB RAM") is none, and a title may follow one ("Setup: RTX 4090 24GB\nPretrained LoRA bug\n...")."""
    head, _, body = prose.strip().partition("\n")
    wrapping = matcher.sentences.wrapping
    while body.strip() and spec_line(head, wrapping):
        head, _, body = body.strip().partition("\n")
    head = title_tag(head, wrapping)[2]  # "[Question] ...", "Need help: ...": the tag tells the post's kind
    if not body.strip() or len(head.split()) > TITLE_WORDS or spec_line(head, wrapping):
        return frozenset()
    _, tokens = matcher.analyzer.tokens(head, lang, c=caches)
    return frozenset(implied({h.concept for h in matcher.lexicon.spot(tokens, lang, caches)}, matcher.implies))
