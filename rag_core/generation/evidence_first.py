"""The step between the judged evidence and the answer model: quote first, then a short prompt.

Why one step: the sentence scores are computed once per question and serve twice, for the quoted
answer shown at once and for choosing what the answer model reads. The pipeline's quote step
(``rag_core.steps.quote``) calls ``prepare_answer`` after assembling the evidence blocks, yields
the quoted answer at once, and hands ``AnswerPlan.prompt_blocks`` to the answer model (whole
blocks in ``passages`` mode: the old long prompt, kept for comparison).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rag_core.generation.compact import CompactPrompt, compact_blocks, prompt_budget
from rag_core.generation.prompt import EvidenceBlock, Language, build_messages
from rag_core.generation.quoted import QuotedAnswer, SentenceScorer, score_blocks, select_quoted
from rag_core.generation.sentence_scores import sentence_scorer
from rag_core.ingest.extract import TABLE_CELL_SEPARATOR
from rag_core.llm.openai_client import estimate_tokens
from rag_core.models import ChatTurn
from rag_core.settings import Settings


@dataclass
class AnswerPlan:
    """What the answer step will use, and what it cost to decide."""

    quoted: QuotedAnswer
    prompt_blocks: list[EvidenceBlock]
    compact: CompactPrompt | None  # None in ``passages`` mode
    scoring_ms: float
    trace: dict[str, Any] = field(default_factory=dict)


def fixed_prompt_tokens(question: str, history: Sequence[ChatTurn], language: Language, think: bool) -> int:
    """Estimated tokens of everything in the prompt but the evidence."""
    messages = build_messages(question, history, [], language, think=think)
    return sum(estimate_tokens(m.content) for m in messages)


def prepare_answer(
    question: str,
    history: Sequence[ChatTurn],
    blocks: Sequence[EvidenceBlock],
    language: Language,
    think: bool,
    settings: Settings,
    top: int | None = None,
    scorer: SentenceScorer | None = None,
    scoring_question: str = "",
) -> AnswerPlan:
    """Score the blocks' sentences once; pick the quoted answer; build the prompt's blocks.

    ``top`` is the number of the top-ranked block, which the prompt budget never drops.
    ``scoring_question`` is what the sentences are scored against when it differs from the question
    the model is asked (the question without a routed contract's name).
    """
    t0 = time.perf_counter()
    asked = scoring_question or question
    scored = score_blocks(asked, blocks, scorer or sentence_scorer(settings))
    quoted = select_quoted(blocks, scored, settings.generation, asked)
    scoring_ms = round((time.perf_counter() - t0) * 1000, 1)
    g = settings.generation
    if g.prompt_mode == "passages":
        return AnswerPlan(quoted, list(blocks), None, scoring_ms, {"prompt_mode": "passages"})
    fixed = fixed_prompt_tokens(question, history, language, think)
    premise = {b.n for b in blocks if b.conflicting or b.affirming}
    # the premise's sentences, and the quoted table rows with their header (the row a condition falls in, session 45)
    quoted_at = {(q.n, q.start) for q in quoted.sentences if q.n in premise or TABLE_CELL_SEPARATOR in q.text}
    required = [
        (x.sentence.block, x.sentence.position)
        for x in scored
        if (x.sentence.block, x.sentence.start) in quoted_at
    ]
    compact = compact_blocks(
        blocks, scored, fixed, prompt_budget(settings), language, g.prompt_min_relative, top, required
    )
    trace = {
        "prompt_mode": "sentences",
        "max_prompt_tokens": compact.budget_tokens,
        "estimated_prompt_tokens": compact.estimated_tokens,
        "sentences_in_prompt": {str(n): len(v) for n, v in compact.sentences.items()},
        "sentences_left_out": compact.left_out,
        "over_budget": compact.over_budget,
    }
    return AnswerPlan(quoted, compact.blocks, compact, scoring_ms, trace)
