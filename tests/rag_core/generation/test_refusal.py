"""Refusals say what was searched and why nothing qualified; risk-empty uses the KB's own text."""

from __future__ import annotations

from rag_core.generation.refusal import (
    count_labels,
    empty_answer_for,
    found_clause_lead,
    is_risk_empty,
    refusal_text,
    uncited_refusal_text,
)
from rag_core.models import Label, Verdict
from rag_core.settings import GenerationSettings

KB_EMPTY = "本库无相关证据，请咨询主办律师。"
COUNTS: dict[str, int] = {"IRRELEVANT": 3, "INJECTION": 1, "NO_EVIDENCE": 1}


def _verdict(label: Label, keep: bool) -> Verdict:
    return Verdict("p", {}, label, keep, label, "")


def test_english_refusal_names_the_search_and_each_reason() -> None:
    text = refusal_text("en", 5, {"IRRELEVANT": 3, "NO_EVIDENCE": 2}, "No evidence.", "Contracts")
    assert text.startswith("No evidence.\n")
    assert (
        "I searched 5 passages in 'Contracts'; none qualified: 3 irrelevant, 2 without answer evidence."
        in text
    )
    assert "rephras" in text  # not a risk case: a hint on what to try


def test_the_briefs_example_sentence() -> None:
    text = refusal_text("en", 5, COUNTS, "No evidence.", "Contracts")
    expected = (
        "I searched 5 passages in 'Contracts'; none qualified: 3 irrelevant, "
        "1 removed as prompt injection, 1 without answer evidence."
    )
    assert expected in text


def test_chinese_refusal_names_the_search_and_each_reason() -> None:
    text = refusal_text("zh", 5, {"IRRELEVANT": 3, "NO_EVIDENCE": 2}, KB_EMPTY, "合同库")
    assert text.startswith(KB_EMPTY)
    assert "在知识库「合同库」中检索了 5 段资料" in text
    assert "3 段与问题无关" in text and "2 段不含可作答的证据" in text


def test_risk_empty_answer_is_the_kb_text_plus_the_explanation_only() -> None:
    text = refusal_text("zh", 5, COUNTS, KB_EMPTY, "合同库")
    lines = text.split("\n")
    assert lines[0] == KB_EMPTY
    assert len(lines) == 2 and "1 段疑似提示注入已移除" in lines[1]
    assert "换用" not in text  # no invitation to rephrase after an injection attempt


def test_zero_passages_searched() -> None:
    assert "found no matching passages" in refusal_text("en", 0, {}, "No evidence.", "Contracts")
    assert "没有检索到任何相关段落" in refusal_text("zh", 0, {}, KB_EMPTY)


def test_one_passage_is_singular() -> None:
    assert "I searched 1 passage;" in refusal_text("en", 1, {"IRRELEVANT": 1}, "")


def test_is_risk_empty() -> None:
    assert is_risk_empty([_verdict("INJECTION", False), _verdict("IRRELEVANT", False)])
    assert not is_risk_empty([_verdict("INJECTION", False), _verdict("EVIDENCE", True)])
    assert not is_risk_empty([_verdict("IRRELEVANT", False), _verdict("NO_EVIDENCE", False)])
    assert not is_risk_empty([])


def test_count_labels() -> None:
    verdicts = [_verdict("IRRELEVANT", False), _verdict("IRRELEVANT", False), _verdict("INJECTION", False)]
    assert count_labels(verdicts) == {"IRRELEVANT": 2, "INJECTION": 1}


def test_empty_answer_prefers_the_knowledge_base_text() -> None:
    settings = GenerationSettings()
    assert empty_answer_for("zh", KB_EMPTY, settings) == KB_EMPTY
    assert empty_answer_for("zh", "  ", settings) == settings.empty_answer_zh
    assert empty_answer_for("en", "", settings) == settings.empty_answer_en


def test_uncited_refusal_explains_why_the_draft_was_withheld() -> None:
    text = uncited_refusal_text("en", 2, "No evidence.")
    assert text.startswith("No evidence.\n") and "none of the 2 kept passages" in text
    assert "2 段资料未被回答有效引用" in uncited_refusal_text("zh", 2, KB_EMPTY)


def test_the_found_clause_lead_names_the_missing_kind_of_value_when_known() -> None:
    assert "没有找到所问的期限" in found_clause_lead("zh", "竞业限制", "non-compete", "period")
    generic = found_clause_lead("zh", "竞业限制", "non-compete")
    assert "没有一段资料写明问题所问的内容" in generic and "期限" not in generic
    en = found_clause_lead("en", "责任无上限", "uncapped liability", "amount")
    assert en.startswith("An uncapped liability clause was found, but no amount could be read in it")
    assert found_clause_lead("en", "", "non-compete", "unknown kind").startswith(
        "A non-compete clause was found, but no passage states what was asked"
    )
