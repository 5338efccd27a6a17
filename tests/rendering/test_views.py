"""Localized views: search snippets end on a whole sentence, FAQ entries link to their own anchors."""

from __future__ import annotations

import re

import pytest

from remedy.index.build import Index
from remedy.rendering.views import SNIPPET_LIMIT, build_snippet, faq_url, render_faq_entry, render_search_hit
from tests.conftest import LANGS

ENDS_A_SENTENCE = re.compile(r"[.!?…。][\"'»”)]*$")


def targets(index: Index) -> list[tuple[str, str]]:
    return ([("symptom", s) for s in index.symptoms] + [("faq", f) for f in index.faq]
            + [("section", s) for s in index.sections] + [("step", s) for s in index.steps])


@pytest.mark.parametrize("lang", LANGS)
def test_every_snippet_ends_on_a_sentence_or_an_ellipsis(index: Index, lang: str) -> None:
    for kind, ident in targets(index):
        snippet = render_search_hit(index, lang, kind, ident, 1.0)["snippet"]
        assert snippet and len(snippet) <= SNIPPET_LIMIT, (kind, ident)
        assert ENDS_A_SENTENCE.search(snippet), (lang, kind, ident, snippet)
        assert not re.search(r"[:;,]\s*…?$", snippet), (lang, kind, ident, snippet)


def test_a_lead_is_read_with_its_list() -> None:
    blocks = [{"kind": "paragraph", "text": "Tus siguientes palancas son:"},
              {"kind": "list", "items": ["Batch Size", "bucket de resolución más alto", "para vídeo, Num Frames"]}]
    assert build_snippet(blocks, "es") == ("Tus siguientes palancas son: Batch Size; bucket de resolución más alto; "
                                           "para vídeo, Num Frames.")
    assert build_snippet(blocks, "fr").count("\u202f;") == 2  # French: a narrow no-break space before ";"


def test_a_lead_without_its_continuation_is_left_out() -> None:
    blocks = [{"kind": "paragraph", "text": "Dangerous by default:"}, {"kind": "code", "code": "x"},
              {"kind": "paragraph", "text": "A useful mental model."}]
    assert build_snippet(blocks, "en") == "A useful mental model."


def test_a_long_text_is_cut_after_its_last_whole_sentence() -> None:
    first = "One sentence that fits. "
    text = first + "Another one " + "that goes on " * 30 + "and ends."
    assert build_snippet([{"kind": "paragraph", "text": text}], "en") == first.strip()


def test_a_first_sentence_too_long_ends_on_a_word_and_an_ellipsis() -> None:
    text = "word, " * 60 + "end."
    snippet = build_snippet([{"kind": "paragraph", "text": text}], "en")
    assert snippet.endswith("word…") and len(snippet) <= SNIPPET_LIMIT


@pytest.mark.parametrize("lang", LANGS)
def test_faq_entries_link_to_their_own_anchor(index: Index, lang: str) -> None:
    for faq_id, entry in index.faq.items():
        url = faq_url(index, lang, faq_id)
        assert url == f"/help/{lang}/{index.sections[entry.section]}#{faq_id}"
        assert render_faq_entry(index, entry, lang)["url"] == url
        assert render_search_hit(index, lang, "faq", faq_id, 1.0)["url"] == url
