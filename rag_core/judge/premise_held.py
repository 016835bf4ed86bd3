"""A value a wh-question takes for granted, stated in one passage of a document: the other values of
that kind in the document are about something else, not a contradiction.

Why (try-out, session 32): "When is the final 10% paid?" over a development contract ("2.4 剩余10%作为
质保金，于质保期届满后十个工作日内支付", kept as EVIDENCE) labelled "2.2 …支付合同总价款的30%作为首付款" and
"7.2 …万分之五…" CONFLICTING ("percent 10% in question vs 30% in passage"), and the answer opened "No — the
documents contradict the premise of the question." A question asking *when* the 10% is paid asserts
nothing the 30% instalment denies; it takes the 10% for granted, and 2.4 grants it.

Narrow on purpose: only for questions that ask what, when or who (a yes/no question asserts its value:
"Is the final payment 20%?" stays contradicted by a passage saying 10%, whatever other passage names
20%), only for the value check's conflicts (``con_value``), and only within the document whose own
relevant passage states every asserted value. Set-wise, like the evidence margin, so it runs in
``steps.judging.settle_labels``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rag_core.coded import coded, join
from rag_core.judge.classify import CONFLICT, classify, document_of, relabelled
from rag_core.judge.conflict import VALUE_CONFLICT, premise_slots, states_premise
from rag_core.judge.forum_premise import yes_no_question
from rag_core.models import Verdict
from rag_core.settings import VerdictSettings

_STATING = frozenset({"EVIDENCE", "NO_EVIDENCE"})
"""Labels of a passage that may grant the question's value: relevant, not itself contradicting."""


def apply_premise_held(
    question: str,
    verdicts: Sequence[Verdict],
    texts: Mapping[str, str],
    s: VerdictSettings,
    doc_of: Mapping[str, str] | None = None,
) -> list[Verdict]:
    """``verdicts`` with the value conflicts of a wh-question relabelled without the conflict in every
    document where another relevant passage (``texts``: passage id → text) states all its values."""
    if yes_no_question(question) or not any(v.label == "CONFLICTING" for v in verdicts):
        return list(verdicts)
    slots = premise_slots(question)
    if not slots.values:
        return list(verdicts)
    doc = document_of(doc_of)
    holding = {
        doc(v) for v in verdicts if v.label in _STATING and states_premise(slots, texts.get(v.passage_id, ""))
    }
    out: list[Verdict] = []
    for v in verdicts:
        if v.label != "CONFLICTING" or VALUE_CONFLICT not in v.explanation_code or doc(v) not in holding:
            out.append(v)
            continue
        label, keep = classify({**v.scores, CONFLICT: 0.0}, s)
        note = coded(
            "premise_held",
            "another passage of this document states the value the question takes for granted: "
            "this passage's value is about something else",
        )
        out.append(relabelled(v, label, keep, join([note, v.explanation], sep="; ")))
    return out
