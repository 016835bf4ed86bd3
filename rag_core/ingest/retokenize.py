"""Bring a knowledge base's full-text columns up to the current tokenizer without re-embedding.

Why: stemming or jieba dictionary changes alter the keyword leg's vocabulary; queries are tokenized
with the current code, so an index built by older code would silently miss matches. Vectors and
offsets are untouched, so this takes seconds where re-ingestion takes minutes.
"""

from __future__ import annotations

from rag_core import textproc
from rag_core.models import KnowledgeBase
from rag_core.settings import Settings
from storage.chunks import ChunkFilter
from storage.store import Store

META_KEY = "tokenizer:{kb_id}"


def tokenizer_version(store: Store, kb: KnowledgeBase) -> int:
    """The tokenizer version a knowledge base was indexed with (1 before versions were recorded)."""
    value = store.prefs.get_meta(META_KEY.format(kb_id=kb.id))
    return int(value) if value is not None else 1


def mark_current(store: Store, kb: KnowledgeBase) -> None:
    store.prefs.set_meta(META_KEY.format(kb_id=kb.id), textproc.TOKENIZER_VERSION)


def ensure_current_tokens(store: Store, kb: KnowledgeBase, settings: Settings) -> int:
    """Re-tokenize when the knowledge base is behind the current tokenizer; returns chunks rewritten."""
    if tokenizer_version(store, kb) >= textproc.TOKENIZER_VERSION:
        return 0
    rows = store.chunks.rows(kb, ChunkFilter(searchable=True), with_vector=True)
    for row in rows:
        basis = row.clause + "\n" + row.text
        row.tokens = " ".join(textproc.tokens(basis))
        row.bigrams = " ".join(textproc.bigrams(basis))
    store.chunks.update_vectors(kb, rows)
    store.chunks.rebuild_fts(kb)
    store.chunks.ensure_indexes(kb, settings.ingest.vector_index_min_rows)
    mark_current(store, kb)
    return len(rows)
