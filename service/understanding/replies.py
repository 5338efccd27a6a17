"""A reply that opens by quoting what it answers (engine layer): the quote's text, and the question it asks back.

A reply quotes a suggestion ("> turn GC on") or a question ("> When did it OOM?"). The suggestion is dropped from the
reply's prose (`wrapped.unwrap`), its switch the referent of the reply's own state words (`answered_quote`); the
question is kept as the context a short answer stands in ("during the samples. GC on"), and states nothing itself
(`asked_back`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .sentences import Reading


ANSWER_WORDS = 30  # words of a reply at most that answer the question it quotes ("non, coupé. OOM au step 2")


def opening_line(lines: list[str]) -> int:
    """The index of the first line that is no quote (">") and not blank: where a reply's own words start after the
    quote it opens with (0 when it opens with none, or holds nothing but the quote)."""
    return next((i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith(">")), 0)


def asks_back(quote: list[str], reply: list[str]) -> bool:
    """The quote a reply opens with asks a question ("> When did it OOM?", "> Is gradient_checkpointing: true set?"),
    and the reply is a short answer to it (`ANSWER_WORDS`): the question is the context the answer stands in ("during
    the samples. GC on"). A longer reply tells its own story."""
    last = next((line.strip() for line in reversed(quote) if line.strip().lstrip(">").strip()), "")
    return last.endswith(("?", "\uff1f")) and sum(len(line.split()) for line in reply) <= ANSWER_WORDS


def asked_back(reading: Reading, text: str) -> frozenset[int]:
    """The positions of the tokens of the question a reply opens by quoting, kept in its prose (`asks_back`: "> When
    did it OOM?\\nduring the samples"): the leading sentences that ask, when the text opens with such a quote."""
    if not text.lstrip().startswith(">"):
        return frozenset()
    lines = text.strip().split("\n")
    opening = opening_line(lines)
    if opening == 0 or not asks_back(lines[:opening], lines[opening:]):
        return frozenset()
    asking: set[int] = set()
    for sentence in reading.sentences:
        if not sentence.marked:
            break
        asking.update(range(sentence.start, sentence.end))
    return frozenset(asking)


def answered_quote(text: str) -> str:
    """The quote a reply opens with, its ">" marks taken off ("> turn GC on\\n\\nit's been on from the start" is "turn
    GC on"); empty when the text opens with no quote, or nothing follows it.

    >>> answered_quote("> turn GC on\\n\\nit's on already"), answered_quote("it's on already"), answered_quote("> x")
    ('turn GC on', '', '')
    """
    lines = text.strip().split("\n")
    opening = opening_line(lines)
    return "\n".join(line.lstrip().lstrip(">").strip() for line in lines[:opening]).strip()
