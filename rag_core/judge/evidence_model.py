"""Sentence-level evidence: how likely each sentence holds the answer to a question (0-1).

Why a function of its own: the quoted answer (issue 12) picks the sentences to quote, and the
support check (IS_SUPPORTED) asks whether an answer sentence is backed; both need the *same*
fitted evidence model the judge uses for passages, applied to single sentences. The model was fitted
on CUAD windows and on single sentences of gold windows (``train_sets.evidence_pairs``), so
sentence inputs are within what it has seen.
"""

from __future__ import annotations

from rag_core.judge.fitted import score


def score_sentences(question: str, sentences: list[str], relevance_weight: float = 0.0) -> list[float]:
    """Evidence probability of each sentence for ``question``, in input order (empty in, empty out),
    with ``relevance_weight`` > 0 the weighted geometric mean of evidence and relevance.

    Why relevance too: for a question of no clause type the evidence model scores any sentence that
    states some obligation with one of the question's words high; for "逾期付租金怎么办？" the rent-payment
    sentence (0.83, relevance 0.34) and a share agreement's payment sentence (0.81, relevance 0.39)
    tied with "乙方逾期支付租金的，每逾期一日，应按当季租金的千分之五向甲方支付违约金" (0.83, relevance 0.75)."""
    if not sentences:
        return []
    w = relevance_weight
    return [s.evidence ** (1 - w) * s.relevance**w for s in score(question, sentences)]
