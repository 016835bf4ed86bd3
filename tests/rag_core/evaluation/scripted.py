"""A scripted ChatModel double for evaluation tests.

Why a double and not a mock: the judge LLM is not the thing under test; the metric arithmetic and
the parsing of its replies are. The double returns scripted reply texts (exactly what a model
would send) and records the prompts, so tests can also check what the judge was asked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from rag_core.errors import LLMError
from rag_core.llm.base import CancelToken, ChatOptions, ChatResult, Message, StreamDelta
from rag_core.llm.jsonparse import parse_json_object
from rag_core.models import Usage

Reply = str | Exception


class ScriptedChatModel:
    """Replies from a queue, or from a function of the last user prompt."""

    name = "scripted"

    def __init__(self, replies: list[Reply] | Callable[[str], Reply]) -> None:
        self._replies = replies
        self.prompts: list[str] = []
        self.options: list[ChatOptions | None] = []

    def _next(self, prompt: str) -> str:
        reply = self._replies(prompt) if callable(self._replies) else self._replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        return reply

    def chat(self, messages: list[Message], options: ChatOptions | None = None) -> ChatResult:
        prompt = messages[-1].content
        self.prompts.append(prompt)
        self.options.append(options)
        return ChatResult(content=self._next(prompt), model=self.name)

    def stream(
        self,
        messages: list[Message],
        options: ChatOptions | None = None,
        cancel: CancelToken | None = None,
        usage_out: Usage | None = None,
    ) -> Iterator[StreamDelta]:
        yield StreamDelta("token", self.chat(messages, options).content)

    def chat_json(self, messages: list[Message], options: ChatOptions | None = None) -> dict[str, Any]:
        obj = parse_json_object(self.chat(messages, options).content)
        if obj is None:
            raise LLMError("no JSON object in reply")
        return obj
