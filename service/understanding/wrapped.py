"""How real posts are wrapped (engine layer): the lines around what a user tells that tell nothing of it.

A post comes in an issue template ("### Describe the bug", "### Expected behavior", "### System Info"), quotes an
earlier reply ("> try a smaller batch"), fences its log in ``` lines and lists the machine ("RTX 3090 24GB, 64GB RAM,
Windows 11", "- RAM: 32GB"). `unwrap` drops the template's headings, the section that tells what should happen, the
fence lines and the quoted lines (another person's words; kept when the whole post is quoted); `spec_line` tells an
environment line, whose memory words are the machine's spec, not the failure (`quiet_lines.machine_specs`);
`routine_lines` tells the lines of a template's routine sections (its reproduction steps, its environment), whose
training is the form's, no subject of the post (`quiet_lines.template_routine`).

The headings and the keys of an environment line are data: `knowledge/text/<lang>/profile.yaml` `sentences`
(`headings`, `expected_headings`, `routine_headings`, `spec_keys`), compiled once for every language
(`compile_wrapping`): the text's language is not known yet when its lines are sorted, and a template's headings are
often in English whatever the user writes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from ..content.sentence_models import SentenceMarkers
from .normalize import normalize, split_tokens
from .replies import asks_back, opening_line

_BULLET = re.compile(r"^\s*(?:[-*\u2022+]|\d{1,2}[.)])\s+")
# An ordered list's number ("1. Start the job with my config"): no figure of the run ("step 1").
_NUMBERED = re.compile(r"^(\s*)\d{1,2}[.)]\s+(?=\D)")
_FENCE = re.compile(r"^\s*(?:```|~~~)[\w+-]*\s*$")
# The parts of a listing line: commas, semicolons, bars, a slash or a dash between spaces.
# (Possessive `\s*+` / `\s++`: giving a space back never lets a separator match, and a bar's run of spaces was tried
# again from each of its spaces, ~15 us on a progress bar's line.)
_PARTS = re.compile(r"\s*+[,;|]\s*|\s++[/\u2013\u2014-]\s+")
_SEPARATORS = (",", ";", "|", "/", "-", "\u2013", "\u2014")  # what `_PARTS` splits at: a line holding none is one part
# What names the machine in a listing: a memory size, a card, a system, the software's versions.
_MACHINE = re.compile(
    r"\d(?:\.\d+)?\s?(?:gb|gib|tb|go)\b|\d\s?g\b|\d\s?기가|\b(?:rtx|gtx|rx|radeon|geforce|quadro|tesla|a100|h100|a6000"
    r"|windows|win1[01]|ubuntu|linux|macos|wsl2?|debian|fedora|python|torch|pytorch|cuda|cu1\d\d|driver|ddr[45])\b"
)
MAX_HEADING = 80  # characters: a longer line is no heading
MAX_SPEC = 160  # characters: a longer line is prose, whatever it lists
MAX_REPORT = 160  # characters of a line that introduces a quote ("Sur le Discord quelqu'un m'a répondu :")
PART_WORDS = 5  # words of one part of a listing line at most
SALUTED = 1  # words a salutation line may hold past the salutation ("Hi guys", "Thanks Mark")


@dataclass(frozen=True, slots=True)
class Wrapping:
    """The headings and environment keys of every language, normalized (index layer; read-only)."""

    headings: frozenset[str]
    expected: frozenset[str]  # the headings whose section tells what should happen
    spec_keys: frozenset[str]
    salutations: frozenset[str] = frozenset()
    updates: frozenset[str] = frozenset()  # what opens an update line ("edit", "update", "수정")
    routine: frozenset[str] = frozenset()  # the headings of the form's routine: reproduction steps, environment
    tags: Mapping[str, str] = field(default_factory=dict)  # a title's tag -> its kind: HELP, SOLVED or QUESTION
    agrees: frozenset[str] = frozenset()  # what makes a quoted problem the reply's own ("same here", "same issue")
    reports: frozenset[str] = frozenset()  # what introduces another's words quoted under it ("a friend told me:")


def compile_wrapping(markers: Iterable[SentenceMarkers]) -> Wrapping:
    headings: set[str] = set()
    expected: set[str] = set()
    keys: set[str] = set()
    salutations: set[str] = set()
    updates: set[str] = set()
    routine: set[str] = set()
    tags: dict[str, str] = {}
    agrees: set[str] = set()
    reports: set[str] = set()
    for m in markers:  # (an iterable: read once)
        for kind, words in ((HELP, m.help_titles), (SOLVED, m.solved_titles), (QUESTION, m.question_titles)):
            tags.update((_key(w), kind) for w in words)
        agrees.update(_key(a) for a in m.agrees)
        reports.update(_key(r) for r in m.reports)
        routine.update(_key(h) for h in m.routine_headings)
        updates.update(_key(k) for k in m.updates)
        headings.update(_key(h) for h in m.headings)
        expected.update(_key(h) for h in m.expected_headings)
        keys.update(_key(k) for k in m.spec_keys)
        salutations.update(_key(k) for k in m.salutations)
    return Wrapping(frozenset(headings), frozenset(expected), frozenset(keys), frozenset(salutations),
                    frozenset(updates), frozenset(routine), tags, frozenset(agrees), frozenset(reports))


NO_WRAPPING = Wrapping(frozenset(), frozenset(), frozenset())
HELP, SOLVED, QUESTION = "help-title", "solved-title", "question-title"  # the kinds of a title's tag
MAX_TAG = 48  # characters of a line that is a tag alone at most ("Need help!!", "도움 부탁드립니다")
# A title's tag: bracketed at its start or its end ("[Solved] OOM at step 3", "OOM at step 3 (solved)"), or a few
# words before a colon at its start ("Help: ...", "Résolu : ...").
# (Possessive: giving back a space or a tag's letter never lets a bracket match, and on "Traceback (most recent call
# last):" the tag was shortened letter by letter from each bracket.)
_BRACKETED = re.compile(r"^\s*+[\[(\u3010]([^\])\u3011]{1,40}+)[\])\u3011]\s*"
                        r"|\s*+[\[(\u3010]([^\])\u3011]{1,40}+)[\])\u3011]\s*+$")
_COLON = re.compile(r"^\s*([^:\uff1a]{1,30}?)\s*[:\uff1a]\s+")
_TAG_MARKS = ((_BRACKETED, "[(\u3010"), (_COLON, ":\uff1a"))  # each pattern, tried only on a line holding its marks


def _key(text: str) -> str:
    """A line's words, normalized, without its markup ("### Describe the bug" -> "describe the bug")."""
    return _short_key(text) if len(text) <= MAX_HEADING else " ".join(split_tokens(normalize(text)))


@lru_cache(maxsize=4096)
def _short_key(text: str) -> str:
    """`_key` of a line short enough to be a heading, remembered: `unwrap` and `routine_lines` read each line of a
    text for a heading, a greeting and a routine line (80 characters a line at most: ~1 MB when full)."""
    return " ".join(split_tokens(normalize(text)))


def _heading(line: str, wrapping: Wrapping) -> str | None:
    """`expected`, `routine`, `heading` or None: a line of its own that is one of the headings."""
    stripped = line.strip()
    if not stripped or len(stripped) > MAX_HEADING:
        return None
    key = _key(stripped)
    if key in wrapping.expected or key in wrapping.routine:
        return "expected" if key in wrapping.expected else "routine"
    return "heading" if key in wrapping.headings else None


def _salutation(line: str, wrapping: Wrapping) -> bool:
    """A greeting, a thank-you or a sign-off, alone on its line or with a word more ("Hi everyone,", "Hi guys")."""
    if len(line) > MAX_HEADING:
        return False
    words = _key(line).split()
    for n in range(len(words), max(0, len(words) - SALUTED) - 1, -1):  # a loop, not any(): this runs for every line
        if n and " ".join(words[:n]) in wrapping.salutations:
            return True
    return False


def _helpless(line: str, wrapping: Wrapping) -> bool:
    """A line that only asks for help ("Need help", "Help pls!", "[Help]"): it tells nothing of the post. (A tag alone
    holds `MAX_TAG` characters but spaces at most, whichever way `title_tag` finds it: a longer line is not read.)"""
    if not wrapping.tags or (len(line) > MAX_TAG and (len("".join(line[:4 * MAX_TAG].split())) > MAX_TAG
                                                      or len("".join(line.split())) > MAX_TAG)):
        return False  # (its start is counted first: a log's line of 600 characters is past the bound in its first 200)
    return line.strip() != "" and title_tag(line, wrapping)[::2] == (HELP, "")


def _agrees(line: str, wrapping: Wrapping) -> bool:
    """The reply's first line says the quoted problem is its own too ("I had the same issues. Not sure why.")."""
    return bool(wrapping.agrees) and _says(line[:MAX_HEADING], wrapping.agrees, 5)


def _says(line: str, phrases: frozenset[str], longest: int) -> bool:
    """Whether the line holds one of `phrases` (normalized, `longest` words at most) as a run of its words."""
    words = _key(line).split()
    return any(" ".join(words[i:i + n]) in phrases for n in range(1, longest + 1) for i in range(len(words) - n + 1))


def _reported(lines: list[str], wrapping: Wrapping, pasted: Callable[[str], bool]) -> list[bool]:
    """The quoted lines (">") under a line that introduces another person's words and ends with a colon ("A friend
    told me:", "En Reddit uno puso:", `누가 이렇게 말했어요:`; `reports`): theirs, not the user's. A log's line quoted
    there stays (`pasted`: "the console said:\n> CUDA out of memory" is the run's)."""
    out = [False] * len(lines)
    intro = False  # the last line that is no quote introduced another's words
    for i, line in enumerate(lines):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith(">"):
            out[i] = intro and not pasted(line)
            continue
        intro = stripped.endswith(":") and len(stripped) <= MAX_REPORT and _says(stripped, wrapping.reports, 4)
    return out


def _signed(lines: list[str], i: int) -> bool:
    """Lines from `i` on are a name under a sign-off: a line or two of a few words, no figure."""
    rest = [line for line in lines[i:] if line.strip()]
    return len(rest) <= 2 and all(len(line.split()) <= 3 and not any(c.isdigit() for c in line) for line in rest)


def unwrap(text: str, wrapping: Wrapping, pasted: Callable[[str], bool] = lambda line: False) -> str:
    """The text without its template's headings, the section under an expected-behaviour heading (up to the next
    heading or blank line), its fence lines, the quote a reply opens with (unless nothing follows it, or the reply's
    first line says the problem is its own too: "same here"; a log's line quoted stays: `pasted`), an ordered list's
    numbers, its greeting
    and thank-you lines, a line that only asks for help ("Need help") and the name under a sign-off.

    >>> w = Wrapping(frozenset({"describe the bug", "logs"}), frozenset({"expected behavior"}), frozenset())
    >>> unwrap("### Describe the bug\\nOOM at step 2\\n### Expected behavior\\nIt should train.\\n\\n### Logs\\n```\\n"
    ...        "CUDA out of memory\\n```", w)
    'OOM at step 2\\n\\nCUDA out of memory'
    >>> unwrap("> try batch 1\\nstill OOM", w), unwrap("> OOM at step 2", w)
    ('still OOM', '> OOM at step 2')
    """
    if "\n" not in text.strip():
        return text
    lines = text.split("\n")
    # A reply opens by quoting what it answers; a quote under the user's own words, or of a log's line (`pasted`),
    # is what they paste ("I get this:\n> CUDA out of memory"), kept.
    opening = opening_line(lines)
    quoted = [i < opening and not pasted(line) for i, line in enumerate(lines)]
    reported = _reported(lines, wrapping, pasted) if wrapping.reports and ">" in text else [False] * len(lines)
    keep_quotes = not any(any(c.isalpha() for c in line) for line in lines[opening:]) or (
        0 < opening < len(lines) and (_agrees(lines[opening], wrapping) or asks_back(lines[:opening], lines[opening:])))
    out: list[str] = []
    expected = told = False
    asking: list[int] | None = None  # the lines kept under a question's heading ("### Question"), while in one
    for i, (line, q) in enumerate(zip(lines, quoted, strict=True)):
        if (wrapping.salutations and _salutation(line, wrapping)) or _helpless(line, wrapping):
            if out and _signed(lines, i + 1):
                break
            continue
        kind = _heading(line, wrapping)
        if kind is not None:
            _asks(out, asking)
            expected, told = kind == "expected", False
            asking = [] if wrapping.tags.get(_key(line)) == QUESTION else None
            continue
        if expected:
            if line.strip():
                told = True
                continue
            if told:
                expected = False
        if (q and not keep_quotes) or reported[i] or _FENCE.match(line) is not None:
            continue
        if asking and not line.strip():  # a blank line closes the question's section
            _asks(out, asking)
            asking = None
        elif asking is not None and line.strip():
            asking.append(len(out))
        out.append(_unnumbered(line))
    _asks(out, asking)
    return "\n".join(out)


def _unnumbered(line: str) -> str:
    """The line without an ordered list's number (`_NUMBERED.sub(r"\\1", line, count=1)`: a match, else the line)."""
    m = _NUMBERED.match(line)
    return line if m is None else m.group(1) + line[m.end():]


def _asks(out: list[str], asking: list[int] | None) -> None:
    """A question's section (its lines in `out`) asks: with no question mark in it, its last line gets one
    ("### Question\nwhich batch size fits 24GB" is a question however it is typed)."""
    if asking and not any("?" in out[k] or "\uff1f" in out[k] for k in asking):
        out[asking[-1]] = out[asking[-1]].rstrip(" .!") + "?"


def spec_line(text: str, wrapping: Wrapping) -> bool:
    """An environment line: a key of the machine and its value ("- RAM: 32GB", "OS: Windows 11"), or a listing of
    short parts with figures, two of them naming the machine ("RTX 3090 24GB, 64GB RAM, Windows 11").

    >>> w = Wrapping(frozenset(), frozenset(), frozenset({"ram", "gpu", "setup"}))
    >>> spec_line("- RAM: 32GB", w), spec_line("RTX 3090 24GB, 64GB RAM, Windows 11.", w)
    (True, True)
    >>> spec_line("batch 4, 1024px, 2000 steps", w), spec_line("it OOMs with 24GB, no idea why", w)
    (False, False)
    """
    line = text.strip()
    bullet = _BULLET.match(line)  # (one at the start at most: a match, not a `sub`)
    line = (line[bullet.end():] if bullet is not None else line).strip("*_ .")
    if not line or len(line) > MAX_SPEC:
        return False
    key, sep, value = line.partition(":")
    if sep and value.strip() and _key(key) in wrapping.spec_keys:
        return True
    if not any(map(str.isdigit, line)) or not any(map(line.__contains__, _SEPARATORS)):
        return False  # no part holds a figure, or one part only (`_PARTS` tried at every position costs ~2 us a line)
    parts = [p for p in _PARTS.split(line) if p.strip()]
    if len(parts) < 2 or not all(len(p.split()) <= PART_WORDS and any(c.isdigit() for c in p) for p in parts):
        return False
    named = 0
    for part in parts:  # (two are enough: a loop, not a `sum` over every part)
        if _MACHINE.search(part.lower()) is not None:
            named += 1
            if named == 2:
                return True
    return False


def routine_lines(text: str, wrapping: Wrapping) -> frozenset[str]:
    """The lines of a template's routine sections (under a `routine` heading: the reproduction steps, the environment;
    up to the next heading or a blank line after its lines), normalized without their numbers: "1. Start the job with
    my config", "- Trainer: ai-toolkit"; a line the post also tells outside them is the user's.

    >>> w = Wrapping(frozenset({"describe the bug"}), frozenset(), frozenset(), routine=frozenset({"reproduction"}))
    >>> sorted(routine_lines("### Describe the bug\\nslow\\n### Reproduction\\n1. Start the job\\n2. Wait\\n\\nok", w))
    ['start the job', 'wait']
    """
    if not wrapping.routine or "\n" not in text.strip():
        return frozenset()
    lines = text.split("\n")
    kinds = [_heading(line, wrapping) for line in lines]
    if "routine" not in kinds:
        return frozenset()  # no routine section: no line is in one
    out: set[str] = set()
    told: set[str] = set()  # the lines outside the routine: a line told there too is the user's ("slow" twice)
    within = False
    for line, kind in zip(lines, kinds, strict=True):
        if kind is not None:
            within = kind == "routine"
            continue
        key = _key(_unnumbered(line))
        if within and key:
            out.add(key)
        elif within and out:
            within = False
        else:
            told.add(key)
    return frozenset(out - told - {""})


def in_routine(text: str, routine: frozenset[str]) -> bool:
    """A sentence that is a routine line of the template (`routine_lines`), or part of one."""
    key = _key(text)
    return bool(key) and any(key in line for line in routine)


UPDATE_HEAD = 24  # characters before the colon of an update line's opener at most ("EDIT 2:", "Nachtrag:")


def update_line(text: str, wrapping: Wrapping) -> bool:
    """An update of the post, opened by its word and a colon ("EDIT: still happens", "Update 2: same", "수정: 아직도").

    >>> w = Wrapping(frozenset(), frozenset(), frozenset(), updates=frozenset({"edit", "update"}))
    >>> update_line("EDIT: still happens", w), update_line("Update 2: same thing", w), update_line("edit the config", w)
    (True, True, False)
    """
    head, sep, _ = text.strip().lstrip("*_").partition(":")
    if not sep or len(head) > UPDATE_HEAD:
        return False
    words = _key(head).split()
    return bool(words) and " ".join(w for w in words if not w.isdigit()) in wrapping.updates


def title_tag(line: str, wrapping: Wrapping) -> tuple[str, str, str]:
    """The kind of a title's tag (`HELP`, `SOLVED`, `QUESTION`, or "" for none), the tag's words and the line without
    it: the whole line ("Need help", "Help pls!"), a bracketed tag at its start or end ("[Solved] OOM at step 3",
    "OOM (resolvido)") or a few words before a colon ("Ayuda: ...").

    >>> w = Wrapping(frozenset(), frozenset(), frozenset(), tags={"need help": HELP, "solved": SOLVED})
    >>> title_tag("Need help!!", w), title_tag("[SOLVED] OOM at step 3", w), title_tag("OOM at step 3", w)
    (('help-title', 'Need help!!', ''), ('solved-title', 'SOLVED', 'OOM at step 3'), ('', '', 'OOM at step 3'))
    """
    if not wrapping.tags or len(line) > MAX_SPEC:
        return "", "", line
    kinds = wrapping.tags
    whole = kinds.get(_key(line)) if len(line) <= MAX_TAG else None
    if whole is not None:
        return whole, line.strip(), ""
    for pattern, marks in _TAG_MARKS:
        m = pattern.search(line) if any(map(line.__contains__, marks)) and (
            pattern is not _BRACKETED or _bracket_ends(line)) else None
        if m is not None:
            tag = next((g for g in m.groups() if g), "")
            kind = kinds.get(_key(tag))
            if kind is not None:
                return kind, tag.strip(), (line[: m.start()] + " " + line[m.end():]).strip()
    return "", "", line


def _bracket_ends(line: str) -> bool:
    """The line opens or closes with a bracket (past its spaces): only then can `_BRACKETED` match in it (a bracket
    inside it, "Traceback (most recent call last):", is no tag)."""
    return line.lstrip()[:1] in "[(\u3010" or line.rstrip()[-1:] in "])\u3011"


def title_parts(line: str, wrapping: Wrapping) -> tuple[str, tuple[str, ...]]:
    """A post's first line as the sentences to read, with its tag's kind (`title_tag`): a help or question tag is
    no words of the post; a solved tag is a sentence of its own before the title ("Solved", as when it heads a post
    alone), so the title after it is the second.

    >>> w = Wrapping(frozenset(), frozenset(), frozenset(), tags={"help": HELP, "solved": SOLVED})
    >>> title_parts("Help: OOM at step 3", w), title_parts("[Solved] OOM at step 3", w), title_parts("Help", w)
    (('help-title', ('OOM at step 3',)), ('solved-title', ('Solved', 'OOM at step 3')), ('help-title', ()))
    """
    kind, tag, rest = title_tag(line, wrapping)
    if kind == SOLVED:
        return kind, tuple(t for t in (tag, rest) if t.strip())
    return kind, (rest,) if rest.strip() else ()
