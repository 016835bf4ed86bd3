"""Coded explanations of the fitted relevance and evidence scores (English text + code + params).

Why apart from ``fitted``: what a lawyer reads must say what decided the score — the asked clause
type missing from the passage, the asked kind of value missing, or how much of the question the
passage covers — and the Chinese interface renders the same facts from the code and params
(``why_<code>`` templates in ``ui/i18n.py``).
"""

from __future__ import annotations

from rag_core.coded import CodedText, coded, join
from rag_core.judge.fitted import FittedScores
from rag_core.judge.relevance import ask_word


def _clause_part(s: FittedScores, t_clause_type: float) -> CodedText | None:
    """The clause-type fact: the asked type present, or the passage looking like another type."""
    if not s.asked_types:
        return None
    asked = s.asked_types[0]
    if s.type_prob >= t_clause_type:
        return coded(
            "fit_clause",
            f"the asked clause type, {asked} ({s.type_prob:.0%})",
            clause_type=asked,
            type_prob=s.type_prob,
        )
    return coded(
        "fit_clause_missing",
        f"not the asked clause type, {asked} ({s.type_prob:.0%}; looks like {s.best_type})",
        clause_type=asked,
        type_prob=s.type_prob,
        other_type=s.best_type,
    )


def fitted_explanation(s: FittedScores, t_clause_type: float) -> CodedText:
    """Relevance and evidence with the clause-type, value-kind and coverage facts behind them
    (the passage counts as the asked clause type from ``t_clause_type``, as the absent-clause gate)."""
    lex = s.lexical
    parts: list[CodedText] = [
        coded(
            "fit_scores",
            f"fitted relevance {s.relevance:.2f}, evidence {s.evidence:.2f}",
            fit_relevance=s.relevance,
            fit_evidence=s.evidence,
        )
    ]
    clause = _clause_part(s, t_clause_type)
    if clause is not None:
        parts.append(clause)
    if s.clause_lacks:  # the asked clause itself must state the fact, not a neighbouring clause
        parts.append(coded("rel_lacks", "lacks " + ask_word(s.clause_lacks[0]), kind=s.clause_lacks[0]))
    elif lex.matched:
        parts.append(coded("rel_has", "has " + ask_word(lex.matched[0]), kind=lex.matched[0]))
    elif lex.kinds:
        parts.append(coded("rel_lacks", "lacks " + ask_word(lex.kinds[0]), kind=lex.kinds[0]))
    parts.append(
        coded("rel_terms", f"covers {lex.hits}/{lex.terms} query terms", hit=lex.hits, total=lex.terms)
    )
    return join(parts)
