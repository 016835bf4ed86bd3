"""A yes/no question whose value one document states and another contradicts: the documents differ.

Why (try-out, session 36): "The probation period is 90 days, right?" over a base with two employment
agreements — one says "The first ninety (90) days of employment are a probationary period", the other
"The first six (6) months are a probationary period" — answered "No — the documents contradict the
premise of the question." and quoted the six months; the ninety days, kept as EVIDENCE, was not quoted.
For the lawyer the premise is true of one contract and false of the other: the answer must say so.

Each passage keeps its label (the six-month clause does contradict the premise; the ninety-day clause
is evidence); an EVIDENCE passage that states the question's value where the question puts it
(``conflict.affirmation_score`` at least ``t_conflict``, the scale a contradiction needs), in a document
none of whose passages contradicts the premise, is marked ``premise_stated``. The answer reads the mark
(``EvidenceBlock.affirming``): the quoted answer and the premise check then open "the documents differ"
instead of "no". Narrow on purpose: only yes/no questions (a wh-question takes its value for granted,
``premise_held``), only beside a value conflict of another document; and the dispute forum a yes/no or
which-court question asserts, beside another document naming only the other forum (``forum_premise``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from rag_core.coded import CODE_JOIN, coded, join
from rag_core.judge.classify import document_of, relabelled
from rag_core.judge.conflict import VALUE_CONFLICT, affirmation_score, premise_slots
from rag_core.judge.forum_premise import FORUM_CONFLICT, asserted_forum, forum_agreement, yes_no_question
from rag_core.models import Verdict
from rag_core.settings import VerdictSettings

PREMISE_STATED = "premise_stated"
"""The explanation code of an EVIDENCE passage that states the value another document contradicts."""


def apply_documents_differ(
    question: str,
    verdicts: Sequence[Verdict],
    texts: Mapping[str, str],
    s: VerdictSettings,
    doc_of: Mapping[str, str] | None = None,
) -> list[Verdict]:
    """``verdicts`` with the EVIDENCE passages that state a yes/no question's contradicted value, in a
    document that does not contradict it (``texts``: passage id → text), marked ``premise_stated``; the
    same for the dispute forum a question asserts (``forum_premise``: "借款合同的争议由哪个法院管辖？" over one
    loan contract naming a court and another naming arbitration opened "不对" though one names a court)."""
    doc = document_of(doc_of)
    by_value = _contradicting(verdicts, VALUE_CONFLICT, doc) if yes_no_question(question) else set()
    by_forum = _contradicting(verdicts, FORUM_CONFLICT, doc) if asserted_forum(question) else set()
    if not by_value and not by_forum:
        return list(verdicts)
    slots = premise_slots(question)

    def states(v: Verdict) -> bool:
        text = texts.get(v.passage_id, "")
        if by_value and doc(v) not in by_value and affirmation_score(slots, text) >= s.t_conflict:
            return True
        return bool(by_forum) and doc(v) not in by_forum and forum_agreement(question, text)[0] > 0

    out: list[Verdict] = []
    for v in verdicts:
        if v.label != "EVIDENCE" or not states(v):
            out.append(v)
            continue
        note = coded(
            PREMISE_STATED,
            "states the value of the question that another document contradicts: the documents differ",
        )
        out.append(relabelled(v, v.label, v.keep, join([note, v.explanation], sep="; ")))
    return out


def _contradicting(verdicts: Sequence[Verdict], code: str, doc: Callable[[Verdict], str]) -> set[str]:
    """The documents of the CONFLICTING verdicts whose explanation carries ``code``."""
    return {doc(v) for v in verdicts if v.label == "CONFLICTING" and code in v.explanation_code}


def states_premise_ids(verdicts: Sequence[Verdict]) -> set[str]:
    """The passages marked ``premise_stated``."""
    return {v.passage_id for v in verdicts if PREMISE_STATED in v.explanation_code.split(CODE_JOIN)}
