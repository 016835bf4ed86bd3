"""The two retrieval legs over one knowledge base's chunks table: BM25 full text and cosine vectors.

Why LanceDB's native full-text index: it is persisted with the table and answers in milliseconds
at 100k chunks, where rank-bm25 rescans every document per query. The keyword leg searches the
jieba token column and, for Chinese queries, the character-bigram column.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial

import numpy as np

from rag_core import textproc
from rag_core.models import KnowledgeBase
from storage.chunks import scope
from storage.rows import ChunkRow
from storage.schema import FTS_BIGRAMS, FTS_TOKENS
from storage.store import Store


@dataclass
class LegHit:
    row: ChunkRow
    score: float  # BM25 score, or cosine similarity for the vector leg


def fts_leg(
    store: Store, kb: KnowledgeBase, terms: list[str], column: str, k: int, doc_ids: list[str] | None = None
) -> list[LegHit]:
    """BM25 over one full-text column; an empty query returns nothing rather than everything."""
    query = textproc.fts_query(terms)
    if not query:
        return []
    return [
        LegHit(row, score) for row, score in store.chunks.fts_search(kb, query, column, k, scope(doc_ids))
    ]


def bm25_leg(
    store: Store, kb: KnowledgeBase, query: str, k: int, doc_ids: list[str] | None = None
) -> list[LegHit]:
    return fts_leg(store, kb, textproc.query_tokens(query), FTS_TOKENS, k, doc_ids)


def bigram_leg(
    store: Store, kb: KnowledgeBase, query: str, k: int, doc_ids: list[str] | None = None
) -> list[LegHit]:
    """Character bigrams of the query's Chinese runs; empty for queries without CJK."""
    grams = textproc.bigrams(query)
    return fts_leg(store, kb, grams, FTS_BIGRAMS, k, doc_ids) if grams else []


def anchor_leg(store: Store, kb: KnowledgeBase, query: str, max_passages: int, limit: int) -> list[LegHit]:
    """The passages that hold the query's rarest words: each word at most ``max_passages`` passages
    of the base use, rarest word first, at most ``limit`` passages.

    Why: "How long is the escrow held?" over seventeen contracts fused twenty term clauses ahead of
    the one passage that says "escrow" (the asset purchase price, held "for eighteen (18) months"):
    the duration words the thesaurus adds, matched by many passages on both the keyword and the
    vector leg, outvote a word found once (session 33 try-out). A word few passages use is what the
    question is about; whether such a passage answers is the judge's question, not the fusion's."""
    if max_passages <= 0 or limit <= 0:
        return []
    # one small search per word, side by side: one after another they cost 170 ms a question
    searches = run_legs(
        [
            (term, partial(fts_leg, store, kb, [term], FTS_TOKENS, max_passages + 1))
            for term in dict.fromkeys(textproc.query_tokens(query))
        ]
    )
    found = [hits for _, hits in searches if 0 < len(hits) <= max_passages]
    out: dict[str, LegHit] = {}
    for hits in sorted(found, key=len):
        for h in hits:
            out.setdefault(h.row.id, h)
    return list(out.values())[:limit]


def party_heads_leg(
    store: Store, kb: KnowledgeBase, question: str, head_chars: int, limit: int
) -> list[LegHit]:
    """For a question asking who a party is ("Who is the distributor?", "出租方是谁？"): the passages in the first
    ``head_chars`` characters of a document that name the asked role, the earliest one per document, documents in
    the order of their best match, at most ``limit``.

    Why (session 44 try-out): over a base with four distribution agreements, "Who is the distributor?" fused twenty
    clauses that say "Distributor shall …" ahead of every preamble (the new agreement's was 20th, outside the
    candidates) and quoted "This Agreement takes precedence over … any Tripath or Distributor order"; a contract
    names its parties at its opening, once."""
    from rag_core.judge.clause_types import asked_roles

    roles = asked_roles(question)
    if limit <= 0 or head_chars <= 0 or not roles:
        return []
    terms = [t for r in roles for t in textproc.query_tokens(r)]
    query = textproc.fts_query(terms)
    if not query:
        return []
    found = store.chunks.fts_search(
        kb, query, FTS_TOKENS, PARTY_HEADS_SEARCHED, scope(None, None, head_chars)
    )
    out: dict[str, LegHit] = {}
    for row, score in found:  # best document first; its earliest passage naming the role
        kept = out.get(row.doc_id)
        if kept is None or row.start < kept.row.start:
            out[row.doc_id] = LegHit(row, kept.score if kept else score)
    return list(out.values())[:limit]


PARTY_HEADS_SEARCHED: int = 60
"""Opening passages searched: a document's preamble names the role once and ranks under its clauses that say it
often, so its earliest passage is found among many."""


def vector_leg(
    store: Store,
    kb: KnowledgeBase,
    vector: np.ndarray,
    k: int,
    min_similarity: float,
    doc_ids: list[str] | None = None,
) -> list[LegHit]:
    """Cosine nearest neighbours among embedded chunks, dropping those under the similarity floor."""
    found = store.chunks.vector_search(kb, vector, k, scope(doc_ids, embedded=True))
    return [LegHit(row, sim) for row, sim in found if sim >= min_similarity]


_POOL = ThreadPoolExecutor(max_workers=4, thread_name_prefix="lexgate-leg")
"""LanceDB runs each search in Rust without the GIL, so the legs of one query run side by side and
the query costs about its slowest leg instead of their sum."""


def run_legs(calls: list[tuple[str, Callable[[], list[LegHit]]]]) -> list[tuple[str, list[LegHit]]]:
    """Run the legs concurrently; results keep the order of ``calls`` (fusion breaks ties by it)."""
    if len(calls) <= 1:
        return [(name, call()) for name, call in calls]
    futures = [(name, _POOL.submit(call)) for name, call in calls]
    return [(name, fut.result()) for name, fut in futures]
