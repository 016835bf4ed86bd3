"""Extraction of real generated documents: text, page/section spans, encodings, titles, failures."""

from __future__ import annotations

import io
import unicodedata
from pathlib import Path

import pytest

from rag_core.errors import IngestError
from rag_core.ingest.extract import (
    ANCHOR_SEPARATOR,
    KANGXI_RADICALS,
    PAGE_SEPARATOR,
    RADICALS_SUPPLEMENT,
    _PdfPages,
    better_pdf_text,
    character_disagreement,
    choose_title,
    clean_page_text,
    extract,
    first_short_line,
    garbled_share,
    normalize_cjk,
    read_pdfium,
    read_pypdf,
    take_disputed_pages,
)
from rag_core.models import ExtractedDocument
from rag_core.settings import IngestSettings
from tests.fixtures import make_docs

DEFAULTS = IngestSettings()


@pytest.fixture(scope="module")
def docs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return make_docs.write_all(tmp_path_factory.mktemp("docs"))


def _extract(path: Path, settings: IngestSettings = DEFAULTS) -> ExtractedDocument:
    return extract(path.read_bytes(), path.name, settings)


def _squash(text: str) -> str:
    """Text without whitespace: PDF layout wraps lines where it likes."""
    return "".join(text.split())


def _assert_spans_tile(doc: ExtractedDocument, separator: str) -> None:
    """Spans are ordered, inside the text, and separated exactly by ``separator``."""
    assert doc.spans[0].start == 0
    assert doc.spans[-1].end == len(doc.text)
    for left, right in zip(doc.spans, doc.spans[1:], strict=False):
        assert left.end <= right.start
        assert doc.text[left.end : right.start] == separator


# ------------------------------------------------------------------------------------------
# PDF
# ------------------------------------------------------------------------------------------


def test_chinese_pdf_text_pages_and_facts(docs: dict[str, Path]) -> None:
    doc = _extract(docs["zh_pdf"])
    assert doc.file_type == "pdf"
    assert doc.pages == len(make_docs.ZH_PAGES) == len(doc.spans)
    assert [s.page for s in doc.spans] == [1, 2, 3]
    assert doc.language == "zh"
    assert doc.title == make_docs.ZH_TITLE
    assert "\x00" not in doc.text
    squashed = _squash(doc.text)
    for fact in make_docs.ZH_FACTS.values():
        assert _squash(fact) in squashed
    _assert_spans_tile(doc, PAGE_SEPARATOR)
    for clause, page in make_docs.ZH_CLAUSE_PAGES.items():
        span = doc.spans[page - 1]
        assert clause in doc.text[span.start : span.end]


def test_chinese_pdf_garbling_is_repaired_and_noted(docs: dict[str, Path]) -> None:
    doc = _extract(docs["zh_pdf"])
    # fpdf2's CJK text layer really comes out NUL-interleaved from pypdf
    assert any("garbled" in note for note in doc.notes)
    assert garbled_share(doc.text) == 0.0


def test_pdf_with_radical_lookalikes_is_normalised(docs: dict[str, Path]) -> None:
    doc = _extract(docs["radical_pdf"])
    for _, expected in make_docs.GARBLED_CJK_PAIRS[1:]:
        assert expected in doc.text
    assert not any(0x2E80 <= ord(ch) <= 0x2FDF for ch in doc.text)


def test_english_pdf_text_pages_and_facts(docs: dict[str, Path]) -> None:
    doc = _extract(docs["en_pdf"])
    assert doc.pages == 3
    assert doc.language == "en"
    assert doc.title == make_docs.EN_TITLE
    assert doc.notes == []
    flat = " ".join(doc.text.split())
    for fact in make_docs.EN_FACTS.values():
        assert fact in flat
    _assert_spans_tile(doc, PAGE_SEPARATOR)
    page3 = doc.spans[2]
    assert "Governing Law" in doc.text[page3.start : page3.end]
    assert "Governing Law" not in doc.text[: page3.start]


def test_owner_only_encrypted_pdf_opens(tmp_path: Path) -> None:
    path = make_docs.write_encrypted_pdf(tmp_path, "owner_only.pdf", user_password="")
    doc = _extract(path)
    assert make_docs.EN_FACTS["law"] in " ".join(doc.text.split())


def test_pdfium_reads_the_same_text_cleanly(docs: dict[str, Path]) -> None:
    pages = [clean_page_text(p) for p in read_pdfium(docs["zh_pdf"].read_bytes(), "zh.pdf").pages]
    assert len(pages) == 3
    assert "\r" not in "".join(pages)
    assert _squash(make_docs.ZH_FACTS["rent"]) in _squash(pages[1])


def test_a_page_pypdf_misreads_is_read_by_pdfium(tmp_path: Path) -> None:
    path = make_docs.write_zh_partnership_pdf(tmp_path)
    doc = _extract(path)
    squashed = _squash(doc.text)
    for line in make_docs.PARTNERSHIP_PAGES[1]:
        assert _squash(line) in squashed
    assert "合合" not in squashed
    assert any(getattr(note, "code", "") == "pdf_pages_disputed" for note in doc.notes)
    assert [s.page for s in doc.spans] == [1, 2]


def test_disputed_pages_are_replaced_and_agreeing_ones_kept() -> None:
    clean, misread = "第九条 争议解决", "第九条 争议合合合"
    layout_only = "第一条\n合伙目的"
    ours = _PdfPages(pages=[layout_only, misread], source="pypdf", title="")
    theirs = _PdfPages(pages=["第一条 合伙目的", clean], source="pypdfium2", title="")
    notes = take_disputed_pages(ours, theirs, DEFAULTS.engine_disagreement_ratio)
    assert ours.pages == [layout_only, clean]
    assert [getattr(note, "params", {}).get("pages") for note in notes] == ["2"]
    assert character_disagreement(layout_only, "第一条 合伙目的") == 0.0
    assert character_disagreement(misread, clean) > DEFAULTS.engine_disagreement_ratio
    assert character_disagreement("", "") == 0.0


def test_pdfium_word_break_marks_join_the_word() -> None:
    assert clean_page_text("Distinguished Encoding Rules (DER) manip\ufffeulation.") == (
        "Distinguished Encoding Rules (DER) manipulation."
    )
    assert clean_page_text("manip\ufffe\r\nulation") == "manipulation"


def test_ordinary_pdfs_read_the_same_with_both_engines(docs: dict[str, Path]) -> None:
    for key in ("zh_pdf", "en_pdf"):
        data = docs[key].read_bytes()
        ours, theirs = read_pypdf(data, key), read_pdfium(data, key)
        assert ours is not None
        for page, other in zip(ours.pages, theirs.pages, strict=True):
            disagreement = character_disagreement(clean_page_text(page), clean_page_text(other))
            assert disagreement <= DEFAULTS.engine_disagreement_ratio


def test_better_pdf_text_prefers_clean_then_longer() -> None:
    garbled = ["⺠\x00事" * 20]
    clean = ["民事责任"]
    assert better_pdf_text(clean, garbled)
    assert not better_pdf_text(garbled, clean)
    assert better_pdf_text(["民事责任与合同"], clean)


# ------------------------------------------------------------------------------------------
# DOCX
# ------------------------------------------------------------------------------------------


def test_docx_sections_anchors_and_order(docs: dict[str, Path]) -> None:
    doc = _extract(docs["docx"])
    assert doc.file_type == "docx"
    assert doc.title == make_docs.DOCX_TITLE
    anchors = [s.anchor for s in doc.spans]
    assert anchors == [
        "",
        "1 Definitions",
        "1 Definitions > 1.1 Software",
        "1 Definitions > 1.2 Term",
        "2 Fees",
        "3 Governing Law",
    ]
    assert doc.pages == len(doc.spans)
    assert all(s.page is None for s in doc.spans)
    for span in doc.spans[1:]:
        heading = span.anchor.split(ANCHOR_SEPARATOR)[-1]
        assert doc.text[span.start : span.end].startswith(heading)
    term = next(s for s in doc.spans if s.anchor.endswith("1.2 Term"))
    assert make_docs.DOCX_TERM_SENTENCE in doc.text[term.start : term.end]


def test_docx_table_rows_in_document_order(docs: dict[str, Path]) -> None:
    doc = _extract(docs["docx"])
    rows = [" | ".join(row) for row in make_docs.DOCX_TABLE]
    for row in rows:
        assert row + "\n" in doc.text + "\n"
    fees = next(s for s in doc.spans if s.anchor == "2 Fees")
    section = doc.text[fees.start : fees.end]
    order = [section.index(x) for x in ("Licensee shall pay", rows[0], rows[-1], "exclusive of VAT")]
    assert order == sorted(order)
    # a table stands as its own block
    assert "\n\n" + rows[0] in section
    assert rows[-1] + "\n\n" in section


def test_docx_heading_by_outline_level_and_chinese_style_name(tmp_path: Path) -> None:
    from docx import Document
    from docx.enum.style import WD_STYLE_TYPE
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    document = Document()
    zh_style = document.styles.add_style("标题 1", WD_STYLE_TYPE.PARAGRAPH)
    document.add_paragraph("第一章 总则", style=zh_style)
    document.add_paragraph("本合同适用于双方的合作。")
    outlined = document.add_paragraph("第一条 定义")
    outline = OxmlElement("w:outlineLvl")
    outline.set(qn("w:val"), "1")
    outlined._p.get_or_add_pPr().append(outline)
    document.add_paragraph("本合同中的术语含义如下。")
    buffer = io.BytesIO()
    document.save(buffer)
    path = make_docs._write(tmp_path, "zh.docx", buffer.getvalue())
    doc = _extract(path)
    assert [s.anchor for s in doc.spans] == ["第一章 总则", "第一章 总则 > 第一条 定义"]
    assert doc.language == "zh"
    assert doc.title == "第一章 总则"


# ------------------------------------------------------------------------------------------
# TXT / MD
# ------------------------------------------------------------------------------------------


def test_utf8_txt_is_the_file_content(docs: dict[str, Path]) -> None:
    path = docs["zh_txt_utf8"]
    doc = _extract(path)
    assert doc.encoding == "utf-8"
    with path.open(encoding="utf-8", newline="") as handle:
        assert doc.text == handle.read()
    assert doc.title == "采购合同"
    assert doc.language == "zh"
    assert doc.pages == 1


def test_utf8_bom_is_kept_so_offsets_match_the_file(tmp_path: Path) -> None:
    path = make_docs.write_zh_txt_utf8(tmp_path, "bom.txt", bom=True)
    doc = _extract(path)
    assert doc.encoding == "utf-8"
    assert doc.text.startswith("\ufeff")
    with path.open(encoding="utf-8", newline="") as handle:
        assert doc.text == handle.read()
    assert doc.title == "采购合同"
    assert any("byte-order mark" in note for note in doc.notes)


def test_gb18030_txt_keeps_crlf(docs: dict[str, Path]) -> None:
    path = docs["zh_txt_gb18030"]
    doc = _extract(path)
    assert doc.encoding == "gb18030"
    assert doc.text == path.read_bytes().decode("gb18030")
    assert "\r\n" in doc.text
    assert doc.spans[0].end == len(doc.text)


def test_markdown_sections_skip_code_fences(docs: dict[str, Path]) -> None:
    doc = _extract(docs["md"])
    assert doc.file_type == "md"
    assert doc.title == "Non-Disclosure Agreement"
    assert [s.anchor for s in doc.spans] == [
        "Non-Disclosure Agreement",
        "Non-Disclosure Agreement > 1. Definitions",
        "Non-Disclosure Agreement > 2. Obligations",
        "Non-Disclosure Agreement > 2. Obligations > 2.1 Exceptions",
    ]
    assert doc.text == make_docs.MD_TEXT
    assert doc.spans[-1].end == len(doc.text)


# ------------------------------------------------------------------------------------------
# Failures
# ------------------------------------------------------------------------------------------

BAD_CASES = {
    "empty": "empty",
    "unsupported": "unsupported file type",
    "fake_pdf": "not a PDF",
    "truncated_pdf": "incomplete",
    "garbage_pdf": "damaged",
    "corrupted_docx": "damaged",
    "truncated_docx": "damaged",
    "doc_as_docx": ".doc",
    "encrypted_pdf": "encrypted PDF",
    "scanned_pdf": "scanned PDF without a text layer",
    "docx_bomb": "unpacks to",
    "undecodable_txt": "undecodable encoding",
    "pdf_as_txt": "is a PDF",
}


@pytest.mark.parametrize("case", sorted(BAD_CASES))
def test_bad_inputs_raise_ingest_error_naming_the_file(docs: dict[str, Path], case: str) -> None:
    path = docs[case]
    with pytest.raises(IngestError) as caught:
        _extract(path)
    message = str(caught.value)
    assert message.startswith(path.name + ": ")
    assert BAD_CASES[case] in message
    assert caught.value.hint


def test_every_bad_writer_is_covered() -> None:
    assert set(BAD_CASES) == set(make_docs.BAD_WRITERS)


def test_encrypted_and_scanned_hints_say_what_to_do(docs: dict[str, Path]) -> None:
    with pytest.raises(IngestError, match="remove the password"):
        _extract(docs["encrypted_pdf"])
    with pytest.raises(IngestError, match="OCR"):
        _extract(docs["scanned_pdf"])


def test_scanned_threshold_comes_from_settings(docs: dict[str, Path]) -> None:
    text_pdf = docs["en_pdf"]
    with pytest.raises(IngestError, match="scanned"):
        _extract(text_pdf, IngestSettings(min_text_chars_per_page=100_000))


def test_text_of_control_characters_is_undecodable(tmp_path: Path) -> None:
    path = make_docs._write(tmp_path, "ctl.txt", bytes(range(1, 9)) * 100)
    with pytest.raises(IngestError, match="undecodable"):
        _extract(path)


# ------------------------------------------------------------------------------------------
# CJK repair and titles
# ------------------------------------------------------------------------------------------


def test_normaliser_on_garbled_samples(tmp_path: Path) -> None:
    sample = make_docs.write_garbled_cjk_sample(tmp_path)
    lines = sample.read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(make_docs.GARBLED_CJK_PAIRS)
    for line in lines:
        garbled, expected = line.split("\t")
        assert garbled_share(garbled) > DEFAULTS.garbled_ratio
        assert normalize_cjk(garbled) == expected
        assert garbled_share(normalize_cjk(garbled)) == 0.0


def test_normaliser_leaves_ordinary_text_alone() -> None:
    text = "甲方：（全角标点）ＡＢＣ１２３，第一条 ﬁne — 页 行 民"
    assert normalize_cjk(text) == text


def test_radical_tables_map_to_ideographs() -> None:
    targets = {normalize_cjk(chr(cp)) for cp in KANGXI_RADICALS if unicodedata.name(chr(cp), "")}
    targets |= set(RADICALS_SUPPLEMENT.values())
    for target in targets:
        assert len(target) == 1
        assert unicodedata.name(target).startswith("CJK"), target
        assert garbled_share(target) == 0.0


def test_titles_prefer_contract_names_over_boilerplate() -> None:
    text = (
        "Exhibit 10.1\n\nInformation identified with [***] has been excluded.\n\nSUPPLY AGREEMENT\n\nThis..."
    )
    assert first_short_line(text) == "SUPPLY AGREEMENT"
    assert first_short_line("A" * 200 + "\nshort") == ""
    assert choose_title("Microsoft Word - lease.doc", "", file_name="dir/lease_v2.pdf") == "lease_v2"
    assert choose_title("untitled", "房屋租赁合同", file_name="x.pdf") == "房屋租赁合同"


def test_a_first_heading_that_heads_a_clause_is_no_document_title(tmp_path: Path) -> None:
    """A Word contract titled by a plain first paragraph, its articles in Heading 2, was titled "第一条 工程概况"
    (session 31 try-out); a Markdown file opening with "## 第一条" likewise. A title heading still wins."""
    from docx import Document

    doc = Document()
    doc.add_paragraph("建设工程施工合同")
    doc.add_paragraph("发包人：杭州云栖置业有限公司")
    doc.add_heading("第一条 工程概况", level=2)
    doc.add_paragraph("工程名称：云栖花园二期3号楼。")
    buffer = io.BytesIO()
    doc.save(buffer)
    (tmp_path / "c.docx").write_bytes(buffer.getvalue())
    assert _extract(tmp_path / "c.docx").title == "建设工程施工合同"
    (tmp_path / "c.md").write_text(
        "建设工程施工合同\n\n## 第一条 工程概况\n\n工程名称：云栖花园二期3号楼。\n", encoding="utf-8"
    )
    assert _extract(tmp_path / "c.md").title == "建设工程施工合同"
    (tmp_path / "t.md").write_text("# 设备买卖合同\n\n## 第一条 标的\n\n设备一台。\n", encoding="utf-8")
    assert _extract(tmp_path / "t.md").title == "设备买卖合同"
