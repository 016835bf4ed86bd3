"""The short prompt: best sentences with their headings, within the token budget, top passage kept."""

from __future__ import annotations

from rag_core.generation.compact import compact_blocks, needs_previous, prompt_budget
from rag_core.generation.evidence_first import fixed_prompt_tokens, prepare_answer
from rag_core.generation.prompt import EvidenceBlock, build_messages, render_block
from rag_core.generation.quoted import score_blocks
from rag_core.generation.sentence_scores import lexical_scores
from rag_core.llm.openai_client import estimate_tokens
from rag_core.settings import Settings

FEES = (
    "Section 4 Compensation\nThe Company shall pay the Consultant USD 250 per hour. "
    "Such fees are invoiced monthly and payable within 30 days. "
    + " ".join(
        f"The Consultant shall keep record number {i} of the services in good order." for i in range(12)
    )
    + "\n"
)
TERM = "Section 9 Term\nThis Agreement runs for two years. " + "Either party may give notice. " * 10 + "\n"
LEASE = (
    "第一条 租金\n租金每月人民币5000元，乙方应于每月5日前支付当月租金。前款租金不含物业费。\n\n"
    + "第二条 其他\n"
    + "双方应当诚信履约。" * 20
    + "\n"
)


def _lex(q: str, xs: list[str]) -> list[float]:
    return lexical_scores(q, xs, 0.3, 3)


def _blocks() -> list[EvidenceBlock]:
    return [
        EvidenceBlock(1, "Consulting Agreement", "c.txt", 3, "Section 9", TERM, start=0, end=len(TERM)),
        EvidenceBlock(
            2,
            "Consulting Agreement",
            "c.txt",
            2,
            "Section 4",
            FEES,
            start=len(TERM),
            end=len(TERM) + len(FEES),
        ),
    ]


def _prompt_tokens(question: str, blocks: list[EvidenceBlock]) -> int:
    return sum(estimate_tokens(m.content) for m in build_messages(question, [], blocks, "en"))


def test_prompt_stays_within_the_budget_and_keeps_the_best_sentences() -> None:
    question = "What hourly rate does the Company pay the Consultant?"
    blocks = _blocks()
    scored = score_blocks(question, blocks, _lex)
    fixed = fixed_prompt_tokens(question, [], "en", False)
    budget = fixed + 120
    cp = compact_blocks(blocks, scored, fixed, budget, "en", 0.0, top=2)
    assert _prompt_tokens(question, cp.blocks) <= budget + 8  # the fixed part's "(no evidence)" line
    assert cp.estimated_tokens <= budget and not cp.over_budget
    fees = next(b for b in cp.blocks if b.n == 2)
    assert "USD 250 per hour" in fees.excerpt and fees.excerpt.startswith("Section 4 Compensation")
    assert "Such fees are invoiced monthly" in fees.excerpt  # "Such …" brings its predecessor along
    assert fees.text == FEES  # the citation still opens the whole clause
    assert cp.left_out > 0  # the long tail did not fit
    assert sum(estimate_tokens(render_block(b, "en")) for b in cp.blocks) < sum(
        estimate_tokens(render_block(b, "en")) for b in blocks
    )


def test_a_tiny_budget_never_drops_the_top_passage() -> None:
    question = "What hourly rate does the Company pay the Consultant?"
    blocks = _blocks()
    scored = score_blocks(question, blocks, _lex)
    fixed = fixed_prompt_tokens(question, [], "en", False)
    cp = compact_blocks(blocks, scored, fixed, fixed + 5, "en", 0.0, top=2)
    assert [b.n for b in cp.blocks] == [2] and "USD 250 per hour" in cp.blocks[0].excerpt
    assert cp.over_budget
    # without a named top block, the first block is the one kept
    first = compact_blocks(blocks, scored, fixed, fixed + 5, "en", 0.0)
    assert [b.n for b in first.blocks] == [1]


def test_low_scoring_sentences_stay_out_even_when_they_fit() -> None:
    question = "What hourly rate does the Company pay the Consultant?"
    blocks = _blocks()
    scored = score_blocks(question, blocks, _lex)
    roomy = compact_blocks(blocks, scored, 0, 100_000, "en", 0.0)
    strict = compact_blocks(blocks, scored, 0, 100_000, "en", 0.9)
    assert roomy.evidence_tokens > strict.evidence_tokens
    assert sum(len(v) for v in strict.sentences.values()) < sum(len(v) for v in roomy.sentences.values())


def test_chinese_sentences_with_headings_and_the_sentence_they_lean_on() -> None:
    question = "租金不含什么费用？"
    block = EvidenceBlock(1, "租赁合同", "l.txt", 1, "第一条", LEASE, start=0, end=len(LEASE))
    scored = score_blocks(question, [block], _lex)
    cp = compact_blocks([block], scored, 0, 60, "zh", 0.5)
    text = cp.blocks[0].excerpt
    assert text.startswith("第一条 租金") and "前款租金不含物业费" in text and "5000元" in text
    assert needs_previous("前款租金不含物业费。") and not needs_previous("租期三年。")


def test_prepare_answer_modes_and_budgets() -> None:
    s = Settings()
    question = "What hourly rate does the Company pay the Consultant?"
    plan = prepare_answer(question, [], _blocks(), "en", False, s, top=2, scorer=_lex)
    assert plan.quoted.sentences[0].text == "The Company shall pay the Consultant USD 250 per hour."
    assert plan.trace["prompt_mode"] == "sentences" and plan.compact is not None
    assert plan.trace["estimated_prompt_tokens"] <= s.generation.max_prompt_tokens
    s.generation.prompt_mode = "passages"
    whole = prepare_answer(question, [], _blocks(), "en", False, s, scorer=_lex)
    assert whole.compact is None and [b.text for b in whole.prompt_blocks] == [TERM, FEES]
    assert prompt_budget(s) == s.generation.max_prompt_tokens
    s.models.provider = "openai"
    assert prompt_budget(s) == s.generation.endpoint_max_prompt_tokens > s.generation.max_prompt_tokens


def test_a_semicolon_clause_is_shown_with_the_clause_before_it() -> None:
    """Session 36 browser try-out: the model was shown "验收合格后10个工作日内，甲方支付剩余70%。" without the clause before
    its semicolon ("合同签订后5个工作日内，甲方支付总价款的30%；") and paid the 70% within the 5 days."""
    pay = (
        "第三条 合同价款及支付\n3.1 本合同总价款为人民币48万元。\n"
        "3.2 合同签订后5个工作日内，甲方支付总价款的30%；验收合格后10个工作日内，甲方支付剩余70%。\n"
        + "双方应当诚信履约。" * 20
        + "\n"
    )
    block = EvidenceBlock(2, "软件开发合同", "s.txt", 1, "第三条", pay, start=0, end=len(pay))
    scores = {"验收合格后10个工作日内，甲方支付剩余70%。": 0.9}

    def only_second(_q: str, xs: list[str]) -> list[float]:
        return [scores.get(x.strip(), 0.0) for x in xs]

    scored = score_blocks("剩余款项什么时候支付？", [block], only_second)
    text = compact_blocks([block], scored, 0, 10_000, "zh", 0.5).blocks[0].excerpt
    assert "支付总价款的30%" in text and "剩余70%" in text


def test_a_sentence_correcting_the_premise_is_shown_whatever_it_scores() -> None:
    """Session 37: "试用期是90天，对吗？" left the CONFLICTING block out of the short prompt (its sentences scored
    under the floor); the model never saw the passage it is told to correct the premise from."""
    question = "What hourly rate does the Company pay the Consultant?"
    blocks = _blocks()
    scored = score_blocks(question, blocks, _lex)
    plain = compact_blocks(blocks, scored, 0, 100_000, "en", 0.9, top=2)
    assert [b.n for b in plain.blocks] == [2]
    notice = next(x.sentence for x in scored if x.sentence.block == 1 and "notice" in x.sentence.text)
    shown = compact_blocks(blocks, scored, 0, 100_000, "en", 0.9, top=2, required=[(1, notice.position)])
    assert [b.n for b in shown.blocks] == [1, 2] and notice.text in shown.blocks[0].excerpt


def test_prepare_answer_shows_the_quoted_correction_to_the_model() -> None:
    six = "The first six (6) months are a probationary period. " + "The Employee shall work diligently. " * 5
    ninety = "1.2 The first ninety (90) days of employment are a probationary period.\n"
    blocks = [
        EvidenceBlock(1, "Beta", "b.txt", 1, "1.2", ninety, start=0, end=len(ninety)),
        EvidenceBlock(2, "Acme", "a.txt", 1, "2", six, conflicting=True, start=0, end=len(six)),
    ]
    s = Settings()
    s.generation.prompt_min_relative = 1.0  # only the best sentence would be shown
    plan = prepare_answer("The probation period is 90 days, right?", [], blocks, "en", False, s, scorer=_lex)
    assert 2 in {x.n for x in plan.quoted.sentences}
    assert any(b.n == 2 and "six (6) months" in b.excerpt for b in plan.prompt_blocks)


def test_a_table_row_stands_on_its_own_line_and_the_quoted_rows_reach_the_model() -> None:
    """Session 45 try-out: the answer model read a service-level table as one line ("Monthly Uptime | Service Credit (%)
    99.9% or higher | 0 99.0% to below 99.9% | 10 …") and gave the wrong tier's credit; the support check, which reads a
    table by its lines, could not tell. The quoted rows (the tier the question's condition falls in, under its header)
    are in the prompt whatever they score."""
    rows = [
        "99.9% or higher | 0",
        "99.0% to below 99.9% | 10",
        "95.0% to below 99.0% | 25",
        "below 95.0% | 50",
    ]
    text = (
        "4. Service Levels\n4.1 Credits apply as follows:\nMonthly Uptime | Service Credit (%)\n"
        + "\n".join(rows)
    )
    block = EvidenceBlock(
        1, "SaaS", "saas.docx", 4, "4. Service Levels", text, False, 0, len(text), "d", "c1"
    )
    plan = prepare_answer(
        "What service credit applies if uptime is 98%?", [], [block], "en", False, Settings(), scorer=_lex
    )
    shown = plan.prompt_blocks[0].excerpt.split("\n")
    assert "Monthly Uptime | Service Credit (%)" in shown and "95.0% to below 99.0% | 25" in shown, shown
