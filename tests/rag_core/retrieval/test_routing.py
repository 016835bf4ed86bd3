from __future__ import annotations

from rag_core.retrieval.routing import RouteIndex, name_tokens, route, strip_names
from storage.rows import DocumentMeta

_RAW_DOCS = [
    {
        "id": "d1",
        "file_name": "GluMobileInc_Content License Agreement.txt",
        "title": "Wireless Content License Agreement",
        "terms": "Fox Mobile Entertainment, Inc.\nGlu Mobile Inc.",
    },
    {
        "id": "d2",
        "file_name": "FLOTEKINDUSTRIES_SUPPLY AGREEMENT.txt",
        "title": "Supply Agreement",
        "terms": "Flotek Industries\nFlorida Chemical Company",
    },
    {
        "id": "d3",
        "file_name": "DYNAMEX_TRANSPORTATION SERVICES AGREEMENT.txt",
        "title": "Transportation Services Agreement",
        "terms": "Dynamex Inc.",
    },
    {
        "id": "d4",
        "file_name": "房屋租赁合同.docx",
        "title": "房屋租赁合同",
        "terms": "北京华昌盛科技有限公司",
    },
]
DOCS = [DocumentMeta(**d) for d in _RAW_DOCS]


def _meta(doc_id: str, file_name: str, title: str = "", head: str = "") -> DocumentMeta:
    """A document known by its file name, title and opening block only."""
    return DocumentMeta(id=doc_id, file_name=file_name, title=title, terms="", head=head)


def test_routes_english_named_contract() -> None:
    q = "Consider the Supply Agreement between Flotek Industries and Florida Chemical Company; what is the term?"
    d = route(q, DOCS, 0.5)
    assert d is not None and d.doc_id == "d2"
    assert "flotek" in d.matched


def test_routes_chinese_book_title() -> None:
    d = route("在《房屋租赁合同》中，租金是多少？", DOCS, 0.5)
    assert d is not None and d.doc_id == "d4"


def test_no_route_for_generic_question() -> None:
    assert route("What is the governing law of the agreement?", DOCS, 0.5) is None
    assert route("违约金是多少？", DOCS, 0.5) is None


def test_no_route_with_single_document() -> None:
    assert route("Consider the Supply Agreement between Flotek", DOCS[1:2], 0.5) is None


def test_generic_words_do_not_count() -> None:
    assert "agreement" not in name_tokens("Supply Agreement")
    assert "supply" in name_tokens("SupplyAgreement")


def test_strip_names_removes_the_contract_name_but_keeps_the_question() -> None:
    from rag_core.retrieval.routing import strip_names

    q = "Which law governs the Master Services Agreement?"
    assert "law governs" in strip_names(q, ["master", "services"]).lower()
    assert "master" not in strip_names(q, ["master", "services"]).lower()
    assert strip_names("Master Services", ["master", "services"]) == "Master Services"


def test_what_is_left_of_a_naming_phrase_goes_with_the_name() -> None:
    """Browser try-out (session 32): "… under the agreement" was left for the judge, and a clause saying
    "under this Agreement" outscored the Territory definition."""
    from rag_core.retrieval.routing import strip_names

    assert strip_names("What is the territory under the distribution agreement?", ["distribution"]) == (
        "What is the territory?"
    )
    assert strip_names("Under the distribution agreement, what is the territory?", ["distribution"]) == (
        "what is the territory?"
    )
    # not at the end of a clause of the question: the words say more than which contract
    assert strip_names(
        "Can the Supplier terminate the Distribution Agreement for convenience?", ["distribution"]
    ) == ("Can the Supplier terminate the Agreement for convenience?")


def test_strip_names_cuts_whole_words_only() -> None:
    """A name word inside a longer word stays: the contract is 技术服务合同, the question is about 服务费."""
    from rag_core.retrieval.routing import strip_names

    assert strip_names("技术服务合同的服务费是多少？", ["技术", "服务"]) == "服务费是多少？"
    assert strip_names("房屋租赁合同的押金是多少？", ["房屋", "租赁"]) == "押金是多少？"
    assert strip_names("What does the Art Agreement say about the party's duties?", ["art"]) == (
        "What does the Agreement say about the party's duties?"
    )
    assert strip_names("The Flotek Supply Agreement?", ["flotek", "supply"]) == "The Flotek Supply Agreement?"


def test_a_name_word_said_again_after_the_name_is_the_questions_own() -> None:
    """Session 39 try-out: "物业服务合同的服务期限是多久？" was judged as "期限是多久？" and refused."""
    from rag_core.retrieval.routing import strip_names

    assert strip_names("物业服务合同的服务期限是多久？", ["物业", "服务"]) == "服务期限是多久？"
    assert strip_names("租赁合同的租赁期限是多久？", ["租赁"]) == "租赁期限是多久？"
    assert (
        strip_names("物业服务合同约定的竞业限制期限是多久？", ["物业", "服务"])
        == "约定的竞业限制期限是多久？"
    )


def test_question_names_are_proper_nouns_and_titles() -> None:
    from rag_core.retrieval.routing import question_names

    names = question_names(
        "Consider the Supply Agreement between Flotek Industries and Florida Chemical; What is the term?"
    )
    assert {"supply", "flotek", "industries", "florida", "chemical"} <= names
    assert "what" not in names and "consider" not in names
    assert question_names("在《房屋租赁合同》中，租金是多少？") == {"房屋", "租赁"}
    # a Chinese sentence's first Latin word names a contract (session 38: "SaaS 协议的年费是多少？" routed nowhere)
    assert question_names("SaaS 协议的年费是多少？") == {"saa", "saas"}
    assert question_names("NDA 的保密期限是多久？") == {"nda"}
    assert question_names("What is the term?") == set()
    # session 41: "…提前多久通知公司" is a question ending in 公司, not a company's name (it routed a follow-up by 提前,
    # 通知, 试用期 and judged "试用期内呢？" as "内呢？")
    assert question_names("员工想辞职要提前多久通知公司？") == set()
    assert question_names("试用期内想辞职要提前多久通知公司？") == set()
    assert "澄明" in question_names("上海澄明信息技术有限公司的注册地在哪里？")


def test_a_camel_case_name_is_a_word_whole_and_split() -> None:
    """Session 38 try-out: "The SaaS subscription fee is EUR 90,000 a year, right?" kept "SaaS" in the judged question
    (only "saa" had been matched) and the fee clause's EUR 84,000 was not read as contradicting it."""
    from rag_core.retrieval.routing import in_document_query, name_tokens, question_names

    assert {"saas", "saa", "subscription"} <= name_tokens("SaaS Subscription Agreement")
    # every piece a word: the name is not weighed a third time whole (a CUAD question on BioAmber's First Amendment)
    assert name_tokens("FuseMedical Inc") == {"fuse", "medical"}
    q = "The SaaS subscription fee is EUR 90,000 a year, right?"
    assert "SaaS" not in in_document_query(q, sorted(question_names(q)))


def test_in_document_query_drops_the_naming_segment() -> None:
    from rag_core.retrieval.routing import in_document_query

    q = "Consider the Supply Agreement between Flotek Industries and Florida Chemical; What is the term?"
    assert (
        in_document_query(q, ["supply", "flotek", "industries", "florida", "chemical"]) == "What is the term?"
    )
    assert in_document_query("在《房屋租赁合同》中，租金是多少？", ["房屋", "租赁"]) == "租金是多少？"


def test_routes_by_parties_in_the_opening_block() -> None:
    docs = [
        {
            "id": "a",
            "file_name": "BICYCLE_EX-10.11-SERVICE AGREEMENT.txt",
            "title": "SERVICE AGREEMENT",
            "terms": "",
            "head": "DATED 26 September 2019 BicycleTX Ltd and Nigel Crockett SERVICE AGREEMENT",
        },
        {
            "id": "b",
            "file_name": "THERAVANCE_SERVICE AGREEMENT.txt",
            "title": "SERVICE AGREEMENT",
            "terms": "",
            "head": "Theravance Biopharma UK Limited and Brett Haumann",
        },
    ]
    d = route(
        "Consider the Service Agreement between BicycleTX Ltd and Nigel Crockett; What is the term?",
        [DocumentMeta(**d) for d in docs],
        0.5,
    )
    assert d is not None and d.doc_id == "a"


_PURCHASE = DocumentMeta(
    id="d5",
    file_name="zh_purchase_utf8.txt",
    title="采购合同",
    terms="深圳市华南电子有限公司",
    head="采购合同 甲方：深圳市华南电子有限公司 乙方：杭州精工机械有限公司 上述货物",
)


def test_a_chinese_question_names_a_contract_by_its_kind() -> None:
    docs = [*DOCS, _PURCHASE]
    d = route("采购合同的货款是多少？", docs, 0.5)
    assert d is not None and d.doc_id == "d5" and d.matched == ["采购"]
    d = route("这份租赁合同约定的竞业限制期限是多久？", docs, 0.5)
    assert d is not None and d.doc_id == "d4"


def test_kind_words_route_only_by_titles_and_two_kinds_do_not_route() -> None:
    docs = [*DOCS, _PURCHASE]
    assert route("上述合同的付款期限是什么？", docs, 0.5) is None  # 上述 is in an opening block, not a title
    assert route("租赁合同和采购合同的付款期限有何不同？", docs, 0.5) is None
    assert route("合同的付款期限是什么？", docs, 0.5) is None


def test_a_kind_word_counts_in_titles_not_in_another_contracts_opening_block() -> None:
    """Try-out: "合伙协议的争议怎么解决？" was not routed (0.5 / 0.5) — the share transfer agreement's
    buyer, named in its opening block, is a 合伙企业 — and the answer quoted that agreement's court clause."""
    partnership = _meta("p1", "合伙协议.pdf", "合伙协议", "合伙人甲：张明\n合伙人乙：李华")
    shares = _meta(
        "s1",
        "股权转让协议.txt",
        "股权转让协议",
        "转让方（甲方）：王建国\n受让方（乙方）：宁波海曙投资合伙企业（有限合伙）",
    )
    d = route("合伙协议的争议怎么解决？", [*DOCS, partnership, shares], 0.5)
    assert d is not None and d.doc_id == "p1"
    d = route("宁波海曙投资合伙企业支付多少价款？", [*DOCS, partnership, shares], 0.5)
    assert d is not None and d.doc_id == "s1", "a company's name still counts in the opening block"


def test_a_currency_names_no_contract() -> None:
    """Tried in the browser: "The annual fee is USD 90,000, right?" routed to the one licence whose
    opening block states amounts in USD, and the judge then read the question without "USD": a bare
    90,000 that the premise check compared with the clause numbers 3 and 3.2."""
    docs = [
        *DOCS,
        DocumentMeta(id="d5", file_name="licence.txt", title="Licence", terms="", head="USD 84,000"),
    ]
    assert "usd" not in name_tokens("USD 84,000 Licence") and "licence" in name_tokens("USD 84,000 Licence")
    assert route("The annual fee is USD 90,000, right?", docs, 0.5) is None


def test_a_question_asking_which_company_names_none() -> None:
    """ "用人单位是哪家公司？" over a lease and an employment contract was routed to the employment
    contract by "用人单位是哪家公司" read as a company's name, and the judge was then asked "是哪家 ？"."""
    from rag_core.retrieval.routing import question_names

    assert question_names("用人单位是哪家公司？") == set()
    assert "昌盛" in question_names("北京华昌盛科技有限公司的租金是多少？")
    employment = DocumentMeta(
        id="d6",
        file_name="劳动合同.txt",
        title="劳动合同",
        terms="",
        head="劳动合同 用人单位（甲方）：北京知行软件有限公司 劳动者（乙方）：王某",
    )
    assert route("用人单位是哪家公司？", [DOCS[3], employment], 0.5) is None


def test_a_partys_role_is_not_stripped_as_the_contracts_name() -> None:
    """The share agreement's opening block writes "转让方（甲方）：…": routed by the company's name,
    "转让方是杭州恒信科技有限公司，对吗？" was judged as "是 ，对吗？"."""
    from rag_core.retrieval.routing import strip_names

    matched = ["公司", "恒信", "有限", "有限公司", "杭州", "科技", "转让", "转让方"]
    stripped = strip_names("转让方是杭州恒信科技有限公司，对吗？", matched)
    assert stripped.startswith("转让方") and "恒信" not in stripped, stripped
    kept = strip_names("甲方是北京华信置业有限公司吗？", ["甲方", "北京", "华信", "置业", "有限公司"])
    assert kept.startswith("甲方") and "华信" not in kept, kept
    # an English role may be the contract's title: "the Distributor Agreement" is its name
    assert "Distributor" not in strip_names("Which law governs the Distributor Agreement?", ["distributor"])


def test_an_english_question_names_a_contract_by_its_kind_in_lower_case() -> None:
    """ "When does the license agreement expire?" over a licence, a lease and an employment contract
    quoted the lease's and the employment contract's term dates: lower-case words name no contract
    unless they are a kind the titles say."""
    d = route("When does the license agreement expire?", DOCS, 0.5)
    assert d is not None and d.doc_id == "d1" and d.matched == ["license"]
    d = route("what is the term of the supply agreement?", DOCS, 0.5)
    assert d is not None and d.doc_id == "d2"
    assert route("What does the agreement say about notices?", DOCS, 0.5) is None
    assert route("Does this agreement have a non-compete?", DOCS, 0.5) is None


def test_a_kind_word_names_a_contract_whose_title_says_it_in_the_other_language() -> None:
    """ "许可协议的保密义务持续多久？" over an English licence and Chinese contracts quoted a share
    agreement's 保密 clause first: 许可 is "license" in the licence's title (glossary)."""
    d = route("许可协议的保密义务持续多久？", DOCS, 0.5)
    assert d is not None and d.doc_id == "d1"
    d = route("What is the deposit under the lease agreement?", DOCS, 0.5)
    assert d is not None and d.doc_id == "d4"  # 房屋租赁合同: lease is 租赁


def test_what_follows_under_the_names_the_contract() -> None:
    """ "Which court has jurisdiction over disputes under the license?" quoted a share agreement's
    arbitration clause: "under the license" names the licence when its title says "license"."""
    d = route("Which court has jurisdiction over disputes under the license?", DOCS, 0.5)
    assert d is not None and d.doc_id == "d1" and d.matched == ["license"]
    assert route("What must be paid under the terms?", DOCS, 0.5) is None  # no title says "terms"


def test_a_question_naming_two_contracts_routes_to_neither() -> None:
    """Try-out (session 32): "技术开发合同和经销协议的争议解决方式有什么不同？" was routed to the development contract
    alone: its name counted three times (技术开发, 技术, 开发) against the distribution agreement's once."""
    development = DocumentMeta(
        id="dev",
        file_name="技术开发合同.txt",
        title="技术开发合同",
        terms="",
        head="技术开发合同 委托方（甲方）",
    )
    distribution = DocumentMeta(
        id="dist",
        file_name="distribution_agreement.txt",
        title="EXCLUSIVE DISTRIBUTION AGREEMENT",
        terms="",
        head='EXCLUSIVE DISTRIBUTION AGREEMENT Nordhavn Medical ApS ("Supplier")',
    )
    docs = [development, distribution, *DOCS]
    assert route("技术开发合同和经销协议的争议解决方式有什么不同？", docs, 0.5) is None
    routed = route("技术开发合同的争议怎么解决？", docs, 0.5)
    assert routed is not None and routed.doc_id == "dev"


def test_a_chinese_name_routed_through_its_translation_is_stripped_too() -> None:
    """Session 33: "资产收购协议的托管期限是多久？" routed to the ASSET PURCHASE AGREEMENT by the translations of 资产
    and 收购, but the English matched words stripped nothing, and the judge labelled the preamble EVIDENCE."""
    assert strip_names("资产收购协议的托管期限是多久？", ["asset", "purchase"]) == "托管期限是多久？"
    assert strip_names("商业租赁合同的押金是多少？", ["commercial", "lease"]) == "押金是多少？"
    assert strip_names("押金是多少？", ["commercial"]) == "押金是多少？", "no name word, nothing to strip"


def test_a_legal_form_names_no_contract_and_a_chinese_strip_leaves_no_space() -> None:
    """Session 34: "合伙人对合伙企业的债务承担什么责任？" took "合伙人对合伙企业" for a company's name; its 企业 was
    stripped and the judge read "合伙人对合伙 的债务…", whose space the premise check cut into a clause."""
    assert "企业" not in name_tokens("宁波海曙投资合伙企业（有限合伙）")
    assert "公司" not in name_tokens("杭州云杉投资管理有限公司")
    assert strip_names("房屋租赁合同里约定的押金是多少？", ["房屋", "租赁"]) == "里约定的押金是多少？"
    assert " " not in strip_names("在北京明远科技有限公司的合同中押金是多少？", ["明远"])


def test_a_name_that_was_the_whole_phrase_takes_its_preposition_along() -> None:
    """Session 34: "What is the monthly base rent under the commercial lease?" was judged as "… under the ?"."""
    stripped = strip_names(
        "What is the monthly base rent under the commercial lease?", ["commercial", "lease"]
    )
    assert stripped == "What is the monthly base rent?"


def test_a_kind_several_titles_share_routes_to_all_of_them() -> None:
    """Session 34: "借款协议适用哪里的法律？" over a 借款合同 and an English TERM LOAN AGREEMENT tied (借款 ↔ loan),
    routed nowhere, and the English governing-law clause was never retrieved."""
    zh_loan = _meta("z1", "借款合同.txt", "借款合同", "出借人（甲方）：上海恒信")
    en_loan = _meta("e1", "loan_agreement.docx", "TERM LOAN AGREEMENT", "Harbor Point Bank")
    docs = [*DOCS, zh_loan, en_loan]
    d = route("借款协议适用哪里的法律？", docs, 0.5, same_kind_max=3)
    assert d is not None and d.doc_ids == ["z1", "e1"] and d.runner_up < 0.5
    assert "借款" in d.matched
    assert route("借款协议适用哪里的法律？", docs, 0.5, same_kind_max=1) is None, "1: never"
    # one contract says more of the question: it alone is routed, as before
    d = route("What is the rate under the term loan agreement?", docs, 0.5, same_kind_max=3)
    assert d is not None and d.doc_ids == ["e1"]
    # two kinds named: a comparison is still routed nowhere
    assert route("租赁合同和采购合同的付款期限有何不同？", [*DOCS, _PURCHASE], 0.5, same_kind_max=3) is None


def test_a_kind_names_contracts_not_laws() -> None:
    """Session 34: with kind words counted in titles alone, "家庭承包的土地承包经营合同还有效吗？" over statute articles
    was routed to the one titled "农村土地承包经营纠纷调解仲裁法第二条" and searched there only."""
    law = _meta("l1", "农村土地承包经营纠纷调解仲裁法第二条.txt")
    other = _meta("l2", "民法典第三百三十四条.txt", "", "土地承包经营权人")
    assert route("家庭承包的土地承包经营合同还有效吗？", [*DOCS, law, other], 0.5, same_kind_max=3) is None
    lease = _meta("c1", "土地承包经营合同.txt")
    d = route("家庭承包的土地承包经营合同还有效吗？", [*DOCS, law, other, lease], 0.5, same_kind_max=3)
    assert d is not None and d.doc_ids == ["c1"]


def test_a_crossed_kind_word_names_a_title_that_says_it_in_the_plural() -> None:
    """Session 35: "股东协议的锁定期是多久？" (股东 → shareholder) did not route to "SHAREHOLDERS' AGREEMENT" and was refused."""
    docs = [*DOCS, _meta("d9", "shareholders_agreement.pdf", "SHAREHOLDERS' AGREEMENT")]
    d = route("股东协议的锁定期是多久？", docs, 0.5)
    assert d is not None and d.doc_id == "d9", d


def test_a_question_writing_one_contracts_whole_title_routes_there_when_words_tie() -> None:
    """Session 36: "软件开发合同的款项怎么支付？" writes 软件开发合同.txt's title whole, yet its 软件 also names the SOFTWARE
    LICENSE AGREEMENT (glossary) and 开发 the 技术开发合同: the word scores tied, nothing was routed, and the
    contract's payment clause was not among the candidates. Two titles still route nowhere."""
    dev = _meta("sd", "软件开发合同.txt", "软件开发合同", "委托方（甲方）：上海明德")
    tech = _meta("td", "技术开发合同.txt", "技术开发合同", "委托方（甲方）：北京")
    lic = _meta("sl", "software_license_agreement.txt", "SOFTWARE LICENSE AGREEMENT", "Licensor")
    docs = [dev, tech, lic]
    d = route("软件开发合同的款项怎么支付？", docs, 0.5)
    assert d is not None and d.doc_ids == ["sd"]
    assert route("软件开发合同和技术开发合同的付款有何不同？", docs, 0.5) is None


def test_routing_imports_on_its_own() -> None:
    """Document scope (imported by the judge, which routing imports) needed routing's contract-title test:
    imported first, in a fresh interpreter, routing failed on the circle, which the suite's import order hid."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", "import rag_core.retrieval.routing"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-500:]


def test_a_hyphenated_rendering_of_a_kind_word_names_no_title_by_its_pieces() -> None:
    """Session 36: 雇佣 also renders as "non-solicit", whose piece "non" the MUTUAL NON-DISCLOSURE AGREEMENT's title
    holds: "雇佣协议的年假有几天？" then named two meanings no title held together, and routed nowhere."""
    nda = _meta("nda", "mutual_nda.txt", "MUTUAL NON-DISCLOSURE AGREEMENT", "Disclosing Party")
    emp = _meta("emp", "employment_agreement.docx", "EMPLOYMENT AGREEMENT", "Northwind Analytics Inc.")
    lease = _meta("ls", "房屋租赁合同.txt", "房屋租赁合同", "出租方（甲方）")
    d = route("雇佣协议的年假有几天？", [nda, emp, lease], 0.5, same_kind_max=3)
    assert d is not None and d.doc_ids == ["emp"]


def test_a_number_inside_a_company_name_is_stripped_with_it() -> None:
    """Session 36 (`bench answers` cuad-train): "Solar Tax Partners 1, LLC" lost its words but kept its 1, which the
    premise check set against a telephone number; a number elsewhere stays."""
    words = ["maintenance", "operations", "partners", "power", "solar", "tax"]
    q = "How is the Operations And Maintenance Agreement between Solar Power, Inc. and Solar Tax Partners 1, LLC renewed?"
    assert " 1" not in strip_names(q, words)
    assert "5 days" in strip_names("Does Solar pay within 5 days after the notice?", ["solar"])


def test_a_chinese_kind_word_routes_to_its_english_title_through_a_verb_ending_in_ply() -> None:
    """Session 37: "供货协议的单价是多少？" routed nowhere over a SUPPLY AGREEMENT (供货 had no translation, and the
    stemmer read "supply" as "supp") and quoted two construction contracts' 固定单价."""
    from rag_core.retrieval.routing import kind_names

    assert kind_names("供货协议的单价是多少？", {"supply", "agreement"}) == {"supply"}


def test_route_index_routes_as_the_documents_do() -> None:
    """The index built once per knowledge base (``RouteIndex``) decides as the documents themselves: the
    retriever routes a follow-up by each earlier question against it."""
    index = RouteIndex.of(DOCS)
    for q in (
        "在《房屋租赁合同》中，租金是多少？",
        "When does the license agreement expire?",
        "What is the term of the Flotek supply agreement?",
        "违约金是多少？",
        "What does the agreement say about notices?",
    ):
        a, b = route(q, DOCS, 0.5), route(q, index, 0.5)
        assert (a.to_json() if a else None) == (b.to_json() if b else None), q
    assert route("When does the license agreement expire?", index, 0.5) is not None


def test_an_english_role_word_is_stripped_only_inside_a_title() -> None:
    """Session 39 try-out: "Can the Tenant sublet part of the premises?" routed to the lease by its "Tenant" and was
    judged as "Can the sublet part of the premises?"."""
    assert strip_names("Can the Tenant sublet part of the premises?", ["tenant"]) == (
        "Can the Tenant sublet part of the premises?"
    )
    assert strip_names("What is the territory under the Distributor Agreement?", ["distributor"]) == (
        "What is the territory?"
    )


def test_a_contract_sharing_part_of_the_named_one_s_title_is_no_second_contract_named() -> None:
    """Session 39 try-out: "商业租赁合同的押金是多少？" searched the Chinese 房屋租赁合同 too (it covers 租赁) and quoted its
    deposit first; a kind both titles say as much of still searches both."""
    from rag_core.retrieval.routing import exclusive_route
    from rag_core.settings import RetrievalSettings

    docs = [
        _meta("a", "commercial_lease.docx", "Commercial Lease Agreement"),
        _meta("b", "zh_lease.pdf", "房屋租赁合同"),
        _meta("c", "loan.pdf", "借款合同"),
    ]
    rs = RetrievalSettings()
    named = route("商业租赁合同的押金是多少？", docs, 0.5)
    assert named is not None and named.doc_id == "a" and named.runner_up >= 0.5 and exclusive_route(named, rs)
    both = route("租赁合同的押金是多少？", docs, 0.5)
    assert both is None or not exclusive_route(both, rs)
    compared = route("房屋租赁合同和商业租赁合同的押金有何不同？", docs, 0.5)
    assert compared is None or not exclusive_route(compared, rs)
