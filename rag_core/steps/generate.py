"""Step 6, generate: the prompt of seed 003 (system, history, numbered evidence, question), streamed."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace

from rag_core.generation.answer import AnswerDraft, answer_options, generate_answer
from rag_core.generation.prompt import EvidenceBlock, build_messages, render_prompt
from rag_core.llm.base import CancelToken, ChatModel
from rag_core.steps.events import Event, Thinking, Token
from rag_core.steps.turn import Turn


def generate(
    model: ChatModel,
    turn: Turn,
    blocks: Sequence[EvidenceBlock],
    cancel: CancelToken | None,
    strict: bool = False,
) -> Iterator[Event]:
    """Stream one draft into ``turn`` (answer, thinking, usage, the prompt it was given)."""
    req = turn.req
    messages = build_messages(
        req.question, req.history, list(blocks), turn.language, think=req.think, strict=strict
    )
    turn.prompts.append(render_prompt(messages))
    draft = AnswerDraft()
    options = answer_options(turn.settings.generation, req.think)
    for delta in generate_answer(model, messages, options, cancel, draft):
        turn.clock.mark(turn.milestones, "to_first_token")
        yield Thinking(delta.text) if delta.kind == "thinking" else Token(delta.text)
    turn.answer += draft.text
    turn.thinking += draft.thinking
    turn.usage.add(draft.usage)
    if turn.prompt_plan is not None:  # measured prompt size and KV-cache reuse of this call
        turn.prompt_plan = replace(
            turn.prompt_plan,
            prompt_tokens=(*turn.prompt_plan.prompt_tokens, draft.usage.prompt_tokens),
            cached_prompt_tokens=(*turn.prompt_plan.cached_prompt_tokens, draft.usage.cached_prompt_tokens),
        )
    turn.cancelled = turn.cancelled or draft.cancelled
