"""The model of how a language's words are read (content layer): `text/<lang>/profile.yaml`, its grammar as data."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from .sentence_models import Affix, Key, SentenceMarkers

ProfileWord = Annotated[str, StringConstraints(pattern=r"^[^\s\d]{1,32}$")]


class LanguageProfile(BaseModel):
    """How a language's words are read (`text/<lang>/profile.yaml`): its grammar as data, so that a language
    is added without code.

    - `stemmer`: the Snowball algorithm (PyStemmer's name, `english`, `italian`), or none;
    - `script`: `latin` (words and numbers) or `hangul` (a Hangul word is this language's, whatever the query);
    - `split`: `spaces`, or `known_words` for a language written without spaces (split before each known word);
    - `endings`: particles and endings stripped from a word's end to reach its stem, the longest that fits first;
    - `particles`: the case particles among them (`이`, `가`, `을`): a known word that is another known word and
      one of these reads as that word (`효과가` is `효과`);
    - `restore_endings`: an accent-folded ending -> the written ending the stemmer reads, tried in order;
    - `ordinal_suffixes`: what follows a digit in an ordinal (`2nd`, `2º`, `2e`, `2te`);
    - `counter_words`: what joins a step and a total in a progress counter (`2 of 3000`, `2 sur 3000`);
    - `numbers`: number and ordinal words (`two`, `second`, `두 번째`) and their value;
    - `separable`: a verb whose particle ends its clause ("geht mir der VRAM aus"): particle -> the joined verb
      -> its finite forms; the particle is read as the joined verb (`ausgehen`, run out), not on its own (`aus`,
      off), when one of the forms comes before it in the clause. `clause_words` start a clause (`und`, `weil`).
    - `kept_words`: words the stemmer keeps as written, because their stem is another word's (Spanish `guía`
      stems to `gui`, the trainer's GUI);
    - `fillers`: words a forum user adds inside a phrase without changing what it says: intensifiers ("the lora
      really does nothing", "muy", "vraiment", "echt", "진짜") and the French `ne`; skipped inside a phrase;
    - `dropped`: words a forum user leaves out of a phrase (the French `ne` of a negation: "ça (ne) change rien"):
      a phrase is also matched without them, when two words of it are left;
    - `shorthand`: how users abbreviate in a chat (Portuguese `vc`, `n`; German `nix`, `nich`; French `jsp`):
      the written word -> the words it stands for, read so in the query and in the vocabulary;
    - `after_number`: a word that right after a number is another word (French `pas`, "not", after a number is a
      step: "au 3e pas", "OOM après 3 pas"), read as that word there only;
    - `sentences`: the markers of a sentence's status (question, past, hypothetical, negated).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    stemmer: Key | None
    script: Literal["latin", "hangul"]
    split: Literal["spaces", "known_words"] = "spaces"
    endings: tuple[Affix, ...] = ()
    particles: tuple[Affix, ...] = ()
    restore_endings: dict[Affix, Affix] = {}
    ordinal_suffixes: tuple[Annotated[str, StringConstraints(pattern=r"^[a-z]{1,8}$")], ...] = ()
    counter_words: tuple[Annotated[str, StringConstraints(pattern=r"^[a-z]{1,16}$")], ...] = ()
    numbers: dict[Annotated[str, StringConstraints(min_length=1, max_length=40)], Annotated[int, Field(ge=0, le=1000)]]
    separable: dict[ProfileWord, dict[ProfileWord, tuple[ProfileWord, ...]]] = {}
    clause_words: tuple[ProfileWord, ...] = ()
    kept_words: tuple[ProfileWord, ...] = ()
    fillers: tuple[ProfileWord, ...] = ()
    dropped: tuple[ProfileWord, ...] = ()
    shorthand: dict[ProfileWord, Annotated[str, StringConstraints(pattern=r"^[^\d]{1,48}$")]] = {}
    after_number: dict[ProfileWord, ProfileWord] = {}
    sentences: SentenceMarkers = SentenceMarkers()


class OrdinaryWords(BaseModel):
    """A language's ordinary words (`text/<lang>/words.yaml`, built once by `bench/ordinary_words.py` from a word
    frequency list): a word of a query in that language that no text of the knowledge uses ("fall", "pero") is still
    that language's word, matched in its stream only, never read as another language's word after stemming.

    - `source`, `origin`, `licence`: the file it was read from, where its counts come from, and under what terms;
    - `words`: the words, normalized (folded, lower case), separated by spaces.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    source: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    origin: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    licence: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    words: str

    def split(self) -> frozenset[str]:
        return frozenset(self.words.split())
