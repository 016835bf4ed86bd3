"""The quoted answer: the best evidence sentences, verbatim, with exact document offsets."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rag_core.generation.prompt import EvidenceBlock
from rag_core.generation.quoted import (
    FALLBACK_LEAD,
    QUOTED_LEAD,
    ScoredSentence,
    block_sentences,
    is_field_line,
    is_heading_line,
    is_lead_in,
    score_blocks,
    select_quoted,
)
from rag_core.generation.sentence_scores import e5_lexical_scorer, lexical_scores, sentence_scorer
from rag_core.reflection.premise import starts_with_correction
from rag_core.settings import Settings
from rag_core.textproc import per_periods

PREFIX = "前文。" * 10  # the block sits inside a longer document: offsets are document offsets
LEASE = (
    "第一条 租金\n租金每月人民币5000元，乙方应于每月5日前支付当月租金。逾期支付的，每日按欠款的千分之一支付滞纳金。\n\n"
    "第二条 租期\n租期三年，自2024年1月1日起至2026年12月31日止。\n"
)
DEPOSIT = "第三条 押金\n乙方应于签约时支付押金人民币10000元。租期届满后押金无息退还。\n"
MSA = (
    "Master Services Agreement between Acme Inc. and Beta LLC\n\n"
    "Section 1 Fees\nClient shall pay a monthly fee of USD 12,500. Such fee is payable within 30 days of invoice.\n\n"
    "Section 2 Governing Law\nThis Agreement shall be governed by the laws of the State of Delaware.\n"
)


def _block(n: int, text: str, start: int, conflicting: bool = False) -> EvidenceBlock:
    return EvidenceBlock(
        n, "contract", "c.txt", 1, "", text, conflicting, start, start + len(text), "d", f"c{n}"
    )


@pytest.fixture(scope="module")
def scorer() -> object:
    return e5_lexical_scorer(Settings())


def test_headings_are_not_sentences_and_offsets_are_exact() -> None:
    doc = PREFIX + LEASE
    block = _block(1, LEASE, len(PREFIX))
    sentences = block_sentences(block)
    assert [s.text for s in sentences][:2] == [
        "租金每月人民币5000元，乙方应于每月5日前支付当月租金。",
        "逾期支付的，每日按欠款的千分之一支付滞纳金。",
    ]
    assert all(doc[s.start : s.end] == s.text for s in sentences)
    assert sentences[0].heading == "第一条 租金" and sentences[-1].heading == "第二条 租期"
    assert is_heading_line("Section 2 Governing Law") and not is_heading_line("The fee is due.")
    assert is_heading_line("4.2 LIMITATION OF WARRANTY AND LIABILITY.") and is_heading_line("2. FEES.")
    assert not is_heading_line("USD 5.")
    assert not is_heading_line("THE SOFTWARE IS PROVIDED AS IS, WITHOUT WARRANTY OF ANY KIND.")


def test_a_capitals_heading_on_the_clause_line_heads_it_and_is_not_quoted() -> None:
    text = "4.2 LIMITATION OF WARRANTY AND LIABILITY. Licensor's total liability shall not exceed USD 10,000."
    sentences = block_sentences(_block(1, text, 0))
    assert [s.text for s in sentences] == ["Licensor's total liability shall not exceed USD 10,000."]
    assert sentences[0].heading == "4.2 LIMITATION OF WARRANTY AND LIABILITY."


def test_chinese_quoted_answer_picks_the_rent_sentence(scorer: object) -> None:
    doc = PREFIX + LEASE + DEPOSIT
    blocks = [_block(1, LEASE, len(PREFIX)), _block(2, DEPOSIT, len(PREFIX) + len(LEASE))]
    s = Settings()
    scored = score_blocks("租金每月多少钱？什么时候付？", blocks, scorer)  # type: ignore[arg-type]
    quoted = select_quoted(blocks, scored, s.generation)
    first = quoted.sentences[0]
    assert "5000元" in first.text and first.n == 1
    assert doc[first.start : first.end] == first.text
    assert (first.block_start, first.block_end) == (blocks[0].start, blocks[0].end)
    assert 1 <= len(quoted.sentences) <= s.generation.quoted_max_sentences
    text = quoted.render("zh")
    assert text.startswith(QUOTED_LEAD["zh"]) and "“租金每月人民币5000元" in text and "[1]" in text


def test_english_quoted_answer_prefers_the_clause_over_the_contract_name(scorer: object) -> None:
    blocks = [_block(1, MSA, 0)]
    scored = score_blocks("What is the monthly fee under the agreement?", blocks, scorer)  # type: ignore[arg-type]
    quoted = select_quoted(blocks, scored, Settings().generation)
    assert quoted.sentences[0].text == "Client shall pay a monthly fee of USD 12,500."
    assert MSA[quoted.sentences[0].start : quoted.sentences[0].end] == quoted.sentences[0].text
    law = select_quoted(
        blocks, score_blocks("Which state's laws govern it?", blocks, scorer), Settings().generation
    )  # type: ignore[arg-type]
    assert "Delaware" in law.sentences[0].text
    assert quoted.render("en", FALLBACK_LEAD).startswith(FALLBACK_LEAD["en"])


def test_a_sentence_under_a_heading_naming_the_question_is_quoted_first() -> None:
    """The sentence scorer reads sentences without their clause: for "Can the tenant sublet the
    premises?" the dispute clause's sentence scored above the sublet clause's and was quoted first."""
    lease = (
        "第六条 转租\n未经甲方书面同意，乙方不得将房屋全部或部分转租、转借给第三人。\n"
        "第八条 争议解决\n协商不成的，任何一方均可向房屋所在地人民法院起诉。\n"
    )
    blocks = [_block(1, lease, 0)]
    q = "Can the tenant sublet the premises?"

    def scores(_q: str, sentences: list[str]) -> list[float]:  # the scores the try-out saw
        return [0.66 if "起诉" in t else 0.61 for t in sentences]

    s = Settings()
    first = select_quoted(blocks, score_blocks(q, blocks, scores), s.generation, q).sentences[0]
    assert "转租" in first.text
    s.generation.quoted_prefer_named_heading = False
    assert "起诉" in select_quoted(blocks, score_blocks(q, blocks, scores), s.generation, q).sentences[0].text
    s.generation.quoted_prefer_named_heading = True
    low = [0.66 if "起诉" in t else 0.2 for t in (x.text for x in block_sentences(blocks[0]))]
    weak = select_quoted(blocks, score_blocks(q, blocks, lambda _q, _t: low), s.generation, q)
    assert [x.text[-3:] for x in weak.sentences] == ["起诉。"]  # under quoted_min_relative: not quoted


def test_a_compound_question_word_names_the_heading_of_its_glossary_word() -> None:
    """ "月租金是多少？" also quoted the deposit clause's "相当于两个月租金" (it scored like the rent sentence);
    "月租金" names "第三条 租金" through the glossary word 租金 inside it, so the rent clause comes first."""
    lease = (
        "第三条 租金\n月租金为人民币6800元。租金按季度支付。\n"
        "第四条 押金\n乙方应支付押金人民币13600元（相当于两个月租金）。\n"
    )
    blocks = [_block(1, lease, 0)]
    q = "月租金是多少？"

    def scores(_q: str, sentences: list[str]) -> list[float]:
        return [0.96 if "押金" in t else 0.95 if "6800" in t else 0.7 for t in sentences]

    s = Settings()
    s.generation.quoted_max_sentences = 2
    quoted = select_quoted(blocks, score_blocks(q, blocks, scores), s.generation, q)
    assert [x.clause.split()[0] for x in quoted.sentences] == ["第三条", "第三条"]


def test_a_conflicting_block_is_always_quoted(scorer: object) -> None:
    blocks = [_block(1, LEASE, 0), _block(2, DEPOSIT, len(LEASE), conflicting=True)]
    s = Settings()
    s.generation.quoted_max_sentences = 1
    quoted = select_quoted(blocks, score_blocks("租金每月多少？", blocks, scorer), s.generation)  # type: ignore[arg-type]
    assert [q.n for q in quoted.sentences] == [2] and quoted.conflicting
    assert quoted.render("zh").splitlines()[0].startswith("不对")  # the correction leads (issue 10)
    assert starts_with_correction(quoted.render("zh")) and starts_with_correction(quoted.render("en"))


def test_more_sentences_only_when_close_to_the_best() -> None:
    blocks = [_block(1, MSA, 0)]
    s = Settings()
    s.generation.quoted_min_relative = 1.0  # only ties with the best
    scored = score_blocks("monthly fee", blocks, lambda q, xs: lexical_scores(q, xs, 0.0, 1))
    assert len(select_quoted(blocks, scored, s.generation).sentences) == 1
    s.generation.quoted_min_relative = 0.0
    assert len(select_quoted(blocks, scored, s.generation).sentences) == s.generation.quoted_max_sentences


def test_nothing_in_common_quotes_the_first_sentence_of_the_first_block() -> None:
    blocks = [_block(1, LEASE, 0)]
    scored = score_blocks("zzz", blocks, lambda q, xs: [0.0] * len(xs))
    quoted = select_quoted(blocks, scored, Settings().generation)
    assert [q.text for q in quoted.sentences] == ["租金每月人民币5000元，乙方应于每月5日前支付当月租金。"]
    assert select_quoted([], [], Settings().generation).render("en") == ""


def test_lexical_idf_discounts_words_every_sentence_shares() -> None:
    sentences = [
        "The Acme Beta Agreement is made between Acme Inc. and Beta LLC.",
        "Under the Acme Beta Agreement, Acme pays Beta a monthly fee of USD 100.",
        "The Acme Beta Agreement is governed by the laws of Delaware.",
    ]
    scores = lexical_scores("What law governs the Acme Beta Agreement?", sentences, 0.3, 3)
    assert max(range(3), key=lambda i: scores[i]) == 2
    assert all(0.0 <= v <= 1.0 for v in scores)


def test_sentence_scorer_is_callable_on_any_sentences() -> None:
    scores = sentence_scorer(Settings())("押金多少？", ["押金为人民币10000元。", "租期三年。"])
    assert len(scores) == 2 and scores[0] > scores[1]


WRAPPED = (
    "Section 7 Termination\n7.1 Termination for Convenience. Client may terminate this Agreement for convenience "
    "upon ninety (90)\ndays prior written notice to Provider.\n7.2 Termination for Cause. Either party may "
    "terminate this Agreement upon thirty (30) days written notice if\nthe other party materially breaches.\n"
    "(a) Notices under this Agreement shall be in writing and signed by an authorised officer of the sender\n"
    "(b) and delivered by hand.\n"
)


def test_a_sentence_wrapped_over_two_pdf_lines_is_one_sentence() -> None:
    """Seen in the app: the halves of the 7.1 sentence lost to 7.2's "thirty (30) days"."""
    doc = PREFIX + WRAPPED
    sentences = block_sentences(_block(1, WRAPPED, len(PREFIX)))
    texts = [s.text for s in sentences]
    assert (
        "Client may terminate this Agreement for convenience upon ninety (90)\ndays prior written notice to Provider."
        in texts
    )
    assert all(doc[s.start : s.end] == s.text for s in sentences)
    assert "(b) and delivered by hand." in texts, "a list item starts afresh"
    fitted = sentence_scorer(Settings())
    q = "How much notice must the Client give to terminate for convenience?"
    block = _block(1, WRAPPED, len(PREFIX))
    quoted = select_quoted([block], score_blocks(q, [block], fitted), Settings().generation)
    assert "ninety (90)" in quoted.sentences[0].text


def test_a_chinese_sentence_wrapped_over_two_pdf_lines_is_one_sentence() -> None:
    """Seen on a partnership agreement PDF: the quoted answer gave "仲裁。" alone (the first line,
    48 characters without closing punctuation, was taken for a heading)."""
    text = (
        "第九条 争议解决\n因本协议引起的争议，由各合伙人协商解决；协商不成的，提交中国国际经济贸易仲裁委员会按照其仲裁规则\n"
        "仲裁。\n第十条 其他"
    )
    texts = [s.text for s in block_sentences(_block(1, text, 0))]
    assert "仲裁。" not in texts
    assert any(t.endswith("按照其仲裁规则\n仲裁。") for t in texts)
    assert not is_heading_line("协商不成的，提交中国国际经济贸易仲裁委员会")
    assert is_heading_line("第九条 争议解决")
    assert is_heading_line("五、保密、知识产权")


def test_a_wrapped_pdf_line_holding_a_full_stop_is_no_heading() -> None:
    """Session 43 try-out on a development contract PDF: the line "本项目研究开发经费总额为人民币捌拾陆万元（¥860,000元）。
    甲方分三期支付：合同签订后7个工作日内支" has no comma and ends mid-word, so it was taken for a heading; the fee
    sentence was never quoted and "研究开发经费是多少？" was answered with "付30%；"."""
    text = (
        "第三条 研究开发经费及支付\n本项目研究开发经费总额为人民币捌拾陆万元（¥860,000元）。甲方分三期支付：合同签订后7个工作日内支\n"
        "付30%；测试版本交付后10个工作日内支付40%。"
    )
    texts = [s.text for s in block_sentences(_block(1, text, 0))]
    assert "本项目研究开发经费总额为人民币捌拾陆万元（¥860,000元）。" in texts
    assert "甲方分三期支付：合同签订后7个工作日内支\n付30%；" in texts
    assert not is_heading_line("本项目经费为人民币捌拾陆万元。甲方分三期支付")


def test_a_chinese_sentence_wrapped_over_pdf_lines_is_quoted_without_a_space(scorer: object) -> None:
    """Session 39 try-out: the quoted answer read "剩 余的预收物业服务费" where the PDF broke the line."""
    text = (
        "第十一条 交接\n本合同终止后，乙方应在三十日内向甲方移交全部物业档案资料及剩\n余的预收物业服务费，并退出"
        "物业管理区域。\n"
    )
    blocks = [_block(1, text, 0)]
    quoted = select_quoted(
        blocks, score_blocks("合同终止后多久移交资料？", blocks, scorer), Settings().generation
    )  # type: ignore[arg-type]
    rendered = quoted.render("zh")
    assert "资料及剩余的预收物业服务费" in rendered and "剩 余" not in rendered
    assert quoted.sentences[0].text in text  # the sentence itself keeps the document's characters


def test_a_question_word_a_pdf_line_break_cuts_is_read_whole() -> None:
    """Session 39 try-out: "物业费滞纳金怎么算？" quoted the penalty clause and not the late-fee clause (evidence 0.75),
    whose PDF line broke inside 滞纳金."""
    late = (
        "第五条 逾期交费\n业主逾期交纳物业服务费的，乙方可书面催交；逾期超过三个月的，乙方可按日加收欠费金额万分之五的滞纳\n"
        "金。乙方不得以停水、停电等方式催交物业服务费。\n"
    )
    penalty = "第十二条 违约责任\n乙方未按本合同约定标准提供服务的，应按当季物业服务费总额的百分之十向甲方支付违约金。\n"
    fee = "第四条 物业服务费\n住宅物业服务费按建筑面积每平方米每月2.30元收取。物业服务费按季度预交。\n"
    handover = "第十一条 交接\n本合同终止后，乙方应在三十日内移交剩余的预收物业服务费。\n"
    blocks = [
        _block(1, penalty, 0),
        _block(2, late, len(penalty)),
        _block(3, fee, len(penalty + late)),
        _block(4, handover, len(penalty + late + fee)),
    ]
    s = Settings()  # the app's scorer: the fitted evidence model reads the sentence's words
    quoted = select_quoted(
        blocks, score_blocks("物业费滞纳金怎么算？", blocks, sentence_scorer(s)), s.generation
    )
    # the late-fee clause leads, whole; since session 42's refit its first half (up to the semicolon) is chosen too, and
    # the two halves of the one sentence come in their order (``clauses_in_order``)
    lead = [x.text for x in quoted.sentences if x.n == 2]
    assert quoted.sentences[0].n == 2 and any("万分之五的滞纳" in t for t in lead[:2]), lead


def test_a_sentence_quoted_from_a_block_of_several_clauses_names_its_own_clause(scorer: object) -> None:
    """A short contract's parent block covers every clause; the quote names the article it sits in."""
    block = EvidenceBlock(
        1, "contract", "c.txt", 1, "第一条 租金 – 第二条 租期", LEASE, False, 0, len(LEASE), "d", "c1"
    )
    scored = score_blocks("租期多久？", [block], scorer)  # type: ignore[arg-type]
    first = select_quoted([block], scored, Settings().generation).sentences[0]
    assert "租期三年" in first.text and first.clause == "第二条 租期"
    single = EvidenceBlock(
        1, "contract", "c.txt", 1, "第三条 押金", DEPOSIT, False, 0, len(DEPOSIT), "d", "c1"
    )
    only = select_quoted([single], score_blocks("押金多少？", [single], scorer), Settings().generation)  # type: ignore[arg-type]
    assert only.sentences[0].clause == "第三条 押金"


def test_only_sentences_of_the_judged_passages_are_quoted(scorer: object) -> None:
    """A parent block around the judged deposit clause: its rent and term clauses were never judged."""
    text = LEASE + DEPOSIT
    judged = (len(LEASE), len(text))
    block = EvidenceBlock(
        1, "contract", "c.txt", 1, "", text, False, 0, len(text), "d", "c1", judged=(judged,)
    )
    quoted = select_quoted(
        [block], score_blocks("租金和押金各多少？", [block], scorer), Settings().generation
    )  # type: ignore[arg-type]
    assert quoted.sentences and all(s.start >= len(LEASE) for s in quoted.sentences)
    whole = EvidenceBlock(1, "contract", "c.txt", 1, "", text, False, 0, len(text), "d", "c1")
    again = select_quoted([whole], score_blocks("租金和押金各多少？", [whole], scorer), Settings().generation)  # type: ignore[arg-type]
    assert any(s.start < len(LEASE) for s in again.sentences)


def test_the_sentence_contradicting_the_premise_leads_the_quoted_answer(scorer: object) -> None:
    """ "租金是每月8000元，对吗？": the rent sentence (6800元) leads, not the payment-day sentence that
    shares more of the question's words."""
    lease = "第三条 租金及支付方式\n乙方应于每月5日前向甲方支付当月租金。月租金为人民币6800元。押金为两个月租金，即13600元。\n"
    blocks = [_block(1, lease, 0, conflicting=True)]
    q = "租金是每月8000元，对吗？"
    scored = score_blocks(q, blocks, scorer)  # type: ignore[arg-type]
    best = max(scored, key=lambda x: x.score)
    assert "6800" not in best.sentence.text  # the scorer alone would lead with another sentence
    quoted = select_quoted(blocks, scored, Settings().generation, q)
    assert "6800元" in quoted.sentences[0].text and quoted.conflicting


_TRYOUT_RENT = (
    "第三条 租金及支付方式\n月租金为人民币6800元（大写：陆仟捌佰元整）。租金按季度支付，乙方应于每季度"
    "第一个月的5日前向甲方支付当季租金人民币20400元。甲方收到租金后应向乙方出具收据。\n"
)
_TRYOUT_DEPOSIT = "第四条 押金\n乙方应于本合同签订之日向甲方支付押金人民币13600元（相当于两个月租金）。\n"


@pytest.mark.parametrize("q", ["租金是每月8000元，对吗？", "Is the monthly rent 8000 yuan?"])
def test_the_true_rent_leads_when_deposit_and_quarterly_sums_contradict_as_much(
    scorer: object, q: str
) -> None:
    """The browser try-out's lease: 6800元, 20400元 and 13600元 all stand near "租金" and contradict
    8000元 equally; the sentence whose value follows the question's words ("月租金为") leads."""
    blocks = [
        _block(1, _TRYOUT_RENT, 0, conflicting=True),
        _block(2, _TRYOUT_DEPOSIT, len(_TRYOUT_RENT), conflicting=True),
    ]
    scored = score_blocks(q, blocks, scorer)  # type: ignore[arg-type]
    quoted = select_quoted(blocks, scored, Settings().generation, q)
    assert quoted.sentences[0].text.startswith("月租金为人民币6800元")


def test_the_best_clause_saying_more_of_the_question_keeps_the_lead_over_a_named_heading() -> None:
    """Browser try-out: for "那逾期付租金怎么处理？" the three sentences under "第三条 租金及支付方式" (a heading
    naming 租金 and 付) filled the quote and left out the late-payment clause "第七条 违约责任", whose sentences
    the scorer ranked first and which uses 逾期, 付 and 租金 at once."""
    lease = (
        "第三条 租金及支付方式\n月租金为人民币6800元。租金按季度支付，乙方应于每季度第一个月的5日前支付。"
        "甲方收到租金后应向乙方出具收据。\n"
        "第七条 违约责任\n乙方逾期支付租金的，每逾期一日，应按当季租金的千分之五向甲方支付违约金。"
        "逾期超过十五日的，甲方有权解除合同。\n"
    )
    blocks = [_block(1, lease, 0)]
    q = "那逾期付租金怎么处理？"

    def scores(_q: str, sentences: list[str]) -> list[float]:  # the fitted scorer's order in the pipeline
        return [
            0.9 if "十五日" in t else 0.89 if "违约金" in t else 0.87 if "收据" in t else 0.81
            for t in sentences
        ]

    s = Settings()
    quoted = select_quoted(blocks, score_blocks(q, blocks, scores), s.generation, q)
    assert [x.clause.split()[0] for x in quoted.sentences] == ["第七条", "第七条", "第三条"]
    assert any(x.text.startswith("乙方逾期支付租金的") for x in quoted.sentences)


def test_the_best_sentence_using_as_many_question_words_keeps_the_lead_over_a_named_heading() -> None:
    """Session 42 try-out: for "竣工验收后付多少？" the construction contract's table row "竣工验收合格 | 累计95% | …"
    (0.92, under its table's header, which names nothing asked) was quoted after a software contract's sentence
    under "6. ACCEPTANCE TESTING" (0.58, a heading naming 验收 through the glossary), though both use two of the
    question's words: a tie is no reason to pass over the best-scored clause."""
    works = (
        "第三条 合同价款与支付\n付款节点 | 支付比例 | 支付时间\n竣工验收合格 | 累计95% | 验收合格后28日内\n"
    )
    software = (
        "6. ACCEPTANCE TESTING AT EACH AUTHORIZED LOCATION\n(a) For each new Authorized Location, upon written "
        "notice by Garman of the completion of installation, Sparkling shall carry out the acceptance tests.\n"
    )
    blocks = [_block(1, works, 0), _block(2, software, 500)]
    q = "竣工验收后付多少？"

    def scores(_q: str, sentences: list[str]) -> list[float]:  # the pipeline's scores in the try-out
        return [0.92 if "累计95%" in t else 0.58 if "Garman" in t else 0.06 for t in sentences]

    quoted = select_quoted(blocks, score_blocks(q, blocks, scores), Settings().generation, q)
    assert "累计95%" in [x.text for x in quoted.sentences if x.n == 1][-1]
    assert quoted.sentences[0].n == 1


def test_a_heading_naming_the_question_in_its_own_words_wins_a_tie() -> None:
    """Session 42 try-out: for "承包人可以分包吗？" a distributor's "shall not sub-contract" (0.80, under "16. Assignment",
    which names nothing asked) and "第五条 分包" (0.75) use one question word each; the heading that names 分包 in
    the question's own words leads."""
    works = "第五条 分包\n乙方不得将本工程转包，未经甲方书面同意不得将主体结构以外的工程分包。\n"
    dist = "16. Assignment and other dealings prohibited\nThe Distributor shall not sub-contract any of its obligations.\n"
    blocks = [_block(1, dist, 0), _block(2, works, 500)]
    q = "承包人可以分包吗？"

    def scores(_q: str, sentences: list[str]) -> list[float]:
        return [0.8 if "Distributor" in t else 0.75 for t in sentences]

    quoted = select_quoted(blocks, score_blocks(q, blocks, scores), Settings().generation, q)
    assert quoted.sentences[0].text.startswith("乙方不得将本工程转包")


def test_party_and_date_lines_are_sentences_not_headings() -> None:
    """ "出租方（甲方）：北京华信置业有限公司" has no closing punctuation; read as a heading it was never quoted,
    and "出租方是谁？" quoted the premises clause instead. A numbered clause label stays a heading."""
    head = "房屋租赁合同\n出租方（甲方）：北京华信置业有限公司\n承租方（乙方）：李明\n\n第一条 房屋\n甲方将房屋出租给乙方。\n签订日期：2025年2月20日"
    texts = [s.text for s in block_sentences(_block(1, head, 0))]
    assert texts == [
        "出租方（甲方）：北京华信置业有限公司",
        "承租方（乙方）：李明",
        "甲方将房屋出租给乙方。",
        "签订日期：2025年2月20日",
    ]
    assert is_field_line("Licensor: Northwind Software Inc.") and is_field_line(
        "Effective Date: January 15, 2025"
    )
    for heading in ("第三条：租金", "Section 3: Fees", "2.1: Grant", "第二条 租赁期限"):
        assert not is_field_line(heading) and is_heading_line(heading), heading


def test_a_numbered_title_case_heading_is_no_sentence() -> None:
    """ "10.3 Entire Agreement; Amendments." was quoted as an answer to a renewal question."""
    text = "10.3 Entire Agreement; Amendments.\nThis Agreement may be amended only in writing signed by both parties."
    sentences = block_sentences(_block(1, text, 0))
    assert [s.text for s in sentences] == [
        "This Agreement may be amended only in writing signed by both parties."
    ]
    assert sentences[0].heading == "10.3 Entire Agreement; Amendments."
    inline = block_sentences(
        _block(1, "6.2 Trademark Grant. Licensor grants Licensee a licence to the Marks.", 0)
    )
    assert [s.text for s in inline] == ["Licensor grants Licensee a licence to the Marks."]
    assert not is_heading_line("7.2 Each party shall pay its own costs.")


SIGNED_LEASE = (
    "第四条 押金\n乙方应于本合同签订之日向甲方支付押金人民币13600元。\n\n"
    "第九条 其他\n本合同一式两份，甲乙双方各执一份，自双方签字盖章之日起生效。\n签订日期：2025年2月20日\n"
)


def test_a_when_question_quotes_the_sentence_holding_a_date_first() -> None:
    """For "合同什么时候签的？" the sentence scorer ranked the deposit sentence ("本合同签订之日", no date)
    and the signature clause above "签订日期：2025年2月20日": they use the question's words, the date
    line holds what was asked. The date line leads now. The fitted scorer (with the Chinese head)
    ranks it first by itself; under scores that rank it last (as the scorer did) it leads only with
    the setting on."""
    q = "合同什么时候签的？"
    s = Settings()
    blocks = [_block(1, SIGNED_LEASE, 0)]
    scored = score_blocks(q, blocks, sentence_scorer(s))
    quoted = select_quoted(blocks, scored, s.generation, q)
    assert quoted.sentences[0].text == "签订日期：2025年2月20日", [x.text for x in quoted.sentences]
    as_before = {"签订日期：2025年2月20日": 0.54}  # the deposit and signature sentences: 0.62, 0.60 before
    ranked_last = score_blocks(
        q, blocks, lambda q, xs: [as_before.get(x, 0.62 - 0.02 * i) for i, x in enumerate(xs)]
    )
    assert select_quoted(blocks, ranked_last, s.generation, q).sentences[0].text == "签订日期：2025年2月20日"
    off = s.generation.model_copy(update={"quoted_prefer_asked_value": False})
    assert select_quoted(blocks, ranked_last, off, q).sentences[0].text != "签订日期：2025年2月20日"


LATE_LEASE = (
    "第三条 租金及支付方式\n月租金为人民币6800元（大写：陆仟捌佰元整）。租金按季度支付，乙方应于每季度第一个月的5日前"
    "向甲方支付当季租金人民币20400元。甲方收到租金后应向乙方出具收据。\n\n"
    "第七条 违约责任\n乙方逾期支付租金的，每逾期一日，应按当季租金的千分之五向甲方支付违约金；逾期超过十五日的，甲方有权解除合同。\n"
)
SHARE_PRICE = "第二条 转让价款及支付\n本次股权转让价款为人民币450万元。乙方应于本协议签订之日起十五日内将全部价款支付至甲方指定账户。\n"
LEASE_DEPOSIT = (
    "第四条 押金\n乙方应于本合同签订之日向甲方支付押金人民币13600元（相当于两个月租金）。租赁期满或合同解除后，乙方结清房租、"
    "水电费等各项费用并按约定交还房屋的，甲方应于七日内将押金无息退还乙方。\n"
)


def test_the_fitted_sentence_scorer_weighs_relevance_beside_evidence() -> None:
    """The try-out's "逾期付租金怎么办？" (a lease and a share agreement) quoted the quarterly payment
    sentence, the share agreement's payment sentence and the receipt sentence, not the late-payment
    clause: on evidence alone the deposit sentence (0.84) led the late-payment one (0.83) and the
    payment sentences were level with it; their relevance (0.3-0.6 against 0.72) tells them apart."""
    q = "逾期付租金怎么办？"
    s = Settings()
    blocks = [_block(1, LATE_LEASE, 0), _block(2, SHARE_PRICE, 1000), _block(3, LEASE_DEPOSIT, 2000)]
    scored = score_blocks(q, blocks, sentence_scorer(s))
    texts = [x.text for x in select_quoted(blocks, scored, s.generation, q).sentences]
    assert texts[0].startswith("乙方逾期支付租金的") and not any("全部价款" in t for t in texts), texts


LICENCE_END = (
    "SOFTWARE LICENSE AGREEMENT\n\nThis Software License Agreement is entered into as of January 15, 2025 by and "
    'between Northwind Software Inc., a Delaware corporation ("Licensor"), and Bluefield Analytics LLC, a New '
    'York limited liability company ("Licensee").\n\n10. GENERAL\n10.1 This Agreement constitutes the entire '
    "agreement between the parties and supersedes all prior agreements relating to its subject matter.\n"
    "IN WITNESS WHEREOF, the parties have executed this Agreement as of the Effective Date.\n"
)


def test_a_question_who_the_parties_are_quotes_the_sentence_naming_them_first() -> None:
    """ "Who are the parties to this agreement?" quoted "IN WITNESS WHEREOF, the parties have executed
    this Agreement" and the entire-agreement sentence (the question's words) before the preamble
    that names both companies; a question asking who a party is asks for a name. Scores as a
    word-matching scorer gives them, each within reach of the best."""
    q = "Who are the parties to this agreement?"
    s = Settings()
    blocks = [_block(1, LICENCE_END, 0)]
    given = {"This Software": 0.62, "10.1 This": 0.76, "IN WITNESS": 0.73}
    scored = [
        ScoredSentence(x, next(v for k, v in given.items() if x.text.startswith(k)))
        for x in block_sentences(blocks[0])
    ]
    quoted = select_quoted(blocks, scored, s.generation, q)
    assert "Northwind Software Inc." in quoted.sentences[0].text, [x.text for x in quoted.sentences]
    off = s.generation.model_copy(update={"quoted_prefer_asked_value": False})
    assert select_quoted(blocks, scored, off, q).sentences[0].text.startswith("10.1 This")


def _quoted_texts(text: str, question: str) -> list[str]:
    """The quoted answer's sentences for one block, scored by the default (fitted) sentence scorer."""
    s = Settings()
    blocks = [_block(1, text, 0)]
    scored = score_blocks(question, blocks, sentence_scorer(s))
    return [x.text for x in select_quoted(blocks, scored, s.generation, question).sentences]


PERSON_PARTY = (
    "股权转让协议\n转让方（甲方）：王建国\n受让方（乙方）：宁波海曙投资合伙企业（有限合伙）\n"
    "第一条 转让标的\n甲方将其持有的杭州云帆科技有限公司30%的股权转让给乙方。\n"
)


def test_every_party_line_is_quoted_for_a_party_question_before_a_company_mentioned() -> None:
    """The line naming a person (0.39) fell below the floor beside the one naming a company (0.84),
    and the shares' company ("杭州云帆科技有限公司30%的股权") was quoted instead of the transferor."""
    texts = _quoted_texts(PERSON_PARTY, "Who are the parties to the share transfer agreement?")
    assert set(texts[:2]) == {"转让方（甲方）：王建国", "受让方（乙方）：宁波海曙投资合伙企业（有限合伙）"}, (
        texts
    )


FEES = (
    "3. FEES AND PAYMENT\n3.1 Licensee shall pay Licensor an annual license fee of USD 84,000 (eighty-four thousand "
    "US dollars).\n3.2 The annual license fee is payable in advance within thirty (30) days after the Effective "
    "Date and each anniversary thereof. Late payments bear interest at one percent (1%) per month.\n"
)


def test_an_amount_question_quotes_the_sentence_with_an_amount_before_one_with_a_bare_number() -> None:
    """Browser try-out: "What is the annual license fee?" quoted the payment-term sentence ("thirty (30)
    days", a number, which counts as holding an amount) before "an annual license fee of USD 84,000"."""
    texts = _quoted_texts(FEES, "What is the annual license fee?")
    assert texts[0].startswith("3.1 Licensee shall pay"), texts


RENT_BY_QUARTER = (
    "第三条 租金及支付方式\n月租金为人民币6800元（大写：陆仟捌佰元整）。租金按季度支付，乙方应于每季度第一个月的5日前"
    "向甲方支付当季租金人民币20400元。甲方收到租金后应向乙方出具收据。\n"
)


def test_an_amount_asked_per_month_quotes_the_monthly_amount_first() -> None:
    """ "房租一个月多少钱？" quoted the quarterly 20400 alone (its 第一个月 holds 一个月; the monthly 6800 scored under
    the floor) and the local model answered "房租一个月是20400元". The amount per the asked period leads; one
    per another period comes after; a question asking no period keeps the scorer's order."""
    s = Settings()
    blocks = [_block(1, RENT_BY_QUARTER, 0)]
    for q in ("房租一个月多少钱？", "月租金是多少？", "What is the monthly rent?"):
        scored = score_blocks(q, blocks, sentence_scorer(s))
        quoted = select_quoted(blocks, scored, s.generation, q)
        assert quoted.sentences[0].text.startswith("月租金为人民币6800元"), (
            q,
            [x.text for x in quoted.sentences],
        )
    q = "每季度交多少租金？"
    quoted = select_quoted(blocks, score_blocks(q, blocks, sentence_scorer(s)), s.generation, q)
    assert "20400" in quoted.sentences[0].text
    assert (
        per_periods("乙方应于本合同签订之日向甲方支付押金人民币13600元（相当于两个月租金）。") == frozenset()
    )


def test_a_sum_per_year_paid_monthly_does_not_answer_a_monthly_question_first() -> None:
    """Session 41 try-out: "公司每月为员工缴纳多少养老金？" quoted "a gross annual salary of GBP 78,000, payable monthly"
    before the pension clause that answers it: "payable monthly" counted as a sum per month."""
    s = Settings()
    terms = (
        "3. Salary. The Company shall pay the Employee a gross annual salary of GBP 78,000, payable monthly in arrears "
        "on the last working day of each month.\n9. Pension. The Company shall contribute 5% of basic salary to a group "
        "personal pension plan.\n"
    )
    blocks = [_block(1, terms, 0)]
    q = "公司每月为员工缴纳多少养老金？"
    quoted = select_quoted(blocks, score_blocks(q, blocks, sentence_scorer(s)), s.generation, q)
    assert "pension plan" in quoted.sentences[0].text, [x.text for x in quoted.sentences]


def test_a_sentence_is_scored_under_its_heading() -> None:
    """Seen in a try-out: "设备什么时候交货？" kept "第四条 交货" as evidence, but its sentence names no 交货 and
    alone scored under 0.6 of a licence's "… days after delivery.", so the delivery date was not quoted."""
    delivery = "第四条 交货\n乙方应于2026年6月30日前将设备运至甲方苏州工厂并负责安装调试。\n"
    licence = (
        "6. WARRANTY\n6.1 Licensor warrants that the Software will perform substantially in accordance "
        "with its documentation for ninety (90) days after delivery.\n"
    )
    blocks = [_block(1, delivery, 0), _block(2, licence, 100)]
    q = "设备什么时候交货？"
    fitted = sentence_scorer(Settings())
    quoted = select_quoted(blocks, score_blocks(q, blocks, fitted), Settings().generation, q)
    assert "2026年6月30日前" in quoted.sentences[0].text
    alone = fitted(q, [block_sentences(blocks[0])[0].text])[0]
    assert score_blocks(q, blocks[:1], fitted)[0].score > alone, "the heading lifts it"


LATE_DELIVERY = (
    "第七条 违约责任\n7.1 乙方逾期交付的，每逾期一日，应按合同总价款的千分之一向甲方支付违约金。\n"
    "7.2 甲方逾期付款的，每逾期一日，应按逾期金额的万分之五向乙方支付违约金。\n"
)
LATE_TRANSFER = (
    "第五条 违约责任\n乙方逾期支付转让价款的，每逾期一日应按未付金额的万分之五向甲方支付违约金。\n"
)


def test_sentences_scored_alike_are_ordered_by_the_question_words_they_hold() -> None:
    """Try-out (session 32): every late-payment sentence of a many-contract base scored about 0.95, and
    "7.1 乙方逾期交付的…", the one holding 交付, came fourth and was not quoted."""
    q = "逾期交付的违约金怎么算？"
    s = Settings()
    blocks = [_block(1, LATE_TRANSFER, 0), _block(2, LATE_DELIVERY, 500)]
    as_scored = {"乙方逾期支付转让价款的": 0.951, "7.2 甲方逾期付款的": 0.947, "7.1 乙方逾期交付的": 0.940}

    def saturated(_q: str, xs: list[str]) -> list[float]:
        return [next((v for k, v in as_scored.items() if x.startswith(k)), 0.1) for x in xs]

    scored = score_blocks(q, blocks, saturated)
    assert select_quoted(blocks, scored, s.generation, q).sentences[0].text.startswith("7.1 乙方逾期交付的")
    off = s.generation.model_copy(update={"quoted_tie_margin": 0.0})
    assert select_quoted(blocks, scored, off, q).sentences[0].text.startswith("乙方逾期支付转让价款的")
    # a sentence well below the best is no tie, whatever words it holds
    as_scored["7.1 乙方逾期交付的"] = 0.80
    lower = score_blocks(q, blocks, saturated)
    assert (
        select_quoted(blocks, lower, s.generation, q).sentences[0].text.startswith("乙方逾期支付转让价款的")
    )


TERRITORY = (
    "1. APPOINTMENT\n1.1 Supplier appoints Distributor as its exclusive distributor of the Products in the "
    'Territory.\n1.2 "Territory" means Singapore, Malaysia and Indonesia.\n1.3 Supplier shall not sell the '
    "Products directly to customers in the Territory.\n"
)


@pytest.mark.parametrize(
    ("question", "text", "definition"),
    [
        ("What is the territory?", TERRITORY, '1.2 "Territory" means Singapore, Malaysia and Indonesia.'),
        ("What is the Territory under the distribution agreement?", TERRITORY, '1.2 "Territory" means'),
        (
            "区域是指什么？",
            "第一条 定义\n本合同项下的销售以区域为限。“区域”是指中国大陆。\n",
            "“区域”是指中国大陆。",
        ),
    ],
)
def test_a_what_is_question_quotes_the_definition_of_its_term_first(
    question: str, text: str, definition: str
) -> None:
    """Try-out (session 32): "What is the territory?" quoted three sentences using "the Territory" and not
    the one defining it, which the scorer ranked last."""
    s = Settings()
    blocks = [_block(1, text, 0)]
    definition_last = score_blocks(
        question, blocks, lambda _q, xs: [0.5 if "means" in x or "是指" in x else 0.9 for x in xs]
    )
    quoted = select_quoted(blocks, definition_last, s.generation, question)
    assert quoted.sentences[0].text.startswith(definition), [x.text for x in quoted.sentences]


def test_a_definition_of_another_term_does_not_lead() -> None:
    s = Settings()
    text = 'Definitions\n"Contract" means this agreement.\nThe total price is USD 10,000.\n'
    blocks = [_block(1, text, 0)]
    q = "What is the total price of the contract?"
    scored = score_blocks(q, blocks, lambda _q, xs: [0.5 if "means" in x else 0.9 for x in xs])
    assert (
        select_quoted(blocks, scored, s.generation, q).sentences[0].text == "The total price is USD 10,000."
    )


FEE_TABLE = (
    "第四条 物业服务费\n4.1 住宅物业服务费按建筑面积每月每平方米3.5元收取。\n\n"
    "物业类型 | 收费标准（元/平方米·月）\n住宅 | 3.5\n商铺 | 6.0\n\n"
    "4.2 物业服务费按季度预缴。\n"
)


def test_a_table_row_is_read_and_quoted_under_its_header(scorer: object) -> None:
    """Session 33: "商铺的物业费是多少？" quoted the 住宅 sentence above the fee table; a row quoted alone
    ("商铺 | 6.0") says neither what the 6.0 is nor its unit, and a header alone says no fee at all."""
    doc = PREFIX + FEE_TABLE
    block = _block(1, FEE_TABLE, len(PREFIX))
    sentences = block_sentences(block)
    rows = [s for s in sentences if "|" in s.text]
    assert [s.text for s in rows] == ["物业类型 | 收费标准（元/平方米·月）", "住宅 | 3.5", "商铺 | 6.0"]
    assert all(doc[s.start : s.end] == s.text for s in sentences)
    assert rows[0].table_header == -1 and rows[0].heading == "第四条 物业服务费"
    assert {s.table_header for s in rows[1:]} == {rows[0].position}
    assert rows[2].heading == rows[0].text
    s = Settings()
    quoted = select_quoted(
        [block], score_blocks("商铺的物业费是多少？", [block], scorer), s.generation, "商铺的物业费是多少？"
    )  # type: ignore[arg-type]
    texts = [q.text for q in quoted.sentences]
    assert texts[:2] == ["物业类型 | 收费标准（元/平方米·月）", "商铺 | 6.0"], texts
    header_alone = [ScoredSentence(x, 0.9 if x is rows[0] else 0.0) for x in sentences]
    alone = select_quoted([block], header_alone, s.generation)
    assert [q.text for q in alone.sentences][:3] == [rows[0].text, "住宅 | 3.5", "商铺 | 6.0"]


def test_the_chosen_rows_of_a_table_are_quoted_in_the_table_s_order() -> None:
    """Session 42 try-out: "工程款怎么支付？" quoted the payment table's 竣工验收 row above its 预付款 row (their scores'
    order); a schedule reads top to bottom."""
    text = (
        "第三条 合同价款与支付\n付款节点 | 支付比例 | 支付时间\n预付款 | 10% | 合同签订后14日内\n"
        "主体结构封顶 | 累计60% | 经甲方确认后28日内\n竣工验收合格 | 累计95% | 验收合格后28日内\n"
    )
    blocks = [_block(1, text, 0)]
    q = "工程款怎么支付？"

    def scores(_q: str, sentences: list[str]) -> list[float]:
        return [
            0.8 if "竣工" in t else 0.78 if "预付款" in t else 0.3 if "封顶" in t else 0.1 for t in sentences
        ]

    got = [
        x.text
        for x in select_quoted(blocks, score_blocks(q, blocks, scores), Settings().generation, q).sentences
    ]
    assert got == [
        "付款节点 | 支付比例 | 支付时间",
        "预付款 | 10% | 合同签订后14日内",
        "竣工验收合格 | 累计95% | 验收合格后28日内",
    ]


def test_a_joined_follow_up_is_quoted_for_what_it_asks_itself() -> None:
    """Session 42 try-out: "Is it refundable?" after "What is the initial franchise fee?" is scored joined to it; the
    amount that "What is … fee" asks put the sentences holding one first, and "The initial fee is not refundable."
    (the best-scored) was left out of the three quoted."""
    text = (
        "3. FEES\n3.1 Franchisee shall pay an initial franchise fee of USD 45,000 on signing this Agreement. The "
        "initial fee is not refundable.\n3.2 Franchisee shall pay a royalty of six percent (6%) of Gross Sales.\n"
        "3.3 Franchisee shall contribute two percent (2%) of Gross Sales to the Brand Fund.\n"
    )
    blocks = [_block(1, text, 0)]
    q = "What is the initial franchise fee? Is it refundable?"

    def scores(_q: str, sentences: list[str]) -> list[float]:  # the pipeline's scores in the try-out
        return [
            0.89 if "refundable" in t else 0.82 if "45,000" in t else 0.79 if "Brand" in t else 0.72
            for t in sentences
        ]

    got = select_quoted(blocks, score_blocks(q, blocks, scores), Settings().generation, q).sentences
    assert got[0].text == "The initial fee is not refundable.", [x.text for x in got]
    first = select_quoted(
        blocks, score_blocks(q, blocks, scores), Settings().generation, "What is the initial franchise fee?"
    )
    assert "45,000" in first.sentences[0].text  # asked alone, the amount still leads


def test_a_table_header_scores_no_higher_than_its_best_row() -> None:
    """Session 40 try-out: read under its clause heading, a repayment table's header "期次 | 还款日 | 还款本金" scored
    0.90 for "逾期还款怎么处理？" (its rows 0.70-0.73), and the quoted answer opened with the whole table."""
    text = (
        "第五条 还款计划\n期次 | 还款日 | 还款本金\n第一期 | 2026年12月31日 | 人民币50万元\n"
        "第二期 | 2027年4月30日 | 人民币100万元\n第八条 逾期还款\n乙方未按期偿还本金或利息的，逾期部分按借款年利率上浮50%计收罚息。\n"
    )
    blocks = [_block(1, text, 0)]
    q = "逾期还款怎么处理？"

    def scores(_q: str, sentences: list[str]) -> list[float]:  # a row read under its header holds 期次 too
        return [
            0.7 if "第一期" in t else 0.6 if "第二期" in t else 0.9 if "期次" in t else 0.85
            for t in sentences
        ]

    scored = {x.sentence.text: x.score for x in score_blocks(q, blocks, scores)}
    assert scored["期次 | 还款日 | 还款本金"] == 0.7
    got = select_quoted(blocks, score_blocks(q, blocks, scores), Settings().generation, q).sentences
    assert got[0].text.startswith("乙方未按期偿还本金"), [x.text for x in got]


def test_the_clauses_of_one_sentence_are_quoted_in_their_order() -> None:
    """Session 36 browser try-out: the 70% clause after 3.2's semicolon scored above the 30% clause before it and
    was quoted first, reading the sentence backwards; separate sentences keep best-first."""
    pay = (
        "第三条 合同价款及支付\n3.1 本合同总价款为人民币48万元。\n"
        "3.2 合同签订后5个工作日内，甲方支付总价款的30%；验收合格后10个工作日内，甲方支付剩余70%。\n"
    )
    blocks = [_block(2, pay, 0)]
    q = "软件开发合同的款项怎么支付？"

    def scores(_q: str, sentences: list[str]) -> list[float]:  # the order the try-out saw: 70%, 3.1, 30%
        return [0.9 if "70%" in t else 0.8 if "48万" in t else 0.7 for t in sentences]

    got = [
        x.text
        for x in select_quoted(blocks, score_blocks(q, blocks, scores), Settings().generation, q).sentences
    ]
    assert (
        got.index("3.2 合同签订后5个工作日内，甲方支付总价款的30%；")
        == got.index("验收合格后10个工作日内，甲方支付剩余70%。") - 1
    )


def test_the_quoted_answer_says_the_documents_differ_and_quotes_the_statement_first(scorer: object) -> None:
    """Session 36: "The probation period is 90 days, right?" quoted the six-month clause under "No —" and left
    out the other agreement's ninety days; now both, the one stating the question's value first."""
    six = "The first six (6) months are a probationary period. Employment starts on March 1, 2026.\n"
    ninety = "1.2 The first ninety (90) days of employment are a probationary period.\n"
    blocks = [
        _block(1, six, 0, conflicting=True),
        replace(_block(2, ninety, 500), affirming=True, doc="b.txt"),
    ]
    q = "The probation period is 90 days, right?"
    quoted = select_quoted(blocks, score_blocks(q, blocks, scorer), Settings().generation, q)  # type: ignore[arg-type]
    assert [x.n for x in quoted.sentences][:2] == [2, 1]
    assert quoted.differing and quoted.render("en").startswith("The documents differ")
    assert quoted.render("zh").startswith("各文件约定不一致")
    alone = select_quoted(blocks[:1], score_blocks(q, blocks[:1], scorer), Settings().generation, q)  # type: ignore[arg-type]
    assert not alone.differing and alone.render("en").startswith("No —")


def test_party_lines_come_last_for_a_question_that_asks_no_party() -> None:
    """Session 40 browser try-out: "What happens if the borrower misuses the loan?" opened with the borrower's and
    the lender's party lines (借款人 meets "borrower"), above the clause that answers."""
    text = (
        "借款合同\n出借人（甲方）：深圳前海汇融投资有限公司\n借款人（乙方）：广州市天河区宏图餐饮管理有限公司\n"
        "第九条 违约与提前收回\n乙方挪用借款或连续两期未按期还款的，甲方有权提前收回全部借款。\n"
    )
    blocks = [_block(1, text, 0)]

    def scores(_q: str, sentences: list[str]) -> list[float]:
        return [0.9 if "借款人" in t else 0.85 if "出借人" in t else 0.8 for t in sentences]

    def quoted(q: str) -> list[str]:
        return [
            x.text
            for x in select_quoted(
                blocks, score_blocks(q, blocks, scores), Settings().generation, q
            ).sentences
        ]

    assert quoted("What happens if the borrower misuses the loan?")[0].startswith("乙方挪用借款")
    assert quoted("Who is the borrower?")[0].startswith(
        "借款人"
    )  # a question asking the party keeps its line first


def test_a_sentence_ending_in_a_colon_is_not_quoted_alone() -> None:
    """Session 41 try-out: "员工离职需要提前多久通知？" quoted "(c) If either party:" as the answer's third line: a lead-in
    says nothing without the items after it."""
    text = (
        "17. TERM AND TERMINATION\n(b) Licensee may terminate this Agreement at any time upon ninety (90) calendar days "
        "written notice to Licensor.\n(c) If either party:\n(i) becomes insolvent; or\n(ii) ceases to do business,\n"
        "the other party may terminate this Agreement at once by written notice.\n"
    )
    texts = _quoted_texts(text, "员工离职需要提前多久通知？")
    assert texts and all(not t.rstrip().endswith(":") for t in texts), texts
    assert is_lead_in("乙方的义务如下：") and not is_lead_in("出租方（甲方）：北京华信置业有限公司")
    # a rule stated before its list is no bare lead-in
    assert not is_lead_in("承包方不得单方解除土地经营权流转合同，但受让方有下列情形之一的除外：")


def test_clauses_opening_with_another_party_than_the_asked_one_come_last() -> None:
    """Session 43 try-out: "乙方逾期交付的违约金怎么计算？" opened with the 甲方 late-payment clause, then a share transfer's
    乙方 late-payment clause (the sentence scorer saturates on all three: 0.967, 0.942, 0.923); the 乙方 clause holding the
    asked act 交付 now leads. Session 42: "特许人可以在什么情况下解除合同？" quoted 6.2, the franchisee's right, first."""
    fitted = sentence_scorer(Settings())
    shares = "第五条 违约责任\n乙方逾期支付价款的，每逾期一日，按逾期金额的万分之五向甲方支付违约金；逾期超过30日的，甲方有权解除本协议。"
    development = (
        "第六条 违约责任\n乙方逾期交付的，每逾期一日，应按研究开发经费总额的千分之一向甲方支付违约金；逾期超过30日的，甲方有权解除合同"
        "并要求乙方退还已付款项。\n甲方逾期付款的，每逾期一日，应按逾期金额的万分之五向乙方支付违约金。"
    )
    both = (
        "第六条 违约责任\n甲方逾期付款的，每逾期一日，应按逾期金额的万分之五向乙方支付违约金。\n"
        "乙方逾期交付的，每逾期一日，应按研究开发经费总额的千分之一向甲方支付违约金。"
    )
    franchise = (
        "6. TERMINATION\n6.2 Franchisee may terminate this Agreement on ninety (90) days' written notice if "
        "Franchisor materially breaches it.\n6.1 Franchisor may terminate this Agreement on written notice if "
        "Franchisee fails to pay any amount due within fifteen (15) days after notice of non-payment."
    )
    for q, blocks, lead in (
        ("乙方逾期交付的违约金怎么计算？", [_block(1, shares, 0), _block(2, development, 0)], "乙方逾期交付"),
        ("甲方逾期付款要承担什么责任？", [_block(1, both, 0)], "甲方逾期付款"),
        ("特许人可以在什么情况下解除合同？", [_block(1, franchise, 0)], "6.1 Franchisor"),
    ):
        quoted = select_quoted(blocks, score_blocks(q, blocks, fitted), Settings().generation, q)
        assert quoted.sentences[0].text.startswith(lead), (q, quoted.sentences[0].text)


def test_a_heading_in_the_question_s_own_words_leads_one_naming_it_only_translated() -> None:
    """Session 45 try-out: for "每期租金是多少？什么时候支付？" over a Chinese finance lease and an English SaaS agreement, the
    SaaS fee sentence (0.63, under "3. Fees and Payment", which names 支付 only through the glossary) was quoted above
    the lease's rent sentence (0.95, under "第三条 租金及支付"): both headings counted as naming the question alike."""
    saas = "3. Fees and Payment\n3.1 Customer shall pay an annual subscription fee of EUR 84,000, invoiced annually.\n"
    lease = "第三条 租金及支付\n3.1 租金总额为人民币3,960,000元，分12期支付，每期租金为人民币330,000元。\n"
    blocks = [_block(1, saas, 0), _block(2, lease, 500)]
    q = "每期租金是多少？什么时候支付？"

    def scores(_q: str, sentences: list[str]) -> list[float]:
        return [0.63 if "Customer" in t else 0.95 for t in sentences]

    quoted = select_quoted(blocks, score_blocks(q, blocks, scores), Settings().generation, q)
    assert quoted.sentences[0].text.startswith("3.1 租金总额"), [x.text for x in quoted.sentences]


def test_a_sentence_in_the_other_language_saying_less_of_the_question_is_left_out() -> None:
    """Session 45 try-out over a Chinese finance lease beside an English SaaS agreement: "每期租金是多少？什么时候支付？" quoted
    "Customer shall pay an annual subscription fee …" (支付 = pay, nothing else of the question) under the rent
    sentence, and left out the lease's payment-day sentence. A sentence in the question's language stays, and an English
    sentence is quoted for a Chinese question when it leads."""
    lease = (
        "第三条 租金及支付\n3.1 租金总额为人民币3,960,000元，分12期支付，每三个月为一期，每期租金为人民币330,000元。\n"
        "3.2 乙方应于每期期末月的15日前将当期租金支付至甲方指定账户。\n"
    )
    saas = "3. Fees and Payment\n3.1 Customer shall pay an annual subscription fee of EUR 84,000, invoiced annually.\n"
    blocks = [_block(1, lease, 0), _block(2, saas, 500)]
    q = "每期租金是多少？什么时候支付？"

    def scores(_q: str, sentences: list[str]) -> list[float]:
        return [0.95 if "330,000" in t else 0.85 if "Customer" in t else 0.6 for t in sentences]

    quoted = select_quoted(blocks, score_blocks(q, blocks, scores), Settings().generation, q)
    texts = [x.text for x in quoted.sentences]
    assert not any("Customer" in t for t in texts) and any(t.startswith("3.2") for t in texts), texts
    alone = select_quoted([blocks[1]], score_blocks(q, [blocks[1]], scores), Settings().generation, q)
    assert alone.sentences and "Customer" in alone.sentences[0].text
