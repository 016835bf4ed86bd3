"""PDF page rendering with the passage marked (real PDFs from the fixture generator)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from rag_core.errors import LexgateError
from rag_core.ingest.extract import extract
from rag_core.render import line_boxes, locate_page, match_chars, render_page, render_passage
from rag_core.settings import Settings
from tests.fixtures import make_docs as md


@pytest.fixture(scope="module")
def zh_pdf(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, object]:
    path = md.write_zh_contract_pdf(tmp_path_factory.mktemp("pdf"))
    data = path.read_bytes()
    return data, extract(data, path.name, Settings().ingest)


def _marked_pixels(png: bytes) -> int:
    img = Image.open(io.BytesIO(png)).convert("RGB")
    return sum(1 for r, g, b in img.getdata() if r > 240 and 180 < g < 240 and b < 200)


def test_marks_the_passage_on_its_page(zh_pdf: tuple[bytes, object]) -> None:
    data, ex = zh_pdf
    fact = md.ZH_FACTS["penalty"]
    start = ex.text.index(fact)
    out = render_passage(data, ex.spans, ex.text, start, start + len(fact))
    assert out.page == md.ZH_CLAUSE_PAGES["第六条"]
    assert out.marked and out.note == "exact" and len(out.boxes) == 1
    img = Image.open(io.BytesIO(out.png))
    assert img.format == "PNG" and img.width > 500
    assert _marked_pixels(out.png) > 500
    left, top, right, bottom = out.boxes[0]
    assert 0 <= left < right <= img.width and 0 <= top < bottom <= img.height


def test_page_without_match_is_unmarked(zh_pdf: tuple[bytes, object]) -> None:
    data, _ = zh_pdf
    out = render_page(data, 1, "this sentence is nowhere in the contract at all")
    assert not out.marked and out.boxes == [] and "found" in out.note
    assert _marked_pixels(out.png) == 0


def test_bad_page_and_bad_pdf(zh_pdf: tuple[bytes, object]) -> None:
    data, _ = zh_pdf
    with pytest.raises(LexgateError):
        render_page(data, 99)
    with pytest.raises(LexgateError):
        render_page(b"%PDF-1.4 garbage", 1)


def test_english_multi_line_passage(tmp_path: Path) -> None:
    path = md.write_en_contract_pdf(tmp_path)
    data = path.read_bytes()
    ex = extract(data, path.name, Settings().ingest)
    start = ex.text.index("This Agreement shall be governed")
    end = ex.text.index("principles.") + len("principles.")
    out = render_passage(data, ex.spans, ex.text, start, end)
    assert out.page == 3 and out.marked and len(out.boxes) == 2


def test_helpers() -> None:
    spans = [{"start": 0, "end": 10, "page": 1}, {"start": 12, "end": 20, "page": 2}]
    assert locate_page(spans, 5).page == 1  # type: ignore[union-attr]
    assert locate_page(spans, 11).page == 2  # type: ignore[union-attr]
    assert locate_page([], 3) is None
    idx, how = match_chars(list("ab\ncd ef"), "b c d")
    assert idx == [1, 3, 4] and how == "exact"
    assert line_boxes([(0, 0, 5, 10), (5, 0, 10, 10), (0, 20, 5, 30)]) == [(0, 0, 10, 10), (0, 20, 5, 30)]


def test_crop_keeps_the_band_around_the_passage(zh_pdf: tuple[bytes, object]) -> None:
    data, ex = zh_pdf
    fact = md.ZH_FACTS["rent"]
    start = ex.text.index(fact)
    full = render_passage(data, ex.spans, ex.text, start, start + len(fact))
    band = render_passage(data, ex.spans, ex.text, start, start + len(fact), crop=True)
    full_img, band_img = Image.open(io.BytesIO(full.png)), Image.open(io.BytesIO(band.png))
    assert band.marked and band_img.width <= full_img.width and band_img.height < full_img.height / 2
    assert _marked_pixels(band.png) == _marked_pixels(full.png)
    assert all(0 <= b[1] < b[3] <= band_img.height and 0 <= b[0] < b[2] <= band_img.width for b in band.boxes)
    unmarked = render_page(data, 1, "nowhere to be found in this lease at all", crop=True)
    assert Image.open(io.BytesIO(unmarked.png)).height == full_img.height
