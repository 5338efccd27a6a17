"""Issue 12, session 6 (leak): a word of the query's language that no text of the knowledge uses is still that
language's word, and a price question is no trade-off. Sentences written for the test, as forum users write, in six
languages (none is a line of a query set or of the real-message corpora); every rule has its twin where it gives way.

1. Ordinary words (`text/<lang>/words.yaml`): an ordinary word of the query's language is matched in its own stream
   only, so it is never read as a look-alike of another language after stemming (English "fall" is not Spanish
   `falla`, Portuguese "tarde" is not Spanish `tarda`); an ordinary English word in another language's query is
   matched in that language's stream and English's only; a word of no list (a mixed-language query) is still matched
   in every stream, and in an English query a word of no list is another language's word only as written there
   (English "directions" is no French `direction`, early).
2. A price asked (`how_much` and `costs` in one sentence: `price`, outside the guide) is no trade-off of GC, unless
   the sentence asks what GC costs.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from remedy.index.build import Index
from remedy.understanding.matcher import understand
from tests.understanding.probes import search, top_symptom


def _concepts(index: Index, lang: str, text: str) -> frozenset[str]:
    return understand(index.matcher, text, lang).concepts


# --- 1. ordinary words --------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "word"), [
    ("en", "fall"), ("en", "quarter"), ("es", "acabado"), ("pt", "tarde"), ("fr", "tard"), ("de", "malen"),
])
def test_an_ordinary_word_no_text_uses_is_the_languages_own(index: Index, lang: str, word: str) -> None:
    analyzer = index.matcher.analyzer
    assert word not in analyzer.known[lang]  # no text of the knowledge uses it: the list alone makes it native
    _, tokens = analyzer.tokens(f"{word} {word}", lang)
    assert tokens[0].native


@pytest.mark.parametrize(("lang", "text", "foreign"), [
    ("en", "training a lora on fall foliage photos, samples look good so far", "crash"),  # es `falla`
    ("en", "it's quite slow on my 3090, around 8 s/it", "off"),  # es `quitar`
    ("pt", "comecei o treino ontem à tarde e deu tudo certo", "takes"),  # es `tarda`
    ("pt", "quem sabe onde desativo o gradient checkpointing?", "weak"),
    ("fr", "j'ai lancé l'entraînement tard hier soir et ça plante au step 2", "takes"),  # es `tarda`
    ("es", "ya he acabado de preparar el dataset, qué batch me recomiendan?", "exhausted"),  # pt `acabou` (a memória)
    ("de", "ich will bilder malen, welches modell für den lora?", "weak"),  # es `mal`
    ("en", "my dataset has photos from every camera angle", "optimizer_name"),  # pt/fr `came` (an optimizer)
    # in an English query, a word of no list is another language's only as that language writes it
    ("en", "i followed your directions and the lora works great, thanks", "early"),  # fr `direct`
    # an English word of a Korean query is read as English: not as the optimizer
    ("ko", "camera 앵글이 다양한 사진 30장으로 로라 학습 중이에요", "optimizer_name"),
])
def test_an_ordinary_word_is_not_read_as_another_languages(index: Index, lang: str, text: str, foreign: str) -> None:
    assert foreign not in _concepts(index, lang, text)


def test_a_none_message_with_an_ordinary_word_gets_no_symptom(index: Index) -> None:
    # the look-alike gave it a crash, hence an OOM symptom, before the lists
    assert top_symptom(index, "training a lora on fall foliage photos, samples look good so far", "en") is None


@pytest.mark.parametrize(("lang", "text", "concept"), [
    # a word of no list (a Spanish sentence in an English query) is still matched in every stream
    ("en", "how do i speed up my qwen edit lora? cada paso tarda muchísimo", "takes"),
    # the twin of "quite": the language's own word for the concept is matched as before
    ("es", "el entrenamiento va lento desde que quité el gradient checkpointing", "gc"),
    ("pt", "o treino demora muito desde que liguei o gradient checkpointing", "takes"),
    ("fr", "l'entraînement est lent depuis que j'ai activé le gradient checkpointing", "speed"),
    ("de", "das training ist langsam, seit ich gradient checkpointing eingeschaltet habe", "speed"),
    ("ko", "gradient checkpointing 켜고 나서 학습이 느려요", "speed"),
])
def test_a_word_of_no_list_and_the_languages_own_words_still_count(
    index: Index, lang: str, text: str, concept: str
) -> None:
    assert concept in _concepts(index, lang, text)


# --- 2. a price asked -------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "how much does it cost to train a lora on runcomfy?"),
    ("en", "how much does an hour of gpu cost on runcomfy"),
    ("es", "cuánto cuesta entrenar un lora en runcomfy?"),
    ("pt", "quanto custa treinar uma lora no runcomfy?"),
    ("pt", "quanto custa uma hora de gpu no runcomfy"),
    ("fr", "combien ça coûte d'entraîner un lora sur runcomfy ?"),
    ("fr", "combien coûte l'heure de gpu sur runcomfy"),
    ("de", "was kostet es, eine lora auf runcomfy zu trainieren?"),
    ("de", "wie viel kostet eine stunde gpu bei runcomfy?"),
    ("ko", "runcomfy에서 로라 학습하는데 비용이 얼마나 들어요?"),
    ("ko", "runcomfy gpu 한 시간에 얼마예요?"),
])
def test_a_price_question_is_none(client: TestClient, index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "price" in u.concepts and not u.in_domain and u.ranked == ()
    assert search(client, lang, text)["match"] == "none"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "what does gradient checkpointing cost me in speed?"),
    ("pt", "quanto custa em velocidade ligar o gradient checkpointing?"),
    ("fr", "combien ça coûte en vitesse d'activer le gradient checkpointing ?"),
    ("de", "was kostet gradient checkpointing an geschwindigkeit?"),
    ("ko", "gradient checkpointing 켜면 속도 비용이 얼마나 돼요?"),
])
def test_what_gc_costs_is_still_the_guides_tradeoff(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert u.in_domain and u.ranked and u.ranked[0].id == "quick-answer"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "how much vram do i need on a cheap gpu for flux?"),
    ("pt", "cara, quanto tempo demora um lora de flux numa 3090?"),  # `cara` (dude) is no price
    ("fr", "combien de vram il faut pour flux, je suis sur une 3060 pas chère"),
    ("de", "wie viel vram brauche ich für flux? meine karte war nicht teuer"),  # two sentences
])
def test_how_much_without_a_price_is_no_price(index: Index, lang: str, text: str) -> None:
    assert "price" not in _concepts(index, lang, text)
