"""Localized views of the content: the guide, symptoms, steps, FAQ and risk table as JSON-ready dicts.

Views are pure functions of (index, lang); the HTTP layer renders them once per language at start-up.
"""

from __future__ import annotations

import re
from typing import Any

from ..content.models import Block, FaqEntry, Guide, LanguageText, ListBlock, TableBlock, TableText, TextBlock
from ..index.build import Index, choose

View = dict[str, Any]


def help_url(lang: str, guide_id: str, anchor: str | None = None) -> str:
    return f"/help/{lang}/{guide_id}" + (f"#{anchor}" if anchor else "")


def section_url(index: Index, lang: str, section_id: str) -> str:
    return help_url(lang, index.sections[section_id], section_id)


def faq_url(index: Index, lang: str, faq_id: str) -> str:
    """An FAQ entry's own anchor on the help page (each entry carries its id)."""
    return help_url(lang, index.sections[index.faq[faq_id].section], faq_id)


def render_guide(index: Index, guide: Guide, lang: str) -> View:
    """The whole guide: every section and block, with its text in `lang`."""
    text = index.texts[lang]
    gtext = text.guides[guide.id]
    sections = []
    for sec in guide.sections:
        stext = gtext.sections[sec.id]
        sections.append({
            "id": sec.id,
            "title": stext.get("title") if sec.titled else None,
            "url": help_url(lang, guide.id, sec.id),
            "blocks": [_block(index, text, stext, block) for block in sec.blocks],
        })
    return {
        "id": guide.id,
        "title": gtext.title,
        "title_variants": list(gtext.title_variants),
        "url": help_url(lang, guide.id),
        "sections": sections,
    }


def render_guide_summary(index: Index, guide: Guide, lang: str) -> View:
    gtext = index.texts[lang].guides[guide.id]
    return {"id": guide.id, "title": gtext.title, "url": help_url(lang, guide.id),
            "sections": [s.id for s in guide.sections]}


def _block(index: Index, text: LanguageText, stext: Any, block: Block) -> View:
    if isinstance(block, TextBlock):
        return {"kind": block.kind, "text": stext[block.text]}
    if isinstance(block, ListBlock):
        out: View = {"kind": block.kind, "items": list(stext[block.text])}
        if block.kind == "ordered_list":
            out["start"] = block.start
        return out
    if isinstance(block, TableBlock):
        table: TableText = stext[block.text]
        return {
            "kind": "table",
            "columns": [{"id": c, "label": label} for c, label in zip(block.columns, table.header, strict=True)],
            "rows": [{"id": row, "cells": list(table.rows[row])} for row in block.rows],
        }
    if block.kind == "code":
        return {"kind": "code", "language": block.language, "code": block.code}
    return {"kind": "faq", "entries": [render_faq_entry(index, index.faq[e], text.lang) for e in block.entries]}


def render_answer_blocks(stext: Any, blocks: tuple[TextBlock | ListBlock, ...]) -> list[View]:
    out: list[View] = []
    for block in blocks:
        if isinstance(block, ListBlock):
            out.append({"kind": block.kind, "items": list(stext[block.text])})
        else:
            out.append({"kind": block.kind, "text": stext[block.text]})
    return out


def render_faq_entry(index: Index, entry: FaqEntry, lang: str) -> View:
    ftext = index.texts[lang].faq[entry.id]
    return {
        "id": entry.id,
        "question": ftext["question"],
        "answer": render_answer_blocks(ftext, entry.blocks),
        "symptom": entry.symptom,
        "related": list(entry.related),
        "url": faq_url(index, lang, entry.id),
    }


def render_symptom(index: Index, symptom_id: str, lang: str) -> View:
    compiled = index.symptoms[symptom_id]
    sym = compiled.symptom
    stext = index.texts[lang].symptoms[symptom_id]
    return {
        "id": sym.id,
        "title": stext.title,
        "description": stext.description,
        "implies": dict(sym.implies),
        "steps": list(dict.fromkeys(item.step.step.id for item in compiled.plan)),
        "related": list(sym.related),
        "url": section_url(index, lang, sym.section),
    }


def render_step(index: Index, step_id: str, lang: str) -> View:
    step = index.steps[step_id].step
    stext = index.texts[lang].steps[step_id]
    return {
        "id": step.id,
        "title": stext.title,
        "detail": general_detail(index, lang, step_id),
        "ui_path": list(step.ui_path),
        "config_patch": step.patch,
        "source": source_of(index, lang, step.section),
    }


def general_detail(index: Index, lang: str, step_id: str) -> str:
    """A step's detail when nothing is known of the job: the variants whose conditions hold on no facts."""
    detail = index.texts[lang].steps[step_id].detail
    if isinstance(detail, str):
        return detail
    parts = (choose(part, {}) for part in index.steps[step_id].details)
    return " ".join(detail[v] for v in parts if v is not None)


def risk_table_row(index: Index, lang: str, family_id: str) -> tuple[str, ...] | None:
    """The guide's risk-table cells of a family, in `lang`: (name, high risk with GC off, safest first attempt)."""
    found = index.risk_table
    if found is None:
        return None
    guide, section, block = found
    table = index.texts[lang].guides[guide.id].sections[section][block.text]
    return table.rows.get(family_id) if isinstance(table, TableText) else None


def render_topic(index: Index, lang: str, kind: str, ident: str, confidence: float) -> View:
    """The diagnose answer's `topic`: an FAQ entry or a guide section that answers the question, with its text."""
    text = index.texts[lang]
    if kind == "faq":
        entry = render_faq_entry(index, index.faq[ident], lang)
        title, blocks, url = entry["question"], entry["answer"], entry["url"]
    else:
        guide_id = index.sections[ident]
        guide = index.guides[guide_id]
        section = next(sec for sec in guide.sections if sec.id == ident)
        stext = text.guides[guide_id].sections[ident]
        raw_title = stext.get("title")
        title = raw_title if isinstance(raw_title, str) else text.guides[guide_id].title
        blocks = [_block(index, text, stext, block) for block in section.blocks if block.kind != "faq"]
        url = section_url(index, lang, ident)
    lines: list[str] = []
    for block in blocks:
        if "text" in block:
            lines.append(block["text"])
        lines.extend(f"- {item}" for item in block.get("items", ()))
        lines.extend(f"- {' | '.join(row['cells'])}" for row in block.get("rows", ()))
    return {"kind": kind, "id": ident, "title": title, "text": "\n".join(lines), "url": url,
            "confidence": confidence}


def source_of(index: Index, lang: str, section_id: str) -> View:
    return {"guide": index.sections[section_id], "section": section_id,
            "url": section_url(index, lang, section_id)}


def render_risk_table(index: Index, lang: str) -> View:
    """The guide's risk table with each family's machine-readable thresholds (the risk rules)."""
    guide_table = index.risk_table
    text = index.texts[lang]
    if guide_table is None:
        return {"columns": [], "rows": []}
    guide, section, block = guide_table
    table: TableText = text.guides[guide.id].sections[section][block.text]  # type: ignore[assignment]
    rows = []
    for family_id in block.rows:
        family = index.families[family_id]
        rows.append({
            "family": family_id,
            "name": text.families[family_id].name,
            "cells": list(table.rows[family_id]),
            "safe_batch": family.safe_batch,
            "arch": list(family.arch),
            "rules": [
                {"id": r.rule.id, "level": r.rule.level, "when": r.rule.when}
                for r in index.risk
                if r.rule.when.get("family") == {"eq": family_id}
            ],
        })
    return {
        "columns": [{"id": c, "label": label} for c, label in zip(block.columns, table.header, strict=True)],
        "rows": rows,
        "url": section_url(index, lang, section),
    }


SNIPPET_LIMIT = 200
_SENTENCE_END = re.compile(r"[.!?…。](?:[\"'»”)]*)(?=\s|$)")
# How the items of a list read after its lead ("Your next levers are: a; b; c."), per language.
_ITEM_SEPARATOR = {"fr": "\u202f; ", "ko": ", "}


def _units(blocks: list[View], lang: str) -> list[str]:
    """The blocks as complete statements: a lead ending on a colon is read with what follows it (the list, the
    quote, the table's first column); a list's items are joined into one sentence, the steps of a checklist or
    numbered list each end as a sentence; code is left out, a lead left without its continuation is dropped,
    and a heading ends the snippet's topic."""
    units: list[str] = []
    for block in blocks:
        kind = block.get("kind")
        items = [i.strip() for i in block.get("items", ()) if i.strip()]
        if kind == "table":
            items = [row["cells"][0] for row in block["rows"]]
        if items and kind in ("checklist", "ordered_list"):
            unit = " ".join(i if _SENTENCE_END.search(i) else i + "." for i in items)
        elif items:
            unit = _ITEM_SEPARATOR.get(lang, "; ").join(items) + "."
        elif kind in ("paragraph", "callout", "quote") and block.get("text"):
            unit = block["text"].strip()
        else:
            if units and units[-1].endswith(":"):
                units.pop()
            if kind == "heading" and units:
                break  # a heading starts another topic: the snippet stays on the first one
            continue
        if units and units[-1].endswith(":"):
            units[-1] = f"{units[-1]} {unit}"
        else:
            units.append(unit)
    return [u for u in units if not u.endswith(":")]


def build_snippet(blocks: list[View], lang: str, limit: int = SNIPPET_LIMIT) -> str:
    """A snippet that ends on a complete sentence, or, when even the first sentence is too long, on a word
    and a real ellipsis; never on a colon.

    >>> build_snippet([{"kind": "paragraph", "text": "Your next levers are:"},
    ...                {"kind": "list", "items": ["Batch Size", "highest bucket"]}], "en")
    'Your next levers are: Batch Size; highest bucket.'
    """
    text = " ".join(_units(blocks, lang))
    if len(text) <= limit:
        return text
    ends = [m.end() for m in _SENTENCE_END.finditer(text, 0, limit + 1) if m.end() <= limit]
    if ends:
        return text[: ends[-1]]
    cut = text[: limit - 1].rsplit(" ", 1)[0].rstrip(" ,;:–—-\u00a0\u202f")
    return cut + "…"


def render_search_hit(index: Index, lang: str, kind: str, ident: str, score: float) -> View:
    """One search hit: the target's title, a short snippet and the help-page link, in `lang`."""
    text = index.texts[lang]
    blocks: list[View]
    if kind == "symptom":
        sym = text.symptoms[ident]
        title, blocks = sym.title, [{"kind": "paragraph", "text": sym.description}]
        url = section_url(index, lang, index.symptoms[ident].symptom.section)
    elif kind == "faq":
        entry = render_faq_entry(index, index.faq[ident], lang)
        title, blocks, url = entry["question"], entry["answer"], entry["url"]
    elif kind == "step":
        title = text.steps[ident].title
        blocks = [{"kind": "paragraph", "text": general_detail(index, lang, ident)}]
        url = section_url(index, lang, index.steps[ident].step.section)
    else:
        guide_id = index.sections[ident]
        stext = text.guides[guide_id].sections[ident]
        raw_title = stext.get("title")
        title = raw_title if isinstance(raw_title, str) else text.guides[guide_id].title
        section = next(s for s in index.guides[guide_id].sections if s.id == ident)
        blocks = []
        for block in section.blocks:
            view = _block(index, text, stext, block)
            if view["kind"] == "faq":  # the FAQ section: its questions say what it answers
                blocks.extend({"kind": "paragraph", "text": e["question"]} for e in view["entries"])
            else:
                blocks.append(view)
        url = section_url(index, lang, ident)
    snippet = build_snippet(blocks, lang) or title
    return {"kind": kind, "id": ident, "title": title, "snippet": snippet, "score": score, "url": url}
