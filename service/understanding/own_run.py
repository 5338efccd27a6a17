"""Whose run a setting is told of: the words of the text that state nothing of the user's own failing job.

A text names settings that are not the user's: another person's ("my friend runs batch size 8", "mi compañero tiene
el GC desactivado"), what someone said or a tutorial says ("someone said \"turn on gradient checkpointing\""), a run
tried next ("I will try Qwen Edit next", `다음엔 ... 써보려고요`), what a change replaced ("instead of flux", "switched
from 4", `flux 말고`), or a supposition ("what if I used batch size 4?", "y si uso batch 4"). Read as the user's,
each would put a false sentence in the answer ("GC is on", "with batch size 8"). `not_own` gives the positions of
those words; `extract.stated_context` reads no GC state and no batch size there, and `own_family` no model family.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import replace

from .analysis import KOREAN_CLAUSE_ENDS, Token, normalize, split_tokens
from .lexicon import Hit
from .pasted import Pasted
from .sentences import Reading

NOT_THIS_RUN = "not_this_run"  # concepts.yaml: my friend, someone said, the tutorial, I'll try next, 친구, 다음엔
REPLACED = "replaced"  # concepts.yaml: instead of, switched from, en lugar de, au lieu de, statt, 말고, 대신
SUPPOSED_AFTER = "supposed_after"  # concepts.yaml: 어떨까요, 괜찮을까요 (after the clause it supposes)
THEIR_RUN = "their_run"  # concepts.yaml: yours, a ti te, chez toi, bei dir, 질문하신 분 (the person a reply answers)
SHARED = "shared_setup"  # concepts.yaml: same config, copied it 1:1, exactement ma config, 같은 설정 그대로
_OWN_RUN = frozenset({NOT_THIS_RUN, REPLACED, SUPPOSED_AFTER, THEIR_RUN})
_REPLACED_REACH = 2  # the words of a model's name or a number: "instead of qwen edit", "switched from 4"


def of_this_run(hits: list[Hit]) -> tuple[list[Hit], list[Hit]]:
    """The spotted hits without the words of `_OWN_RUN` (`not_this_run`, `replaced`, `supposed_after`), and those
    words: they say only whose a setting is, and weigh in no other reading (a phrase of them would hide a sentence
    marker it overlaps: "todo el mundo dice que")."""
    others = [h for h in hits if h.concept in _OWN_RUN]
    return ([h for h in hits if h.concept not in _OWN_RUN], others) if others else (hits, others)


def not_own(reading: Reading, hits: Sequence[Hit], others: Sequence[Hit]) -> frozenset[int]:
    """The tokens a supposition reaches (the hypothetical markers of the profiles, not the negations), those from a
    `not_this_run` word (`others`) to the end of its clause or a contrast ("but", "pero", `하지만`), and the few
    words a `replaced` word names: after it, or before it in Korean (`flux 말고 qwen으로`); and the clause before a
    supposition told after it (`배치 4로 하면 어떨까요`)."""
    out: set[int] = set()
    supposed = tuple(r for r in reading.reaching if r not in reading.denials)
    if supposed:
        out |= replace(reading, reaching=supposed).reached(list(hits))
    if not others:
        return frozenset(out)
    if any(h.concept == SHARED for h in hits):
        # "my buddy runs it with GC false ... I copied it 1:1", "avec exactement ma config": their settings are mine
        others = [h for h in others if h.concept != NOT_THIS_RUN]
    tokens = reading.tokens
    contrasts = [h.start for h in hits if h.concept == "contrast"]  # "my friend has GC off, but I ...": mine again
    for hit in others:
        if hit.concept == REPLACED:
            before = tokens[hit.start].hangul
            out.update(range(max(0, hit.start - _REPLACED_REACH), hit.start) if before else
                       range(hit.end, min(len(tokens), hit.end + _REPLACED_REACH)))
            continue
        sentence = reading.sentences[reading.sentence_of(hit.start)]
        if hit.concept == SUPPOSED_AFTER:
            out.update(_clause_before(reading, hit.start, sentence.start))
            continue
        end = min((c for c in (*sentence.clauses, *contrasts) if hit.start < c < sentence.end), default=sentence.end)
        for i in range(hit.start, end):
            out.add(i)
            if i >= hit.end and _closes_clause(tokens[i]) and hit.concept != THEIR_RUN:
                break  # (the person a reply answers is its whole sentence's: `질문하신 분은 GC 꺼서 OOM 나는 거예요`)
    return frozenset(out)


def theirs(reading: Reading, hits: list[Hit], others: Sequence[Hit], events: Collection[str]) -> list[Hit]:
    """The hits without the failures told of the person a reply answers (`their_run`: "bei dir kommt der OOM weil GC
    aus ist. Bei mir läuft es, aber ...", "a ti te da OOM ..."): that person's OOM is none of the user's run."""
    addressed = [h for h in others if h.concept == THEIR_RUN]
    if not addressed:
        return hits
    gone = not_own(replace(reading, reaching=()), hits, addressed)
    return [h for h in hits if h.start not in gone or h.concept not in events]


def _closes_clause(token: Token) -> bool:
    """A Korean word whose ending closes a clause (`했는데`, `쓰고`), not the particle of a place (`4090에서`)."""
    return token.hangul and token.text.endswith(KOREAN_CLAUSE_ENDS) and not token.text.endswith("에서")


def _clause_before(reading: Reading, at: int, start: int) -> range:
    """The words of the clause before `at`, back to the sentence's start, a clause mark, or a Korean word that closes
    a clause (`나는데`: "OOM 나는데 배치 4로 하면 어떨까요" supposes the batch, not the OOM)."""
    tokens = reading.tokens
    first = max((c for c in reading.sentences[reading.sentence_of(at)].clauses if c <= at), default=start)
    i = at
    while i > first and not _closes_clause(tokens[i - 1]):
        i -= 1
    return range(i, at)


Find = Callable[[list[str]], tuple[str | None, int]]  # `Aliases.find`


def own_family(find: Find, words: list[str], unowned: frozenset[int]) -> str | None:
    """The model family the user's own words name (`Aliases.find` over the words outside `unowned`), or None when
    they name none or several: with two families named ("moved from Qwen Edit to FLUX", "OOM on flux, z-image
    worked"), which one fails is not known, and the answer says less rather than name the wrong one."""
    own = [w if i not in unowned else "" for i, w in enumerate(words)] if unowned else words
    family, count = find(own)
    return family if count == 1 else None


def family_named(find: Find, tokens: list[Token], unowned: frozenset[int], pasted: Pasted,
                 past: frozenset[int] = frozenset()) -> tuple[str | None, int]:
    """The model family the text names, and how many it names: the longest alias; with several named, or one named
    where a setting is not the user's (`not_own`), the one the user's own words name alone, or else the one they name
    outside what they tell as past (`past`: "예전에 플럭스 학습할 때 ... OOM", "last month on flux it was fine": an
    earlier run's), else unknown; with none named, the one a paste names."""
    words = [t.forms[-1] if t.hangul else t.text for t in tokens]
    family, families = find(words)
    if families > 1 or (family is not None and unowned):
        family = own_family(find, words, unowned)
        if family is None and families > 1 and past:
            family = own_family(find, words, unowned | past)
    return (family if family is not None else _pasted_family(find, pasted)), families


def _pasted_family(find: Find, pasted: Pasted) -> str | None:
    """The model family a paste names: a switch that picks it (`"sdxl": true`), else the first model key's value
    or training script whose words hold a family's alias (`"model_type": "FLUX_DEV_1"`, `flux_train_network.py`)."""
    if pasted.family is not None:
        return pasted.family
    for model in pasted.models:
        family, _ = find(split_tokens(normalize(re.sub(r"[_/\\]", " ", model))))
        if family is not None:
            return family
    return None
