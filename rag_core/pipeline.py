"""The ask pipeline: route → build query → retrieve → judge → assemble evidence → generate → review.

Each step is a function of ``rag_core.steps`` with typed input and output; this module calls them
in order, records what each returned in the turn, and passes the events on (retrieved, verdicts,
thinking, token, answer reset, citations, done), so the UI shows the evidence panel before the
answer starts and streams the answer beside it; the CLI simply collects the final ``Done``
event, whose result carries the typed trace. Nothing here imports Streamlit.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from dataclasses import replace

from rag_core.coded import coded
from rag_core.generation.quoted import QUOTED_LEAD
from rag_core.llm.base import CancelToken, ChatModel
from rag_core.llm.factory import get_chat_model, separate_reasoning
from rag_core.models import Hit
from rag_core.retrieval.query_building import (
    earlier_route_questions,
    follow_up_question,
    make_retrieval_query,
)
from rag_core.retrieval.retriever import Retriever
from rag_core.settings import Settings
from rag_core.steps.events import (
    AnswerReset,
    AskRequest,
    AskResult,
    Citations,
    Done,
    Event,
    Quoted,
    Retrieved,
    Thinking,
    Token,
    Verdicts,
)
from rag_core.steps.evidence import Evidence, assemble_evidence
from rag_core.steps.generate import generate
from rag_core.steps.judging import (
    Judged,
    judge_follow_up,
    judge_hits,
    judged_question,
    question_as_asked,
    searched_documents,
    without_title_words,
)
from rag_core.steps.obey import (
    AbsentClause,
    FoundClause,
    absent_clause,
    correct_premise,
    found_clause_hit,
    quote_found_clause,
    refuse_absent_clause,
)
from rag_core.steps.quote import plan_answer
from rag_core.steps.review import quote_without_model, refuse, review_answer
from rag_core.steps.route import answer_small_talk, decide_retrieval
from rag_core.steps.turn import Turn
from rag_core.trace import ModelsRecord, QueryRecord, RetrievalRecord
from storage.store import Store

__all__ = [
    "AnswerReset",
    "AskRequest",
    "AskResult",
    "Citations",
    "Done",
    "Event",
    "Pipeline",
    "Quoted",
    "Retrieved",
    "Thinking",
    "Token",
    "Verdicts",
]


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

    def models(self) -> ModelsRecord:
        """The model names a trace records (the judge is 'local' unless the LLM judge is on)."""

        def name(model: ChatModel | None) -> str | None:
            return getattr(model, "name", None)

        judge = name(self.judge_model) if self.settings.verdict.backend == "llm" else "local"
        return ModelsRecord(name(self.answer_model), judge, name(self.rewrite_model))

    def ask(self, req: AskRequest, cancel: CancelToken | None = None) -> Iterator[Event]:
        """route → build query → retrieve → judge → assemble evidence → generate → review."""
        turn = self._start(req)
        turn.retrieve_or_not = decide_retrieval(req.question, self.settings.reflection, self.rewrite_model)
        if turn.retrieve_or_not is not None and not turn.retrieve_or_not.needed:
            yield from answer_small_talk(turn)
            return
        hits = yield from self._retrieve(turn)
        judge_on = self.settings.verdict.enabled if req.judge is None else req.judge
        judged = yield from self._judge(turn, hits, judge_on)
        evidence = assemble_evidence(
            self.store,
            self.settings,
            judged.kept,
            req.kbs,
            judged.conflicting_ids,
            cut=judge_on,
            salvaged=judged.salvage_cuts,
            affirming=frozenset(judged.affirming_ids),
        )
        turn.evidence, turn.notes = evidence.record, turn.notes + list(evidence.notes)
        refused = yield from self._refuse(turn, evidence, judged, hits, judge_on)
        if not refused:
            yield from self._answer(turn, evidence, cancel)
        yield from turn.done()

    # ------------------------------------------------------------------ the steps, in order
    def _start(self, req: AskRequest) -> Turn:
        """The turn; deep thinking is dropped (with a note) for a model with no reasoning channel."""
        no_thinking = req.think and not separate_reasoning(self.answer_model)
        req = replace(req, think=False) if no_thinking else req  # "thinking" would repeat the answer
        turn = Turn.start(req, self.settings, self.models())
        if no_thinking:
            turn.notes.append(
                coded(
                    "thinking_unavailable",
                    "deep thinking needs an endpoint that streams reasoning; answered without it",
                )
            )
        return turn

    def _retrieve(self, turn: Turn) -> Generator[Event, None, list[Hit]]:
        """Build the turn's query (seed 003) and retrieve candidates from every knowledge base."""
        req, s = turn.req, self.settings
        rq = make_retrieval_query(req.history, req.question, s.retrieval, self.rewrite_model)
        retrieved = Retriever(self.store, s, self.rewrite_model).search(
            req.kbs,
            rq.text,
            question=follow_up_question(req.history, req.question),
            earlier=earlier_route_questions(req.history, req.question),
        )
        turn.retrieval = RetrievalRecord.from_json(retrieved.trace)
        asked = rq.condensed or req.question  # a standalone rewrite is the question with its context
        judged = judged_question(asked, turn.retrieval) or (asked if asked != req.question else "")
        turn.query = QueryRecord(rq.text, rq.joined, rq.condensed, tuple(rq.notes), judged)
        turn.clock.lap("retrieval")
        yield Retrieved(rq, retrieved.hits)
        return retrieved.hits

    def _judge(self, turn: Turn, hits: list[Hit], judge_on: bool) -> Generator[Event, None, Judged]:
        docs = searched_documents(self.store, hits, self.settings) if judge_on else {}
        plain = without_title_words(turn.judged_question, docs)
        if plain and turn.query is not None:
            note = coded(
                "judged_without_title",
                f"also judged as \u201c{plain}\u201d, without the words naming the contract: each passage keeps "
                "the reading that finds more evidence in it",
                judged=plain,
            )
            turn.query = replace(turn.query, notes=(*turn.query.notes, note))
        judged = judge_hits(
            turn.judged_question,
            hits,
            self.settings,
            self.judge_model,
            judge_on,
            docs,
            also=plain,
            scope_question=question_as_asked(turn),
        )
        judged = judge_follow_up(turn, hits, judged, self.settings, self.judge_model, docs)
        turn.verdicts = judged.stage
        turn.notes += [] if judge_on else [coded("judge_off", "judge off: plain RAG path")]
        turn.clock.lap("judge")
        turn.clock.mark(turn.milestones, "to_verdicts")
        yield Verdicts(judged.stage.verdicts, len(judged.kept))
        return judged

    def _refuse(
        self, turn: Turn, evidence: Evidence, judged: Judged, hits: list[Hit], judge_on: bool
    ) -> Generator[Event, None, bool]:
        """Refuse when no kept block has the asked clause type (or quote that clause when a searched
        passage is one but holds no evidence), or when nothing was kept at all; True: answered here."""
        searched = len(hits)
        kept = {v.passage_id for v in judged.verdicts if v.keep}
        kept_texts = [h.text for h in hits if h.chunk_id in kept]
        absent = absent_clause(
            turn, evidence.blocks, judged.verdicts, judge_on, [h.text for h in hits], kept_texts
        )
        if absent is not None:
            found = found_clause_hit(turn, absent, judged.verdicts, hits)
            if found is None:
                yield from refuse_absent_clause(turn, absent, searched)
            else:
                yield from self._quote_found_clause(turn, absent, found, searched)
            return True
        if not evidence.blocks:
            yield from refuse(turn, judged.verdicts, searched, judge_on)
            return True
        return False

    def _quote_found_clause(
        self, turn: Turn, absent: AbsentClause, found: FoundClause, searched: int
    ) -> Iterator[Event]:
        """The asked clause, quoted, with "no passage states what was asked" (``obey.quote_found_clause``)."""
        evidence = assemble_evidence(self.store, self.settings, [found.hit], turn.req.kbs, set())
        turn.evidence, turn.notes = evidence.record, turn.notes + list(evidence.notes)
        plan = plan_answer(turn, evidence)
        yield Quoted(plan.quoted)
        yield from quote_found_clause(turn, absent, found, plan.quoted, evidence.blocks, searched)

    def _answer(self, turn: Turn, evidence: Evidence, cancel: CancelToken | None) -> Iterator[Event]:
        """The quoted answer at once, then the generated one (premise corrected), then its review."""
        plan = plan_answer(turn, evidence)
        yield Quoted(plan.quoted)
        if self.answer_model is None:
            quote_without_model(turn, plan.quoted.render(turn.language, QUOTED_LEAD))
        else:
            yield from generate(self.answer_model, turn, plan.prompt_blocks, cancel)
            yield from correct_premise(turn, evidence.blocks)
        turn.clock.lap("generation")
        kb_empty = turn.req.kbs[0].empty_answer if turn.req.kbs else ""
        # a generated answer is checked against what the model read; the quoted one may quote any block
        read = plan.prompt_blocks if self.answer_model is not None else list(evidence.blocks)
        yield from review_answer(self.answer_model, turn, read, kb_empty, cancel)
        turn.clock.lap("reflection")
