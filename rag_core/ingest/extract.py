"""Text extraction from PDF, DOCX, TXT and MD, with where each page/section lies in the text.

Why offsets matter more than prettiness: every citation Lexgate shows is ``text[start:end]`` of
what is extracted here, so the text is built once, deterministically, and page/section spans are
recorded while it is built. Parsers fail in many ways on real files; every failure becomes an
``IngestError`` naming the file, what is wrong and what to do.

Text layout by format:

* PDF: page texts (stripped) joined with ``"\\n\\n"``; one span per page, ``page`` 1-based.
* DOCX: body blocks in document order. A paragraph is one line; consecutive paragraphs are joined
  with ``"\\n"``; a heading or a table is preceded by a blank line (``"\\n\\n"``) and a table is
  followed by one, so that headings and tables stand out as blocks for the chunker. A table row
  is its cells joined with ``" | "``. One span per section (text up to the next heading), with
  the heading path as ``anchor``.
* TXT/MD: the decoded file content itself, unchanged (``\\r\\n`` and a BOM kept), so offsets are
  offsets into ``open(path, encoding=doc.encoding, newline="").read()``. MD additionally gets one
  span per ``#`` heading section.
"""

from __future__ import annotations

import io
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

import pypdf
import pypdfium2 as pdfium
from docx import Document as open_docx
from docx.table import Table
from docx.text.paragraph import Paragraph
from pypdf.errors import DependencyError, FileNotDecryptedError

from rag_core.chunking import find_headings
from rag_core.coded import coded
from rag_core.errors import IngestError
from rag_core.ingest.validate import validate
from rag_core.models import ExtractedDocument, PageSpan
from rag_core.settings import IngestSettings
from rag_core.textproc import detect_language

TITLE_MAX_CHARS = 80
"""A first line/heading longer than this is a sentence, not a title; the file stem is used instead."""

TITLE_SCAN_LINES = 12
TITLE_SCAN_CHARS = 4000
"""Where a title is looked for at the start of a text: so many non-empty lines within so many chars."""

ANCHOR_PART_MAX_CHARS = 60
"""Each heading in a DOCX/MD anchor path is cut to this length, so anchors stay readable."""

PAGE_SEPARATOR = "\n\n"
DOCX_LINE_SEPARATOR = "\n"
DOCX_BLOCK_SEPARATOR = "\n\n"
TABLE_CELL_SEPARATOR = " | "
ANCHOR_SEPARATOR = " > "

PDF_EOF_MARKER = b"%%EOF"


def table_headers(lines: Sequence[str]) -> list[int]:
    """For each line, the index of the header row of the table it is a row of, or -1 (no table line, or
    the header itself): a table is a run of lines holding ``TABLE_CELL_SEPARATOR``, its first line the
    header, as extraction writes a DOCX table.

    Why here: the quoted answer reads and quotes a row under its header, and the citation viewer
    highlights the two together (session 33: "商铺 | 6.0" means 6.0 yuan a square metre a month only
    under "物业类型 | 收费标准（元/平方米·月）"); both must agree on which row heads which."""
    out: list[int] = []
    header = -1
    for i, line in enumerate(lines):
        if TABLE_CELL_SEPARATOR not in line:
            header = -1
            out.append(-1)
        elif header < 0:
            header = i
            out.append(-1)
        else:
            out.append(header)
    return out


PDF_EOF_WINDOW = 1024
"""Readers accept ``%%EOF`` within the last 1024 bytes; missing there means a cut-off file."""

DOCX_BODY_TEXT_OUTLINE_LEVEL = 9
"""``w:outlineLvl`` 0–8 are heading levels 1–9; 9 means body text."""

_HEADING_STYLE_RE = re.compile(r"^(?:heading|标题|見出し)\s*(\d)$", re.IGNORECASE)
_TITLE_STYLE_NAMES = {"title", "标题"}
_MEANINGLESS_TITLES = {"untitled", "document", "无标题", "未命名", "microsoft word", "title", "文档"}
_CONTRACT_WORD_RE = re.compile(
    r"agreement|contract|lease|licen[cs]e|deed|indenture|memorandum|合同|协议|契约|协定|章程|承诺书",
    re.IGNORECASE,
)
_BOILERPLATE_LINE_RE = re.compile(
    r"^(?:exhibit\b|ex-\d|execution (?:copy|version)|confidential\b|draft\b|page \d|table of contents|目\s*录"
    r"|[\[\]*\d\s.()-]*$)",
    re.IGNORECASE,
)
_SENTENCE_ENDINGS = (".", ":", ";", ",", "。", "：", "；", "，")
_OFFICE_TITLE_PREFIX_RE = re.compile(r"^microsoft (?:word|powerpoint|excel) - ", re.IGNORECASE)
_FILE_NAME_TITLE_RE = re.compile(r"\.(?:docx?|pdf|rtf|txt|odt|wpd|md)$", re.IGNORECASE)
_MD_HEADING_OR_FENCE_RE = re.compile(
    r"^(?: {0,3}(?P<fence>```|~~~).*| {0,3}(?P<hashes>#{1,6})[ \t]+(?P<title>.*?)[ \t#]*)$", re.MULTILINE
)
_SOFT_HYPHEN_BREAK_RE = re.compile("\ufffe\n?")
"""PDFium's mark of a hyphen that broke a word at a line end ("manip\ufffeulation"): the word is joined."""
_CONTROL_RE = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ufffd]")
"""Control characters (except tab/newlines/form feed) and U+FFFD: what undecodable text turns into."""


# --------------------------------------------------------------------------------------------
# CJK repair (pypdf garbling)
# --------------------------------------------------------------------------------------------

KANGXI_RADICALS = range(0x2F00, 0x2FE0)
"""Kangxi Radicals block; NFKC maps every assigned one to its ideograph (⾏ → 行)."""

RADICALS_SUPPLEMENT: dict[int, str] = {
    0x2E80: "冫", 0x2E81: "厂", 0x2E82: "乛", 0x2E83: "乚", 0x2E84: "乙", 0x2E85: "亻",
    0x2E86: "冂", 0x2E87: "几", 0x2E88: "刀", 0x2E89: "刂", 0x2E8A: "卜", 0x2E8B: "卩",
    0x2E8C: "小", 0x2E8D: "小", 0x2E8E: "兀", 0x2E8F: "尣", 0x2E90: "尢", 0x2E91: "尣",
    0x2E92: "巳", 0x2E93: "幺", 0x2E94: "彐", 0x2E95: "彐", 0x2E96: "忄", 0x2E97: "心",
    0x2E98: "扌", 0x2E99: "攵", 0x2E9B: "旡", 0x2E9C: "日", 0x2E9D: "月", 0x2E9E: "歺",
    0x2E9F: "母", 0x2EA0: "民", 0x2EA1: "氵", 0x2EA2: "氺", 0x2EA3: "灬", 0x2EA4: "爫",
    0x2EA5: "爫", 0x2EA6: "丬", 0x2EA7: "牜", 0x2EA8: "犭", 0x2EA9: "王", 0x2EAA: "疋",
    0x2EAB: "罒", 0x2EAC: "示", 0x2EAD: "礻", 0x2EAE: "竹", 0x2EAF: "糹", 0x2EB0: "纟",
    0x2EB1: "罓", 0x2EB2: "罒", 0x2EB3: "㓁", 0x2EB4: "罓", 0x2EB5: "罓", 0x2EB6: "羊",
    0x2EB7: "羊", 0x2EB8: "羊", 0x2EB9: "耂", 0x2EBA: "肀", 0x2EBB: "聿", 0x2EBC: "月",
    0x2EBD: "臼", 0x2EBE: "艹", 0x2EBF: "艹", 0x2EC0: "艹", 0x2EC1: "虎", 0x2EC2: "衤",
    0x2EC3: "覀", 0x2EC4: "西", 0x2EC5: "见", 0x2EC6: "角", 0x2EC7: "角", 0x2EC8: "讠",
    0x2EC9: "贝", 0x2ECA: "足", 0x2ECB: "车", 0x2ECC: "辶", 0x2ECD: "辶", 0x2ECE: "辶",
    0x2ECF: "阝", 0x2ED0: "钅", 0x2ED1: "長", 0x2ED2: "镸", 0x2ED3: "长", 0x2ED4: "门",
    0x2ED5: "阜", 0x2ED6: "阝", 0x2ED7: "雨", 0x2ED8: "青", 0x2ED9: "韦", 0x2EDA: "页",
    0x2EDB: "风", 0x2EDC: "飞", 0x2EDD: "食", 0x2EDE: "𩙿", 0x2EDF: "飠", 0x2EE0: "饣",
    0x2EE1: "首", 0x2EE2: "马", 0x2EE3: "骨", 0x2EE4: "鬼", 0x2EE5: "鱼", 0x2EE6: "鸟",
    0x2EE7: "卤", 0x2EE8: "麦", 0x2EE9: "黄", 0x2EEA: "黾", 0x2EEB: "斉", 0x2EEC: "齐",
    0x2EED: "歯", 0x2EEE: "齿", 0x2EEF: "竜", 0x2EF0: "龙", 0x2EF1: "龜", 0x2EF2: "亀",
    0x2EF3: "龟",
}  # fmt: skip
"""CJK Radicals Supplement → the ideograph drawn with the same glyph.

NFKC leaves this block alone (except ⺟ and ⻳), so the table is explicit. Where a radical has a
component form (⺡ is drawn as 氵, not 水) the component ideograph is used: fonts share the glyph
with *that* code point, so it is what the PDF's author typed."""

_CJK_TRANSLATION: dict[int, str | None] = {
    **{cp: unicodedata.normalize("NFKC", chr(cp)) for cp in KANGXI_RADICALS},
    **RADICALS_SUPPLEMENT,
    0: None,  # NUL: the high byte of a UTF-16 code unit read as a character
}

_GARBLED_RE = re.compile("[\x00\u2e80-\u2fdf\ufffd]")
"""NUL, radical look-alikes (both radical blocks) and U+FFFD: signs of a broken PDF text layer."""


def garbled_share(text: str) -> float:
    """Share of characters in ``text`` that signal a broken text layer (0.0 for empty text)."""
    if not text:
        return 0.0
    return len(_GARBLED_RE.findall(text)) / len(text)


def normalize_cjk(text: str) -> str:
    """``text`` with NULs removed and radical look-alikes replaced by their ideographs.

    Only the radical blocks are mapped (not full-text NFKC, which would turn Chinese full-width
    punctuation such as ``，`` into ASCII and change what lawyers quote).
    """
    if _GARBLED_RE.search(text) is None:
        return text
    return text.translate(_CJK_TRANSLATION)


# --------------------------------------------------------------------------------------------
# Entry point
# --------------------------------------------------------------------------------------------


def extract(data: bytes, file_name: str, settings: IngestSettings) -> ExtractedDocument:
    """Validate ``data`` and extract its text, page/section spans, language and title."""
    file_type = validate(data, file_name, settings)
    if file_type == "pdf":
        doc = extract_pdf(data, file_name, settings)
    elif file_type == "docx":
        doc = extract_docx(data, file_name)
    else:
        doc = extract_plain_text(data, file_name, file_type, settings)
    doc.language = detect_language(doc.text)
    return doc


def file_stem(file_name: str) -> str:
    """The file name without folder and extension: the title of last resort."""
    return PurePath(file_name).stem


def meaningful_title(candidate: str | None) -> str:
    """``candidate`` cleaned, or "" when it is empty, a placeholder or a file name."""
    if not candidate:
        return ""
    title = _OFFICE_TITLE_PREFIX_RE.sub("", " ".join(candidate.split()))
    if not title or title.lower() in _MEANINGLESS_TITLES or _FILE_NAME_TITLE_RE.search(title):
        return ""
    return title if len(title) < TITLE_MAX_CHARS else ""


def first_short_line(text: str) -> str:
    """A title-like line from the start of ``text``, or "".

    Filings and scans start with boilerplate (``Exhibit 10.1``, ``Execution Copy``); a title that
    names the contract type (``SUPPLY AGREEMENT``, ``房屋租赁合同``) is what routing by contract
    name needs. So among the first ``TITLE_SCAN_LINES`` non-empty lines the first short one with a
    contract word wins, else the first line if it is short and not boilerplate.
    """
    candidates: list[str] = []
    for line in text[:TITLE_SCAN_CHARS].splitlines():
        stripped = line.strip().lstrip("\ufeff#").strip().strip("*").strip()
        if not stripped:
            continue
        candidates.append(stripped)
        if len(candidates) >= TITLE_SCAN_LINES:
            break
    for line in candidates:
        if (
            len(line) < TITLE_MAX_CHARS
            and not line.endswith(_SENTENCE_ENDINGS)
            and _CONTRACT_WORD_RE.search(line)
            and not _BOILERPLATE_LINE_RE.match(line)
        ):
            return line
    first = candidates[0] if candidates else ""
    return first if len(first) < TITLE_MAX_CHARS and not _BOILERPLATE_LINE_RE.match(first) else ""


def document_heading(heading: str) -> str:
    """The first heading of a DOCX or Markdown file as a title candidate, or "" when it is a clause's
    heading ("第一条 工程概况", "1. Definitions", "Article 5 Term").

    Why: a Word contract whose title is a plain first paragraph ("建设工程施工合同") and whose articles are
    Heading 2 was titled "第一条 工程概况", and the answer model cited the contract as 《第五条 工程概况》
    (session 31)."""
    return "" if find_headings(heading) else heading


def choose_title(*candidates: str | None, file_name: str) -> str:
    """The first meaningful candidate, else the file stem."""
    for candidate in candidates:
        title = meaningful_title(candidate)
        if title:
            return title
    return file_stem(file_name)


def join_with_spans(parts: list[str], separator: str) -> tuple[str, list[tuple[int, int]]]:
    """``separator.join(parts)`` and each part's ``[start, end)`` in the result, in one pass."""
    spans: list[tuple[int, int]] = []
    pos = 0
    for part in parts:
        spans.append((pos, pos + len(part)))
        pos += len(part) + len(separator)
    return separator.join(parts), spans


# --------------------------------------------------------------------------------------------
# PDF
# --------------------------------------------------------------------------------------------


@dataclass
class _PdfPages:
    """Page texts from one PDF library, with what happened on the way."""

    pages: list[str]
    source: str
    title: str = ""
    notes: list[str] = field(default_factory=list)


def _encrypted_error(file_name: str) -> IngestError:
    return IngestError(
        "encrypted PDF (it needs a password to open)",
        "remove the password (e.g. print to PDF or 'Save without password'), then upload again",
        subject=file_name,
        code="ingest_pdf_encrypted",
        params={"file": file_name},
    )


def _damaged_pdf_error(file_name: str, detail: str) -> IngestError:
    return IngestError(
        f"the PDF is damaged and cannot be read ({detail})",
        "open it in a PDF viewer and save or export it again as PDF, then upload again",
        subject=file_name,
        code="ingest_pdf_damaged",
        params={"file": file_name},
    )


def check_pdf_complete(data: bytes, file_name: str) -> None:
    """A PDF without ``%%EOF`` near its end was cut off (interrupted download or copy).

    Lenient parsers would still return the first pages, silently dropping clauses, so refuse.
    """
    if PDF_EOF_MARKER not in data[-PDF_EOF_WINDOW:]:
        raise IngestError(
            "the PDF is incomplete (its end is missing; the download or copy was probably interrupted)",
            "download or export the PDF again, then upload again",
            subject=file_name,
            code="ingest_pdf_incomplete",
            params={"file": file_name},
        )


def clean_page_text(text: str) -> str:
    """One page's text with garbling repaired, PDFium's ``\\r\\n`` unified and ends stripped."""
    text = normalize_cjk(text).replace("\r\n", "\n").replace("\r", "\n")
    text = _SOFT_HYPHEN_BREAK_RE.sub("", text)
    return _CONTROL_RE.sub("", text).strip()


def read_pypdf(data: bytes, file_name: str) -> _PdfPages | None:
    """Raw page texts via pypdf; None when pypdf cannot read this PDF (PDFium then gets a turn).

    Raises the 'encrypted' error when the PDF does not open with an empty password.
    """
    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        if reader.is_encrypted and reader.decrypt("") == pypdf.PasswordType.NOT_DECRYPTED:
            raise _encrypted_error(file_name)
        meta = reader.metadata
        title = str(meta.title) if meta is not None and meta.title else ""
        pages = [page.extract_text() or "" for page in reader.pages]
    except IngestError:
        raise
    except FileNotDecryptedError as exc:
        raise _encrypted_error(file_name) from exc
    except (DependencyError, NotImplementedError):
        return None  # e.g. AES without the 'cryptography' package: PDFium decrypts natively
    except Exception:  # pypdf raises many types on broken files; PDFium decides if it is damaged
        return None
    return _PdfPages(pages=pages, source="pypdf", title=title)


def read_pdfium(data: bytes, file_name: str) -> _PdfPages:
    """Page texts via PDFium (robust, different CMap handling); raises on encrypted/damaged files."""
    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        if getattr(exc, "err_code", None) == pdfium.raw.FPDF_ERR_PASSWORD:
            raise _encrypted_error(file_name) from exc
        raise _damaged_pdf_error(file_name, str(exc).rstrip(".")) from exc
    try:
        pages: list[str] = []
        for page in pdf:
            textpage = page.get_textpage()
            pages.append(textpage.get_text_range())
            textpage.close()
            page.close()
        title = str(pdf.get_metadata_dict().get("Title", ""))
    except pdfium.PdfiumError as exc:
        raise _damaged_pdf_error(file_name, str(exc).rstrip(".")) from exc
    finally:
        pdf.close()
    return _PdfPages(pages=pages, source="pypdfium2", title=title)


def text_chars(pages: Iterable[str]) -> int:
    """Non-whitespace characters over all pages: what 'has a text layer' is measured by."""
    return sum(len("".join(page.split())) for page in pages)


def pdf_text_usable(pages: list[str], settings: IngestSettings) -> bool:
    """Whether cleaned page texts can be kept: not garbled beyond repair and enough text per page."""
    if garbled_share("".join(pages)) > settings.garbled_ratio:
        return False
    return text_chars(pages) >= settings.min_text_chars_per_page * max(len(pages), 1)


def better_pdf_text(candidate: list[str], current: list[str]) -> bool:
    """Whether ``candidate`` page texts beat ``current``: less garbled, or as clean with more text."""
    candidate_share, current_share = garbled_share("".join(candidate)), garbled_share("".join(current))
    if candidate_share != current_share:
        return candidate_share < current_share
    return text_chars(candidate) > text_chars(current)


def character_disagreement(first: str, second: str) -> float:
    """Share of non-space characters two readings of one page do not have in common (0 = same).

    Counted as multisets, not in order: the two engines may order columns or headers differently,
    which is no misreading; a wrong character map shows as characters one reading has and the
    other lacks (pypdf read a subset CJK font as "争议合合合" where PDFium read "争议解决").
    """
    first_counts = Counter(ch for ch in first if not ch.isspace())
    second_counts = Counter(ch for ch in second if not ch.isspace())
    larger = max(first_counts.total(), second_counts.total())
    if larger == 0:
        return 0.0
    return 1.0 - (first_counts & second_counts).total() / larger


def take_disputed_pages(chosen: _PdfPages, pdfium_pages: _PdfPages, limit: float) -> list[str]:
    """Replace, in ``chosen``, each page pypdf and PDFium read differently by PDFium's reading.

    Why PDFium wins a dispute: it is the engine browsers render and copy text with, and pypdf's
    character-map handling is the known weak point (the radical and NUL repairs above exist for
    it); a wrong map garbles clauses without leaving the look-alike characters those repairs see.
    Returns the note naming the replaced pages (none when the readings agree).
    """
    if len(chosen.pages) != len(pdfium_pages.pages):
        return []
    disputed = [
        number
        for number, (ours, theirs) in enumerate(zip(chosen.pages, pdfium_pages.pages, strict=True), start=1)
        if theirs and character_disagreement(ours, theirs) > limit
    ]
    for number in disputed:
        chosen.pages[number - 1] = pdfium_pages.pages[number - 1]
    if not disputed:
        return []
    listed = ", ".join(str(number) for number in disputed)
    why = f"pypdf and pypdfium2 read page(s) {listed} differently; used pypdfium2's text there"
    return [coded("pdf_pages_disputed", why, pages=listed)]


def read_pdf_pages(data: bytes, file_name: str, settings: IngestSettings) -> tuple[_PdfPages, list[str]]:
    """The best cleaned page texts of a PDF and notes on how they were obtained.

    pypdf goes first (good layout); its text is repaired (``normalize_cjk``). PDFium reads the file
    too (about a tenth of pypdf's time): a page the two read differently is taken from PDFium, and
    when pypdf's text stays unusable — garbled or (almost) empty — the better text wins.
    When pypdf cannot read the file at all, PDFium alone decides whether it is damaged.
    """
    notes: list[str] = []
    chosen = read_pypdf(data, file_name)
    if chosen is None:
        chosen = read_pdfium(data, file_name)
        chosen.pages = [clean_page_text(p) for p in chosen.pages]
        return chosen, [coded("pdf_pypdf_failed", "pypdf could not read this PDF; used pypdfium2")]
    share = garbled_share("".join(chosen.pages))
    chosen.pages = [clean_page_text(p) for p in chosen.pages]
    if share > settings.garbled_ratio:
        why = f"pypdf text garbled ({share:.0%} NUL/radical look-alike characters); normalised"
        notes.append(coded("pdf_garbled_normalised", why, share=share))
    try:
        fallback = read_pdfium(data, file_name)
    except IngestError:
        if pdf_text_usable(chosen.pages, settings):
            return chosen, notes
        return chosen, [*notes, "pypdfium2 could not read this PDF either; kept pypdf text"]
    fallback.pages = [clean_page_text(p) for p in fallback.pages]
    if pdf_text_usable(chosen.pages, settings):
        return chosen, [*notes, *take_disputed_pages(chosen, fallback, settings.engine_disagreement_ratio)]
    if better_pdf_text(fallback.pages, chosen.pages):
        fallback.title = fallback.title or chosen.title
        return fallback, [*notes, coded("pdf_pypdf_unusable", "pypdf text unusable; used pypdfium2")]
    return chosen, notes


def extract_pdf(data: bytes, file_name: str, settings: IngestSettings) -> ExtractedDocument:
    """PDF text page by page (pages joined with a blank line), refusing scans without a text layer."""
    check_pdf_complete(data, file_name)
    chosen, notes = read_pdf_pages(data, file_name, settings)
    pages = chosen.pages
    if not pages:
        raise _damaged_pdf_error(file_name, "it has no pages")
    if text_chars(pages) < settings.min_text_chars_per_page * len(pages):
        raise IngestError(
            "scanned PDF without a text layer (the pages are images, there is no text to search)",
            "run OCR first (e.g. 'Recognize text' in Acrobat, or ocrmypdf), then upload the result",
            subject=file_name,
            code="ingest_pdf_scanned",
            params={"file": file_name},
        )
    leftover = garbled_share("".join(pages))
    if leftover > settings.garbled_ratio:
        why = f"text may be partly garbled ({leftover:.0%} unrepaired characters)"
        notes.append(coded("pdf_partly_garbled", why, share=leftover))
    text, offsets = join_with_spans(pages, PAGE_SEPARATOR)
    spans = [PageSpan(start, end, page=i + 1) for i, (start, end) in enumerate(offsets)]
    title = choose_title(chosen.title, first_short_line(text), file_name=file_name)
    return ExtractedDocument(
        text=text, file_type="pdf", spans=spans, pages=len(pages), encoding="", title=title, notes=notes
    )


# --------------------------------------------------------------------------------------------
# DOCX
# --------------------------------------------------------------------------------------------


def _outline_level(element: Any) -> int | None:
    """Heading level 1–9 from a ``w:outlineLvl`` under ``element``'s ``w:pPr``, if any."""
    values = element.xpath("./w:pPr/w:outlineLvl/@w:val")
    if not values:
        return None
    try:
        level = int(values[0])
    except ValueError:
        return None
    return level + 1 if 0 <= level < DOCX_BODY_TEXT_OUTLINE_LEVEL else None


def _style_heading_level(style: Any) -> int | None:
    """Heading level of a paragraph style: its name (Heading N / 标题 N) or outline level, inherited."""
    seen = 0
    while style is not None and seen < DOCX_BODY_TEXT_OUTLINE_LEVEL:
        match = _HEADING_STYLE_RE.match((style.name or "").strip())
        if match:
            return int(match.group(1))
        level = _outline_level(style.element)
        if level is not None:
            return level
        style, seen = style.base_style, seen + 1
    return None


@dataclass
class _DocxStyles:
    """Per-document cache of style id → heading level / title flag (style lookup is slow)."""

    levels: dict[str | None, int | None] = field(default_factory=dict)
    titles: dict[str | None, bool] = field(default_factory=dict)

    def classify(self, paragraph: Paragraph) -> tuple[int | None, bool]:
        """(heading level or None, is the Title style) of ``paragraph``."""
        direct = _outline_level(paragraph._p)
        style_id = paragraph._p.style
        if style_id not in self.levels:
            style = paragraph.style
            self.levels[style_id] = _style_heading_level(style)
            self.titles[style_id] = (
                (style.name or "").strip().lower() in _TITLE_STYLE_NAMES if style else False
            )
        level = direct if direct is not None else self.levels[style_id]
        return level, self.titles[style_id]


def table_rows(table: Table) -> list[str]:
    """Rows of ``table`` as ``cell | cell`` lines; horizontally merged cells appear once."""
    rows: list[str] = []
    for row in table.rows:
        cells: list[str] = []
        last_tc = None
        for cell in row.cells:
            if cell._tc is last_tc:
                continue
            last_tc = cell._tc
            cells.append(" ".join(cell.text.split()))
        if any(cells):
            rows.append(TABLE_CELL_SEPARATOR.join(cells))
    return rows


@dataclass
class _SectionBuilder:
    """Builds text and section spans together so offsets are exact by construction."""

    parts: list[str] = field(default_factory=list)
    length: int = 0
    spans: list[PageSpan] = field(default_factory=list)
    section_start: int = 0
    anchor: str = ""
    path: list[tuple[int, str]] = field(default_factory=list)
    last_was_table: bool = False

    def add(self, text: str, block: bool) -> int:
        """Append one line (``block``: heading/table, preceded by a blank line); its start offset."""
        if self.parts:
            sep = DOCX_BLOCK_SEPARATOR if block or self.last_was_table else DOCX_LINE_SEPARATOR
            self.parts.append(sep)
            self.length += len(sep)
        start = self.length
        self.parts.append(text)
        self.length += len(text)
        return start

    def close_section(self) -> None:
        """Record the running section's span if it holds any text."""
        if self.length > self.section_start:
            self.spans.append(PageSpan(self.section_start, self.length, page=None, anchor=self.anchor))

    def heading(self, text: str, level: int) -> None:
        """Start a new section at a heading; its anchor is the path of enclosing headings."""
        self.close_section()
        self.section_start = self.add(text, block=True)
        while self.path and self.path[-1][0] >= level:
            self.path.pop()
        self.path.append((level, text[:ANCHOR_PART_MAX_CHARS].rstrip()))
        self.anchor = ANCHOR_SEPARATOR.join(part for _, part in self.path)
        self.last_was_table = False

    def text(self) -> str:
        return "".join(self.parts)


def extract_docx(data: bytes, file_name: str) -> ExtractedDocument:
    """DOCX body in document order: paragraphs as lines, headings as sections, tables as rows."""
    try:
        document = open_docx(io.BytesIO(data))
        builder = _SectionBuilder()
        styles = _DocxStyles()
        first_heading = title_paragraph = ""
        for block in document.iter_inner_content():
            if isinstance(block, Table):
                rows = table_rows(block)
                if rows:
                    builder.add("\n".join(rows), block=True)
                    builder.last_was_table = True
                continue
            line = " ".join(block.text.split("\t")).strip()
            if not line:
                continue
            level, is_title = styles.classify(block)
            if is_title and not title_paragraph:
                title_paragraph = line
            if level is not None:
                first_heading = first_heading or line
                builder.heading(line, level)
            else:
                builder.add(line, block=False)
                builder.last_was_table = False
        builder.close_section()
        core_title = document.core_properties.title
    except IngestError:
        raise
    except Exception as exc:  # python-docx/lxml raise many types on damaged files
        raise IngestError(
            f"the Word document is damaged and cannot be read ({type(exc).__name__})",
            "open it in Word, save it again as .docx, then upload again",
            subject=file_name,
            code="ingest_docx_damaged",
            params={"file": file_name},
        ) from exc
    text = builder.text()
    spans = builder.spans or [PageSpan(0, len(text), page=None, anchor="")]
    title = choose_title(
        core_title,
        title_paragraph,
        document_heading(first_heading),
        first_short_line(text),
        file_name=file_name,
    )
    return ExtractedDocument(
        text=text, file_type="docx", spans=spans, pages=max(len(builder.spans), 1), encoding="", title=title
    )


# --------------------------------------------------------------------------------------------
# TXT / MD
# --------------------------------------------------------------------------------------------


def decode_text(data: bytes, file_name: str, settings: IngestSettings) -> tuple[str, str]:
    """(text, encoding): UTF-8 as is (a BOM stays, so offsets match the file), else GB18030."""
    for encoding in ("utf-8", "gb18030"):
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        if len(_CONTROL_RE.findall(text)) <= settings.garbled_ratio * len(text):
            return text, encoding
    raise IngestError(
        "undecodable encoding (the text is neither UTF-8 nor GB18030/GBK)",
        "open it in a text editor and save it as UTF-8, then upload again",
        subject=file_name,
        code="ingest_undecodable",
        params={"file": file_name},
    )


def markdown_spans(text: str) -> list[PageSpan]:
    """One span per ``#`` heading section (headings inside code fences ignored), anchors as paths."""
    spans: list[PageSpan] = []
    path: list[tuple[int, str]] = []
    section_start, anchor, in_fence = 0, "", False
    for match in _MD_HEADING_OR_FENCE_RE.finditer(text):
        if match.group("fence"):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        if match.start() > section_start and text[section_start : match.start()].strip():
            spans.append(PageSpan(section_start, match.start(), page=None, anchor=anchor))
        level = len(match.group("hashes"))
        while path and path[-1][0] >= level:
            path.pop()
        path.append((level, match.group("title").strip()[:ANCHOR_PART_MAX_CHARS].rstrip()))
        anchor = ANCHOR_SEPARATOR.join(part for _, part in path)
        section_start = match.start()
    spans.append(PageSpan(section_start, len(text), page=None, anchor=anchor))
    return spans


def extract_plain_text(
    data: bytes, file_name: str, file_type: str, settings: IngestSettings
) -> ExtractedDocument:
    """TXT/MD: the decoded content unchanged; MD also gets heading sections."""
    text, encoding = decode_text(data, file_name, settings)
    notes = (
        ["UTF-8 byte-order mark kept at offset 0 so offsets match the file"]
        if text.startswith("\ufeff")
        else []
    )
    if file_type == "md":
        spans = markdown_spans(text)
        first_heading = next((s.anchor.split(ANCHOR_SEPARATOR)[0] for s in spans if s.anchor), "")
        title = choose_title(document_heading(first_heading), first_short_line(text), file_name=file_name)
        pages = len(spans)
    else:
        spans = [PageSpan(0, len(text), page=None, anchor="")]
        title = choose_title(first_short_line(text), file_name=file_name)
        pages = 1
    return ExtractedDocument(
        text=text, file_type=file_type, spans=spans, pages=pages, encoding=encoding, title=title, notes=notes
    )
