"""Diagnosis of a low-rated answer from its trace, and corrected answers as evaluation cases."""

from __future__ import annotations

from typing import Any

from rag_core.feedback import append_case, diagnose, eval_case, overlap
from rag_core.trace import Trace
from storage.store import Store

RENT = "租金每月人民币5000元，乙方应于每月5日前支付当月租金。"
DEPOSIT = "乙方应于本合同签订之日起7日内向甲方支付押金人民币10000元。"
LAW = "因本合同引起的争议，提交北京仲裁委员会仲裁。"


def _v(cid: str, text: str, label: str, keep: bool) -> dict[str, Any]:
    return {
        "chunk_id": cid,
        "passage_id": cid,
        "doc": "lease.pdf",
        "page": 2,
        "clause": "",
        "text": text,
        "label": label,
        "keep": keep,
        "scores": {},
    }


def _trace(
    verdicts: list[dict[str, Any]], used: list[str], support: list[dict[str, Any]] | None = None
) -> Trace:
    """A stored version-1 trace (a plain dictionary), read as the pages read it."""
    texts = {v["chunk_id"]: v["text"] for v in verdicts}
    blocks = [
        {"n": i + 1, "chunk_id": c, "doc": "lease.pdf", "text": texts[c], "children": [{"chunk_id": c}]}
        for i, c in enumerate(used)
    ]
    return Trace.from_json({"verdicts": verdicts, "blocks": blocks, "support": support or []})


def test_overlap_reads_numbers_and_bigrams() -> None:
    assert overlap("每月租金5000元", RENT) > 0.6
    assert overlap("每月租金5000元", LAW) < 0.2
    assert overlap("USD 12,500 monthly fee", "a monthly fee of USD 12500") == 1.0


def test_not_retrieved() -> None:
    t = _trace([_v("a", LAW, "IRRELEVANT", False)], [])
    d = diagnose(t, "不知道", reference="押金为人民币10000元")
    assert d.stage == "not_retrieved" and d.best is not None and d.best.chunk_id == "a"


def test_dropped_by_verdict() -> None:
    t = _trace([_v("a", DEPOSIT, "NO_EVIDENCE", False), _v("b", RENT, "EVIDENCE", True)], ["b"])
    d = diagnose(t, "租金5000元[1]", reference="押金为人民币10000元")
    assert d.stage == "dropped_by_verdict" and d.best and d.best.label == "NO_EVIDENCE"


def test_cut_by_limit() -> None:
    t = _trace([_v("a", DEPOSIT, "EVIDENCE", True), _v("b", RENT, "EVIDENCE", True)], ["b"])
    assert diagnose(t, "x", reference="押金为人民币10000元").stage == "cut_by_limit"


def test_refused_with_gold_kept() -> None:
    t = _trace([_v("a", DEPOSIT, "EVIDENCE", True)], ["a"])
    assert diagnose(t, "无法回答", refused=True, reference="押金为人民币10000元").stage == "refused"


def test_answer_unsupported_and_matching() -> None:
    t = _trace([_v("a", DEPOSIT, "EVIDENCE", True)], ["a"])
    assert diagnose(t, "押金为人民币5000元[1]", reference="押金为人民币10000元").stage == "answer_unsupported"
    d = diagnose(t, "押金为人民币10000元[1]", reference="押金为人民币10000元")
    assert d.stage == "answer_matches" and d.answer_overlap == 1.0


def test_without_reference() -> None:
    t = _trace([_v("a", DEPOSIT, "NO_EVIDENCE", False)], [])
    assert diagnose(t, "没有证据", refused=True).stage == "refused"
    sup = [{"sentence": "押金为两万元。", "label": "not", "counted": True}]
    t2 = _trace([_v("a", DEPOSIT, "EVIDENCE", True)], ["a"], sup)
    d = diagnose(t2, "押金为两万元。")
    assert d.stage == "answer_unsupported" and d.unsupported == ["押金为两万元。"]
    assert diagnose(_trace([], []), "x").stage == "needs_reference"


def test_gold_ids_win_over_text() -> None:
    t = _trace([_v("a", LAW, "IRRELEVANT", False)], [])
    assert diagnose(t, "x", reference="完全不同", gold_chunk_ids=["a"]).stage == "dropped_by_verdict"


def test_eval_case_and_append(store: Store) -> None:
    t = _trace([_v("a", DEPOSIT, "NO_EVIDENCE", False), _v("b", LAW, "IRRELEVANT", False)], [])
    case = eval_case("押金多少？", "押金为人民币10000元", t)
    assert case["source_chunks"] == ["a"] and case["origin"] == "feedback"
    assert set(case) == {"id", "question", "reference_answer", "source_chunks", "origin"}
    tid, added = append_case(store, case, "kb1")
    assert added
    tid2, added2 = append_case(store, case)
    assert tid2 == tid and not added2
    other = eval_case("租金多少？", "租金每月人民币5000元", _trace([], []))
    append_case(store, other)
    cases = store.evaluation.cases(tid)
    assert [c["question"] for c in cases] == ["押金多少？", "租金多少？"]
    assert [t.name for t in store.evaluation.testsets()] == ["feedback"]

    import json

    from rag_core.evaluation.testset import parse_jsonl

    parsed = parse_jsonl("\n".join(json.dumps(c, ensure_ascii=False) for c in cases))
    assert parsed[0].origin == "feedback" and parsed[0].source_chunks == ["a"]


def test_a_clause_with_other_numbers_is_not_the_gold_clause() -> None:
    penalty = "任何一方违反本合同约定的，违约金为合同总额的10%。"
    t = _trace([_v("a", penalty, "EVIDENCE", True)], ["a"])
    d = diagnose(t, "违约金为合同总额的10%。[1]", reference="违约金为合同总额的20%")
    assert d.stage == "not_retrieved" and d.best is not None and d.best.overlap > 0.5
    assert eval_case("违约金？", "违约金为合同总额的20%", t)["source_chunks"] == []


def test_judge_off_uses_the_blocks() -> None:
    t = Trace.from_json({"verdicts": [], "blocks": [{"n": 1, "chunk_id": "p", "doc": "d", "text": DEPOSIT}]})
    d = diagnose(t, "押金为人民币10000元[1]", reference="押金为人民币10000元")
    assert d.stage == "answer_matches" and d.best is not None and d.best.used
