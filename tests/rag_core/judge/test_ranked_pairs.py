"""Retrieval-ranked training candidates: the ranking shared with ``bench refusal`` and their labels."""

from __future__ import annotations

import numpy as np
import pytest

from rag_core.judge import dense
from rag_core.judge.clause_types import BY_NAME
from rag_core.judge.relevance import coverage_scores, lexical_features
from rag_core.judge.train_sets import (
    clause_examples,
    holds,
    is_check,
    load_contracts,
    question_for,
    rank_contracts,
    rank_windows,
    ranked_contracts,
    ranked_pairs,
    window_sentences,
)
from rag_core.settings import JudgeTrainSettings
from tests.fixtures.data import TRAIN

needs_train = pytest.mark.skipif(not (TRAIN / "cuad").is_dir(), reason="training data not present")

TEXTS = [
    "This Agreement shall be governed by the laws of the State of New York.",
    "The Supplier shall maintain general liability insurance of at least $1,000,000.",
    "Neither party may assign this Agreement without the prior written consent of the other party.",
    "本合同适用中华人民共和国法律。",
]


@pytest.mark.parametrize(
    "question",
    ["Which law governs this agreement?", "Can this agreement be assigned?", "本合同适用哪里的法律？"],
)
def test_coverage_scores_are_the_lexical_features_coverage(question: str) -> None:
    want = [f.coverage for f in lexical_features(question, TEXTS)]
    assert coverage_scores(question, TEXTS) == pytest.approx(want)
    assert coverage_scores("", TEXTS) == [0.0] * len(TEXTS)


def test_rank_windows_fuses_the_vector_and_the_word_ranking() -> None:
    question = "Which law governs this agreement?"
    qvec = np.asarray([1.0, 0.0])
    # by vector: 1, 0, 2, 3; by words: 0 covers "law", "govern" and "agreement", then 2 ("agreement")
    vecs = np.asarray([[0.9, 0.1], [1.0, 0.0], [0.2, 0.8], [0.1, 0.9]])
    order = rank_windows(question, qvec, TEXTS, vecs, 4)
    assert order[0] == 0 and sorted(order) == [0, 1, 2, 3]  # best by words, second by vector
    assert rank_windows(question, qvec, TEXTS, vecs, 2) == order[:2]
    assert rank_windows(question, qvec, [], np.zeros((0, 2)), 3) == []


@needs_train
def test_ranked_pairs_label_the_top_windows_by_the_gold_spans() -> None:
    ts = JudgeTrainSettings(ranked_contracts=1, ranked_candidates=5)
    fit = [c for c in load_contracts(TRAIN, ts) if not is_check(c.name, ts)]
    c = next(
        c for c in ranked_contracts(fit, len(fit)) if any(c.spans.values()) and not all(c.spans.values())
    )
    present = next(k for k in BY_NAME if c.spans.get(k))
    absent = next(k for k in BY_NAME if k in c.spans and not c.spans[k])
    ranked = rank_contracts([c], ts, 0, dense.embed, categories=(present, absent))
    assert [(r.contract.name, r.category) for r in ranked] == [(c.name, present), (c.name, absent)]
    pairs = ranked_pairs(ranked, ts)
    assert pairs and all(p.ranked and p.group == f"cuad:{c.name}" and not p.sentence for p in pairs)
    by_q = {question_for(k, c.name, 0): k for k in (present, absent)}
    assert {p.question for p in pairs} <= set(by_q)
    windows = {c.text[s:e]: (s, e) for s, e in c.windows}
    for p in pairs:
        spans = c.spans[by_q[p.question]]
        win = windows[p.text]
        assert p.label == any(holds(win, sp, ts) for sp in spans)
        if not p.label:  # a negative touches no gold span at all
            assert not any(min(win[1], e) > max(win[0], b) for b, e in spans)
    for q in by_q:
        assert sum(p.question == q for p in pairs) <= ts.ranked_candidates
    assert not any(p.label for p in pairs if by_q[p.question] == absent)
    texts = [c.text[s:e] for s, e in c.windows]
    qv = dense.embed([question_for(present, c.name, 0)])[0]
    top = rank_windows(question_for(present, c.name, 0), qv, texts, dense.passage_vectors(texts), 5)
    assert [p.text for p in pairs if by_q[p.question] == present] == [
        texts[i] for i in top if texts[i] in {p.text for p in pairs}
    ]
    examples = clause_examples([c], ranked)
    assert {t for t, _, _ in examples} == {c.text[s:e] for s, e in c.windows} & (
        {c.text[c.windows[i][0] : c.windows[i][1]] for r in ranked for i in r.top}
        | {c.text[c.windows[i][0] : c.windows[i][1]] for i in c.pool}
    )
    assert len(examples) > len(clause_examples([c]))
    for text, labels, name in examples:
        s, e = windows[text]
        assert name == c.name and labels == {
            k for k, sp in c.spans.items() if any(holds((s, e), x, ts) for x in sp)
        }


@needs_train
def test_clause_examples_add_the_pool_windows_sentences_with_the_categories_they_hold() -> None:
    ts = JudgeTrainSettings(clause_sentences=3)  # off by default: measured worse on the fit-part CV
    c = next(c for c in load_contracts(TRAIN, ts)[:40] if any("Governing Law" in c.labels[i] for i in c.pool))
    sents = window_sentences(c, c.pool, ts)
    assert sents and len({t for t, _ in sents}) == len(sents)
    for text, labels in sents:
        at = c.text.find(text)
        assert at >= 0 and len(text) < ts.window_chars
        if labels:  # a labelled sentence overlaps a gold span of each of its categories
            assert all(any(min(at + len(text), e) > max(at, b) for b, e in c.spans[k]) for k in labels)
    assert any("Governing Law" in labels for _, labels in sents)
    assert any(not labels for _, labels in sents)
    with_sents = clause_examples([c], None, ts)
    assert len(with_sents) == len(clause_examples([c])) + len(sents)
    few = window_sentences(c, c.pool, JudgeTrainSettings(clause_sentences=0))
    assert few == [(t, lab) for t, lab in sents if lab]  # only the sentences holding a span
