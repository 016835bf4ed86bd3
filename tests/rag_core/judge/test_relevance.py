"""Lexical features: coverage of question terms, best sentence, Chinese bigrams, asked kinds of value."""

from __future__ import annotations

from rag_core.judge.relevance import asked_kinds, lexical_features, terms


def test_coverage_orders_on_topic_passages_first_en() -> None:
    q = "How many days' notice is required to terminate the agreement?"
    texts = [
        "Either party may terminate this Agreement upon thirty (30) days' prior written notice.",
        "The Supplier shall deliver the Products to the Customer's warehouse.",
        "This Agreement is governed by the laws of Delaware.",
    ]
    f = lexical_features(q, texts)
    assert f[0].coverage > f[2].coverage and f[0].coverage > f[1].coverage
    assert f[0].matched and not f[1].matched
    assert f[0].hits >= 2 and f[0].terms >= 3


def test_chinese_bigrams_and_coverage() -> None:
    q = "违约金是多少？"
    f = lexical_features(
        q, ["乙方逾期交货的，每逾期一日应向甲方支付违约金人民币一千元。", "本合同一式两份。"]
    )
    assert f[0].bigram > f[1].bigram and f[0].coverage > f[1].coverage


def test_best_sentence_is_the_share_in_one_sentence() -> None:
    q = "How long is the warranty period?"
    spread = lexical_features(q, ["The warranty is standard. The period of delivery is short."])[0]
    together = lexical_features(q, ["Delivery is prompt. The warranty period is twelve months."])[0]
    assert together.best_sentence > spread.best_sentence
    assert spread.coverage == together.coverage


def test_the_asked_kind_of_value() -> None:
    q = "When does the agreement expire?"
    dated = lexical_features(q, ["The agreement expires on March 1, 2027."])[0]
    undated = lexical_features(q, ["The agreement expires as set out in Schedule 2."])[0]
    assert dated.matched == ("date",) and undated.matched == () and undated.kinds == ("date",)
    assert asked_kinds("合同期限是多久？") == ["period"]
    assert asked_kinds("Where will disputes be resolved?") == ["place"]
    # notice and time are periods, not amounts (a clause number "7.1" passed as the amount asked for)
    assert asked_kinds("How much notice must the Client give to terminate?") == ["period"]
    assert asked_kinds("How much is the monthly fee?") == ["amount"]
    # a money word or a period word after one or two modifiers still names the asked value
    assert asked_kinds("What is the monthly rent under the lease?") == ["amount"]
    assert asked_kinds("What is the security deposit?") == ["amount"]
    assert asked_kinds("What is the notice period to terminate?") == ["period"]
    assert asked_kinds("What is the initial term of the contract?") == ["period"]
    assert asked_kinds("What are the payment terms?") == []
    assert asked_kinds("提前多少天通知？")[0] == "period"
    # a rate asks a percentage (session 43: "SaaS协议的服务可用率是多少？" quoted a definition before "99.8%")
    assert asked_kinds("SaaS协议的服务可用率是多少？")[0] == "percent"
    assert asked_kinds("What is the late payment interest rate under the loan?") == ["percent"]


def test_a_how_long_question_is_answered_by_an_end_date_or_an_open_ended_term() -> None:
    """The term clauses that answer "How long is the initial term?" often state no number of days:
    an end date, an anniversary, calendar years, or no end at all. Each holds the asked period; a
    clause with none of them does not."""
    from rag_core.judge.relevance import held_kinds

    answering = [
        "This Agreement shall terminate automatically without notice on December 31, 2022.",
        "The term shall end on the second (2nd) anniversary of the Commencement Date.",
        "The initial term of this Agreement shall be three (3) calendar years from the Agreement date.",
        "Unless earlier terminated in accordance with this paragraph 7, this Agreement shall continue indefinitely.",
        "本合同为无固定期限合同。",
    ]
    for text in answering:
        assert held_kinds(("period",), text) == ("period",), text
    assert (
        held_kinds(("period",), "The Supplier shall deliver the Products to the Customer's warehouse.") == ()
    )
    assert held_kinds(("date",), "The term is five (5) years.") == ()  # a date question needs a date ...
    assert held_kinds(("date",), "The fee is due within thirty (30) days of invoice.") == (
        "date",
    )  # or a deadline


def test_a_grant_or_a_negated_term_answers_a_yes_no_question() -> None:
    """ "Can the licensee sublicense?" is answered by "grants … a non-sublicensable licence", which
    holds none of shall/may/not; the judge had marked such grants as lacking the asked kind."""
    q = "Can the licensee sublicense the software?"
    for text in (
        "Licensor hereby grants Licensee a worldwide licence to use the Software.",
        "A non-transferable licence to use the Software.",
        "许可方授予被许可方使用本软件的权利。",
    ):
        assert lexical_features(q, [text])[0].matched == ("yesno",), text
    assert lexical_features(q, ["Schedule A lists the Software modules."])[0].matched == ()


def test_chinese_interrogatives_are_no_terms() -> None:
    """多久/多长/什么时候 ask a kind of value (``asked_kinds``), they name nothing a clause says: as
    terms they lowered every passage's coverage of "保密义务持续多久？" by a term no clause holds."""
    assert terms("保密义务持续多久？") == ["保密", "义务", "持续"]
    assert terms("什么时候付款？") == ["付款"]
    # a "which" interrogative and its search-mode pieces (一天 of 哪一天) name nothing either
    assert terms("租金是多少？ 那是哪一天？") == ["租金"]
    assert terms("哪一方负责维修？") == ["负责", "维修"]
    assert "一天" in terms("每逾期一天按千分之五计算")
    assert asked_kinds("保密义务持续多久？") == ["period"]


def test_chinese_modals_and_function_words_are_no_terms() -> None:
    """应/由/向 are no content, as "shall"/"by"/"to" are not in English: as terms they made "通知应发到
    哪个网址？" a four-term question of which the notice clause held one."""
    assert terms("通知应发到哪个网址？") == ["通知", "发到", "网址"]
    assert terms("争议由哪个法院管辖？") == ["争议", "法院", "管辖"]
    assert "应付账款" in terms("应付账款何时支付？")  # a word that starts with 应 stays


def test_a_web_or_mail_address_answers_where_to_send() -> None:
    """Asking for an address (网址, 邮箱, "what e-mail address") asks for a place, and a URL or an
    e-mail address is one; a bare mention of e-mail in a yes/no question asks for none."""
    from rag_core.judge.relevance import held_kinds

    for q in (
        "通知应发到哪个网址？",
        "邮箱是什么？",
        "What e-mail address receives notices?",
        "Where should notices be sent?",
    ):
        assert asked_kinds(q) == ["place"], q
    assert asked_kinds("Does the app collect my email address?") == ["yesno"]
    clause = "一切通知以电子方式发送至 https://example.org/notice 或 www.example-host.com，抄送 legal@example-host.com。"
    assert held_kinds(("place",), clause) == ("place",)
    assert held_kinds(("place",), "Notices go to legal@acme.com.") == ("place",)
    assert held_kinds(("place",), "Notices shall be given in writing within 5 days.") == ()


def _holds(question: str, passage: str) -> bool:
    x = lexical_features(question, [passage])[0]
    return bool(x.kinds) and x.matched == x.kinds


def test_a_party_named_by_any_contract_role_answers_who_bears_it() -> None:
    """ "由承租方承担" named no party (the passage-side list knew eight roles), so the head read the
    clause as lacking what "由谁承担？" asks."""
    assert _holds("租赁期间交通违章罚款由谁承担？", "租赁期间发生的交通违章罚款及扣分由承租方承担。")
    assert _holds("货物在运输途中损坏由谁赔偿？", "货物在运输过程中毁损、灭失的，由承运人承担赔偿责任。")
    assert _holds("Who bears the shipping costs?", "All shipping costs shall be borne by the Distributor.")
    assert not _holds("运费由谁承担？", "运费按实际里程计算。")


def test_a_when_question_is_answered_by_a_deadline_or_an_event() -> None:
    """A deadline ("within thirty (30) days", "每月5日前", "七日内") answers a when-question; a clause
    with none does not, nor one naming an event as the time of something else."""
    assert _holds("When is the fee due?", "Licensee shall pay the fee within thirty (30) days of invoice.")
    assert _holds("租金什么时候交？", "乙方应于每月5日前支付租金。")
    assert _holds("押金什么时候退？", "租赁期满后，甲方应于七日内将押金无息退还乙方。")
    assert not _holds("合同什么时候签的？", "乙方应于本合同签订之日向甲方支付押金。")  # an event is no answer
    assert _holds("下单后多久能送到？", "乙方应于收到订单后48小时内送达。")  # hours are a period
    assert not _holds("本合同何时生效？", "本合同一式两份，双方各执一份。")


def test_a_chinese_conditional_clause_holds_a_condition() -> None:
    assert _holds(
        "委托方在何种情况下可以解除合同？",
        "代理商连续两个季度未完成最低销售指标的，委托方可以书面通知解除本合同。",
    )
    assert not _holds("委托方在何种情况下可以解除合同？", "本合同自双方签字盖章后生效。")


def test_a_yes_no_question_stating_a_value_asks_for_a_value_of_that_kind() -> None:
    """ "合同价款是六千万元吗？" is answered by the clause stating the price, which holds no modal: as a bare
    yes/no question the price clause read as holding no answer (evidence 0.15, session 31 try-out)."""
    assert asked_kinds("合同价款是六千万元吗？") == ["amount", "yesno"]
    assert asked_kinds("Is the annual fee USD 90,000?") == ["amount", "yesno"]
    assert asked_kinds("租期是三年吗？") == ["period", "yesno"]
    assert asked_kinds("第七条允许转租吗？") == ["yesno"]  # a clause number is no stated value
    price, quality = lexical_features(
        "合同价款是六千万元吗？",
        [
            "本合同签约合同价为人民币伍仟陆佰万元，采用固定单价合同。",
            "工程质量应达到国家现行验收规范的合格标准。",
        ],
    )
    assert price.matched == ("amount",) and quality.matched == ("yesno",)


def test_the_value_a_yes_no_question_asserts_is_no_term_of_its_topic() -> None:
    """ "缺陷责任期是十二个月吗？": a loan's "借款期限为十二个月" shares the asserted value, not the topic; with the
    value counted it covered 4 of 7 question words and came out EVIDENCE beside the correcting clause."""
    defects, loan = lexical_features(
        "缺陷责任期是十二个月吗？",
        ["缺陷责任期为二十四个月，自工程竣工验收合格之日起计算。", "借款期限为十二个月，自2026年3月1日起。"],
    )
    assert defects.coverage > loan.coverage
    assert loan.terms == 3  # 缺陷, 责任, 期是: the value's 十二 / 十二个 / 月 are not read
    # a wh-question keeps its numbers: they are part of what it asks about
    assert lexical_features("What happens if payment is 30 days late?", ["x"])[0].terms == 5


def test_a_day_of_the_month_in_chinese_numerals_is_a_deadline() -> None:
    """ "于次月十日前支付" says when the royalty is paid; only Arabic days ("每月5日前") were read as deadlines, so
    the clause was found to lack a date and the termination clause was quoted instead (session 31 try-out)."""
    assert _holds(
        "特许权使用费什么时候支付？", "乙方每月应按门店营业额的5%向甲方支付特许权使用费，于次月十日前支付。"
    )
    assert _holds(
        "工资什么时候发？", "甲方每月支付乙方工资人民币一万五千元，于次月十日前以银行转账方式发放。"
    )
    assert _holds("租金什么时候交？", "乙方应于每季度第一个月的五日前支付当季租金。")


def test_a_place_of_work_answers_where() -> None:
    assert _holds(
        "Where does the employee work?",
        "The Employee's place of work is the Company's laboratory in Cambridge, United Kingdom.",
    )
    assert not _holds(
        "Where does the employee work?", "The Employee's normal working hours are 37.5 hours per week."
    )


def test_a_person_named_inline_answers_who() -> None:
    """ "由李华提供连带责任保证" names the guarantor; only party lines and companies counted, so "借款的保证人是谁？"
    was refused (session 30 try-out). "之日起", which jieba also tags as a name, names nobody."""
    guarantee = "本合同项下借款由李华提供连带责任保证，保证期间为借款期限届满之日起两年。"
    assert _holds("借款的保证人是谁？", guarantee)
    assert _holds("Who is the guarantor of the loan?", guarantee)
    assert not _holds("借款的保证人是谁？", "保证期间为借款期限届满之日起两年。")
    # jieba tags common words as persons too ("周转"): a dictionary word is no name
    assert not _holds("借款的保证人是谁？", "乙方借款用于个人经营周转，不得用于赌博。")


def test_a_how_often_question_asks_a_frequency_not_a_duration() -> None:
    """Try-out (session 34): "执行事务合伙人多久报告一次？" found "每季度…报告一次" lacking a period (evidence 0.26)
    and the partnership's ten-year term was quoted."""
    from rag_core.judge.relevance import held_kinds

    assert asked_kinds("执行事务合伙人多久报告一次？") == ["frequency"]
    assert asked_kinds("How many times a year is the rent paid?") == ["frequency"]
    assert asked_kinds("How often must the borrower deliver financial statements?") == ["frequency"]
    assert asked_kinds("物业公司每天要巡逻几次？") == ["frequency"]
    assert asked_kinds("租期多久？") == ["period"]
    for text in ("5.3 执行事务合伙人每季度向其他合伙人报告一次事务执行情况。", "运费按月结算", "tested at the end of each fiscal quarter",
                 "may adjust prices once per Contract Year", "The Seller shall report quarterly."):  # fmt: skip
        assert held_kinds(("frequency",), text) == ("frequency",), text
    for text in (
        "合伙期限为十年",
        "乙方应于借款期限届满之日一次性归还全部本金。",
        "for a term of five (5) years",
    ):
        assert held_kinds(("frequency",), text) == (), text
    q = "执行事务合伙人多久报告一次？"
    report, term = lexical_features(
        q, ["5.3 执行事务合伙人每季度向其他合伙人报告一次事务执行情况和财务状况。", "合伙期限为十年。"]
    )
    assert report.matched and not term.matched


def test_a_required_consent_is_a_condition_and_automatic_renewal_answers_yes_no() -> None:
    """Session 34: "新合伙人入伙需要什么条件？" and "运输合同自动续期吗？" found their clauses lacking the asked kind."""
    from rag_core.judge.relevance import held_kinds

    assert held_kinds(
        ("condition",), "6.1 新合伙人入伙，须经全体合伙人一致同意，并依法订立书面入伙协议。"
    ) == ("condition",)
    assert held_kinds(
        ("condition",), "The Borrower may not assign without the Lender's prior written consent."
    ) == ("condition",)
    assert held_kinds(("yesno",), "期满前30日双方未提出异议的，自动续期一年。") == ("yesno",)
    assert held_kinds(("condition",), "合伙期限为十年。") == ()


def test_a_licence_s_kind_answers_whether_it_is_exclusive() -> None:
    """Session 35: "商标许可是独占许可吗？" read "本合同项下的许可为普通许可。" as holding no answer (no modal; evidence
    0.13), and a franchise's 独家授权 was quoted instead."""
    from rag_core.judge.relevance import lexical_features

    lex = lexical_features("商标许可是独占许可吗？", ["第二条 许可方式 本合同项下的许可为普通许可。"])[0]
    assert lex.kinds and set(lex.kinds) <= set(lex.matched), lex


def test_a_glossary_word_jieba_cuts_apart_is_one_term() -> None:
    """jieba cuts "锁定期是多久？" into 锁定 / 期是: the question's word 锁定期 (lock-up) met neither a Chinese
    clause nor, through the glossary, the English "Lock-Up" clause that answers it, and
    "股东协议的锁定期是多久？" was refused (session 35). Only a piece gluing a function character onto the
    word is taken for a mis-cut: a word jieba cuts another way keeps its cut."""
    assert terms("锁定期是多久？") == ["锁定", "锁定期"]
    assert "分包处理方" in terms("处理方更换分包处理方应提前多少天通知？")
    assert "方应" not in terms("处理方更换分包处理方应提前多少天通知？")
    assert terms("提供方式是什么？") == ["提供", "方式"]  # 提供方 is a glossary word, 方式 a word
    # a two-character glossary word jieba reads as two characters (年假: annual leave), not across two words
    assert terms("雇佣协议的年假有几天？") == ["雇佣", "协议", "年假", "几天"]
    assert terms("今年假期多少天？") == ["今年", "假期", "天"]
    lock_up = (
        "4. Lock-Up\nThe Founder shall not transfer any shares for a period of thirty-six (36) months "
        "after the date of this Agreement."
    )
    assert lexical_features("锁定期是多久？", [lock_up])[0].translated > 0


def test_eligibility_and_discretion_answer_a_yes_no_question() -> None:
    """Session 36: "Is the bonus guaranteed?" is answered by a bonus the employee is eligible for at the
    company's sole discretion; read as lacking an answer, the loan's guarantee clause was quoted instead."""
    q = "Is the bonus guaranteed?"
    for text in (
        "The Employee is eligible for an annual performance bonus of up to twenty percent (20%) of base salary.",
        "The bonus is determined by the Company in its sole discretion.",
        "年终奖由公司酌情发放。",
    ):
        assert lexical_features(q, [text])[0].matched == ("yesno",), text


def test_a_duty_stated_without_a_modal_answers_a_yes_no_question() -> None:
    """Session 41: "公司给员工缴纳住房公积金吗？" read "甲方依法为乙方缴纳…住房公积金" as holding no obligation (evidence
    0.24): Chinese contracts state duties as plain statements marked by 依法, 负责, 承担."""
    for q, text in (
        ("公司给员工缴纳住房公积金吗？", "甲方依法为乙方缴纳养老、医疗、失业、工伤、生育保险及住房公积金。"),
        ("出租方负责维修吗？", "房屋主体结构的维修由出租方负责。"),
        (
            "Does the landlord repair the roof?",
            "The Landlord is responsible for repairs to the roof and structure.",
        ),
    ):
        assert lexical_features(q, [text])[0].matched == ("yesno",), text
    assert lexical_features("公司给员工缴纳住房公积金吗？", ["第五条 社会保险"])[0].matched == ()


def test_an_event_that_marks_the_time_answers_a_when_question() -> None:
    """Session 37: "When does risk pass to the buyer?" found no date in "3.2 Risk in the Products passes to the Buyer
    on delivery to the carrier." (evidence 0.42) and quoted the delivery-term clause above it."""
    en = lexical_features(
        "When does risk pass to the buyer?", ["Risk passes to the Buyer on delivery to the carrier."]
    )
    zh = lexical_features("风险什么时候转移？", ["设备毁损、灭失的风险自交付时转移至甲方。"])
    assert en[0].matched == ("date",) and zh[0].matched == ("date",)
    plain = lexical_features("When does risk pass to the buyer?", ["Risk passes to the Buyer."])
    assert plain[0].matched == ()


def test_a_term_ending_on_an_event_s_day_answers_when_it_ends() -> None:
    """Session 39 try-out: "委托代理合同什么时候终止？" found no time in "本合同自双方签字盖章之日起生效，至本案一审判决书或调解书送达
    之日终止。" (evidence 0.04) and was refused; an event alone ("于本合同签订之日支付押金") still says no time."""
    ends = lexical_features(
        "什么时候终止？", ["本合同自双方签字盖章之日起生效，至本案一审判决书或调解书送达之日终止。"]
    )
    assert ends[0].matched == ("date",)
    assert lexical_features("押金什么时候付？", ["乙方应于本合同签订之日向甲方支付押金。"])[0].matched == ()


def test_a_chinese_what_for_question_asks_the_purpose() -> None:
    """Session 40 try-out: "借款可以用来干什么？" was a question of 借款, 用来, 干什么, and the clause headed 借款用途
    covered one of three (NO_EVIDENCE 0.46)."""
    assert terms("借款可以用来干什么？") == ["用途", "借款"]
    assert "用途" in terms("房屋可以用作什么？") and "用作" not in terms("房屋可以用作什么？")
    clause = "第二条 借款用途\n本借款仅用于乙方新开门店的装修及设备采购，未经甲方书面同意，乙方不得挪作他用。"
    assert lexical_features("借款可以用来干什么？", [clause])[0].coverage == 1.0
    # a statement that something is used for a named purpose is no question of the purpose
    assert "用途" not in terms("本借款仅用于装修")


def test_a_use_stated_as_used_only_as_is_the_purpose() -> None:
    """Session 40 try-out: "The Premises may be used only as offices" covered half of "What can the premises be
    used for?" while a Chinese clause saying 用途 covered all of it."""
    lease = "9. Use\nThe Premises may be used only as offices within Class E(g)(i) of the Use Classes Order."
    assert lexical_features("What can the premises be used for?", [lease])[0].coverage == 1.0


def test_an_adjective_of_an_ation_noun_is_the_noun() -> None:
    """Session 40 try-out: "probation" stems to "prob", too short to meet "probationary" by shared prefix, so
    "How long is the probation period?" found only "period" in "The first six (6) months are a probationary
    period" and quoted a CUAD definition of a Year."""
    from rag_core.judge.relevance import stem

    assert stem("probationary") == stem("probation")
    assert stem("operational") == stem("operation")
    x = lexical_features(
        "How long is the probation period?", ["The first six (6) months are a probationary period."]
    )[0]
    assert x.hits == 2 and x.matched == ("period",)  # "prob" and "period" ("long" asks, it is in no clause)


def test_a_recurring_weekday_or_a_payment_rhythm_answers_a_when_question() -> None:
    """Session 42 try-out: "When is it paid?" after a royalty question found no time in "payable weekly by
    electronic transfer each Tuesday" (evidence 0.47) and was answered from other contracts' payment dates."""
    q = "When is the royalty paid?"
    royalty = (
        "3.2 Franchisee shall pay a royalty of six percent (6%) of Gross Sales, payable weekly each Tuesday."
    )
    assert lexical_features(q, [royalty])[0].matched == ("date",)
    assert lexical_features(q, ["Fees are payable monthly in arrears."])[0].matched == ("date",)
    assert lexical_features("服务费什么时候付？", ["乙方应于每周五支付上周服务费。"])[0].matched == ("date",)
    assert (
        lexical_features(q, ["Franchisee shall pay a royalty of six percent (6%) of Gross Sales."])[0].matched
        == ()
    )


def test_an_arbitration_seat_is_a_place() -> None:
    """Session 44 try-out: "Where is the arbitration seated?" read "… arbitration under the Swiss Rules …, seated in
    Zurich, in English." as lacking a place, and three Chinese arbitration clauses were quoted before it."""
    q = "Where is the arbitration seated?"
    text = "Any dispute shall be finally resolved by arbitration under the Swiss Rules, seated in Zurich, in English."
    assert lexical_features(q, [text])[0].matched == ("place",)
    assert lexical_features("Where is the seat of arbitration?", ["The seat of arbitration is Singapore."])[
        0
    ].matched
