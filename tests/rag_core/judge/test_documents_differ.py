"""A yes/no question's value stated by one document and contradicted by another: the documents differ."""

from __future__ import annotations

from rag_core.judge.base import PassageInput
from rag_core.judge.conflict import affirmation_score, premise_slots
from rag_core.judge.documents_differ import apply_documents_differ, states_premise_ids
from rag_core.judge.local_judge import LocalJudge
from rag_core.settings import Settings

NINETY = (
    "1.2 The first ninety (90) days of employment are a probationary period, during which either party may "
    "end the employment on one (1) week's written notice."
)
SIX = (
    "2. START DATE AND PROBATION\nThe first six (6) months are a probationary period, during which either "
    "party may end employment on two (2) weeks' written notice."
)
NOTICE = (
    "Either party may terminate this Agreement on ninety (90) days' written notice before the renewal date."
)
Q = "The probation period is 90 days, right?"


def test_a_passage_states_the_value_where_the_question_puts_it() -> None:
    slots = premise_slots(Q)
    assert affirmation_score(slots, NINETY) >= Settings().verdict.t_conflict
    assert affirmation_score(slots, SIX) == 0.0  # another value: a contradiction, not a statement
    # the number of a notice period, not of the probation: as weak as an unaligned contradiction would be
    assert affirmation_score(slots, NOTICE) < 0.2
    assert (
        affirmation_score(premise_slots("What is the probation period?"), NINETY) == 0.0
    )  # nothing asserted
    # across languages through the glossary: 试用期 is the probation
    assert affirmation_score(premise_slots("试用期是90天，对吗？"), NINETY) >= Settings().verdict.t_conflict


def _settled(question: str, doc_of: dict[str, str]) -> dict[str, tuple[str, bool]]:
    s = Settings().verdict
    texts = {"ninety": NINETY, "six": SIX}
    raw = LocalJudge(s).judge(question, [PassageInput(k, t) for k, t in texts.items()])
    labels = {v.passage_id: v.label for v in raw}
    assert labels["six"] == "CONFLICTING" and labels["ninety"] == "EVIDENCE", labels
    settled = apply_documents_differ(question, raw, texts, s, doc_of)
    marked = states_premise_ids(settled)
    return {v.passage_id: (v.label, v.passage_id in marked) for v in settled}


def test_evidence_of_another_document_stating_the_value_is_marked_and_keeps_its_label() -> None:
    """Try-out (session 36): "The probation period is 90 days, right?" over two employment agreements
    answered "No" from the six-month one; the ninety-day one was kept but not quoted."""
    out = _settled(Q, {"ninety": "acme", "six": "beta"})
    assert out == {"ninety": ("EVIDENCE", True), "six": ("CONFLICTING", False)}
    # within one document a statement beside a contradiction is not two documents differing
    assert not any(m for _, m in _settled(Q, {"ninety": "acme", "six": "acme"}).values())


def test_the_chat_settles_it() -> None:
    from rag_core.models import Hit
    from rag_core.steps.judging import settle_labels

    s = Settings().verdict
    q = Q
    hits = [
        Hit(f"{cid}.txt", cid, cid, 0, len(t), None, "", 0.5, t, explain={})
        for cid, t in (("ninety", NINETY), ("six", SIX))
    ]
    raw = LocalJudge(s).judge(q, [PassageInput(h.chunk_id, h.text) for h in hits])
    assert states_premise_ids(settle_labels(q, raw, hits, None, s)) == {"ninety"}


LOAN_TERM = "第三条 借款期限\n借款期限为十八个月，自甲方实际出借款项之日起计算。"
SERVICES_TERM = (
    "9.1 TERM. The term of this Agreement shall commence on the Effective Date and continue for a period of "
    "1 year after the Effective Date, unless earlier terminated as set forth herein."
)
YEAR_DEFINITION = (
    "Year: the period of 12 months from the Commencement Date and each consecutive period of 12 months "
    "thereafter during the Term."
)


def test_another_contract_s_twelve_months_does_not_state_a_loan_term() -> None:
    """Session 38 try-out: "借款期限是十二个月，对吗？" over a 借款合同 (十八个月) and English contracts opened "各文件约定不一致"
    with a distributor agreement's definition of a Year and a reseller agreement's one-year term: neither is a
    loan, the topic the question asks about."""
    s = Settings().verdict
    q = "借款期限是十二个月，对吗？"
    texts = {"loan": LOAN_TERM, "term": SERVICES_TERM, "year": YEAR_DEFINITION}
    raw = LocalJudge(s).judge(q, [PassageInput(k, t) for k, t in texts.items()])
    labels = {v.passage_id: v.label for v in raw}
    assert labels["loan"] == "CONFLICTING", labels
    assert labels["term"] != "CONFLICTING" and labels["year"] != "CONFLICTING", labels
    settled = apply_documents_differ(q, raw, texts, s, {"loan": "a", "term": "b", "year": "c"})
    assert not states_premise_ids(settled)


def test_a_court_of_one_document_beside_arbitration_of_another_differs() -> None:
    """Try-out (session 40): "借款合同的争议由哪个法院管辖？" over two loan contracts, one naming a court and one
    arbitration, opened "不对" though one of them names the court."""
    s = Settings().verdict
    texts = {
        "court": "第八条 争议解决\n因本合同发生的争议，由甲方住所地人民法院管辖。",
        "arb": "第十条 争议解决\n因本合同发生的争议，双方应协商解决；协商不成的，提交深圳国际仲裁院仲裁。",
    }
    q = "借款合同的争议由哪个法院管辖？"
    raw = LocalJudge(s).judge(q, [PassageInput(k, t) for k, t in texts.items()])
    labels = {v.passage_id: v.label for v in raw}
    assert labels == {"court": "EVIDENCE", "arb": "CONFLICTING"}, labels
    marked = states_premise_ids(apply_documents_differ(q, raw, texts, s, {"court": "a", "arb": "b"}))
    assert marked == {"court"}
    # one document naming both: no two documents differ
    assert not states_premise_ids(apply_documents_differ(q, raw, texts, s, {"court": "a", "arb": "a"}))
