"""Key facts of answer sentences: parties by role, obligations bound to their party."""

from __future__ import annotations

import pytest

from rag_core.reflection.facts import (
    Obligation,
    asked_actor,
    fractions_as_wholes,
    missing_named_clauses,
    missing_roles,
    obligations,
    other_actor,
    parties,
    party_aliases,
    same_actor,
    sentence_actors,
    shortened_definitions,
    unbacked_permission,
)
from rag_core.settings import ReflectionSettings

LEASE_ZH = "第五条 押金。乙方应于签约时向甲方支付押金人民币19000元，租赁期满且乙方无违约的，甲方应当在10日内无息退还押金。"
LEASE_EN = (
    "The Tenant shall pay a deposit of $5,000. The Landlord shall return the deposit within 30 days after "
    "the lease ends."
)


def test_parties_are_read_by_role_with_synonyms() -> None:
    assert parties("房东应退还押金，租客应按时付租") == {"lessor", "lessee"}
    assert parties("The Licensee may sublicense; the licensor may audit.") == {"licensee", "licensor"}
    assert parties("被许可方应支付许可费") == {"licensee"}  # not also 许可方


def test_an_obligation_is_bound_to_the_party_before_its_modal() -> None:
    assert obligations("乙方不得转租房屋") == {Obligation("party_b", "prohibition")}
    assert obligations("The Landlord may enter the premises.") == {Obligation("lessor", "permission")}
    assert obligations("甲方应当在10日内退还押金") == {Obligation("party_a", "duty")}


@pytest.mark.parametrize(
    ("sentence", "evidence", "missing"),
    [
        ("甲方有权扣留押金。", LEASE_ZH, ["permission of party_a"]),  # invented right
        ("甲方应当在10日内退还押金。", LEASE_ZH, []),
        ("丙方应支付押金。", LEASE_ZH, ["party party_c"]),
        ("The landlord may keep the deposit.", LEASE_EN, ["permission of lessor"]),
        ("The landlord must return the deposit.", LEASE_EN, []),
        ("The buyer shall pay the price.", LEASE_EN, ["party buyer"]),
    ],
)
def test_missing_roles(sentence: str, evidence: str, missing: list[str]) -> None:
    assert missing_roles(sentence, evidence) == missing


def test_a_party_the_question_names_is_its_subject_unless_bound_to_an_obligation() -> None:
    probation = "The first six (6) months of employment are a probationary period."
    assert missing_roles("员工的试用期为6个月", probation) == ["party employee"]
    assert missing_roles("员工的试用期为6个月", probation, asked="员工的试用期是多久？") == []
    assert missing_roles(
        "The employee shall give notice.", probation, asked="How long is the employee's probation?"
    )


AMENDMENT = (
    "14. Amendment. This Agreement may be amended only by a written instrument signed by both parties."
)


@pytest.mark.parametrize(
    ("sentence", "evidence", "missing"),
    [
        ("The agreement contains a force majeure clause [1].", AMENDMENT, ["clause 'force majeure'"]),
        ("The agreement contains an amendment clause [1].", AMENDMENT, []),
        ("合同约定了不可抗力条款 [1]。", "第六条 保密 双方应对商业秘密保密。", ["clause '不可抗力'"]),
        ("合同约定了保密条款 [1]。", "第六条 保密 双方应对商业秘密保密。", []),
        ("The Agreement may be amended only in writing [1].", AMENDMENT, []),
    ],
)
def test_a_named_clause_must_be_named_in_the_evidence(
    sentence: str, evidence: str, missing: list[str]
) -> None:
    assert missing_named_clauses(sentence, evidence, ReflectionSettings().named_clause_min_share) == missing


LEASE_HEAD = "房屋租赁合同\n\n出租方（甲方）：北京华信置业有限公司\n承租方（乙方）：李明\n"
LATE = "乙方逾期支付租金的，每逾期一日，应按当季租金的千分之五向甲方支付违约金；逾期超过十五日的，甲方有权解除合同。"


def test_a_contract_says_which_role_each_letter_party_is() -> None:
    assert party_aliases(LEASE_HEAD) == {("party_a", "lessor"), ("party_b", "lessee")}
    assert party_aliases("借款人（以下简称“乙方”）：张三；贷款人（以下简称“甲方”）") == {
        ("party_b", "borrower"),
        ("party_a", "lender"),
    }
    assert party_aliases("甲方（转让方）：王建国") == {("party_a", "transferor")}
    assert party_aliases("甲方应于七日内退还押金。") == frozenset()  # no definition, no alias


def test_a_letter_party_stands_for_the_role_its_contract_gives_it() -> None:
    """Browser try-out: "What happens if rent is paid late?" fell back to the quotes because every
    sentence of the model's answer named "the tenant"/"the landlord" and the late-payment clause says
    乙方/甲方 ("fact(s) not in the cited evidence: party lessee, party lessor"). With the lease's own
    definitions the parties are stated; an obligation given to the wrong party is still caught."""
    aliases = party_aliases(LEASE_HEAD)
    right = "If the tenant fails to pay the rent within 15 days, the landlord has the right to terminate the lease."
    assert missing_roles(right, LATE) == ["party lessee", "party lessor"]
    assert missing_roles(right, LATE, aliases) == []
    assert missing_roles("The tenant has the right to terminate the lease.", LATE, aliases) == [
        "permission of lessee"
    ]
    assert missing_roles("承租方应按当季租金的千分之五支付违约金。", LATE, aliases) == []
    assert missing_roles("The borrower shall pay a penalty.", LATE, aliases) == ["party borrower"]


SUBLET = "第六条 转租 未经甲方书面同意，乙方不得将房屋转租。乙方擅自转租的，甲方有权解除本合同。"
LICENCE = "2.1 The license is non-sublicensable. Licensee may use the Software internally."
EARLY = "Can the tenant terminate the lease early?"


@pytest.mark.parametrize(
    ("question", "answer", "text", "role"),
    [
        (EARLY, "This is allowed under the contract [1].", SUBLET, "lessee"),
        ("乙方可以提前解除合同吗？", "可以，乙方有权提前解除合同 [1]。", SUBLET, "party_b"),
        (EARLY, "No, only the landlord may terminate [1].", SUBLET, ""),
        ("Can the landlord terminate the lease?", "Yes, the landlord may terminate [1].", SUBLET, ""),
        (EARLY, "The landlord can terminate it [1].", SUBLET, ""),
        (EARLY, "Yes, the tenant can terminate it [1].", SUBLET, "lessee"),
        ("Can the tenant sublet?", "Yes, but only with the landlord's written consent [1].", SUBLET, ""),
        ("What is the rent?", "The rent can be paid quarterly [1].", SUBLET, ""),
        ("Can the licensee use the software?", "Yes, the licensee may use it internally [1].", LICENCE, ""),
    ],
)
def test_a_yes_needs_the_asked_partys_permission_in_the_evidence(
    question: str, answer: str, text: str, role: str
) -> None:
    """A plain yes to "may this party …?" is unbacked when no block gives that party any permission
    (the lease's letter parties read through its definitions); a no, a conditioned yes, a question
    that asks no permission, or a party that holds a right is left alone. Role-level only: a
    permission of the same party to do something else also backs it."""
    assert unbacked_permission(question, answer, [(text, party_aliases(LEASE_HEAD))]) == role


def test_a_forum_the_evidence_never_names_is_a_missing_fact() -> None:
    """The local model added arbitration to a lease that sends disputes to a court; arbitration and the
    courts exclude each other, so it is a wrong fact, not a paraphrase."""
    from rag_core.reflection.facts import missing_forums

    court = "因本合同引起的争议，协商不成的，任何一方均可向房屋所在地人民法院起诉。"
    assert missing_forums("如果协商不成，可以向有关仲裁机构申请仲裁。", court) == ["forum arbitration"]
    assert missing_forums("协商不成的，可以向法院提起诉讼。", court) == []
    assert missing_forums("Disputes go to arbitration in Shanghai.", court) == ["forum arbitration"]
    arbitration = "Any dispute shall be finally settled by arbitration in Singapore."
    assert missing_forums("Either party may sue in the courts of Singapore.", arbitration) == ["forum court"]
    assert missing_forums("争议应提交仲裁。", arbitration) == []


def test_a_deadline_counted_from_an_event_is_not_moved_onto_the_event() -> None:
    """The local model wrote "due on the Effective Date" for "within thirty (30) days after the Effective
    Date" and the support check passed it (browser try-out)."""
    from rag_core.reflection.facts import dropped_deadlines

    fee = "3.2 The annual license fee is payable in advance within thirty (30) days after the Effective Date."
    assert dropped_deadlines("The license fee is due on the Effective Date [1].", fee) == [
        "deadline within thirty (30) days after the Effective Date"
    ]
    assert dropped_deadlines("It is payable within thirty (30) days after the Effective Date [1].", fee) == []
    assert (
        dropped_deadlines(
            "The Agreement starts on the Effective Date.", "It commences on the Effective Date."
        )
        == []
    )
    price = "乙方应于本协议生效之日起十五日内将全部转让价款支付至甲方指定账户。"
    assert dropped_deadlines("乙方应于本协议生效之日支付全部转让价款。", price) == [
        "deadline 协议生效之日起十五日内"
    ]
    assert dropped_deadlines("乙方应在协议生效之日起十五日内付款。", price) == []


PRICE_ZH = (
    "2.1 本合同总价款为人民币壹佰捌拾万元（¥1,800,000），含增值税。\n"
    "2.2 甲方应于本合同签订后十个工作日内支付合同总价款的30%作为首付款。"
)


def test_a_share_of_a_sum_is_not_the_sum() -> None:
    """Try-out (session 32): the local model answered "技术开发合同的总价款是30% [2]" from "支付合同总价款的30%作为
    首付款", and the support check passed it (30% and every word are in the clause)."""
    assert fractions_as_wholes("技术开发合同的总价款是30% [2]。", PRICE_ZH) == ["share 30% of 总价款"]
    assert fractions_as_wholes(
        "The total price is 30% [1].", "Buyer shall pay 30% of the total price on signing."
    )
    # the share said as a share, another sum's share, a rate stated as such: nothing misread
    assert fractions_as_wholes("首付款为合同总价款的30% [2]。", PRICE_ZH) == []
    assert fractions_as_wholes("首付款是30%。", PRICE_ZH) == []
    assert fractions_as_wholes("The interest rate is 8% [1].", "The interest rate is 8% per annum.") == []


TERRITORY = '1.2 "Territory" means Singapore, Malaysia and Indonesia.'


def test_a_defined_list_restated_in_part_is_a_different_fact() -> None:
    """Browser try-out (session 32): "The territory under the distribution agreement is Singapore [1]."
    passed the check against a territory of three countries."""
    assert shortened_definitions(
        "The territory under the distribution agreement is Singapore [1].", TERRITORY
    ) == ["definition of territory also lists Malaysia, Indonesia"]
    assert shortened_definitions("The Territory is Singapore, Malaysia and Indonesia [1].", TERRITORY) == []
    assert shortened_definitions("本合同所称区域为北京。", "本合同所称区域，是指北京、上海和广州。") == [
        "definition of 区域 also lists 上海, 广州"
    ]
    # a sentence that does not restate the term, or a definition that is no list: nothing to compare
    assert shortened_definitions("Distributor may not sell outside Singapore [1].", TERRITORY) == []
    assert (
        shortened_definitions(
            "The Effective Date is January 15, 2027.", '"Effective Date" means January 15, 2027.'
        )
        == []
    )


def test_a_dispute_step_no_block_names_is_a_missing_forum() -> None:
    """Try-out (session 32): "经销协议中，争议解决方式是双方协商解决。" stood beside a development contract's
    arbitration clause (the distribution agreement's was not among the blocks)."""
    from rag_core.reflection.facts import missing_forums

    arbitration = "第八条 争议解决\n因本合同产生的争议，提交杭州仲裁委员会仲裁。"
    assert missing_forums("经销协议中，争议解决方式是双方协商解决。", arbitration) == ["forum negotiation"]
    assert (
        missing_forums("争议应先协商解决，协商不成的提交仲裁。", "双方协商解决；协商不成的，提交仲裁。") == []
    )


def test_a_sentence_that_only_uses_a_defined_term_restates_nothing() -> None:
    """The refusal bench's quoted grant "Licensor hereby grants Licensed Users a … license" was cut as a short
    restatement of '"Licensed Users" means Licensee and Licensee's subsidiaries' (it names Licensee)."""
    users = '"Licensed Users" means Licensee and Licensee\'s subsidiaries. 2.1 Licensor hereby grants Licensed Users a license.'
    assert (
        shortened_definitions(
            "Licensor hereby grants Licensed Users a license to use the Mark with Licensee's name.", users
        )
        == []
    )
    assert shortened_definitions("“2.1 Licensor hereby grants Licensed Users a license.” [1]", users) == []
    assert shortened_definitions("The Licensed Users are Licensee [1].", users) == [
        "definition of licensed users also lists Licensee's subsidiaries"
    ]


def test_crossed_pairings_read_each_value_with_its_nearest_partner() -> None:
    """The English form of session 36's misread: 70 % put in the 30 % clause's thirty days; values of one clause,
    or the two clauses each read rightly, are no crossing."""
    from rag_core.reflection.facts import crossed_pairings

    ev = (
        "Customer shall pay 30% of the fee within thirty (30) days after signing; "
        "the remaining 70% within sixty (60) days after acceptance."
    )
    assert crossed_pairings("The remaining 70% is due within thirty (30) days.", ev) == [
        "70% with thirty (30) days"
    ]
    assert crossed_pairings("Payment of 30% is due within thirty (30) days.", ev) == []
    assert crossed_pairings("30% is due within thirty (30) days, and 70% within sixty (60) days.", ev) == []


def test_a_period_in_working_days_where_the_evidence_counts_calendar_days_is_not_stated() -> None:
    """Session 38 try-out: "质保期是合同签订后十五个工作日内 [1]" passed as fully supported by a clause paying "十个工作日内"
    and "验收后十五日内"."""
    from rag_core.reflection.facts import other_day_counts

    clause = "甲方应于本合同签订后十个工作日内支付服务费总额的30%作为预付款；系统通过验收后十五日内支付60%。"
    assert other_day_counts("质保期是合同签订后十五个工作日内", clause) == ["十五个工作日"]
    assert other_day_counts("验收后十五日内支付60%", clause) == []
    assert other_day_counts("签订后十个工作日内支付30%", clause) == []
    assert other_day_counts(
        "Payment is due within 15 business days.", "Invoices are payable within fifteen (15) days."
    )
    assert not other_day_counts(
        "Payment is due within 15 days.", "Invoices are payable within fifteen (15) days."
    )


def test_the_acting_party_of_a_question_and_of_a_clause() -> None:
    """Who a question makes its subject, and who a clause opens with (the quoted answer puts clauses of the
    other party last); a party inside a condition is no subject."""
    assert asked_actor("乙方逾期交付的违约金怎么计算？") == "party_b"
    assert asked_actor("特许人可以在什么情况下解除合同？") == "franchisor"
    assert asked_actor("Can the provider raise prices on renewal?") == "seller"
    assert asked_actor("How long does the licensee have to pay?") == "licensee"
    assert asked_actor("What happens if the franchisee doesn't pay?") == ""
    assert asked_actor("如果乙方逾期交付，甲方可以怎么办？") == ""
    assert asked_actor("Who is the franchisor?") == ""
    assert asked_actor("What is the employee's annual salary?") == ""
    assert sentence_actors("6.1 Franchisor may terminate this Agreement if Franchisee fails to pay") == {
        "franchisor"
    }
    assert sentence_actors("甲方逾期付款的，每逾期一日，应按逾期金额的万分之五向乙方支付违约金。") == {
        "party_a"
    }
    assert sentence_actors("逾期超过30日的，甲方有权解除合同。") == {"party_a"}
    assert sentence_actors("甲方实行标准工时制度，乙方每日工作8小时。") == {"party_a", "party_b"}
    assert sentence_actors("Either party may terminate on notice.") == set()
    assert sentence_actors("If Franchisee fails to pay, the Franchisor may terminate.") == {"franchisor"}
    assert other_actor("party_a", "party_b") and other_actor("franchisor", "franchisee")
    assert not other_actor("consultant", "party_b")  # 承包人 and 乙方: unknown unless the contract says
    aliases = frozenset({("party_b", "consultant")})  # "承包人（乙方）"
    assert same_actor("consultant", "party_b", aliases) and not other_actor("consultant", "party_b", aliases)
    assert other_actor("client", "party_b", aliases)


def test_a_pdf_line_wrap_does_not_part_a_clause_s_values() -> None:
    """Session 43 try-out: a verbatim quote "甲方分三期支付：合同签订后7个工作日内支付30%；" was "not supported" (7 个工作日
    paired with 30%) because the PDF wrapped the clause after 支; and the answer lost its line breaks when the quote
    was cut."""
    from rag_core.reflection.facts import crossed_pairings, without_invented

    ev = "甲方分三期支付：合同签订后7个工作日内支\n付30%；测试版本交付后10个工作日内支付40%；验收合格后15个工作日内支付剩余30%。"
    assert crossed_pairings("甲方分三期支付：合同签订后7个工作日内支付30%；", ev) == []
    assert crossed_pairings("合同签订后10个工作日内支付30%。", ev) != []
    answer = "合同原文摘录：\n“甲。” [1]\n“乙。” [1]\n“丙。” [1]"
    assert without_invented(answer, ["“乙。” [1]"]) == "合同原文摘录：\n“甲。” [1]\n“丙。” [1]"


def test_a_lead_in_whose_items_were_all_cut_goes_with_them() -> None:
    """Session 43 browser: "乙方逾期交付的违约金计算方式如下：" stood over nothing once the model's list items were cut as
    unsupported. A lead-in still followed by a kept item stays."""
    from rag_core.reflection.facts import without_invented

    answer = "违约金计算方式如下：\n1. 按当季租金的千分之五 [2]\n\n因此，按千分之一计算 [1]。"
    assert without_invented(answer, ["1. 按当季租金的千分之五 [2]"]) == "因此，按千分之一计算 [1]。"
    listed = "The fees are as follows:\n1. USD 500 per month [1]\n2. USD 90 per hour [1]"
    assert (
        without_invented(listed, ["1. USD 500 per month [1]"])
        == "The fees are as follows:\n2. USD 90 per hour [1]"
    )
