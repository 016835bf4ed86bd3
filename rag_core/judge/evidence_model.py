"""Sentence-level evidence: how likely each sentence holds the answer to a question (0-1).

Why a function of its own: the quoted answer (issue 12) picks the sentences to quote, and the
support check (IS_SUPPORTED) asks whether an answer sentence is backed; both need the *same*
fitted evidence model the judge uses for passages, applied to single sentences. The model was fitted
on CUAD windows and on single sentences of gold windows (``train_sets.evidence_pairs``), so
sentence inputs are within what it has seen.
"""

from __future__ import annotations

from rag_core.judge.fitted import score


def score_sentences(question: str, sentences: list[str]) -> list[float]:
    """Evidence probability of each sentence for ``question``, in input order (empty in, empty out)."""
    return [s.evidence for s in score(question, sentences)] if sentences else []
