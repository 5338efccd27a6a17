"""A post's title line (understanding layer): the concepts of an issue's title, read apart from its body, and the
subjects such a title vetoes search with (`intents.yaml` `search_title_vetoes`, `topic_titles`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .analysis import Token
from .caches import Caches
from .gate import implied
from .lexicon import Hit
from .wrapped import spec_line, title_tag

if TYPE_CHECKING:
    from .matcher import Matcher

LineHits = tuple[list[Token], list[Hit]]
Lines = dict[str, LineHits]  # a line -> its tokens and hits, read alone

# A title line: the first line of a text of several lines, of at most this many words (an issue's title).
TITLE_WORDS = 14


def title_vetoes(matcher: Matcher, subjects: frozenset[str]) -> frozenset[str]:
    """The subjects a title line vetoes search with: not a topic the guide does not teach (`search_title_topics`)
    where the body tells an OOM as the present state (`search_title_told`), nor a feature request or a capability
    question (`search_title_asks`) where the body tells the user's own failure: an OOM lasting through their fix or
    a bad result of their run (`search_title_persisted`: "Does it support a 4090? I added --gradient_checkpointing
    but it still OOMs")."""
    vetoes = matcher.title_vetoes
    if not subjects.isdisjoint(matcher.title_told):
        vetoes = vetoes - matcher.title_topics
    if not subjects.isdisjoint(matcher.title_persisted):
        vetoes = vetoes - matcher.title_asks
    return vetoes


def line_hits(matcher: Matcher, line: str, lang: str | None, caches: Caches, read: Lines | None = None) -> LineHits:
    """The tokens and concept hits of one line read alone (a title line, a log's first line of the user's); `read`
    holds the lines of the text read so far, so a line read twice (a log's lead is often its title) is read once."""
    held = read.get(line) if read is not None else None
    if held is None:
        _, tokens = matcher.analyzer.tokens(line, lang, c=caches)
        held = (tokens, matcher.lexicon.spot(tokens, lang, caches))
        if read is not None:
            read[line] = held
    return held


def title_concepts(matcher: Matcher, prose: str, lang: str | None, caches: Caches,
                   read: Lines | None = None) -> frozenset[str]:
    """The concepts of the text's title line (and those they imply), if it has one; an environment line ("RTX 4090
    24GB, 32GB RAM") is none, and a title may follow one ("Setup: RTX 4090 24GB\nPretrained LoRA bug\n...").
    `read`: the lines of the text read alone so far (`line_hits`)."""
    head, _, body = prose.strip().partition("\n")
    wrapping = matcher.sentences.wrapping
    while body.strip() and spec_line(head, wrapping):
        head, _, body = body.strip().partition("\n")
    head = title_tag(head, wrapping)[2]  # "[Question] ...", "Need help: ...": the tag tells the post's kind
    if not body.strip() or len(head.split()) > TITLE_WORDS or spec_line(head, wrapping):
        return frozenset()
    return frozenset(implied({h.concept for h in line_hits(matcher, head, lang, caches, read)[1]}, matcher.implies))
