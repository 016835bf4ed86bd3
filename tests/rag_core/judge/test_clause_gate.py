"""The clause gates: a question on a non-CUAD topic that no kept passage mentions gets no answer; a
clause-type question with no evidence quotes the asked clause when one was found."""

from __future__ import annotations

from dataclasses import replace

from rag_core.judge.base import PassageInput
from rag_core.judge.clause_gate import absent_topic, asked_topics, found_clause, found_topic
from rag_core.judge.clause_types import asks_party_identity, names_other_topic, thesaurus_types, topics_named
from rag_core.judge.local_judge import LocalJudge
from rag_core.settings import VerdictSettings

AMENDMENT = (
    "14. Amendment. This Agreement may be amended only by a written instrument signed by both parties."
)
DISPUTE = "第八条 争议解决 因本合同引起的争议，双方应协商解决；协商不成的，提交上海仲裁委员会仲裁。"


def test_topics_are_named_in_both_languages() -> None:
    assert [t.name for t in topics_named("发生不可抗力怎么办？")] == ["force majeure"]
    assert [t.name for t in topics_named("How are disputes resolved?")] == ["dispute resolution"]
    assert names_other_topic("乙方逾期付款要承担什么责任？") and not names_other_topic("合同什么时候到期？")


def test_a_loan_title_and_returned_materials_are_topics_not_a_guessed_clause_type() -> None:
    """Session 30 try-out: the classifier's guess typed these Revenue/Profit Sharing, Post-Termination
    Services and Warranty Duration, and the clause gate refused them beside the clause that answers."""
    named = {q: [t.name for t in topics_named(q)] for q in (
        "What is the interest rate on the loan?", "When must the borrower repay the principal?", "本金什么时候还？",
        "设备的所有权什么时候转移？", "When does title to the equipment pass to the buyer?",
        "How many days does the Recipient have to return materials?", "保密资料应当返还还是销毁？",
    )}  # fmt: skip
    assert named["What is the interest rate on the loan?"] == ["price and payment", "loan"]
    assert named["本金什么时候还？"] == ["price and payment"]
    assert named["设备的所有权什么时候转移？"] == ["title and risk"]
    assert named["When does title to the equipment pass to the buyer?"] == ["title and risk"]
    assert named["How many days does the Recipient have to return materials?"] == ["confidentiality"]
    assert all(named.values()), named
    assert [t.name for t in topics_named("Does the lender hold a security interest?")] == ["loan"]
    for q in ("Is a change of controlling interest allowed?",
              "What is the title of the agreement?", "Must the tenant return the premises?"):  # fmt: skip
        assert not topics_named(q), q


def test_a_topic_no_passage_mentions_is_absent() -> None:
    absent = absent_topic("Does the agreement contain a force majeure clause?", [AMENDMENT])
    assert absent is not None and absent.name == "force majeure" and absent.zh == "不可抗力"
    assert absent_topic("合同对不可抗力是怎么约定的？", [DISPUTE]) is not None


def test_a_topic_a_passage_mentions_is_present_and_a_cuad_question_is_left_to_the_clause_gate() -> None:
    assert absent_topic("争议怎么解决？", [AMENDMENT, DISPUTE]) is None
    assert (
        absent_topic("如果发生不可抗力，发生的争议怎么解决？", [DISPUTE]) is None
    )  # one of its topics is there
    assert absent_topic("Which law governs disputes?", [AMENDMENT]) is None  # Governing Law: a CUAD type
    assert absent_topic("合同什么时候到期？", [AMENDMENT]) is None  # no topic named


def test_a_license_fee_question_asks_for_a_price_not_a_license_grant() -> None:
    """ "What is the annual license fee?" was typed License Grant, so the fees clause was judged
    "not the asked type" (evidence 0.04) and the answer quoted the grant instead."""
    from rag_core.judge.clause_types import thesaurus_types

    for q in ("What is the annual license fee?", "许可费每年多少？", "许可使用费如何支付？"):
        assert "License Grant" not in thesaurus_types(q) and names_other_topic(q), q
    assert thesaurus_types("Is there a non-compete clause in the license agreement?") == ["Non-Compete"]
    for q in (
        "What license is granted under the agreement?",
        "一方是否许可对方使用？",
        "May the licensee sublicense?",
    ):
        assert thesaurus_types(q) == ["License Grant"], q


def test_after_termination_qualifies_another_topic_and_a_licensee_is_a_party() -> None:
    """ "How long does the confidentiality obligation last after termination?" was typed
    Post-Termination Services and refused although the confidentiality clause says five years; "Does
    the licensee have to carry insurance?" was also typed License Grant by "licensee"."""
    from rag_core.judge.clause_types import thesaurus_types

    assert thesaurus_types("How long does the confidentiality obligation last after termination?") == []
    assert thesaurus_types("保密义务在合同终止后持续多久？") == []
    assert thesaurus_types("Are there obligations that continue after termination?") == [
        "Post-Termination Services"
    ]
    assert thesaurus_types("合同终止后一方还需要履行什么义务？") == ["Post-Termination Services"]
    assert thesaurus_types("Does the licensee have to carry insurance?") == ["Insurance"]
    assert thesaurus_types("Can the licensee sublicense?") == ["License Grant"]


def test_selling_directly_or_appointing_another_seller_asks_about_exclusivity() -> None:
    """Try-out (session 32): "Can the supplier sell directly to customers in the territory?" named no
    thesaurus word, was typed Revenue/Profit Sharing by the classifier's guess, and refused beside the
    clause forbidding exactly that. Where a party may sell is no clause type (a non-exclusive agreement
    has a territory too), and neither is selling other things."""
    from rag_core.judge.clause_types import trigger_matrix

    for q in (
        "Can the supplier sell directly to customers in the territory?",
        "Can the supplier appoint another distributor?",
        "May the licensor sell to other customers?",
        "供应商可以在区域内直接向客户销售吗？",
        "甲方可以指定其他经销商吗？",
    ):
        assert thesaurus_types(q) == ["Exclusivity"], q
    for q in (
        "What is the territory?",
        "In which territory may the distributor sell?",
        "Can the company sell its other assets?",
    ):
        assert "Exclusivity" not in thesaurus_types(q), q
    # the question words type questions only: a clause selling directly is no exclusivity clause for that
    clause = "Supplier shall sell the Products directly to Distributor at the prices in Schedule B."
    assert not trigger_matrix([clause]).any()


def test_a_passage_silent_on_the_asked_topic_is_not_evidence() -> None:
    """ "保密义务在合同终止后持续多久？" labelled a lease's deposit clause EVIDENCE (from "合同解除后") above the
    English confidentiality clause; a passage using no word of the asked topic, in either language, now has
    its evidence capped, says so, and the clause that names the topic stays EVIDENCE."""
    from rag_core.judge.base import PassageInput
    from rag_core.judge.clause_gate import asked_topics, mentions_topic
    from rag_core.judge.local_judge import LocalJudge
    from rag_core.settings import VerdictSettings

    deposit = (
        "第四条 押金\n租赁期满或合同解除后，乙方结清水电费并交还房屋的，甲方应在十五个工作日内无息退还押金。"
    )
    secret = (
        "6. CONFIDENTIALITY.\nEach party shall keep the other party's confidential information secret during "
        "the term and for five (5) years after its termination."
    )
    s = VerdictSettings()
    q = "保密义务在合同终止后持续多久？"
    assert [t.name for t in asked_topics(q)] == ["confidentiality"] and mentions_topic(
        secret, asked_topics(q)
    )
    verdicts = LocalJudge(s).judge(q, [PassageInput("d", deposit), PassageInput("c", secret)])
    by_id = {v.passage_id: v for v in verdicts}
    assert (
        by_id["d"].label == "NO_EVIDENCE"
        and by_id["d"].scores["contains_answer_evidence"] <= s.topic_evidence_cap
    )
    assert "mentions nothing of confidentiality" in by_id["d"].explanation
    assert by_id["c"].label == "EVIDENCE"
    assert asked_topics("竞业限制期限是多久？") == []  # a clause type: the clause-type gate's business


def test_an_irrelevant_passage_says_its_evidence_was_capped_for_the_topic() -> None:
    """The panel's bar shows the capped evidence; the reason of an IRRELEVANT row must say so too
    (the helper's browser try-out: "证据 0.56" in the reason beside a bar at 0.10)."""
    from rag_core.judge.base import PassageInput
    from rag_core.judge.local_judge import LocalJudge
    from rag_core.settings import VerdictSettings

    s = VerdictSettings()
    texts = ["8. GOVERNING LAW. This Agreement is governed by the laws of the State of New York."]
    v = LocalJudge(s).judge("保密义务持续多久？", [PassageInput("p1", texts[0])])[0]
    assert v.scores["contains_answer_evidence"] <= s.topic_evidence_cap
    assert "topic_not_mentioned" in v.explanation_code, (v.label, v.explanation)


def test_a_sub_clause_under_the_asked_topic_s_heading_is_not_capped() -> None:
    """Browser try-out: "5.2 The obligations of this Section 5 continue … five (5) years after the
    termination" sits under "5. CONFIDENTIALITY" and holds the answer; read without its heading it
    was capped, and the question was refused."""
    from rag_core.judge.base import PassageInput
    from rag_core.judge.local_judge import LocalJudge
    from rag_core.settings import VerdictSettings

    s = VerdictSettings()
    q = "How long does the confidentiality obligation last after termination?"
    text = (
        "5.2 The obligations of this Section 5 continue during the Term and for five (5) years after the "
        "termination or expiration of this Agreement."
    )
    judge = LocalJudge(s)
    bare = judge.judge(q, [PassageInput("p1", text)])[0]
    placed = judge.judge(q, [PassageInput("p1", text, clause="5. CONFIDENTIALITY > 5.2 The obligations")])[0]
    assert bare.scores["contains_answer_evidence"] <= s.topic_evidence_cap
    assert placed.label == "EVIDENCE", placed.explanation


def test_the_licence_named_as_the_document_does_not_type_a_cap_question() -> None:
    """Browser try-out: "The licence caps liability at USD 1,000,000, right?" was typed License Grant
    (and "caps liability" matched no Cap On Liability word), so the grant clause 2.1 was the evidence
    and the answer quoted it. A licence question about the licence itself keeps both types."""
    from rag_core.judge.clause_types import thesaurus_types

    assert thesaurus_types("The licence caps liability at USD 1,000,000, right?") == ["Cap On Liability"]
    assert thesaurus_types("Is the license exclusive?") == ["Exclusivity", "License Grant"]
    assert thesaurus_types("Can the licensee assign the license?") == ["Anti-Assignment", "License Grant"]
    assert thesaurus_types("What license is granted under the agreement?") == ["License Grant"]


def test_a_question_asking_who_a_party_is_asks_for_no_clause_type() -> None:
    """ "Who is the licensee?" came out Covenant Not To Sue (0.57) and was refused as asking for a clause
    the documents lack; "谁是被许可方？" License Grant. The parties are named in no clause type's text."""
    from rag_core.judge import dense
    from rag_core.judge.fitted import load_weights, question_view

    w = load_weights()
    for q in (
        "Who is the licensee?",
        "Who are the parties to the agreement?",
        "出租方是谁？",
        "谁是被许可方？",
    ):
        assert asks_party_identity(q) and question_view(q, dense.embed([q])[0], w).types == (), q
    for q in ("Who owns the intellectual property?", "Who may terminate the agreement?", "谁负责维修？"):
        assert not asks_party_identity(q), q


def test_early_termination_is_not_termination_for_convenience_unless_without_cause() -> None:
    """ "合同可以提前解除吗？" asks about every right to end the contract early (for breach too); typed
    Termination For Convenience it was refused over a lease whose landlord may end it for late rent."""
    from rag_core.judge.clause_types import thesaurus_types

    assert thesaurus_types("合同可以提前解除吗？") == []
    assert thesaurus_types("乙方可以提前终止合同吗？") == []
    for q in (
        "合同能否在没有违约的情况下提前终止？",
        "一方可以无理由解除合同吗？",
        "Can a party terminate for convenience?",
    ):
        assert thesaurus_types(q) == ["Termination For Convenience"], q


def test_a_question_asking_who_a_party_is_wants_a_name_and_only_the_naming_passage_is_evidence() -> None:
    """ "Who is the licensee?" counted every "Licensee shall …" clause as holding the asked party: six
    licence passages came out EVIDENCE (0.86-0.92) beside the preamble that names the licensee."""
    from rag_core.judge.base import PassageInput
    from rag_core.judge.local_judge import LocalJudge
    from rag_core.judge.relevance import asked_kinds, lexical_features
    from rag_core.settings import VerdictSettings

    preamble = (
        "This Software License Agreement is entered into by and between Northwind Software Inc., a Delaware "
        'corporation ("Licensor"), and Bluefield Analytics LLC, a New York limited liability company ("Licensee").'
    )
    fee = "3.1 Licensee shall pay Licensor an annual license fee of USD 84,000."
    parties = "出租方（甲方）：北京华信置业有限公司\n承租方（乙方）：李明"
    assert asked_kinds("Who is the licensee?") == ["entity"] and asked_kinds("Who may terminate?") == [
        "party"
    ]
    assert [x.matched for x in lexical_features("承租人是谁？", [parties, "乙方应按时支付租金。"])] == [
        ("entity",),
        (),
    ]
    verdicts = LocalJudge(VerdictSettings()).judge(
        "Who is the licensee?", [PassageInput("pre", preamble), PassageInput("fee", fee)]
    )
    assert verdicts[0].label == "EVIDENCE" and verdicts[1].label != "EVIDENCE", verdicts
    assert verdicts[1].explanation_code and "entity_not_named" in verdicts[1].explanation_code


def test_a_cap_question_in_either_chinese_word_order_is_typed() -> None:
    """ "一方承担责任的最高金额是多少？" (liability before "maximum") was typed nothing, so the judge read it as
    an untyped question and a refusal could not name the missing cap clause."""
    from rag_core.judge.clause_types import thesaurus_types

    for q in (
        "一方承担责任的最高金额是多少？",
        "赔偿责任最高是多少？",
        "违约最多赔多少？",
        "最高赔偿额是多少？",
    ):
        assert thesaurus_types(q) == ["Cap On Liability"], q
    assert thesaurus_types("最高人民法院的司法解释怎么说？") == []


NON_COMPETE_NO_PERIOD = "第九条 竞业限制。劳动者离职后，不得到与本单位生产或者经营同类产品、从事同类业务的有竞争关系的其他用人单位任职。"
SECRECY = "第五条 保密义务。劳动者在职期间及离职后三年内，应对用人单位的商业秘密承担保密义务。"


def test_the_found_clause_is_the_asked_type_not_the_clause_with_a_period() -> None:
    """ "竞业限制的期限是多久？": neither passage is EVIDENCE (the non-compete states no period, the
    confidentiality clause is another type); the non-compete is the one to quote."""
    s = VerdictSettings()
    texts = [SECRECY, NON_COMPETE_NO_PERIOD]
    question = "竞业限制的期限是多久？"
    verdicts = LocalJudge(s).judge(question, [PassageInput(str(i), t) for i, t in enumerate(texts)])
    assert all(v.label != "EVIDENCE" for v in verdicts), verdicts
    assert found_clause(question, texts, verdicts, s) == 1
    assert found_clause("保密期限是多久？", texts, verdicts, s) is None  # no clause type asked
    off = VerdictSettings(cite_found_clause=False)
    assert found_clause(question, texts, verdicts, off) is None
    injected = [verdicts[0], replace(verdicts[1], label="INJECTION", keep=False)]
    assert found_clause(question, texts, injected, s) is None
    scoped = [verdicts[0], replace(verdicts[1], explanation_code="doc_out_of_scope")]
    assert found_clause(question, texts, scoped, s) is None
    # a follow-up held to the previous answer's document: another document's clause is not quoted
    cited_away = [verdicts[0], replace(verdicts[1], explanation_code="fit_scores+follow_up_other_document")]
    assert found_clause(question, texts, cited_away, s) is None
    assert found_clause(question, texts, verdicts, VerdictSettings(t_clause_found=1.0)) is None


def test_a_penalty_stated_as_a_rate_is_evidence_for_how_much_the_penalty_is() -> None:
    s = VerdictSettings()
    clause = (
        "第五条 违约责任 乙方逾期支付转让价款的，每逾期一日，应按应付未付金额的万分之五向甲方支付违约金。"
    )
    v = LocalJudge(s).judge("违约金是多少？", [PassageInput("0", clause)])[0]
    assert v.label == "EVIDENCE", v.explanation


def test_the_found_topic_clause_is_the_relevant_passage_using_the_topic_s_words() -> None:
    """A named topic that is no CUAD category (dispute resolution) has no clause-type probability:
    the passage to quote is the most relevant one using the topic's words, at least
    ``t_found_relevance``, not an injection, not out of scope."""
    s = VerdictSettings()
    texts = [
        "第三条 租金。乙方每月向甲方支付租金人民币9500元。",
        "第十条 争议解决。因本合同发生的争议，由房屋所在地人民法院管辖。",
    ]
    question = "发生争议怎么解决？"
    verdicts = [
        replace(v, label="NO_EVIDENCE")
        for v in LocalJudge(s).judge(question, [PassageInput(str(i), t) for i, t in enumerate(texts)])
    ]
    assert found_topic(question, texts, verdicts, s) == 1
    assert found_topic("竞业限制的期限是多久？", texts, verdicts, s) is None  # a clause type, not a topic
    assert found_topic(question, texts, verdicts, VerdictSettings(cite_found_clause=False)) is None
    assert found_topic(question, texts, verdicts, VerdictSettings(t_found_relevance=1.0)) is None
    injected = [verdicts[0], replace(verdicts[1], label="INJECTION", keep=False)]
    assert found_topic(question, texts, injected, s) is None
    scoped = [verdicts[0], replace(verdicts[1], explanation_code="doc_out_of_scope")]
    assert found_topic(question, texts, scoped, s) is None


def test_questions_on_named_sums_are_on_the_payment_topic_not_a_guessed_clause_type() -> None:
    """Tried as a lawyer: "劳动合同约定了年终奖吗？" over a base without a bonus clause was refused with
    "文件中没有找到不起诉承诺条款": the question named no topic, so the classifier's guess (Covenant Not To
    Sue) was the asked clause type. A bonus is a sum paid: the price-and-payment topic, no guess."""
    from rag_core.judge.clause_gate import asked_clause_type, asked_topics

    assert [t.name for t in asked_topics("劳动合同约定了年终奖吗？")] == ["price and payment"]
    assert asked_clause_type("劳动合同约定了年终奖吗？") is None
    assert [t.name for t in asked_topics("What is the sales commission?")] == ["price and payment"]
    assert "price and payment" not in [t.name for t in asked_topics("Which arbitration commission decides?")]
    # "付清股权转让款" was typed Revenue/Profit Sharing by the guess and refused beside the payment clause
    assert [t.name for t in asked_topics("乙方什么时候付清股权转让款？")] == ["price and payment"]
    assert asked_clause_type("乙方什么时候付清股权转让款？") is None


def test_a_board_a_lock_up_and_quality_control_are_topics_not_a_guessed_clause_type() -> None:
    """Session 35 try-out: "How long is the founder's lock-up?" was typed Covenant Not To Sue by the guess (0.84) and
    refused beside the lock-up clause; "甲方多久抽检一次商品质量？" Warranty Duration, and a software licence's 质保期 was
    quoted; "What happens if the board is deadlocked?" quoted the quorum lines instead of the deadlock clause."""
    from rag_core.judge.clause_gate import asked_clause_type

    for q, topic in (
        ("How long is the founder's lock-up?", "board and share transfers"),
        ("股东协议的锁定期是多久？", "board and share transfers"),
        ("What happens if the board is deadlocked?", "board and share transfers"),
        ("How long does the pre-emption offer stay open?", "board and share transfers"),
        ("甲方多久抽检一次商品质量？", "quality control"),
    ):
        assert [t.name for t in topics_named(q)] == [topic], q
        assert asked_clause_type(q) is None, q
    deadlock = (
        "6. Deadlock\nIf the Board is unable to decide a matter at two consecutive meetings, either party may refer "
        "the matter to mediation in London."
    )
    dividends = (
        "5. Dividends\nDividends shall be paid to the Shareholders in proportion to their shareholdings."
    )
    assert absent_topic("What happens if the board is deadlocked?", [dividends, deadlock]) is None
    assert absent_topic("What happens if the board is deadlocked?", [dividends]) is not None
    assert not topics_named("What is the quality of the goods?")  # quality alone names no control of it


def test_an_investor_a_registration_number_and_informing_name_their_topics() -> None:
    """Session 35 try-out: "Which matters need the investor's consent?" (typed Rofr/Rofo/Rofn by the guess) quoted the
    deadlock clause; "What is the trademark registration number?" (Covenant Not To Sue) the infringement clause;
    "How much notice …?" capped "The Processor shall inform the Controller at least thirty (30) days in advance" as
    silent on notices."""
    from rag_core.judge.clause_gate import asked_clause_type, mentions_topic

    assert [t.name for t in topics_named("Which matters need the investor's consent?")] == [
        "board and share transfers"
    ]
    assert [t.name for t in topics_named("What is the trademark registration number?")] == ["registration"]
    assert asked_clause_type("What is the trademark registration number?") is None
    notices = topics_named("How much notice must the processor give before changing sub-processors?")
    assert mentions_topic(
        "2.2 The Processor shall inform the Controller at least thirty (30) days in advance.", notices
    )
    assert not mentions_topic(
        "The Processor shall keep information confidential.", notices
    )  # not "information"


def test_a_type_named_only_in_a_condition_types_no_question() -> None:
    """Session 36: "What severance is paid if the company terminates without cause?" was typed Termination For
    Convenience by its condition; the clause that answers it states a consequence, which the classifier does not
    read as that type, and it was judged "not the asked type" (evidence 0.07) beside the notice clauses. A
    question opening with when/where asks a time or place: no condition."""
    from rag_core.judge.clause_types import typed_by_condition

    q = "What severance is paid if the company terminates without cause?"
    assert thesaurus_types(q) == [] and typed_by_condition(q)
    assert typed_by_condition("What happens if the company terminates without cause?")
    assert thesaurus_types("Can the company terminate without cause?") == ["Termination For Convenience"]
    assert thesaurus_types("When does this agreement expire?") == ["Expiration Date"]
    assert not typed_by_condition("When does this agreement expire?")
    assert "Liquidated Damages" in thesaurus_types("What penalty applies if a party breaches?")
    assert thesaurus_types("如果公司无故解除劳动合同，应支付多少经济补偿？") == []
    assert names_other_topic("What severance is paid?")


def test_a_suretyship_question_names_the_guarantee_topic_not_a_warranty() -> None:
    """Session 37 browser: "保证期间是多久？" over a 保证合同 was typed Warranty Duration by the classifier's guess and
    refused as "passages look like a warranty clause"; 保证期间 is the guarantor's period. 保证金 stays a deposit."""
    assert [t.name for t in topics_named("保证期间是多久？")] == ["guarantee"]
    assert names_other_topic("保证合同的保证方式是什么？")
    assert "guarantee" not in [t.name for t in topics_named("保证金是多少？")]
    assert "guarantee" not in [t.name for t in topics_named("质保期多长？")]


def test_a_loan_is_a_topic_and_a_debt_guarantee_in_english_names_the_guarantee() -> None:
    """Session 38 try-out: "借款期限是十二个月，对吗？" read a services agreement's one-year term as stating the premise
    (no loan topic), and "How long is the guarantee period in the loan contract?" was typed Warranty Duration by the
    classifier's guess and refused: the guarantee topic's English words held literal backspaces and matched nothing."""
    assert [t.name for t in topics_named("借款期限是十二个月，对吗？")] == ["loan"]
    assert [t.name for t in topics_named("The loan term is twelve months, right?")] == ["loan"]
    assert "loan" in [t.name for t in topics_named("When must the borrower repay?")]
    assert [t.name for t in topics_named("How long is the guarantee period in the loan contract?")] == [
        "loan",
        "guarantee",
    ]
    assert [t.name for t in topics_named("Who is the guarantor?")] == ["guarantee"]
    assert [t.name for t in topics_named("Is there a personal guarantee of the tenant's obligations?")] == [
        "guarantee"
    ]
    # a product's guarantee is its warranty; "blending" and "calendar" hold no loan word
    assert not topics_named("Is the product guaranteed against defects?")
    assert not topics_named("Which blending ratio applies in each calendar month?")
    assert asked_topics("How long is the guarantee period in the loan contract?")


def test_a_chinese_question_typed_only_by_the_classifier_s_guess_is_not_refused_as_absent() -> None:
    """Session 39 try-out: "停车位和广告位的收益归谁？" was typed Covenant Not To Sue by the classifier (0.73) and refused
    as "the documents contain no covenant-not-to-sue clause" beside the property contract's 公共收益 clause."""
    from rag_core.judge.clause_gate import absent_clause_type, guessed_for_chinese

    income = "第六条 公共收益\n利用共用部位进行经营的收益（包括广告位、停车位租金），扣除乙方管理成本百分之二十后，归全体业主所有。"
    s = VerdictSettings()
    assert guessed_for_chinese("停车位和广告位的收益归谁？")
    assert absent_clause_type("停车位和广告位的收益归谁？", [income], s) is None
    assert not guessed_for_chinese("竞业限制期限是多久？"), "a thesaurus word types it"
    assert not guessed_for_chinese("What is the maximum amount a party can be liable for?"), (
        "English guesses stay"
    )


def test_a_term_clause_is_no_non_compete_clause() -> None:
    """Session 39 try-out: at t_clause_type 0.3 a property contract's term clause (non-compete 0.36) was taken for
    the non-compete clause, and "物业服务合同约定的竞业限制期限是多久？" was answered with the service term."""
    from rag_core.judge.clause_gate import absent_clause_type
    from rag_core.judge.clause_types import BY_NAME

    term = (
        "第三条 服务期限\n本合同服务期限为三年，自2024年1月1日起至2026年12月31日止。期满前三个月，甲方应召开业主大会决定\n"
        "续聘或另行选聘。"
    )
    assert (
        absent_clause_type("约定的竞业限制期限是多久？", [term], VerdictSettings()) == BY_NAME["Non-Compete"]
    )


def test_subletting_asks_about_assignment() -> None:
    """Session 39 try-out: "Can the Tenant sublet part of the premises?" was typed nothing, and a lease's alienation
    clause ("shall not underlet") came out irrelevant (0.12) while the service-charge clause was quoted."""
    assert thesaurus_types("Can the Tenant sublet part of the premises?") == ["Anti-Assignment"]
    assert thesaurus_types("May the tenant underlet?") == ["Anti-Assignment"]


def test_working_hours_leave_and_pay_of_an_employee_are_a_topic_not_a_guessed_clause_type() -> None:
    """Session 41 try-out over an English employment agreement: "员工每周工作多少小时？" was typed Minimum Commitment by the
    guess (0.51) and refused beside "Normal working hours are 37.5 hours per week"; "员工每年有多少天带薪假？" was refused
    beside the holiday clause (带薪假 met no word of "paid holiday")."""
    from rag_core.judge.clause_gate import asked_clause_type

    for q in (
        "员工每周工作多少小时？",
        "员工每年有多少天带薪假？",
        "员工的年薪是多少？",
        "How many hours a week does the employee work?",
        "What is the probation period?",
        "How much annual leave does the employee get?",
    ):
        assert [t.name for t in topics_named(q)] == ["working terms"], q
        assert asked_clause_type(q) is None, q
    assert not topics_named("It is due within ten working days.")  # working days are a period, not the topic
    holidays = (
        "5. Holidays. The Employee is entitled to 25 working days' paid holiday in each holiday year in addition to "
        "public holidays."
    )
    salary = (
        "3. Salary. The Company shall pay the Employee a gross annual salary of GBP 78,000, payable monthly in arrears "
        "on the last working day of each month."
    )
    q = "员工每年有多少天带薪假？"
    assert absent_topic(q, [salary, holidays]) is None
    verdicts = LocalJudge(VerdictSettings()).judge(
        q, [PassageInput("h", holidays), PassageInput("s", salary)]
    )
    assert [v.label for v in verdicts] == ["EVIDENCE", "NO_EVIDENCE"]


def test_a_discount_asks_about_the_price() -> None:
    """Session 44 try-out: "What discount does the distributor get?" named no topic, the classifier's guess typed it
    Revenue/Profit Sharing, and it was refused beside "less a distributor discount of thirty-two percent (32%)"."""
    for q in (
        "What discount does the distributor get?",
        "Is there a volume rebate?",
        "经销商享受几折的折扣？",
        "返利比例是多少？",
    ):
        assert [t.name for t in topics_named(q)] == ["price and payment"], q


def test_a_price_rise_on_renewal_asks_about_the_price_not_the_renewal() -> None:
    """Session 45 try-out: "Can the provider raise the fees on renewal?" was typed Renewal Term, the salvaged clause
    "Provider may increase the fees on renewal by no more than five percent (5%) …" was judged not the asked type
    (evidence 0.13), and the renewal clause was quoted instead. "On renewal" / "续约时" is when, not what, is asked."""
    from rag_core.judge.clause_gate import asked_clause_type

    for q in ("Can the provider raise the fees on renewal?", "提供方可以在续约时涨价吗？"):
        assert thesaurus_types(q) == [], q
        assert [t.name for t in topics_named(q)] == ["price and payment"], q
        assert asked_clause_type(q) is None, q
    assert thesaurus_types("Does the agreement renew automatically?") == ["Renewal Term"]
    increase = (
        "3.3 Provider may increase the fees on renewal by no more than five percent (5%) by giving ninety (90) days' "
        "prior written notice."
    )
    renewal = (
        "2.2 The subscription renews automatically for successive twelve (12) month periods unless either party gives "
        "written notice of non-renewal at least sixty (60) days before the end of the then-current term."
    )
    verdicts = LocalJudge(VerdictSettings()).judge(
        "Can the provider raise the fees on renewal?",
        [PassageInput("i", increase), PassageInput("r", renewal)],
    )
    assert verdicts[0].label == "EVIDENCE", verdicts[0].explanation
    assert verdicts[0].scores["contains_answer_evidence"] > verdicts[1].scores["contains_answer_evidence"]


def test_service_levels_are_a_topic_in_both_languages() -> None:
    """Session 45 try-out: "如果月可用率低于99%，客户能获得多少服务抵扣？" named no word, the classifier's guess typed it Minimum
    Commitment, and the service-level table of a SaaS agreement came out irrelevant (0.15): refused."""
    for q in (
        "如果月可用率低于99%，客户能获得多少服务抵扣？",
        "What service credit applies if uptime is 98%?",
        "合同的服务水平是怎么约定的？",
        "Is there an SLA?",
    ):
        assert [t.name for t in topics_named(q)] == ["service levels"], q
    table = (
        "4. Service Levels\n4.1 Where monthly uptime falls below a level, Customer is entitled to the service credit "
        "shown, as a percentage of the monthly fee:\nMonthly Uptime | Service Credit (%)\n99.9% or higher | 0\n"
        "99.0% to below 99.9% | 10\n95.0% to below 99.0% | 25\nbelow 95.0% | 50"
    )
    law = "8.1 This Agreement is governed by the laws of Ireland. The courts of Dublin have exclusive jurisdiction."
    verdicts = LocalJudge(VerdictSettings()).judge(
        "如果月可用率低于99%，客户能获得多少服务抵扣？", [PassageInput("t", table), PassageInput("l", law)]
    )
    assert verdicts[0].label == "EVIDENCE", [v.explanation for v in verdicts]
    assert verdicts[1].scores["contains_answer_evidence"] <= VerdictSettings().topic_evidence_cap
    assert absent_topic("What service credit applies if uptime is 98%?", [law]) is not None


def test_what_happens_on_termination_asks_about_post_termination_duties() -> None:
    """Session 45 try-out: "What happens to customer data on termination?" was typed Termination For Convenience by
    the classifier's guess; "7.2 On termination Provider shall make Customer data available for export …" came out
    not the asked type (evidence 0.04) and the breach-termination clause was quoted instead."""
    from rag_core.judge.clause_gate import asked_clause_type

    for q in (
        "What happens to customer data on termination?",
        "What happens upon termination?",
        "合同终止时客户数据怎么处理？",
    ):
        assert thesaurus_types(q) == ["Post-Termination Services"], q
    assert asked_clause_type("What happens to the deposit on termination?") is None  # the deposit is asked
    data = "7.2 On termination Provider shall make Customer data available for export for forty-five (45) days and then delete it."
    breach = "7.1 Either party may terminate this Agreement for material breach that remains uncured thirty (30) days after written notice."
    verdicts = LocalJudge(VerdictSettings()).judge(
        "What happens to customer data on termination?", [PassageInput("d", data), PassageInput("b", breach)]
    )
    # the data clause is the asked type now (evidence 0.04 -> 0.52, still under t_evidence 0.55: refused, not answered
    # with the breach clause, which had been EVIDENCE at 0.84)
    assert verdicts[1].label != "EVIDENCE", verdicts[1].explanation
    assert (
        verdicts[0].scores["contains_answer_evidence"] > verdicts[1].scores["contains_answer_evidence"] + 0.3
    )


def test_free_of_charge_asks_about_the_price() -> None:
    """Session 45 try-out: "Is the SaaS service provided free of charge?" named no topic, and the quoted answer held
    the service clauses, not the annual fee (a planted sentence wanted the answer "free of charge")."""
    for q in ("Is the SaaS service provided free of charge?", "服务是免费的吗？", "What charges apply?"):
        assert [t.name for t in topics_named(q)] == ["price and payment"], q
    assert not topics_named("Who is in charge of maintenance?")


def test_buying_the_leased_asset_at_the_end_asks_about_title_not_a_refusal_right() -> None:
    """Session 45 try-out: "Can the lessee buy the equipment at the end of the lease?" was typed Rofr/Rofo/Rofn by the
    classifier's guess and refused as "The documents contain no right of first refusal clause", beside the finance
    lease's "租赁期满，乙方付清全部租金…后，可以人民币1,000元的名义价款留购租赁物。"."""
    from rag_core.judge.clause_gate import asked_clause_type

    for q in (
        "Can the lessee buy the equipment at the end of the lease?",
        "Is there a purchase option?",
        "租赁物可以留购吗？",
    ):
        assert [t.name for t in topics_named(q)] == ["title and risk"], q
        assert asked_clause_type(q) is None, q
    assert thesaurus_types("Does the tenant have a right of first refusal?") == ["Rofr/Rofo/Rofn"]
