"""Where a text's sentences end (engine layer): full stops, question and exclamation marks and line ends, a Korean
sentence ending, and the chat line a message goes on from. `sentences.read_sentences` reads what each one tells."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from .normalize import is_hangul
from .pasted import setting_line
from .sentence_reader import SentenceReader

# Where a sentence ends: question or exclamation marks, a full stop before a space or the end, or a line end (a dot
# inside a word, as in `wan2.1` or `1.5`, ends nothing). Ends are found, not sentences matched: a pattern that
# matches a whole sentence keeps a backtracking stack as long as the sentence (a 20,000-character query).
_END = re.compile(r"[?\uff1f!]+|\.(?=\s|$)|\n")
_HANGUL = re.compile("[\uac00-\ud7a3]")
_MARKS = "~!.,ㅋㅎㅠㅜ^"  # what a Korean word's ending is read through (`죽어요ㅠㅠ`, `터짐!!`)


def split_sentences(text: str, reader: SentenceReader | None = None) -> Iterator[str]:
    """A text's sentences, one by one (ended as `_END` says); a Hangul sentence is also closed by a word with a
    sentence ending (`들었어요 ㅋㅋ wan 2.1로 ...`: Korean posts often have no full stops).

    >>> list(split_sentences("GC is off. Why does it OOM at step 2?\\nthanks"))
    ['GC is off.', ' Why does it OOM at step 2?', 'thanks']
    """
    endings = reader.endings if reader else ()
    for sentence in _pieces(text, endings):
        if not sentence.strip():
            continue
        if endings and _HANGUL.search(sentence) is not None:
            yield from _korean_sentences(sentence, endings)
        else:
            yield sentence


def _pieces(text: str, endings: tuple[str, ...] = ()) -> Iterable[str]:
    start = 0
    for m in _END.finditer(text):
        if m.group() == "\n" and _runs_on(text, start, m.end(), endings):
            continue
        yield text[start : m.end()]
        start = m.end()
    if start < len(text):
        yield text[start:]


# A chat line a message goes on from: a short fragment with no end of its own, the next line short too and starting
# in lower case ("wan 2.2 lora keeps dying\nlike step 3\n4090, gc off"; a title over a long body stays apart); in
# Korean, a short next line that tells where or when ("완 로라 계속 죽어요\n3스텝쯤에서"): one message typed over
# lines, read as one sentence.
_FRAGMENT_WORDS = 8
_KOREAN_TAIL_WORDS = 3
# A Korean afterthought: a place or a time told after its sentence, the predicate left out (`2스텝에서요`)
_AFTERTHOUGHTS = ("에서요", "때요", "쯤요", "쯤에요", "쯤이요", "정도요", "중에요")
_KOREAN_TAILS = (*_AFTERTHOUGHTS, "에서", "때", "쯤", "쯤에", "정도", "중에", "부터", "까지")  # a line of one of these


def _runs_on(text: str, start: int, end: int, endings: tuple[str, ...]) -> bool:
    """The line that ends at `end` (a line break) is a fragment the next line goes on."""
    line = text[start : end - 1].strip()
    if not line or len(line.split()) > _FRAGMENT_WORDS:
        return False
    stop = text.find("\n", end)
    nxt = text[end:] if stop < 0 else text[end:stop]
    if text[end : end + 1].islower():  # (a short line before a long one is a title over its body: apart)
        joins = line[-1].isalnum() and not line.isupper() and len(nxt.split()) <= _FRAGMENT_WORDS  # ("SOLVED\n...")
    elif endings and _HANGUL.search(nxt) is not None:
        words = nxt.split()
        joins = len(words) <= _KOREAN_TAIL_WORDS and words[-1].rstrip(_MARKS).endswith(_KOREAN_TAILS)
    else:
        return False
    # a pasted command line or config line is no chat line (`python train.py --sample_every 250`)
    return joins and not setting_line(nxt) and not setting_line(line)


def _korean_sentences(sentence: str, endings: tuple[str, ...]) -> list[str]:
    pieces: list[str] = []
    current: list[str] = []
    for word in sentence.split(" "):
        current.append(word)
        bare = word.rstrip(_MARKS)
        if is_hangul(bare[-1:]) and bare.endswith(endings):
            if pieces and len(current) <= _KOREAN_TAIL_WORDS and bare.endswith(_AFTERTHOUGHTS):
                pieces[-1] += " " + " ".join(current)  # "잡이 실패했어요 2스텝에서요": where it failed, said after
            else:
                pieces.append(" ".join(current))
            current = []
    tail = " ".join(current)
    short = len(tail.split()) <= _KOREAN_TAIL_WORDS
    if pieces and tail.strip() and short and ("\n" in tail or tail.rstrip(_MARKS + " ").endswith(_AFTERTHOUGHTS)):
        pieces[-1] += " " + tail  # a chat line that goes on from the sentence before it (`_runs_on`)
    elif tail.strip():
        pieces.append(tail)
    return pieces
