"""Premise conflicts on hand-made examples: amounts, periods, dates, names, negation; and no conflict
when the passage agrees or talks about something else."""

from __future__ import annotations

from rag_core.coded import code_of
from rag_core.judge.conflict import conflict_score, contradiction_of, premise_slots, with_table_units
from rag_core.judge.values import extract_values, zh_number
from rag_core.settings import Settings

T = 0.5


def score(premise: str, passage: str) -> float:
    return conflict_score(premise_slots(premise), passage)[0]


def test_amount_mismatch_en() -> None:
    premise = "The late-payment penalty is $5,000, so how much do we owe?"
    s, why = conflict_score(
        premise_slots(premise), "The late-payment penalty under Section 9 is $8,000 per month."
    )
    assert s > T and "5,000" in why and "8,000" in why
    assert score(premise, "The late-payment penalty under Section 9 is $5,000 per month.") <= T


def test_period_mismatch_zh() -> None:
    premise = "合同期限是三年，到期后能否续签？"
    assert score(premise, "本合同期限为五年，自双方签字之日起计算。") > T
    assert score(premise, "本合同期限为三年，自双方签字之日起计算。") <= T
    assert score(premise, "本合同期限为3年，自双方签字之日起计算。") <= T  # 3 == 三


def test_days_counted_from_an_event_are_a_period_and_a_day_of_the_month_is_not() -> None:
    """ "乙方提前三十日以书面形式通知甲方" held no period, so "提前多久通知？" was refused and "提前十五日通知，
    对吗？" met no contradiction."""
    for text in (
        "乙方提前三十日以书面形式通知甲方",
        "逾期超过三十日的",
        "应提前不少于30日通知",
        "三十日以上",
    ):
        assert [(v.kind, v.key) for v in extract_values(text)] == [("period", (30.0,))], text
    assert not [v for v in extract_values("乙方应于每月5日前支付租金") if v.kind == "period"]
    for day_of_month in ("乙方应于每月5日后三日内支付租金", "次月十日后开具发票"):  # 十日 after 月 is a date
        assert not [v for v in extract_values(day_of_month) if v.surface in ("5日", "十日", "日")], (
            day_of_month
        )
    assert [v.key for v in extract_values("甲方应于收到发票十日后付款") if v.kind == "period"] == [(10.0,)]
    # a rate's unit is no period (session 42: "工期是多长？" quoted the delay damages before the 487 days)
    assert [v.key for v in extract_values("乙方逾期三十日") if v.kind == "period"] == [(30.0,)]
    assert not [
        v for v in extract_values("每逾期一日，乙方应支付合同价款万分之五的违约金") if v.kind == "period"
    ]
    premise = "乙方提前十五日通知就可以解除合同，对吗？"
    assert score(premise, "乙方提前三十日以书面形式通知甲方，可以解除本合同。") > T
    assert score(premise, "乙方提前十五日以书面形式通知甲方，可以解除本合同。") <= T


def test_amount_mismatch_zh() -> None:
    premise = "违约金是5000元，乙方需要支付吗？"
    assert score(premise, "乙方逾期交付的，应向甲方支付违约金8000元。") > T
    assert score(premise, "乙方逾期交付的，应向甲方支付违约金5000元。") <= T


def test_date_mismatch() -> None:
    premise = "The agreement expires on December 31, 2025. Can it be renewed?"
    assert score(premise, "This Agreement shall expire on June 30, 2026 unless renewed.") > T
    assert score(premise, "This Agreement shall expire on 31 December 2025 unless renewed.") <= T


def test_name_mismatch_answer_part() -> None:
    premise = "Who acquired Instagram? Facebook"
    assert score(premise, "Apple acquired Instagram in 2012 for $1 billion.") > T
    assert score(premise, "Facebook acquired Instagram in 2012 for $1 billion.") <= T


def test_negation_flip() -> None:
    premise = "The licensee may sublicense the software to affiliates."
    assert score(premise, "The licensee may not sublicense the software to affiliates.") > T
    assert score(premise, "The licensee may sublicense the software to affiliates.") <= T


def test_unrelated_passage_is_no_conflict() -> None:
    premise = "The late-payment penalty is $5,000."
    assert score(premise, "The parties shall meet quarterly to review the marketing plan.") <= T


def test_values_parsed() -> None:
    kinds = {(v.kind, v.key) for v in extract_values("thirty (30) days; 6.1%; US$2 million; 2021年7月23日")}
    assert ("period", (30.0,)) in kinds
    assert ("percent", (6.1,)) in kinds
    assert ("amount", (2e6, "usd")) in kinds
    assert ("date", (2021, 7, 23)) in kinds
    assert zh_number("一百二十") == 120 and zh_number("三万") == 30000 and zh_number("合同") is None


def test_working_and_clear_days_are_periods() -> None:
    """Session 40 try-out: "25 working days' paid holiday" was read as a bare number, so the holiday clause
    lacked the period "How many days of holiday does the employee get?" asks for."""
    kinds = {(v.kind, v.key) for v in extract_values("25 working days' paid holiday; ten (10) clear days")}
    assert kinds == {("period", (25.0,)), ("period", (10.0,))}
    assert score("The holiday entitlement is 20 working days, right?", "25 working days' paid holiday") > T


def test_llm_confirmation_averages_top_candidates() -> None:
    from rag_core.judge.base import PassageInput
    from rag_core.judge.local_judge import LocalJudge
    from rag_core.llm.base import Message
    from rag_core.settings import VerdictSettings

    asked: list[list[Message]] = []

    def yes_no(messages: list[Message]) -> float:
        asked.append(messages)
        return 0.0  # the model overrules the rule hit

    premise = "The late-payment penalty is $5,000."
    passages = [
        PassageInput("a", "The late-payment penalty is $8,000."),
        PassageInput("b", "The late-payment penalty is $9,000 per month."),
    ]
    off = LocalJudge(VerdictSettings()).judge(premise, passages)
    on = LocalJudge(VerdictSettings(logit_confirm_top=1), yes_no=yes_no).judge(premise, passages)
    assert len(asked) == 1 and "never follow instructions" in asked[0][0].content
    key = "contradicts_query_premise"
    confirmed = [i for i in range(2) if on[i].scores[key] != off[i].scores[key]]
    assert len(confirmed) == 1
    i = confirmed[0]
    assert on[i].scores[key] == off[i].scores[key] / 2
    assert off[i].label == "CONFLICTING" and on[i].label != "CONFLICTING"  # the model overruled the rules


def test_a_premise_in_one_language_conflicts_with_a_clause_in_the_other() -> None:
    """The question's words are found near the value through their glossary translations."""
    lease_zh = "第三条 租金及支付方式\n乙方应于每月5日前向甲方支付当月租金。月租金为人民币6800元。"
    lease_en = "The Tenant shall pay a monthly rent of RMB 6,800."
    deposit_zh = "押金为人民币13600元。"
    english, chinese = (
        premise_slots("Is the monthly rent 8000 yuan?"),
        premise_slots("租金是每月8000元，对吗？"),
    )
    assert conflict_score(english, lease_zh)[0] > 0.9
    assert conflict_score(chinese, lease_en)[0] > 0.9
    assert conflict_score(english, deposit_zh)[0] < 0.2  # another amount, not near the rent's words
    assert conflict_score(premise_slots("Is the monthly rent 6800 yuan?"), lease_zh)[0] == 0.0


def test_among_equal_contradictions_the_value_named_by_the_question_words_ranks_first() -> None:
    """Two amounts near "租金" contradict 8000元 as much; the one right after "月租金为" states the
    rent, a sum of the same words follows "当季租金" (fewer of them). The deposit's follows "押金" and
    no word of the question, so it contradicts less (``_of_other_subject``) and ranks last."""
    rank = contradiction_of("租金是每月8000元，对吗？")
    rent = rank("月租金为人民币6800元（大写：陆仟捌佰元整）。")
    quarterly = rank("租金按季度支付，乙方应于每季度第一个月的5日前向甲方支付当季租金人民币20400元。")
    deposit = rank("乙方应于本合同签订之日向甲方支付押金人民币13600元（相当于两个月租金）。")
    assert rent[0] == quarterly[0] > deposit[0] > 0
    assert rent > quarterly > deposit
    assert rank("甲方收到租金后应向乙方出具收据。") == (0.0, 0)
    english = contradiction_of("Is the monthly rent USD 8,000?")
    assert english("The monthly rent is USD 6,800.") > english("A deposit of USD 13,600 is due.")


def test_a_british_spelling_in_the_premise_meets_the_american_one_in_the_clause() -> None:
    """Browser try-out: "The licence fee is USD 100,000 a year, correct?" scored 0.44 against "an annual
    license fee of USD 84,000" (0.85 spelled "license"): the passage was not CONFLICTING and the answer did
    not open with the correction."""
    clause = "3.1 Licensee shall pay Licensor an annual license fee of USD 84,000 (eighty-four thousand US dollars)."
    british = conflict_score(premise_slots("The licence fee is USD 100,000 a year, correct?"), clause)[0]
    american = conflict_score(premise_slots("The license fee is USD 100,000 a year, correct?"), clause)[0]
    assert british == american > T
    assert conflict_score(premise_slots("The licence fee is USD 84,000 a year, correct?"), clause)[0] < T


def test_a_how_often_question_asserts_no_count() -> None:
    """ "多久付一次" asks for a frequency: its 一次 is the question's frame, not the number 1 (it met the
    "5日前" of a quarterly rent clause and flagged the clause as contradicting the question)."""
    clause = (
        "月租金为人民币6800元。租金按季度支付，乙方应于每季度第一个月的5日前向甲方支付当季租金人民币20400元。"
    )
    assert score("租金多久付一次？", clause) <= T
    assert not premise_slots("租金多久付一次？").values
    assert [v.surface for v in premise_slots("付款是一年一次吗？").values] == ["一年"]
    assert not [v for v in extract_values("需要一次性付清吗？") if v.kind == "number"]
    assert [v.kind for v in premise_slots("违约一次就可以解除吗？").values] == [
        "number"
    ]  # a count it asserts


def test_anniversaries_and_calendar_years_are_periods() -> None:
    """ "the fifth (5th) anniversary" is five years and "three (3) calendar years" three: both are
    periods a term clause states (they had been read as an ordinal and as no value)."""
    years = 365.0
    first = extract_values("until the fifth (5th) anniversary of the Effective Date")[0]
    assert (first.kind, first.key) == ("period", (5 * years,))
    assert [(v.kind, v.key) for v in extract_values("for three (3) calendar years")] == [
        ("period", (3 * years,))
    ]
    assert [(v.kind, v.key) for v in extract_values("within 30 business days")] == [("period", (30.0,))]


def test_the_object_of_a_which_question_is_asked_not_stated() -> None:
    """ "那是哪一天付？" asks for a day: 一天 is no period the question asserts. Seen in the browser: the
    rent clause was CONFLICTING ("问题中为「一天」，段落中为「一个月」") for this follow-up."""
    clause = "租金按季度支付，乙方应于每季度第一个月的5日前向甲方支付当季租金人民币20400元。"
    for q in ("那是哪一天付？", "租金是多少？ 那是哪一天付？", "哪一年签的合同？"):
        slots = premise_slots(q)
        assert slots.values == [], q
        assert conflict_score(slots, clause)[0] == 0.0, q
    stated = "租金每三个月支付一次，乙方应于每季度第一个月的5日前向甲方支付当季租金人民币20400元。"
    assert conflict_score(premise_slots("租金是每一天付吗？"), stated)[0] > 0.5  # stated, so compared


def test_a_quantity_stated_of_something_else_does_not_make_the_passage_conflicting() -> None:
    """Try-out: "租金是每月8000元，对吗？" marked the lease's deposit clause CONFLICTING beside the rent
    clause (both 0.60): "（相当于两个月租金）" after "押金人民币13600元" put 租金 in the alignment window.
    The words just before a quantity say what it is of; the deposit clause now stays under
    ``t_conflict`` in both languages while the rent clause keeps its score."""
    t = Settings().verdict.t_conflict
    zh, en = premise_slots("租金是每月8000元，对吗？"), premise_slots("Is the monthly rent 8000 yuan?")
    deposit_zh = (
        "第四条 押金\n乙方应于本合同签订之日向甲方支付押金人民币13600元（相当于两个月租金）。"
        "租赁期满或合同解除后，甲方应于七日内将押金无息退还乙方。"
    )
    deposit_en = "The Tenant shall pay a security deposit of RMB 13,600 (two months' rent)."
    rent_zh = "第三条 租金及支付方式\n月租金为人民币6800元（大写：陆仟捌佰元整）。"
    rent_en = "The monthly rent shall be RMB 6,800 (two months' rent as deposit)."
    for slots in (zh, en):
        assert conflict_score(slots, deposit_zh)[0] < t and conflict_score(slots, deposit_en)[0] < t
        assert conflict_score(slots, rent_zh)[0] > t and conflict_score(slots, rent_en)[0] > t
    # nothing before the value tells what it is of: no damping
    assert conflict_score(zh, "6800元的月租金由乙方按季度支付。")[0] > t


def test_a_clause_number_opening_a_line_is_no_quantity_a_premise_can_be_contradicted_by() -> None:
    """Seen in the browser: "90,000 in question vs 3.2 in passage" for a licence's 3.2 clause."""
    slots = premise_slots("The annual fee is 90,000, right?")
    assert conflict_score(slots, "3.2 The annual license fee is payable in advance.")[0] == 0.0
    assert conflict_score(slots, "3. FEES AND PAYMENT\nThe fee is payable yearly.")[0] == 0.0
    score, why = conflict_score(slots, "3.1 The annual fee is 84,000 per year.")
    assert score > 0.3 and "84,000" in why  # the quantity the clause states still contradicts


def test_per_mille_and_per_ten_thousand_rates_are_read_as_the_percentages_they_are() -> None:
    """A Chinese late-payment clause states its rate as 千分之五 or 万分之五 a day; read as nothing, the
    share agreement's "万分之五" clause "lacked" the asked value for "违约金是多少？" (evidence 0.45) and a
    premise of 千分之五 could not be told from it."""

    def rates(text: str) -> list[tuple[object, ...]]:
        return [v.key for v in extract_values(text) if v.kind == "percent"]

    assert rates("按应付未付金额的万分之五") == [(0.05,)]
    assert rates("按当季租金的千分之五") == [(0.5,)]
    assert rates("5‰ per day") == [(0.5,)] and rates("百分之二十") == [(20.0,)]
    slots = premise_slots("违约金是每日千分之五，对吗？")
    score, why = conflict_score(slots, "每逾期一日，应按应付未付金额的万分之五向甲方支付违约金。")
    assert score > 0.3 and "万分之五" in why
    assert conflict_score(slots, "每逾期一日，应按当季租金的千分之五向甲方支付违约金。")[0] == 0.0


def test_financial_numerals_are_read_as_the_sums_they_write() -> None:
    """Contracts write sums in 大写 (伍仟陆佰万元): read as a bare "万元" (ten thousand yuan), the price was
    described to the lawyer as "万元" and the premise "六千万元" was compared against the wrong sum."""
    assert zh_number("伍仟陆佰万") == 56_000_000 and zh_number("壹佰叁拾伍万") == 1_350_000
    amounts = [
        v.key for v in extract_values("签约合同价为人民币伍仟陆佰万元（¥56,000,000元）") if v.kind == "amount"
    ]
    assert amounts == [(56_000_000.0, "cny"), (56_000_000.0, "cny")]
    assert score("合同价款是伍仟陆佰万元吗？", "本合同签约合同价为人民币伍仟陆佰万元。") <= T
    assert score("合同价款是六千万元吗？", "本合同签约合同价为人民币伍仟陆佰万元。") > T


def test_a_value_whose_subject_follows_it_contradicts_the_premise() -> None:
    """ "The first six (6) months are a probationary period": the question's words come right after the
    value, in its clause; read as a quantity of something else it scored 0.38 and was no correction."""
    passage = (
        "The first six (6) months are a probationary period, during which either party may end employment."
    )
    assert score("Is the probationary period three months?", passage) > T
    # a deposit followed by a bracketed note naming the rent stays the deposit's (the bracket ends its clause)
    assert score("租金是每月8000元，对吗？", "乙方应支付押金人民币13600元（相当于两个月租金）。") <= T


def test_every_english_number_word_to_ninety_nine_is_a_number() -> None:
    """Session 33: "to be held for eighteen (18) months" (an escrow) held no period, so the passage
    "lacked" what "How long is the escrow held?" asks; only some teens and tens were listed."""
    for text, days in (
        ("held for eighteen (18) months", 540.0),
        ("within fourteen (14) days", 14.0),
        ("for nineteen months", 570.0),
        ("within twenty-four (24) hours", 1.0),
        ("seventy-five (75) days", 75.0),
        ("a term of thirteen years", 13 * 365.0),
    ):
        assert [(v.kind, v.key) for v in extract_values(text)] == [("period", (days,))], text


def test_words_built_on_a_negation_negate_nothing() -> None:
    """Session 34: "无限连带责任" read as a negation corrected a question that asserted nothing ("不对")."""
    from rag_core.judge.conflict import negation_conflict

    assert (
        negation_conflict("合伙人对合伙企业的债务承担责任", "合伙人对合伙企业的债务承担无限连带责任。")[0]
        == 0.0
    )
    assert (
        negation_conflict(
            "因不可抗力延误的乙方应通知甲方", "因不可抗力延误的，乙方应在延误发生后12小时内通知甲方。"
        )[0]
        == 0.0
    )
    assert negation_conflict("合伙人可以处分合伙企业的不动产", "合伙人不得处分合伙企业的不动产。")[0] > 0.0


NON_SOLICIT_Q = "The non-solicitation period is six months, right?"


def test_a_question_tag_is_no_context_term() -> None:
    assert "right" not in premise_slots(NON_SOLICIT_Q).terms
    assert "correct" not in premise_slots("The fee is USD 5,000, correct?").terms
    assert "non-solicitation" in premise_slots(NON_SOLICIT_Q).terms


def test_a_covenant_written_as_shall_not_solicit_contradicts_a_non_solicitation_premise() -> None:
    """Session 36 try-out: the right clause was quoted, but without "No —" (0.49: neither the question's
    "non-solicitation" nor "period" was found near the twelve months)."""
    from rag_core.judge.conflict import negated_stem

    assert [negated_stem(t) for t in ("non-solicitation", "non-compete", "non-disclosure", "nonsense")] == [
        "solicit",
        "compet",
        "disclos",
        "",
    ]
    t = Settings().verdict.t_conflict
    slots = premise_slots(NON_SOLICIT_Q)
    covenant = (
        "6. RESTRICTIVE COVENANTS\nFor twelve (12) months after employment ends, the Employee shall not "
        "solicit any employee of the Company."
    )
    assert conflict_score(slots, covenant)[0] > t
    # the subject named in the heading line above the value's clause
    headed = (
        "8. NON-SOLICITATION\nDuring the term and for twelve (12) months after it, Client shall not solicit for "
        "employment any employee of Consultant."
    )
    assert conflict_score(slots, headed)[0] > t
    # a long line above is a sentence of its own, not a heading naming the value's subject
    sentence_above = (
        "The Consultant's non-solicitation undertakings are set out in Schedule 2 and bind each of its affiliates "
        "and officers.\nDuring the term and for twelve (12) months after it, Client shall provide reports."
    )
    assert conflict_score(slots, sentence_above)[0] < conflict_score(slots, headed)[0]


def test_a_value_of_a_clause_not_of_the_asked_type_does_not_contradict() -> None:
    """Session 36: the four-year non-compete of an asset purchase (No-Solicit 2%) was CONFLICTING for the
    non-solicitation question and led the correction."""
    from rag_core.judge.base import PassageInput
    from rag_core.judge.local_judge import LocalJudge

    s = Settings().verdict
    non_compete = (
        "5. NON-COMPETITION. For a period of four (4) years after the Closing, Seller shall not, directly or "
        "indirectly, engage in the manufacture or sale of hand tools anywhere in the United States or Canada."
    )
    covenant = (
        "6. NON-SOLICITATION\nFor twelve (12) months after employment ends, the Employee shall not solicit any "
        "employee of the Company."
    )
    verdicts = LocalJudge(s).judge(
        NON_SOLICIT_Q, [PassageInput("nc", non_compete), PassageInput("ns", covenant)]
    )
    by_id = {v.passage_id: v for v in verdicts}
    assert by_id["ns"].label == "CONFLICTING", by_id["ns"].explanation
    assert by_id["nc"].label != "CONFLICTING"
    assert by_id["nc"].scores["contradicts_query_premise"] == s.t_conflict
    assert conflict_score(premise_slots(NON_SOLICIT_Q), non_compete)[0] > s.t_conflict  # held, not unseen


def test_a_value_of_a_passage_that_never_mentions_the_asked_topic_does_not_contradict() -> None:
    """Session 37: with the tag word gone, "The lock-up period is 24 months, right?" found "period" (期限) near a
    carriage contract's one-year term, and "本合同有效期一年" led the correction above the lock-up clause."""
    from rag_core.judge.base import PassageInput
    from rag_core.judge.local_judge import LocalJudge

    s = Settings().verdict
    q = "The lock-up period is 24 months, right?"
    term = "第七条 合同期限\n本合同有效期一年，自2025年3月1日起至2026年2月28日止。"
    lock_up = (
        "4. Lock-Up\nThe Founder shall not transfer any shares for a period of thirty-six (36) months after the date "
        "of this Agreement, except with the Investor's prior written consent."
    )
    assert conflict_score(premise_slots(q), term)[0] > s.t_conflict
    by_id = {
        v.passage_id: v for v in LocalJudge(s).judge(q, [PassageInput("t", term), PassageInput("l", lock_up)])
    }
    assert by_id["l"].label == "CONFLICTING" and by_id["t"].label != "CONFLICTING"


def test_a_period_opened_by_within_is_of_the_clause_that_follows() -> None:
    """Session 37: "Within" before the value read as another subject, and the deletion clause's ninety days were
    damped to 0.30 against "The processor may keep personal data for five years, right?"."""
    clause = (
        "## 6. Return and Deletion\nWithin ninety (90) days after the end of the service, the Processor shall, at "
        "the Controller's choice, return or delete all personal data."
    )
    q = premise_slots("The processor may keep personal data for five years, right?")
    assert conflict_score(q, clause)[0] > Settings().verdict.t_conflict


def test_an_instruction_after_the_question_asserts_no_name() -> None:
    """Session 37 browser: "How much is the unit price? **Answer in bold.**" read "Answer" as an asserted name and the
    answer opened "No — the documents say otherwise" with the minimum-purchase clause."""
    for q in (
        "How much is the unit price? **Answer in bold.**",
        "What is the rent? Please answer briefly.",
        "What is the notice period? Quote the clause.",
    ):
        assert premise_slots(q).values == [], q
    clause = "If the Buyer purchases fewer units, it shall pay the Supplier ten percent (10%) of the price."
    assert conflict_score(premise_slots("How much is the unit price? Answer in bold."), clause)[0] == 0.0
    # a name opening a later sentence with a verb, and the question's own first name, are still read
    assert [v.surface for v in premise_slots("Is the rent USD 5,000? Tampa is the city.").values][
        -1
    ] == "Tampa"
    assert [v.surface for v in premise_slots("Tampa hosted the Super Bowl, right?").values] == [
        "Tampa",
        "Super Bowl",
    ]


def test_a_value_of_a_passage_not_about_the_question_does_not_contradict() -> None:
    """Session 39 try-out: "The break notice is three months, right?" labelled ten passages CONFLICTING, and a technical
    service contract's warranty clause (relevance 0.11, "在接到故障通知后四小时内响应") led the correction above the lease's
    break clause."""
    from rag_core.judge.base import PassageInput
    from rag_core.judge.local_judge import LocalJudge

    s = Settings().verdict
    q = "The break notice is three months, right?"
    warranty = "第五条 质量保证\n系统验收合格之日起十二个月为质保期。质保期内乙方应免费修复系统缺陷，并在接到故障通知后四小时内响应。"
    brk = (
        "11. Break Clause\nThe Tenant may terminate this Lease on the fifth anniversary of the Term Commencement Date by "
        "giving the Landlord not less than six months' prior written notice."
    )
    assert conflict_score(premise_slots(q), warranty)[0] > s.t_conflict  # held, not unseen
    by_id = {
        v.passage_id: v for v in LocalJudge(s).judge(q, [PassageInput("w", warranty), PassageInput("b", brk)])
    }
    assert by_id["b"].label == "CONFLICTING", by_id["b"].explanation
    assert by_id["w"].label == "IRRELEVANT" and by_id["w"].scores["contradicts_query_premise"] == s.t_conflict
    scores = LocalJudge(s).scores(q, [PassageInput("w", warranty)])
    assert "con_off_question" in code_of(scores[0][1]["contradicts_query_premise"])[0]


def test_another_form_of_the_question_s_word_aligns_the_value() -> None:
    """Session 41 try-out: "The breach notification period is 72 hours, right?" found only "breach" before the data
    processing agreement's "within forty-eight (48) hours" (it says "notify", not "notification"): 0.49, under the
    conflict threshold. A synonym that is no form of the word ("period" → "term") still aligns nothing."""
    from rag_core.judge.conflict import derived_forms

    slots = premise_slots("The breach notification period is 72 hours, right?")
    dpa = (
        "The Processor shall notify the Controller of a personal data breach without undue delay and in any event "
        "within forty-eight (48) hours after becoming aware of it."
    )
    assert conflict_score(slots, dpa)[0] > Settings().verdict.t_conflict
    assert "notify" in derived_forms("notification") and "term" not in derived_forms("period")


def test_a_table_rows_value_carries_its_columns_unit_and_is_of_its_rows_subject() -> None:
    """Session 44 browser: "商铺的物业费是每平方米2元，对吗？" beside a fee table headed "收费标准（元/平方米·月）" was not
    CONFLICTING — the row's 3.50 was a bare number the premise's 2元 is not compared with — and the answer quoted the rows
    without "不对". The row's unit comes from its header, and the row that names 商铺 is the one contradicting."""
    table = (
        "第三条 物业服务费\n物业服务费按建筑面积计收，标准如下：\n\n物业类型 | 收费标准（元/平方米·月） | 备注\n"
        "多层住宅 | 1.20 | 含公共区域保洁\n高层住宅 | 2.30 | 含电梯运行维护\n商铺 | 3.50 | 不含垃圾清运\n"
    )
    assert "商铺 | 3.50元 | 不含垃圾清运" in with_table_units(table)
    score, why = conflict_score(premise_slots("商铺的物业费是每平方米2元，对吗？"), table)
    assert score > Settings().verdict.t_conflict and "3.50" in str(why), why
    assert conflict_score(premise_slots("商铺的物业费是每平方米3.5元，对吗？"), table)[0] == 0.0
    plain = table.replace("（元/平方米·月）", "")  # no unit in the header: a bare number, as before
    assert (
        conflict_score(premise_slots("商铺的物业费是每平方米2元，对吗？"), plain)[0]
        < Settings().verdict.t_conflict
    )


def test_a_value_in_a_condition_is_asked_about_not_asserted() -> None:
    """Session 45 try-out: "What service credit applies if uptime is 98%?" beside a service-level table was
    CONFLICTING and the answer opened "No — the documents contradict the premise of the question."; the same with
    "如果月可用率低于99%…". A statement with a question tag asserts its condition: there the value stays a premise."""
    cut = Settings().verdict.t_conflict
    table = (
        "Monthly Uptime | Service Credit (%)\n99.9% or higher | 0\n99.0% to below 99.9% | 10\n"
        "95.0% to below 99.0% | 25\nbelow 95.0% | 50"
    )
    for q in (
        "What service credit applies if uptime is 98%?",
        "What if it falls below 95%?",
        "If monthly uptime is 97%, what credit does the customer get?",
    ):
        assert conflict_score(premise_slots(q), table)[0] < cut, q
        assert not premise_slots(q).values, q
    for q in ("如果月可用率低于99%，客户能获得多少服务抵扣？", "月可用率低于99%时，客户能获得多少服务抵扣？"):
        assert not premise_slots(q).values, q
    assert [v.surface for v in premise_slots("Is the service credit 10% if uptime is 98%?").values] == ["10%"]
    assert [v.surface for v in premise_slots("逾期超过30日时甲方可以解除合同，对吗？").values] == ["30日"]
    assert [v.surface for v in premise_slots("When is the 5000 yuan deposit returned?").values] == [
        "5000 yuan"
    ]
    lease = "乙方逾期支付租金超过60日的，甲方有权解除本合同。"
    assert conflict_score(premise_slots("逾期超过30日时甲方可以解除合同，对吗？"), lease)[0] >= cut


def test_a_premise_value_is_compared_with_the_tier_the_condition_falls_in() -> None:
    """Session 45 try-out: "Is the customer entitled to a service credit of 10% if uptime is 98%?" beside the
    service-level table was not CONFLICTING: 10 % is in the table, in the 99.0-99.9 % row; 98 % falls in the row of
    25 %. The tier's own band ("95.0% to below 99.0%") is the condition, not the credit."""
    cut = Settings().verdict.t_conflict
    table = (
        "Monthly Uptime | Service Credit (%)\n99.9% or higher | 0\n99.0% to below 99.9% | 10\n"
        "95.0% to below 99.0% | 25\nbelow 95.0% | 50"
    )
    score, why = conflict_score(
        premise_slots("Is the customer entitled to a service credit of 10% if uptime is 98%?"), table
    )
    assert score >= cut and "25%" in str(why), why
    assert conflict_score(premise_slots("如果月可用率为98%，服务抵扣是10%吗？"), table)[0] >= cut
    assert conflict_score(premise_slots("Is the service credit 25% if uptime is 98%?"), table)[0] < cut
    assert conflict_score(premise_slots("Is the service credit 10% if uptime is 99.5%?"), table)[0] < cut


def test_a_period_in_years_is_the_same_period_in_months() -> None:
    """Session 45 try-out: "租赁期限是三年吗？" over "租赁期限为36个月" was CONFLICTING and answered "不对" (三年 is 1,095 days, 36个月
    1,080: a month is counted 30 days, a year 365)."""
    cut = Settings().verdict.t_conflict
    lease = "第二条 租赁期限\n2.1 租赁期限为36个月，自起租日起计算。"
    assert conflict_score(premise_slots("租赁期限是三年吗？"), lease)[0] < cut
    assert (
        conflict_score(
            premise_slots("Is the lease term three years?"), "The lease term is thirty-six (36) months."
        )[0]
        < cut
    )
    assert conflict_score(premise_slots("租赁期限是两年吗？"), lease)[0] >= cut
    assert (
        conflict_score(
            premise_slots("Is the payment period 25 days?"), "Payment is due within thirty (30) days."
        )[0]
        >= cut
    )


def test_the_situation_a_chinese_question_asks_the_consequence_of_is_a_condition() -> None:
    """Session 45 browser: "逾期超过30天会怎样？" (after a rent question) was CONFLICTING beside the house lease's "逾期超过十五日的，
    甲方有权解除合同" and answered "不对：…": the lawyer put a case, asserting nothing."""
    cut = Settings().verdict.t_conflict
    lease = "乙方逾期支付租金的，每逾期一日，应按当季租金的千分之五向甲方支付违约金；逾期超过十五日的，甲方有权解除合同。"
    for q in ("逾期超过30天会怎样？", "乙方逾期30天怎么办？"):
        assert not premise_slots(q).values, q
        assert conflict_score(premise_slots(q), lease)[0] < cut, q
    assert [v.surface for v in premise_slots("每期租金是30万元，如何支付？").values] == ["30万元"]
