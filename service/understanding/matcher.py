"""Free text -> concepts, stated context, log facts, and ranked targets: the stages of understanding.

`build_matcher` compiles the content once (index layer); `understand` is a pure function of the matcher and the
text (engine layer): same text, same knowledge, same answer. What it remembers between calls is in the
`caches.Caches` the runtime passes (memo tables only). Its stages, each a module with typed inputs and outputs:

  read log (`logs.read_log`, with `prose.split_text` for the user's own words) -> sentences (`sentences`: split,
  the token budget filled by sentence, each analysed: `normalize`, `analysis.Analyzer.read`) -> spot concepts
  (`lexicon.Lexicon.spot`) -> gate the hits (`gate`: avoided; `told.told_now`: past, hypothetical, denied;
  `gate.side_remarks`; `subject`: a slowness or a bad result told of something else than the training) -> extract
  stated context (`extract.stated_context`, `prose.counter_step`, `prose.pasted_arch`) -> build features
  (`features`) -> gate (`gate`: outside, domain) -> rank (`rank`) -> outcome (`outcome`, called by the answers).
  Search ranks what the text is about alone (`gate.told_hits`, `gate.figure_units`; none under a title of another
  subject, `gate.title_veto`), and `gate.asked` reads what its questions are about (the answers give no FAQ entry or
  section to a text that tells no symptom and asks of another subject, or asks nothing).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from ..content.models import Avoided, Content
from . import tables
from .analysis import Analyzer, normalize, split_tokens
from .caches import NO_CACHE, Caches
from .extract import Stated, stated_context
from .features import features_of, input_of
from .gate import (
    Outside,
    SearchWording,
    alone,
    asked,
    figure_units,
    implied,
    in_domain,
    opening,
    outside_phrases,
    side_remarks,
    spilled,
    stated_only,
    title_veto,
    told_hits,
    unavoided,
)
from .judged import denied_effects
from .lexicon import Aliases, Hit, Lexicon
from .limits import DEFAULT_LIMITS, WorkLimits, clip_lines
from .logs import LogReading, read_log
from .outcome import outcome
from .own_run import family_named, not_own, of_this_run, theirs
from .pasted import Pasted, SettingTable, compile_settings, read_settings, unless_told_changed
from .pasted_names import setting_words
from .profiles import compile_profiles, counter_pattern, ordinal_pattern
from .prose import Parts, counter_step, pasted_arch, prose_of, split_text
from .quiet_lines import (
    machine_lines,
    machine_specs,
    quiet_routine,
    quiet_updates,
    routine_only,
    template_routine,
    updates,
)
from .rank import Scored, Target, rank, similarity
from .replies import answered_quote, asked_back
from .sentence_reader import SentenceReader, build_reader
from .sentences import Reading, read_sentences
from .spoken import as_told
from .subject import of_the_training
from .titles import Lines, line_hits, title_concepts, title_vetoes
from .told import near_the_failure, told_now
from .wrapped import routine_lines

__all__ = ["Matcher", "Scored", "Target", "Understanding", "build_matcher", "counter_step", "outcome", "pasted_arch",
           "prose_of", "understand"]


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
    # The concepts the text tells as what it is about (`gate.told_hits`, and what they imply): a search hit rests on
    # one of them, not on a word of the past, of a side remark or of a figure's unit ("24GB VRAM").
    subjects: frozenset[str] = field(default=frozenset())
    searched: tuple[Scored, ...] = field(default=())  # the targets ranked on the subjects alone (search's ranking)
    asks: str = ""  # what its questions are about (`gate.asked`): the guide, other subjects, nothing asked in a post


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
    figures: frozenset[str]  # `intents.yaml` `search_figures`: a figure's unit ("24GB VRAM") is no subject
    title_vetoes: frozenset[str]  # `intents.yaml` `search_title_vetoes`: subjects a title line sets for the text
    topics: Outside  # `intents.yaml` `topic_titles`: subjects a title line sets for diagnose too
    evidence: frozenset[str]  # `topic_evidence`: what the body tells that keeps its symptom under such a title
    title_topics: frozenset[str]  # ... `search_title_topics`: those a body's told `search_title_told` overrules
    title_told: frozenset[str]
    title_asks: frozenset[str]  # `search_title_asks`: the topics only a body's `search_title_persisted` overrules
    title_persisted: frozenset[str]
    asking: SearchWording  # what `gate.asked` weighs: the subjects FAQ entries and sections rest on, those elsewhere
    whole: frozenset[str]  # `intents.yaml` `whole_phrases`: the words inside their phrases say nothing of their own
    avoided: tuple[Avoided, ...]
    postings: dict[tuple[int, str], tuple[tuple[int, float], ...]]
    default_idf: float
    weights_by_name: dict[str, tuple[tuple[int, float], ...]]
    open_targets: tuple[int, ...]  # targets with no requirement: candidates for every in-domain query
    counter: re.Pattern[str]  # a progress counter in the user's words, from every language's counter words
    requirers: dict[str, tuple[int, ...]]  # name -> targets that require it
    by_id: dict[str, Target]
    grounds: dict[str, tuple[frozenset[str], frozenset[str]]]  # target id -> what a search hit on it rests on
    sentences: SentenceReader  # the markers of a sentence's status per language, the sentence rules
    settings: SettingTable  # other trainers' setting keys (`structure/settings.yaml`)


# The concepts whose words introduce a number the text states (`step 2`, `batch 4`, `81 frames`).
_NUMBERED = ("step", "batch", "frames")
_NUMBERS = frozenset(_NUMBERED)


def _analyzer(content: Content, build: Caches) -> Analyzer:
    """The analyzer of every language's words: the words the knowledge knows, Korean's known words, the
    vocabulary words a typo is corrected towards, and the families' names."""
    texts = content.texts
    profiles = compile_profiles(content)
    known: dict[str, set[str]] = {}
    korean: set[str] = set()
    for lang, text in texts.items():
        words = known.setdefault(lang, set())
        for phrase in tables.all_text(text):
            words.update(split_tokens(normalize(phrase)))
        for number in content.profiles[lang].numbers:
            if not number.isascii():
                words.update(split_tokens(normalize(number)))
            words.add(normalize(number))
        # A word of a sentence marker is a word of the language, never a typo: "scared" stays a hypothetical
        # marker, not the vocabulary's "shared".
        markers = content.profiles[lang].sentences
        for marker in (*markers.question, *markers.aside, *markers.past, *markers.present, *markers.frequent,
                       *markers.settled, *markers.gone, *markers.reverted, *markers.hypothetical, *markers.feared,
                       *markers.hypothetical_after, *markers.negation, *markers.negation_after, *markers.cause):
            words.update(split_tokens(normalize(marker)))
    for profile in profiles:
        # A language written without spaces is split at its known words.
        for phrases in texts[profile.lang].vocabulary.concepts.values() if profile.split_known else ():
            for phrase in phrases:
                korean.update(t for t in split_tokens(normalize(phrase)) if not t.isascii())
    vocab_words = {lang: {w for ps in t.vocabulary.concepts.values() for p in ps for w in split_tokens(normalize(p))}
                   for lang, t in texts.items()}
    return Analyzer(
        profiles=profiles,
        ordinal=ordinal_pattern(content),
        known_words=known,
        korean_words=korean,
        fuzzy_words=vocab_words,
        names={w for f in content.families for alias in f.aliases for w in split_tokens(normalize(alias))},
        lingua_franca=content.languages.default,
        caches=build,
        number_words={lang: {w for c in _NUMBERED for p in t.vocabulary.concepts.get(c, ())
                             if (w := normalize(p)).isalpha()} for lang, t in texts.items()},
        ordinary_words={lang: listed.split() for lang, listed in content.words.items()},
    )


def build_matcher(content: Content) -> Matcher:
    """Compile vocabularies, aliases, intents and the targets' own texts into lookup tables."""
    texts = content.texts
    build = Caches.scratch()  # start-up stems the same words many times; dropped once built
    analyzer = _analyzer(content, build)
    lexicon = Lexicon(analyzer, {lang: t.vocabulary.concepts for lang, t in texts.items()}, build)
    aliases = Aliases({f.id: f.aliases for f in content.families})
    targets = tuple(Target.of(tid, intent) for tid, intent in content.intents.targets.items())
    postings, default_idf = tables.postings(analyzer, content, targets, build)
    asked = content.intents.search_asked
    elsewhere = frozenset(asked.elsewhere).union(*(o.any for o in content.intents.outside))
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
        figures=frozenset(content.intents.search_figures),
        title_vetoes=frozenset(content.intents.search_title_vetoes),
        topics=tuple((frozenset(o.any), frozenset(o.unless)) for o in content.intents.topic_titles),
        evidence=frozenset(content.intents.topic_evidence),
        title_topics=frozenset(content.intents.search_title_topics),
        title_told=frozenset(content.intents.search_title_told),
        title_asks=frozenset(content.intents.search_title_asks),
        title_persisted=frozenset(content.intents.search_title_persisted),
        asking=SearchWording(
            subjects=_topic_subjects(content, targets) - elsewhere,
            generic=frozenset(content.intents.search_generic),
            elsewhere=elsewhere,
            asking=frozenset(asked.asking),
            states=frozenset(asked.states),
            refers_back=frozenset(asked.refers_back),
            post_words=asked.post_words,
            own_words=asked.own_words,
        ),
        whole=frozenset(content.intents.whole_phrases),
        avoided=content.intents.avoided,
        postings=postings,
        default_idf=default_idf,
        weights_by_name={k: tuple(v) for k, v in by_name.items()},
        open_targets=tuple(i for i, t in enumerate(targets) if not (t.require or t.groups)),
        counter=counter_pattern(content),
        requirers=tables.requirers(targets),
        by_id={t.id: t for t in targets},
        grounds=tables.grounds(content, targets),
        sentences=build_reader(analyzer, content, build),
        settings=compile_settings(content.pasted),
    )


# --- understanding ---------------------------------------------------------------------------------


def understand(
    matcher: Matcher, text: str, hint: str | None = None, caches: Caches = NO_CACHE,
    limits: WorkLimits = DEFAULT_LIMITS,
) -> Understanding:
    """Analyse a query or log; rank every target whose intent accepts it (`caches`: the runtime's memo tables;
    `limits` caps the work, limits.py)."""
    text = clip_lines(text, limits.log_lines)
    log = read_log(text)
    parts = split_text(text, log, matcher.sentences.wrapping)
    reading = read_sentences(matcher.sentences, parts.prose, hint, parts.lead, caches, limits,
                             routine_lines(text, matcher.sentences.wrapping))
    lang, tokens = reading.lang, reading.tokens
    pasted = read_settings(text, matcher.settings)
    spotted = setting_words(matcher.lexicon.spot(tokens, lang, caches), reading, matcher.settings, pasted)
    spotted, others = of_this_run(spotted)  # another run's words weigh in no reading but whose a setting is
    hits = unavoided(matcher.avoided, reading, outside_phrases(matcher.outside_subjects, matcher.whole, spotted))
    hits, machine, quiet, form = _unwrapped(matcher, reading, hits)
    reader = matcher.sentences
    hits = told_now(reader, reading, hits)
    hits = near_the_failure(reader, reading, stated_only(reader.rules.stated_only, "negation", reading, hits))
    hits = denied_effects(reader.rules.denied, reading, hits)
    hits = side_remarks(reader.asides, matcher.outside_subjects, reader.told, matcher.implies, hits, reading)
    hits = theirs(reading, of_the_training(reader.rules.subjects, reading, hits), others, reader.rules.events)
    log = as_told(log, text, parts.prose, reader.rules, reading, spotted, hits)
    hits = spilled(reader.rules.spills, log, reading, hits)
    stated, alien = _stated(matcher, text, parts, reading, hits, others, log, caches, pasted, machine, lines := Lines())
    family, families = family_named(matcher.aliases.find, tokens, alien, pasted, reading.past)  # alien: others' words
    features = _features(text, stated, log, families)
    concepts = _implied(matcher, hits, reading, features)
    present = frozenset(concepts) | features
    told = told_hits(hits, reading, form)
    units = figure_units(told, reading, matcher.figures, _NUMBERS)
    subjects = frozenset(concepts if told == hits else _implied(matcher, told, reading, features)) - units  # (_implied)
    title = title_concepts(matcher, parts.prose, lang, caches, lines) if matcher.title_vetoes else frozenset()
    topic = title | opening(hits, reading, matcher.implies, bool(title), matcher.asking.post_words)  # `topic_titles`
    domain = in_domain(present - routine_only(quiet, reading, hits), log, matcher.domain, matcher.outside) and not (
        topic and subjects.isdisjoint(matcher.evidence) and title_veto(topic, features, matcher.topics))
    own = [t for i, t in enumerate(tokens) if reading.of[i] not in form] if form else tokens  # no word of the form
    similar = similarity(matcher, own, caches) if domain else {}
    ranked = rank(matcher, present, similar, caches) if domain else ()
    # What search ranks: the targets the text's subjects make candidates, weighed by them alone
    about = subjects | features
    searched = ranked if about == present or not domain else rank(matcher, about, similar, caches)
    if searched and title and title_veto(title, features, matcher.outside, title_vetoes(matcher, subjects)):
        searched = ()
    return Understanding(
        lang=lang,
        concepts=frozenset(concepts),
        features=features,
        stated=stated,
        family=family,
        phase=_phase(concepts, log),
        arch=pasted_arch(text),
        log=log,
        in_domain=domain,
        ranked=ranked,
        subjects=subjects,
        searched=searched,
        asks=asked(told, reading, matcher.implies, matcher.asking, units, matcher.sentences.across, subjects),
    )


def _unwrapped(matcher: Matcher, reading: Reading, hits: list[Hit]) -> tuple[list[Hit], frozenset[int], frozenset[int],
                                                                             frozenset[int]]:
    """The hits without what a post's wrapping names: the specs of its environment lines, a word told only alone
    ("Solved!") inside a sentence, an update line's opener, the routine of a template's reproduction steps and
    environment; with the machine's lines, the quiet routine lines (`quiet_lines.machine_lines`, `quiet_routine`) and
    the form's lines: those and the updates that tell nothing new (`quiet_lines.quiet_updates`), whose words are no
    subject of the post and weigh in no target's likeness to it."""
    rules = matcher.sentences.rules
    machine = machine_lines(rules.events, reading, hits)
    hits = alone(rules.alone, reading, machine_specs(rules.specs, machine, reading, hits))
    hits = updates(rules.updated, reading, hits)
    quiet = quiet_routine(rules.events, reading, hits)
    form = machine | quiet | quiet_updates(rules.events, reading, hits)
    return template_routine(rules.routine, quiet, reading, hits), machine, quiet, form


def _topic_subjects(content: Content, targets: tuple[Target, ...]) -> frozenset[str]:
    """The subjects of the guide an FAQ entry or a section rests on (`tables.grounds`): GC, memory, speed, an OOM, the
    guide itself, ... (a dataset, captions or a batch ground only a symptom or a step: checks of a problem told)."""
    grounds = tables.grounds(content, targets)
    return frozenset().union(*(grounds[t.id][1] for t in targets if t.intent.kind in ("faq", "section")))


def _implied(matcher: Matcher, hits: list[Hit], reading: Reading, features: frozenset[str]) -> set[str]:
    """The concepts of the hits, and those `intents.yaml` `implies` adds: from one sentence's concepts, or from
    the whole text's (and its features: a pasted bar's rate under "is this normal?") for an implication said
    `across` sentences. (A pure function of the hits: `understand` reads the subjects from the told hits with it, and
    reuses the concepts when those are every hit, as in ~96 % of texts.)"""
    by_sentence: dict[int, set[str]] = {}
    for h in hits:
        by_sentence.setdefault(reading.sentence_of(h.start), set()).add(h.concept)
    concepts = set().union(*(implied(c, matcher.implies) for c in by_sentence.values()))
    return implied(concepts | features, matcher.sentences.across) - features


def _stated(
    matcher: Matcher, text: str, parts: Parts, reading: Reading, hits: list[Hit], others: list[Hit], log: LogReading,
    caches: Caches, pasted: Pasted, machine: frozenset[int], lines: Lines | None = None,
) -> tuple[Stated, frozenset[int]]:
    """The context the text states; in a pasted log, the step from the progress bars or the user's first line. A
    setting pasted from a trainer's config or command line is that run's setting, whatever the words around it. The
    figures of a line listing the machine (`machine`: "RTX 3090 24GB") state none, nor the words told of another run or
    supposed (`own_run.not_own` of the `others` words) a GC state, a batch size or a step: those words' positions are
    returned with it (no family is read there either)."""
    unowned = not_own(reading, hits, others)
    prose, lang = parts.prose, reading.lang
    # Which words are asked about matters only for what the text says of GC (`extract.gc_state`).
    unstated = frozenset(i for k in machine for i in range(reading.sentences[k].start, reading.sentences[k].end))
    starts = frozenset(s.start for s in reading.sentences[1:])
    clauses = frozenset(c for s in reading.sentences for c in s.clauses)
    # a question the reply opens by quoting ("> Is GC on?\nno, it's off") is read for its context, and states nothing
    asking = asked_back(reading, text)
    unowned |= asking
    quote = answered_quote(text) if not any(h.concept == "gc" and h.start not in asking for h in hits) else ""
    quote_tokens, quote_hits = line_hits(matcher, quote, lang, caches, lines) if quote else ([], [])
    answered = any(h.concept == "gc" for h in quote_hits)
    # what the quote says of the switch, which a bare "did that" takes up ("> set GC to true\ndid that")
    proposed = stated_context(quote_tokens, quote_hits, False).gradient_checkpointing if answered else None
    stated = stated_context(reading.tokens, hits, parts.log_like, reading.asked(), failed=parts.log_like,
                            unstated=unstated, starts=starts, unowned=unowned, told_past=reading.past, clauses=clauses,
                            answered_gc=answered, answer_from=max(asking, default=-1) + 1, proposed=proposed)
    step = stated.step
    if parts.lead is not None and ("\n" in text.strip() or log.step is not None):
        # In a log, "step" appears in messages ("OOM during training step 3 times") and a bar's percentage is no
        # step (`steps: 12%|...| 120/1000`): trust the progress bars, else what the user's own first line says.
        step = log.step
        if step is None:
            lead_tokens, lead_hits = line_hits(matcher, parts.lead, lang, caches, lines)
            step = stated_context(lead_tokens, lead_hits, False, failed=True).step
    if step is None:
        step = counter_step(prose, matcher.counter)
    values = unless_told_changed(pasted.values, stated.gradient_checkpointing, hits, unowned)
    # one copy of the frozen `Stated` for every change (each `replace` costs its `__init__`)
    changes = {"step": step, **values} if step != stated.step else values
    return (replace(stated, **changes) if changes else stated), unowned


def _features(text: str, stated: Stated, log: LogReading, families: int) -> frozenset[str]:
    """The match features a text has (`features.FEATURES`); `families` is how many model families it names."""
    return features_of(input_of(text, stated, log, families))


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
