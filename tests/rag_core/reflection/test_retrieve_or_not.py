"""Retrieve-or-not: rules for greetings vs contract questions; the LLM only for short unclear inputs."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rag_core.llm.openai_client import OpenAIChatModel
from rag_core.reflection.retrieve_or_not import (
    needs_retrieval,
    small_talk_kind,
    small_talk_reply,
)
from rag_core.settings import ModelSettings
from tests.fakeopenai import FakeOpenAI, Reply


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as srv:
        yield srv


@pytest.fixture(scope="module")
def idle_server() -> Iterator[FakeOpenAI]:
    """One server for the rule cases, which must never call it (a server per case costs 0.5 s)."""
    with FakeOpenAI() as srv:
        yield srv


def _model(srv: FakeOpenAI) -> OpenAIChatModel:
    return OpenAIChatModel(
        srv.base_url, "test-key", "fake-chat", ModelSettings(retries=0, timeout_s=10), "rewrite"
    )


@pytest.mark.parametrize(
    "text",
    ["你好", "您好！", "你好吗？", "谢谢", "谢谢你！", "早上好", "再见", "你是谁？", "你能做什么", "hi", "Hello!",
     "hello there", "Thanks a lot!", "thank you", "who are you?", "What can you do?", "Good morning :)", "Hi, who are you?"],
)  # fmt: skip
def test_small_talk_skips_retrieval_by_rules(text: str, idle_server: FakeOpenAI) -> None:
    decision = needs_retrieval(text, _model(idle_server))
    assert (decision.needed, decision.by) == (False, "rules")
    assert idle_server.chat_requests() == []


@pytest.mark.parametrize(
    "text",
    ["违约金是多少？", "合同什么时候到期", "第五条怎么规定的", "甲方的义务有哪些", "乙方可以解除吗",
     "What is the termination notice period?", "Who are the parties?", "Is there a force majeure clause?",
     "hello, what does Section 7.2 say?", "谢谢，那保密期限呢？", "What does page 3 say?", "Can the lease be renewed?"],
)  # fmt: skip
def test_contract_questions_are_retrieved_by_rules(text: str, idle_server: FakeOpenAI) -> None:
    decision = needs_retrieval(text, _model(idle_server))
    assert (decision.needed, decision.by) == (True, "rules")
    assert idle_server.chat_requests() == []


def test_a_long_unmatched_question_is_retrieved_by_rules() -> None:
    decision = needs_retrieval(
        "Tell me everything you know about the obligations of Acme and how they changed over time"
    )
    assert (decision.needed, decision.by) == (True, "rules")


def test_ambiguous_input_without_a_model_is_retrieved() -> None:
    decision = needs_retrieval("What about Acme?", None)
    assert (decision.needed, decision.by) == (True, "rules")
    assert "doubt" in decision.reason


@pytest.mark.parametrize(
    "text",
    [
        "某某患有什么疾病？",
        "张三住在哪里？",
        "Who is Acme's CEO?",
        "What about Acme?",
        "李四的年龄？",
        "When?",
        "多少钱",
    ],
)
def test_short_factual_questions_are_retrieved_and_no_model_is_asked(text: str, server: FakeOpenAI) -> None:
    server.script(Reply(content="NO"))
    decision = needs_retrieval(text, _model(server))
    assert decision.needed
    assert server.chat_requests() == []


@pytest.mark.parametrize("text", ["How's it going?", "how are you", "你好吗", "谢谢！", "thanks a lot"])
def test_clear_small_talk_still_skips(text: str) -> None:
    assert not needs_retrieval(text).needed


@pytest.mark.parametrize(("text", "kind"), [("谢谢", "thanks"), ("hello", "greeting"), ("你是谁", "identity"),
                                            ("bye", "farewell"), ("hiya", "greeting"), ("high fees", None)])  # fmt: skip
def test_small_talk_kind(text: str, kind: str | None) -> None:
    assert small_talk_kind(text) == kind


def test_small_talk_reply_says_what_lexgate_does_in_the_language() -> None:
    zh = small_talk_reply("你好", "zh")
    en = small_talk_reply("thanks!", "en")
    assert zh.startswith("您好") and "Lexgate" in zh and "合同" in zh
    assert en.startswith("You're welcome.") and "contract" in en and "cit" in en
    assert small_talk_reply("who are you", "en").startswith("I am Lexgate")
