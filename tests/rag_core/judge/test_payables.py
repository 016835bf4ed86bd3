"""Named sums: a Chinese passage that states another sum than the one asked is not its evidence."""

from __future__ import annotations

from rag_core.judge.base import PassageInput
from rag_core.judge.local_judge import LocalJudge
from rag_core.judge.payables import named_payables, other_sum
from rag_core.judge.qa_zh_more import WRITTEN_ZH_QA
from rag_core.settings import Settings

RENT = "第三条 租金及支付方式\n月租金为人民币6800元。租金按季度支付，乙方应于每季度第一个月的5日前支付。"
WAGE = "第四条 劳动报酬\n甲方每月支付乙方工资人民币一万五千元，于次月十日前以银行转账方式发放。"
DEPOSIT = "第四条 押金\n乙方应于签约之日支付押金人民币13600元（相当于两个月租金）。"


def names(text: str) -> list[str]:
    return [p.name for p in named_payables(text)]


def test_sums_are_named_in_the_order_the_text_names_them() -> None:
    assert names(DEPOSIT) == ["deposit", "rent"]
    assert names("乙方每月工资多少？") == ["wage"]
    assert names("逾期交租的违约金怎么算？") == ["rent", "penalty"]
    assert names("What is the monthly salary?") == ["wage"]
    assert names("乙方不得将房屋转租给第三人。") == []  # 转租 is subletting, not the rent


def test_a_passage_naming_another_sum_and_not_the_one_asked_is_flagged() -> None:
    asked = named_payables("乙方每月工资多少？")
    flagged = other_sum(asked, RENT)
    assert flagged is not None and (flagged[0].name, flagged[1].name) == ("wage", "rent")
    assert other_sum(asked, WAGE) is None
    # a clause that names no sum is left to the judge (a settlement clause that says only 付款)
    assert (
        other_sum(named_payables("货款多久结一次？"), "双方按月对账，甲方在收到发票后三十日内付款。") is None
    )
    # English passages: contracts there name sums by defined terms ("the Fee"), so the rule stays off
    assert other_sum(asked, "The monthly rent is USD 2,000.") is None
    # every sum asked must be named: a penalty on the transfer price is not the penalty on late rent
    late_rent = named_payables("逾期交租的违约金怎么算？")
    assert (
        other_sum(late_rent, "乙方逾期支付转让价款的，每逾期一日应按未付金额的万分之五支付违约金。")
        is not None
    )
    assert other_sum(late_rent, "乙方逾期支付租金的，每逾期一日应按当季租金的千分之五支付违约金。") is None


def test_no_answering_clause_of_the_written_pairs_is_capped() -> None:
    """The rule's cost on training data: every written clause keeps its own answered questions."""
    capped = [
        (q, e.clause[:40])
        for e in WRITTEN_ZH_QA
        for q in e.answered
        if other_sum(named_payables(q), e.clause)
    ]
    asked = sum(bool(named_payables(q)) for e in WRITTEN_ZH_QA for q in e.answered)
    assert asked >= 100 and capped == []


def test_the_local_judge_caps_the_rent_clause_for_a_wage_question() -> None:
    judge = LocalJudge(Settings().verdict)
    rent, wage = judge.judge("乙方每月工资多少？", [PassageInput("1", RENT), PassageInput("2", WAGE)])
    assert rent.label != "EVIDENCE" and "other_sum_named" in rent.explanation_code
    assert rent.scores["contains_answer_evidence"] <= Settings().verdict.topic_evidence_cap
    assert "租金" in rent.explanation_params.get("named_zh", "")
    assert wage.label == "EVIDENCE", wage.explanation
