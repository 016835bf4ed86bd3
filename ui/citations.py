"""The citation viewer: the cited passage with the sentences the answer rests on marked, its page
range, and for PDFs the page image where those sentences are, marked.

Why the marks come first: a citation shows what the lawyer must check. The sentences of the passage
that the answer's ``[n]`` sentences state (``rag_core.citation_spans``) are highlighted and shown in
their immediate context; the whole passage is one toggle away. When no sentence can be matched,
the retrieved child spans (or the passage) are marked instead, and the caption says which it is.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import streamlit as st

from rag_core.citation_spans import clip, resting_clauses, resting_spans, sentence_spans
from rag_core.export import source_label, where_label
from rag_core.render import page_range
from rag_core.trace import Trace
from ui import state
from ui.components import safe, show_error
from ui.i18n import lang, t

CONTEXT_SENTENCES = 1
"""Sentences of context shown before and after the marked ones in the passage excerpt."""


def highlight(text: str, spans: Sequence[tuple[int, int]]) -> str:
    """``text`` escaped, with the character ranges ``spans`` (relative offsets) highlighted."""
    marks = sorted((max(0, a), min(len(text), b)) for a, b in spans if b > a)
    out: list[str] = []
    pos = 0
    for a, b in marks:
        if a < pos:
            a = pos
        if b <= a:
            continue
        out.append(safe(text[pos:a]))
        lines = text[a:b].split("\n")
        out.append(
            "  \n".join(
                f":orange-background[**{safe(line.strip())}**]" if line.strip() else "" for line in lines
            )
        )
        pos = b
    out.append(safe(text[pos:]))
    return "".join(out)


def cited_marks(
    citation: Mapping[str, Any], trace: Trace, answer: str, min_share: float
) -> tuple[list[tuple[int, int]], str]:
    """Document ranges to mark in a cited passage and what they are: the sentences the answer
    rests on ("answer"), else the retrieved child spans ("retrieved"), else the passage."""
    start = int(citation.get("start", 0))
    end = int(citation.get("end", start))
    text = str(citation.get("text", ""))
    rest = resting_spans(answer, int(citation.get("n", 0)), text, start, min_share) if answer else []
    if rest:
        return rest, "answer"
    block = trace.block(int(citation.get("n", 0)))
    children = [(c.start, c.end) for c in block.children] if block else []
    return clip(children, start, end) or [(start, end)], "retrieved"


def excerpt(text: str, marks: Sequence[tuple[int, int]]) -> tuple[int, int]:
    """The part of ``text`` (relative offsets) holding the marks with a sentence of context each side."""
    sentences = sentence_spans(text)
    if not marks or not sentences:
        return 0, len(text)
    lo, hi = min(a for a, _ in marks), max(b for _, b in marks)
    first = next((i for i, (_, b) in enumerate(sentences) if b > lo), 0)
    last = max((i for i, (a, _) in enumerate(sentences) if a < hi), default=len(sentences) - 1)
    first = max(0, first - CONTEXT_SENTENCES)
    last = min(len(sentences) - 1, last + CONTEXT_SENTENCES)
    return sentences[first][0], sentences[last][1]


def _pdf_info(citation: Mapping[str, Any]) -> tuple[list[dict[str, Any]], str] | None:
    """(page spans, document text) of the cited document when it is a PDF."""
    doc_id = str(citation.get("doc_id", ""))
    if not doc_id:
        return None
    file_type, spans_json = state.document_info(str(state.home()), doc_id)
    if file_type != "pdf":
        return None
    return json.loads(spans_json), state.document_text(str(state.home()), doc_id)


def citation_viewer(citation: Mapping[str, Any], trace: Trace, key: str, answer: str = "") -> None:
    """One cited passage: document, page range, clause, the passage with what the answer rests on
    marked, and for PDFs the page image of the marked sentences."""
    n = int(citation.get("n", 0))
    start = int(citation.get("start", 0))
    end = int(citation.get("end", start))
    pdf = _pdf_info(citation)
    pages = page_range(pdf[0], pdf[1], start, end) if pdf else None
    first, last = pages if pages else (citation.get("page"), citation.get("page_end"))
    min_share = state.settings().generation.highlight_min_overlap
    marks, what = cited_marks(citation, trace, answer, min_share)
    text = str(citation.get("text", ""))
    clause = str(citation.get("clause", ""))
    if what == "answer":  # name the clause the answer rests on, not every clause of the parent
        clause = resting_clauses(text, clause, start, marks)
    where = where_label(first, clause, lang(), last)
    head = f"\\[{n}\\] {safe(source_label(str(citation.get('doc', '')), where), False)}"
    with st.expander(head):
        block = trace.block(n)
        if block and block.conflicting:
            st.warning(t("conflict_passage"), icon=":material/balance:")
        rel = [(a - start, b - start) for a, b in marks]
        st.caption(t("cited_answer_hint" if what == "answer" else "cited_span_hint"))
        whole_text = st.toggle(t("passage_whole"), key=f"{key}_text")
        lo, hi = (0, len(text)) if whole_text else excerpt(text, rel)
        shown = highlight(text[lo:hi], [(a - lo, b - lo) for a, b in rel])
        st.markdown(("… " if lo > 0 else "") + shown + (" …" if hi < len(text) else ""))
        if pdf:
            _page_image(citation, pdf, marks, key)


def _page_image(
    citation: Mapping[str, Any], pdf: tuple[list[dict[str, Any]], str], marks: list[tuple[int, int]], key: str
) -> None:
    """The page image of the marks (a choice of page when they run over several pages)."""
    spans, doc_text = pdf
    doc_id = str(citation.get("doc_id", ""))
    start = int(citation.get("start", 0))
    end = int(citation.get("end", start))
    covered = [r for a, b in marks if (r := page_range(spans, doc_text, a, b))]
    pages = sorted({p for lo, hi in covered for p in range(lo, hi + 1)})
    page = pages[0] if pages else None
    c1, c2 = st.columns([3, 2])
    if len(pages) > 1:
        page = c1.segmented_control(
            t("page_pick"),
            pages,
            default=pages[0],
            format_func=lambda p: t("page_image", page=p),
            key=f"{key}_pg",
        )
        page = page or pages[0]
    whole = c2.toggle(t("page_whole"), key=f"{key}_whole")
    try:
        png, shown_page, marked, _note = state.rendered_page(
            str(state.home()), doc_id, json.dumps(spans), start, end, not whole, tuple(marks), page
        )
    except Exception as err:  # a page that cannot be drawn must not hide the passage text
        show_error(err)
        return
    st.image(
        png,
        output_format="PNG",
        caption=t("page_image", page=shown_page) + ("" if marked else " · " + t("page_not_marked")),
    )


def citations_block(citations: Sequence[Mapping[str, Any]], trace: Trace, key: str, answer: str = "") -> None:
    """Every citation of an answer; ``answer`` (its text) says which sentences each one backs."""
    if not citations:
        return
    st.markdown(f"**{t('citations_title')}**")
    for c in citations:
        citation_viewer(c, trace, key=f"{key}_c{c.get('n')}", answer=answer)
