"""Checks a file must pass before any parser sees it: type, size, honest extension, zip-bomb guard.

Why before parsing: parsers fail late and obscurely (or, for a zip bomb, take the machine down).
Cheap checks on the raw bytes let the lawyer read what is wrong with *their* file and what to do,
and keep hostile or mislabelled files away from pypdf/python-docx altogether.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import PurePath

from rag_core.errors import IngestError
from rag_core.settings import IngestSettings

FileType = str  # "pdf" | "docx" | "txt" | "md"

SUPPORTED_EXTENSIONS: dict[str, FileType] = {
    ".pdf": "pdf",
    ".docx": "docx",
    ".txt": "txt",
    ".md": "md",
    ".markdown": "md",
}
"""Extension (lower case) → canonical file type."""

BYTES_PER_MB = 1_000_000
"""Decimal megabytes, as the ingestion pipeline counts them, so both checks agree."""

PDF_MAGIC = b"%PDF-"
PDF_HEADER_WINDOW = 1024
"""PDF readers accept the ``%PDF-`` header anywhere in the first 1024 bytes (junk before it occurs)."""

ZIP_MAGIC = b"PK\x03\x04"
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # legacy .doc/.xls (Compound File Binary)
DOCX_MAIN_PART = "word/document.xml"
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")

BINARY_MAGICS: dict[bytes, tuple[str, str]] = {
    PDF_MAGIC: ("pdf", "a PDF"),
    ZIP_MAGIC: ("zip", "a ZIP/DOCX/XLSX archive"),
    OLE_MAGIC: ("ole", "an old Word/Excel (.doc/.xls) file"),
    b"\x89PNG": ("png", "a PNG image"),
    b"\xff\xd8\xff": ("jpeg", "a JPEG image"),
    b"GIF8": ("gif", "a GIF image"),
    b"II*\x00": ("tiff", "a TIFF image"),
    b"MM\x00*": ("tiff", "a TIFF image"),
    b"\x7fELF": ("program", "a program"),
    b"Rar!": ("rar", "a RAR archive"),
    b"7z\xbc\xaf": ("7z", "a 7-Zip archive"),
    b"\x1f\x8b": ("gzip", "a gzip archive"),
}
"""Magic bytes of binary formats that people mistakenly upload as .txt/.md → (kind, English name).
The kind is the ``kind`` parameter of the error, which the UI names in its own language."""

SUPPORTED_HINT = "upload a PDF, Word (.docx), plain-text (.txt) or Markdown (.md) file"


def validate(data: bytes, file_name: str, settings: IngestSettings) -> FileType:
    """The canonical file type of ``data``; raises ``IngestError`` saying what is wrong and what to do."""
    if not data:
        raise IngestError(
            "the file is empty (0 bytes)",
            "choose the file again; it may not have finished saving or downloading",
            subject=file_name,
            code="ingest_empty",
            params={"file": file_name},
        )
    file_type = file_type_from_name(file_name)
    check_size(data, file_name, settings)
    if file_type == "pdf":
        check_pdf_header(data, file_name)
    elif file_type == "docx":
        check_docx_container(data, file_name, settings)
    else:
        check_plain_text_bytes(data, file_name)
    return file_type


def file_type_from_name(file_name: str) -> FileType:
    """Canonical type from the extension, or an error that lists the supported ones."""
    suffix = PurePath(file_name).suffix.lower()
    if suffix in SUPPORTED_EXTENSIONS:
        return SUPPORTED_EXTENSIONS[suffix]
    supported = ", ".join(SUPPORTED_EXTENSIONS)
    what = f"unsupported file type {suffix or '(no extension)'}"
    params = {"file": file_name, "ext": suffix, "supported": supported}
    if suffix == ".doc":
        hint = "open it in Word and save it as .docx, then upload again"
        raise IngestError(what, hint, subject=file_name, code="ingest_old_doc", params=params)
    if suffix in {".rtf", ".odt", ".pages", ".wps"}:
        hint = "save it as .docx or PDF, then upload again"
        raise IngestError(what, hint, subject=file_name, code="ingest_office_type", params=params)
    hint = f"{SUPPORTED_HINT} ({supported})"
    if not suffix:
        raise IngestError(what, hint, subject=file_name, code="ingest_no_extension", params=params)
    raise IngestError(what, hint, subject=file_name, code="ingest_unsupported_type", params=params)


def check_size(data: bytes, file_name: str, settings: IngestSettings) -> None:
    """Refuse files over ``max_file_mb`` before any parser allocates memory for them."""
    size_mb = len(data) / BYTES_PER_MB
    if size_mb > settings.max_file_mb:
        raise IngestError(
            f"the file is {size_mb:.1f} MB, over the {settings.max_file_mb:g} MB limit",
            "split the document into smaller files, or raise 'max_file_mb' in Admin",
            subject=file_name,
            code="ingest_too_large",
            params={"file": file_name, "size_mb": round(size_mb, 1), "limit_mb": settings.max_file_mb},
        )


def check_pdf_header(data: bytes, file_name: str) -> None:
    """A .pdf must carry the PDF header; otherwise say what it really is when we can tell."""
    if PDF_MAGIC in data[:PDF_HEADER_WINDOW]:
        return
    kind, real = sniff(data)
    hint = "export or save it as PDF again, or upload it with its real extension"
    if real:
        raise IngestError(
            f"the file is named .pdf but is {real}",
            hint,
            subject=file_name,
            code="ingest_pdf_disguised",
            params={"file": file_name, "kind": kind},
        )
    raise IngestError(
        "the file is named .pdf but is not a PDF",
        hint,
        subject=file_name,
        code="ingest_not_pdf",
        params={"file": file_name},
    )


def check_docx_container(data: bytes, file_name: str, settings: IngestSettings) -> None:
    """A .docx must be a zip holding ``word/document.xml`` and of sane unpacked size.

    The zip directory is read without decompressing anything: the declared sizes are summed and
    compared with ``max_docx_unpacked_mb`` and ``max_docx_ratio``. Declared sizes are also what
    the zip reader enforces when decompressing later, so a lying directory cannot slip past.
    """
    if data.startswith(OLE_MAGIC):
        raise IngestError(
            "the file is an old Word .doc file renamed to .docx",
            "open it in Word and use 'Save as' → Word Document (.docx), then upload again",
            subject=file_name,
            code="ingest_doc_renamed",
            params={"file": file_name},
        )
    if not data.startswith(ZIP_MAGIC):
        kind, real = sniff(data)
        hint = "save it from Word as .docx, or upload it with its real extension"
        if real:
            raise IngestError(
                f"the file is named .docx but is {real}",
                hint,
                subject=file_name,
                code="ingest_docx_disguised",
                params={"file": file_name, "kind": kind},
            )
        raise IngestError(
            "the file is named .docx but is not a Word document",
            hint,
            subject=file_name,
            code="ingest_not_docx",
            params={"file": file_name},
        )
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            infos = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        raise IngestError(
            f"the Word document is damaged (its zip structure cannot be read: {exc})",
            "open it in Word, save it again as .docx, then upload again",
            subject=file_name,
            code="ingest_docx_damaged",
            params={"file": file_name},
        ) from exc
    if DOCX_MAIN_PART not in {info.filename for info in infos}:
        raise IngestError(
            f"the file is a zip archive but not a Word document (no {DOCX_MAIN_PART})",
            "upload the .docx saved by Word, or unpack the archive and upload the documents in it",
            subject=file_name,
            code="ingest_zip_not_docx",
            params={"file": file_name},
        )
    check_unpacked_size(sum(info.file_size for info in infos), len(data), file_name, settings)


def check_unpacked_size(unpacked: int, packed: int, file_name: str, settings: IngestSettings) -> None:
    """Zip-bomb guard on declared sizes: absolute limit and unpacked/packed ratio."""
    unpacked_mb = unpacked / BYTES_PER_MB
    hint = "this looks like a zip bomb or a damaged file; save the document again from Word and retry"
    if unpacked_mb > settings.max_docx_unpacked_mb:
        raise IngestError(
            f"the Word document unpacks to {unpacked_mb:.1f} MB, over the "
            f"{settings.max_docx_unpacked_mb:g} MB limit",
            hint + ", or raise 'max_docx_unpacked_mb' in Admin",
            subject=file_name,
            code="ingest_docx_unpacked_too_large",
            params={
                "file": file_name,
                "size_mb": round(unpacked_mb, 1),
                "limit_mb": settings.max_docx_unpacked_mb,
            },
        )
    ratio = unpacked / max(packed, 1)
    if ratio > settings.max_docx_ratio:
        raise IngestError(
            f"the Word document unpacks to {ratio:.0f}× its size, over the {settings.max_docx_ratio:g}× limit",
            hint,
            subject=file_name,
            code="ingest_docx_ratio",
            params={"file": file_name, "ratio": round(ratio), "limit": settings.max_docx_ratio},
        )


def check_plain_text_bytes(data: bytes, file_name: str) -> None:
    """A .txt/.md must not be a binary file in disguise (magic bytes, NUL bytes, UTF-16)."""
    kind, real = sniff(data)
    if real:
        ext = PurePath(file_name).suffix.lower()
        raise IngestError(
            f"the file is named {ext} but is {real}",
            "upload it with its real extension (e.g. .pdf or .docx)",
            subject=file_name,
            code="ingest_text_disguised",
            params={"file": file_name, "ext": ext, "kind": kind},
        )
    if data.startswith(UTF16_BOMS):
        raise IngestError(
            "the text file is encoded as UTF-16, which is not supported",
            "save it as UTF-8 (in Notepad: Save as → Encoding: UTF-8), then upload again",
            subject=file_name,
            code="ingest_utf16",
            params={"file": file_name},
        )
    if b"\x00" in data:
        raise IngestError(
            "the file contains binary data (NUL bytes), not plain text",
            "save the document as UTF-8 text, or upload the original PDF/DOCX",
            subject=file_name,
            code="ingest_binary_text",
            params={"file": file_name},
        )


def sniff(data: bytes) -> tuple[str, str]:
    """(kind, English name) of the binary format ``data`` starts with, or ("", "") if none is known."""
    for magic, found in BINARY_MAGICS.items():
        if data.startswith(magic):
            return found
    return "", ""
