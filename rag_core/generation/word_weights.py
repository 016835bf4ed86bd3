"""Question words weighted by how rare they are among candidate sentences.

Why a module of its own: the interim sentence scorer (``sentence_scores``) and the quoted answer's
tie-break (``quoted``) weigh the question's words the same way, and ``sentence_scores`` imports
``quoted``, so the weighting lives below both.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

IDF_SMOOTHING = 0.5
"""Added to a token's sentence frequency in the IDF (the usual BM25 smoothing)."""


def idf_weights(sentence_tokens: Sequence[set[str]]) -> dict[str, float]:
    """log((N + 1) / (df + smoothing)) over the candidate sentences."""
    df: dict[str, int] = {}
    for toks in sentence_tokens:
        for t in toks:
            df[t] = df.get(t, 0) + 1
    n = len(sentence_tokens)
    return {t: math.log((n + 1) / (c + IDF_SMOOTHING)) for t, c in df.items()}


def unseen_weight(sentences: int) -> float:
    """The weight of a question token no candidate sentence holds (rarer than any that one does)."""
    return math.log(sentences + 1) / IDF_SMOOTHING if sentences else 0.0


def weighted_share(wanted: set[str], have: set[str], idf: dict[str, float], unseen: float) -> float:
    """IDF-weighted share of ``wanted`` found in ``have`` (tokens no sentence holds weigh ``unseen``)."""
    if not wanted:
        return 0.0
    total = sum(idf.get(t, unseen) for t in wanted)
    return sum(idf.get(t, unseen) for t in wanted & have) / total if total > 0 else 0.0
