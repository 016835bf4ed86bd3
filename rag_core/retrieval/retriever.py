"""The retrieval pipeline: route, search both legs (and HyDE / rewrites), fuse, rerank.

Why one orchestrator with small parts: every step is a separate function that the benchmark can
switch on and off, and every step writes what it did into the trace the Inspect page shows.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np

from rag_core.coded import coded
from rag_core.embeddings.registry import get_embedder
from rag_core.llm.base import ChatModel
from rag_core.models import Hit, KnowledgeBase
from rag_core.retrieval import expansion, rerank
from rag_core.retrieval.fusion import interleave, rrf, with_other_groups, with_reserved
from rag_core.retrieval.legs import (
    LegHit,
    anchor_leg,
    bigram_leg,
    bm25_leg,
    party_heads_leg,
    run_legs,
    vector_leg,
)
from rag_core.retrieval.lexicon import expansion_terms, other_language_words, translated_terms
from rag_core.retrieval.prototypes import prototype_text
from rag_core.retrieval.routing import (
    HEAD_CHARS,
    RouteDecision,
    RouteIndex,
    exclusive_route,
    in_document_query,
    route,
)
from rag_core.settings import RetrievalSettings, Settings
from rag_core.textproc import detect_language, is_chinese
from storage.rows import ChunkRow, DocumentMeta
from storage.store import Store

Mode = Literal["hybrid", "bm25", "vector"]


@dataclass
class RetrievalResult:
    hits: list[Hit]
    trace: dict[str, Any] = field(default_factory=dict)


def _page(row: ChunkRow) -> int | str | None:
    """PDF page number, else the DOCX section anchor, else nothing."""
    if row.page:
        return int(row.page)
    return row.anchor or None


def make_hit(row: ChunkRow, doc: DocumentMeta | None, score: float) -> Hit:
    return Hit(
        doc=doc.file_name if doc else "",
        doc_id=row.doc_id,
        chunk_id=row.id,
        start=int(row.start),
        end=int(row.end),
        page=_page(row),
        clause=row.clause or "",
        score=round(float(score), 6),
        text=row.text,
        title=doc.title if doc else "",
        parent_id=row.parent_id or "",
        page_end=row.page_end or None,
    )


TRANSLATED_LEG = "bm25_translated"
"""Name of the translated keyword leg (``routed_`` prefixed inside a routed contract)."""

TRANSLATED_VECTOR_LEG = "vector_translated"
"""Name of the translated vector leg (the question's glossary words in the other language, embedded)."""

ANCHOR_LEG = "anchor"
"""The passages holding the question's rarest words (``legs.anchor_leg``): reserved, not fused."""

PARTY_HEADS_LEG = "party_heads"
"""Document openings naming the role a party question asks (``legs.party_heads_leg``): reserved, not fused."""

RESERVED_LEGS: frozenset[str] = frozenset({ANCHOR_LEG, PARTY_HEADS_LEG})
"""Legs whose passages are reserved places among the candidates, with no vote in the fusion."""

_HEADS: dict[str, str] = {}
"""Opening text per document id: documents never change once ingested, so this cache cannot go stale."""


_PROTOTYPE_VECTORS: dict[tuple[str, str, str], np.ndarray] = {}
"""Model-clause vectors per (embedding backend, model, text): fixed texts, deterministic embedders."""


def _with_heads(store: Store, meta: list[DocumentMeta]) -> list[DocumentMeta]:
    missing = [m.id for m in meta if m.id not in _HEADS]
    if missing:
        for doc_id, text in store.docs.texts(missing).items():
            _HEADS[doc_id] = text[:HEAD_CHARS]
    return [replace(m, head=_HEADS.get(m.id, "")) for m in meta]


def translated_rankings(legs: Sequence[tuple[str, list[LegHit], float]]) -> list[list[str]]:
    """Per search scope (the ``routed_`` prefix or none), the translated keyword and vector legs'
    chunk ids taken turn about, best first: the hits that alone reach the other language's documents.

    Why turn about rather than fused: the two legs rarely agree across languages, and a clause the
    vector leg ranks first and the keyword leg misses (the employment agreement's notice clause for
    "员工离职需要提前多久通知？", session 41) would lose its reserved place to clauses on both."""
    by_scope: dict[str, list[list[str]]] = {}
    for name, hits, _ in legs:
        for suffix in (TRANSLATED_LEG, TRANSLATED_VECTOR_LEG):
            if name.endswith(suffix):
                by_scope.setdefault(name[: -len(suffix)], []).append([h.row.id for h in hits])
    return [list(dict.fromkeys(interleave(lists))) for lists in by_scope.values()]


def reserved_cut(hits: list[Hit], k: int) -> list[Hit]:
    """The first ``k`` hits, keeping those the translated leg reserved (``with_reserved``)."""
    by_id = {h.chunk_id: h for h in hits}
    reserved = [h.chunk_id for h in hits if h.explain.get("reserved")]
    kept = with_reserved([(h.chunk_id, h.score) for h in hits], reserved, k)
    return [by_id[cid] for cid, _ in kept]


class Retriever:
    """Searches one or several knowledge bases with the settings in force."""

    def __init__(self, store: Store, settings: Settings, llm: ChatModel | None = None) -> None:
        self.store = store
        self.settings = settings
        self.llm = llm
        self._doc_meta: dict[str, list[DocumentMeta]] = {}
        self._doc_languages: dict[str, dict[str, str]] = {}
        self._route_index: dict[str, RouteIndex] = {}

    @property
    def rs(self) -> RetrievalSettings:
        return self.settings.retrieval

    def doc_meta(self, kb: KnowledgeBase, refresh: bool = False) -> list[DocumentMeta]:
        """Names, titles, terms and opening text of the knowledge base's documents (for hits and routing)."""
        if refresh or kb.id not in self._doc_meta:
            self._doc_meta[kb.id] = _with_heads(self.store, self.store.docs.meta(kb))
            self._doc_languages.pop(kb.id, None)
            self._route_index.pop(kb.id, None)
        return self._doc_meta[kb.id]

    def route_index(self, kb: KnowledgeBase) -> RouteIndex:
        """``routing.RouteIndex`` of the loaded ``doc_meta``, built once: a follow-up is routed by each earlier
        question in turn."""
        meta = self.doc_meta(kb)
        if kb.id not in self._route_index:
            self._route_index[kb.id] = RouteIndex.of(meta)
        return self._route_index[kb.id]

    def doc_languages(self, kb: KnowledgeBase) -> dict[str, str]:
        """Document id → language of its opening text, read once per loaded ``doc_meta`` (every
        leg of every query asks, and a large base has thousands of documents)."""
        meta = self.doc_meta(kb)
        if kb.id not in self._doc_languages:
            self._doc_languages[kb.id] = {m.id: detect_language(m.head or m.title) for m in meta}
        return self._doc_languages[kb.id]

    def embed_query(self, kb: KnowledgeBase, text: str) -> np.ndarray:
        emb = get_embedder(kb.embed_backend, kb.embed_model, self.settings)
        return np.asarray(emb.embed_queries([text])[0], dtype=np.float32)

    def prototype_vector(self, kb: KnowledgeBase, text: str) -> np.ndarray:
        """The model clause embedded once per embedder and text (fixed texts, deterministic embedders).

        Embedded as a query, like an LLM's HyDE clause: on CUAD with 700-character children this
        ranked a little better than embedding it as a passage (R@8 0.828 against 0.812), at 500
        characters a little worse; the difference is within the benchmark's noise.
        """
        key = (kb.embed_backend, kb.embed_model, text)
        if key not in _PROTOTYPE_VECTORS:
            _PROTOTYPE_VECTORS[key] = self.embed_query(kb, text)
        return _PROTOTYPE_VECTORS[key]

    def _other_language(self, kb: KnowledgeBase, query: str, doc_ids: list[str] | None) -> bool:
        """Whether a searched document is written in the other language than the question (then the
        translated keyword leg runs; a monolingual base never pays for it)."""
        if not self.rs.cross_language:
            return False
        asked = "zh" if is_chinese(query) else "en"
        languages = self.doc_languages(kb)
        scope = doc_ids if doc_ids else languages
        return any(languages.get(d, asked) != asked for d in scope)

    def _vector_leg(self, kb: KnowledgeBase, vec: np.ndarray, doc_ids: list[str] | None) -> list[LegHit]:
        """One vector list (question, model clause or HyDE clause) with the settings' width and floor."""
        rs = self.rs
        return vector_leg(self.store, kb, vec, rs.vector_top_k, rs.vector_min_similarity, doc_ids)

    # ------------------------------------------------------------------ one query, one scope
    def _legs(
        self,
        kb: KnowledgeBase,
        query: str,
        mode: Mode,
        doc_ids: list[str] | None,
        trace: dict[str, Any],
        tag: str,
    ) -> list[tuple[str, list[LegHit], float]]:
        """Run the legs the mode asks for; returns (leg name, hits, RRF weight)."""
        rs = self.rs
        legs: list[tuple[str, list[LegHit], float]] = []
        extra = expansion_terms(query) if rs.legal_expansion else []
        if extra:
            trace.setdefault("expansion", {})[tag or "query"] = extra
        keyword_query = " ".join([query, *extra])
        # a concept only a question word named ("how long" -> term) stays out of the vector query:
        # there its words outweighed the topic the question's own words gave, and "How long is the
        # training program?" ranked every term clause of the base above the training clause, which
        # fell out of the 20 (session 42 try-out); the embedding already carries "how long"
        named = expansion_terms(query, asked=False) if rs.legal_expansion else []
        vector_query = " ".join([query, *named[: rs.expansion_vector_terms]])
        t0 = time.perf_counter()
        calls: list[tuple[str, Callable[[], list[LegHit]]]] = []
        weights: dict[str, float] = {}
        other_language = self._other_language(kb, query, doc_ids)
        if mode in ("hybrid", "bm25"):
            calls.append(
                (f"{tag}bm25", lambda: bm25_leg(self.store, kb, keyword_query, rs.bm25_top_k, doc_ids))
            )
            weights[f"{tag}bm25"] = rs.bm25_weight
            translated = translated_terms(query) if other_language else []
            if translated:
                trace.setdefault("translated", {})[tag or "query"] = translated
                calls.append(
                    (
                        f"{tag}{TRANSLATED_LEG}",
                        lambda: bm25_leg(self.store, kb, " ".join(translated), rs.bm25_top_k, doc_ids),
                    )
                )
                weights[f"{tag}{TRANSLATED_LEG}"] = rs.cross_language_weight
            if rs.bigram_field:
                calls.append(
                    (
                        f"{tag}bigram",
                        lambda: bigram_leg(self.store, kb, keyword_query, rs.bm25_top_k, doc_ids),
                    )
                )
                weights[f"{tag}bigram"] = rs.bm25_weight
        if mode in ("hybrid", "vector"):
            vec = self.embed_query(kb, vector_query)
            trace["timings_ms"][f"{tag}embed_query"] = round((time.perf_counter() - t0) * 1000, 2)
            calls.append((f"{tag}vector", lambda: self._vector_leg(kb, vec, doc_ids)))
            weights[f"{tag}vector"] = rs.vector_weight
            # the question's own words in the other language, searched by meaning: a Chinese question
            # is nearer every Chinese clause than the English clause that answers it ("员工离职需要提前
            # 多久通知？" left the employment agreement's notice clause out of the vector leg's 20),
            # while "employee staff notice resign …" finds it first (session 41 try-out). Not fused: a
            # second translated leg lifted the other language's term clauses over "How long is the
            # probation period?"'s own English one, which fell out of the 20; its hits only share the
            # translated keyword leg's reserved places
            glossed = other_language_words(query) if rs.cross_language_vector and other_language else []
            if glossed:
                trace.setdefault("glossed", {})[tag or "query"] = glossed
                calls.append(
                    (
                        f"{tag}{TRANSLATED_VECTOR_LEG}",
                        lambda: self._vector_leg(kb, self.embed_query(kb, " ".join(glossed)), doc_ids),
                    )
                )
                # no vote in the fusion: it reserves places only (``translated_rankings``)
                weights[f"{tag}{TRANSLATED_VECTOR_LEG}"] = 0.0
            # only inside a routed contract: there the clause type is what is sought; across a whole
            # base the model clause pulled lay statute questions to the wrong articles (LeCoQA MRR
            # 0.611 -> 0.536) while inside the named contract it lifts CUAD (R@8 0.810 -> 0.827)
            in_contract = bool(doc_ids) and mode == "hybrid"
            model_clause = prototype_text(query) if rs.clause_prototypes and in_contract else ""
            if model_clause:
                trace["prototype"] = model_clause
                proto_vec = self.prototype_vector(kb, model_clause)
                calls.append((f"{tag}prototype", lambda: self._vector_leg(kb, proto_vec, doc_ids)))
                weights[f"{tag}prototype"] = rs.prototype_weight
        t1 = time.perf_counter()
        for name, hits in run_legs(calls):
            if hits or not name.endswith("bigram"):
                legs.append((name, hits, weights[name]))
        trace["timings_ms"][f"{tag}legs"] = round((time.perf_counter() - t1) * 1000, 2)
        return legs

    def _fuse(
        self,
        kb: KnowledgeBase,
        legs: list[tuple[str, list[LegHit], float]],
        limit: int,
        trace: dict[str, Any],
    ) -> list[Hit]:
        """Weighted RRF over the legs; a single leg keeps its own scores and order."""
        docs = {d.id: d for d in self.doc_meta(kb)}
        rows: dict[str, ChunkRow] = {}
        explain: dict[str, dict[str, Any]] = {}
        for name, hits, _w in legs:
            trace["legs"][name] = [
                {"chunk_id": h.row.id, "rank": i + 1, "score": round(h.score, 4)} for i, h in enumerate(hits)
            ]
            for i, h in enumerate(hits):
                rows.setdefault(h.row.id, h.row)
                explain.setdefault(h.row.id, {})[name] = {"rank": i + 1, "score": round(h.score, 4)}
        active = [(n, h, w) for n, h, w in legs if h]
        fusing = [(n, h, w) for n, h, w in active if w > 0]
        if len(fusing) == 1:
            fused = [(h.row.id, h.score) for h in fusing[0][1]]
        else:
            fused = rrf(
                [[h.row.id for h in hs] for _, hs, _ in fusing],
                self.rs.rrf_k,
                [w for *_, w in fusing],
            )
        reserved = [
            cid
            for ranked in translated_rankings(active)
            for cid in with_other_groups(ranked, lambda c: rows[c].doc_id, self.rs.cross_language_reserved)
        ] + [h.row.id for name, hs, _ in active if name in RESERVED_LEGS for h in hs]
        out = []
        for rank, (cid, score) in enumerate(with_reserved(fused, reserved, limit), start=1):
            hit = make_hit(rows[cid], docs.get(rows[cid].doc_id), score)
            hit.explain = {"legs": explain[cid], "fused_rank": rank, "kb": kb.name}
            if cid in reserved:
                hit.explain["reserved"] = True
            out.append(hit)
        return out

    # ------------------------------------------------------------------ public
    def search_kb(
        self,
        kb: KnowledgeBase,
        query: str,
        k: int | None = None,
        mode: Mode | None = None,
        question: str | None = None,
        use_routing: bool | None = None,
        use_expansion: bool = True,
        use_rerank: bool = True,
        earlier: Sequence[str] = (),
    ) -> RetrievalResult:
        """Candidates from one knowledge base for ``query``; ``question`` (the user's current
        question) is what routing, HyDE and rewrites look at when the query is a multi-turn join;
        ``earlier`` (the chat's earlier questions, latest first) route a question that names no contract
        to the one the latest of them names (``query_building.earlier_route_questions``)."""
        rs = self.rs
        mode = mode or rs.mode
        k = k or rs.candidates
        question = question or query
        trace: dict[str, Any] = {
            "kb": kb.name,
            "query": query,
            "mode": mode,
            "legs": {},
            "notes": [],
            "timings_ms": {},
        }
        t_start = time.perf_counter()
        routing_on = rs.routing if use_routing is None else use_routing
        decision = (
            route(question, self.route_index(kb), rs.routing_min_overlap, rs.routing_same_kind_max)
            if routing_on
            else None
        )
        routed_earlier = ""
        if decision is None and routing_on:
            decision, routed_earlier = self._route_by_earlier(kb, earlier)
        trace["routing"] = decision.to_json() if decision else None
        if decision and routed_earlier:
            trace["routing"]["earlier_question"] = routed_earlier

        legs = self._legs(kb, query, mode, None, trace, "")
        # one-leg modes stay what they measure; a search of one named contract alone would drop them
        only_routed = decision is not None and exclusive_route(decision, rs)
        if mode == "hybrid" and not only_routed:
            anchors = anchor_leg(self.store, kb, question, rs.anchor_max_passages, rs.anchor_reserved)
            if anchors:
                legs.append((ANCHOR_LEG, anchors, 0.0))  # no vote in the fusion: its passages are reserved
            heads = party_heads_leg(self.store, kb, question, rs.party_head_chars, rs.party_heads_reserved)
            if heads:
                legs.append((PARTY_HEADS_LEG, heads, 0.0))
        expanded: tuple[str, list[str]] = ("", [])
        if use_expansion and mode != "bm25":
            expanded = self._expansions(question, trace)
            legs += self._expansion_legs(kb, expanded, mode, None, trace, "")
        fused = self._fuse(kb, legs, max(k, rs.rerank_top_n), trace)
        if decision:
            in_doc_query = in_document_query(question if query == question else query, decision.matched)
            trace["routing"]["in_doc_query"] = in_doc_query
            in_doc_legs = self._legs(kb, in_doc_query, mode, decision.doc_ids, trace, "routed_")
            in_doc_legs += self._expansion_legs(kb, expanded, mode, decision.doc_ids, trace, "routed_")
            routed = self._fuse(kb, in_doc_legs, max(k, rs.rerank_top_n), trace)
            seen = {h.chunk_id for h in routed}
            for h in routed:
                h.explain["routed"] = True
            if exclusive_route(decision, rs):
                trace["notes"].append(
                    coded(
                        "retrieval_routed_earlier",
                        f"searched only {decision.file_name}, the contract named earlier in this chat "
                        "(the question names none)",
                        file=decision.file_name,
                    )
                    if routed_earlier
                    else coded(
                        "retrieval_routed_only",
                        f"searched only {decision.file_name}, the one contract the question names",
                        file=decision.file_name,
                    )
                    if not decision.also
                    else coded(
                        "retrieval_routed_kind",
                        f"searched only {decision.file_names}, the contracts of the kind the question names",
                        files=decision.file_names,
                    )
                )
                fused = routed
            else:
                fused = routed + [h for h in fused if h.chunk_id not in seen]
        if use_rerank and rs.rerank != "off":
            fused = self._rerank(question, fused, trace)
        hits = reserved_cut(fused, k)
        trace["fused"] = [
            {"chunk_id": h.chunk_id, "rank": i + 1, "score": h.score} for i, h in enumerate(hits)
        ]
        trace["timings_ms"]["total"] = round((time.perf_counter() - t_start) * 1000, 2)
        return RetrievalResult(hits, trace)

    def _route_by_earlier(
        self, kb: KnowledgeBase, earlier: Sequence[str]
    ) -> tuple[RouteDecision | None, str]:
        """The route of the latest earlier question that names a contract, with that question."""
        rs = self.rs
        for previous in earlier:
            decision = route(previous, self.route_index(kb), rs.routing_min_overlap, rs.routing_same_kind_max)
            if decision is not None:
                return decision, previous
        return None, ""

    def search(self, kbs: list[KnowledgeBase], query: str, **kw: Any) -> RetrievalResult:
        """Several knowledge bases: each searched on its own, then merged by interleaving ranks."""
        results = [self.search_kb(kb, query, **kw) for kb in kbs]
        if len(results) == 1:
            return results[0]
        merged = interleave([r.hits for r in results])
        return RetrievalResult(merged, {"per_kb": [r.trace for r in results], "merge": "interleave"})

    # ------------------------------------------------------------------ optional steps
    def _expansions(self, question: str, trace: dict[str, Any]) -> tuple[str, list[str]]:
        """HyDE text and rewrites, asked of the LLM once per question (both scopes reuse them)."""
        rs = self.rs
        if not (rs.hyde or rs.multi_query):
            return "", []
        if self.llm is None:
            trace["notes"].append(
                coded("retrieval_no_llm_rewrites", "HyDE/multi-query skipped: no LLM configured")
            )
            return "", []
        t0 = time.perf_counter()
        hyde_text = (
            expansion.hyde(self.llm, question, rs.hyde_min_chars, rs.hyde_max_chars) if rs.hyde else ""
        )
        rewrites = expansion.multi_query(self.llm, question, rs.multi_query_count) if rs.multi_query else []
        if rs.hyde:
            trace["hyde"] = hyde_text
        if rs.multi_query:
            trace["rewrites"] = rewrites
        trace["timings_ms"]["expansion"] = round((time.perf_counter() - t0) * 1000, 2)
        return hyde_text, rewrites

    def _expansion_legs(
        self,
        kb: KnowledgeBase,
        expanded: tuple[str, list[str]],
        mode: Mode,
        doc_ids: list[str] | None,
        trace: dict[str, Any],
        tag: str,
    ) -> list[tuple[str, list[LegHit], float]]:
        """Search the HyDE clause (vector leg) and each rewrite (the mode's legs) in one scope."""
        rs = self.rs
        hyde_text, rewrites = expanded
        legs: list[tuple[str, list[LegHit], float]] = []
        if hyde_text:
            vec = self.embed_query(kb, hyde_text)
            hits = self._vector_leg(kb, vec, doc_ids)
            legs.append((f"{tag}hyde_vector", hits, rs.vector_weight))
        for i, rq in enumerate(rewrites):
            legs += self._legs(kb, rq, mode, doc_ids, trace, f"{tag}rewrite{i + 1}_")
        return legs

    def _rerank(self, question: str, hits: list[Hit], trace: dict[str, Any]) -> list[Hit]:
        rs = self.rs
        head, tail = hits[: rs.rerank_top_n], hits[rs.rerank_top_n :]
        t0 = time.perf_counter()
        if rs.rerank == "cross-encoder":
            scores = rerank.cross_encoder_scores(rs.rerank_model_dir, question, head)
        elif self.llm is None:
            trace["notes"].append(
                coded(
                    "retrieval_no_llm_rerank",
                    f"rerank '{rs.rerank}' skipped: no LLM configured",
                    method=rs.rerank,
                )
            )
            return hits
        elif rs.rerank == "llm":
            scores = rerank.llm_rerank_scores(self.llm, question, head, rs.rerank_concurrency)
        else:
            yes_no = getattr(self.llm, "yes_no_logit", None)
            if yes_no is None:
                trace["notes"].append(
                    coded("retrieval_logit_needs_local", "rerank 'llm-logit' needs the local model; skipped")
                )
                return hits
            scores = rerank.logit_scores(yes_no, question, head)
        trace["rerank"] = {"method": rs.rerank, "scores": [round(s, 4) for s in scores]}
        trace["timings_ms"]["rerank"] = round((time.perf_counter() - t0) * 1000, 2)
        return rerank.apply_scores(head, scores) + tail
