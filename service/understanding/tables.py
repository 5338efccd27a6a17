"""Compiling the matcher's lookup tables from the content (index layer): the words each language knows, the
texts that describe each target, and the inverted index of those texts' word forms.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from ..content.models import Content
from .analysis import Analyzer
from .caches import Caches
from .rank import Target


def requirers(targets: tuple[Target, ...]) -> dict[str, tuple[int, ...]]:
    out: dict[str, list[int]] = {}
    for i, target in enumerate(targets):
        for name in target.require.union(*target.groups):
            out.setdefault(name, []).append(i)
    return {k: tuple(v) for k, v in out.items()}


def grounds(content: Content, targets: tuple[Target, ...]) -> dict[str, tuple[frozenset[str], frozenset[str]]]:
    """Per target, what a search hit on it must rest on (`answers.answer_search`): the subjects of the guide
    (`search_needs`, and the names implied from them) it asks for, weighs positively or is `about` (only its
    `rests_on`, when it has one); and those plus the names implied from its own ("where" and "config" make
    `where_in_job`). A text grounds a hit when the first set is empty (an entry about the whole guide) or it names
    one of the second."""
    needs = set(content.intents.search_needs)
    implies = content.intents.implies
    subjects = needs.union(imp.then for imp in implies if not needs.isdisjoint(imp.all))
    out: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
    for target in targets:
        own = set(target.require).union(*target.groups, (n for n, w in target.weights if w > 0), target.intent.about)
        if target.intent.rests_on:
            own = set(target.intent.rests_on)
        implied = {imp.then for imp in implies if not own.isdisjoint(imp.all)}
        out[target.id] = (frozenset(own & subjects), frozenset((own | implied) & subjects))
    return out


def all_text(text: Any) -> Iterable[str]:
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


def target_texts(content: Content, tid: str, kind: str) -> Iterable[tuple[str, str]]:
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


def postings(
    analyzer: Analyzer, content: Content, targets: tuple[Target, ...], c: Caches
) -> tuple[dict[tuple[int, str], tuple[tuple[int, float], ...]], float]:
    """Inverted index (stream, form) -> targets, weighted by inverse target frequency."""
    docs: list[set[tuple[int, str]]] = []
    for target in targets:
        terms: set[tuple[int, str]] = set()
        for lang, phrase in target_texts(content, target.id, target.intent.kind):
            stream = analyzer.stream_of(lang)
            for tok in analyzer.tokens(phrase, lang, fix_typos=False, c=c)[1]:
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
