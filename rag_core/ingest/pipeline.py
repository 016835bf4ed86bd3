"""Ingestion of a batch of files into one knowledge base: validate, extract, chunk, store, embed, index.

Why two phases: embedding is the slow step (minutes for a large batch on two cores), while
extraction and chunking take milliseconds. Every file's chunks are written first, keyword-searchable
at once; vectors follow file by file. A file that fails at any stage is rolled back completely, and a
killed process leaves a document in ``embedding`` state that ``store.docs.recover`` removes.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from filelock import FileLock

from rag_core import textproc
from rag_core.chunking import chunk_document, embed_text
from rag_core.coded import records
from rag_core.embeddings.registry import get_embedder
from rag_core.errors import IngestError, LexgateError, ParamValue
from rag_core.ingest.extract import extract
from rag_core.ingest.retokenize import ensure_current_tokens, mark_current
from rag_core.models import Chunk, ExtractedDocument, KnowledgeBase
from rag_core.settings import Settings
from storage.rows import ChunkRow, DocumentRow
from storage.store import Store, now_iso

Progress = Callable[[str, str, float], None]
"""Called as (file name, stage, fraction done of that stage); stages: extract, chunk, embed, index,
and the terminal ``failed`` / ``duplicate`` (sent as soon as a file is known to be out)."""


SECTIONED_SUFFIXES: tuple[str, ...] = (".docx", ".md")
"""Files whose ``pages`` count sections (headings), not pages: Word and Markdown have no fixed pages."""


def sectioned(file_name: str) -> bool:
    """Whether a file's ``pages`` are sections: a lawyer read "10 页" for a one-page Word contract with ten
    articles (session 31 try-out)."""
    return file_name.lower().endswith(SECTIONED_SUFFIXES)


@dataclass
class IngestResult:
    file_name: str
    status: str  # ingested | duplicate | failed
    message: str = ""  # English, as the CLI prints it
    code: str = ""  # the error's code (``LexgateError.code``) for the UI's own language, "" if none
    params: dict[str, ParamValue] = field(default_factory=dict)
    doc_id: str = ""
    chunks: int = 0
    pages: int = 0
    chars: int = 0
    timings: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class _Prepared:
    file_name: str
    doc_id: str
    extracted: ExtractedDocument
    chunks: list[Chunk]
    size: int
    data: bytes
    result: IngestResult
    lease: FileLock | None = None  # held from the first write until the document is indexed or removed


def _noop(_name: str, _stage: str, _fraction: float) -> None:
    return None


def chunk_row(chunk: Chunk) -> ChunkRow:
    """A chunks-table row with its full-text columns; the vector is filled in by the embed phase."""
    searchable = chunk.kind != "parent"
    return ChunkRow(
        id=chunk.id,
        doc_id=chunk.doc_id,
        text=chunk.text,
        start=chunk.start,
        end=chunk.end,
        page=chunk.page or 0,
        page_end=chunk.page_end or chunk.page or 0,
        anchor=chunk.anchor,
        clause=chunk.clause,
        parent_id=chunk.parent_id,
        kind=chunk.kind,
        ordinal=chunk.ordinal,
        searchable=searchable,
        embedded=False,
        tokens=" ".join(textproc.tokens(chunk.clause + "\n" + chunk.text)) if searchable else "",
        bigrams=" ".join(textproc.bigrams(chunk.clause + "\n" + chunk.text)) if searchable else "",
    )


def document_row(prep: _Prepared, kb: KnowledgeBase, status: str) -> DocumentRow:
    ex = prep.extracted
    return DocumentRow(
        id=prep.doc_id,
        kb_id=kb.id,
        file_name=prep.file_name,
        file_type=ex.file_type,
        size_bytes=prep.size,
        pages=ex.pages,
        language=ex.language,
        ingested_at=now_iso(),
        status=status,
        title=ex.title,
        encoding=ex.encoding,
        n_chunks=sum(1 for c in prep.chunks if c.kind != "parent"),
        notes="; ".join(ex.notes),
        notes_json=json.dumps(records(ex.notes), ensure_ascii=False),
        text=ex.text,
        spans_json=json.dumps([asdict(s) for s in ex.spans], ensure_ascii=False),
        terms="\n".join(textproc.defined_terms(ex.text)),
        source=prep.data,
    )


def _read(path: Path, settings: Settings) -> bytes:
    """Read a file, refusing oversized ones before loading them into memory."""
    if not path.exists():
        raise IngestError(
            "file not found",
            "check the path",
            subject=str(path),
            code="ingest_not_found",
            params={"file": str(path)},
        )
    if path.is_dir():
        raise IngestError(
            "is a folder, not a file",
            "pass the files inside it",
            subject=str(path),
            code="ingest_is_folder",
            params={"file": str(path)},
        )
    size_mb = path.stat().st_size / 1_000_000
    if size_mb > settings.ingest.max_file_mb:
        raise IngestError(
            f"file is {size_mb:.1f} MB, over the {settings.ingest.max_file_mb:g} MB limit",
            "split the document or raise 'max_file_mb' in Admin",
            subject=path.name,
            code="ingest_too_large",
            params={"file": path.name, "size_mb": round(size_mb, 1), "limit_mb": settings.ingest.max_file_mb},
        )
    return path.read_bytes()


def prepare(data: bytes, file_name: str, settings: Settings, progress: Progress = _noop) -> _Prepared:
    """Validate, extract and chunk one file in memory; nothing is written."""
    res = IngestResult(file_name=file_name, status="failed")
    doc_id = hashlib.sha256(data).hexdigest()
    t0 = time.perf_counter()
    progress(file_name, "extract", 0.0)
    try:
        extracted = extract(data, file_name, settings.ingest)
    except IngestError:
        raise
    except Exception as err:  # a parser crashing on a malformed file is bad input, not a bug to show
        raise IngestError(
            f"could not be read ({type(err).__name__}: {err})",
            "the file may be damaged; re-export it and upload again",
            subject=file_name,
            code="ingest_unreadable",
            params={"file": file_name},
        ) from err
    res.timings["extract_s"] = time.perf_counter() - t0
    progress(file_name, "extract", 1.0)
    t1 = time.perf_counter()
    chunks = chunk_document(extracted.text, extracted.spans, settings.chunking, doc_id)
    res.timings["chunk_s"] = time.perf_counter() - t1
    progress(file_name, "chunk", 1.0)
    if not any(c.kind != "parent" for c in chunks):
        raise IngestError(
            "no text to index after extraction",
            "check that the file has text",
            subject=file_name,
            code="ingest_no_text",
            params={"file": file_name},
        )
    res.doc_id, res.pages, res.chars = doc_id, extracted.pages, len(extracted.text)
    res.chunks = sum(1 for c in chunks if c.kind != "parent")
    return _Prepared(file_name, doc_id, extracted, chunks, len(data), data, res)


def _embed(kb: KnowledgeBase, prep: _Prepared, settings: Settings, progress: Progress) -> list[ChunkRow]:
    """A stored document's searchable chunks as whole rows with their vectors."""
    embedder = get_embedder(kb.embed_backend, kb.embed_model, settings)
    searchable = [c for c in prep.chunks if c.kind != "parent"]
    texts = [embed_text(c, prep.extracted.title or prep.file_name, settings.chunking) for c in searchable]
    t0 = time.perf_counter()
    batch = settings.embedding.batch_size
    vectors: list[np.ndarray] = []
    for i in range(0, len(texts), batch):
        vectors.append(embedder.embed_passages(texts[i : i + batch]))
        progress(prep.file_name, "embed", min(1.0, (i + batch) / max(1, len(texts))))
    matrix = np.vstack(vectors) if vectors else np.zeros((0, kb.embed_dim), dtype=np.float32)
    prep.result.timings["embed_s"] = time.perf_counter() - t0
    rows = []
    for chunk, vec in zip(searchable, matrix, strict=True):
        row = chunk_row(chunk)
        row.vector = vec.astype(np.float32).tolist()
        row.embedded = True
        rows.append(row)
    return rows


def _fail(
    store: Store, kb: KnowledgeBase, prep: _Prepared, err: Exception, progress: Progress = _noop
) -> None:
    """Remove a document whose vectors could not be made or stored, saying why."""
    store.docs.delete(kb, prep.doc_id)
    prep.result.status = "failed"
    prep.result.message = f"{prep.file_name}: embedding failed, nothing kept ({err})"
    progress(prep.file_name, "failed", 1.0)
    if isinstance(err, LexgateError) and err.code:  # e.g. the embedding endpoint is down
        prep.result.code, prep.result.params = err.code, {**err.params, "file": prep.file_name}
    else:
        prep.result.code = "ingest_embed_failed"
        prep.result.params = {"file": prep.file_name, "reason": str(err)}


def _flush(
    store: Store,
    kb: KnowledgeBase,
    batch: list[tuple[_Prepared, list[ChunkRow]]],
    progress: Progress = _noop,
) -> None:
    """Write the vectors of several embedded documents at once and mark them indexed.

    Why together: each store write adds a fragment, so a write per small document made a batch
    of 1,445 statute articles slow down quadratically. Each document still succeeds or fails
    whole, and its lease is held until its vectors are stored.
    """
    if not batch:
        return
    t0 = time.perf_counter()
    try:
        store.chunks.update_vectors(kb, [row for _, rows in batch for row in rows])
        store.docs.set_status(kb, [prep.doc_id for prep, _ in batch], "indexed")
        for prep, _ in batch:
            prep.result.status = "ingested"
            prep.result.timings["store_vectors_s"] = time.perf_counter() - t0
    except Exception as err:
        for prep, _ in batch:
            _fail(store, kb, prep, err, progress)
    finally:
        for prep, _ in batch:
            if prep.lease is not None:
                prep.lease.release()


def _embed_all(
    store: Store, kb: KnowledgeBase, staged: list[_Prepared], settings: Settings, progress: Progress
) -> None:
    """Embed the staged documents one by one, storing vectors every ``vector_flush_chunks`` chunks."""
    pending: list[tuple[_Prepared, list[ChunkRow]]] = []
    for prep in staged:
        try:
            pending.append((prep, _embed(kb, prep, settings, progress)))
        except Exception as err:
            try:
                _fail(store, kb, prep, err, progress)
            finally:
                if prep.lease is not None:
                    prep.lease.release()
            continue
        if sum(len(rows) for _, rows in pending) >= settings.ingest.vector_flush_chunks:
            _flush(store, kb, pending, progress)
            pending = []
    _flush(store, kb, pending, progress)


def ingest_files(
    store: Store,
    kb: KnowledgeBase,
    files: list[tuple[str, bytes] | Path],
    settings: Settings,
    progress: Progress = _noop,
) -> list[IngestResult]:
    """Ingest a batch; each file succeeds or leaves nothing behind, and the rest still go in."""
    store.docs.recover(kb)
    ensure_current_tokens(store, kb, settings)
    existing = {d.id: d.file_name for d in store.docs.all(kb)}
    staged: list[_Prepared] = []
    results: list[IngestResult] = []
    for item in files:
        name = item.name if isinstance(item, Path) else item[0]
        try:
            data = _read(item, settings) if isinstance(item, Path) else item[1]
            doc_id = hashlib.sha256(data).hexdigest()
            if doc_id in existing or doc_id in {p.doc_id for p in staged}:
                prior = existing.get(doc_id) or next(p.file_name for p in staged if p.doc_id == doc_id)
                results.append(
                    IngestResult(
                        name,
                        "duplicate",
                        f"same content as '{prior}' already in '{kb.name}'; not added",
                        code="ingest_duplicate",
                        params={"file": name, "existing": prior, "kb": kb.name},
                        doc_id=doc_id,
                    )
                )
                progress(name, "duplicate", 1.0)
                continue
            prep = prepare(data, name, settings, progress)
            textproc.add_terms(textproc.defined_terms(prep.extracted.text))
            lease = store.docs.ingest_lease(prep.doc_id)
            lease.acquire()
            prep.lease = lease
            try:
                t0 = time.perf_counter()
                rows = [chunk_row(c) for c in prep.chunks]
                store.docs.add(kb, document_row(prep, kb, "embedding"), rows)
                prep.result.timings["store_chunks_s"] = time.perf_counter() - t0
            except BaseException:
                lease.release()
                raise
            staged.append(prep)
            results.append(prep.result)
        except LexgateError as err:
            results.append(IngestResult(name, "failed", err.message, err.code, err.params))
            progress(name, "failed", 1.0)  # at once: the lawyer sees it while the rest go on
    if staged:
        t0 = time.perf_counter()
        store.chunks.ensure_indexes(kb, settings.ingest.vector_index_min_rows)
        keyword_ready_s = time.perf_counter() - t0
        for prep in staged:
            prep.result.timings["keyword_index_s"] = keyword_ready_s
        store.docs.compact()  # before the status updates of the embedding phase scan the table
    _embed_all(store, kb, staged, settings, progress)
    if staged:
        t0 = time.perf_counter()
        store.chunks.ensure_indexes(kb, settings.ingest.vector_index_min_rows)
        store.docs.compact()
        mark_current(store, kb)
        for prep in staged:
            prep.result.timings["index_s"] = time.perf_counter() - t0
            progress(prep.file_name, "index", 1.0)
    return results
