"""The embedded LanceDB store: knowledge bases, documents, chunks, chat history, verdicts, feedback,
settings and evaluation data, under one data directory.

Why a single writer: LanceDB's ``merge_insert`` was seen to create duplicate ids when two
processes wrote at once, so every write transaction takes one file lock. Readers never lock;
``read_consistency_interval=0`` makes every read see the newest committed version, so the app
sees documents ingested by the CLI without restarting.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import lancedb
import numpy as np
import pyarrow as pa
from filelock import FileLock, Timeout

from rag_core.errors import LexgateError, NotFound
from rag_core.models import Document, KnowledgeBase
from rag_core.settings import Settings
from storage import schema as S

WRITE_LOCK_TIMEOUT_S = 120.0
"""How long a writer waits for another writer before giving up with a clear message."""

LIST_COLUMNS_DOCS = [
    "id",
    "kb_id",
    "file_name",
    "file_type",
    "size_bytes",
    "pages",
    "language",
    "ingested_at",
    "status",
    "title",
    "encoding",
    "n_chunks",
    "notes",
]
CHUNK_COLUMNS = [
    "id",
    "doc_id",
    "text",
    "start",
    "end",
    "page",
    "anchor",
    "clause",
    "parent_id",
    "kind",
    "ordinal",
    "searchable",
    "embedded",
]


def now_iso() -> str:
    """UTC timestamps, so histories sort the same on every laptop."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def sql_str(value: str) -> str:
    """A SQL string literal for LanceDB filters; names come from users, so quotes are doubled."""
    return "'" + value.replace("'", "''") + "'"


def new_id() -> str:
    return uuid.uuid4().hex


class Store:
    """All persistent state of one Lexgate data directory."""

    def __init__(self, home: Path) -> None:
        self.home = Path(home)
        self.home.mkdir(parents=True, exist_ok=True)
        (self.home / "locks").mkdir(exist_ok=True)
        self.db = lancedb.connect(str(self.home / "db"), read_consistency_interval=timedelta(0))
        self._lock = FileLock(str(self.home / "locks" / "write.lock"))
        self._tables: dict[str, Any] = {}
        self._ensure_fixed_tables()

    # ------------------------------------------------------------------ plumbing
    @contextmanager
    def write(self) -> Iterator[None]:
        """The one write transaction lock of this data directory (re-entrant in-process)."""
        try:
            self._lock.acquire(timeout=WRITE_LOCK_TIMEOUT_S)
        except Timeout as err:
            raise LexgateError(
                f"the store at {self.home} is busy: another process has been writing for over "
                f"{WRITE_LOCK_TIMEOUT_S:.0f} s",
                "wait for the other ingestion to finish, then try again",
            ) from err
        try:
            yield
        finally:
            self._lock.release()

    def ingest_lease(self, doc_id: str) -> FileLock:
        """Held for a document's whole ingestion, so recovery can tell a live ingestion from a dead one."""
        return FileLock(str(self.home / "locks" / f"ingest-{doc_id}.lock"))

    def _table_names(self) -> set[str]:
        """All table names, page by page (``table_names`` returns only 10 by default)."""
        names: set[str] = set()
        token: str | None = None
        while True:
            resp = self.db.list_tables(page_token=token, limit=1000)
            names.update(resp.tables)
            token = resp.page_token
            if not token:
                return names

    def _ensure_fixed_tables(self) -> None:
        missing = [n for n in S.FIXED_TABLES if n not in self._table_names()]
        if not missing:
            return
        with self.write():
            existing = self._table_names()
            for name in missing:
                if name not in existing:
                    self.db.create_table(name, schema=S.FIXED_TABLES[name])

    def table(self, name: str) -> Any:
        """An open table, cached; reads still see the newest version (consistency interval 0)."""
        tbl = self._tables.get(name)
        if tbl is None:
            tbl = self.db.open_table(name)
            self._tables[name] = tbl
        return tbl

    def _rows(
        self, name: str, where: str | None = None, columns: list[str] | None = None
    ) -> list[dict[str, Any]]:
        q = self.table(name).search()
        if where:
            q = q.where(where)
        if columns:
            q = q.select(columns)
        rows: list[dict[str, Any]] = q.limit(None).to_list()
        return rows

    # ------------------------------------------------------------------ knowledge bases
    def create_kb(self, name: str, embed_backend: str, embed_model: str, embed_dim: int) -> KnowledgeBase:
        name = validate_name(name, "knowledge base")
        with self.write():
            if self.find_kb(name):
                raise LexgateError(f"a knowledge base named '{name}' already exists", "choose another name")
            kb = KnowledgeBase(
                id=new_id()[:16],
                name=name,
                embed_backend=embed_backend,
                embed_model=embed_model,
                embed_dim=embed_dim,
                created_at=now_iso(),
            )
            self.db.create_table(S.CHUNKS_PREFIX + kb.id, schema=S.chunks_schema(embed_dim))
            self.table(S.KBS).add([kb.__dict__])
        return kb

    def list_kbs(self) -> list[KnowledgeBase]:
        rows = self._rows(S.KBS)
        return sorted((KnowledgeBase(**r) for r in rows), key=lambda k: k.created_at)

    def find_kb(self, name_or_id: str) -> KnowledgeBase | None:
        for kb in self.list_kbs():
            if name_or_id in (kb.name, kb.id):
                return kb
        return None

    def get_kb(self, name_or_id: str) -> KnowledgeBase:
        kb = self.find_kb(name_or_id)
        if kb is None:
            names = ", ".join(k.name for k in self.list_kbs()) or "none yet"
            raise NotFound(
                f"no knowledge base named '{name_or_id}'",
                f"existing: {names}; create one with `kb create NAME`",
            )
        return kb

    def rename_kb(self, old: str, new: str) -> KnowledgeBase:
        new = validate_name(new, "knowledge base")
        with self.write():
            kb = self.get_kb(old)
            other = self.find_kb(new)
            if other and other.id != kb.id:
                raise LexgateError(f"a knowledge base named '{new}' already exists", "choose another name")
            self.table(S.KBS).update(where=f"id = {sql_str(kb.id)}", values={"name": new})
            kb.name = new
        return kb

    def set_kb_empty_answer(self, name_or_id: str, text: str) -> None:
        with self.write():
            kb = self.get_kb(name_or_id)
            self.table(S.KBS).update(where=f"id = {sql_str(kb.id)}", values={"empty_answer": text})

    def delete_kb(self, name_or_id: str) -> None:
        with self.write():
            kb = self.get_kb(name_or_id)
            self.table(S.DOCUMENTS).delete(f"kb_id = {sql_str(kb.id)}")
            table_name = S.CHUNKS_PREFIX + kb.id
            if table_name in self._table_names():
                self.db.drop_table(table_name)
            self._tables.pop(table_name, None)
            self.table(S.KBS).delete(f"id = {sql_str(kb.id)}")

    def chunks_table(self, kb: KnowledgeBase) -> Any:
        return self.table(S.CHUNKS_PREFIX + kb.id)

    # ------------------------------------------------------------------ documents
    def list_documents(self, kb: KnowledgeBase) -> list[Document]:
        rows = self._rows(S.DOCUMENTS, f"kb_id = {sql_str(kb.id)}", LIST_COLUMNS_DOCS)
        docs = [Document(**{k: r[k] for k in LIST_COLUMNS_DOCS}) for r in rows]
        return sorted(docs, key=lambda d: d.ingested_at)

    def find_document(self, kb: KnowledgeBase, doc_id_or_name: str) -> Document | None:
        for doc in self.list_documents(kb):
            if doc_id_or_name in (doc.id, doc.file_name) or (
                len(doc_id_or_name) >= 8 and doc.id.startswith(doc_id_or_name)
            ):
                return doc
        return None

    def get_document(self, kb: KnowledgeBase, doc_id_or_name: str) -> Document:
        doc = self.find_document(kb, doc_id_or_name)
        if doc is None:
            raise NotFound(
                f"no document '{doc_id_or_name}' in knowledge base '{kb.name}'",
                "list documents with `docs --kb NAME`",
            )
        return doc

    def document_text(self, doc_id: str) -> str:
        rows = self._rows(S.DOCUMENTS, f"id = {sql_str(doc_id)}", ["text"])
        if not rows:
            raise NotFound(f"no document with id {doc_id}")
        return str(rows[0]["text"])

    def document_texts(self, doc_ids: list[str]) -> dict[str, str]:
        """Extracted texts of several documents in one read (citation highlighting, benchmarks)."""
        if not doc_ids:
            return {}
        ids = ", ".join(sql_str(d) for d in sorted(set(doc_ids)))
        return {r["id"]: r["text"] for r in self._rows(S.DOCUMENTS, f"id IN ({ids})", ["id", "text"])}

    def document_source(self, doc_id: str) -> bytes:
        rows = self._rows(S.DOCUMENTS, f"id = {sql_str(doc_id)}", ["source"])
        if not rows:
            raise NotFound(f"no document with id {doc_id}")
        return bytes(rows[0]["source"] or b"")

    def document_meta(self, kb: KnowledgeBase) -> list[dict[str, Any]]:
        """Titles, names and defined terms of every document: what document routing matches on."""
        cols = ["id", "file_name", "title", "terms", "spans_json"]
        return self._rows(S.DOCUMENTS, f"kb_id = {sql_str(kb.id)}", cols)

    def add_document(self, row: dict[str, Any], chunk_rows: list[dict[str, Any]], kb: KnowledgeBase) -> None:
        """Chunks first, then the document row, in one locked transaction; recovery cleans any crash."""
        with self.write():
            if self._rows(S.DOCUMENTS, f"id = {sql_str(row['id'])} AND kb_id = {sql_str(kb.id)}", ["id"]):
                raise LexgateError(f"document {row['id'][:12]} is already in '{kb.name}'")
            if chunk_rows:
                self.chunks_table(kb).add(chunk_rows)
            self.table(S.DOCUMENTS).add([row])

    def set_documents_status(self, kb: KnowledgeBase, doc_ids: list[str], status: str) -> None:
        """One update for many documents: every update adds a fragment to the table."""
        if not doc_ids:
            return
        ids = ", ".join(sql_str(d) for d in doc_ids)
        with self.write():
            self.table(S.DOCUMENTS).update(
                where=f"id IN ({ids}) AND kb_id = {sql_str(kb.id)}", values={"status": status}
            )

    def compact_documents(self) -> None:
        """Fold the documents table's one-row fragments together.

        Why: each added document and each status update writes a fragment, and every read scans
        them all; after 4,500 documents a status update took 1.4 s. Ingestion compacts after
        each batch so the table stays as fast as a freshly written one.
        """
        with self.write():
            self.table(S.DOCUMENTS).optimize()

    def delete_document(self, kb: KnowledgeBase, doc_id: str) -> None:
        """Chunks go first: a crash in between leaves a document without chunks, which recovery removes."""
        with self.write():
            self.chunks_table(kb).delete(f"doc_id = {sql_str(doc_id)}")
            self.table(S.DOCUMENTS).delete(f"id = {sql_str(doc_id)} AND kb_id = {sql_str(kb.id)}")

    def recover(self, kb: KnowledgeBase) -> list[str]:
        """Remove what a killed ingestion left behind: documents stuck in ``embedding`` whose lease is
        free, and chunks whose document row is missing. Returns the removed document ids.

        Stuck documents are removed in one delete per table (a delete per document over a large
        batch was the slow part), while their leases are held so no live ingestion loses one.
        """
        with self.write():
            docs = self._rows(S.DOCUMENTS, f"kb_id = {sql_str(kb.id)}", ["id", "status"])
            leases = []
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
                    ids = ", ".join(sql_str(i) for i in stuck)
                    self.chunks_table(kb).delete(f"doc_id IN ({ids})")
                    self.table(S.DOCUMENTS).delete(f"id IN ({ids}) AND kb_id = {sql_str(kb.id)}")
            finally:
                for _, lease in leases:
                    lease.release()
            known = {d["id"] for d in docs} - set(stuck)
            chunk_docs = {r["doc_id"] for r in self._rows(S.CHUNKS_PREFIX + kb.id, None, ["doc_id"])}
            orphans = sorted(chunk_docs - known)
            if orphans:
                self.chunks_table(kb).delete("doc_id IN (" + ", ".join(sql_str(o) for o in orphans) + ")")
        return stuck + orphans

    # ------------------------------------------------------------------ chunks
    def update_vectors(self, kb: KnowledgeBase, rows: list[dict[str, Any]]) -> None:
        """Replace whole chunk rows (with their vectors) by id."""
        if not rows:
            return
        with self.write():
            (
                self.chunks_table(kb)
                .merge_insert("id")
                .when_matched_update_all()
                .execute(pa.Table.from_pylist(rows, schema=S.chunks_schema(kb.embed_dim)))
            )

    def chunk_rows(
        self, kb: KnowledgeBase, where: str | None = None, with_vector: bool = False
    ) -> list[dict[str, Any]]:
        cols = CHUNK_COLUMNS + ([S.FTS_TOKENS, S.FTS_BIGRAMS, "vector"] if with_vector else [])
        return self._rows(S.CHUNKS_PREFIX + kb.id, where, cols)

    def chunks_by_ids(self, kb: KnowledgeBase, ids: list[str]) -> dict[str, dict[str, Any]]:
        if not ids:
            return {}
        cond = "id IN (" + ", ".join(sql_str(i) for i in sorted(set(ids))) + ")"
        return {r["id"]: r for r in self.chunk_rows(kb, cond)}

    def count_chunks(self, kb: KnowledgeBase, where: str | None = None) -> int:
        return int(self.chunks_table(kb).count_rows(where))

    def rebuild_fts(self, kb: KnowledgeBase) -> None:
        """Drop the full-text indexes so ``ensure_indexes`` builds them anew from the token columns."""
        tbl = self.chunks_table(kb)
        with self.write():
            for ix in tbl.list_indices():
                if ix.name in (f"{S.FTS_TOKENS}_idx", f"{S.FTS_BIGRAMS}_idx"):
                    tbl.drop_index(ix.name)

    def ensure_indexes(self, kb: KnowledgeBase, vector_index_min_rows: int) -> dict[str, Any]:
        """Full-text indexes on both token columns, and IVF_FLAT once the table is large enough.

        Rows added after an index was built are still searched (flat) until ``optimize`` folds
        them in, so a new document is keyword-searchable at once.
        """
        tbl = self.chunks_table(kb)
        report: dict[str, Any] = {}
        with self.write():
            names = {ix.name for ix in tbl.list_indices()}
            for col in (S.FTS_TOKENS, S.FTS_BIGRAMS):
                if f"{col}_idx" not in names:
                    tbl.create_fts_index(
                        col,
                        base_tokenizer="whitespace",
                        lower_case=True,
                        stem=False,
                        remove_stop_words=False,
                        ascii_folding=False,
                        max_token_length=None,
                        with_position=False,
                    )
                    report[col] = "created"
            rows = tbl.count_rows()
            if rows >= vector_index_min_rows and "vector_idx" not in names:
                partitions = max(1, int(np.sqrt(rows)))
                tbl.create_index(metric="cosine", index_type="IVF_FLAT", num_partitions=partitions)
                report["vector"] = f"IVF_FLAT {partitions} partitions"
            tbl.optimize()
        return report

    # ------------------------------------------------------------------ conversations
    def create_conversation(self, title: str, kb_ids: list[str]) -> str:
        cid = new_id()
        ts = now_iso()
        with self.write():
            self.table(S.CONVERSATIONS).add(
                [
                    {
                        "id": cid,
                        "title": title,
                        "kb_ids": json.dumps(kb_ids),
                        "created_at": ts,
                        "updated_at": ts,
                    }
                ]
            )
        return cid

    def list_conversations(self, search: str = "") -> list[dict[str, Any]]:
        rows = self._rows(S.CONVERSATIONS)
        if search:
            needle = search.lower()
            rows = [r for r in rows if needle in r["title"].lower()]
        for r in rows:
            r["kb_ids"] = json.loads(r["kb_ids"] or "[]")
        return sorted(rows, key=lambda r: r["updated_at"], reverse=True)

    def get_conversation(self, cid: str) -> dict[str, Any]:
        rows = self._rows(S.CONVERSATIONS, f"id = {sql_str(cid)}")
        if not rows:
            raise NotFound(f"no conversation {cid}")
        rows[0]["kb_ids"] = json.loads(rows[0]["kb_ids"] or "[]")
        return rows[0]

    def update_conversation(self, cid: str, **values: Any) -> None:
        if "kb_ids" in values:
            values["kb_ids"] = json.dumps(values["kb_ids"])
        values["updated_at"] = now_iso()
        with self.write():
            self.table(S.CONVERSATIONS).update(where=f"id = {sql_str(cid)}", values=values)

    def delete_conversation(self, cid: str) -> None:
        with self.write():
            msg_ids = [r["id"] for r in self._rows(S.MESSAGES, f"conversation_id = {sql_str(cid)}", ["id"])]
            if msg_ids:
                cond = "message_id IN (" + ", ".join(sql_str(m) for m in msg_ids) + ")"
                self.table(S.VERDICTS).delete(cond)
            self.table(S.MESSAGES).delete(f"conversation_id = {sql_str(cid)}")
            self.table(S.CONVERSATIONS).delete(f"id = {sql_str(cid)}")

    def add_message(self, conversation_id: str, role: str, content: str, **extra: Any) -> str:
        """Append a message; ``extra`` JSON-able fields (citations, verdicts, trace, usage, settings)."""
        mid = new_id()
        with self.write():
            seq = self.table(S.MESSAGES).count_rows(f"conversation_id = {sql_str(conversation_id)}")
            row = {
                "id": mid,
                "conversation_id": conversation_id,
                "seq": seq,
                "role": role,
                "content": content,
                "thinking": extra.get("thinking", ""),
                "citations_json": json.dumps(extra.get("citations", []), ensure_ascii=False),
                "verdicts_json": json.dumps(extra.get("verdicts", []), ensure_ascii=False),
                "trace_json": json.dumps(extra.get("trace", {}), ensure_ascii=False),
                "usage_json": json.dumps(extra.get("usage", {})),
                "latency_ms": float(extra.get("latency_ms", 0.0)),
                "settings_json": json.dumps(extra.get("settings", {}), ensure_ascii=False),
                "refused": bool(extra.get("refused", False)),
                "created_at": now_iso(),
            }
            self.table(S.MESSAGES).add([row])
            verdicts = extra.get("verdicts", [])
            if verdicts:
                self.table(S.VERDICTS).add([_verdict_row(mid, v) for v in verdicts])
            self.table(S.CONVERSATIONS).update(
                where=f"id = {sql_str(conversation_id)}", values={"updated_at": row["created_at"]}
            )
        return mid

    def list_messages(self, conversation_id: str) -> list[dict[str, Any]]:
        rows = self._rows(S.MESSAGES, f"conversation_id = {sql_str(conversation_id)}")
        return sorted((_decode_message(r) for r in rows), key=lambda r: r["seq"])

    def get_message(self, message_id: str) -> dict[str, Any]:
        rows = self._rows(S.MESSAGES, f"id = {sql_str(message_id)}")
        if not rows:
            raise NotFound(f"no message {message_id}")
        return _decode_message(rows[0])

    def list_verdicts(self, message_id: str) -> list[dict[str, Any]]:
        return self._rows(S.VERDICTS, f"message_id = {sql_str(message_id)}")

    # ------------------------------------------------------------------ feedback
    def add_feedback(self, row: dict[str, Any]) -> str:
        fid = new_id()
        full = {
            "id": fid,
            "message_id": "",
            "conversation_id": "",
            "question": "",
            "answer": "",
            "rating": 0,
            "helpful": False,
            "correct_answer": "",
            "comment": "",
            "diagnosis": "",
            "trace_json": "{}",
            "created_at": now_iso(),
        }
        full.update(row)
        with self.write():
            self.table(S.FEEDBACK).add([full])
        return fid

    def list_feedback(self, max_rating: int | None = None) -> list[dict[str, Any]]:
        where = f"rating <= {int(max_rating)}" if max_rating is not None else None
        return sorted(self._rows(S.FEEDBACK, where), key=lambda r: r["created_at"], reverse=True)

    # ------------------------------------------------------------------ settings
    def load_settings(self) -> Settings:
        rows = self._rows(S.SETTINGS, "key = 'global'")
        if not rows:
            return Settings()
        return Settings.model_validate_json(rows[0]["value_json"])

    def save_settings(self, settings: Settings) -> None:
        with self.write():
            tbl = self.table(S.SETTINGS)
            tbl.delete("key = 'global'")
            tbl.add([{"key": "global", "value_json": settings.model_dump_json(), "updated_at": now_iso()}])

    def get_meta(self, key: str) -> Any:
        """A small JSON value kept beside the settings (e.g. a knowledge base's tokenizer version)."""
        rows = self._rows(S.SETTINGS, f"key = {sql_str('meta:' + key)}")
        return json.loads(rows[0]["value_json"]) if rows else None

    def set_meta(self, key: str, value: Any) -> None:
        with self.write():
            tbl = self.table(S.SETTINGS)
            tbl.delete(f"key = {sql_str('meta:' + key)}")
            tbl.add([{"key": "meta:" + key, "value_json": json.dumps(value), "updated_at": now_iso()}])

    # ------------------------------------------------------------------ test sets and eval runs
    def save_testset(self, name: str, kb_id: str, cases: list[dict[str, Any]], testset_id: str = "") -> str:
        """Create or replace a test set's cases in one locked write."""
        name = validate_name(name, "test set")
        tid = testset_id or new_id()
        with self.write():
            self.table(S.TESTSETS).delete(f"id = {sql_str(tid)}")
            self.table(S.EVAL_CASES).delete(f"testset_id = {sql_str(tid)}")
            self.table(S.TESTSETS).add([{"id": tid, "name": name, "kb_id": kb_id, "created_at": now_iso()}])
            if cases:
                self.table(S.EVAL_CASES).add(
                    [
                        {
                            "id": str(c.get("id") or new_id()),
                            "testset_id": tid,
                            "seq": i,
                            "case_json": json.dumps(c, ensure_ascii=False),
                        }
                        for i, c in enumerate(cases)
                    ]
                )
        return tid

    def list_testsets(self) -> list[dict[str, Any]]:
        return sorted(self._rows(S.TESTSETS), key=lambda r: r["created_at"])

    def load_testset(self, testset_id: str) -> list[dict[str, Any]]:
        rows = self._rows(S.EVAL_CASES, f"testset_id = {sql_str(testset_id)}")
        return [json.loads(r["case_json"]) for r in sorted(rows, key=lambda r: r["seq"])]

    def delete_testset(self, testset_id: str) -> None:
        with self.write():
            self.table(S.EVAL_CASES).delete(f"testset_id = {sql_str(testset_id)}")
            self.table(S.TESTSETS).delete(f"id = {sql_str(testset_id)}")

    def save_eval_run(self, run: dict[str, Any]) -> str:
        rid = str(run.get("id") or new_id())
        row = {
            "id": rid,
            "testset_id": run.get("testset_id", ""),
            "kb_id": run.get("kb_id", ""),
            "name": run.get("name", ""),
            "status": run.get("status", "done"),
            "created_at": run.get("created_at") or now_iso(),
            "settings_json": json.dumps(run.get("settings", {}), ensure_ascii=False),
            "summary_json": json.dumps(run.get("summary", {}), ensure_ascii=False),
            "rows_json": json.dumps(run.get("rows", []), ensure_ascii=False),
        }
        with self.write():
            self.table(S.EVAL_RUNS).delete(f"id = {sql_str(rid)}")
            self.table(S.EVAL_RUNS).add([row])
        return rid

    def list_eval_runs(self) -> list[dict[str, Any]]:
        rows = self._rows(S.EVAL_RUNS, None, ["id", "testset_id", "kb_id", "name", "status", "created_at"])
        return sorted(rows, key=lambda r: r["created_at"], reverse=True)

    def get_eval_run(self, run_id: str) -> dict[str, Any]:
        rows = self._rows(S.EVAL_RUNS, f"id = {sql_str(run_id)}")
        if not rows:
            raise NotFound(f"no evaluation run {run_id}")
        r = rows[0]
        for key in ("settings", "summary", "rows"):
            r[key] = json.loads(r.pop(f"{key}_json") or "null")
        return r

    def delete_eval_run(self, run_id: str) -> None:
        """Remove one stored run; its test set and the other runs are kept."""
        with self.write():
            if not self._rows(S.EVAL_RUNS, f"id = {sql_str(run_id)}", ["id"]):
                raise NotFound(f"no evaluation run {run_id}")
            self.table(S.EVAL_RUNS).delete(f"id = {sql_str(run_id)}")


def validate_name(name: str, what: str) -> str:
    """Names are shown in the UI and used in CLI flags: non-empty, one line, reasonably short."""
    clean = (name or "").strip()
    if not clean:
        raise LexgateError(f"the {what} name is empty", "give it a name")
    if "\n" in clean or len(clean) > 120:
        raise LexgateError(f"the {what} name must be one line of at most 120 characters")
    return clean


def _verdict_row(message_id: str, v: dict[str, Any]) -> dict[str, Any]:
    scores = v.get("scores", {})
    return {
        "message_id": message_id,
        "passage_id": str(v.get("passage_id", "")),
        "chunk_id": str(v.get("chunk_id", v.get("passage_id", ""))),
        "doc": str(v.get("doc", "")),
        "label": str(v.get("label", "")),
        "keep": bool(v.get("keep", False)),
        "injection": float(scores.get("contains_prompt_injection", 0.0)),
        "conflict": float(scores.get("contradicts_query_premise", 0.0)),
        "relevance": float(scores.get("is_relevant", 0.0)),
        "evidence": float(scores.get("contains_answer_evidence", 0.0)),
        "explanation": str(v.get("explanation", "")),
        "created_at": now_iso(),
    }


def _decode_message(r: dict[str, Any]) -> dict[str, Any]:
    out = dict(r)
    for key in ("citations", "verdicts", "trace", "usage", "settings"):
        out[key] = json.loads(out.pop(f"{key}_json") or "null")
    return out


_STORES: dict[str, Store] = {}


def open_store(home: Path) -> Store:
    """One Store per data directory per process (LanceDB connections are reusable)."""
    key = str(Path(home).resolve())
    if key not in _STORES:
        _STORES[key] = Store(Path(key))
    return _STORES[key]
