"""Export one answer with its citations: a Markdown string and a DOCX file.

Why here and not in the page: the lawyer's copy must read the same wherever it is made (chat page,
CLI, tests), and the passages are untrusted text, so escaping lives next to the export that needs
it. ``escape_markdown`` is also what the app uses to show untrusted text as inert Markdown.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, is_dataclass
from typing import Any

from rag_core.chunking import CLAUSE_LABEL_MAX_CHARS
from rag_core.models import Citation

# Every ASCII punctuation character may be backslash-escaped in CommonMark; escaping all of them
# defuses links, autolinks, images, HTML, emphasis, headings, lists, tables, math ($) and
# Streamlit's :directives[]. Used for what the app renders (nobody sees the backslashes).
_MD_ALL = re.compile(r"([!-/:-@\[-`{-~])")
# The lighter set for exported files a person may read raw: the characters that start markup,
# plus the "://" and "www." of autolinks (the dot of "1.5%" stays clean).
_MD_MARKUP = re.compile(r"([\\`*_{}\[\]<>#|~$!@])")
_BULLET = re.compile(r"(?m)^(\s*)([-+])(?=\s)")
_ORDERED = re.compile(r"(?m)^(\s*)(\d+)([.)])(?=\s)")
_AUTOLINK = re.compile(r"(?i)(?<=[a-z])(:)(?=//)|(?<=www)(\.)")
# GitHub-flavoured Markdown turns bare "https://…", "www.…" and "name@host" into links even when
# their punctuation is escaped. An invisible word joiner (U+2060) after the scheme's letters, after
# "www" and after "@" breaks those patterns; the text reads and wraps the same.
WORD_JOINER = "\u2060"
_LITERAL_LINK = re.compile(r"(?i)(?<=[a-z])(?=\\:)|(?<=www)(?=\\\.)|(?<=\\@)")

LABELS: dict[str, dict[str, str]] = {
    "zh": {
        "title": "合同问答",
        "question": "问题",
        "answer": "回答",
        "sources": "引用的条款",
        "page": "第 {page} 页",
        "pages": "第 {first}–{last} 页",
        "section": "章节 {page}",
        "clause": "条款",
        "exported": "导出时间",
        "kbs": "知识库",
    },
    "en": {
        "title": "Contract answer",
        "question": "Question",
        "answer": "Answer",
        "sources": "Cited clauses",
        "page": "page {page}",
        "pages": "pages {first}–{last}",
        "section": "section {page}",
        "clause": "clause",
        "exported": "Exported",
        "kbs": "Knowledge bases",
    },
}


def escape_markdown(text: str, keep_newlines: bool = True, light: bool = False) -> str:
    """``text`` rendered literally by any Markdown renderer: no links, HTML, emphasis or math.

    Newlines become hard line breaks so contract lines stay apart; with ``keep_newlines=False``
    they become spaces (for one-line labels). ``light`` escapes only what starts markup, for
    files a person may also read raw.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if light:
        escaped = _AUTOLINK.sub(r"\\\1\2", _MD_MARKUP.sub(r"\\\1", text))
        escaped = _BULLET.sub(r"\1\\\2", escaped)
        escaped = _ORDERED.sub(r"\1\2\\\3", escaped)
    else:
        escaped = _LITERAL_LINK.sub(WORD_JOINER, _MD_ALL.sub(r"\\\1", text))
    if not keep_newlines:
        return " ".join(escaped.split())
    return "  \n".join(escaped.split("\n"))


def _as_dict(c: Citation | Mapping[str, Any]) -> dict[str, Any]:
    if is_dataclass(c) and not isinstance(c, type):
        return asdict(c)
    return dict(c)  # type: ignore[arg-type]


def _page_number(page: Any) -> int | None:
    if isinstance(page, int) and not isinstance(page, bool):
        return page
    if isinstance(page, str) and page.isdigit():
        return int(page)
    return None


def page_text(page: Any, page_end: Any, language: str) -> str:
    """ "第 3 页", or "第 1–2 页" for a passage running over two pages; "" without a page number."""
    first, last = _page_number(page), _page_number(page_end)
    if first is None:
        return ""
    lab = LABELS["zh" if language == "zh" else "en"]
    if last is not None and last > first:
        return lab["pages"].format(first=first, last=last)
    return lab["page"].format(page=first)


_LABEL_PARTS = re.compile(r"( > |; )")


def clause_display(clause: str) -> str:
    """A clause path for reading: a heading the chunker cut at ``CLAUSE_LABEL_MAX_CHARS`` ends at a
    word with "…" instead of mid-word.

    Why: a numbered sub-clause whose heading line is its first sentence was shown as "3.1 Licensee
    shall pay Licensor an annual license fee of USD" and "… within thir" in citations and panels
    (browser try-out). The stored label stays as it is: it is also the chunk's embedding header."""
    parts = _LABEL_PARTS.split(clause)
    for i in range(0, len(parts), 2):
        part = parts[i]
        if len(part) < CLAUSE_LABEL_MAX_CHARS - 1:
            continue
        space = part.rfind(" ", CLAUSE_LABEL_MAX_CHARS // 2)
        parts[i] = (part[:space] if space > 0 else part).rstrip(" ,;:") + "…"
    return "".join(parts)


CONVERSATION_TITLE_CHARS = 40
"""Longest conversation title made from a first question (characters, "…" included)."""


def conversation_title(question: str, limit: int = CONVERSATION_TITLE_CHARS) -> str:
    """A conversation's title from its first question: whitespace collapsed, and a question longer
    than ``limit`` cut at a word (a space) in its second half with "…", or at ``limit`` when it has
    no space there (Chinese).

    Why: the sidebar and the page head read "The annual license fee is USD 60,000, ri" (browser
    try-out): a title cut mid-word reads as a typo in the lawyer's own question."""
    text = " ".join(question.split())
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    space = head.rfind(" ", limit // 2)
    return (head[:space] if space > 0 else head).rstrip(" ,;:，；：、") + "…"


def where_label(page: Any, clause: str, language: str, page_end: Any = None) -> str:
    """ "page 3 · 第五条 违约责任" (PDF page number or range, or DOCX section anchor, and the
    clause path). A section the clause path already starts with is not repeated: a Word contract's
    citation read "章节 第五条 工期延误 · 第五条 工期延误" (session 31 browser)."""
    lab = LABELS["zh" if language == "zh" else "en"]
    parts: list[str] = []
    if _page_number(page) is not None:
        parts.append(page_text(page, page_end, language))
    elif page and not (clause and clause.startswith(str(page))):
        parts.append(lab["section"].format(page=page))
    if clause:
        parts.append(clause_display(clause))
    return " · ".join(parts)


def source_label(doc: str, where: str) -> str:
    """ "lease.txt · 第五条 违约责任", or the file name alone when nothing locates the passage.

    Why: a title block of a text file has no page and no clause, and the citation read
    "[1] 股权转让协议.txt ·" with nothing after the dot (browser try-out)."""
    return f"{doc} · {where}" if where else doc


def answer_markdown(
    question: str,
    answer: str,
    citations: Sequence[Citation | Mapping[str, Any]],
    language: str = "zh",
    meta: Mapping[str, str] | None = None,
) -> str:
    """The answer as a Markdown document: question, answer, then each cited passage quoted.

    Question, answer and passages are escaped: the file may be opened in a renderer that would
    otherwise follow links or run HTML planted in a contract.
    """
    lab = LABELS["zh" if language == "zh" else "en"]
    lines = [f"# {lab['title']}", ""]
    for key, value in (meta or {}).items():
        lines.append(
            f"- {escape_markdown(key, False, light=True)}: {escape_markdown(value, False, light=True)}"
        )
    if meta:
        lines.append("")
    lines += [f"## {lab['question']}", "", escape_markdown(question.strip(), light=True), ""]
    lines += [f"## {lab['answer']}", "", escape_markdown(answer.strip(), light=True), ""]
    cits = [_as_dict(c) for c in citations]
    if cits:
        lines += [f"## {lab['sources']}", ""]
        for c in cits:
            where = where_label(c.get("page"), str(c.get("clause", "")), language, c.get("page_end"))
            head = (
                f"**\\[{int(c.get('n', 0))}\\]** {escape_markdown(str(c.get('doc', '')), False, light=True)}"
            )
            if where:
                head += f" — {escape_markdown(where, False, light=True)}"
            lines += [head, ""]
            body = escape_markdown(str(c.get("text", "")).strip(), keep_newlines=False, light=True)
            lines += [f"> {body}", ""]
    return "\n".join(lines).rstrip() + "\n"


def answer_docx(
    question: str,
    answer: str,
    citations: Sequence[Citation | Mapping[str, Any]],
    language: str = "zh",
    meta: Mapping[str, str] | None = None,
) -> bytes:
    """The same content as a Word document (python-docx); passages as indented quotes."""
    from docx import Document as DocxDocument
    from docx.oxml.ns import qn
    from docx.shared import Pt

    lab = LABELS["zh" if language == "zh" else "en"]
    doc = DocxDocument()
    normal = doc.styles["Normal"]
    normal.font.size = Pt(11)
    # East-Asian text needs an East-Asian font slot, or Word falls back to a font without CJK glyphs.
    rpr = normal.element.get_or_add_rPr()
    fonts = rpr.find(qn("w:rFonts"))
    if fonts is None:
        fonts = rpr.makeelement(qn("w:rFonts"), {})
        rpr.append(fonts)
    fonts.set(qn("w:eastAsia"), "SimSun")
    doc.add_heading(lab["title"], level=1)
    for key, value in (meta or {}).items():
        doc.add_paragraph(f"{key}: {value}")
    doc.add_heading(lab["question"], level=2)
    doc.add_paragraph(_clean(question.strip()))
    doc.add_heading(lab["answer"], level=2)
    for para in _clean(answer.strip()).split("\n"):
        doc.add_paragraph(para)
    cits = [_as_dict(c) for c in citations]
    if cits:
        doc.add_heading(lab["sources"], level=2)
        for c in cits:
            where = where_label(c.get("page"), str(c.get("clause", "")), language, c.get("page_end"))
            p = doc.add_paragraph()
            p.add_run(f"[{int(c.get('n', 0))}] ").bold = True
            p.add_run(_clean(str(c.get("doc", ""))) + (f" — {where}" if where else ""))
            quote = doc.add_paragraph(_clean(str(c.get("text", "")).strip()))
            quote.paragraph_format.left_indent = Pt(18)
            for run in quote.runs:
                run.italic = True
    buf = io.BytesIO()
    doc.save(buf)
    return buf.getvalue()


_XML_BAD = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def _clean(text: str) -> str:
    """Drop control characters XML (and so DOCX) cannot hold."""
    return _XML_BAD.sub("", text)
