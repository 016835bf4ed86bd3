"""A premise about how often a sum is paid, against a passage that states another payment period."""

from __future__ import annotations

from rag_core.judge.conflict import conflict_score, premise_slots
from rag_core.judge.frequency_premise import FREQUENCY_STRENGTH, payment_periods
from rag_core.settings import Settings

RENT = "第三条 租金\n月租金为人民币6800元。租金按季度支付，乙方应于每季度第一个月的5日前向甲方支付当季租金人民币20400元。"
PENALTY = "第七条 违约责任\n甲方未按约定交付房屋的，应按月租金的百分之二十向乙方支付违约金。"
WAGE = "第四条 劳动报酬\n甲方每月支付乙方工资人民币一万五千元，于次月十日前以银行转账方式发放。"
NON_COMPETE = "第七条 竞业限制\n甲方在竞业限制期限内按月向乙方支付经济补偿，标准为乙方离职前十二个月平均工资的百分之三十。"


def score(question: str, passage: str) -> float:
    return conflict_score(premise_slots(question), passage)[0]


def test_a_period_is_read_only_when_bound_to_a_paying_verb() -> None:
    assert payment_periods("租金按季度支付") == {"quarter"}
    assert payment_periods("乙方应于每月5日前支付租金") == {"month"}
    assert payment_periods("The rent is payable quarterly in advance.") == {"quarter"}
    assert payment_periods("利息按季结算") == {"quarter"}
    # rates are amounts per period, not how often they are paid
    assert payment_periods("月租金为人民币6800元") == frozenset()
    assert payment_periods("a monthly rent of USD 2,000") == frozenset()
    assert payment_periods("应按月租金的百分之二十支付违约金") == frozenset()


def test_another_payment_period_for_the_asked_sum_contradicts_the_premise() -> None:
    t = Settings().verdict.t_conflict
    assert score("租金按月支付吗？", RENT) == FREQUENCY_STRENGTH > t
    assert score("Is the rent paid monthly?", RENT) > t
    assert score("工资按季度发放吗？", WAGE) > t
    # the same period, a question that asserts none, and a period of another sum: no contradiction
    assert score("租金按季度支付吗？", RENT) < t
    assert score("租金按月还是按季支付？", RENT) < t
    assert score("租金什么时候支付？", RENT) < t
    assert score("租金按季度支付吗？", PENALTY) < t  # "按月租金" is a rate on the rent
    assert score("工资按季度发放吗？", NON_COMPETE) < t  # a compensation measured by the wage


def test_the_note_says_which_periods_differ() -> None:
    _, why = conflict_score(premise_slots("租金按月支付吗？"), RENT)
    assert getattr(why, "code", "") == "con_payment_period"
    assert "monthly" in why and "quarterly" in why and "租金按季度支付" in why


def test_an_instalment_length_states_the_payment_period() -> None:
    """Session 45 try-out: "租金是按月支付的吗？" over a finance lease "分12期支付，每三个月为一期" was not corrected."""
    lease = "3.1 租金总额为人民币3,960,000元，分12期支付，每三个月为一期，每期租金为人民币330,000元。"
    score, why = conflict_score(premise_slots("租金是按月支付的吗？"), lease)
    assert score >= Settings().verdict.t_conflict and "3.1 租金总额" in str(why), why
    assert conflict_score(premise_slots("租金是按季度支付的吗？"), lease)[0] < Settings().verdict.t_conflict
