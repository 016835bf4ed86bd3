"""Streaming the answer over a real local HTTP server, and settling it against its citations."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from rag_core.generation.answer import AnswerDraft, answer_options, generate_answer, strip_think
from rag_core.generation.prompt import build_messages
from rag_core.llm.base import CancelToken, ChatOptions
from rag_core.llm.openai_client import OpenAIChatModel
from rag_core.models import EvidenceBlock
from rag_core.settings import GenerationSettings, ModelSettings, ReflectionSettings, Settings
from tests.fakeopenai import FakeOpenAI, Reply

BLOCKS = [
    EvidenceBlock(
        1,
        "采购合同",
        "p.pdf",
        3,
        "第五条 违约责任",
        "乙方逾期交货的，应按合同总价的5%支付违约金。",
        start=10,
        end=33,
    ),
    EvidenceBlock(2, "采购合同", "p.pdf", 4, "第六条 解除", "任何一方不得单方解除本合同。", start=40, end=54),
]
QUESTION = "乙方逾期交货的违约金是多少？"
KB_EMPTY = "本库无相关证据。"


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as srv:
        yield srv


def _model(srv: FakeOpenAI) -> OpenAIChatModel:
    return OpenAIChatModel(
        srv.base_url, "test-key", "fake-chat", ModelSettings(retries=0, timeout_s=10), "answer"
    )


def _no_reflection() -> Settings:
    return Settings(reflection=ReflectionSettings(is_supported=False))


def test_generate_answer_streams_and_accumulates(server: FakeOpenAI) -> None:
    server.script(Reply(content="违约金为合同总价的5% [1]。", reasoning_content="先看第五条。"))
    draft = AnswerDraft()
    messages = build_messages(QUESTION, [], BLOCKS, "zh")
    deltas = list(generate_answer(_model(server), messages, ChatOptions(), None, draft))
    assert "".join(d.text for d in deltas if d.kind == "token") == "违约金为合同总价的5% [1]。"
    assert draft.text == "违约金为合同总价的5% [1]。"
    assert draft.thinking == "先看第五条。"
    assert draft.usage.prompt_tokens > 0 and draft.usage.completion_tokens > 0
    assert not draft.cancelled
    assert server.chat_requests()[0]["messages"][0]["role"] == "system"


def test_generate_answer_stops_when_cancelled(server: FakeOpenAI) -> None:
    full = "甲" * 200
    server.script(Reply(content=full, chunk_chars=2, chunk_delay_s=0.01))
    cancel = CancelToken()
    draft = AnswerDraft()
    messages = build_messages(QUESTION, [], BLOCKS, "zh")
    for seen, _ in enumerate(generate_answer(_model(server), messages, None, cancel, draft), start=1):
        if seen == 3:
            threading.Thread(target=cancel.cancel).start()
    assert draft.cancelled
    assert 0 < len(draft.text) < len(full)


def test_answer_options_add_the_thinking_allowance() -> None:
    settings = GenerationSettings(max_tokens=500, think_max_tokens=300, temperature=0.2)
    assert answer_options(settings).max_tokens == 500
    thinking = answer_options(settings, think=True)
    assert (thinking.max_tokens, thinking.think, thinking.temperature) == (800, True, 0.2)


def test_strip_think_removes_inline_reasoning() -> None:
    assert strip_think("<think>先看第五条</think>违约金为5% [1]。") == "违约金为5% [1]。"
    assert strip_think("no tags") == "no tags"
