"""Scale benchmark: hybrid query latency over a synthetic Chinese corpus of N chunks.

Why synthetic: embedding a million real chunks would take a day on two cores; latency depends on
table size, index type and query shape, not on what the vectors mean. Chunks are built from a
legal-character vocabulary (jieba tokens and bigrams filled as ingestion fills them), vectors are
random unit vectors. Query embedding is timed separately with the real embedder.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import psutil
import pyarrow as pa

from rag_core import textproc
from rag_core.embeddings.registry import describe, get_embedder
from rag_core.evaluation.stats import median_p95
from rag_core.retrieval.fusion import rrf
from rag_core.retrieval.legs import anchor_leg, bigram_leg, bm25_leg, run_legs, vector_leg
from rag_core.settings import Settings
from storage.schema import chunks_schema
from storage.store import Store

BATCH_ROWS = 50_000
WORDS_PER_CHUNK = 48
VOCAB_SIZE = 6000
SEED = 20261129
LEGAL_CHARS = (
    "甲乙丙丁方合同协议条款约定违约责任赔偿支付租金价款期限终止解除生效签订履行义务权利保密知识产权争议仲裁法院"
    "管辖适用法律通知送达变更转让担保保证抵押质押利息逾期交付验收质量标准服务费用发票税金结算账户银行"
    "股东董事会公司注册资本出资股权转让收购兼并清算破产劳动工资社会保险工作时间休假解雇补偿竞业限制"
)


def _vocab(rng: np.random.Generator) -> list[str]:
    chars = np.array(list(LEGAL_CHARS))
    lengths = rng.integers(2, 5, size=VOCAB_SIZE)
    return ["".join(rng.choice(chars, size=n)) for n in lengths]


def _batch(rng: np.random.Generator, vocab: list[str], start: int, n: int, dim: int) -> pa.Table:
    idx = rng.zipf(1.3, size=(n, WORDS_PER_CHUNK)) % len(vocab)
    vecs = rng.standard_normal((n, dim)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    texts, toks, grams = [], [], []
    for row in idx:
        words = [vocab[i] for i in row]
        text = "".join(words)
        texts.append(text)
        toks.append(" ".join(words))
        grams.append(" ".join(textproc.bigrams(text)))
    ids = [f"s{start + i:08d}" for i in range(n)]
    cols = {
        "id": ids,
        "doc_id": [f"d{(start + i) // 200:06d}" for i in range(n)],
        "text": texts,
        "start": [0] * n,
        "end": [len(t) for t in texts],
        "page": [1] * n,
        "page_end": [1] * n,
        "anchor": [""] * n,
        "clause": [""] * n,
        "parent_id": [""] * n,
        "kind": ["plain"] * n,
        "ordinal": list(range(n)),
        "searchable": [True] * n,
        "embedded": [True] * n,
        "tokens": toks,
        "bigrams": grams,
        "vector": pa.FixedSizeListArray.from_arrays(pa.array(vecs.reshape(-1)), dim),
    }
    return pa.table(cols, schema=chunks_schema(dim))


def _du(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def run_latency_bench(
    store: Store, settings: Settings, n_chunks: int, n_queries: int, log: Callable[[str], None] = print
) -> dict[str, Any]:
    rng = np.random.default_rng(SEED)
    vocab = _vocab(rng)
    _display, dim = describe(settings.embedding.backend, settings.embedding.model, settings)
    kb_name = f"bench-latency-{n_chunks}"
    if store.kbs.find(kb_name):
        store.kbs.delete(kb_name)
    kb = store.kbs.create(kb_name, settings.embedding.backend, settings.embedding.model, dim)
    t0 = time.perf_counter()
    for start in range(0, n_chunks, BATCH_ROWS):
        n = min(BATCH_ROWS, n_chunks - start)
        store.chunks.add(kb, _batch(rng, vocab, start, n, dim))
        log(f"  wrote {start + n:,}/{n_chunks:,} chunks")
    write_s = time.perf_counter() - t0
    t1 = time.perf_counter()
    index_report = store.chunks.ensure_indexes(kb, settings.ingest.vector_index_min_rows)
    index_s = time.perf_counter() - t1
    log(f"  indexes built in {index_s:.1f} s: {index_report}")

    queries = [
        "".join(vocab[int(i) % len(vocab)] for i in rng.zipf(1.3, size=int(rng.integers(2, 5))))
        for _ in range(n_queries)
    ]
    qvecs = rng.standard_normal((n_queries, dim)).astype(np.float32)
    qvecs /= np.linalg.norm(qvecs, axis=1, keepdims=True)
    rs = settings.retrieval
    search_ms: list[float] = []
    for q, v in zip(queries, qvecs, strict=True):
        t = time.perf_counter()
        legs = run_legs(
            [
                ("bm25", partial(bm25_leg, store, kb, q, rs.bm25_top_k)),
                ("bigram", partial(bigram_leg, store, kb, q, rs.bm25_top_k)),
                ("vector", partial(vector_leg, store, kb, v, rs.vector_top_k, -1.0)),
            ]
        )
        # the rare-word searches after the legs, as a search of the whole base runs them
        anchor_leg(store, kb, q, rs.anchor_max_passages, rs.anchor_reserved)
        rrf([[str(h.row.id) for h in leg] for _, leg in legs], rs.rrf_k)
        search_ms.append((time.perf_counter() - t) * 1000)
    embedder = get_embedder(settings.embedding.backend, settings.embedding.model, settings)
    embed_ms: list[float] = []
    for q in queries[: min(50, n_queries)]:
        t = time.perf_counter()
        embedder.embed_queries([q])
        embed_ms.append((time.perf_counter() - t) * 1000)
    disk = _du(store.home / "db" / f"chunks_{kb.id}.lance")
    rss = psutil.Process().memory_info().rss / (1024 * 1024)
    result = {
        "chunks": n_chunks,
        "queries": n_queries,
        "write_s": round(write_s, 1),
        "index_build_s": round(index_s, 1),
        "index": index_report,
        "search_ms": median_p95(search_ms, 2),
        "query_embedding_ms": median_p95(embed_ms, 2),
        "disk_mb": round(disk / (1024 * 1024), 1),
        "rss_mb": round(rss, 1),
    }
    store.kbs.delete(kb.id)
    shutil.rmtree(store.home / "db" / f"chunks_{kb.id}.lance", ignore_errors=True)
    return result


def format_latency(r: dict[str, Any]) -> str:
    return (
        f"{r['chunks']:,} synthetic Chinese chunks, {r['queries']} queries\n"
        f"write {r['write_s']} s, index build {r['index_build_s']} s ({r['index']})\n"
        f"hybrid search (bm25, bigram and vector legs side by side, then RRF): median {r['search_ms']['median']} ms, "
        f"p95 {r['search_ms']['p95']} ms\n"
        f"query embedding: median {r['query_embedding_ms']['median']} ms, p95 {r['query_embedding_ms']['p95']} ms\n"
        f"disk {r['disk_mb']} MB, RSS {r['rss_mb']} MB"
    )
