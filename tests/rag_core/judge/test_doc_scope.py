"""Document scope: a document that uses a small strict part of the question's words, where another
searched document uses them all, cannot hold the question's evidence."""

from __future__ import annotations

import json

import pytest

from rag_core.judge.classify import EVIDENCE, INJECTION
from rag_core.judge.doc_scope import (
    COMMON_TERMS_PATH,
    apply_doc_scope,
    cap_to_cited,
    cap_verdict,
    checkable,
    common_terms,
    common_title_terms,
    covered_terms,
    dominated,
    fit_common_terms,
    naming_terms,
    out_by_role,
    out_by_title,
    out_of_scope,
    scope_sweep,
)
from rag_core.models import Verdict
from rag_core.settings import JudgeTrainSettings, VerdictSettings
from tests.fixtures.data import TRAIN

LEASE = (
    "房屋租赁合同\n第三条 租金及支付方式 月租金为人民币6800元，乙方应于每月5日前支付。\n"
    "第四条 押金 乙方应支付押金人民币13600元，租期届满后30日内退还。\n"
    "第八条 争议解决 因本合同引起的争议，向房屋所在地人民法院提起诉讼。"
)
SHARES = (
    "股权转让协议\n第一条 甲方将其持有的杭州云帆科技有限公司30%的股权转让给乙方。\n"
    "第二条 转让价款 本次股权转让价款为人民币六百万元，乙方应于签订之日起十个工作日内支付。\n"
    "第四条 争议解决 因本协议引起的争议，提交杭州仲裁委员会仲裁。"
)
LICENCE = (
    "SOFTWARE LICENSE AGREEMENT\n2. FEES. Licensee shall pay an annual license fee of USD 84,000, payable within "
    "thirty (30) days; late payments bear interest of 1% per month.\n"
    "8. GOVERNING LAW. This Agreement is governed by the laws of the State of New York."
)
DOCS = {"lease": ("租赁合同.txt", LEASE), "shares": ("股权转让协议.txt", SHARES)}


def verdict(pid: str, evidence: float, label: str = "EVIDENCE") -> Verdict:
    scores = {INJECTION: 0.0, "contradicts_query_premise": 0.0, "is_relevant": 0.8, EVIDENCE: evidence}
    return Verdict(pid, scores, label, label == "EVIDENCE", label, "fitted", {}, "fitted", {})  # type: ignore[arg-type]


def test_a_question_about_the_share_price_scopes_out_the_lease() -> None:
    q = "股权转让价款是多少？ 那什么时候付？"
    assert covered_terms(q, SHARES) >= {"股权", "转让", "价款"}
    assert covered_terms(q, LEASE) == {"付"}
    gone = out_of_scope(q, DOCS, 0.5, 2)
    assert set(gone) == {"lease"}
    assert gone["lease"].other_doc == "股权转让协议.txt" and "股权" in gone["lease"].missing


def test_words_both_documents_use_scope_nothing_out() -> None:
    assert out_of_scope("争议怎么解决？", DOCS, 0.5, 2) == {}


def test_a_single_document_is_never_out_of_scope() -> None:
    assert out_of_scope("股权转让价款是多少？", {"lease": DOCS["lease"]}, 0.5, 2) == {}


def test_an_english_question_counts_a_chinese_document_s_translations() -> None:
    """The rent question is about the Chinese lease, not the English licence's 1% per month."""
    docs = {"lease": ("租赁合同.txt", LEASE), "licence": ("licence.txt", LICENCE)}
    gone = out_of_scope("What is the monthly rent under the lease?", docs, 0.5, 2)
    assert set(gone) == {"licence"}


def test_the_share_and_the_missing_words_decide_how_small_a_part_is_out() -> None:
    three = frozenset({"a", "b", "c"})
    assert dominated(frozenset({"a"}), three, 0.34, 2)
    assert not dominated(frozenset({"a", "b"}), three, 0.34, 1)
    assert dominated(frozenset({"a", "b"}), three, 0.67, 1)
    assert not dominated(frozenset({"a", "b"}), three, 0.67, 2)  # one word more may be another phrasing
    assert not dominated(three, three, 1.0, 0)  # strictly fewer words, never the same set


def test_words_most_contracts_use_name_no_document() -> None:
    """ "under" (in nearly every English contract) once kept a licence in scope for a lease question."""
    assert {"under", "agreement"} <= common_terms()
    assert "rent" not in common_terms()
    assert naming_terms("What is the monthly rent under the lease?") == ["rent", "lease"]


def test_a_capped_verdict_is_relabelled_with_its_reason() -> None:
    s = VerdictSettings()
    gone = out_of_scope(
        "股权转让价款是多少？ 那什么时候付？", DOCS, s.doc_scope_max_share, s.doc_scope_min_missing
    )["lease"]
    v = cap_verdict(verdict("c1", 0.78), gone, s)
    assert v.label == "NO_EVIDENCE" and not v.keep
    assert v.scores[EVIDENCE] == s.doc_scope_evidence_cap
    assert v.explanation_code.startswith("doc_out_of_scope") and "股权转让协议.txt" in v.explanation
    flagged = verdict("c2", 0.78, "INJECTION")
    assert cap_verdict(flagged, gone, s) is flagged  # a planted attack stays shown as it was


def test_apply_caps_only_the_out_of_scope_document_and_can_be_switched_off() -> None:
    q = "股权转让价款是多少？ 那什么时候付？"
    vs = [verdict("lease-1", 0.78), verdict("shares-1", 0.9)]
    doc_of = {"lease-1": "lease", "shares-1": "shares"}
    on = apply_doc_scope(q, vs, doc_of, DOCS, VerdictSettings())
    assert [v.label for v in on] == ["NO_EVIDENCE", "EVIDENCE"]
    off = apply_doc_scope(q, vs, doc_of, DOCS, VerdictSettings(scope_to_documents=False))
    assert [v.label for v in off] == ["EVIDENCE", "EVIDENCE"]


def test_the_sweep_reports_each_pair_on_fit_contracts() -> None:
    r = scope_sweep(TRAIN, JudgeTrainSettings(), contracts=6)
    assert r["questions"] > 0 and r["chosen"] in r["grid"]
    for m in (1, 2, 3):
        costs = [x["holder_scoped_out"] for x in r["grid"] if x["min_missing"] == m]
        assert costs == sorted(costs)  # a larger share can only scope out more
    assert 0 <= r["holder_scoped_out_by_title"] <= 1


def test_the_committed_common_words_are_what_train_doc_scope_fits() -> None:
    fitted = fit_common_terms(TRAIN, JudgeTrainSettings())
    assert json.loads(COMMON_TERMS_PATH.read_text(encoding="utf-8")) == fitted


def test_a_chinese_compound_counts_only_through_its_own_translations() -> None:
    """ "月租金" holds 月租 ("month"), but a licence that says "per month" does not speak of rent."""
    docs = {"lease": ("租赁合同.txt", LEASE), "licence": ("licence.txt", LICENCE)}
    assert not {"月租金", "租金"} & covered_terms(
        "月租金是多少？", LICENCE
    )  # jieba's 月租 alone may be "month"
    assert set(out_of_scope("月租金是多少？", docs, 0.5, 2)) == {"licence"}


def test_the_scope_note_follows_the_reason_when_the_label_stands() -> None:
    s = VerdictSettings()
    gone = out_of_scope(
        "股权转让价款是多少？ 那什么时候付？", DOCS, s.doc_scope_max_share, s.doc_scope_min_missing
    )["lease"]
    low = verdict("c3", 0.4, "NO_EVIDENCE")
    capped = cap_verdict(low, gone, s)
    assert capped.label == "NO_EVIDENCE" and capped.explanation_code == "fitted+doc_out_of_scope"


LEASE_TERM = "房屋租赁合同\n第二条 租赁期限 租赁期限自2025年3月1日起至2027年2月28日止，共计二十四个月。"
LICENCE_TERM = (
    "SOFTWARE LICENSE AGREEMENT\n4.1 This Agreement continues for an initial term of three (3) years.\n"
    "5.2 The obligations of this Section 5 continue for five (5) years after the termination of this Agreement."
)
TITLED = {
    "lease": ("房屋租赁合同.txt", LEASE_TERM),
    "licence": ("software_license_agreement.txt", LICENCE_TERM),
}


@pytest.mark.parametrize(
    "question",
    ["The lease term is five years, right?", "租赁合同的期限是多久？", "What is the term of the lease?"],
)
def test_a_question_naming_a_document_by_its_title_scopes_out_the_others(question: str) -> None:
    """The word-subset rule cannot see it (the licence uses "five", "year" and "term", the lease does
    not say "year"); the lease's title names the question's "lease" / 租赁 and the licence never does."""
    gone = out_of_scope(question, TITLED, 0.5, 2)
    assert set(gone) == {"licence"}, gone
    assert gone["licence"].other_doc == "房屋租赁合同.txt"


PARTNERSHIP = "合伙协议\n4.1 合伙企业的利润按各合伙人的实缴出资比例分配，每年分配一次。"
DISTRIBUTION = "EXCLUSIVE DISTRIBUTION AGREEMENT\n3.1 Distributor shall purchase the Products at the prices in Schedule A."


def test_a_verb_form_of_the_question_names_no_title() -> None:
    """ "distributed" asks about an act; its stem had matched the title "distribution agreement" and the
    partnership agreement, whose 4.1 answers, was scoped out (session 35). The noun still names it."""
    docs = {
        "partnership": ("合伙协议.pdf", PARTNERSHIP),
        "dist": ("distribution_agreement.txt", DISTRIBUTION),
    }
    assert out_by_title("How often are profits distributed?", docs) == {}
    assert set(out_by_title("How often are profits paid under the distribution agreement?", docs)) == {
        "partnership"
    }
    licensing = {"lic": ("licensing_agreement.txt", LICENCE_TERM), "lease": ("房屋租赁合同.txt", LEASE_TERM)}
    assert set(out_by_title("What does the licensing agreement say about term?", licensing)) == {"lease"}


def test_a_word_most_contracts_use_but_few_titles_names_a_document() -> None:
    """ "license" and "fee" are in most training contracts' text, so the text-common words left "When is
    the license fee due?" naming nothing, and the lease's deposit clause (七日内) was quoted for it."""
    assert "license" in common_terms() and "license" not in common_title_terms()
    assert "agreement" in common_title_terms()
    gone = out_by_title("When is the license fee due?", TITLED)
    assert set(gone) == {"lease"} and gone["lease"].missing == ("license",)


@pytest.mark.parametrize(
    "question",
    [
        "合同的期限是多久？",
        "What is the term of the agreement?",
        "What does the lease say about termination, and what does the software licence say?",
    ],
)
def test_a_question_naming_no_title_or_every_title_scopes_out_nothing_by_title(question: str) -> None:
    """合同 names no document (every rendering of it is a word most contracts use)."""
    assert out_by_title(question, TITLED) == {}


def test_the_scope_note_names_the_words_the_lawyer_asked_not_their_stems() -> None:
    # "What is the purchase price for the shares?" said 问题里的“shar”出现在《股权转让协议.txt》中.
    docs = {"shares": ("股权转让协议.txt", SHARES), "licence": ("licence.txt", LICENCE)}
    gone = out_of_scope("What is the purchase price for the shares?", docs, 0.5, 2)
    assert gone, "the licence should be out of scope"
    missing = gone["licence"].missing
    assert "shares" in missing and "shar" not in missing


def test_a_follow_up_is_held_to_the_documents_the_previous_answer_cited() -> None:
    """Passages of documents the previous answer did not cite are capped with the reason; INJECTION
    stands; nothing changes with no cited document or with document scope off."""
    s = VerdictSettings()
    verdicts = [verdict("a", 0.9), verdict("b", 0.86), verdict("c", 0.3, "INJECTION")]
    doc_of = {"a": "lease", "b": "shares", "c": "shares"}
    capped = cap_to_cited(verdicts, doc_of, {"lease": "租赁合同.txt"}, s)
    assert capped[0] == verdicts[0]
    assert capped[1].label == "NO_EVIDENCE" and capped[1].scores[EVIDENCE] == s.doc_scope_evidence_cap
    assert capped[1].explanation_code.startswith("follow_up_other_document")
    assert capped[1].explanation_params["scope_doc"] == "租赁合同.txt"
    assert capped[2] == verdicts[2]
    assert cap_to_cited(verdicts, doc_of, {}, s) == tuple(verdicts)
    off = VerdictSettings(scope_to_documents=False)
    assert cap_to_cited(verdicts, doc_of, {"lease": "租赁合同.txt"}, off) == tuple(verdicts)


def test_a_word_the_document_writes_with_a_glossary_synonym_is_a_word_it_uses() -> None:
    """ "租期从什么时候开始？": the lease writes 租赁期限 (not 租期) and 生效 (not 开始); an English
    licence "used" both through their translations (term, commence) and the lease was scoped out."""
    lease = "房屋租赁合同\n第二条 租赁期限 租赁期限自2025年3月1日起至2027年2月28日止。\n第九条 本合同自双方签字之日起生效。"
    licence = "LICENSE AGREEMENT\n4.1 This Agreement commences on the Effective Date and continues for a term of three years."
    docs = {"lease": ("租赁合同.txt", lease), "licence": ("licence.txt", licence)}
    assert {"租期", "开始"} <= covered_terms("租期从什么时候开始？", lease)
    assert "lease" not in out_of_scope("租期从什么时候开始？", docs, 0.5, 2)


LABOUR = (
    "劳动合同\n用人单位（甲方）：北京知行软件有限公司\n劳动者（乙方）：王某\n"
    "第六条 劳动合同的解除 乙方提前三十日以书面形式通知甲方，可以解除本合同。"
)
PARTIES_LICENCE = (
    'SOFTWARE LICENSE AGREEMENT\nNorthwind Software Inc. ("Licensor") and Bluefield Analytics LLC ("Licensee").\n'
    "4.2 Either party may terminate this Agreement upon thirty (30) days' written notice if the other party "
    "materially breaches this Agreement."
)
ROLES = {"labour": ("劳动合同.txt", LABOUR), "licence": ("licence.txt", PARTIES_LICENCE)}


def test_a_party_role_only_one_contract_has_scopes_out_the_others() -> None:
    """ "公司可以随时辞退员工吗？" quoted the licence's "Either party may terminate …" (辞退 is "terminate" through
    the glossary, 员工 in neither text); only the labour contract has an employee (劳动者) among its parties."""
    q = "公司可以随时辞退员工吗？"
    assert out_by_title(q, ROLES) == {} and out_of_scope(q, ROLES, 0.5, 2).keys() == {"licence"}
    why = out_by_role(q, ROLES)["licence"]
    assert why.by_role and why.missing == ("员工",) and why.other_doc == "劳动合同.txt"
    gone = out_by_role("Can the licensee terminate the agreement?", ROLES)
    assert set(gone) == {"labour"} and gone["labour"].missing == ("licensee",)


def test_a_document_named_by_its_title_stays_beside_another_named_by_a_role() -> None:
    """Try-out (session 32): "技术开发合同和经销协议…" named the distribution agreement's Distributor (经销), and
    the development contract, named by its own title, was scoped out by the role rule."""
    docs = {
        "dev": (
            "技术开发合同.txt",
            "技术开发合同\n委托方（甲方）：杭州云帆智能科技有限公司\n第八条 争议解决\n提交杭州仲裁委员会仲裁。",
        ),
        "dist": (
            "distribution_agreement.txt",
            'EXCLUSIVE DISTRIBUTION AGREEMENT\nMeridian Health Supplies Pte. Ltd. ("Distributor")\n7. Disputes go to SIAC.',
        ),
    }
    q = "技术开发合同和经销协议的争议解决方式有什么不同？"
    assert "dev" in out_by_role(q, docs)  # the role rule alone would scope it out
    assert out_of_scope(q, docs, 0.5, 2) == {}


def test_the_role_note_says_the_role_is_a_party_elsewhere() -> None:
    why = out_by_role("公司可以随时辞退员工吗？", ROLES)["licence"]
    v = cap_verdict(verdict("p", 0.6), why, VerdictSettings())
    assert (
        v.explanation_code.startswith("doc_out_of_scope_role")
        and "is a party to 劳动合同.txt" in v.explanation
    )


@pytest.mark.parametrize(
    "question",
    [
        "乙方可以转租吗？",  # a position every Chinese contract has, not a kind of party
        "合同可以转让给第三方吗？",
        "Can either party terminate the agreement?",
        "Can the employee or the licensee terminate?",  # a role of each contract: neither is out
    ],
)
def test_a_role_of_no_one_party_or_of_every_contract_scopes_out_nothing(question: str) -> None:
    assert out_by_role(question, ROLES) == {}


def test_a_contract_that_uses_the_role_word_stays_in_scope() -> None:
    """The licence may say what happens to the licensee's employees: then it can answer."""
    employees = (
        PARTIES_LICENCE + "\n6.1 Licensee shall ensure that its employees keep the Software confidential."
    )
    assert out_by_role("员工需要保密吗？", {**ROLES, "licence": ("licence.txt", employees)}) == {}


def test_a_word_inside_a_compound_is_not_the_word() -> None:
    """Session 35: "share" in a lease's "proportionate share" counted as the question's "shareholders'", so the
    lease's governing-law clause stayed in scope beside the shareholders' agreement's and was quoted."""
    docs = {
        "sha": (
            "shareholders_agreement.pdf",
            "SHAREHOLDERS' AGREEMENT\n8. This Agreement is governed by English law.",
        ),
        "lease": (
            "commercial_lease.md",
            "COMMERCIAL LEASE\n3.4 Tenant shall pay its proportionate share of taxes.\n10. New York law governs.",
        ),
    }
    assert set(out_by_title("Which law governs the shareholders' agreement?", docs)) == {"lease"}
    disclosure = {
        "nda": ("nda.txt", "MUTUAL NDA\nThe Recipient shall not disclose Confidential Information."),
        **docs,
    }
    assert "nda" not in out_of_scope("What disclosure is allowed under the NDA?", disclosure, 0.5, 2)


TRADEMARK = "商标使用许可合同\n许可人（甲方）：广州百川食品有限公司\n被许可人（乙方）：成都蜀味餐饮管理有限公司\n第六条 未经甲方书面同意，乙方不得将许可商标再许可给任何第三方。"


def test_a_title_named_document_is_out_beside_one_whose_text_uses_its_title_words() -> None:
    """Session 35: "Can the licensee sublicense the trademark?" named the trademark licence (trademark) and the
    software licence (licensee) by title; neither was scoped out and the software licence's "non-sublicensable"
    was quoted first. The trademark licence's text names a licensee (被许可人); the software licence's never
    says trademark. Two documents each with a word the other's text lacks stay."""
    docs = {
        "tm": ("商标使用许可合同.docx", TRADEMARK),
        "licence": ("software_license_agreement.txt", LICENCE_TERM),
    }
    gone = out_by_title("Can the licensee sublicense the trademark?", docs)
    assert set(gone) == {"licence"} and gone["licence"].missing == ("trademark",), gone
    both = {"tm": ("商标使用许可合同.docx", TRADEMARK), "lease": ("房屋租赁合同.txt", LEASE_TERM)}
    assert out_by_title("Compare the trademark licence and the lease.", both) == {}


def test_a_chinese_title_word_names_its_title_though_its_rendering_is_common() -> None:
    """Browser (session 35): 商标 ("trademark", a word most training contracts use) named nothing, so "商标许可合同有保密条款
    吗？" kept the software licence (named by 许可 like the trademark licence) in scope and quoted its confidentiality
    definition instead of refusing. 合同 ("agreement", a title word) still names nothing."""
    docs = {
        "tm": ("商标使用许可合同.docx", TRADEMARK),
        "licence": ("software_license_agreement.txt", LICENCE_TERM),
    }
    gone = out_by_title("商标许可合同有保密条款吗？", docs)
    assert set(gone) == {"licence"} and gone["licence"].missing == ("商标",), gone
    assert out_by_title("合同的期限是多久？", docs) == {}


def test_the_words_that_ask_for_a_period_or_an_amount_name_no_document() -> None:
    """Session 38 try-out: "How long does the confidentiality obligation last after termination?" scoped a SaaS
    agreement's "These obligations survive for five (5) years after termination" out, silent on "long" and "last",
    words a hosting agreement used elsewhere; the answer quoted another contract."""
    q = "How long does the confidentiality obligation last after termination?"
    assert not {"long", "last"} & set(naming_terms(q))
    hosting = (
        "The Licensee shall keep Confidential Information confidential for as long as it is held. The licence "
        "shall last for the term. Upon termination the obligations of this Section survive."
    )
    saas = "6.2 These obligations survive for five (5) years after termination of the confidentiality period."
    docs = {"hosting": ("hosting.txt", hosting), "saas": ("saas.pdf", saas)}
    assert "saas" not in out_of_scope(q, docs, 0.5, 2)
    # a word of the question's subject still names a document: "the last day" is no asking word
    assert "last" in naming_terms("What is the last day of the term?")
    assert "much" not in naming_terms("How much is the annual fee?")
    # nor do the numbers a question asserts (jieba's 十二 / 二个 / 十二个 of 十二个月)
    assert not {"十二", "二个", "十二个", "90"} & set(
        naming_terms("借款期限是十二个月，对吗？ The term is 90 days?")
    )
    assert "借款" in naming_terms("借款期限是十二个月，对吗？")


def test_a_lease_s_floor_area_does_not_bring_it_into_a_construction_question() -> None:
    """Session 42 try-out: "工程款怎么支付？" kept the lease's late-rent clause as evidence beside the construction
    contract's payment table: its 建筑面积 counted as using 工程 (a glossary sibling through "building")."""
    docs = {
        "works": (
            "建设工程施工合同.docx",
            "建设工程施工合同\n第三条 合同价款与支付\n工程款按下表支付：预付款10%。",
        ),
        "lease": (
            "zh_lease.pdf",
            "房屋租赁合同\n第一条 房屋建筑面积为120平方米。\n第七条 乙方逾期支付租金超过15日的，甲方有权解除本合同。",
        ),
    }
    assert set(out_of_scope("工程款怎么支付？", docs, 0.5, 2)) == {"lease"}


def test_construed_is_not_construction() -> None:
    """Session 42 try-out: "shall be construed in accordance with" ("constru", a word most training contracts use)
    counted as the "construct" of 工程, so a distributor agreement stayed in scope for "工程款怎么支付？"."""
    assert "constru" in common_terms()
    docs = {
        "works": (
            "建设工程施工合同.docx",
            "建设工程施工合同\n第三条 合同价款与支付\n工程款按下表支付：预付款10%。",
        ),
        "dist": (
            "distributor.txt",
            "5.3 The Distributor must pay each invoice within 30 days.\n"
            "20. This agreement shall be construed in accordance with the laws of Victoria.",
        ),
    }
    assert covered_terms("工程款怎么支付？", docs["dist"][1]) == frozenset({"支付"})
    assert set(out_of_scope("工程款怎么支付？", docs, 0.5, 2)) == {"dist"}


def test_words_the_other_language_cannot_use_scope_out_no_document_in_it() -> None:
    """Session 44 try-out: "What late fee applies to unpaid property fees?" scoped both Chinese property contracts out
    because an English lease uses "applies" and "unpaid" — words no Chinese contract can use and the glossary does not
    translate — and a CUAD reseller's late charge was answered. Words the glossary translates still decide."""
    property_zh = "第三条 物业服务费\n物业服务费按季度预交。逾期交纳的，每日按应交金额的万分之三加收滞纳金。"
    lease_en = (
        "4. Rent. The Tenant shall pay the rent monthly. A late fee of 5% applies to any unpaid rent and to any "
        "unpaid service fees."
    )
    docs = {"p": ("物业服务合同.docx", property_zh), "l": ("commercial_lease.docx", lease_en)}
    assert "p" not in out_of_scope("What late fee applies to unpaid property fees?", docs, 0.5, 2)
    assert "p" not in out_of_scope("What late fee applies to unpaid rent?", docs, 0.5, 2)
    shares = {"s": ("股权转让协议", SHARES), "l": ("commercial_lease.docx", lease_en)}
    assert "l" in out_of_scope(
        "股权转让价款什么时候支付？", shares, 0.5, 2
    )  # a Chinese question, an English lease


def test_a_piece_of_a_chinese_compound_that_translates_still_scopes_out_an_english_document() -> None:
    """jieba cuts 试用期 into 试用 and 试用期; the piece has no translation of its own, but the compound does, so both
    are words an English contract could use: "试用期工资是多少？" kept scoping an English reseller agreement out beside
    the labour contract only once the piece counted (session 44, after the rule above)."""
    assert checkable(frozenset({"试用", "试用期", "工资"}), False) == {"试用", "试用期", "工资"}
    assert checkable(frozenset({"unpaid", "fee"}), True) == {"fee"}
