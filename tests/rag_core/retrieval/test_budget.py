"""Small-to-big: a parent passage is labelled by the clauses that were retrieved inside it."""

from __future__ import annotations

from rag_core.models import Hit
from rag_core.retrieval.budget import Passage, children_clause


def _hit(clause: str, start: int, end: int) -> Hit:
    return Hit("c.txt", "d", f"c{start}", start, end, None, clause, 1.0, "x" * (end - start))


def test_a_parent_spanning_several_clauses_takes_its_childrens_clauses_in_reading_order() -> None:
    parent = _hit("第一条 服务内容 – 第八条 争议解决", 0, 600)
    fee, term = _hit("第三条 服务费用及支付", 200, 300), _hit("第二条 服务期限", 100, 200)
    assert children_clause(Passage(parent, [fee, term])) == "第二条 服务期限; 第三条 服务费用及支付"
    assert children_clause(Passage(parent, [fee, fee])) == "第三条 服务费用及支付"


def test_a_parent_of_one_clause_keeps_its_own_label() -> None:
    parent = _hit("8. Other Agreements", 0, 900)
    child = _hit("8. Other Agreements > 8.1 The Consultant", 100, 400)
    assert children_clause(Passage(parent, [child])) == "8. Other Agreements"
