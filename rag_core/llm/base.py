"""One interface for every chat model: an OpenAI-compatible endpoint or the packaged local GGUF.

Why a Protocol: retrieval (HyDE, multi-query, rerank), the judge, generation, reflection and
evaluation all need "a chat model"; none of them may care which one it is.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from rag_core.errors import LLMError
from rag_core.models import Usage

Role = Literal["answer", "judge", "rewrite"]


@dataclass
class Message:
    role: Literal["system", "user", "assistant"]
    content: str

    def to_dict(self) -> dict[str, str]:
        return {"role": self.role, "content": self.content}


@dataclass
class ChatOptions:
    temperature: float = 0.0
    max_tokens: int = 512
    think: bool = False  # ask for reasoning (endpoint parameter, or <think> prompt for the local model)
    json_mode: bool = False  # ask for a JSON object (response_format / grammar where supported)
    stop: list[str] = field(default_factory=list)


@dataclass
class StreamDelta:
    """One streamed piece: reasoning text and answer text arrive on separate channels."""

    kind: Literal["thinking", "token"]
    text: str


@dataclass
class ChatResult:
    content: str
    thinking: str = ""
    usage: Usage = field(default_factory=Usage)
    model: str = ""
    finish_reason: str = ""


class CancelToken:
    """Set from another thread (the UI's stop button) to end a stream at the next delta."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()


@runtime_checkable
class ChatModel(Protocol):
    """What every LLM client offers."""

    name: str

    def chat(self, messages: list[Message], options: ChatOptions | None = None) -> ChatResult:
        """A whole completion; reasoning (if any) separated into ``thinking``."""
        ...

    def stream(
        self,
        messages: list[Message],
        options: ChatOptions | None = None,
        cancel: CancelToken | None = None,
        usage_out: Usage | None = None,
    ) -> Iterator[StreamDelta]:
        """Deltas as they arrive; adds token usage to ``usage_out`` when the stream ends."""
        ...

    def chat_json(self, messages: list[Message], options: ChatOptions | None = None) -> dict[str, Any]:
        """A completion parsed as a JSON object (fenced or partial JSON tolerated); LLMError if none."""
        ...


class CancellableModel:
    """A chat model that refuses new calls once ``token`` is cancelled.

    Why: long batch work (evaluation judging, test-set generation) makes many short calls; after the
    lawyer presses stop, each further call fails at once with ``LLMError`` instead of costing time.
    """

    def __init__(self, model: ChatModel, token: CancelToken) -> None:
        self.model = model
        self.token = token
        self.name = getattr(model, "name", "")

    def _check(self) -> None:
        if self.token.cancelled:
            raise LLMError("cancelled", code="llm_cancelled")

    def chat(self, messages: list[Message], options: ChatOptions | None = None) -> ChatResult:
        self._check()
        return self.model.chat(messages, options)

    def stream(
        self,
        messages: list[Message],
        options: ChatOptions | None = None,
        cancel: CancelToken | None = None,
        usage_out: Usage | None = None,
    ) -> Iterator[StreamDelta]:
        self._check()
        return self.model.stream(messages, options, cancel or self.token, usage_out)

    def chat_json(self, messages: list[Message], options: ChatOptions | None = None) -> dict[str, Any]:
        self._check()
        return self.model.chat_json(messages, options)
