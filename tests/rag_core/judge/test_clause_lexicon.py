"""The clause classifier's word side: features identical to scikit-learn's, and the words telling apart
clauses the sentence vector confuses."""

from __future__ import annotations

import numpy as np
import pytest

from rag_core.judge import dense
from rag_core.judge.clause_lexicon import LexicalClause, fit_lexical, fit_vocabulary
from rag_core.judge.fitted import load_weights

TEXTS = [
    "The Supplier shall maintain commercial general liability insurance of not less than USD 1,000,000.",
    "Neither party shall solicit or hire any employee of the other party during the term.",
    "This Agreement shall be governed by the laws of the State of New York.",
    "The Supplier shall maintain insurance and name the Customer as additional insured.",
    "Neither party shall solicit any employee of the other party for twelve months.",
    "This Agreement is governed by the laws of England and Wales.",
]
LABELS = [{"Insurance"}, {"No-Solicit Of Employees"}, {"Governing Law"}] * 2
CATEGORIES = ("Insurance", "No-Solicit Of Employees", "Governing Law", "Audit Rights")


def test_the_features_are_scikit_learns_tf_idf_on_the_same_vocabulary() -> None:
    """What the judge reads at run time (numpy) is what the logistics were fitted on."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    vocab, idf = fit_vocabulary(TEXTS, size=50, min_df=1)
    side = LexicalClause(vocab, idf, np.zeros((1, len(vocab))), np.zeros(1), 0.5)
    ref = TfidfVectorizer(vocabulary=list(vocab), sublinear_tf=True).fit(TEXTS)
    assert np.allclose(ref.idf_, idf)
    probe = [*TEXTS, "Insurance, insurance and more insurance.", "无英文词"]
    assert np.allclose(ref.transform(probe).toarray(), side.matrix(probe))


def test_the_vocabulary_keeps_the_most_frequent_words_used_in_enough_texts() -> None:
    vocab, _ = fit_vocabulary(TEXTS, size=3, min_df=2)
    assert set(vocab) == {"the", "shall", "of"}
    assert "insured" not in fit_vocabulary(TEXTS, size=100, min_df=2)[0]


def test_a_fitted_word_side_names_the_category_and_never_one_no_text_holds() -> None:
    side = fit_lexical(TEXTS, LABELS, CATEGORIES, size=100, min_df=1, c=4.0, share=0.5, absent_logit=-10.0)
    z = side.logits(["The Vendor shall maintain insurance coverage.", "Governed by the laws of Texas."])
    assert z[0].argmax() == 0 and z[1].argmax() == 2
    assert (z[:, 3] < -5).all()  # no example of Audit Rights: never predicted


@pytest.mark.parametrize(
    ("category", "clause", "bystander"),
    [
        (
            "No-Solicit Of Employees",
            "During the term and for one year after, neither party shall, directly or indirectly, solicit "
            "for employment or hire any person employed by the other party.",
            "The Distributor shall actively solicit orders for the Products from retail customers in the "
            "Territory and shall not represent the Company in any other manner.",
        ),
        (
            "Insurance",
            "Contractor shall, at its own expense, maintain commercial general liability insurance with limits "
            "of not less than two million dollars per occurrence and shall furnish certificates of insurance.",
            "Consultant's personnel shall not participate in the Company's group life insurance, pension or "
            "medical plans, which are reserved for the Company's own employees.",
        ),
    ],
)
def test_the_committed_classifier_tells_the_clause_from_a_bystander_using_its_words(
    category: str, clause: str, bystander: str
) -> None:
    """Written for this test: a bystander that uses the clause type's key word in another sense. The
    sentence vector alone puts it near the clause (0.91 and 0.94); the word side lowers it well below,
    and the clause stays certain."""
    from dataclasses import replace

    w = load_weights()
    assert w.clause.words is not None
    vector_only = replace(w.clause, words=None)
    j = w.clause.categories.index(category)
    texts = [clause, bystander]
    vecs = dense.passage_vectors(texts)
    probs = w.clause.proba(vecs, texts)[:, j]
    before = vector_only.proba(vecs, texts)[:, j]
    assert probs[0] > 0.9 and probs[1] < before[1] - 0.1, (probs, before)
