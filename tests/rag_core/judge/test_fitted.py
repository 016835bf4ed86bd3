"""The fitted judge: committed weights up to date, deterministic refit, each feature, Chinese clauses."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from rag_core.judge import dense
from rag_core.judge.base import PassageInput
from rag_core.judge.clause_gate import absent_clause_type, asked_clause_type
from rag_core.judge.clause_types import BY_NAME, CATEGORY_NAMES, thesaurus_types
from rag_core.judge.evidence_model import score_sentences
from rag_core.judge.features import SCALAR_FEATURES, PassageView, QuestionView, scalar_row
from rag_core.judge.fitted import WEIGHTS_PATH, load_weights, passage_views, score
from rag_core.judge.local_judge import LocalJudge
from rag_core.judge.relevance import lexical_features
from rag_core.judge.train_sets import train_hash
from rag_core.judge.training import VectorCache, fit_all
from rag_core.settings import JudgeTrainSettings, VerdictSettings
from tests.fixtures.data import TRAIN
from tests.rag_core.judge.zh_fixtures import CONTRACTS, QUESTIONS

needs_train = pytest.mark.skipif(not (TRAIN / "cuad").is_dir(), reason="training data not present")
S = VerdictSettings()


# ---- the committed weights are what `train judge` produces


@needs_train
def test_committed_weights_match_the_training_inputs_settings_and_code() -> None:
    data = json.loads(WEIGHTS_PATH.read_text(encoding="utf-8"))
    assert data["train_hash"] == train_hash(TRAIN, JudgeTrainSettings()), (
        "stale judge weights: run python -m rag_core train judge"
    )
    assert data["settings"] == json.loads(JudgeTrainSettings().model_dump_json())


@needs_train
def test_a_small_refit_is_deterministic(tmp_path: Path) -> None:
    cache = VectorCache(tmp_path)
    runs = [fit_all(TRAIN, JudgeTrainSettings(), lambda _m: None, cache, sample=(6, 300)) for _ in range(2)]
    for run in runs:
        run["figures"].pop("seconds")
    assert json.dumps(runs[0], sort_keys=True) == json.dumps(runs[1], sort_keys=True)
    assert len(runs[0]["evidence"]["coef"]) == len(SCALAR_FEATURES)


# ---- features


def _q(text: str, types: tuple[int, ...] = ()) -> QuestionView:
    k = len(CATEGORY_NAMES)
    return QuestionView(text, dense.embed([text])[0], types, np.full(k, 0.1))


def _p(text: str, probs: np.ndarray | None = None) -> PassageView:
    k = len(CATEGORY_NAMES)
    return PassageView(text, dense.passage_vectors([text])[0], np.zeros(k) if probs is None else probs)


def _row(q: QuestionView, p: PassageView) -> dict[str, float]:
    lex = lexical_features(q.text, [p.text])[0]
    return dict(zip(SCALAR_FEATURES, scalar_row(q, p, lex), strict=True))


def test_vector_similarity_prefers_the_clause_about_the_question() -> None:
    q = _q("Which law governs this agreement?")
    on = _row(q, _p("This Agreement shall be governed by the laws of the State of New York."))
    off = _row(q, _p("The Supplier shall deliver the goods to the Buyer's warehouse in Ohio."))
    assert on["cos"] > off["cos"]


def test_coverage_and_best_sentence_count_question_terms() -> None:
    q = _q("How long is the warranty period?")
    row = _row(q, _p("Payment is due in 30 days. The warranty period is twelve months from delivery."))
    assert row["coverage"] > 0.5 and row["best_sentence"] > 0.5
    assert _row(q, _p("Payment is due in 30 days."))["coverage"] == 0.0


def test_clause_type_features_follow_the_passage_probabilities() -> None:
    nc = CATEGORY_NAMES.index("Non-Compete")
    probs = np.zeros(len(CATEGORY_NAMES))
    probs[nc] = 0.9
    q = _q("Is there a non-compete?", (nc,))
    row = _row(q, _p("Employee shall not compete for two years.", probs))
    assert (row["type_known"], row["type_prob"]) == (1.0, 0.9)
    assert row["type_mismatch"] == pytest.approx(0.1)
    assert _row(q, _p("Rent is due monthly."))["type_mismatch"] == 1.0


def test_answer_type_cue_needs_the_asked_kind_of_value() -> None:
    q = _q("How long does the non-compete last?")
    has = _row(q, _p("The Employee shall not compete for a period of two (2) years after termination."))
    lacks = _row(q, _p("The Employee shall not compete with the Company."))
    assert has["kind_matched"] == 1.0 and has["kind_missing"] == 0.0
    assert lacks["kind_matched"] == 0.0 and lacks["kind_missing"] == 1.0


def test_thesaurus_names_clause_types_in_both_languages() -> None:
    assert thesaurus_types("Is there a non-compete obligation?") == ["Non-Compete"]
    assert thesaurus_types("竞业限制的期限是多久？") == ["Non-Compete"]
    assert thesaurus_types("本合同适用哪里的法律？") == ["Governing Law"]
    assert thesaurus_types("押金是多少？") == []


# ---- the fitted scores


def test_relevance_and_evidence_are_different_scores() -> None:
    q = "How long does the non-compete restriction last?"
    answer = (
        "The Consultant shall not compete with the Company for a period of two (2) years after termination."
    )
    topic = "The Consultant shall not compete with the Company or solicit its customers."
    other = "This Agreement shall be governed by the laws of Delaware."
    rel = [s.relevance for s in score(q, [answer, topic, other])]
    evi = [s.evidence for s in score(q, [answer, topic, other])]
    assert rel[1] > rel[2] and evi[0] > evi[1] > evi[2]
    assert rel != evi


def test_scores_are_probabilities_and_the_judge_labels_with_them() -> None:
    q = "Which law governs this agreement?"
    texts = ["This Agreement shall be governed by the laws of the State of New York.", "Rent is due monthly."]
    verdicts = LocalJudge(S).judge(q, [PassageInput(str(i), t) for i, t in enumerate(texts)])
    for v in verdicts:
        assert all(0.0 <= x <= 1.0 for x in v.scores.values())
        assert v.explanation_code and "fit_scores" in v.explanation_code
    assert verdicts[0].scores["contains_answer_evidence"] > verdicts[1].scores["contains_answer_evidence"]
    assert verdicts[1].label != "EVIDENCE"


def test_score_sentences_ranks_the_answering_sentence_first() -> None:
    q = "What is the warranty period?"
    sentences = [
        "The Seller warrants the goods for twelve (12) months from delivery.",
        "The goods shall be delivered to the Buyer's warehouse.",
        "This Agreement is governed by the laws of Texas.",
    ]
    scores = score_sentences(q, sentences)
    assert len(scores) == 3 and all(0.0 <= x <= 1.0 for x in scores)
    assert scores[0] == max(scores)
    assert score_sentences(q, []) == []


# ---- Chinese clauses of known type (fixtures written for the tests)


@pytest.mark.parametrize(("contract", "question", "asked", "present"), QUESTIONS)
def test_chinese_clause_of_the_asked_type_scores_high_and_others_low(
    contract: str, question: str, asked: str, present: bool
) -> None:
    clauses = CONTRACTS[contract]
    texts = [t for _, t in clauses]
    w = load_weights()
    k = w.clause.categories.index(asked)
    probs = [float(p.clause_probs[k]) for p in passage_views(texts, w)]
    assert asked_clause_type(question) == BY_NAME[asked]
    gate = absent_clause_type(question, texts, S)
    if present:
        gold = [i for i, (t, _) in enumerate(clauses) if t == asked]
        assert gate is None, probs
        assert max(probs[i] for i in gold) >= S.t_clause_type, probs
        assert max(probs[i] for i in gold) == max(probs), probs
        evi = [s.evidence for s in score(question, texts)]
        assert evi.index(max(evi)) in gold, evi
    else:
        assert gate == BY_NAME[asked], probs
        assert max(probs) < S.t_clause_type, probs
