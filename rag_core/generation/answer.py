"""Streaming the answer: deltas passed through while text, thinking and usage accumulate.

Why a wrapper: the pipeline, the UI's stop button and the evaluation runner all need the same
accumulation and the same guarantee that an abandoned stream is closed; settling citations and
support is the pipeline's review step (``rag_core.pipeline``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from rag_core.llm.base import CancelToken, ChatModel, ChatOptions, Message, StreamDelta
from rag_core.models import Usage
from rag_core.settings import GenerationSettings

_THINK_BLOCK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)


@dataclass
class AnswerDraft:
    """What a stream produced, accumulated while it is passed on to the UI."""

    text: str = ""
    thinking: str = ""
    usage: Usage = field(default_factory=Usage)
    cancelled: bool = False


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


def strip_think(text: str) -> str:
    """The answer text without inline reasoning a client failed to separate (never shown as answer)."""
    return _THINK_BLOCK.sub("", text).strip()
