"""Free text -> concepts, stated context, log facts, and ranked targets with an honest outcome.

`build_matcher` compiles the content once (index layer); `understand` and `rank` are pure functions of the
matcher and the text (engine layer): same text, same knowledge, same answer.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from ..content.models import Avoided, Content, Intent
from .analysis import Analyzer, Bounded, Token, normalize, split_tokens
from .extract import BUCKET_SIZES, Stated, stated_context
from .lexicon import Aliases, Hit, Lexicon
from .logs import LogReading, looks_like_log, read_log

MAX_QUERY_TOKENS = 160
MAX_PROSE_LINES = 8
# Lines of a pasted log (progress bars, tracebacks, figures): `logs.read_log` reads them, the matcher
# reads the user's own words around them. Plain words are looked up with `in` (a regex alternation that does
# not start with one literal is tried at every position of a long line); the regex sees only the others.
_LOG_WORDS = ("%|", "traceback", 'file "', "error", "exception", "torch.", "cuda")
_LOG_SHAPE = re.compile(r"\|.*\||^\s+at |\b[gmk]i?b\b|^\s*[#\[]|\d\d:\d\d|\bline \d")
SIMILARITY_WEIGHT = 2.5
WORD_CACHE_SIZE = 20_000
RANK_CACHE_SIZE = 4_096
DENSE_TARGETS = 128  # up to this many targets similarity sums into a list (cheaper); a dict past it (sparse)


@dataclass(frozen=True, slots=True)
class Target:
    id: str
    intent: Intent
    require: frozenset[str]
    groups: tuple[frozenset[str], ...]
    forbid: frozenset[str]
    weights: tuple[tuple[str, float], ...]

    @classmethod
    def of(cls, tid: str, intent: Intent) -> Target:
        return cls(tid, intent, frozenset(intent.require), tuple(frozenset(g) for g in intent.require_any),
                   frozenset(intent.forbid), tuple(intent.weights.items()))


class Scored(NamedTuple):  # a tuple: made for every candidate of every query, so cheap to create
    id: str
    kind: str
    score: float


@dataclass(frozen=True, slots=True)
class Understanding:
    """What a text says: concepts, stated facts, log reading, and every candidate target, best first."""

    lang: str | None
    concepts: frozenset[str]
    features: frozenset[str]
    stated: Stated
    family: str | None
    phase: str | None
    log: LogReading
    arch: str | None  # `model.arch` of a config fragment pasted in the text (`arch: "wan22_14b"`)
    in_domain: bool
    ranked: tuple[Scored, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class Matcher:
    analyzer: Analyzer
    lexicon: Lexicon
    aliases: Aliases
    targets: tuple[Target, ...]
    implies: tuple[tuple[frozenset[str], str], ...]
    domain: frozenset[str]
    outside: tuple[tuple[frozenset[str], frozenset[str]], ...]  # (any of these, unless one of these)
    outside_subjects: frozenset[str]  # the concepts of every `any` above
    avoided: tuple[Avoided, ...]
    gc_flags: frozenset[str]  # GC's names as a command-line flag would spell them (`gradient_checkpointing`)
    postings: dict[tuple[int, str], tuple[tuple[int, float], ...]]
    default_idf: float
    weights_by_name: dict[str, tuple[tuple[int, float], ...]]
    open_targets: tuple[int, ...]  # targets with no requirement: candidates for every in-domain query
    requirers: dict[str, tuple[int, ...]]  # name -> targets that require it
    # word -> (its weight, the targets whose texts hold it): bounded, cleared when full.
    word_cache: Bounded = field(default_factory=lambda: Bounded(WORD_CACHE_SIZE))
    # names present -> the targets they make candidates (a target's similarity only adds to its score): bounded.
    rank_cache: Bounded = field(default_factory=lambda: Bounded(RANK_CACHE_SIZE))


def build_matcher(content: Content) -> Matcher:
    """Compile vocabularies, aliases, intents and the targets' own texts into lookup tables."""
    texts = content.texts
    known: dict[str, set[str]] = {}
    korean: set[str] = set()
    for lang, text in texts.items():
        words = known.setdefault(lang, set())
        for phrase in _all_text(text):
            words.update(split_tokens(normalize(phrase)))
        words.update(normalize(w) for w in text.vocabulary.numbers)
    for phrases in texts["ko"].vocabulary.concepts.values() if "ko" in texts else ():
        for phrase in phrases:
            korean.update(t for t in split_tokens(normalize(phrase)) if not t.isascii())
    vocab_words = {lang: {w for ps in t.vocabulary.concepts.values() for p in ps for w in split_tokens(normalize(p))}
                   for lang, t in texts.items()}
    analyzer = Analyzer(
        known_words=known,
        korean_words=korean,
        number_words={lang: {normalize(k): v for k, v in t.vocabulary.numbers.items()} for lang, t in texts.items()},
        fuzzy_words=vocab_words,
        names={w for f in content.families for alias in f.aliases for w in split_tokens(normalize(alias))},
    )
    lexicon = Lexicon(analyzer, {lang: t.vocabulary.concepts for lang, t in texts.items()})
    aliases = Aliases({f.id: f.aliases for f in content.families})
    targets = tuple(Target.of(tid, intent) for tid, intent in content.intents.targets.items())
    postings, default_idf = _postings(analyzer, content, targets)
    by_name: dict[str, list[tuple[int, float]]] = {}
    for i, target in enumerate(targets):
        for name, weight in target.weights:
            by_name.setdefault(name, []).append((i, weight))
    return Matcher(
        analyzer=analyzer,
        lexicon=lexicon,
        aliases=aliases,
        targets=targets,
        implies=tuple((frozenset(i.all), i.then) for i in content.intents.implies),
        domain=frozenset(content.intents.domain),
        outside=tuple((frozenset(o.any), frozenset(o.unless)) for o in content.intents.outside),
        outside_subjects=frozenset(c for o in content.intents.outside for c in o.any),
        avoided=content.intents.avoided,
        gc_flags=frozenset(_flag_spelling(p) for t in texts.values() for p in t.vocabulary.concepts.get("gc", ())
                           if len(_flag_spelling(p).split("_")) > 1),
        postings=postings,
        default_idf=default_idf,
        weights_by_name={k: tuple(v) for k, v in by_name.items()},
        open_targets=tuple(i for i, t in enumerate(targets) if not (t.require or t.groups)),
        requirers=_requirers(targets),
    )


def _requirers(targets: tuple[Target, ...]) -> dict[str, tuple[int, ...]]:
    out: dict[str, list[int]] = {}
    for i, target in enumerate(targets):
        for name in target.require.union(*target.groups):
            out.setdefault(name, []).append(i)
    return {k: tuple(v) for k, v in out.items()}


def _all_text(text: Any) -> Iterable[str]:
    """Every string in a language's content (to know which words belong to which language)."""
    stack: list[Any] = [text.model_dump()]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            yield node
        elif isinstance(node, dict):
            stack.extend(node.values())
            stack.extend(k for k in node if isinstance(k, str) and not k.isascii())
        elif isinstance(node, list | tuple):
            stack.extend(node)


def _target_texts(content: Content, tid: str, kind: str) -> Iterable[tuple[str, str]]:
    """(lang, text) pairs that describe a target: its title in every language and its phrasings."""
    for lang, text in content.texts.items():
        if kind == "symptom" and tid in text.symptoms:
            yield lang, text.symptoms[tid].title
        elif kind == "faq":
            question = text.faq.get(tid, {}).get("question")
            if isinstance(question, str):
                yield lang, question
        elif kind == "step" and tid in text.steps:
            yield lang, text.steps[tid].title
        else:
            for guide in text.guides.values():
                title = guide.sections.get(tid, {}).get("title")
                if isinstance(title, str):
                    yield lang, title
        for phrase in text.vocabulary.phrasings.get(tid, ()):
            yield lang, phrase


def _postings(
    analyzer: Analyzer, content: Content, targets: tuple[Target, ...]
) -> tuple[dict[tuple[int, str], tuple[tuple[int, float], ...]], float]:
    """Inverted index (stream, form) -> targets, weighted by inverse target frequency."""
    docs: list[set[tuple[int, str]]] = []
    for target in targets:
        terms: set[tuple[int, str]] = set()
        for lang, phrase in _target_texts(content, target.id, target.intent.kind):
            stream = analyzer.stream_of(lang)
            for tok in analyzer.tokens(phrase, lang, fix_typos=False)[1]:
                if tok.number is None:
                    terms.add((stream, tok.forms[stream]))
        docs.append(terms)
    df: dict[tuple[int, str], int] = {}
    for terms in docs:
        for term in terms:
            df[term] = df.get(term, 0) + 1
    n = len(docs)
    idf = {term: math.log(1 + n / count) for term, count in df.items()}
    postings: dict[tuple[int, str], list[tuple[int, float]]] = {}
    for i, terms in enumerate(docs):
        for term in terms:
            postings.setdefault(term, []).append((i, idf[term]))
    return {k: tuple(v) for k, v in postings.items()}, math.log(1 + n)


# --- understanding ---------------------------------------------------------------------------------


def understand(matcher: Matcher, text: str, hint: str | None = None) -> Understanding:
    """Analyse a query or log; rank every target whose intent accepts it."""
    log = read_log(text)
    log_like = bool(log.signals) or looks_like_log(text)
    # A pasted log is mostly English whatever the user speaks: take the language from the first line.
    lead = text.strip().split("\n", 1)[0] if log_like else None
    prose = prose_of(text) if log_like else text
    lang, tokens = matcher.analyzer.tokens(prose, hint, lead=lead)
    tokens = tokens[:MAX_QUERY_TOKENS]
    hits = _unavoided(matcher.avoided, tokens, _outside_phrases(matcher, matcher.lexicon.spot(tokens, lang)))
    concepts = {h.concept for h in hits}
    for needed, then in matcher.implies:
        if needed <= concepts:
            concepts.add(then)
    # Which words are asked about matters only for what the text says of GC (`extract.gc_state`).
    asked = asked_tokens(matcher.analyzer, prose, lang, len(tokens)) if "gc" in concepts else frozenset()
    stated = stated_context(tokens, hits, log_like, asked)
    if lead is not None and "\n" in text.strip():
        # In a log, "step" appears in messages ("OOM during training step 3 times"): trust the progress
        # bars, else what the user's own first line says.
        step = log.step
        if step is None:
            _, lead_tokens = matcher.analyzer.tokens(lead, lang)
            step = stated_context(lead_tokens, matcher.lexicon.spot(lead_tokens, lang), False).step
        stated = replace(stated, step=step)
    if stated.step is None:
        stated = replace(stated, step=counter_step(prose))
    if stated.gradient_checkpointing is None:
        stated = replace(stated, gradient_checkpointing=flag_state(text, matcher.gc_flags))
    names = [t.forms[-1] if t.hangul else t.text for t in tokens]
    family, families = matcher.aliases.find(names)
    features = _features(text, stated, log, families)
    present = frozenset(concepts) | features
    # A host-RAM kill, a CUDA error that is not out-of-memory, a Python error: the guide does not apply.
    other_failure = log.not_gpu_oom is not None and not log.gpu_oom
    in_domain = (
        not other_failure
        and not present.isdisjoint(matcher.domain)
        and all(present.isdisjoint(subject) or not present.isdisjoint(unless) for subject, unless in matcher.outside)
    )
    ranked = _rank(matcher, present, _similarity(matcher, tokens)) if in_domain else ()
    return Understanding(
        lang=lang,
        concepts=frozenset(concepts),
        features=features,
        stated=stated,
        family=family,
        phase=_phase(concepts, log),
        arch=pasted_arch(text),
        log=log,
        in_domain=in_domain,
        ranked=ranked,
    )


# A sentence: up to a question or exclamation mark, a full stop before a space, or a line end (a dot inside a
# word, as in `wan2.1` or `1.5`, ends nothing).
_SENTENCE = re.compile(r"(?:[^?\uff1f!.\n]|\.(?!\s|$))*(?:[?\uff1f!]+|\.|\n|$)")


def asked_tokens(analyzer: Analyzer, text: str, lang: str | None, limit: int) -> frozenset[int]:
    """The positions (in the text's tokens) of the tokens of its sentences that end in a question mark: "GC is
    off. Why does it OOM?" asks about the OOM, not about GC. Tokens split the same sentence by sentence as
    in the whole text (a word's tokens depend on the word only)."""
    if "?" not in text and "\uff1f" not in text:
        return frozenset()
    out: list[int] = []
    start = 0
    for m in _SENTENCE.finditer(text):
        sentence = m.group(0)
        if start >= limit:
            break
        if not sentence:
            continue
        count = len(analyzer.tokens(sentence, lang)[1])
        if "?" in sentence or "\uff1f" in sentence:
            out.extend(range(start, min(start + count, limit)))
        start += count
    return frozenset(out)


# A progress counter quoted in the user's own words: "at 2 of 3000", "1/2000", "2 de 3000", "2 sur 3000".
_COUNTER = re.compile(
    r"(?<![\d.,/])(\d{1,7})\s*(?:/|\bof\b|\bde\b|\bsur\b|\bvon\b)\s*(\d{3,7})(?!\d|[.,/]\d)", re.IGNORECASE
)


def counter_step(text: str) -> int | None:
    """The step of the first progress counter in the text (a total of 100 or more; not a pair of bucket sizes).

    >>> counter_step("it crashes at 2 of 3000"), counter_step("buckets 512/768"), counter_step("batch 4")
    (2, None, None)
    """
    for m in _COUNTER.finditer(text):
        step, total = int(m.group(1)), int(m.group(2))
        if total >= 100 and step <= total and not (step in BUCKET_SIZES and total in BUCKET_SIZES):
            return step
    return None


# A config fragment pasted in the text: `arch: "wan22_14b"`, or the older `is_flux: true`.
_ARCH = re.compile(r"^[ \t]*arch[ \t]*:[ \t]*[\"']?([A-Za-z0-9_.:-]{1,60})[\"']?[ \t]*$", re.MULTILINE)
_IS_FLUX = re.compile(r"^[ \t]*is_flux[ \t]*:[ \t]*true[ \t]*$", re.MULTILINE | re.IGNORECASE)


def pasted_arch(text: str) -> str | None:
    """The model arch a pasted config fragment names, if any.

    >>> pasted_arch('model:\\n  arch: "wan22_14b"\\ntrain:'), pasted_arch("model:\\n  is_flux: true")
    ('wan22_14b', 'flux')
    >>> pasted_arch("flux") is None
    True
    """
    if "arch" in text:
        m = _ARCH.search(text)
        if m is not None:
            return m.group(1)
    if "is_flux" in text and _IS_FLUX.search(text):
        return "flux"
    return None


def _outside_phrases(matcher: Matcher, hits: list[Hit]) -> list[Hit]:
    """Hits inside a phrase of another subject say nothing of their own: in "learning rate" the word "rate"
    (French "raté", weak) is part of the name of something the guide does not cover."""
    subjects = matcher.outside_subjects
    spans = {(h.start, h.end) for h in hits if h.end - h.start > 1 and h.concept in subjects}
    if not spans:
        return hits
    return [h for h in hits if h.concept in subjects or not any(a <= h.start and h.end <= b for a, b in spans)]


def _unavoided(rules: tuple[Avoided, ...], tokens: list[Token], hits: list[Hit]) -> list[Hit]:
    """The hits without those a rule of `intents.yaml` `avoided` says are only named as something to avoid."""
    names = {h.concept for h in hits}
    for rule in rules:
        if (rule.when and names.isdisjoint(rule.when)) or rule.by not in names:
            continue
        stops = {i for h in hits if h.concept in rule.stop for i in range(h.start, h.end)}
        avoided: set[int] = set()
        for by in (h for h in hits if h.concept == rule.by):
            # What is avoided follows the word ("without OOM"); in Korean it comes before it ("OOM 없이").
            korean = tokens[by.start].hangul
            span = range(by.start - 1, by.start - 1 - rule.span, -1) if korean else range(by.end, by.end + rule.span)
            for i in span:
                if i in stops:
                    break
                avoided.add(i)
        if avoided:
            hits = [h for h in hits if h.concept not in rule.drop or h.start not in avoided]
            names = {h.concept for h in hits}
    return hits


# A command-line flag and its value, if any: `--gradient_checkpointing`, `--use_gradient_checkpointing True`.
_FLAG = re.compile(r"(?<![\w-])--([a-z][\w-]*)(?:[ \t]*=[ \t]*|[ \t]+)?(\"?)(true|false|yes|no|1|0)?\2(?=[\s\\'\"`]|$)",
                   re.IGNORECASE)
_FLAG_VALUES = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}


def _flag_spelling(phrase: str) -> str:
    return re.sub(r"[\s-]+", "_", normalize(phrase))


def flag_state(text: str, names: frozenset[str]) -> bool | None:
    """What a pasted command line sets a switch to: a bare `--flag` (or one with `True`) is on, `False` is off.

    `names` are the switch's names as flags spell them; a flag that holds one (`--use_gradient_checkpointing`)
    counts, one with a value that is no boolean (`--checkpointing_steps 500`) does not."""
    state: bool | None = None
    for m in _FLAG.finditer(text):
        name = m.group(1).lower().replace("-", "_")
        if not any(n in name for n in names):
            continue
        if m.group(3) is None and re.match(r"[ \t=]*[^\s\\-]", text[m.end():]):
            continue  # `--flag value` with a value that is no boolean
        state = True if m.group(3) is None else _FLAG_VALUES[m.group(3).lower()]
    return state


def prose_of(text: str) -> str:
    """The user's own lines of a text that holds a log (the first line always counts)."""
    lines = text.strip().splitlines()
    kept = [lines[0]] if lines else []
    kept += [line for line in lines[1:] if line.strip() and not _is_log_line(line)][: MAX_PROSE_LINES - 1]
    return "\n".join(kept)


def _is_log_line(line: str) -> bool:
    low = line.lower()
    return any(w in low for w in _LOG_WORDS) or _LOG_SHAPE.search(low) is not None


def _features(text: str, stated: Stated, log: LogReading, families: int) -> frozenset[str]:
    """The MATCH_FEATURES a text has; `families` is how many model families it names."""
    out = set()
    if stated.gradient_checkpointing is True:
        out.add("gc_on")
    elif stated.gradient_checkpointing is False:
        out.add("gc_off")
    if stated.step is not None:
        out.add("early_step" if stated.step <= 10 else "late_step")
    if log.gpu_oom:
        out.add("log_gpu_oom")
    if log.step is not None:
        out.add("log_training")
    ids = {s.id for s in log.signals}
    if "sampling" in ids and log.phase == "sampling":
        out.add("log_sampling")
        if any(s.id == "sampling" and s.data.get("baseline") for s in log.signals):
            out.add("log_baseline")
    if "other-process-vram" in ids:
        out.add("log_other_process")
    if stated.largest_named and stated.largest_named >= 1024:
        out.add("big_bucket")
    if stated.resolutions is not None and len(stated.resolutions) == 1:
        out.add("one_bucket")
    if "?" in text or "\uff1f" in text:
        out.add("question")
    if stated.on_or_off:
        out.add("on_or_off")
    if families > 1:
        out.add("two_families")
    return frozenset(out)


def _phase(concepts: set[str], log: LogReading) -> str | None:
    if log.phase:
        return log.phase
    if "oom" not in concepts and "crash_oom" not in concepts:  # a crash in a job is an inferred OOM
        return None
    for concept, phase in (("preview", "sampling"), ("phase_caching", "caching"), ("phase_loading", "loading"),
                           ("phase_saving", "saving")):
        if concept in concepts:
            return phase
    return None


def _similarity(matcher: Matcher, tokens: list[Token]) -> dict[int, float]:
    """Share of the query's (idf-weighted) words found in each target's own texts."""
    dense = len(matcher.targets) <= DENSE_TARGETS  # a list: one indexed add per posting; a dict past that
    gained: list[float] | dict[int, float] = [0.0] * len(matcher.targets) if dense else {}
    total = 0.0
    cache = matcher.word_cache
    for tok in tokens[:40]:
        if tok.number is not None:
            continue
        cached = cache.get(tok.text)
        weight, found = cached if cached is not None else _word_postings(matcher, tok)
        total += weight
        if isinstance(gained, list):
            for target, idf in found:
                gained[target] += idf
        else:
            for target, idf in found:
                gained[target] = gained.get(target, 0.0) + idf
    if not total:
        return {}
    pairs = enumerate(gained) if isinstance(gained, list) else gained.items()
    return {t: g / total for t, g in pairs if g}


def _word_postings(matcher: Matcher, tok: Token) -> tuple[float, tuple[tuple[int, float], ...]]:
    """A word's weight and the targets whose texts hold it; `_similarity` looks in the cache first."""
    terms = ((len(tok.forms) - 1, tok.forms[-1]),) if tok.hangul else set(enumerate(tok.forms))
    best: dict[int, float] = {}
    weight = 0.0
    for term in terms:
        for target, idf in matcher.postings.get(term, ()):
            weight = max(weight, idf)
            if idf > best.get(target, 0.0):
                best[target] = idf
    cached = (weight or matcher.default_idf, tuple(best.items()))
    matcher.word_cache.put(tok.text, cached)
    return cached


def _rank(matcher: Matcher, present: frozenset[str], similarity: dict[int, float]) -> tuple[Scored, ...]:
    """Score only the targets the query touches (plus those that need nothing), so the cost follows the
    query, not the size of the knowledge."""
    eligible = matcher.rank_cache.get(present)
    if eligible is None:
        eligible = _eligible(matcher, present)
        matcher.rank_cache.put(present, eligible)
    ordered = []
    for i, base, tid, kind in eligible:
        score = base + SIMILARITY_WEIGHT * similarity.get(i, 0.0)
        # Rounded so that the order of summation (set order) never decides a tie.
        ordered.append((-round(score * 10_000) / 10_000, tid, kind))
    ordered.sort()
    return tuple(Scored(tid, kind, -neg) for neg, tid, kind in ordered)


def _eligible(matcher: Matcher, present: frozenset[str]) -> tuple[tuple[int, float, str, str], ...]:
    """The targets a set of concepts and features makes candidates, with their prior plus weights. A set of
    names recurs across queries (there are few concepts), so this is computed once per set (bounded cache)."""
    scores: dict[int, float] = {}
    for name in present:
        for i, weight in matcher.weights_by_name.get(name, ()):
            scores[i] = scores.get(i, 0.0) + weight
    for i in matcher.open_targets:
        scores.setdefault(i, 0.0)
    for name in present:
        for i in matcher.requirers.get(name, ()):
            scores.setdefault(i, 0.0)
    out = []
    for i, partial in scores.items():
        target = matcher.targets[i]
        if not target.require <= present or not present.isdisjoint(target.forbid):
            continue
        if any(present.isdisjoint(group) for group in target.groups):
            continue
        out.append((i, target.intent.prior + partial, target.id, target.intent.kind))
    return tuple(out)


def outcome(best: float, second: float, confident: float, minimum: float) -> tuple[str, float]:
    """Confidence in [0, 1] from the best score and its margin over the next; the match it earns.

    >>> outcome(5.0, 3.0, 0.5, 0.25)
    ('confident', 0.714)
    >>> outcome(0.0, 0.0, 0.5, 0.25)
    ('none', 0.0)
    """
    if best <= 0:
        return "none", 0.0
    strength = best / (best + 2.0)
    margin = min(1.0, max(0.0, best - second) / 2.0)
    confidence = round(strength * (0.55 + 0.45 * margin), 3)
    if confidence >= confident:
        return "confident", confidence
    if confidence >= minimum:
        return "ambiguous", confidence
    return "none", confidence
