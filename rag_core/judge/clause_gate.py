"""The absent-clause gate: a question about a clause type (or a named topic, ``absent_topic``) that no
kept passage is gets no answer.

Why (issue 10): "这份租赁合同约定的竞业限制期限是多久？" over a lease without a non-compete was
answered "五年 [1]" from an NDA's confidentiality term — a fact of another clause type. When the
question asks about a clause type (thesaurus, else the fitted classifier) and none of the passages
handed to the answer model is that type with at least ``t_clause_type``, the answer is "the
documents contain no … clause", citing nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from rag_core import textproc
from rag_core.judge import dense
from rag_core.judge.classify import RELEVANCE
from rag_core.judge.clause_types import (
    BY_NAME,
    ClauseType,
    Topic,
    asks_party_identity,
    thesaurus_types,
    topics_named,
)
from rag_core.judge.doc_scope import out_of_scope_code
from rag_core.judge.fitted import load_weights, passage_views, question_view
from rag_core.judge.payables import OTHER_SUM
from rag_core.models import Verdict
from rag_core.settings import VerdictSettings


def asked_clause_type(question: str) -> ClauseType | None:
    """The clause type the question asks about, if any (thesaurus first, then the classifier)."""
    w = load_weights()
    qv = question_view(question, dense.embed([question])[0], w)
    return BY_NAME[w.clause.categories[qv.types[0]]] if qv.types else None


def guessed_for_chinese(question: str) -> bool:
    """Whether a Chinese question's clause type, if any, is the classifier's guess (no thesaurus word).

    Why (session 39 try-out): the clause classifier is fitted on contract text and reads a question's vector
    as one; on Chinese questions without a thesaurus word its guess is no type at all: "停车位和广告位的收益归谁？"
    (the property contract's 公共收益 clause) and "业主委员会有哪些权利？" were typed Covenant Not To Sue (0.73, 0.54),
    and the first was refused as "the documents contain no covenant-not-to-sue clause". Of ``bench refusal``'s
    Chinese phrasings (written with the thesaurus) two have no thesaurus word, and the classifier typed one
    right and one wrong. Such a question is still refused when no passage holds answer evidence."""
    return textproc.is_chinese(question) and not thesaurus_types(question)


def absent_clause_type(question: str, texts: list[str], s: VerdictSettings) -> ClauseType | None:
    """The asked clause type when none of ``texts`` is of it (``None``: no type asked, or present).

    A type only the classifier guesses for a Chinese question refuses nothing (``guessed_for_chinese``)."""
    if guessed_for_chinese(question):
        return None
    w = load_weights()
    qv = question_view(question, dense.embed([question])[0], w)
    if not qv.types:
        return None
    if texts:
        views = passage_views(texts, w)
        best = max(float(p.clause_probs[i]) for p in views for i in qv.types)
        if best >= s.t_clause_type:
            return None
    return BY_NAME[w.clause.categories[qv.types[0]]]


def quotable(verdicts: Sequence[Verdict], s: VerdictSettings) -> list[int]:
    """The passages that may be quoted as the asked clause (``found_clause``, ``found_topic``): judged
    EVIDENCE or NO_EVIDENCE (not an injection nor irrelevant), relevance at least
    ``t_found_relevance``, not out of the question's document scope, and not capped for stating another
    sum than the one asked (``payables``).

    Why the last: "乙方每月工资多少？" over a lease alone had its rent clause capped, and then quoted as the
    price-and-payment clause "found" for the lawyer to check; the lease has no wage to check."""
    return [
        i
        for i, v in enumerate(verdicts)
        if v.label in ("EVIDENCE", "NO_EVIDENCE")
        and v.scores[RELEVANCE] >= s.t_found_relevance
        and not out_of_scope_code(v.explanation_code)
        and OTHER_SUM not in v.explanation_code
    ]


def found_clause(
    question: str, texts: Sequence[str], verdicts: Sequence[Verdict], s: VerdictSettings
) -> int | None:
    """The index of the passage to quote as the asked clause when none holds answer evidence: the
    most likely one of the asked type, at least ``t_clause_found``, with relevance at least
    ``t_found_relevance``, neither an injection nor out of the question's document scope (``None``:
    no such passage, no clause type asked, or ``cite_found_clause`` off).

    Why: "竞业限制的期限是多久？" over a contract whose non-compete clause states no period was refused
    with "passages look like such a clause"; the lawyer's answer is that clause, and that it states
    no period. On the fit part most such clauses hold no asked detail at all, so the judge rightly
    finds no evidence in them; quoting the clause answers without inventing the detail."""
    if not s.cite_found_clause:
        return None
    w = load_weights()
    qv = question_view(question, dense.embed([question])[0], w)
    eligible = quotable(verdicts, s)
    if not qv.types or not eligible:
        return None
    views = passage_views([texts[i] for i in eligible], w)
    probs = [max(float(p.clause_probs[t]) for t in qv.types) for p in views]
    best = max(range(len(eligible)), key=lambda k: (probs[k], verdicts[eligible[k]].scores[RELEVANCE]))
    return eligible[best] if probs[best] >= s.t_clause_found else None


def found_topic(
    question: str, texts: Sequence[str], verdicts: Sequence[Verdict], s: VerdictSettings
) -> int | None:
    """The index of the passage to quote as the asked topic's clause when none holds answer evidence:
    the most relevant one that uses the topic's words, with relevance at least ``t_found_relevance``,
    neither an injection nor out of the question's document scope (``None``: no such passage, no
    topic asked, or ``cite_found_clause`` off).

    Why: ``found_clause`` for the subjects that are no CUAD category (dispute resolution, price and
    payment …), which have no clause-type probability to check. "发生争议怎么解决？" over a lease whose
    争议解决 article the judge scored relevance 0.84 and evidence 0.549 was refused, saying that
    passages looking like a dispute resolution clause had been found."""
    asked = asked_topics(question)
    if not s.cite_found_clause or not asked:
        return None
    eligible = [i for i in quotable(verdicts, s) if mentions_topic(texts[i], asked)]
    return max(eligible, key=lambda i: verdicts[i].scores[RELEVANCE], default=None)


def absent_topic(question: str, texts: list[str]) -> Topic | None:
    """A topic outside the CUAD categories that the question asks about ("不可抗力怎么处理？") when
    none of ``texts`` mentions any topic the question names (``None``: no such topic, or present).

    Why: the clause classifier knows only CUAD categories, so the absent-clause gate cannot see a
    missing force majeure clause; the judge kept an amendment clause for "Does the agreement contain
    a force majeure clause?" and the answer said it did. The topic's own drafting words are what a
    clause about it says; a question naming a CUAD type is left to ``absent_clause_type``.
    """
    asked = asked_topics(question)
    if not asked:
        return None
    return None if any(mentions_topic(text, asked) for text in texts) else asked[0]


def asked_topics(question: str) -> list[Topic]:
    """The non-CUAD topics a question asks about; none when a thesaurus word names a clause type, nor
    when it asks who a party is: the party lines say who, whatever topic the question names, and a
    passage naming no party is capped for that already ("谁是执行事务合伙人？" capped "合伙人甲：张明…" for
    not mentioning partnership affairs, and the answer fell back to 5.1 alone; session 34)."""
    if thesaurus_types(question) or asks_party_identity(question):
        return []
    return topics_named(question)


def mentions_topic(text: str, topics: list[Topic]) -> bool:
    """Whether ``text`` uses the words (Chinese or English) of any of ``topics``."""
    names = {t.name for t in topics}
    return any(t.name in names for t in topics_named(text))
