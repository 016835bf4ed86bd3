"""A value a wh-question takes for granted, stated by one passage of a document, is not contradicted by
that document's other values."""

from __future__ import annotations

from rag_core.judge.base import PassageInput
from rag_core.judge.local_judge import LocalJudge
from rag_core.judge.premise_held import apply_premise_held
from rag_core.settings import Settings

FIRST = "2.2 甲方应于本合同签订后十个工作日内支付合同总价款的30%作为首付款。"
FINAL = "2.4 剩余10%作为质保金，于质保期届满后十个工作日内支付。"
OTHER_DOC = "4.3 剩余20%的工程价款作为结算款，于竣工验收合格后二十八日内支付。"
"""Another document's remaining sum, about the question (a passage not about it holds no conflict since session 39:
the progress-payment clause this test used before scored relevance below ``t_relevance``)."""


def _settled(question: str, doc_of: dict[str, str]) -> dict[str, str]:
    s = Settings().verdict
    texts = {"first": FIRST, "final": FINAL, "other": OTHER_DOC}
    raw = LocalJudge(s).judge(question, [PassageInput(k, t) for k, t in texts.items()])
    assert any(v.label == "CONFLICTING" for v in raw), [(v.passage_id, v.label) for v in raw]
    return {v.passage_id: v.label for v in apply_premise_held(question, raw, texts, s, doc_of)}


def test_a_granted_value_is_not_contradicted_by_its_documents_other_values() -> None:
    """Try-out (session 32): "When is the final 10% paid?" labelled the 30% instalment CONFLICTING beside
    "2.4 剩余10%…支付", and the answer opened "No — the documents contradict the premise"."""
    labels = _settled("剩余10%什么时候支付？", {"first": "dev", "final": "dev", "other": "build"})
    assert labels["first"] != "CONFLICTING" and labels["final"] != "CONFLICTING"
    # another document, whose passages grant nothing, keeps its conflict
    assert labels["other"] == "CONFLICTING"


def test_a_yes_no_question_asserts_its_value() -> None:
    labels = _settled("首付款是合同总价款的10%吗？", {"first": "dev", "final": "dev", "other": "build"})
    assert labels["first"] == "CONFLICTING"


def test_the_chat_settles_labels_with_it() -> None:
    from rag_core.models import Hit
    from rag_core.steps.judging import settle_labels

    s = Settings().verdict
    hits = [
        Hit("dev.txt", "dev", cid, 0, len(t), None, "", 0.5, t, explain={})
        for cid, t in (("first", FIRST), ("final", FINAL))
    ]
    raw = LocalJudge(s).judge("剩余10%什么时候支付？", [PassageInput(h.chunk_id, h.text) for h in hits])
    settled = settle_labels("剩余10%什么时候支付？", raw, hits, None, s)
    assert [v.label for v in raw].count("CONFLICTING") == 1
    assert "CONFLICTING" not in [v.label for v in settled]


def test_a_statement_with_a_question_tag_asserts_its_value() -> None:
    """Session 35: "The lock-up period is 24 months, right?" was read as a wh-question, and the conflict of the
    lock-up clause (thirty-six months) was dropped because the same agreement's non-compete states 24 months."""
    from rag_core.judge.forum_premise import yes_no_question

    for q in (
        "The lock-up period is 24 months, right?",
        "The fee is USD 5,000, correct?",
        "首付款是10%，对不对？",
    ):
        assert yes_no_question(q), q
    assert not yes_no_question("How long is the lock-up period?")
    labels = _settled("首付款是合同总价款的10%，对不对？", {"first": "dev", "final": "dev", "other": "build"})
    assert labels["first"] == "CONFLICTING"
