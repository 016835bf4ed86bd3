"""Validation: every bad input is refused with the file name, what is wrong and what to do."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from rag_core.errors import IngestError
from rag_core.ingest.validate import SUPPORTED_EXTENSIONS, validate
from rag_core.settings import IngestSettings
from tests.fixtures import make_docs

DEFAULTS = IngestSettings()


def _refused(path: Path, settings: IngestSettings = DEFAULTS) -> IngestError:
    with pytest.raises(IngestError) as caught:
        validate(path.read_bytes(), path.name, settings)
    err = caught.value
    assert path.name in str(err), "the message must name the file"
    assert err.hint, "the message must say what to do"
    return err


@pytest.mark.parametrize(
    ("writer", "file_type"),
    [
        (make_docs.write_en_contract_pdf, "pdf"),
        (make_docs.write_docx, "docx"),
        (make_docs.write_zh_txt_utf8, "txt"),
        (make_docs.write_zh_txt_gb18030, "txt"),
        (make_docs.write_md, "md"),
    ],
)
def test_good_files_pass_with_their_canonical_type(
    tmp_path: Path, writer: Callable[[Path], Path], file_type: str
) -> None:
    path = writer(tmp_path)
    assert validate(path.read_bytes(), path.name, DEFAULTS) == file_type


def test_extension_is_case_insensitive(tmp_path: Path) -> None:
    path = make_docs.write_en_contract_pdf(tmp_path, "CONTRACT.PDF")
    assert validate(path.read_bytes(), path.name, DEFAULTS) == "pdf"


def test_empty_file(tmp_path: Path) -> None:
    assert "empty" in _refused(make_docs.write_empty(tmp_path)).what


def test_unsupported_extension_lists_supported_ones(tmp_path: Path) -> None:
    err = _refused(make_docs.write_unsupported(tmp_path))
    assert ".xyz" in err.what
    for ext in SUPPORTED_EXTENSIONS:
        assert ext in err.hint


def test_old_doc_extension_suggests_docx(tmp_path: Path) -> None:
    err = _refused(make_docs._write(tmp_path, "old.doc", b"\xd0\xcf\x11\xe0"))
    assert ".docx" in err.hint


def test_pdf_that_is_text(tmp_path: Path) -> None:
    assert "not a PDF" in _refused(make_docs.write_fake_pdf(tmp_path)).what


def test_docx_that_is_old_word(tmp_path: Path) -> None:
    assert ".doc" in _refused(make_docs.write_doc_as_docx(tmp_path)).what


def test_docx_that_is_a_pdf(tmp_path: Path) -> None:
    pdf = make_docs.write_en_contract_pdf(tmp_path)
    fake = make_docs._write(tmp_path, "fake.docx", pdf.read_bytes())
    assert "PDF" in _refused(fake).what


def test_zip_without_word_document(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("notes.txt", "hello")
    assert "word/document.xml" in _refused(make_docs._write(tmp_path, "a.docx", buffer.getvalue())).what


def test_truncated_docx_zip_directory(tmp_path: Path) -> None:
    assert "damaged" in _refused(make_docs.write_truncated_docx(tmp_path)).what


def test_txt_that_is_a_pdf(tmp_path: Path) -> None:
    assert "PDF" in _refused(make_docs.write_pdf_as_txt(tmp_path)).what


def test_txt_with_nul_bytes(tmp_path: Path) -> None:
    assert "binary" in _refused(make_docs._write(tmp_path, "b.txt", b"abc\x00def")).what


def test_utf16_text_is_refused_with_save_as_utf8_hint(tmp_path: Path) -> None:
    path = make_docs._write(tmp_path, "u16.txt", "合同".encode("utf-16"))
    assert "UTF-8" in _refused(path).hint


def test_oversized_file(tmp_path: Path) -> None:
    path = make_docs.write_oversized_txt(tmp_path, size_kb=200)
    err = _refused(path, IngestSettings(max_file_mb=0.1))
    assert "0.1 MB" in err.what
    # the same file passes under the default limit
    assert validate(path.read_bytes(), path.name, DEFAULTS) == "txt"


def test_docx_bomb_by_ratio(tmp_path: Path) -> None:
    err = _refused(make_docs.write_docx_bomb(tmp_path, unpacked_mb=4))
    assert "×" in err.what
    assert "zip bomb" in err.hint


def test_docx_over_unpacked_size_limit(tmp_path: Path) -> None:
    path = make_docs.write_docx(tmp_path)
    err = _refused(path, IngestSettings(max_docx_unpacked_mb=0.001))
    assert "unpacks to" in err.what
    assert validate(path.read_bytes(), path.name, DEFAULTS) == "docx"
