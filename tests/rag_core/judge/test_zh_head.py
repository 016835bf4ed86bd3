"""The Chinese-passage head (``judge.zh_head``): its features, where it applies, what it changes."""

from __future__ import annotations

import numpy as np
import pytest

from rag_core.judge.fitted import load_weights, score, shared_scores, with_zh_head
from rag_core.judge.zh_head import applies, char_overlap, content_chars, headings

LEASE = [
    "第三条 租金\n乙方每月向甲方支付租金人民币7200元，于每月10日前支付。",
    "第五条 维修\n租赁期间房屋及设施的自然损坏由甲方负责修缮，甲方应在接到乙方通知后五日内完成。",
    "第六条 违约责任\n乙方逾期支付租金超过十日的，应按月租金的百分之十支付违约金。",
    "第九条 争议解决\n因履行本合同发生的争议，双方协商不成的，应向房屋所在地人民法院提起诉讼。",
    "第十条 其他\n本合同一式两份，自双方签字之日起生效。",
]


def test_content_characters_leave_out_question_words_and_particles() -> None:
    assert content_chars("押金是多少？") == frozenset("押金")
    # 修 of the client's 修房子 is found in the contract's 修缮 though no word is shared
    assert char_overlap("房东不修房子怎么办？", LEASE[1]) > char_overlap("房东不修房子怎么办？", LEASE[3])
    assert char_overlap("是什么？", LEASE[0]) == 0.0


def test_headings_are_read_on_their_own_line_and_before_the_text() -> None:
    assert headings(LEASE[3]) == ("争议解决",)
    assert headings("第三条 租金。乙方每月支付租金。\n第四条：押金 乙方应支付押金。") == ("租金", "押金")
    assert headings("Section 3. Rent. The tenant pays rent.") == ()


def test_the_head_applies_to_a_chinese_question_on_a_chinese_passage_only() -> None:
    english = "The Licensee shall pay the annual fee of USD 84,000 within thirty days."
    assert applies("租金是多少？", LEASE[0])
    assert not applies("租金是多少？", english)
    assert not applies("What is the rent?", LEASE[0])


def test_other_pairs_keep_the_shared_scores_and_chinese_ones_are_rescored() -> None:
    """An English question meets a Chinese clause through the glossary only; with the head it had taken
    an employment contract's confidentiality clause for the software warranty's evidence (0.77)."""
    w = load_weights()
    assert w.zh_head is not None
    texts = [LEASE[3], "Any dispute shall be submitted to the courts of New York."]
    s = shared_scores("发生争议去哪里起诉？", texts, w)
    rel, evi = with_zh_head(s, w)
    assert rel[1] == s.relevance[1] and evi[1] == s.evidence[1]
    assert (rel[0], evi[0]) != (s.relevance[0], s.evidence[0])
    secrecy = ["乙方在职期间及离职后两年内，应对甲方的商业秘密和技术信息承担保密义务。"]
    s = shared_scores("What is the warranty period for the software?", secrecy, w)
    rel, evi = with_zh_head(s, w)
    assert np.array_equal(rel, s.relevance) and np.array_equal(evi, s.evidence)


def test_a_party_question_keeps_the_party_models_scores() -> None:
    w = load_weights()
    texts = ["出租方（甲方）：北京远景置业有限公司\n承租方（乙方）：王强", LEASE[0]]
    s = shared_scores("房东是谁？", texts, w)
    rel, evi = with_zh_head(s, w)
    assert np.array_equal(rel, s.relevance) and np.array_equal(evi, s.evidence)


@pytest.mark.parametrize(
    ("question", "answer_at", "unrelated"),
    [
        ("合同发生纠纷去哪里起诉？", 3, (0, 1, 4)),  # 纠纷/起诉 of the question, 争议/诉讼 of the clause
        ("房租每个月交多少？", 0, (1, 3, 4)),
    ],
)
def test_a_clients_chinese_question_finds_its_clause_as_evidence(
    question: str, answer_at: int, unrelated: tuple[int, ...]
) -> None:
    scores = score(question, LEASE)
    evidence = [s.evidence for s in scores]
    assert int(np.argmax(evidence)) == answer_at, evidence
    assert evidence[answer_at] >= 0.55 and scores[answer_at].relevance >= 0.2, evidence
    assert all(evidence[i] < 0.55 for i in unrelated), evidence


def test_a_question_about_a_clause_the_contract_lacks_finds_no_evidence() -> None:
    assert all(s.evidence < 0.55 for s in score("押金是多少？", LEASE))


def test_the_recorded_kind_cross_validation_shows_the_head_ahead_of_the_shared_models() -> None:
    """``train judge`` measures both on the written pairs with each contract kind held out."""
    cv = load_weights().figures["zh_head_cv"]
    head, shared = cv["head"], cv["shared"]
    assert head["pairs"] == shared["pairs"] > 10_000
    assert head["top1"] > shared["top1"]
    assert head["other_evidence"] < shared["other_evidence"]
    assert head["unanswered_evidence"] < shared["unanswered_evidence"]
