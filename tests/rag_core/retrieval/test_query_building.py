"""Retrieval query building: seed 003's join, and LLM condensing over a real local HTTP server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rag_core.llm.openai_client import OpenAIChatModel
from rag_core.models import ChatTurn
from rag_core.retrieval.query_building import (
    FOLLOW_UP_CHAIN_MAX,
    about_previous_subject,
    build_retrieval_query,
    chained_turns,
    clean_condensed,
    condense_question,
    elliptical,
    make_retrieval_query,
    refers_back,
    with_new_subject,
)
from rag_core.settings import ModelSettings, RetrievalSettings
from tests.fakeopenai import FakeOpenAI, Reply

SEED_HISTORY = [
    ChatTurn("user", "什么是分布式锁?"),
    ChatTurn("assistant", "分布式锁是一种在分布式系统中..."),
    ChatTurn("user", "它有哪些特性?"),
    ChatTurn("assistant", "分布式锁的核心特性包括..."),
]

LEASE_HISTORY = [
    ChatTurn("user", "Who is the tenant in the Lease Agreement?"),
    ChatTurn("assistant", "The tenant is Acme Ltd. [1]"),
    ChatTurn("user", "And the landlord?"),
    ChatTurn("assistant", "The landlord is Beta LLC. [2]"),
]


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as srv:
        yield srv


def _model(srv: FakeOpenAI) -> OpenAIChatModel:
    return OpenAIChatModel(
        srv.base_url, "test-key", "fake-chat", ModelSettings(retries=0, timeout_s=10), "rewrite"
    )


def test_first_turn_is_the_question_itself() -> None:
    assert build_retrieval_query([], "  违约金是多少？ ", 3) == "违约金是多少？"


def test_later_turns_join_user_questions_as_in_seed_003() -> None:
    assert build_retrieval_query(SEED_HISTORY, "如何实现?", 3) == "什么是分布式锁? 它有哪些特性? 如何实现?"


def test_only_user_messages_are_joined() -> None:
    query = build_retrieval_query(SEED_HISTORY, "如何实现?", 3)
    assert "分布式锁是一种" not in query
    assert "核心特性包括" not in query


def test_history_turns_limits_to_the_last_messages() -> None:
    history = [
        ChatTurn("user", "q1"),
        ChatTurn("assistant", "a1"),
        ChatTurn("user", "q2"),
        ChatTurn("assistant", "a2"),
        ChatTurn("user", "q3"),
        ChatTurn("assistant", "a3"),
    ]
    assert build_retrieval_query(history, "q4", 1) == "q3 q4"
    assert build_retrieval_query(history, "q4", 2) == "q2 q3 q4"
    assert build_retrieval_query(history, "q4", 10) == "q1 q2 q3 q4"
    assert build_retrieval_query(history, "q4", 0) == "q4"


def test_whitespace_inside_questions_is_collapsed() -> None:
    history = [ChatTurn("user", "  What is\nthe term? "), ChatTurn("assistant", "Two years.")]
    assert build_retrieval_query(history, " Can it renew? ", 3) == "What is the term? Can it renew?"


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("Standalone question: What is the notice period?", "What is the notice period?"),
        ("“租赁合同的违约金是多少？”", "租赁合同的违约金是多少？"),
        ("独立问题：租赁合同的违约金是多少？\n（补全了指代）", "租赁合同的违约金是多少？"),
        ("   ", ""),
    ],
)
def test_clean_condensed_strips_lead_ins_quotes_and_extra_lines(raw: str, clean: str) -> None:
    assert clean_condensed(raw) == clean


def test_condense_uses_the_llm_rewrite(server: FakeOpenAI) -> None:
    server.script(Reply(content='Standalone question: "Who is the landlord of the Lease Agreement?"'))
    rq = condense_question(_model(server), LEASE_HISTORY, "What about its deposit?", 3)
    assert rq.text == "Who is the landlord of the Lease Agreement?"
    assert rq.condensed == rq.text
    assert rq.joined == "Who is the tenant in the Lease Agreement? And the landlord? What about its deposit?"
    assert "openai/fake-chat" in rq.notes[0]
    sent = server.chat_requests()[0]["messages"]
    assert sent[0]["role"] == "system" and "in English" in sent[0]["content"]
    assert "What about its deposit?" in sent[1]["content"]
    assert "Acme Ltd" in sent[1]["content"]  # history reaches the condenser
    assert "[1]" not in sent[1]["content"]  # old citation numbers do not


def test_condense_asks_in_chinese_for_a_chinese_question(server: FakeOpenAI) -> None:
    server.script(Reply(content="分布式锁如何实现？"))
    rq = condense_question(_model(server), SEED_HISTORY, "如何实现?", 3)
    assert rq.text == "分布式锁如何实现？"
    assert "用中文" in server.chat_requests()[0]["messages"][0]["content"]


def test_condense_failure_falls_back_to_the_joined_query(server: FakeOpenAI) -> None:
    server.script(Reply.error(500, "boom"))
    rq = condense_question(_model(server), SEED_HISTORY, "如何实现?", 3)
    assert rq.text == rq.joined == "什么是分布式锁? 它有哪些特性? 如何实现?"
    assert rq.condensed == ""
    assert "condense failed" in rq.notes[0]


def test_condense_empty_or_rambling_answer_falls_back(server: FakeOpenAI) -> None:
    server.script(Reply(content="  "), Reply(content="x" * 1000))
    empty = condense_question(_model(server), SEED_HISTORY, "如何实现?", 3)
    long = condense_question(_model(server), SEED_HISTORY, "如何实现?", 3)
    assert empty.text == empty.joined and "nothing" in empty.notes[0]
    assert long.text == long.joined and "longer than" in long.notes[0]


def test_condense_on_the_first_turn_makes_no_request(server: FakeOpenAI) -> None:
    rq = condense_question(_model(server), [], "What is the term?", 3)
    assert rq.text == "What is the term?"
    assert server.chat_requests() == []


def test_make_retrieval_query_condenses_only_when_enabled(server: FakeOpenAI) -> None:
    server.script(Reply(content="Who is the landlord's deposit holder?"))
    off = make_retrieval_query(
        LEASE_HISTORY, "Deposit?", RetrievalSettings(condense_with_llm=False), _model(server)
    )
    assert off.text == off.joined and server.chat_requests() == []
    on = make_retrieval_query(
        LEASE_HISTORY, "Deposit?", RetrievalSettings(condense_with_llm=True), _model(server)
    )
    assert on.text == "Who is the landlord's deposit holder?"
    assert len(server.chat_requests()) == 1


def test_refers_back_finds_the_words_that_point_at_the_previous_question() -> None:
    for q in [
        "那什么时候付？",
        "金额呢？",
        "那么期限多久？",
        "它什么时候到期？",
        "When is it due?",
        "What about their notice?",
    ]:
        assert refers_back(q), q
    for q in [
        "押金是多少？",
        "违约金是多少？",
        "这份租赁合同约定的租金是多少？",
        "What is the monthly fee?",
        "其他费用由谁承担？",
        "那押金什么时候退？",  # its own subject: a new question (browser try-out)
        "那违约金怎么算？",
        "还有保密期多长？",
        "And which courts have jurisdiction?",  # its own clause: a new question (session 38 try-out)
        "Then can the customer assign the agreement?",
    ]:
        assert not refers_back(q), q
    for q in ["And when is it due?", "And the amount?", "So how much?"]:
        assert refers_back(q), q  # a pointer, or no clause of its own
    for q in ["那金额是多少？", "那乙方什么时候付？", "那么期限多久？", "那押金呢？"]:
        assert refers_back(q), q  # an attribute, a party or 呢: still about what was asked


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("什么时候退还？", True),
        ("可以提前解除吗？", True),
        ("那押金什么时候退？", False),  # names its own subject
        ("竞业限制期限是多久？", False),  # names a clause type
        ("When is it due?", False),  # English: left to refers_back
    ],
)
def test_a_chinese_question_naming_no_subject_or_clause_type_is_elliptical(
    question: str, expected: bool
) -> None:
    assert elliptical(question) is expected


def test_a_stored_answer_as_history_carries_the_documents_it_cited() -> None:
    cites = [{"doc_id": "d1", "n": 1}, {"doc_id": "d2"}, {"doc_id": "d1"}, {"n": 3}, "junk"]
    turn = ChatTurn.of_message("assistant", "租金为6800元 [1]。", cites)
    assert turn.cited_docs == ("d1", "d2")
    assert ChatTurn.of_message("user", "租金是多少？", None).cited_docs == ()


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("那是哪一天付？", True),
        ("什么时候退还？", True),
        ("那押金呢？", False),  # its own subject: perhaps another document's
        ("When is it due?", True),
        ("What about the deposit?", False),
    ],
)
def test_a_follow_up_about_the_previous_subject_names_none_of_its_own(question: str, expected: bool) -> None:
    assert about_previous_subject(question) is expected


@pytest.mark.parametrize(
    ("previous", "follow_up", "expected"),
    [
        ("押金多久能退？", "那房租呢？", "房租多久能退？"),
        ("月租金是多少？", "那押金呢？", "押金是多少？"),
        ("保密期限是多久？", "竞业限制呢", "竞业限制期限是多久？"),
        ("月租金是多少？", "那乙方呢？", None),  # a party: still about the rent
        ("月租金是多少？", "那金额呢？", None),  # an attribute of what was asked
        ("月租金是多少？", "那押金什么时候退？", None),  # a question of its own
        ("What is the monthly fee?", "那押金呢？", None),  # no Chinese subject to put it in place of
        # the contract named before the subject stays (session 32: its first noun was taken for the subject)
        ("房屋租赁合同的押金多久能退？", "那房租呢？", "房屋租赁合同的房租多久能退？"),
        ("《房屋租赁合同》中约定的押金是多少？", "那租金呢？", "《房屋租赁合同》中约定的租金是多少？"),
        ("技术开发合同的质保期多长？", "那保密期限呢？", "技术开发合同的保密期限"),
        ("质保期内缺陷怎么处理？", "那保密期限呢？", "保密期限"),  # it says what it asks
        # an act named by verbs, and a verbal noun as the old subject (session 34)
        ("运输合同的运费怎么算？", "逾期付款呢？", "运输合同的逾期付款怎么算？"),
        ("运输合同的运费怎么算？", "那什么时候呢？", None),  # a question word: still about the freight
        ("运输合同的运费怎么算？", "它呢？", None),
    ],
)
def test_a_follow_up_that_is_only_a_new_subject_asks_the_previous_question_of_it(
    previous: str, follow_up: str, expected: str | None
) -> None:
    assert with_new_subject(previous, follow_up) == expected


def _chat(*questions: str) -> list[ChatTurn]:
    out: list[ChatTurn] = []
    for q in questions:
        out += [ChatTurn.of_message("user", q, None), ChatTurn.of_message("assistant", "…", [])]
    return out


def test_a_chain_of_follow_ups_is_read_back_to_the_question_that_named_its_subject() -> None:
    """Session 42 try-out: "When is it due?" after "Is it refundable?" after "What is the initial franchise fee?"
    was judged with "Is it refundable?" alone, and the termination-for-non-payment clause was quoted."""
    chain = _chat("What is the initial franchise fee?", "Is it refundable?")
    assert chained_turns(chain) == 2
    assert build_retrieval_query(chain, "When is it due?", chained_turns(chain)).startswith(
        "What is the initial"
    )
    assert chained_turns(_chat("What is the rent?", "What is the deposit?")) == 1  # a question of its own
    long_chain = _chat("What is the fee?", "Is it refundable?", "And when?", "Is it taxed?")
    assert chained_turns(long_chain) == FOLLOW_UP_CHAIN_MAX
