"""Language profiles: a seventh language is data (a profile and texts), no code.

The fixture copies the knowledge, adds Italian (`it`) with the English texts copied, an Italian profile and a
few Italian words in its vocabulary, and builds the index from it as start-up does.
"""

from __future__ import annotations

import shutil

import pytest
import yaml

from remedy.content.checks import check_content
from remedy.content.loader import load_content
from remedy.index.build import Index, build_index
from remedy.settings import Settings
from remedy.understanding.matcher import understand

ITALIAN_PROFILE = """\
# How Italian is read (a test fixture).
stemmer: italian
script: latin
split: spaces
ordinal_suffixes: [o, a]
counter_words: [di]
numbers: {"uno": 1, "due": 2, "tre": 3, "primo": 1, "secondo": 2, "seconda": 2, "terzo": 3}
"""
ITALIAN_WORDS = {"oom": ["memoria esaurita", "memoria insufficiente"], "step": ["passo", "iterazione"],
                 "gc": ["checkpoint del gradiente"], "off": ["disattivato", "spento"]}


@pytest.fixture(scope="module")
def italian(tmp_path_factory: pytest.TempPathFactory) -> Index:
    root = tmp_path_factory.mktemp("italian") / "knowledge"
    shutil.copytree(Settings().knowledge_dir, root)
    shutil.copytree(root / "text" / "en", root / "text" / "it")
    (root / "text" / "it" / "profile.yaml").write_text(ITALIAN_PROFILE, encoding="utf-8")
    vocabulary = root / "text" / "it" / "vocabulary.yaml"
    data = yaml.safe_load(vocabulary.read_text(encoding="utf-8"))
    for concept, words in ITALIAN_WORDS.items():
        data["concepts"][concept] = [*words, *data["concepts"][concept]]
    vocabulary.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    languages = root / "languages.yaml"
    data = yaml.safe_load(languages.read_text(encoding="utf-8"))
    data["supported"].append("it")
    languages.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")

    content = load_content(root)
    problems, _ = check_content(content)
    assert not problems, "\n".join(map(str, problems))
    return build_index(content)


def test_a_seventh_language_is_a_stream_of_its_own(italian: Index) -> None:
    analyzer = italian.matcher.analyzer
    assert analyzer.streams == ("en", "es", "pt", "fr", "de", "ko", "it")
    assert analyzer.stem("it", "iterazioni") == analyzer.stem("it", "iterazione")  # Italian Snowball, not Korean


def test_a_query_in_the_seventh_language_is_understood(italian: Index) -> None:
    u = understand(italian.matcher, "memoria esaurita al secondo passo, checkpoint del gradiente disattivato", "it")
    assert u.lang == "it"
    assert {"oom", "step", "gc", "off"} <= u.concepts
    assert u.stated.step == 2 and u.stated.gradient_checkpointing is False
    assert u.ranked[0].id == "oom-early-steps"


def test_the_counter_words_of_the_seventh_language_are_read(italian: Index) -> None:
    assert understand(italian.matcher, "memoria esaurita a 2 di 3000", "it").stated.step == 2
