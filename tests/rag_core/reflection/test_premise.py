"""The answer corrects a false premise first: detection of an affirming draft and the quoted fix."""

from __future__ import annotations

from dataclasses import replace

from rag_core.generation.prompt import EvidenceBlock
from rag_core.reflection.premise import affirms_premise, enforce_correction, starts_with_correction

RENT = EvidenceBlock(
    1, "租赁合同", "lease.pdf", 2, "第三条 租金", "第三条 租金。乙方每月向甲方支付租金人民币9500元。租金于每月5日前支付。",
    conflicting=True,
)  # fmt: skip
OTHER = EvidenceBlock(2, "租赁合同", "lease.pdf", 3, "第四条 押金", "押金为两个月租金。")
Q = "租金是每月8000元，对吗？"
EN_BLOCK = EvidenceBlock(
    1,
    "Lease",
    "lease.pdf",
    1,
    "3 Rent",
    "The Tenant shall pay a monthly rent of USD 9,500.",
    conflicting=True,
)


def test_a_draft_that_affirms_the_false_value_is_detected() -> None:
    assert affirms_premise("是的，租金是每月8000元。合同约定为9500元[1]。", Q, [RENT])
    assert not affirms_premise("不对，合同约定月租金为9500元[1]。", Q, [RENT])
    assert not affirms_premise("租金不是8000元，而是9500元[1]。", Q, [RENT])
    assert not affirms_premise("是的，租金是每月8000元。", Q, [])  # nothing conflicting: nothing to correct


def test_an_affirming_draft_is_replaced_by_the_quoted_correction() -> None:
    fixed, note = enforce_correction("是的，租金是每月8000元。合同约定为9500元[1]。", Q, [RENT, OTHER], "zh")
    assert fixed.startswith("不对：乙方每月向甲方支付租金人民币9500元。 [1]")
    assert "8000" not in fixed
    assert note
    assert starts_with_correction(fixed)


def test_a_correct_draft_is_left_alone_and_a_silent_one_gets_the_correction_first() -> None:
    good = "不对，合同约定月租金为9500元[1]。"
    assert enforce_correction(good, Q, [RENT], "zh") == (good, "")
    fixed, note = enforce_correction("月租金为9500元[1]。", Q, [RENT], "zh")
    assert fixed.startswith("不对：") and fixed.endswith("月租金为9500元[1]。") and note


def test_english_premise_correction() -> None:
    q = "The rent is USD 8,000 a month, right?"
    fixed, _ = enforce_correction("Yes, the rent is USD 8,000 per month [1].", q, [EN_BLOCK], "en")
    assert fixed.startswith(
        "No — the documents say otherwise: The Tenant shall pay a monthly rent of USD 9,500. [1]"
    )
    assert "8,000" not in fixed


def test_a_correction_without_the_documents_value_gets_the_quoted_one() -> None:
    """Seen in the app: the draft said "不对" and cited the rent clause, but never gave the rent."""
    draft = "不对。根据第三条，租金于每月5日前支付[1]。"
    fixed, note = enforce_correction(draft, Q, [RENT, OTHER], "zh")
    assert fixed.startswith("不对：乙方每月向甲方支付租金人民币9500元。 [1]") and note
    assert fixed.count("不对") == 1 and fixed.endswith("根据第三条，租金于每月5日前支付[1]。")
    # a day of the month is no rent: "每月5日前" does not state the amount
    one_sentence = EvidenceBlock(
        1, "租赁合同", "lease.pdf", 2, "第三条 租金", "第三条 租金\n租金每月人民币9500元，乙方应于每月5日前支付当月租金。",
        conflicting=True,
    )  # fmt: skip
    other_number, _ = enforce_correction("不对。乙方应于每月5日前支付当月租金[1]。", Q, [one_sentence], "zh")
    assert other_number.startswith("不对：租金每月人民币9500元，乙方应于每月5日前支付当月租金。 [1]")
    stated = "不对，合同约定月租金为人民币9500元[1]。"
    assert enforce_correction(stated, Q, [RENT], "zh") == (stated, "")
    en, _ = enforce_correction("No, that is not what the lease says [1].", "The rent is USD 8,000 a month, right?",
                               [EN_BLOCK], "en")  # fmt: skip
    assert en.startswith(
        "No — the documents say otherwise: The Tenant shall pay a monthly rent of USD 9,500."
    )


def test_a_draft_that_opens_with_yes_and_states_the_true_value_loses_the_yes() -> None:
    fixed, note = enforce_correction("对。根据第三条，月租金为人民币9500元 [1]。", Q, [RENT], "zh")
    assert fixed.startswith("不对：") and note
    assert "\n对。" not in fixed and fixed.endswith("根据第三条，月租金为人民币9500元 [1]。")
    q = "The rent is USD 8,000 a month, right?"
    fixed, _ = enforce_correction("Yes, the contract says USD 9,500 per month [1].", q, [EN_BLOCK], "en")
    assert fixed.endswith("\nThe contract says USD 9,500 per month [1].")
    # "是否" opens a sentence without affirming anything: it stays
    fixed, _ = enforce_correction("是否续租由双方商定，月租金为9500元 [1]。", Q, [RENT], "zh")
    assert fixed.endswith("\n是否续租由双方商定，月租金为9500元 [1]。")


def test_the_correction_is_the_sentence_that_contradicts_the_premise() -> None:
    """The payment-day sentence shares more words with the question; the rent sentence holds the value."""
    lease = EvidenceBlock(
        1, "租赁合同", "lease.pdf", 2, "第三条 租金及支付方式",
        "第三条 租金及支付方式\n乙方应于每月5日前向甲方支付当月租金。月租金为人民币6800元。押金为两个月租金，即13600元。",
        conflicting=True,
    )  # fmt: skip
    fixed, _ = enforce_correction("租金按月支付[1]。", Q, [lease], "zh")
    assert fixed.startswith("不对：月租金为人民币6800元。 [1]")


WAGE = EvidenceBlock(
    1, "劳动合同", "labour.txt", 1, "第四条 劳动报酬", "第四条 劳动报酬\n甲方每月支付乙方工资人民币一万五千元，于次月十日前发放。",
    conflicting=True,
)  # fmt: skip


def test_a_draft_that_repeats_a_false_payment_period_loses_that_sentence() -> None:
    """Browser try-out (local 1.5B): "工资按季度发放吗？" was answered "不对：甲方每月支付… [1]" and then the draft's
    "工资按季度发放 [1]。" — the premise restated as fact under its own correction."""
    q = "工资按季度发放吗？"
    draft = "工资按季度发放 [1]。根据第四条，甲方每月支付乙方工资人民币一万五千元 [1]。"
    assert affirms_premise(draft, q, [WAGE])
    fixed, note = enforce_correction(draft, q, [WAGE], "zh")
    assert fixed.startswith("不对：") and "按季度" not in fixed and "一万五千元 [1]。" in fixed and note
    # a draft that denies the period is no affirmation
    assert not affirms_premise("工资不是按季度发放，而是每月支付 [1]。", q, [WAGE])


ARBITRATION = EvidenceBlock(
    1, "特许经营合同", "franchise.txt", 1, "第八条 争议解决", "第八条 争议解决\n因本合同产生的争议，提交上海国际仲裁中心仲裁。",
    conflicting=True,
)  # fmt: skip


def test_a_draft_that_names_the_false_dispute_forum_loses_that_sentence() -> None:
    """ "争议由法院管辖吗？" over an arbitration clause: a draft saying a court decides affirms the premise."""
    q = "特许经营合同的争议由法院管辖吗？"
    draft = "是的，争议由甲方所在地法院管辖 [1]。"
    assert affirms_premise(draft, q, [ARBITRATION])
    fixed, note = enforce_correction(draft, q, [ARBITRATION], "zh")
    assert (
        fixed.startswith("不对：因本合同产生的争议，提交上海国际仲裁中心仲裁。 [1]")
        and "法院" not in fixed
        and note
    )
    assert not affirms_premise("不由法院管辖，争议提交仲裁 [1]。", q, [ARBITRATION])


LOCK_UP = EvidenceBlock(
    1,
    "Shareholders' Agreement",
    "shareholders_agreement.pdf",
    2,
    "4. Lock-Up",
    "4. Lock-Up\nThe Founder shall not transfer any shares for a period of thirty-six (36) months after the date of this\n"
    "Agreement, except with the Investor's prior written consent.",
    conflicting=True,
)


def test_the_correction_of_a_wrapped_pdf_line_is_the_whole_sentence_and_echoes_of_the_premise_go() -> None:
    """Browser (session 35): "The lock-up period is 24 months, right?" was answered "No — the documents say otherwise:
    The Founder shall not transfer any shares for a period of thirty-six (36) months after the date of this [1]" (cut
    at the PDF's line break) and then "The lock-up period is 24 months, right? [1]", the question repeated."""
    q = "The lock-up period is 24 months, right?"
    for draft in (
        "Actually the lock-up is longer. The lock-up period is 24 months, right? [1]",
        "The lock-up period is 24 months, right? [1]",
        "No. The lock-up period is 24 months, right? [1]",  # the browser's draft: "No." splits off no sentence
    ):
        fixed, note = enforce_correction(draft, q, [LOCK_UP], "en")
        assert (
            "after the date of this Agreement, except with the Investor's prior written consent. [1]" in fixed
        ), fixed
        assert "24 months" not in fixed and note, fixed
    negated = "The lock-up period is thirty-six (36) months, not 24 months [1]."
    assert negated in enforce_correction(negated, q, [LOCK_UP], "en")[0]


def test_a_draft_that_is_the_question_itself_goes_even_when_its_value_is_in_the_block() -> None:
    """Browser (session 35): the chunk of the lock-up clause also held the non-compete's "twenty-four (24) months", so
    24 months was no false value, and the draft "The lock-up period is 24 months, right? [1]" stood under the correction."""
    chunk = EvidenceBlock(
        1,
        "Shareholders' Agreement",
        "shareholders_agreement.pdf",
        2,
        "4. Lock-Up",
        LOCK_UP.text
        + "\n7. Non-Compete\nThe Founder shall not compete for twenty-four (24) months thereafter.",
        conflicting=True,
    )
    q = "The lock-up period is 24 months, right?"
    fixed, note = enforce_correction("The lock-up period is 24 months, right? [1]", q, [chunk], "en")
    assert fixed.startswith("No — the documents say otherwise: The Founder shall not transfer") and note, (
        fixed
    )
    assert "right?" not in fixed, fixed


def test_a_draft_that_loses_nothing_keeps_its_lines() -> None:
    draft = "月租金为9500元[1]。\n押金另见第四条[2]。"
    fixed, _ = enforce_correction(draft, Q, [RENT, OTHER], "zh")
    assert fixed.endswith(draft), fixed


def test_when_one_document_states_the_premise_and_another_denies_it_the_answer_says_they_differ() -> None:
    """Try-out (session 36): "The probation period is 90 days, right?" over two employment agreements (ninety
    days in one, six months in the other) was answered "No" from the six-month one."""
    six = EvidenceBlock(
        1, "EMPLOYMENT AGREEMENT", "acme.txt", 1, "2", "The first six (6) months are a probationary period.",
        conflicting=True,
    )  # fmt: skip
    ninety = EvidenceBlock(
        2, "EMPLOYMENT AGREEMENT", "beta.docx", 1, "1.2",
        "1.1 Employment starts on 1 May. 1.2 The first ninety (90) days of employment are a probationary period.",
        affirming=True,
    )  # fmt: skip
    q = "The probation period is 90 days, right?"
    fixed, note = enforce_correction("No, the probation period is six months [1].", q, [six, ninety], "en")
    assert fixed.splitlines() == [
        "The documents differ:",
        "beta.docx: “1.2 The first ninety (90) days of employment are a probationary period.” [2]",
        "acme.txt: “The first six (6) months are a probationary period.” [1]",
        "The probation period is six months [1].",  # the draft without its "No": true of one document only
    ]
    assert note
    # distinct titles name the documents
    titled = [
        replace(six, title="Acme Employment Agreement"),
        replace(ninety, title="Beta Employment Agreement"),
    ]
    fixed, _ = enforce_correction("", "试用期是90天，对吗？", titled, "zh")
    assert fixed.splitlines()[0] == "各文件约定不一致："
    assert fixed.splitlines()[1].startswith("Beta Employment Agreement：“1.2 The first ninety (90) days")
    # without an affirming block the answer is corrected as before
    assert enforce_correction("", q, [six], "en")[0].startswith("No — the documents say otherwise:")


FEE_TABLE = EvidenceBlock(
    1, "物业服务合同", "物业服务合同.docx", None, "第四条 物业服务费",
    "第四条 物业服务费\n物业类型 | 收费标准（元/平方米·月） | 备注\n多层住宅 | 1.20 | 含公共区域保洁\n高层住宅 | 2.30 | 含电梯运行\n"
    "商铺 | 3.50 | 不含垃圾清运",
    conflicting=True,
)  # fmt: skip


def test_a_table_row_is_read_and_quoted_under_its_header() -> None:
    """Session 44 browser: "Is the fee for shops 2 yuan per square metre?" was corrected with the 多层住宅 row (read
    alone, no row is the shops' and every bare number is the same), and "商铺的物业费是每平方米2元，对吗？" with
    "商铺 | 3.50 | 不含垃圾清运", which names neither the unit nor what 3.50 is."""
    zh, _ = enforce_correction(
        "是的，商铺的物业费是每平方米2元[1]。", "商铺的物业费是每平方米2元，对吗？", [FEE_TABLE], "zh"
    )
    assert zh.startswith("不对：物业类型：商铺；收费标准（元/平方米·月）：3.50；备注：不含垃圾清运 [1]"), zh
    en, _ = enforce_correction(
        "Yes, the fee for shops is 2 yuan [1].",
        "Is the fee for shops 2 yuan per square metre?",
        [FEE_TABLE],
        "en",
    )
    assert en.startswith(
        "No — the documents say otherwise: 物业类型：商铺；收费标准（元/平方米·月）：3.50"
    ), en


SLA_TABLE = EvidenceBlock(
    1, "SaaS Subscription Agreement", "saas.docx", 4, "4. Service Levels",
    "Monthly Uptime | Service Credit (%)\n99.9% or higher | 0\n99.0% to below 99.9% | 10\n95.0% to below 99.0% | 25\n"
    "below 95.0% | 50",
    conflicting=True,
)  # fmt: skip


def test_a_premise_about_a_tier_is_corrected_with_the_tier_the_condition_falls_in() -> None:
    """Session 45: "Is the customer entitled to a service credit of 10% if uptime is 98%?" — 10 % is a value of the
    table (the 99.0-99.9 % tier), so a draft affirming it was not caught, and the correction line could quote any row
    whose value differs (the 99.9 % row's 0 first)."""
    q = "Is the customer entitled to a service credit of 10% if uptime is 98%?"
    fixed, note = enforce_correction("Yes, the customer gets 10% [1].", q, [SLA_TABLE], "en")
    assert (
        fixed
        == "No — the documents say otherwise: Monthly Uptime: 95.0% to below 99.0%; Service Credit (%): 25 [1]"
    )
    assert note
