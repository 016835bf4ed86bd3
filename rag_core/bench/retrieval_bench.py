"""Retrieval benchmark on the shared expert-annotated data, configurations side by side.

Why one process: every configuration (bm25, vector, hybrid, routing, expansion, rerank) searches the
same ingested knowledge base with the same loaded models, so rows differ only by the step switched.
The benchmark store is kept between runs (ingestion of the CUAD corpus takes minutes) and keyed on
everything that changes the index: embedding backend and chunking settings.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rag_core.chunking import CHUNKER_VERSION
from rag_core.embeddings.registry import describe
from rag_core.errors import LexgateError
from rag_core.evaluation.retrieval_metrics import ID_KS, SPAN_KS, RetrievalReport, id_report, span_report
from rag_core.evaluation.spans import Span
from rag_core.evaluation.stats import median_p95
from rag_core.ingest.pipeline import ingest_files
from rag_core.ingest.retokenize import ensure_current_tokens
from rag_core.llm.base import ChatModel
from rag_core.models import Hit, KnowledgeBase
from rag_core.retrieval.retriever import Retriever
from rag_core.settings import Settings
from storage.chunks import ChunkFilter
from storage.store import Store

CUAD = "legalbench-rag-mini-cuad"
LECOQA = "lecoqa"


@dataclass
class Config:
    name: str
    mode: str
    routing: bool = False
    expansion: bool = False
    rerank: str = "off"
    needs_llm: bool = False


CONFIGS = [
    Config("bm25", "bm25"),
    Config("vector", "vector"),
    Config("hybrid", "hybrid"),
    Config("hybrid+routing", "hybrid", routing=True),
    Config("hybrid+routing+hyde/multi-query", "hybrid", routing=True, expansion=True, needs_llm=True),
    Config("hybrid+routing+rerank", "hybrid", routing=True, rerank="llm-logit", needs_llm=True),
]


@dataclass
class Query:
    qid: str
    text: str
    gold_spans: list[Span] = field(default_factory=list)
    gold_ids: list[str] = field(default_factory=list)


def load_queries(data_dir: Path, dataset: str) -> list[Query]:
    path = data_dir / dataset / "queries.jsonl"
    if not path.exists():
        raise LexgateError(
            f"benchmark data not found at {path}", "the shared data folder must sit beside the project"
        )
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        obj = json.loads(line)
        if dataset == CUAD:
            spans = [Span(s["file"], int(s["span"][0]), int(s["span"][1])) for s in obj["snippets"]]
            out.append(Query(str(obj["query_id"]), obj["query"], gold_spans=spans))
        else:
            out.append(Query(str(obj["query_id"]), obj["question"], gold_ids=[str(g) for g in obj["gold"]]))
    return out


def corpus_files(data_dir: Path, dataset: str) -> list[tuple[str, bytes]]:
    """The documents to ingest: CUAD contract files as they are; LeCoQA articles as one TXT each,
    the article name as the first line so it becomes the document title."""
    if dataset == CUAD:
        files = sorted((data_dir / dataset / "corpus").glob("*.txt"))
        return [(f.name, f.read_bytes()) for f in files]
    out = []
    for line in (data_dir / dataset / "corpus.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            obj = json.loads(line)
            out.append((f"{obj['id']}.txt", f"{obj['title']}\n{obj['text']}".encode()))
    return out


def index_key(settings: Settings, dataset: str) -> str:
    """A name for the benchmark knowledge base that changes whenever the index would."""
    basis = json.dumps(
        [
            dataset,
            settings.embedding.backend,
            settings.embedding.model,
            settings.chunking.model_dump(),
            CHUNKER_VERSION,
        ],
        sort_keys=True,
    )
    return f"bench-{dataset}-{settings.embedding.backend}-{hashlib.sha256(basis.encode()).hexdigest()[:8]}"


def ensure_kb(
    store: Store,
    settings: Settings,
    data_dir: Path,
    dataset: str,
    log: Callable[[str], None],
    files: list[tuple[str, bytes]] | None = None,
) -> tuple[KnowledgeBase, dict[str, Any]]:
    """The benchmark knowledge base, ingested once and reused while nothing that shapes it changes
    (``files`` replaces the dataset's own corpus, for bases built from a subset)."""
    name = index_key(settings, dataset)
    files = files if files is not None else corpus_files(data_dir, dataset)
    kb = store.kbs.find(name)
    if kb is not None:
        store.docs.recover(kb)  # a killed earlier run may have left documents half ingested
    if kb is not None and sum(d.status == "indexed" for d in store.docs.all(kb)) == len(files):
        return kb, {"reused": True, "retokenized_chunks": ensure_current_tokens(store, kb, settings)}
    if kb is not None:
        store.kbs.delete(kb.id)
    _display, dim = describe(settings.embedding.backend, settings.embedding.model, settings)
    kb = store.kbs.create(name, settings.embedding.backend, settings.embedding.model, dim)
    log(f"ingesting {len(files)} documents into '{name}' …")
    t0 = time.perf_counter()
    results = ingest_files(store, kb, list(files), settings)
    failed = [r.message for r in results if r.status == "failed"]
    if failed:
        raise LexgateError(f"{len(failed)} benchmark documents failed to ingest: {failed[:3]}")
    return kb, {"reused": False, "ingest_s": round(time.perf_counter() - t0, 1)}


def run_config(
    retriever: Retriever,
    kb: KnowledgeBase,
    queries: list[Query],
    cfg: Config,
    dataset: str,
    file_of: dict[str, str],
) -> tuple[RetrievalReport, dict[str, float]]:
    """Search every query under one configuration and score the rankings."""
    k_max = max(SPAN_KS) if dataset == CUAD else max(ID_KS) * 4
    rs = retriever.settings.retrieval
    rs.rerank = cfg.rerank  # type: ignore[assignment]
    latencies: list[float] = []
    span_pairs: list[tuple[list[Span], list[Span]]] = []
    id_pairs: list[tuple[list[str], list[str]]] = []
    for q in queries:
        t0 = time.perf_counter()
        res = retriever.search_kb(
            kb,
            q.text,
            k=k_max,
            mode=cfg.mode,  # type: ignore[arg-type]
            use_routing=cfg.routing,
            use_expansion=cfg.expansion,
            use_rerank=cfg.rerank != "off",
        )
        latencies.append((time.perf_counter() - t0) * 1000)
        if dataset == CUAD:
            span_pairs.append((_spans(res.hits, file_of), q.gold_spans))
        else:
            id_pairs.append(([file_of[h.doc_id] for h in res.hits], q.gold_ids))
    report = span_report(cfg.name, span_pairs) if dataset == CUAD else id_report(cfg.name, id_pairs)
    latency = median_p95(latencies, 1)
    return report, {"median_ms": latency["median"], "p95_ms": latency["p95"]}


def _spans(hits: list[Hit], file_of: dict[str, str]) -> list[Span]:
    return [Span(file_of[h.doc_id], h.start, h.end) for h in hits]


def run_retrieval_bench(
    store: Store,
    settings: Settings,
    data_dir: Path,
    dataset: str,
    llm: ChatModel | None,
    limit: int | None = None,
    only: list[str] | None = None,
    log: Callable[[str], None] = print,
    llm_limit: int | None = None,
) -> dict[str, Any]:
    """Every configuration over the dataset's questions; configurations that call the LLM (HyDE,
    multi-query, rerank) run on the first ``llm_limit`` questions only, since a CPU model needs
    seconds per call; each row says how many questions it scored."""
    kb, ingest_info = ensure_kb(store, settings, data_dir, dataset, log)
    queries = load_queries(data_dir, dataset)[:limit] if limit else load_queries(data_dir, dataset)
    docs = store.docs.all(kb)
    file_of = {d.id: d.file_name if dataset == CUAD else d.file_name.removesuffix(".txt") for d in docs}
    rs = settings.retrieval
    pool = max(SPAN_KS) if dataset == CUAD else max(ID_KS) * 4
    rs.bm25_top_k = max(rs.bm25_top_k, pool)
    rs.vector_top_k = max(rs.vector_top_k, pool)
    retriever = Retriever(store, settings, llm)
    rows: list[dict[str, Any]] = []
    for cfg in CONFIGS:
        if only and cfg.name not in only:
            continue
        if cfg.needs_llm and llm is None:
            rows.append({"config": cfg.name, "skipped": "no LLM configured"})
            continue
        if cfg.expansion:
            rs.hyde = rs.multi_query = True
        log(f"  {cfg.name} …")
        subset = queries[:llm_limit] if cfg.needs_llm and llm_limit else queries
        report, lat = run_config(retriever, kb, subset, cfg, dataset, file_of)
        rs.hyde = rs.multi_query = False
        rows.append({"config": cfg.name, **report.to_json(), **lat})
    return {
        "dataset": dataset,
        "queries": len(queries),
        "documents": len(docs),
        "chunks": store.chunks.count(kb, ChunkFilter(searchable=True)),
        "embedding": f"{kb.embed_backend} {kb.embed_model}",
        "candidate_pool": pool,
        "weights": {"bm25": rs.bm25_weight, "vector": rs.vector_weight, "rrf_k": rs.rrf_k},
        "index": ingest_info,
        "rows": rows,
    }


def format_table(result: dict[str, Any]) -> str:
    """One row per configuration: recall/precision at each k, MRR, latency."""
    cuad = result["dataset"] == CUAD
    ks = [1, 2, 4, 8, 16, 32, 64] if cuad else [1, 5, 10, 20]
    head = [
        "config",
        "n",
        *[f"R@{k}" for k in ks],
        *(["P@1", "P@8"] if cuad else []),
        "MRR",
        "med ms",
        "p95 ms",
    ]
    lines = [
        f"{result['dataset']}: {result['queries']} questions, {result['documents']} documents, "
        f"{result['chunks']} chunks, {result['embedding']}",
        " | ".join(head),
        " | ".join("---" for _ in head),
    ]
    for r in result["rows"]:
        if "skipped" in r:
            lines.append(f"{r['config']} | skipped: {r['skipped']}")
            continue
        cells = [r["config"], str(r["n_queries"]), *[f"{r['recall_at_k'][str(k)]:.3f}" for k in ks]]
        if cuad:
            cells += [f"{r['precision_at_k']['1']:.3f}", f"{r['precision_at_k']['8']:.3f}"]
        cells += [f"{r['mrr']:.3f}", f"{r['median_ms']}", f"{r['p95_ms']}"]
        lines.append(" | ".join(cells))
    return "\n".join(lines)
