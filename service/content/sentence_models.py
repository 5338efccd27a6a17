"""Models of sentence-level reading (content layer): the markers of a sentence's status per language
(`text/<lang>/profile.yaml` `sentences`) and how sentences weigh (`structure/intents.yaml` `sentences`)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

Key = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$", max_length=64)]
Affix = Annotated[str, StringConstraints(min_length=1, max_length=16)]
Marker = Annotated[str, StringConstraints(min_length=1, max_length=40)]


class SentenceMarkers(BaseModel):
    """What tells a sentence's status in one language (`understanding/sentences.py`): words and phrases, matched
    as the language's stream reads them (stems; a Hangul marker as the start of a word).

    - `question`: a question without a question mark ("any idea why", "alguien sabe");
    - `aside`: the sentence is a side remark ("by the way", "another thing:", "unrelated"), even when it asks;
    - `past`: the event told is over ("last week", "before the update", "used to");
    - `present`: the sentence tells the state now, whatever past it names ("now", "since then");
    - `frequent`: how often it happens ("always", "every time", "ständig", `매번`): the state now where no past is
      told, as `present`; inside a past marker's clause it says how often it happened then ("last week I constantly
      got OOMs"), so it neither ends that past nor keeps a failure a setting put back closes;
    - `settled`: what its clause told up to it is over or works ("bug solved", "fixed it", "runs fine", "like a
      charm"), unless a negation comes before it or the sentence asks ("is it fixed?");
    - `gone`: a thing told as gone ("sumiu", "a disparu", "desapareció"): a failure its clause told up to it is
      over ("o OOM no step 2 sumiu"), a thing gone from the image stays told (a weak result: "o rosto sumiu");
    - `fixed`: what its clause tells after it is over ("I fixed the OOM by lowering the batch", "ya resolví el
      OOM"), on the same terms;
    - `reverted`: a setting put back after a failure ("so I turned it back on", "lo volví a activar", `다시 켰`): the
      failure told a few words before it is over, across the commas of its sentence ("OOM at step 1, so I turned it
      back on, now it is slow"), on the same terms as `settled`;
    - `hypothetical`: the few words after it are supposed, feared or reported ("in case", "I'm afraid", "would",
      "to avoid"), and `hypothetical_after` the few words before it (Korean `OOM 날까봐`); `feared`: a fear told
      with the clause it introduces ("afraid that", "miedo de que", "peur que", "Angst dass"): that whole clause;
    - `cause`: a causal conjunction ("because", "porque", "parce que", "weil", `때문에`): it opens a clause of its
      own, the reason told as a fact, so no hypothetical or negation reaches across it ("I'm worried because it OOMs
      at step 3" tells the OOM); `cause_endings`, the word endings that close a clause of cause before them (Korean
      `나서`: "OOM이 나서 걱정이에요" tells the OOM a worry after it does not reach back);
    - `negation`: the few words after it are denied ("no OOM", "didn't crash", "not out of memory"), and
      `negation_after` the few words before it (Korean `OOM은 없어요`);
    - `question_endings`, `sentence_endings`: word endings that ask, and that close a sentence written without a
      full stop (Korean `~까요`, `~어요`);
    - `reach`: how many words a hypothetical or a negation reaches ("no OOM" one, "no idea why it OOMs" is no
      denied OOM);
    - `elided`: the letters a language elides before an apostrophe (French `d'`, `l'`, `j'`, `qu'`): a token of its
      own that the reach does not count as a word ("j'ai peur d'avoir un OOM" reaches the OOM);
    - `headings`: the headings of an issue template or a forum form, as a line of their own ("### Describe the bug",
      "**Logs**", "System Info:"): the form's words, not the user's (`understanding/wrapped.py`), and
      `expected_headings` those whose section tells what should happen, not what does ("### Expected behavior"),
      and `routine_headings` those whose section is the form's routine: the steps that reproduce it ("###
      Reproduction": "1. Start the job with my config") and the machine's environment ("### System Info"), whose
      training is no subject of the post (`quiet_lines.template_routine`);
    - `salutations`: a greeting, a thank-you or a sign-off as a line of its own ("Hi everyone,", "Thanks in advance!",
      "Best regards,"): no sentence of the post (a name under a sign-off neither);
    - `updates`: what opens an update line ("EDIT:", "Update:", "수정:"): the post's problem goes on, so its "still"
      tells no failure despite a setting;
    - `help_titles`, `solved_titles`, `question_titles`: the tags a post's title opens or closes with ("Need help",
      "[Solved]", "[Question]", "Ayuda:"), which tell the post's kind, not its content: a line of its own that only
      asks for help is no sentence of the post, a solved title's events are past, a question's title asks;
    - `spec_keys`: the keys of an environment line ("GPU: RTX 3090 24GB", "RAM: 32GB", "OS: Windows 11"): the line
      lists the machine, it tells nothing of the failure.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    question: tuple[Marker, ...] = ()
    aside: tuple[Marker, ...] = ()
    past: tuple[Marker, ...] = ()
    present: tuple[Marker, ...] = ()
    frequent: tuple[Marker, ...] = ()
    settled: tuple[Marker, ...] = ()
    gone: tuple[Marker, ...] = ()
    fixed: tuple[Marker, ...] = ()
    reverted: tuple[Marker, ...] = ()
    hypothetical: tuple[Marker, ...] = ()
    hypothetical_after: tuple[Marker, ...] = ()
    feared: tuple[Marker, ...] = ()
    negation: tuple[Marker, ...] = ()
    negation_after: tuple[Marker, ...] = ()
    cause: tuple[Marker, ...] = ()
    cause_endings: tuple[Affix, ...] = ()
    question_endings: tuple[Affix, ...] = ()
    sentence_endings: tuple[Affix, ...] = ()
    reach: Annotated[int, Field(ge=1, le=8)] = 3
    elided: tuple[Affix, ...] = ()
    headings: tuple[Marker, ...] = ()
    expected_headings: tuple[Marker, ...] = ()
    routine_headings: tuple[Marker, ...] = ()
    spec_keys: tuple[Marker, ...] = ()
    salutations: tuple[Marker, ...] = ()
    updates: tuple[Marker, ...] = ()
    help_titles: tuple[Marker, ...] = ()
    solved_titles: tuple[Marker, ...] = ()
    question_titles: tuple[Marker, ...] = ()
    # what a reply says of a quote it opens with when the quoted problem is its own too ("same here", "I have the same
    # issue", "mismo problema", "même problème", "gleiches Problem", "저도 같은 문제"): the quote is kept
    agrees: tuple[Marker, ...] = ()
    # what a line says when it introduces another person's words quoted under it ("A friend told me:", "En Reddit uno
    # puso:", "Um amigo falou:", "Sur le Discord quelqu'un m'a répondu :", "Jemand meinte:", "누가 이렇게 말했어요:"):
    # the quote is theirs, no state of the user's job nor an event of it
    reports: tuple[Marker, ...] = ()


class Subject(BaseModel):
    """Whose symptom a sentence tells (`understanding/subject.py`): a hit of `told` (a slowness, a weak result) is
    the training's when the sentence names one of `training` as its subject, another thing's when it names only one
    of `other` (a generation, another program, another domain's model). With `nearest`, the subject named nearest to
    the hit decides ("I trained it with ai-toolkit, but in ComfyUI the generation is slow": the generation's). A
    sentence that names no subject follows what the text's other sentences tell the symptom of, else the training's
    when the text names one. With `whole_text`, only a text that names no `training` subject at all tells it of another
    thing ("the videos I generate with Wan look washed out"; a generation is also how a trained LoRA is looked at)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    told: tuple[Key, ...]
    training: tuple[Key, ...]
    other: tuple[Key, ...]
    nearest: bool = False
    whole_text: bool = False  # judged on the whole text: another thing's only when the text names no training subject
    becomes: Key | None = None  # the concept a hit judged another thing's is read as (`outside` may weigh it)


class Spill(BaseModel):
    """A memory told as full beside a slowness, with no failure told (`understanding/gate.py` `spilled`): the card's
    memory filling up is why the run slows down ("after 500 steps the VRAM is full and the steps go from 15 s/it to
    60 s/it"), no out-of-memory: the hits of `memory` go from a sentence that tells one of `slowness` (one of
    `figured` only after a figure) when the text tells none of `failure` outside the memory's own phrase and no GPU
    out-of-memory log is pasted."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    memory: tuple[Key, ...]
    slowness: tuple[Key, ...]
    failure: tuple[Key, ...]
    figured: tuple[Key, ...] = ()  # slowness words that count only after a figure ("15 s/it", not "second step")


class Denial(BaseModel):
    """A praise or an effect denied in its clause (`understanding/judged.py`): a hit of `praise` that a negation
    reaches ("the samples aren't really that good", "it doesn't seem to have any effect", "no se parece en nada",
    "sieht nicht gut aus", "효과가 없어요") is read as `becomes` too: a negation before it reaches `reach` words
    forward, one after it (verb-last negations: "ähnelt ihr nicht", "ressemble pas", `않아요`) `back` words back, both
    within its clause. A negation inside a longer phrase of the vocabulary is that phrase ("don't know", "not bad")."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    praise: tuple[Key, ...]
    becomes: Key
    by: tuple[Key, ...] = ()  # concepts whose words deny the words after them as a negation marker does ("can't")
    # concepts that, named right after a praise word, make it theirs ("I don't have a good GPU": the card's, no result)
    owners: tuple[Key, ...] = ()
    # the subjects one of which its clause must name (the output, the LoRA, an aspect trained): in a run-on sentence of
    # several clauses, a praise denied in another clause than the result is said of something else
    subjects: tuple[Key, ...] = ()
    reach: Annotated[int, Field(ge=1, le=8)] = 5
    back: Annotated[int, Field(ge=0, le=4)] = 2
    # the words denied are read as `becomes` in place of their own concept, the others keep it ("not a memory thing":
    # no memory named beside the hang; "24GB of VRAM" elsewhere is still memory); without it the rule's words are
    # helpers that tell nothing of their own (an effect, a change)
    replaces: bool = False


class Courtesy(BaseModel):
    """A sentence of courtesy (`understanding/told.courtesies`): one holding a hit of `by` ("thank you for the detailed
    guide", "gracias por tu trabajo", "danke für die Arbeit") and none of `keeps` (an event, a result, a speed told)
    says nothing of the problem: its words ("detailed", "job") are no subject of the post. With `needs`, only a
    sentence that also holds one of those (a run told as finished well names the training: "the training went fine")."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    by: tuple[Key, ...]
    keeps: tuple[Key, ...] = ()
    needs: tuple[Key, ...] = ()


class SentenceRules(BaseModel):
    """How sentences weigh (`understanding/sentences.py`): `events` told only in past, hypothetical or negated
    words are not the present state; a sentence with one of `told` tells a symptom of the guide, so one of
    `asides` (an `outside` subject) in a sentence of its own is a side remark; sentences with a `cues` word (or a
    question) fill the token budget of a long text first; one of `stated_only` counts only where a sentence states it
    (not in a question, not beside a negation: "how do I fix it?" and "not solved yet" tell nothing solved); one of
    `specs` in an environment line ("RTX 3090 24GB, 64GB RAM, Windows 11") is the machine's spec, not the failure's."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    events: tuple[Key, ...] = ()
    stated_only: tuple[Key, ...] = ()
    told: tuple[Key, ...] = ()
    asides: tuple[Key, ...] = ()
    cues: tuple[Key, ...] = ()
    qualifiers: tuple[Key, ...] = ()
    near: int = 1
    subjects: tuple[Subject, ...] = ()
    specs: tuple[Key, ...] = ()
    updated: tuple[Key, ...] = ()  # concepts an update line ("EDIT: still happens") tells of the post's time only
    # concepts a template's routine section ("1. Start the job with my config", "- Trainer: ai-toolkit") names as the
    # subject of what the post tells (`quiet_lines.template_routine`)
    routine: tuple[Key, ...] = ()
    alone: dict[Key, Key] = {}  # a word that tells its concept only as the post's first sentence ("Solved!")
    spills: tuple[Spill, ...] = ()
    denied: tuple[Denial, ...] = ()  # praise denied in its clause, read as its own concept (`judged.py`)
    courtesy: tuple[Courtesy, ...] = ()  # thanks, or a run gone well: nothing of the problem (`told.courtesies`)
    # concepts that open a wish or a request ("please add an option to ...", "would be great to have ..."): the
    # events and the `wished` words after one in its clause are what is asked for, not told (`told.wished`)
    wishes: tuple[Key, ...] = ()
    wished: tuple[Key, ...] = ()
    # the word between two options in a question ("can I train Wan on 16GB, or will it run out of memory?"): an event
    # told within `alternative_reach` words after it is the other option asked of, not told (`told.alternatives`)
    alternatives: tuple[Key, ...] = ()
    alternative_reach: int = 0
    # the concepts of the user's words that name a GPU OOM the log reader also reads ("CUDA out of memory"): none of
    # them told, the prose's OOM is no log's either (`spoken.as_told`)
    spoken: tuple[Key, ...] = ()
    spoken_now: tuple[Key, ...] = ()  # a word of the present before one in its sentence tells it ("y ahora peta")
    # the concepts of an error denied ("no error", "sin ningún error", "aucune erreur"): the failure named right after
    # one is the error that did not come (`told.told_now`)
    denies: tuple[Key, ...] = ()
    # a speed told as fine ("runs fine at 3 s/it", "läuft gut mit 3 s/it"): the `fined` words of its sentence are its
    # figures, no slowness, unless the sentence holds one of `fine_unless` ("fine at first, but then 30 s/it")
    fine: tuple[Key, ...] = ()
    fined: tuple[Key, ...] = ()
    fine_unless: tuple[Key, ...] = ()
    fine_turns: tuple[str, ...] = ()  # a fine word's endings that turn its clause (Korean `잘 돌아가는데`: "runs, but")
    # a change told before a settled state in its sentence ("but with GC enabled it works fine", "activé el GC y ahora
    # va bien"): the events told before the change are what it remedied, over, unless one of `remedy_unless` comes
    # between (`told.remedied`)
    remedies: tuple[Key, ...] = ()
    remedy_unless: tuple[Key, ...] = ()


class Asked(BaseModel):
    """What a text asks about (`understanding/gate.asked`, `intents.yaml` `search_asked`): the subjects the guide does
    not answer (`elsewhere`, beside every `outside` subject), the words that make a sentence ask without a question
    mark (`asking`), a setting's state a question may ask of without naming the setting (`states`), the words by which
    a question refers back to its story (`refers_back`), the words read that make a text a post (`post_words`) and
    those that make a question name a subject of its own (`own_words`; 0: never)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    elsewhere: tuple[Key, ...] = ()
    asking: tuple[Key, ...] = ()
    states: tuple[Key, ...] = ()
    refers_back: tuple[Key, ...] = ()
    post_words: int = 0
    own_words: int = 0
