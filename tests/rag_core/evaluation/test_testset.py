"""Test-set JSONL round trip, all-or-nothing import with line-numbered problems, generation, dedupe."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rag_core.evaluation.spans import Span
from rag_core.evaluation.testset import (
    EvalCase,
    GenerationNote,
    TestSetError,
    case_id,
    char_bigrams,
    check_jsonl,
    dedupe,
    generate_cases,
    jaccard,
    load_jsonl,
    parse_json_array,
    parse_jsonl,
    save_jsonl,
    to_jsonl,
)
from tests.fakeopenai import Reply
from tests.rag_core.evaluation.judge_server import JudgeServer

CASES = [
    EvalCase(
        id="zh-1",
        question="违约金是多少？",
        reference_answer="合同总额的10%。",
        source_chunks=["k1:c3"],
        gold_spans=[Span("合同.txt", 10, 42), Span("合同.txt", 60, 61)],
        difficulty="easy",
        origin="manual",
    ),
    EvalCase(id="en-2", question="Who may terminate?", origin="feedback"),
    EvalCase(
        id="gen-c1-1",
        question="What notice is required?",
        reference_answer="30 days",
        gold_spans=[],
        difficulty="hard",
        origin="generated",
    ),
]


def test_jsonl_round_trip(tmp_path: Path) -> None:
    text = to_jsonl(CASES)
    assert "违约金" in text  # Chinese written readably
    assert parse_jsonl(text) == CASES
    path = tmp_path / "set.jsonl"
    save_jsonl(CASES, path)
    assert load_jsonl(path) == CASES


def test_import_defaults_doc_key_and_origin() -> None:
    line = json.dumps({"question": "Q?", "gold_spans": [{"doc": "a.txt", "start": 1, "end": 5}]})
    (case,) = parse_jsonl(line + "\n\n", origin="imported")
    assert case.gold_spans == [Span("a.txt", 1, 5)]
    assert case.origin == "imported"
    assert case.reference_answer == "" and case.source_chunks == [] and case.difficulty is None
    assert case.id == case_id("Q?") == parse_jsonl(line)[0].id  # stable derived id
    (numbered,) = parse_jsonl(json.dumps({"id": 7, "question": "Q"}))
    assert numbered.id == "7"


BAD_FILE = "\n".join(
    [
        json.dumps({"id": "ok", "question": "fine", "reference_answer": "r"}),  # 1 good
        '{"question": "broken",',  # 2 invalid JSON
        json.dumps({"reference_answer": "no question"}),  # 3
        json.dumps({"question": "q", "gold_spans": [{"file": "a", "start": 9, "end": 3}]}),  # 4
        "",  # 5 blank: skipped, still counted
        json.dumps({"question": "q", "referance_answer": "typo"}),  # 6 unknown key
        json.dumps({"id": "ok", "question": "again"}),  # 7 duplicate id
        json.dumps({"question": "q", "difficulty": "extreme"}),  # 8
        json.dumps({"question": "q", "gold_spans": [{"file": "a", "start": True, "end": 3}]}),  # 9
        json.dumps(["not", "an", "object"]),  # 10
        json.dumps({"id": "good-2", "question": "also fine"}),  # 11 good
    ]
)


def test_bad_lines_are_all_reported_and_nothing_is_imported(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(BAD_FILE, encoding="utf-8")
    with pytest.raises(TestSetError) as info:
        load_jsonl(path)
    problems = info.value.problems
    assert [p.line for p in problems] == [2, 3, 4, 6, 7, 8, 9, 10]
    by_line = {p.line: p.message for p in problems}
    assert "not valid JSON" in by_line[2]
    assert "'question'" in by_line[3]
    assert "gold_spans[0]" in by_line[4] and "start <= end" in by_line[4]
    assert "referance_answer" in by_line[6]
    assert "already used on line 1" in by_line[7]
    assert "difficulty" in by_line[8]
    assert "integers" in by_line[9]
    assert "JSON object" in by_line[10]
    message = str(info.value)
    assert message.startswith("bad.jsonl: 8 bad line(s), nothing imported")
    assert "line 4:" in message


def test_check_jsonl_returns_good_cases_and_problems() -> None:
    cases, problems = check_jsonl(BAD_FILE)
    assert [c.id for c in cases] == ["ok", "good-2"]
    assert len(problems) == 8


def test_identical_idless_lines_collide() -> None:
    line = json.dumps({"question": "same"})
    with pytest.raises(TestSetError) as info:
        parse_jsonl(f"{line}\n{line}\n")
    assert [p.line for p in info.value.problems] == [2]


# ---------------------------------------------------------------- dedupe


def test_bigram_jaccard_hand_case() -> None:
    # abcd -> {ab, bc, cd}; abce -> {ab, bc, ce}: 2 shared of 4
    assert jaccard(char_bigrams("abcd"), char_bigrams("abce")) == pytest.approx(0.5)
    assert char_bigrams("A b？") == char_bigrams("ab")


def test_dedupe_keeps_first_of_near_duplicates() -> None:
    cases = [
        EvalCase(id="1", question="违约金是多少？"),
        EvalCase(id="2", question="违约金是多少"),  # punctuation only
        EvalCase(id="3", question="What is the LIQUIDATED damages amount?"),
        EvalCase(id="4", question="what is the liquidated damages  amount"),  # case/space only
        EvalCase(id="5", question="合同何时终止？"),
        EvalCase(id="6", question="What is the liquidated damages amount under section 9?"),
    ]
    assert [c.id for c in dedupe(cases)] == ["1", "3", "5", "6"]
    assert [c.id for c in dedupe(cases, threshold=0.5)] == ["1", "3", "5"]


# ---------------------------------------------------------------- generation


def pair(q: str, a: str, d: str = "easy") -> dict[str, str]:
    return {"question": q, "answer": a, "difficulty": d}


def test_parse_json_array_shapes() -> None:
    items = [pair("q1", "a1"), pair("q2", "a2")]
    assert parse_json_array(json.dumps(items)) == items
    assert parse_json_array("Sure:\n```json\n" + json.dumps(items) + "\n```\nDone.") == items
    assert parse_json_array(json.dumps(items) + " hope this helps") == items
    cut = '[{"question": "q1", "answer": "a1"}, {"question": "q2", "answer": "a'
    assert parse_json_array(cut) == [{"question": "q1", "answer": "a1"}, {"question": "q2", "answer": "a"}]
    assert parse_json_array('{"pairs": []}') is None
    assert parse_json_array("no json") is None


def test_generate_cases_from_scripted_model(judge_server: JudgeServer) -> None:
    chunk1 = [
        pair("违约金是多少？", "合同总额的10%", "easy"),
        pair("违约金 是多少", "10%", "medium"),  # near-duplicate of the first
        pair("违约金何时支付？", "违约后三十日内", "Hard"),
    ]
    chunk3 = {
        "pairs": [
            pair("Who may terminate?", ""),  # no answer
            pair("What notice is required?", "30 days' notice", "extreme"),
            pair("Can the agreement be assigned?", "Only with consent", "medium"),
            pair("Is there a cap on liability?", "Yes, fees paid", "hard"),  # surplus
        ]
    }
    judge = judge_server.model(
        [
            "```json\n" + json.dumps(chunk1, ensure_ascii=False) + "\n```",
            "I could not find questions in this passage.",
            Reply.error(503, "model overloaded"),
            json.dumps(chunk3),
        ]
    )
    chunks = [("c1", "第五条 违约金……"), ("c2", "目录"), ("c4", "..."), ("c3", "Section 7 Termination ...")]
    out = list(generate_cases(judge, chunks, per_chunk=3, language="zh"))
    cases = [o for o in out if isinstance(o, EvalCase)]
    notes = [o for o in out if isinstance(o, GenerationNote)]

    assert [(c.id, c.question, c.difficulty) for c in cases] == [
        ("gen-c1-1", "违约金是多少？", "easy"),
        ("gen-c1-3", "违约金何时支付？", "hard"),
        ("gen-c3-2", "What notice is required?", None),
        ("gen-c3-3", "Can the agreement be assigned?", "medium"),
    ]
    assert all(c.origin == "generated" for c in cases)
    assert cases[0].source_chunks == ["c1"] and cases[0].reference_answer == "合同总额的10%"
    assert cases[2].source_chunks == ["c3"]

    messages = [(n.chunk_id, n.message) for n in notes]
    assert ("c1", "near-duplicate of gen-c1-1 skipped: '违约金 是多少'") in messages
    assert any(cid == "c2" and "not a JSON array" in m for cid, m in messages)
    assert any(n.chunk_id == "c2" and "could not find" in n.raw for n in notes)
    assert any(cid == "c4" and "model overloaded" in m for cid, m in messages)
    assert any(cid == "c3" and "4 pairs returned" in m for cid, m in messages)
    assert any(cid == "c3" and "no answer" in m for cid, m in messages)
    assert any(cid == "c3" and "extreme" in m for cid, m in messages)

    assert "Write exactly 3 question/answer pairs in Simplified Chinese" in judge_server.prompts()[0]
    assert "第五条 违约金" in judge_server.prompts()[0]


def test_generate_cases_dedupes_across_chunks_and_checks_per_chunk(judge_server: JudgeServer) -> None:
    reply = json.dumps([pair("What is the term?", "Two years")])
    judge = judge_server.model([reply, reply])
    out = list(generate_cases(judge, [("a", "x"), ("b", "y")], per_chunk=1, language="en"))
    assert [type(o).__name__ for o in out] == ["EvalCase", "GenerationNote"]
    with pytest.raises(ValueError):
        list(generate_cases(judge, [("a", "x")], per_chunk=0, language="en"))
