"""Text analysis: normalization, stems, Korean particles, compounds, typos, number words, languages."""

from __future__ import annotations

import pytest

from remedy.index.build import Index
from remedy.understanding.analysis import is_hangul, normalize, split_tokens
from remedy.understanding.matcher import understand


def concepts(index: Index, text: str, hint: str | None = None) -> set[str]:
    lang, tokens = index.matcher.analyzer.tokens(text, hint)
    return {h.concept for h in index.matcher.lexicon.spot(tokens, lang)}


def test_normalize_folds_case_accents_and_width() -> None:
    assert normalize("  Désactivé  ÉTAPE Größe ") == "desactive etape grosse"
    assert normalize("ＧＣ를 켰는데") == "gc를 켰는데"


def test_tokens_split_scripts_and_dimensions() -> None:
    assert split_tokens("oom이 1024x1024 gradient_checkpointing: true") == [
        "oom", "이", "1024", "1024", "gradient_checkpointing", "true"]


@pytest.mark.parametrize(
    ("token", "stem"), [("프리뷰에서", "프리뷰"), ("gc를", "gc"), ("스텝", "스텝"), ("메모리가", "메모리")]
)
def test_korean_particles_are_stripped(index: Index, token: str, stem: str) -> None:
    assert index.matcher.analyzer.strip_korean(token) == stem


@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [
        ("running out of memory", "en", {"oom"}),
        ("se queda sin memoria", "es", {"oom"}),
        ("sem memória na GPU", "pt", {"oom"}),
        ("mémoire insuffisante", "fr", {"oom"}),
        ("Speicherfehler beim Training", "de", {"oom"}),
        ("메모리가 부족합니다", "ko", {"oom"}),
        ("GC를 켰는데", "ko", {"gc", "on"}),
        ("프리뷰에서", "ko", {"preview"}),
        ("desactivado", "es", {"off"}),
        ("desactivada", "es", {"off"}),
        ("ausgeschaltet", "de", {"off"}),
    ],
)
def test_concepts_in_every_language(index: Index, text: str, lang: str, expected: set[str]) -> None:
    assert expected <= concepts(index, text, lang)


def test_accents_are_optional(index: Index) -> None:
    assert concepts(index, "memoria insuficiente", "es") == concepts(index, "memória insuficiente", "es") or \
        "oom" in concepts(index, "memoria insuficiente", "es")
    assert "preview" in concepts(index, "previsualisation", "fr")


def test_typos_are_tolerated_for_words(index: Index) -> None:
    analyzer = index.matcher.analyzer
    assert analyzer.typos.correct("memorry") == "memory"
    assert analyzer.typos.correct("sampels") == "samples"  # a transposition is one edit
    assert analyzer.typos.correct("checkpointng") == "checkpointing"


@pytest.mark.parametrize("word", ["1024", "1536", "gradient_checkpointing", "low_vram", "bs"])
def test_typos_never_touch_numbers_or_config_keys(index: Index, word: str) -> None:
    assert index.matcher.analyzer.typos.correct(word) == word


def test_german_compounds_are_split(index: Index) -> None:
    assert index.matcher.analyzer.split_compound("speicherabsturz") == ["speicher", "absturz"]
    assert "oom" in understand(index.matcher, "Vorschau-Speicherabsturz", "de").concepts


@pytest.mark.parametrize(
    ("text", "lang", "value"),
    [("step two", "en", 2), ("segundo paso", "es", 2), ("segundo passo", "pt", 2), ("deuxième étape", "fr", 2),
     ("zweiten Schritt", "de", 2), ("두 번째 스텝", "ko", 2), ("3rd step", "en", 3)],
)
def test_numbers_as_words_and_ordinals(index: Index, text: str, lang: str, value: int) -> None:
    _, tokens = index.matcher.analyzer.tokens(text, lang)
    assert value in [t.number for t in tokens]


@pytest.mark.parametrize(
    ("text", "lang"),
    [("OOM at the second step", "en"), ("OOM en el paso dos", "es"), ("GC를 켰는데 여전히 OOM", "ko"),
     ("Ich habe GC eingeschaltet", "de"), ("o treino está lento", "pt"), ("l'entraînement est lent", "fr")],
)
def test_language_is_detected(index: Index, text: str, lang: str) -> None:
    words = split_tokens(normalize(text))
    assert index.matcher.analyzer.detect_language(words) == lang


def test_native_words_do_not_collide_across_languages(index: Index) -> None:
    # German "die" is an article, not English "died"; French "pas" is not Spanish "paso".
    assert "crash" not in concepts(index, "die Samples sind schwach", "de")
    assert "step" not in concepts(index, "ce n'est pas lent", "fr")


@pytest.mark.parametrize(
    ("word", "lang"),
    [("entrene", "es"), ("acelerarlo", "es"), ("mismo", "es"), ("haben", "de"), ("steht", "de")],
)
def test_real_words_are_not_corrected_into_other_words(index: Index, word: str, lang: str) -> None:
    # An inflection of a known word keeps its stem (`entrene` may become `entrena`, never `entree`), and a
    # correction never lands in a third language (`mismo` is not Portuguese `mesmo`, `haben` is not `haken`).
    analyzer = index.matcher.analyzer
    assert analyzer.stem(lang, analyzer.typos.correct(word, lang)) == analyzer.stem(lang, word)


def test_a_typo_of_an_inflected_stem_is_still_corrected(index: Index) -> None:
    # `memori` is the English stem of `memory` (and a Spanish stem): correcting it keeps the stem.
    assert index.matcher.analyzer.typos.correct("memroy", "fr") == "memory"
    assert "oom" in understand(index.matcher, "jai un out of memroy cuda, c koi le probleme", "fr").concepts


@pytest.mark.parametrize(
    ("run", "pieces"),
    [
        ("두번째스텝에서메모리부족", ["두", "번째", "스텝에서", "메모리부족"]),
        ("프리뷰에서", ["프리뷰에서"]),  # one word and its particle stay one token
        ("다시켰는데", ["다시", "켰는데"]),  # a one-syllable word right after a known word
    ],
)
def test_korean_written_without_spaces_is_split_at_known_words(index: Index, run: str, pieces: list[str]) -> None:
    assert index.matcher.analyzer.split_korean(run) == pieces


def test_korean_without_spaces_is_understood(index: Index) -> None:
    u = understand(index.matcher, "flux dev 학습중 두번째스텝에서메모리부족", "ko")
    assert u.ranked[0].id == "oom-early-steps"
    assert u.stated.step == 2


def test_model_names_are_never_corrected(index: Index) -> None:
    assert index.matcher.analyzer.typos.correct("chroma", "en") == "chroma"  # not `chrome`, a browser
    assert understand(index.matcher, "CUDA out of memory con Chroma", "es").family == "flux"


@pytest.mark.parametrize(
    ("singular", "plural"),
    [("visualizacao", "visualizacoes"), ("configuracao", "configuracoes"), ("opcao", "opcoes"), ("padrao", "padroes")],
)
def test_portuguese_nasal_endings_survive_accent_folding(index: Index, singular: str, plural: str) -> None:
    # Snowball's Portuguese rules read -ção / -ões; folded text has lost the accents (the profile restores them).
    stem = index.matcher.analyzer.profiles["pt"].stem
    assert stem(singular) == stem(plural) == stem(normalize(singular.replace("cao", "ção")))


_PARTICLES = ("이", "가", "을", "를", "은", "는")  # subject, object and topic particles


def test_no_korean_vocabulary_word_is_another_word_with_a_particle(index: Index) -> None:
    # A Hangul token is read as the longest vocabulary word it starts with: listing `메모리가` would make every
    # `메모리가` in a query that word, and the concepts of `메모리` would no longer be found there. Vocabulary
    # lists stems (`메모리 없`, not `메모리가 없`).
    concepts: dict[str, set[str]] = {}
    for concept, phrases in index.content.texts["ko"].vocabulary.concepts.items():
        for phrase in phrases:
            for word in split_tokens(normalize(phrase)):
                if is_hangul(word):
                    concepts.setdefault(word, set()).add(concept)
    shadowing = sorted(
        word for word in concepts for p in _PARTICLES
        if word.endswith(p) and len(word) - len(p) >= 2 and not concepts.get(word[: -len(p)], set()) <= concepts[word]
    )
    assert not shadowing, shadowing


@pytest.mark.parametrize("lang", ["en", "es", "pt", "fr", "de"])
def test_no_one_word_vocabulary_entry_stems_like_a_frequent_word(index: Index, lang: str) -> None:
    # A one-word entry is matched by its stem: Spanish `comiendo` stems to `com`, like `como`; German
    # `speichern` (to save) to `speich`, like `Speicher` (memory). Such an entry would fire on almost every query.
    from collections import Counter

    from remedy.understanding.tables import all_text as _all_text

    text = index.content.texts[lang]
    counts: Counter[str] = Counter()
    for line in _all_text(text):
        counts.update(w for w in split_tokens(normalize(line)) if w.isalpha())
    vocabulary = {w for ps in text.vocabulary.concepts.values() for p in ps for w in split_tokens(normalize(p))}
    frequent = [w for w, _ in counts.most_common(40) if w not in vocabulary]  # vocabulary words are meant
    clashes = []
    for concept, phrases in text.vocabulary.concepts.items():
        for phrase in phrases:
            single = split_tokens(normalize(phrase))
            if len(single) == 1:
                stem = index.matcher.analyzer.profiles[lang].stem
                clashes += [(concept, single[0], f) for f in frequent if stem(f) == stem(single[0])]
    assert not clashes, clashes
