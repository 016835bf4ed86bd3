"""The test set between the review table and the stored cases (no Streamlit)."""

from __future__ import annotations

from rag_core.evaluation import casebook
from rag_core.evaluation.testset import EvalCase
from storage.rows import ChunkRow


def _chunk(i: int, kind: str = "parent", doc: str = "d", chars: int = 100) -> ChunkRow:
    return ChunkRow(
        id=f"{doc}-{i}", doc_id=doc, text="条" * chars, start=i * 200, end=i * 200 + chars, kind=kind
    )


def test_editor_round_trip_keeps_what_the_table_does_not_show() -> None:
    cases = [
        {"id": "c1", "question": "Q?", "reference_answer": "A", "source_chunks": ["k"], "origin": "feedback"}
    ]
    back, problems = casebook.cases_from_editor(casebook.editor_rows(cases), cases)
    assert back == [casebook.normalize_case(c) for c in cases] and not problems
    assert back[0]["source_chunks"] == ["k"]


def test_editor_problems_name_their_rows() -> None:
    rows = [
        {"id": "", "question": "", "reference_answer": "only an answer"},
        {"id": "", "question": "Q1?", "reference_answer": "", "difficulty": "extreme"},
        {"id": "", "question": "Q2?", "reference_answer": ""},
        {"id": "", "question": "Q2?", "reference_answer": ""},
        {"id": "", "question": "", "reference_answer": ""},  # added and left empty: ignored
    ]
    cases, problems = casebook.cases_from_editor(rows, [])
    assert [c["question"] for c in cases] == ["Q2?"]
    assert [p.split(":")[0] for p in problems] == ["row 1", "row 2", "row 4"]


def test_pick_chunks_prefers_unused_whole_clauses_spread_over_documents() -> None:
    rows = [_chunk(i, doc=d) for d in ("a", "b") for i in range(4)]
    rows += [_chunk(9, kind="child"), _chunk(8, chars=10)]  # a piece of a parent; too short to ask about
    picked = casebook.pick_chunks(rows, 2, used={"a-0"})
    # seven unused clauses in document order (a-1..a-3, b-0..b-3), every 3.5th: the 1st and the 4th
    assert [r.id for r in picked] == ["a-1", "b-0"]
    assert len(casebook.pick_chunks(rows, 50)) == 8


def test_merges_skip_repeated_questions_and_replace_by_id() -> None:
    existing = [{"id": "x", "question": "押金是多少？"}]
    new = [EvalCase("x", "押金是多少？"), EvalCase("x", "违约金是多少？")]
    merged, added, dups = casebook.merge_generated(existing, new)
    assert (added, dups) == (1, 1) and [c["id"] for c in merged] == ["x", "x-2"]
    merged, added, replaced = casebook.merge_imported(
        merged, [EvalCase("x", "租金？"), EvalCase("y", "期限？")]
    )
    assert (added, replaced) == (1, 1) and [c["question"] for c in merged] == [
        "租金？",
        "违约金是多少？",
        "期限？",
    ]
