"""Chunks and search: one knowledge base's chunks table, its indexes, and its two kinds of search.

Why the searches live here: the scope of a search (searchable chunks, embedded ones, some
documents) is a LanceDB filter string, and filter strings stay inside ``storage/``. Retrieval
asks for "the top k of these documents" and gets typed rows with their scores.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from rag_core.models import KnowledgeBase
from storage import schema as S
from storage.base import Database, all_of, eq, one_of
from storage.rows import ChunkRow

FTS_INDEX_OPTIONS = {
    "base_tokenizer": "whitespace",
    "lower_case": True,
    "stem": False,
    "remove_stop_words": False,
    "ascii_folding": False,
    "max_token_length": None,
    "with_position": False,
}
"""The token columns are already tokenized (jieba tokens, CJK bigrams): split on spaces only."""


@dataclass(frozen=True)
class ChunkFilter:
    """Which chunks a listing, count or search covers; None means "either"."""

    doc_ids: tuple[str, ...] | None = None
    searchable: bool | None = None
    embedded: bool | None = None
    exclude_kind: str | None = None  # e.g. "child": parents and plain chunks only
    starts_before: int | None = None  # chunks starting in a document's first this many characters

    def where(self) -> str | None:
        parts = [
            one_of("doc_id", self.doc_ids) if self.doc_ids else "",
            f"searchable = {str(self.searchable).lower()}" if self.searchable is not None else "",
            f"embedded = {str(self.embedded).lower()}" if self.embedded is not None else "",
            f"kind != '{self.exclude_kind}'" if self.exclude_kind else "",
            f"start < {int(self.starts_before)}" if self.starts_before is not None else "",
        ]
        return all_of(*parts) or None


def scope(
    doc_ids: list[str] | None, embedded: bool | None = None, starts_before: int | None = None
) -> ChunkFilter:
    """What a retrieval leg searches: searchable chunks, optionally within some documents (or their openings)."""
    return ChunkFilter(
        doc_ids=tuple(doc_ids) if doc_ids else None,
        searchable=True,
        embedded=embedded,
        starts_before=starts_before,
    )


class Chunks:
    """The chunks of every knowledge base (one table per knowledge base)."""

    def __init__(self, db: Database) -> None:
        self._db = db

    # ------------------------------------------------------------------ reads
    def rows(
        self,
        kb: KnowledgeBase,
        where: ChunkFilter | None = None,
        with_vector: bool = False,
    ) -> list[ChunkRow]:
        """Chunks matching the filter; the token columns and vector only when asked for."""
        cols = list(S.CHUNK_COLUMNS) + ([S.FTS_TOKENS, S.FTS_BIGRAMS, "vector"] if with_vector else [])
        cond = where.where() if where else None
        return [ChunkRow.from_record(r) for r in self._db.rows(S.CHUNKS_PREFIX + kb.id, cond, cols)]

    def of_document(self, kb: KnowledgeBase, doc_id: str) -> list[ChunkRow]:
        """A document's chunks in text order."""
        rows = self.rows(kb, ChunkFilter(doc_ids=(doc_id,)))
        return sorted(rows, key=lambda r: (r.start, r.end))

    def by_ids(self, kb: KnowledgeBase, ids: list[str]) -> dict[str, ChunkRow]:
        if not ids:
            return {}
        cols = list(S.CHUNK_COLUMNS)
        return {
            r["id"]: ChunkRow.from_record(r)
            for r in self._db.rows(S.CHUNKS_PREFIX + kb.id, one_of("id", ids), cols)
        }

    def count(self, kb: KnowledgeBase, where: ChunkFilter | None = None) -> int:
        return int(self._db.chunks_table(kb).count_rows(where.where() if where else None))

    # ------------------------------------------------------------------ search
    def fts_search(
        self, kb: KnowledgeBase, query: str, column: str, k: int, where: ChunkFilter
    ) -> list[tuple[ChunkRow, float]]:
        """BM25 over one full-text column: the top ``k`` rows with their scores."""
        rows = (
            self._db.chunks_table(kb)
            .search(query, query_type="fts", fts_columns=column)
            .where(where.where(), prefilter=True)
            .select([*S.CHUNK_COLUMNS, "_score"])
            .limit(k)
            .to_list()
        )
        return [(ChunkRow.from_record(r), float(r.get("_score", 0.0))) for r in rows]

    def vector_search(
        self, kb: KnowledgeBase, vector: np.ndarray, k: int, where: ChunkFilter
    ) -> list[tuple[ChunkRow, float]]:
        """Cosine nearest neighbours: the top ``k`` rows with their cosine similarity."""
        rows = (
            self._db.chunks_table(kb)
            .search(vector.astype(np.float32).tolist(), vector_column_name="vector")
            .metric("cosine")
            .where(where.where(), prefilter=True)
            .select([*S.CHUNK_COLUMNS, "_distance"])
            .limit(k)
            .to_list()
        )
        return [(ChunkRow.from_record(r), 1.0 - float(r.get("_distance", 1.0))) for r in rows]

    # ------------------------------------------------------------------ writes
    def add(self, kb: KnowledgeBase, rows: list[ChunkRow] | pa.Table) -> None:
        """Append chunks (typed rows, or an Arrow table of the chunks schema for bulk loads)."""
        data = rows if isinstance(rows, pa.Table) else [r.to_record(kb.embed_dim) for r in rows]
        with self._db.write():
            self._db.chunks_table(kb).add(data)

    def update_vectors(self, kb: KnowledgeBase, rows: list[ChunkRow]) -> None:
        """Replace whole chunk rows (with their vectors) by id."""
        if not rows:
            return
        table = pa.Table.from_pylist(
            [r.to_record(kb.embed_dim) for r in rows], schema=S.chunks_schema(kb.embed_dim)
        )
        with self._db.write():
            self._db.chunks_table(kb).merge_insert("id").when_matched_update_all().execute(table)

    def delete_document(self, kb: KnowledgeBase, doc_id: str) -> None:
        """A document's chunks only (the document row stays; recovery removes such leftovers)."""
        with self._db.write():
            self._db.chunks_table(kb).delete(eq("doc_id", doc_id))

    # ------------------------------------------------------------------ indexes
    def rebuild_fts(self, kb: KnowledgeBase) -> None:
        """Drop the full-text indexes so ``ensure_indexes`` builds them anew from the token columns."""
        tbl = self._db.chunks_table(kb)
        with self._db.write():
            for ix in tbl.list_indices():
                if ix.name in (f"{S.FTS_TOKENS}_idx", f"{S.FTS_BIGRAMS}_idx"):
                    tbl.drop_index(ix.name)

    def ensure_indexes(self, kb: KnowledgeBase, vector_index_min_rows: int) -> dict[str, str]:
        """Full-text indexes on both token columns, and IVF_FLAT once the table is large enough.

        Rows added after an index was built are still searched (flat) until ``optimize`` folds
        them in, so a new document is keyword-searchable at once. Returns what was built.
        """
        tbl = self._db.chunks_table(kb)
        report: dict[str, str] = {}
        with self._db.write():
            names = {ix.name for ix in tbl.list_indices()}
            for col in (S.FTS_TOKENS, S.FTS_BIGRAMS):
                if f"{col}_idx" not in names:
                    tbl.create_fts_index(col, **FTS_INDEX_OPTIONS)
                    report[col] = "created"
            rows = tbl.count_rows()
            if rows >= vector_index_min_rows and "vector_idx" not in names:
                partitions = max(1, int(np.sqrt(rows)))
                tbl.create_index(metric="cosine", index_type="IVF_FLAT", num_partitions=partitions)
                report["vector"] = f"IVF_FLAT {partitions} partitions"
            tbl.optimize()
        return report
