"""Relevance orders on-topic passages above off-topic ones; evidence needs the kind of value asked for."""

from __future__ import annotations

from rag_core.judge.base import PassageInput
from rag_core.judge.relevance import asked_kinds, score_passages


def test_relevance_ordering_en() -> None:
    q = "How many days' notice is required to terminate the agreement?"
    ps = [
        PassageInput(
            "a", "Either party may terminate this Agreement upon thirty (30) days' prior written notice."
        ),
        PassageInput("b", "The Supplier shall deliver the Products to the Customer's warehouse."),
        PassageInput("c", "This Agreement is governed by the laws of Delaware."),
    ]
    res = score_passages(q, ps)
    assert res[0].relevance > res[2].relevance and res[0].relevance > res[1].relevance
    assert res[0].evidence > res[1].evidence
    assert "query terms" in res[0].explanation and "has" in res[0].explanation


def test_relevance_ordering_zh() -> None:
    q = "违约金是多少？"
    ps = [
        PassageInput("a", "乙方逾期交货的，每逾期一日应向甲方支付违约金人民币一千元。"),
        PassageInput("b", "本合同一式两份，双方各执一份，具有同等法律效力。"),
    ]
    res = score_passages(q, ps)
    assert res[0].relevance > res[1].relevance
    assert res[0].relevance >= 0.3 > res[1].relevance


def test_vector_similarity_raises_relevance() -> None:
    q = "Can the licence be transferred?"
    text = "Neither party may assign its rights without consent."
    plain = score_passages(q, [PassageInput("a", text)])[0].relevance
    with_vec = score_passages(q, [PassageInput("a", text, vector_similarity=0.88)])[0].relevance
    assert with_vec > plain


def test_evidence_needs_the_asked_kind() -> None:
    q = "When does the agreement expire?"
    dated = score_passages(q, [PassageInput("a", "The agreement expires on March 1, 2027.")])[0]
    undated = score_passages(q, [PassageInput("a", "The agreement expires as set out in Schedule 2.")])[0]
    assert dated.evidence > undated.evidence
    assert "has a date" in dated.explanation and "lacks a date" in undated.explanation
    assert asked_kinds("合同期限是多久？") == ["period"]
