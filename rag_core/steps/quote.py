"""Step 5b, quote: the evidence sentences that best answer the question, at once, and the short
prompt built from the same sentence scores (``rag_core.generation.evidence_first``)."""

from __future__ import annotations

from rag_core.answer_records import PromptPlanRecord, QuotedRecord
from rag_core.generation.evidence_first import AnswerPlan, prepare_answer
from rag_core.generation.quoted import FALLBACK_LEAD
from rag_core.steps.evidence import Evidence
from rag_core.steps.turn import Turn


def plan_answer(turn: Turn, evidence: Evidence) -> AnswerPlan:
    """Score the evidence sentences once: the quoted answer, its fallback text and the prompt blocks."""
    req = turn.req
    plan = prepare_answer(
        req.question,
        req.history,
        evidence.blocks,
        turn.language,
        req.think,
        turn.settings,
        evidence.top,
        scoring_question=turn.judged_question,
    )
    turn.quoted = tuple(QuotedRecord(**q.to_json()) for q in plan.quoted.sentences)
    turn.fallback = plan.quoted.render(turn.language, FALLBACK_LEAD)
    turn.all_blocks = tuple(evidence.blocks)
    t = plan.trace
    turn.prompt_plan = PromptPlanRecord(
        prompt_mode=str(t.get("prompt_mode", "")),
        max_prompt_tokens=int(t.get("max_prompt_tokens", 0)),
        estimated_prompt_tokens=int(t.get("estimated_prompt_tokens", 0)),
        sentences_in_prompt=dict(t.get("sentences_in_prompt", {})),
        sentences_left_out=int(t.get("sentences_left_out", 0)),
        over_budget=bool(t.get("over_budget", False)),
        scoring_ms=plan.scoring_ms,
    )
    turn.clock.lap("quoted")
    turn.clock.mark(turn.milestones, "to_quoted")
    return plan
