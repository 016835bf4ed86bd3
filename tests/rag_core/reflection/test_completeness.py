"""A fact the answer left out, read off the quoted answer, is added to the answer, quoted."""

from __future__ import annotations

from rag_core.answer_records import QuotedRecord
from rag_core.reflection.completeness import ALSO_LEAD, omitted_sentences, with_omitted

PRICE = "股权转让价款为人民币1200万元。"
FIRST = "乙方应于本协议签署后10个工作日内支付价款的40%，即480万元；"
REST = "其余720万元于工商变更登记完成后15个工作日内付清。"


def _quoted(*texts: str, n: int = 1) -> list[QuotedRecord]:
    """The texts as quoted sentences of one document, each following the one before it."""
    out: list[QuotedRecord] = []
    at = 0
    for t in texts:
        out.append(QuotedRecord(n, "股权转让协议.md", t, at, at + len(t), doc_id="share"))
        at += len(t)
    return out


def test_a_deadline_the_answer_left_out_is_found() -> None:
    """Try-out (session 40): the local model answered "应于本协议签署后10个工作日内支付 [1]" and left out the
    remaining 720万元 due 15 working days after the registration."""
    answer = "股权转让价款应于本协议签署后10个工作日内支付 [1]。"
    out = omitted_sentences("股权转让价款什么时候支付？", answer, _quoted(PRICE, FIRST, REST), {1}, 2)
    # the price states no deadline; the first instalment's deadline is said
    assert [q.text for q in out] == [REST]
    text = with_omitted(answer, out, "zh")
    assert text.startswith(answer) and ALSO_LEAD["zh"] in text and f"“{REST}” [1]" in text


def test_nothing_is_added_when_the_answer_states_each_value_or_cites_another_block() -> None:
    full = "乙方应于签署后10个工作日内支付480万元 [1]，其余720万元于变更登记完成后15个工作日内付清 [1]。"
    assert omitted_sentences("股权转让价款什么时候支付？", full, _quoted(FIRST, REST), {1}, 2) == []
    # a block the answer does not cite may be the bystander the model rightly left out
    other = "股权转让价款应于本协议签署后10个工作日内支付 [2]。"
    assert omitted_sentences("股权转让价款什么时候支付？", other, _quoted(FIRST, REST), {2}, 2) == []
    # no numeric kind asked, or turned off
    yes_no = "可以转让 [1]。"
    assert omitted_sentences("股权可以转让吗？", yes_no, _quoted(FIRST, REST), {1}, 2) == []
    assert omitted_sentences("股权转让价款什么时候支付？", other, _quoted(FIRST, REST, n=2), {2}, 0) == []


def test_a_table_row_is_one_of_parallel_items() -> None:
    """Try-out (session 40): "第二期什么时候还？还多少？" answered from the second row had the first row added."""
    rows = _quoted(
        "期次 | 还款日 | 还款本金",
        "第二期 | 2027年4月30日 | 人民币100万元",
        "第一期 | 2026年12月31日 | 人民币50万元",
    )
    answer = "第二期的还款日是2027年4月30日，还款本金是人民币100万元 [1]。"
    assert omitted_sentences("第二期什么时候还？还多少？", answer, rows, {1}, 2) == []


def test_only_the_other_half_of_a_sentence_split_at_its_semicolon_is_added() -> None:
    """Try-out (session 40): a further sentence of the cited clause is another fact — "Late payments bear
    interest at 1.5% per month." beside the monthly fee the answer gave — not a part of the answer left out."""
    fee = (
        "Client shall pay Provider a monthly fee of USD 12,500 within thirty (30) days of receipt of invoice."
    )
    late = "Late payments bear interest at 1.5% per month."
    answer = "The monthly fee under the MSA is USD 12,500 [1]."
    assert (
        omitted_sentences("What is the monthly fee under the MSA?", answer, _quoted(fee, late), {1}, 2) == []
    )
    # the same two halves apart in the document are two sentences
    first, rest = _quoted(FIRST, REST)
    apart = QuotedRecord(1, rest.doc, rest.text, rest.start + 40, rest.end + 40, doc_id="share")
    said = "股权转让价款应于本协议签署后10个工作日内支付 [1]。"
    assert omitted_sentences("股权转让价款什么时候支付？", said, [first, apart], {1}, 2) == []


def test_the_most_specific_kind_is_asked() -> None:
    """ "How many days of holiday …?" asks a period: the salary sentence of the same cited block holds a
    number, not a period, and is no part of the answer."""
    block = _quoted(
        "The Employee is entitled to 25 working days' paid holiday in each holiday year.",
        "The Company shall pay the Employee a gross annual salary of GBP 78,000.",
    )
    answer = "The employee gets 25 working days' paid holiday [1]."
    assert omitted_sentences("How many days of holiday does the employee get?", answer, block, {1}, 2) == []


def test_the_quoted_answer_s_lead_in_a_block_the_answer_does_not_cite_is_added() -> None:
    """Try-out (session 40): "押金是多少？" over a Chinese and an English lease was answered "押金是 GBP 24,000 [2]",
    though the quoted answer led with the Chinese lease's 押金人民币10000元 [3]."""
    zh = QuotedRecord(
        3, "zh_lease.pdf", "乙方应于本合同签订之日起7日内向甲方支付押金人民币10000元。", 10, 40, doc_id="zh"
    )
    en = QuotedRecord(
        2,
        "lease.docx",
        "On signing this Lease the Tenant shall pay a deposit of GBP 24,000.",
        5,
        70,
        doc_id="en",
    )
    answer = "押金是 GBP 24,000 [2]。"
    assert omitted_sentences("押金是多少？", answer, [zh, en], {2}, 2) == [zh]
    # the lead's value said, or its block cited: nothing to add
    assert omitted_sentences("押金是多少？", "押金为人民币10000元 [2]。", [zh, en], {2}, 2) == []
    assert omitted_sentences("押金是多少？", "押金是 GBP 24,000 [3]。", [zh, en], {3}, 2) == []
