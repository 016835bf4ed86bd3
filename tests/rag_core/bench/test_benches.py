"""The benchmarks' plumbing on tiny datasets laid out like the shared data (figures come from real runs)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rag_core.bench.ingest_bench import format_ingest, run_ingest_bench
from rag_core.bench.latency_bench import format_latency, run_latency_bench
from rag_core.bench.retrieval_bench import CUAD, LECOQA, format_table, run_retrieval_bench
from rag_core.settings import Settings
from storage.store import Store

A = "SUPPLY AGREEMENT\n\nThis Supply Agreement is between Acme Corp and Beta LLC.\n\n1. Term. This Agreement expires on December 31, 2030.\n\n2. Governing Law. This Agreement is governed by the laws of Texas.\n"
B = "LICENSE AGREEMENT\n\nThis License Agreement is between Gamma Inc and Delta Ltd.\n\n1. License. Gamma grants Delta a non-exclusive license.\n\n2. Governing Law. The laws of Ohio govern this Agreement.\n"


def _cuad(root: Path) -> Path:
    corpus = root / CUAD / "corpus"
    corpus.mkdir(parents=True)
    (corpus / "a.txt").write_text(A, encoding="utf-8")
    (corpus / "b.txt").write_text(B, encoding="utf-8")
    law_b = B.index("2. Governing Law")
    queries = [
        {
            "query_id": "q1",
            "query": "Consider the Supply Agreement between Acme Corp and Beta LLC; What is the expiration date?",
            "snippets": [{"file": "a.txt", "span": [A.index("1. Term"), A.index("\n\n2.")]}],
        },
        {
            "query_id": "q2",
            "query": "Consider the License Agreement between Gamma Inc and Delta Ltd; What is the governing law?",
            "snippets": [{"file": "b.txt", "span": [law_b, len(B) - 1]}],
        },
    ]
    (root / CUAD / "queries.jsonl").write_text("\n".join(json.dumps(q) for q in queries), encoding="utf-8")
    return root


def _lecoqa(root: Path) -> Path:
    d = root / LECOQA
    d.mkdir(parents=True)
    arts = [("民法典第一条", "租赁合同的租金应当按月支付。"), ("民法典第二条", "违约方应当支付违约金。")]
    (d / "corpus.jsonl").write_text(
        "\n".join(json.dumps({"id": i, "title": i, "text": t}, ensure_ascii=False) for i, t in arts),
        encoding="utf-8",
    )
    qs = [{"query_id": 1, "question": "违约了要付违约金吗？", "answer": "要", "gold": ["民法典第二条"]}]
    (d / "queries.jsonl").write_text(
        "\n".join(json.dumps(q, ensure_ascii=False) for q in qs), encoding="utf-8"
    )
    return root


def test_retrieval_bench_on_a_tiny_cuad(tmp_path: Path) -> None:
    data = _cuad(tmp_path / "data")
    store = Store(tmp_path / "s")
    result = run_retrieval_bench(
        store, Settings(), data, CUAD, None, only=["bm25", "hybrid+routing"], log=lambda m: None
    )
    rows = {r["config"]: r for r in result["rows"]}
    assert set(rows) == {"bm25", "hybrid+routing"}
    routed = rows["hybrid+routing"]
    assert routed["mrr"] == 1.0 and routed["recall_at_k"]["64"] == pytest.approx(1.0)
    assert 0 < routed["precision_at_k"]["1"] <= 1
    assert "hybrid+routing" in format_table(result)
    again = run_retrieval_bench(store, Settings(), data, CUAD, None, only=["bm25"], log=lambda m: None)
    assert again["index"]["reused"]


def test_retrieval_bench_on_a_tiny_lecoqa(tmp_path: Path) -> None:
    data = _lecoqa(tmp_path / "data")
    result = run_retrieval_bench(
        Store(tmp_path / "s"), Settings(), data, LECOQA, None, only=["hybrid"], log=lambda m: None
    )
    row = result["rows"][0]
    assert row["precision_at_k"] is None and row["recall_at_k"]["1"] == 1.0 and row["mrr"] == 1.0


def test_ingest_bench_reports_every_stage(tmp_path: Path) -> None:
    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "a.txt").write_text(A, encoding="utf-8")
    (corpus / "b.md").write_text(B, encoding="utf-8")
    store = Store(tmp_path / "s")
    r = run_ingest_bench(store, Settings(), corpus)
    assert r["ingested"] == 2 and r["characters"] == len(A) + len(B) and r["chunks"] > 0
    assert all(r["stages"][k]["chars_per_s"] > 0 for k in ("extract", "chunk", "embed"))
    assert r["peak_rss_mb_overall"] > 0 and "embed" in format_ingest(r)
    assert store.kbs.all() == [], "the benchmark knowledge base is removed afterwards"


def test_latency_bench_small(tmp_path: Path) -> None:
    r = run_latency_bench(Store(tmp_path / "s"), Settings(), 3000, 10, log=lambda m: None)
    assert r["chunks"] == 3000 and r["search_ms"]["p95"] >= r["search_ms"]["median"] > 0
    assert r["disk_mb"] > 0 and "hybrid search" in format_latency(r)
