"""Step 1, route: does this message need the contracts at all (seed 001's Retrieve reflection)?"""

from __future__ import annotations

from collections.abc import Iterator

from rag_core.llm.base import ChatModel
from rag_core.reflection.retrieve_or_not import needs_retrieval, small_talk_reply
from rag_core.settings import ReflectionSettings
from rag_core.steps.events import Event, Token
from rag_core.steps.turn import Turn
from rag_core.trace import RetrieveOrNotRecord


def decide_retrieval(
    question: str, settings: ReflectionSettings, model: ChatModel | None
) -> RetrieveOrNotRecord | None:
    """The decision, or ``None`` when the reflection is switched off (then every message is searched)."""
    if not settings.retrieve_or_not:
        return None
    d = needs_retrieval(question, model)
    return RetrieveOrNotRecord(d.needed, d.by, d.reason)


def answer_small_talk(turn: Turn) -> Iterator[Event]:
    """Greetings and thanks get the canned reply at once, with no search."""
    turn.answer = small_talk_reply(turn.req.question, turn.language)
    yield Token(turn.answer)
    yield from turn.done()
