"""Answer export: Markdown escapes untrusted text, DOCX opens and holds question, answer and sources."""

from __future__ import annotations

import io
import re

from rag_core.export import (
    CONVERSATION_TITLE_CHARS,
    answer_docx,
    answer_markdown,
    conversation_title,
    escape_markdown,
)
from rag_core.models import Citation

CITS = [
    Citation(1, "zh_lease.pdf", 3, "第六条 违约金", 10, 40, "违约金为合同总额的10%。"),
    Citation(2, "evil.pdf", None, "", 0, 9, "[click](http://evil.example/x) <img src=x> **bold**"),
]


def test_escape_markdown_defuses_markup() -> None:
    out = escape_markdown("[a](http://x.y) <b> *c* $d$ :red[e] # f")
    for raw in (r"\[", r"\]", r"\(", "<", r"\*", r"\$", ":", "#"):
        assert re.search(rf"(?<!\\){raw}", out) is None, raw
    assert escape_markdown("line1\nline2").count("  \n") == 1
    assert "\n" not in escape_markdown("a\nb", keep_newlines=False)


def test_light_escape_keeps_plain_text_readable() -> None:
    out = escape_markdown("USD 12,500 at 1.5% [x](https://e.com) www.e.com\n- item\n1. first", light=True)
    assert "12,500" in out and "1.5%" in out
    assert "](https://" not in out and "www.e" not in out.replace("www\\.e", "")
    assert "\\- item" in out and "1\\. first" in out


def test_markdown_has_question_answer_and_sources() -> None:
    md = answer_markdown("违约金是多少？", "违约金为合同总额的10%。[1]", CITS, "zh", {"知识库": "租赁"})
    assert "## 问题" in md and "## 回答" in md and "## 引用的条款" in md
    assert "违约金为合同总额的10%" in md
    assert "zh\\_lease.pdf" in md and "第 3 页" in md and "第六条 违约金" in md
    assert re.search(r"(?<!\\)[\[<]", md.split("## 引用的条款")[1]) is None


def test_docx_roundtrip() -> None:
    from docx import Document

    data = answer_docx("What is the fee?", "USD 12,500 per month [1].", CITS, "en")
    assert data[:2] == b"PK"
    text = "\n".join(p.text for p in Document(io.BytesIO(data)).paragraphs)
    assert "What is the fee?" in text and "USD 12,500 per month" in text
    assert "[1] zh_lease.pdf — page 3 · 第六条 违约金" in text
    assert "<img src=x>" in text  # DOCX is not a renderer: the text is kept verbatim


def test_docx_drops_control_characters() -> None:
    data = answer_docx("q\x00", "a\x07b", [], "en")
    assert data[:2] == b"PK"


def test_bare_urls_and_emails_cannot_become_links() -> None:
    """GFM links bare "https://", "www." and "a@b" even with escaped punctuation: an invisible word
    joiner breaks each pattern, and removing it gives back the text."""
    from rag_core.export import WORD_JOINER, escape_markdown

    text = "见 https://evil.example/x 与 www.evil.com 及 legal@evil.com，mailto:x"
    out = escape_markdown(text)
    assert "https" + WORD_JOINER + "\\:" in out and "www" + WORD_JOINER + "\\." in out
    assert "\\@" + WORD_JOINER + "evil" in out and "mailto" + WORD_JOINER in out
    plain = re.sub(r"\\(.)", r"\1", out.replace(WORD_JOINER, ""))
    assert plain == text
    assert WORD_JOINER not in escape_markdown("租金为1.5%，第7.2条")


def test_escape_markdown_defuses_images_and_links_from_documents() -> None:
    out = escape_markdown("见 ![logo](https://evil.example/logo.png) 与 [点击](https://evil.example/x)")
    assert "![" not in out and "](" not in out


def test_a_clause_heading_cut_by_the_chunker_ends_at_a_word() -> None:
    """The browser try-out showed "3.1 Licensee shall pay Licensor an annual license fee of USD" and
    "… within thir": a heading cut at CLAUSE_LABEL_MAX_CHARS is shown up to a word, with "…"."""
    from rag_core.chunking import CLAUSE_LABEL_MAX_CHARS
    from rag_core.export import clause_display, where_label

    cut = "3.2 Annual fees are payable in advance and invoices are due within thirty"[:CLAUSE_LABEL_MAX_CHARS]
    shown = clause_display(f"3. FEES AND PAYMENT > {cut}; 第四条 押金")
    assert (
        shown
        == "3. FEES AND PAYMENT > 3.2 Annual fees are payable in advance and invoices are due…; 第四条 押金"
    )
    assert clause_display("第三条 租金及支付方式") == "第三条 租金及支付方式"
    assert where_label(2, cut, "en").endswith("due…")


def test_a_passage_with_no_page_or_clause_is_named_by_its_file_alone() -> None:
    """A text file's title block has neither: the citation read "[1] 股权转让协议.txt ·"."""
    from rag_core.export import source_label, where_label

    assert source_label("股权转让协议.txt", where_label(None, "", "zh")) == "股权转让协议.txt"
    assert source_label("lease.pdf", where_label(3, "第五条 违约责任", "zh")).startswith("lease.pdf · ")


def test_conversation_title_cuts_at_a_word() -> None:
    """The first question becomes the title; a long English one ends at a word with "…" (the
    sidebar read "… USD 60,000, ri"), a long Chinese one at the limit, a short one unchanged."""
    en = conversation_title("The annual license fee is USD 60,000, right? Please check clause 3.1.")
    assert en == "The annual license fee is USD 60,000…"
    assert len(en) <= CONVERSATION_TITLE_CHARS
    zh = conversation_title(
        "这份租赁合同约定的押金是多少？押金在租赁期满后多少天内退还？如果房屋有损坏可以扣多少押金？"
    )
    assert zh.endswith("…") and len(zh) == CONVERSATION_TITLE_CHARS
    assert conversation_title("  押金是多少？\n ") == "押金是多少？"


def test_a_word_section_the_clause_path_starts_with_is_not_repeated() -> None:
    """A Word contract's citation read "章节 第五条 工期延误 · 第五条 工期延误" (session 31 browser)."""
    from rag_core.export import where_label

    assert where_label("第五条 工期延误", "第五条 工期延误", "zh") == "第五条 工期延误"
    assert where_label("第二章 费用", "第二章 费用 > 第三条 价款", "zh") == "第二章 费用 > 第三条 价款"
    assert where_label("2 Fees", "", "en") == "section 2 Fees"
    assert where_label("2 Fees", "3 Governing Law", "en") == "section 2 Fees · 3 Governing Law"
