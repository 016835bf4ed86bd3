"""Streaming the answer and settling it: citations checked, repaired, or the answer refused.

Why a finalisation step: the model is told to cite, but may cite a block it was never shown or
nothing at all. A lawyer must never get an uncited answer presented as grounded, so an answer with
no valid citation becomes an explicit refusal — or, with reflection on, an answer made only of
quoted evidence (``quote_fallback``), which cannot say anything the documents do not.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal

from rag_core.generation.citations import build_citations, check_citations, strip_invalid_citations
from rag_core.generation.prompt import EvidenceBlock, question_language
from rag_core.generation.refusal import empty_answer_for, uncited_refusal_text
from rag_core.llm.base import CancelToken, ChatModel, ChatOptions, Message, StreamDelta
from rag_core.models import Citation, Usage
from rag_core.reflection.support import quote_fallback
from rag_core.settings import GenerationSettings, Settings

_THINK_BLOCK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)

OutcomeReason = Literal[
    "ok", "invalid_citations_removed", "quote_fallback", "no_valid_citation", "no_evidence", "cancelled"
]


@dataclass
class AnswerDraft:
    """What a stream produced, accumulated while it is passed on to the UI."""

    text: str = ""
    thinking: str = ""
    usage: Usage = field(default_factory=Usage)
    cancelled: bool = False


@dataclass
class AnswerOutcome:
    """The answer as shown, with its resolved citations and why it looks the way it does."""

    answer: str
    refused: bool
    citations: list[Citation] = field(default_factory=list)
    invalid_citations: list[int] = field(default_factory=list)
    reason: OutcomeReason = "ok"


def answer_options(settings: GenerationSettings, think: bool = False) -> ChatOptions:
    """Chat options of the answer call; deep thinking gets its extra token allowance."""
    extra = settings.think_max_tokens if think else 0
    return ChatOptions(temperature=settings.temperature, max_tokens=settings.max_tokens + extra, think=think)


def generate_answer(
    model: ChatModel,
    messages: list[Message],
    options: ChatOptions | None = None,
    cancel: CancelToken | None = None,
    draft: AnswerDraft | None = None,
) -> Iterator[StreamDelta]:
    """Pass the model's deltas through, accumulating text, thinking and usage into ``draft``.

    Stops at the next delta once ``cancel`` is set; the model's stream is closed either way, so
    an abandoned HTTP stream does not keep generating.
    """
    draft = draft if draft is not None else AnswerDraft()
    stream = model.stream(messages, options, cancel, usage_out=draft.usage)
    try:
        for delta in stream:
            if cancel is not None and cancel.cancelled:
                break
            if delta.kind == "thinking":
                draft.thinking += delta.text
            else:
                draft.text += delta.text
            yield delta
    finally:
        draft.cancelled = cancel is not None and cancel.cancelled
        close = getattr(stream, "close", None)
        if callable(close):
            close()


def _clean(text: str) -> str:
    """The answer text without any inline reasoning a client failed to separate."""
    return _THINK_BLOCK.sub("", text).strip()


def finalize_answer(
    draft: str | AnswerDraft,
    blocks: Sequence[EvidenceBlock],
    settings: Settings,
    *,
    question: str = "",
    kb_empty_answer: str = "",
) -> AnswerOutcome:
    """Check the draft's citations against ``blocks`` and settle what the lawyer sees.

    - valid citations: kept and resolved; invalid numbers removed from the text and recorded;
    - no valid citation: the quote fallback when ``settings.reflection.is_supported`` and the
      question is known, else an explicit refusal led by the knowledge base's empty-answer text;
    - a cancelled draft: what was written, invalid numbers removed, not refused.
    """
    text = _clean(draft.text if isinstance(draft, AnswerDraft) else draft)
    language = question_language(question or text)
    empty = empty_answer_for(language, kb_empty_answer, settings.generation)
    if not blocks:
        return AnswerOutcome(answer=empty, refused=True, reason="no_evidence")
    check = check_citations(text, blocks)
    cleaned = strip_invalid_citations(text, check.invalid)
    citations = build_citations(check.valid, blocks)
    if isinstance(draft, AnswerDraft) and draft.cancelled:
        return AnswerOutcome(cleaned, False, citations, check.invalid, "cancelled")
    if check.valid:
        reason: OutcomeReason = "invalid_citations_removed" if check.invalid else "ok"
        return AnswerOutcome(cleaned, False, citations, check.invalid, reason)
    fallback = (
        quote_fallback(question, blocks, language) if settings.reflection.is_supported and question else ""
    )
    if fallback:
        quoted = build_citations(check_citations(fallback, blocks).valid, blocks)
        return AnswerOutcome(fallback, False, quoted, check.invalid, "quote_fallback")
    refusal = uncited_refusal_text(language, len(blocks), empty)
    return AnswerOutcome(refusal, True, [], check.invalid, "no_valid_citation")
