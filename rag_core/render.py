"""Render a PDF page as PNG with a cited passage marked, so a lawyer sees the clause in place.

Why search the page's own text instead of trusting offsets: chunk offsets index the *extracted*
text (pypdf or pypdfium2, CJK-repaired, pages joined with blank lines), which need not match
pdfium's character list one to one. So the passage's text on its page is looked up in pdfium's
characters (whitespace ignored, radical look-alikes repaired), exactly first, then by the longest
matching runs; the matched characters' boxes become translucent rectangles, one per line. When the
text cannot be found the page is returned unmarked and says so: a wrong mark is worse than none.
"""

from __future__ import annotations

import difflib
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rag_core.errors import LexgateError
from rag_core.ingest.extract import normalize_cjk
from rag_core.models import PageSpan

DEFAULT_SCALE = 1.5
"""Pixels per PDF point (1.5 ≈ 108 dpi: readable, small enough to send on every rerun)."""

MIN_MATCHED_SHARE = 0.6
"""Share of the passage's characters that must be found on the page for a fuzzy mark."""

MIN_RUN_CHARS = 4
"""Shortest matching run kept in a fuzzy match (shorter runs are coincidences such as 的/the)."""

CROP_MARGIN_PT = 60.0
"""PDF points kept around the marked lines when the image is cropped to the passage."""

MARK_FILL = (255, 196, 0, 70)
MARK_EDGE = (230, 140, 0, 200)
MARK_PAD = 2.0
"""Rectangle colour (RGBA), edge colour, and padding in pixels around each marked line."""


@dataclass
class RenderedPage:
    png: bytes
    page: int  # 1-based page number rendered
    marked: bool  # whether the passage was located and marked
    boxes: list[tuple[float, float, float, float]] = field(default_factory=list)  # pixels l, t, r, b
    note: str = ""  # why nothing was marked, or how the text was matched


def _span(s: PageSpan | Mapping[str, Any]) -> PageSpan:
    if isinstance(s, PageSpan):
        return s
    return PageSpan(start=int(s["start"]), end=int(s["end"]), page=s.get("page"), anchor=s.get("anchor", ""))


def locate_page(spans: Sequence[PageSpan | Mapping[str, Any]], start: int) -> PageSpan | None:
    """The PDF page span holding offset ``start`` (or, in the gap between pages, the next page)."""
    pages = sorted((_span(s) for s in spans if _span(s).page), key=lambda s: s.start)
    for s in pages:
        if s.start <= start < s.end:
            return s
    for s in pages:
        if start < s.start:
            return s
    return pages[-1] if pages else None


def _normalise(chars: Sequence[str]) -> tuple[str, list[int]]:
    """Characters without whitespace, repaired and case-folded, with each one's original index."""
    out: list[str] = []
    where: list[int] = []
    for i, ch in enumerate(chars):
        if not ch or ch.isspace() or ch == "\x00":
            continue
        fixed = normalize_cjk(ch).casefold()
        for c in fixed:
            out.append(c)
            where.append(i)
    return "".join(out), where


def match_chars(page_chars: Sequence[str], passage: str) -> tuple[list[int], str]:
    """Indices into ``page_chars`` that spell ``passage``; empty when it cannot be found."""
    page_norm, page_idx = _normalise(page_chars)
    pass_norm, _ = _normalise(list(passage))
    if not pass_norm or not page_norm:
        return [], "no text to match"
    at = page_norm.find(pass_norm)
    if at >= 0:
        return sorted(set(page_idx[at : at + len(pass_norm)])), "exact"
    matcher = difflib.SequenceMatcher(None, page_norm, pass_norm, autojunk=False)
    found: list[int] = []
    matched = 0
    for block in matcher.get_matching_blocks():
        if block.size >= MIN_RUN_CHARS:
            found += page_idx[block.a : block.a + block.size]
            matched += block.size
    share = matched / len(pass_norm)
    if share < MIN_MATCHED_SHARE:
        return [], f"only {share:.0%} of the passage found on the page"
    return sorted(set(found)), f"fuzzy ({share:.0%} of the passage)"


def line_boxes(
    boxes: Sequence[tuple[float, float, float, float]],
) -> list[tuple[float, float, float, float]]:
    """Character boxes (l, b, r, t in PDF units, reading order) merged into one box per line."""
    lines: list[list[float]] = []
    for left, bottom, right, top in boxes:
        if right <= left or top <= bottom:
            continue
        if lines:
            cur = lines[-1]
            mid = (bottom + top) / 2
            if cur[1] <= mid <= cur[3] and left >= cur[0] - (top - bottom):
                cur[0], cur[1] = min(cur[0], left), min(cur[1], bottom)
                cur[2], cur[3] = max(cur[2], right), max(cur[3], top)
                continue
        lines.append([left, bottom, right, top])
    return [(a, b, c, d) for a, b, c, d in lines]


def render_page(
    pdf: bytes,
    page: int,
    passage: str | Sequence[str] = "",
    scale: float = DEFAULT_SCALE,
    crop: bool = False,
) -> RenderedPage:
    """Page ``page`` (1-based) as PNG, with ``passage`` (one text, or several: each is looked up
    and marked) marked where it can be found on it.

    ``crop`` keeps only the part of the page around the marked lines, so the passage is
    readable at the size of a side panel; an unmarked page is never cropped.
    """
    passages = [passage] if isinstance(passage, str) else list(passage)
    import pypdfium2 as pdfium
    from PIL import Image, ImageDraw

    try:
        doc = pdfium.PdfDocument(pdf)
    except pdfium.PdfiumError as err:
        raise LexgateError("the PDF cannot be opened for rendering", str(err)) from err
    try:
        if not 1 <= page <= len(doc):
            raise LexgateError(f"page {page} does not exist", f"the PDF has {len(doc)} pages")
        pg = doc[page - 1]
        image = pg.render(scale=scale).to_pil().convert("RGBA")
        boxes: list[tuple[float, float, float, float]] = []
        note = "no passage given"
        if any(p.strip() for p in passages):
            if pg.get_rotation() % 360:
                note = "rotated page: not marked"
            else:
                notes = []
                for text in (p for p in passages if p.strip()):
                    found, how = _passage_boxes(pdfium, pg, text, scale)
                    boxes += found
                    notes.append(how)
                note = "; ".join(notes)
        if boxes:
            overlay = Image.new("RGBA", image.size, (0, 0, 0, 0))
            draw = ImageDraw.Draw(overlay)
            for box in boxes:
                draw.rectangle(box, fill=MARK_FILL, outline=MARK_EDGE, width=2)
            image = Image.alpha_composite(image, overlay)
            if crop:
                pad = CROP_MARGIN_PT * scale
                left = max(0, int(min(b[0] for b in boxes) - pad))
                top = max(0, int(min(b[1] for b in boxes) - pad))
                right = min(image.width, int(max(b[2] for b in boxes) + pad))
                bottom = min(image.height, int(max(b[3] for b in boxes) + pad))
                image = image.crop((left, top, right, bottom))
                boxes = [(b[0] - left, b[1] - top, b[2] - left, b[3] - top) for b in boxes]
        buf = io.BytesIO()
        image.convert("RGB").save(buf, format="PNG", optimize=True)
        return RenderedPage(buf.getvalue(), page, bool(boxes), boxes, note)
    finally:
        doc.close()


def _passage_boxes(
    pdfium: Any, pg: Any, passage: str, scale: float
) -> tuple[list[tuple[float, float, float, float]], str]:
    """Pixel rectangles, one per line, covering ``passage`` on page ``pg``."""
    textpage = pg.get_textpage()
    try:
        n = textpage.count_chars()
        chars = [chr(pdfium.raw.FPDFText_GetUnicode(textpage.raw, i) or 32) for i in range(n)]
        indices, how = match_chars(chars, passage)
        if not indices:
            return [], how
        char_boxes = [textpage.get_charbox(i, loose=True) for i in indices]
    finally:
        textpage.close()
    # The effective page box; get_cropbox() falls back to US Letter when the box is inherited.
    crop_left, _crop_bottom, _crop_right, crop_top = pg.get_bbox()
    width, height = pg.get_size()
    out: list[tuple[float, float, float, float]] = []
    for left, bottom, right, top in line_boxes(char_boxes):
        x0 = max(0.0, (left - crop_left) * scale - MARK_PAD)
        y0 = max(0.0, (crop_top - top) * scale - MARK_PAD)
        x1 = min(width * scale, (right - crop_left) * scale + MARK_PAD)
        y1 = min(height * scale, (crop_top - bottom) * scale + MARK_PAD)
        if x1 > x0 and y1 > y0:
            out.append((x0, y0, x1, y1))
    return out, how


def page_range(
    spans: Sequence[PageSpan | Mapping[str, Any]], doc_text: str, start: int, end: int
) -> tuple[int, int] | None:
    """First and last PDF page of the words of ``doc_text[start:end]`` (blank edges ignored,
    since the blank lines joining two pages belong to neither); None without PDF pages."""
    piece = doc_text[start:end]
    lo = start + len(piece) - len(piece.lstrip())
    hi = start + len(piece.rstrip())
    first = locate_page(spans, lo)
    last = locate_page(spans, max(lo, hi - 1))
    if first is None or first.page is None or last is None or last.page is None:
        return None
    return int(first.page), max(int(first.page), int(last.page))


def render_passage(
    pdf: bytes,
    spans: Sequence[PageSpan | Mapping[str, Any]],
    doc_text: str,
    start: int,
    end: int,
    scale: float = DEFAULT_SCALE,
    crop: bool = False,
    marks: Sequence[tuple[int, int]] = (),
    page: int | None = None,
) -> RenderedPage:
    """A page of the passage ``doc_text[start:end]`` with what is cited marked on it.

    ``marks`` are the document ranges to mark (the sentences the answer rests on); without them
    the passage itself is marked. ``page`` is the page to draw; by default the page where the
    first mark (or the passage) begins. Each mark is clipped to that page, since one image shows
    one page. ``spans`` are the document's page spans (``ExtractedDocument.spans`` /
    ``spans_json``).
    """
    ranges = [(a, b) for a, b in marks if b > a] or [(start, end)]
    if page is None:
        first = locate_page(spans, ranges[0][0])
        page = int(first.page) if first is not None and first.page is not None else None
    span = next((s for s in map(_span, spans) if s.page == page), None)
    if span is None or span.page is None:
        raise LexgateError("the document has no PDF pages to render", "only PDF passages have a page image")
    texts = [
        doc_text[max(a, span.start) : min(b, span.end)]
        for a, b in ranges
        if min(b, span.end) > max(a, span.start)
    ]
    return render_page(pdf, int(span.page), texts, scale, crop)
