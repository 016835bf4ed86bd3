"""Knowledge bases and their documents: create, list, rename, delete, and recovery after a crash.

Why together: a knowledge base owns its documents and its chunks table, so deleting one or
recovering from a killed ingestion touches all three under one writer lock.
"""

from __future__ import annotations

from filelock import FileLock, Timeout

from rag_core.errors import LexgateError, NotFound
from rag_core.models import Document, KnowledgeBase
from storage import schema as S
from storage.base import Database, all_of, eq, new_id, now_iso, one_of, validate_name
from storage.rows import ChunkRow, DocumentMeta, DocumentRow

DOC_PREFIX_MIN_CHARS = 8
"""A document id prefix names a document only from this length on (shorter ones are ambiguous)."""


class KnowledgeBases:
    """The knowledge bases of one data directory."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def create(self, name: str, embed_backend: str, embed_model: str, embed_dim: int) -> KnowledgeBase:
        name = validate_name(name, "knowledge base")
        with self._db.write():
            if self.find(name):
                raise LexgateError(f"a knowledge base named '{name}' already exists", "choose another name")
            kb = KnowledgeBase(
                id=new_id()[:16],
                name=name,
                embed_backend=embed_backend,
                embed_model=embed_model,
                embed_dim=embed_dim,
                created_at=now_iso(),
            )
            self._db.create_chunks_table(kb)
            self._db.table(S.KBS).add([kb.__dict__])
        return kb

    def all(self) -> list[KnowledgeBase]:
        rows = self._db.rows(S.KBS)
        return sorted((KnowledgeBase(**r) for r in rows), key=lambda k: k.created_at)

    def find(self, name_or_id: str) -> KnowledgeBase | None:
        for kb in self.all():
            if name_or_id in (kb.name, kb.id):
                return kb
        return None

    def get(self, name_or_id: str) -> KnowledgeBase:
        kb = self.find(name_or_id)
        if kb is None:
            names = ", ".join(k.name for k in self.all()) or "none yet"
            raise NotFound(
                f"no knowledge base named '{name_or_id}'",
                f"existing: {names}; create one with `kb create NAME`",
            )
        return kb

    def rename(self, old: str, new: str) -> KnowledgeBase:
        new = validate_name(new, "knowledge base")
        with self._db.write():
            kb = self.get(old)
            other = self.find(new)
            if other and other.id != kb.id:
                raise LexgateError(f"a knowledge base named '{new}' already exists", "choose another name")
            self._db.table(S.KBS).update(where=eq("id", kb.id), values={"name": new})
            kb.name = new
        return kb

    def set_empty_answer(self, name_or_id: str, text: str) -> None:
        with self._db.write():
            kb = self.get(name_or_id)
            self._db.table(S.KBS).update(where=eq("id", kb.id), values={"empty_answer": text})

    def delete(self, name_or_id: str) -> None:
        """The knowledge base, its documents and its chunks table."""
        with self._db.write():
            kb = self.get(name_or_id)
            self._db.table(S.DOCUMENTS).delete(eq("kb_id", kb.id))
            self._db.drop_chunks_table(kb)
            self._db.table(S.KBS).delete(eq("id", kb.id))


class Documents:
    """The documents of the knowledge bases, with their extracted text and original bytes."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def all(self, kb: KnowledgeBase) -> list[Document]:
        rows = self._db.rows(S.DOCUMENTS, eq("kb_id", kb.id), list(S.DOCUMENT_LIST_COLUMNS))
        docs = [Document(**{k: r[k] for k in S.DOCUMENT_LIST_COLUMNS}) for r in rows]
        return sorted(docs, key=lambda d: d.ingested_at)

    def find(self, kb: KnowledgeBase, doc_id_or_name: str) -> Document | None:
        for doc in self.all(kb):
            if doc_id_or_name in (doc.id, doc.file_name) or (
                len(doc_id_or_name) >= DOC_PREFIX_MIN_CHARS and doc.id.startswith(doc_id_or_name)
            ):
                return doc
        return None

    def get(self, kb: KnowledgeBase, doc_id_or_name: str) -> Document:
        doc = self.find(kb, doc_id_or_name)
        if doc is None:
            raise NotFound(
                f"no document '{doc_id_or_name}' in knowledge base '{kb.name}'",
                "list documents with `docs --kb NAME`",
            )
        return doc

    def text(self, doc_id: str) -> str:
        rows = self._db.rows(S.DOCUMENTS, eq("id", doc_id), ["text"])
        if not rows:
            raise NotFound(f"no document with id {doc_id}")
        return str(rows[0]["text"])

    def texts(self, doc_ids: list[str]) -> dict[str, str]:
        """Extracted texts of several documents in one read (citation highlighting, benchmarks)."""
        if not doc_ids:
            return {}
        return {r["id"]: r["text"] for r in self._db.rows(S.DOCUMENTS, one_of("id", doc_ids), ["id", "text"])}

    def source(self, doc_id: str) -> bytes:
        rows = self._db.rows(S.DOCUMENTS, eq("id", doc_id), ["source"])
        if not rows:
            raise NotFound(f"no document with id {doc_id}")
        return bytes(rows[0]["source"] or b"")

    def meta(self, kb: KnowledgeBase) -> list[DocumentMeta]:
        """Titles, names and defined terms of every document: what document routing matches on."""
        cols = ["id", "file_name", "title", "terms", "spans_json"]
        return [
            DocumentMeta(
                id=str(r["id"]),
                file_name=r["file_name"] or "",
                title=r["title"] or "",
                terms=r["terms"] or "",
                spans_json=r["spans_json"] or "[]",
            )
            for r in self._db.rows(S.DOCUMENTS, eq("kb_id", kb.id), cols)
        ]

    def add(self, kb: KnowledgeBase, doc: DocumentRow, chunks: list[ChunkRow]) -> None:
        """Chunks first, then the document row, in one locked transaction; recovery cleans any crash."""
        with self._db.write():
            if self._db.rows(S.DOCUMENTS, all_of(eq("id", doc.id), eq("kb_id", kb.id)), ["id"]):
                raise LexgateError(f"document {doc.id[:12]} is already in '{kb.name}'")
            if chunks:
                self._db.chunks_table(kb).add([c.to_record(kb.embed_dim) for c in chunks])
            self._db.table(S.DOCUMENTS).add([doc.to_record()])

    def set_status(self, kb: KnowledgeBase, doc_ids: list[str], status: str) -> None:
        """One update for many documents: every update adds a fragment to the table."""
        if not doc_ids:
            return
        with self._db.write():
            self._db.table(S.DOCUMENTS).update(
                where=all_of(one_of("id", doc_ids), eq("kb_id", kb.id)), values={"status": status}
            )

    def compact(self) -> None:
        """Fold the documents table's one-row fragments together.

        Why: each added document and each status update writes a fragment, and every read scans
        them all; after 4,500 documents a status update took 1.4 s. Ingestion compacts after
        each batch so the table stays as fast as a freshly written one.
        """
        with self._db.write():
            self._db.table(S.DOCUMENTS).optimize()

    def fragment_count(self) -> int:
        """How many fragments the documents table has (what ``compact`` keeps small)."""
        return int(self._db.table(S.DOCUMENTS).stats()["fragment_stats"]["num_fragments"])

    def delete(self, kb: KnowledgeBase, doc_id: str) -> None:
        """Chunks go first: a crash in between leaves a document without chunks, which recovery removes."""
        with self._db.write():
            self._db.chunks_table(kb).delete(eq("doc_id", doc_id))
            self._db.table(S.DOCUMENTS).delete(all_of(eq("id", doc_id), eq("kb_id", kb.id)))

    def ingest_lease(self, doc_id: str) -> FileLock:
        """Held for a document's whole ingestion, so recovery can tell a live ingestion from a dead one."""
        return self._db.lease(f"ingest-{doc_id}")

    def recover(self, kb: KnowledgeBase) -> list[str]:
        """Remove what a killed ingestion left behind: documents stuck in ``embedding`` whose lease is
        free, and chunks whose document row is missing. Returns the removed document ids.

        Stuck documents are removed in one delete per table (a delete per document over a large
        batch was the slow part), while their leases are held so no live ingestion loses one.
        """
        with self._db.write():
            docs = self._db.rows(S.DOCUMENTS, eq("kb_id", kb.id), ["id", "status"])
            leases: list[tuple[str, FileLock]] = []
            try:
                for d in docs:
                    if d["status"] != "embedding":
                        continue
                    lease = self.ingest_lease(d["id"])
                    try:
                        lease.acquire(timeout=0)
                    except Timeout:
                        continue  # a live ingestion holds it
                    leases.append((d["id"], lease))
                stuck = [doc_id for doc_id, _ in leases]
                if stuck:
                    self._db.chunks_table(kb).delete(one_of("doc_id", stuck))
                    self._db.table(S.DOCUMENTS).delete(all_of(one_of("id", stuck), eq("kb_id", kb.id)))
            finally:
                for _, lease in leases:
                    lease.release()
            known = {d["id"] for d in docs} - set(stuck)
            chunk_docs = {r["doc_id"] for r in self._db.rows(S.CHUNKS_PREFIX + kb.id, None, ["doc_id"])}
            orphans = sorted(chunk_docs - known)
            if orphans:
                self._db.chunks_table(kb).delete(one_of("doc_id", orphans))
        return stuck + orphans
