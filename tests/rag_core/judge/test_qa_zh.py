"""The written Chinese (question, clause) pairs and how the evidence model reads them."""

from __future__ import annotations

import re

import numpy as np

from rag_core.judge import dense
from rag_core.judge.clauses_zh import ZH_CLAUSES
from rag_core.judge.features import SCALAR_FEATURES, evidence_matrix, evidence_names
from rag_core.judge.qa_zh import ZH_QA
from rag_core.judge.train_sets import ZH_QA_GROUP, zh_qa_pairs
from rag_core.settings import JudgeTrainSettings
from tests.rag_core.judge.zh_fixtures import CONTRACTS, QUESTIONS, WITHOUT_FACT


def _sentences(text: str) -> set[str]:
    return {s.strip() for s in re.split(r"[。；;！？]", text) if len(s.strip()) >= 8}


def test_the_written_pairs_share_no_sentence_or_question_with_the_test_fixtures() -> None:
    """The fixtures stay a check the fit never reads (and so do the classifier's written clauses)."""
    written = {s for item in ZH_QA for s in _sentences(item.clause)}
    fixtures = {s for clauses in CONTRACTS.values() for _, text in clauses for s in _sentences(text)}
    fixtures |= {s for *_, text in WITHOUT_FACT for s in _sentences(text)}
    assert not written & fixtures
    assert not written & {s for *_, text in ZH_CLAUSES for s in _sentences(text)}
    asked = {q for item in ZH_QA for q in (*item.answered, *item.unanswered)}
    assert not asked & {q for _, q, *_ in QUESTIONS} and not asked & {q for _, q, _ in WITHOUT_FACT}


def test_every_item_asks_what_it_answers_and_what_it_leaves_open() -> None:
    kinds = {item.kind for item in ZH_QA}
    assert len(ZH_QA) >= 200 and len(kinds) >= 16
    for item in ZH_QA:
        assert item.answered and item.unanswered and item.topic, item
        assert any(q.isascii() for q in item.answered), item  # one English question each


def test_each_question_meets_its_own_clause_and_other_topics_as_negatives() -> None:
    ts = JudgeTrainSettings()
    pairs = zh_qa_pairs(ts)
    assert [(p.question, p.text, p.label) for p in pairs] == [
        (p.question, p.text, p.label) for p in zh_qa_pairs(ts)
    ]  # deterministic
    topic = {item.clause: item.topic for item in ZH_QA}
    item = ZH_QA[0]
    first = [p for p in pairs if p.question == item.answered[0] and p.group == ZH_QA_GROUP + item.kind]
    own = [p for p in first if p.text == item.clause]
    assert len(own) == 1 and own[0].label and own[0].is_relevant
    others = [p for p in first if p.text in topic and p.text != item.clause]
    assert 0 < len(others) <= ts.zh_qa_negatives
    assert all(not p.label and not p.is_relevant and topic[p.text] != item.topic for p in others)
    # a chunk holds several articles: the clause among others of its kind, and those others alone
    windows = [p for p in first if p.text not in topic]
    assert len(windows) == 2
    with_own = [p for p in windows if item.clause in p.text]
    assert len(with_own) == 1 and with_own[0].label and len(with_own[0].text.split("\n")) > 1
    assert all(not p.label for p in windows if p is not with_own[0])
    open_q = [p for p in pairs if p.question == item.unanswered[0] and p.text == item.clause]
    assert open_q and not open_q[0].label and open_q[0].is_relevant  # on topic, lacks the detail


def test_the_interaction_reaches_the_evidence_model_only_for_chinese_passages_holding_the_asked_kind() -> (
    None
):
    n = len(SCALAR_FEATURES)
    rows = np.ones((3, n + dense.DIM))
    rows[:, SCALAR_FEATURES.index("kind_missing")] = 0.0
    rows[:, SCALAR_FEATURES.index("value_missing_in_clause")] = 0.0
    rows[2, SCALAR_FEATURES.index("value_missing_in_clause")] = 1.0  # the asked period is missing
    texts = [
        "第五条 维修责任 甲方负责维修。",
        "5. Repairs. The Landlord shall repair.",
        "第九条 竞业限制 乙方离职后不得任职。",
    ]
    x = evidence_matrix(rows, texts)
    assert x.shape[1] == len(evidence_names())
    interaction = x[:, -dense.DIM :]
    assert interaction[0].all() and not interaction[1].any() and not interaction[2].any()
