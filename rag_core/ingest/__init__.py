"""Ingestion: validate a file, extract its text with page/section spans, detect its language.

``extract`` is the entry point (it validates first); ``pipeline`` stores and indexes the result.
"""

from __future__ import annotations

from rag_core.ingest.extract import extract, normalize_cjk
from rag_core.ingest.validate import SUPPORTED_EXTENSIONS, validate
from rag_core.textproc import detect_language, is_chinese

__all__ = ["SUPPORTED_EXTENSIONS", "detect_language", "extract", "is_chinese", "normalize_cjk", "validate"]
