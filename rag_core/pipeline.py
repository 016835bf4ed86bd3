"""The ask pipeline: query building, retrieval, verdicts, grounded generation, reflection.

It yields typed events (retrieved, verdicts, thinking, token, answer reset, citations, done) so
the UI can show the evidence panel before the answer starts and stream the answer beside it; the
CLI simply collects the final ``Done`` event. Nothing here imports Streamlit.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from rag_core.generation import citations as cit
from rag_core.generation.answer import AnswerDraft, answer_options, generate_answer, strip_think
from rag_core.generation.prompt import (
    EvidenceBlock,
    Language,
    build_messages,
    question_language,
    render_prompt,
)
from rag_core.generation.refusal import (
    count_labels,
    empty_answer_for,
    is_risk_empty,
    refusal_text,
    uncited_refusal_text,
)
from rag_core.judge.base import passage_from_hit, verdict_record
from rag_core.judge.classify import select_kept
from rag_core.judge.factory import make_judge
from rag_core.judge.injection import injection_score
from rag_core.llm.base import CancelToken, ChatModel, Message
from rag_core.llm.factory import get_chat_model
from rag_core.models import ChatTurn, Citation, Hit, KnowledgeBase, Usage, Verdict
from rag_core.reflection.retrieve_or_not import needs_retrieval, small_talk_reply
from rag_core.reflection.support import (
    judge_support,
    needs_regeneration,
    quote_fallback,
    repair_citations,
    split_sentences,
)
from rag_core.retrieval.budget import Passage, apply_budget, expand_to_parents
from rag_core.retrieval.query_building import RetrievalQuery, make_retrieval_query
from rag_core.retrieval.retriever import Retriever
from rag_core.settings import Settings
from storage.store import Store


# ---------------------------------------------------------------------- events
@dataclass
class Retrieved:
    query: RetrievalQuery
    hits: list[Hit]


@dataclass
class Verdicts:
    verdicts: list[dict[str, Any]]  # Verdict.to_json() plus chunk_id, doc, text, page, clause
    kept: int


@dataclass
class Thinking:
    text: str


@dataclass
class Token:
    text: str


@dataclass
class AnswerReset:
    """The streamed draft is withdrawn (unsupported); a revised answer follows."""

    reason: str


@dataclass
class Citations:
    citations: list[Citation]


@dataclass
class AskResult:
    question: str
    answer: str = ""
    thinking: str = ""
    refused: bool = False
    citations: list[Citation] = field(default_factory=list)
    verdicts: list[dict[str, Any]] = field(default_factory=list)
    trace: dict[str, Any] = field(default_factory=dict)
    usage: Usage = field(default_factory=Usage)

    def to_json(self) -> dict[str, Any]:
        """The CLI ``ask --json`` shape."""
        return {
            "answer": self.answer,
            "thinking": self.thinking,
            "refused": self.refused,
            "citations": [c.to_json() for c in self.citations],
            "verdicts": self.verdicts,
            "trace": self.trace,
            "usage": self.usage.to_json(),
        }


@dataclass
class Done:
    result: AskResult


Event = Retrieved | Verdicts | Thinking | Token | AnswerReset | Citations | Done


# ---------------------------------------------------------------------- helpers
def _blocks(passages: list[Passage], conflicting: set[str]) -> list[EvidenceBlock]:
    return [
        EvidenceBlock(
            n=i + 1,
            title=p.hit.title or p.hit.doc,
            doc=p.hit.doc,
            page=p.hit.page,
            clause=p.hit.clause,
            text=p.hit.text,
            conflicting=any(c.chunk_id in conflicting for c in p.children),
            start=p.hit.start,
            end=p.hit.end,
            doc_id=p.hit.doc_id,
            chunk_id=p.hit.chunk_id,
        )
        for i, p in enumerate(passages)
    ]


class _Clock:
    def __init__(self) -> None:
        self.t0 = time.perf_counter()
        self.last = self.t0
        self.stages: dict[str, float] = {}

    def lap(self, stage: str) -> None:
        now = time.perf_counter()
        self.stages[stage] = round((now - self.last) * 1000, 1)
        self.last = now

    def total_ms(self) -> float:
        return round((time.perf_counter() - self.t0) * 1000, 1)


# ---------------------------------------------------------------------- the pipeline
@dataclass
class AskRequest:
    question: str
    kbs: list[KnowledgeBase]
    history: list[ChatTurn] = field(default_factory=list)
    think: bool = False
    judge: bool | None = None  # None = settings.verdict.enabled


class Pipeline:
    """One configured pipeline; models are passed in so tests and the UI choose them."""

    def __init__(
        self,
        store: Store,
        settings: Settings,
        answer_model: ChatModel | None,
        judge_model: ChatModel | None = None,
        rewrite_model: ChatModel | None = None,
    ) -> None:
        self.store = store
        self.settings = settings
        self.answer_model = answer_model
        self.judge_model = judge_model
        self.rewrite_model = rewrite_model

    @classmethod
    def from_settings(cls, store: Store, settings: Settings) -> Pipeline:
        """The models the settings name (the packaged local GGUF by default, loaded lazily on first use)."""
        answer = get_chat_model(settings, "answer")
        judge = get_chat_model(settings, "judge") if settings.verdict.backend == "llm" else None
        return cls(store, settings, answer, judge, get_chat_model(settings, "rewrite"))

    def ask(self, req: AskRequest, cancel: CancelToken | None = None) -> Iterator[Event]:
        s = self.settings
        clock = _Clock()
        language = question_language(req.question)
        result = AskResult(question=req.question)
        trace: dict[str, Any] = result.trace
        trace.update(
            question=req.question,
            language=language,
            kbs=[kb.name for kb in req.kbs],
            think=req.think,
            settings=s.snapshot(),
            models={
                "answer": getattr(self.answer_model, "name", None),
                "judge": getattr(self.judge_model, "name", None) if s.verdict.backend == "llm" else "local",
                "rewrite": getattr(self.rewrite_model, "name", None),
            },
            notes=[],
        )

        # Reflection: retrieve or not (greetings and small talk need no contract).
        if s.reflection.retrieve_or_not:
            decision = needs_retrieval(req.question, self.rewrite_model)
            trace["retrieve_or_not"] = decision.__dict__
            if not decision.needed:
                result.answer = small_talk_reply(req.question, language)
                trace["timings_ms"] = {"total": clock.total_ms()}
                yield Token(result.answer)
                yield Done(result)
                return

        # Query building and retrieval.
        rq = make_retrieval_query(req.history, req.question, s.retrieval, self.rewrite_model)
        trace["query"] = rq.__dict__
        retriever = Retriever(self.store, s, self.rewrite_model)
        retrieved = retriever.search(req.kbs, rq.text, question=req.question)
        hits = retrieved.hits
        trace["retrieval"] = retrieved.trace
        clock.lap("retrieval")
        yield Retrieved(rq, hits)

        # Verdicts.
        judge_on = s.verdict.enabled if req.judge is None else req.judge
        verdict_json: list[dict[str, Any]] = []
        kept_hits: list[Hit]
        verdict_objs: list[Verdict] = []
        if judge_on and hits:
            judge = make_judge(s, self.judge_model)
            verdict_objs = judge.judge(req.question, [passage_from_hit(i + 1, h) for i, h in enumerate(hits)])
            by_id = {h.chunk_id: h for h in hits}
            verdict_json = [verdict_record(v, by_id[v.passage_id]) for v in verdict_objs]
            kept_hits = [by_id[v.passage_id] for v in select_kept(verdict_objs, s.verdict)]
        else:
            kept_hits = hits[: s.retrieval.max_passages]
            trace["notes"].append("judge off: plain RAG path")
        result.verdicts = verdict_json
        trace["verdicts"] = verdict_json
        trace["thresholds"] = {
            "t_injection": s.verdict.t_injection,
            "t_conflict": s.verdict.t_conflict,
            "t_relevance": s.verdict.t_relevance,
            "t_evidence": s.verdict.t_evidence,
        }
        clock.lap("judge")
        yield Verdicts(verdict_json, len(kept_hits))

        # Small-to-big, injection screen of the larger text, context budget.
        passages = self._passages(kept_hits, req.kbs, trace)
        conflicting = {v.passage_id for v in verdict_objs if v.label == "CONFLICTING"}
        blocks = _blocks(passages, conflicting)
        trace["blocks"] = [
            {
                "n": b.n,
                "chunk_id": b.chunk_id,
                "doc": b.doc,
                "start": b.start,
                "end": b.end,
                "page": b.page,
                "clause": b.clause,
                "text": b.text,
                "children": [{"chunk_id": c.chunk_id, "start": c.start, "end": c.end} for c in p.children],
                "conflicting": b.conflicting,
            }
            for b, p in zip(blocks, passages, strict=True)
        ]
        kb_empty = req.kbs[0].empty_answer if req.kbs else ""
        if not blocks:
            counts = count_labels(verdict_objs)
            result.refused = True
            if judge_on and is_risk_empty(verdict_objs):
                trace["notes"].append("risk-empty: injection removed and nothing kept; no fallback")
            result.answer = refusal_text(
                language,
                len(hits),
                {str(k): v for k, v in counts.items()},
                empty_answer_for(language, kb_empty, s.generation),
                req.kbs[0].name,
            )
            trace["timings_ms"] = {**clock.stages, "total": clock.total_ms()}
            yield Token(result.answer)
            yield Citations([])
            yield Done(result)
            return
        if self.answer_model is None:
            result.answer = quote_fallback(req.question, blocks, language)
            trace["notes"].append("no answer model: quoted the evidence")
        else:
            yield from self._generate(req, blocks, language, result, cancel)
        clock.lap("generation")

        # Citations and reflection.
        yield from self._finish(req, blocks, language, result, kb_empty, cancel)
        clock.lap("reflection")
        trace["timings_ms"] = {**clock.stages, "total": clock.total_ms()}
        yield Citations(result.citations)
        yield Done(result)

    # ------------------------------------------------------------------ steps
    def _passages(self, kept: list[Hit], kbs: list[KnowledgeBase], trace: dict[str, Any]) -> list[Passage]:
        s = self.settings
        by_name = {kb.name: kb for kb in kbs}
        passages: list[Passage] = []
        for kb in kbs:
            mine = [h for h in kept if h.explain.get("kb", kb.name) == kb.name]
            passages += expand_to_parents(self.store, by_name[kb.name], mine, s.retrieval.small_to_big)
        order = {h.chunk_id: i for i, h in enumerate(kept)}
        passages.sort(key=lambda p: min(order.get(c.chunk_id, 10**6) for c in p.children))
        screened: list[Passage] = []
        for p in passages:
            if (
                p.children
                and p.hit is not p.children[0]
                and injection_score(p.hit.text)[0] > s.verdict.t_injection
            ):
                # The larger text holds an injection outside the judged child: hand on the child only.
                trace["notes"].append(f"{p.hit.chunk_id}: parent text flagged as injection; child used")
                screened.append(Passage(p.children[0], p.children, p.kb))
            else:
                screened.append(p)
        kept_p, notes = apply_budget(screened, s.retrieval.max_passages, s.retrieval.max_context_chars)
        trace["budget_notes"] = notes
        return kept_p

    def _stream(
        self, messages: list[Message], think: bool, result: AskResult, cancel: CancelToken | None
    ) -> Iterator[Event]:
        """Stream one completion, collecting answer, thinking and usage into ``result``."""
        assert self.answer_model is not None
        draft = AnswerDraft()
        options = answer_options(self.settings.generation, think)
        for delta in generate_answer(self.answer_model, messages, options, cancel, draft):
            yield Thinking(delta.text) if delta.kind == "thinking" else Token(delta.text)
        result.answer += draft.text
        result.thinking += draft.thinking
        result.usage.add(draft.usage)
        if draft.cancelled:
            result.trace["cancelled"] = True

    def _generate(
        self,
        req: AskRequest,
        blocks: list[EvidenceBlock],
        language: Language,
        result: AskResult,
        cancel: CancelToken | None,
        strict: bool = False,
    ) -> Iterator[Event]:
        messages = build_messages(req.question, req.history, blocks, language, think=req.think, strict=strict)
        result.trace.setdefault("prompts", []).append(render_prompt(messages))
        yield from self._stream(messages, req.think, result, cancel)

    def _review(
        self, answer: str, blocks: list[EvidenceBlock], trace: dict[str, Any], key: str
    ) -> tuple[str, bool]:
        """Drop invalid citation numbers, repair attributions, then judge support; returns the
        reviewed answer and whether it is acceptable (cites validly and is supported enough)."""
        rs = self.settings.reflection
        check = cit.check_citations(answer, blocks)
        if check.invalid:
            answer = cit.strip_invalid_citations(answer, check.invalid)
            trace.setdefault("invalid_citations", []).extend(check.invalid)
        answer, repairs = repair_citations(answer, blocks, rs)
        if repairs:
            trace.setdefault("citation_repairs", []).extend(r.__dict__ for r in repairs)
        valid = bool(cit.check_citations(answer, blocks).valid)
        if not rs.is_supported:
            return answer, valid
        supports = judge_support(split_sentences(answer), blocks, rs, None)
        trace[key] = [x.__dict__ for x in supports]
        return answer, valid and not needs_regeneration(supports, rs)

    def _finish(
        self,
        req: AskRequest,
        blocks: list[EvidenceBlock],
        language: Language,
        result: AskResult,
        kb_empty: str,
        cancel: CancelToken | None,
    ) -> Iterator[Event]:
        """Seed 001's IS_SUPPORTED: accept, regenerate once with a stricter prompt, then quote.

        A cancelled answer is kept as far as it got (invalid citation numbers removed), never
        regenerated: the lawyer pressed stop.
        """
        rs = self.settings.reflection
        trace = result.trace
        result.answer = strip_think(result.answer)
        if trace.get("cancelled"):
            check = cit.check_citations(result.answer, blocks)
            result.answer = cit.strip_invalid_citations(result.answer, check.invalid)
            result.citations = cit.build_citations(check.valid, blocks)
            return
        reviewed, ok = self._review(result.answer, blocks, trace, "support")
        if reviewed != result.answer:
            yield AnswerReset("citations corrected")
            result.answer = reviewed
            yield Token(reviewed)
        if not ok and rs.is_supported and rs.regenerate_unsupported and self.answer_model is not None:
            reason = "answer not supported by the evidence; regenerating with a stricter prompt"
            trace["notes"].append(reason)
            yield AnswerReset(reason)
            result.answer, result.thinking = "", ""
            yield from self._generate(req, blocks, language, result, cancel, strict=True)
            reviewed, ok = self._review(result.answer, blocks, trace, "support_after_regeneration")
            if reviewed != result.answer:
                yield AnswerReset("citations corrected")
                result.answer = reviewed
                yield Token(reviewed)
        if not ok:
            if rs.is_supported:
                reason = "unsupported: quoting the evidence instead of inventing"
                result.answer = quote_fallback(req.question, blocks, language)
            else:
                reason = "the answer cited no evidence: withheld"
                result.answer = uncited_refusal_text(
                    language, len(blocks), empty_answer_for(language, kb_empty, self.settings.generation)
                )
                result.refused = True
            trace["notes"].append(reason)
            yield AnswerReset(reason)
            yield Token(result.answer)
        result.citations = cit.build_citations(cit.check_citations(result.answer, blocks).valid, blocks)
        if not result.citations:
            result.refused = True
