"""The training sizes a text states (engine layer): the sizes it names, whether one is named as the resolution, and
the bucket list they make. Used by `extract.stated_context`."""

from __future__ import annotations

import re

from .analysis import Token
from .lexicon import Hit
from .pasted import keyed

BUCKET_SIZES = frozenset({512, 640, 768, 896, 1024, 1152, 1280, 1536, 2048})
_BUCKET_REACH = 4  # a size this close to a bucket word is a bucket: "buckets 512, 768 and 1024"
_NONE: tuple[Hit, ...] = ()


def sizes_named(
    tokens: list[Token], spans: dict[str, list[Hit]], used: set[int], log_like: bool
) -> tuple[list[int], bool]:
    """The training sizes the text names, and whether one is named as the resolution ("bucket 1536", "Auflösung
    1024", "1024px", `1024 버킷`)."""
    buckets = spans.get("bucket", _NONE)
    previews = spans.get("preview", _NONE)  # "the 1024px previews": a sample size, not the training size
    sizes: list[int] = []
    after_bucket = False
    for i, tok in enumerate(tokens):
        n = tok.number if tok.number is not None or not tok.text.endswith("px") else _pixels(tok.text)
        if n is None or i in used or not (256 <= n <= 4096 and n % 64 == 0) or keyed(tokens, i, buckets):
            continue
        near_bucket = any(abs(i - b.start) <= _BUCKET_REACH for b in buckets)
        if near_bucket or (n in BUCKET_SIZES and not log_like):
            sizes.append(n)
            named = (
                not tok.text.isdigit()  # `1024px`, `1024er`
                or any(b.end <= i <= b.end + 1 or (tokens[b.start].hangul and b.start == i + 1) for b in buckets)
            )
            after_bucket = after_bucket or (named and not any(abs(i - p.start) <= 2 for p in previews))
    return sizes, after_bucket


_PIXELS = re.compile(r"^(\d{3,4})px$")


def _pixels(word: str) -> int | None:
    """A size written with its unit (`1024px`)."""
    m = _PIXELS.match(word) if word.endswith("px") else None
    return int(m.group(1)) if m else None


def bucket_list(sizes: list[int], spans: dict[str, list[Hit]], after_bucket: bool) -> tuple[int, ...] | None:
    """The bucket list the text states. One size named as one of the buckets ("the 1024 bucket", "when it
    hits the bucket of 1536", an intermittent or largest-bucket OOM, one after steps ran fine: "fine for an hour,
    then OOM, I suspect the 1536 pictures", an OOM only with it: "nur beim 1536er Bucket") is one of several, so it
    says nothing of the list; one size alone
    ("Qwen Edit 1024", "at 768") or as the resolution ("resolution 1024",
    "bucket 1536", "1024px") is the training size."""
    unique = tuple(sorted(set(sizes)))
    if len(unique) == 1 and (
        not spans.keys().isdisjoint(("largest", "intermittent", "after_a_while", "only_when"))
        or ("bucket" in spans and (not after_bucket or "when" in spans))
    ):
        return None
    return unique or None
