"""Knowledge bases, documents, ingestion and search from the command line."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rag_core.cli.common import emit, emit_line, place_label, settings_of, store_of
from rag_core.embeddings.registry import describe
from rag_core.errors import LexgateError
from rag_core.export import source_label
from rag_core.ingest.pipeline import IngestResult, ingest_files, sectioned
from rag_core.retrieval.retriever import Retriever

SUPPORTED = {".pdf", ".docx", ".txt", ".md"}


def cmd_kb(args: argparse.Namespace) -> int:
    store = store_of(args)
    if args.kb_action == "create":
        settings = settings_of(store)
        backend = args.backend or settings.embedding.backend
        model = args.model or settings.embedding.model
        name, dim = describe(backend, model, settings)
        kb = store.kbs.create(args.name, backend, model, dim)
        emit(args, kb.__dict__, f"created knowledge base '{kb.name}' ({backend} {name}, {dim} dims)")
    elif args.kb_action == "list":
        kbs = store.kbs.all()
        rows = [{**kb.__dict__, "documents": len(store.docs.all(kb))} for kb in kbs]
        lines = [
            f"{r['name']}\t{r['documents']} documents\t{r['embed_model']} ({r['embed_dim']})" for r in rows
        ]
        emit(args, rows, "\n".join(lines) or "no knowledge bases yet: `kb create NAME`")
    elif args.kb_action == "rename":
        kb = store.kbs.rename(args.name, args.new_name)
        emit(args, kb.__dict__, f"renamed to '{kb.name}'")
    elif args.kb_action == "delete":
        store.kbs.delete(args.name)
        emit(args, {"deleted": args.name}, f"deleted knowledge base '{args.name}'")
    return 0


def cmd_docs(args: argparse.Namespace) -> int:
    store = store_of(args)
    kb = store.kbs.get(args.kb)
    if args.docs_action == "delete":
        if not args.doc:
            raise LexgateError("which document?", "give its id or file name: `docs delete --kb NAME DOC`")
        doc = store.docs.get(kb, args.doc)
        store.docs.delete(kb, doc.id)
        emit(
            args, {"deleted": doc.id, "file_name": doc.file_name}, f"deleted '{doc.file_name}' and its chunks"
        )
        return 0
    docs = store.docs.all(kb)
    rows = [d.__dict__ for d in docs]
    lines = [
        f"{d.id[:12]}  {d.file_name}\t{d.pages} pages\t{d.n_chunks} chunks\t{d.language}\t{d.status}"
        for d in docs
    ]
    emit(args, rows, "\n".join(lines) or f"'{kb.name}' has no documents yet")
    return 0


def expand_paths(paths: list[str]) -> list[Path]:
    """Files as given; folders contribute their supported files, sorted, recursively."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out += sorted(f for f in p.rglob("*") if f.is_file() and f.suffix.lower() in SUPPORTED)
        else:
            out.append(p)
    return out


def cmd_ingest(args: argparse.Namespace) -> int:
    store = store_of(args)
    kb = store.kbs.get(args.kb)
    settings = settings_of(store)
    files = expand_paths(args.paths)
    if not files:
        raise LexgateError("no files to ingest", f"supported types: {', '.join(sorted(SUPPORTED))}")

    def progress(name: str, stage: str, fraction: float) -> None:
        if not args.json and args.verbose:
            print(f"  {name}: {stage} {fraction:.0%}", file=sys.stderr)

    results = ingest_files(store, kb, list(files), settings, progress)
    failed = [r for r in results if r.status == "failed"]
    emit(args, [r.to_json() for r in results], "\n".join(_result_line(r) for r in results))
    for r in failed:
        print(f"FAILED {r.message}", file=sys.stderr)
    return 1 if failed else 0


def _result_line(r: IngestResult) -> str:
    if r.status == "ingested":
        unit = "sections" if sectioned(r.file_name) else "pages"
        return f"ok        {r.file_name}: {r.pages} {unit}, {r.chunks} chunks"
    if r.status == "duplicate":
        return f"duplicate {r.file_name}: {r.message}"
    return f"failed    {r.message}"


def _read_queries(path: str) -> list[dict[str, Any]]:
    """``{"query_id", "query"}`` per line; a bad line is reported with its number."""
    out = []
    for no, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            if not isinstance(obj, dict) or not str(obj.get("query", "")).strip():
                raise ValueError("needs a non-empty 'query'")
        except ValueError as err:
            raise LexgateError(
                f"line {no} is not a query object ({err})",
                'each line: {"query_id": …, "query": …}',
                subject=path,
            ) from err
        out.append(obj)
    return out


def cmd_search(args: argparse.Namespace) -> int:
    store = store_of(args)
    settings = settings_of(store)
    kbs = [store.kbs.get(name) for name in args.kb]
    retriever = Retriever(store, settings)
    mode = args.mode or settings.retrieval.mode
    flags = {"use_routing": False} if args.no_routing else {}

    def run(query: str) -> list[dict[str, Any]]:
        result = retriever.search(
            kbs, query, k=args.k, mode=mode, use_expansion=False, use_rerank=False, **flags
        )
        hits = [h.to_json() for h in result.hits]
        if not args.explain:
            for h in hits:
                h.pop("explain", None)
        return hits

    if args.queries:
        for q in _read_queries(args.queries):
            emit_line({"query_id": q.get("query_id"), "query": q["query"], "hits": run(str(q["query"]))})
        return 0
    if not args.query:
        raise LexgateError("no query given", "pass QUERY or --queries FILE.jsonl")
    query = " ".join(args.query)
    hits = run(query)
    human = "\n".join(
        f"{i + 1:>2}. {h['score']:.4f}  {source_label(h['doc'], place_label(h['page'], h['clause']))}\n    {h['text'][:160]!r}"
        for i, h in enumerate(hits)
    )
    emit(args, hits, human or "no hits")
    return 0
