"""Cached resources of the app: the store, the settings in force, and the configured pipeline.

Why ``st.cache_resource``: one LanceDB connection per data directory and one pipeline per
settings version are shared by every session and every rerun; the settings themselves are read
fresh on each run (one small row) so a save on the Admin page takes effect on the next question.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import streamlit as st

from rag_core.paths import data_home
from rag_core.settings import Settings
from storage.store import Store, open_store


def home() -> Path:
    """The data directory (``LEXGATE_HOME`` or ./lexgate-data), resolved on every run."""
    return data_home()


@st.cache_resource(show_spinner=False)
def _store(path: str) -> Store:
    return open_store(Path(path))


def store() -> Store:
    return _store(str(home()))


def settings() -> Settings:
    """The saved settings (defaults when none were saved)."""
    return store().prefs.load_settings()


@st.cache_resource(show_spinner=False, max_entries=4)
def _pipeline(path: str, settings_json: str) -> Any:
    from rag_core.pipeline import Pipeline

    return Pipeline.from_settings(_store(path), Settings.model_validate_json(settings_json))


def pipeline(s: Settings) -> Any:
    """The pipeline for ``s``, built once per settings version (models load lazily on first use)."""
    return _pipeline(str(home()), s.model_dump_json())


WARMUP_ENV = "LEXGATE_WARMUP"
"""Set to 0 to keep the app from loading the local model at start (the test suite does)."""


def warmup() -> Any:
    """The local model's background warm-up (``rag_core.llm.warmup``), started once per process."""
    from rag_core.llm.warmup import current_state, warmup_state

    s = settings()
    if os.environ.get(WARMUP_ENV, "1") == "0":
        return current_state(s)
    language = "en" if st.session_state.get("lang") == "en" else "zh"
    return warmup_state(s, language)


@st.cache_data(show_spinner=False, max_entries=64)
def document_text(path: str, doc_id: str) -> str:
    """A document's extracted text (documents never change: their id is their content hash)."""
    return _store(path).docs.text(doc_id)


@st.cache_data(show_spinner=False, max_entries=4)
def document_source(path: str, doc_id: str) -> bytes:
    return _store(path).docs.source(doc_id)


@st.cache_data(show_spinner=False, max_entries=64, ttl=30)
def document_info(path: str, doc_id: str) -> tuple[str, str]:
    """(file type, page spans JSON) of a document in any knowledge base; ("", "[]") when gone."""
    s = _store(path)
    for kb in s.kbs.all():
        for row in s.docs.meta(kb):
            if row.id == doc_id:
                doc = s.docs.get(kb, doc_id)
                return doc.file_type, row.spans_json or "[]"
    return "", "[]"


PAGE_SCALE = 2.0
"""Pixels per PDF point of the citation page image (crisp when cropped to the passage)."""


@st.cache_data(show_spinner=False, max_entries=128)
def rendered_page(
    path: str,
    doc_id: str,
    spans_json: str,
    start: int,
    end: int,
    crop: bool = True,
    marks: tuple[tuple[int, int], ...] = (),
    page: int | None = None,
) -> tuple[bytes, int, bool, str]:
    """(PNG, page, marked, note) of a PDF page of the passage ``start:end`` with ``marks`` (document
    ranges; the passage itself without them) marked, cropped to them; ``page`` by default the
    page where the first mark begins."""
    import json

    from rag_core.render import render_passage

    out = render_passage(
        document_source(path, doc_id),
        json.loads(spans_json),
        document_text(path, doc_id),
        start,
        end,
        scale=PAGE_SCALE,
        crop=crop,
        marks=marks,
        page=page,
    )
    return out.png, out.page, out.marked, out.note
