"""The sentences a cited passage contributes to an answer, and the page they are drawn on."""

from __future__ import annotations

from pathlib import Path

from rag_core.chunking import chunk_document
from rag_core.citation_spans import clip, resting_spans, sentence_spans
from rag_core.ingest.extract import extract
from rag_core.render import page_range, render_passage
from rag_core.settings import ChunkingSettings, GenerationSettings, IngestSettings
from tests.fixtures import make_docs

MIN_SHARE = GenerationSettings().highlight_min_overlap


def test_sentence_spans_are_trimmed_sentences() -> None:
    text = "第三条 押金\n乙方支付押金。押金十五日内退还。 Fees are due. Next"
    assert [text[a:b] for a, b in sentence_spans(text)] == [
        "第三条 押金",
        "乙方支付押金。",
        "押金十五日内退还。",
        "Fees are due.",
        "Next",
    ]


def test_the_answer_rests_on_the_sentences_it_restates() -> None:
    passage = "第三条 押金\n乙方应于签约之日起五日内支付押金人民币八万元。押金在期满后十五日内无息退还。\n第四条 维修"
    answer = "押金应在期满后十五日内退还。[1] 维修由甲方负责。[2]"
    spans = resting_spans(answer, 1, passage, 100, MIN_SHARE)
    assert [passage[a - 100 : b - 100] for a, b in spans] == ["押金在期满后十五日内无息退还。"]
    assert resting_spans(answer, 3, passage, 100, MIN_SHARE) == []  # [3] is not cited
    assert resting_spans("天气很好。[1]", 1, passage, 0, MIN_SHARE) == []  # nothing it states is there
    assert clip([(0, 10), (20, 30)], 5, 25) == [(5, 10), (20, 25)]


def test_a_two_page_clause_is_drawn_on_the_page_of_the_cited_sentence(tmp_path: Path) -> None:
    path = make_docs.write_zh_two_page_clause_pdf(tmp_path)
    data = path.read_bytes()
    ex = extract(data, path.name, IngestSettings())
    clause = next(
        c
        for c in chunk_document(ex.text, ex.spans, ChunkingSettings(), "d" * 64)
        if c.kind == "child" and "第三条" in c.text
    )
    assert page_range(ex.spans, ex.text, clause.start, clause.end) == (1, 2)
    answer = "押金在租赁期满且设备完好归还后十五日内无息退还。[1]"
    marks = resting_spans(answer, 1, clause.text, clause.start, MIN_SHARE)
    assert [ex.text[a:b] for a, b in marks] == [make_docs.TWO_PAGE_RETURN]
    shown = render_passage(data, ex.spans, ex.text, clause.start, clause.end, marks=marks)
    assert shown.page == 2 and shown.marked and len(shown.boxes) == 1
    first = render_passage(data, ex.spans, ex.text, clause.start, clause.end, marks=marks, page=1)
    assert first.page == 1 and not first.marked  # the cited sentence is not on page 1


def test_a_url_stays_inside_its_sentence() -> None:
    text = "通知发送至 https://e.example/n?id=1 或 www.e.com。第二句! Next one? yes."
    assert [text[a:b] for a, b in sentence_spans(text)] == [
        "通知发送至 https://e.example/n?id=1 或 www.e.com。",
        "第二句!",
        "Next one?",
        "yes.",
    ]


def test_a_citation_names_the_clause_its_highlighted_sentence_sits_in() -> None:
    """Browser try-out: a parent grown from three kept clauses was cited as "第三条 …; 第四条 …; 第七条 …"
    for a rent answer resting on one sentence of 第三条."""
    from rag_core.citation_spans import resting_clauses

    text = (
        "第三条 租金及支付方式\n月租金为人民币6800元。\n"
        "第四条 押金\n乙方应支付押金人民币13600元。\n"
        "第七条 违约责任\n逾期支付租金的，按日支付违约金。"
    )
    label = "第三条 租金及支付方式; 第四条 押金; 第七条 违约责任"
    offset = 100
    at = offset + text.index("月租金")
    assert resting_clauses(text, label, offset, [(at, at + 12)]) == "第三条 租金及支付方式"
    deposit = offset + text.index("乙方应支付")
    assert resting_clauses(text, label, offset, [(deposit, deposit + 5), (at, at + 5)]) == (
        "第三条 租金及支付方式; 第四条 押金"
    )
    assert resting_clauses(text, label, offset, []) == label


LICENCE_CONFIDENTIALITY = (
    "5. CONFIDENTIALITY\n"
    "5.1 Each party shall hold the other party's Confidential Information in strict confidence and shall not "
    "disclose it to any third party except as required to perform this Agreement.\n"
    "5.2 The obligations of this Section 5 continue during the Term and for five (5) years after the termination "
    "or expiration of this Agreement."
)


def test_a_chinese_answer_rests_on_the_english_sentence_stating_its_words_and_value() -> None:
    """The browser try-out's "保密义务持续五年 [1]" on the licence's clause 5 shared no character bigram with
    it, so the citation marked the retrieved span; through the glossary (义务/obligation, 持续/continue) and
    the period (五年 = five (5) years) it rests on 5.2, not on 5.1 (which holds two translated words)."""
    text = LICENCE_CONFIDENTIALITY
    spans = resting_spans("保密义务持续五年 [1]。", 1, text, 100, 0.3)
    assert [text[a - 100 : b - 100] for a, b in spans] == [text.splitlines()[2]]
    assert resting_spans("本协议适用纽约州法律 [1]。", 1, text, 100, 0.3) == []


def test_a_table_row_is_highlighted_with_its_header() -> None:
    """Session 33 (browser): "商铺的物业费是6.0元/平方米·月 [1]" highlighted the fee table's header, which holds the
    unit, and not the row "商铺 | 6.0" the answer rests on."""
    passage = (
        "第四条 物业服务费\n4.1 住宅物业服务费按建筑面积每月每平方米3.5元收取。\n\n"
        "物业类型 | 收费标准（元/平方米·月）\n住宅 | 3.5\n商铺 | 6.0"
    )
    spans = resting_spans("商铺的物业费是6.0元/平方米·月 [1]。", 1, passage, 100, 0.3)
    assert [passage[a - 100 : b - 100] for a, b in spans] == [
        "物业类型 | 收费标准（元/平方米·月）",
        "商铺 | 6.0",
    ]
    plain = resting_spans("住宅物业服务费按建筑面积每月每平方米3.5元收取 [1]。", 1, passage, 0, 0.3)
    assert [passage[a:b] for a, b in plain] == ["4.1 住宅物业服务费按建筑面积每月每平方米3.5元收取。"]
