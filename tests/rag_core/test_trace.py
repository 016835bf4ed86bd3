"""The typed trace: JSON round trip, and traces stored before the records existed still open."""

from __future__ import annotations

import json
from pathlib import Path

from rag_core.trace import (
    TRACE_SCHEMA_VERSION,
    BlockRecord,
    EvidenceRecord,
    KbRetrievalRecord,
    QueryRecord,
    RankedRecord,
    ReflectionRecord,
    RepairRecord,
    RetrievalRecord,
    RoutingRecord,
    SpanRecord,
    SupportRecord,
    Trace,
    VerdictRecord,
    VerdictStage,
)

V1 = Path(__file__).parents[1] / "fixtures" / "trace_v1.json"
"""A trace stored by the pipeline before the typed records (a regenerated answer in a second turn)."""


def _full() -> Trace:
    verdict = VerdictRecord(
        "c1",
        {"contains_prompt_injection": 0.01, "is_relevant": 0.9},
        "EVIDENCE",
        True,
        "states the rent",
        {"t_evidence": 0.5},
        "covers_terms",
        {"n": 2, "of": 3},
        doc="lease.pdf",
        doc_id="d1",
        page=2,
        clause="第一条",
        start=10,
        end=50,
        text="租金每月人民币5000元",
        kb="lease",
        extra={"sentence_scores": [0.2, 0.9]},
    )
    kb = KbRetrievalRecord(
        "lease",
        "租金",
        "hybrid",
        legs={"bm25": (RankedRecord("c1", 1, 3.2),)},
        fused=(RankedRecord("c1", 1, 0.03),),
        routing=RoutingRecord("d1", "lease.pdf", 0.8, 0.1, ("租赁",), "租金"),
        expansion={"query": ("租金", "价款")},
        notes=("n",),
        timings_ms={"total": 12.5},
    )
    return Trace(
        question="租金？",
        language="zh",
        kbs=("lease",),
        query=QueryRecord("租金？", "租金？"),
        retrieval=RetrievalRecord((kb,)),
        verdicts=VerdictStage((verdict,), {"t_evidence": 0.5}, 1),
        evidence=EvidenceRecord(
            (
                BlockRecord(
                    1, "p1", "lease.pdf", 0, 80, "1-2", "第一条", "…", (SpanRecord("c1", 10, 50),), True
                ),
            ),
            ("p2: over max_passages=1",),
        ),
        prompts=("system…",),
        reflection=ReflectionRecord(
            (SupportRecord("租金5000元[1]", "fully", 0.9, (1,)),),
            (SupportRecord("x", "not", 0.0),),
            (7,),
            (RepairRecord("s", 1, (2,)),),
        ),
        notes=("a",),
        timings_ms={"judge": 3.0, "total": 9.0},
    )


def test_round_trip_is_exact() -> None:
    t = _full()
    assert Trace.from_json(json.loads(json.dumps(t.to_json()))) == t
    assert t.to_json()["schema_version"] == TRACE_SCHEMA_VERSION


def test_several_knowledge_bases_round_trip() -> None:
    one = KbRetrievalRecord("a", "q", "bm25")
    t = Trace(retrieval=RetrievalRecord((one, KbRetrievalRecord("b", "q", "bm25")), "interleave"))
    data = t.to_json()
    assert data["retrieval"]["merge"] == "interleave"
    assert Trace.from_json(data).retrievals()[1].kb == "b"


def test_version_1_trace_opens() -> None:
    stored = json.loads(V1.read_text(encoding="utf-8"))["trace"]
    assert "schema_version" not in stored
    t = Trace.from_json(stored)
    assert t.schema_version == 1
    assert t.question == "那租金每月多少？" and t.kbs == ("lease",)
    assert t.query and t.query.joined.startswith("租期多久？")
    [kb] = t.retrievals()
    assert kb.legs and kb.fused and kb.fused[0].chunk_id == stored["retrieval"]["fused"][0]["chunk_id"]
    assert t.verdict_list[0].label == stored["verdicts"][0]["label"]
    assert t.thresholds == stored["thresholds"]
    assert t.block(1) and t.block(1).text == stored["blocks"][0]["text"]  # type: ignore[union-attr]
    assert t.reflection and t.reflection.support_after_regeneration is not None
    assert t.prompts and len(t.prompts) == 2
    assert t.models.answer == stored["models"]["answer"] == "openai/fake-chat"
    # written again, it keeps every key the old layout had (ask --json keeps its shape)
    assert set(stored) <= set(t.to_json())


def test_failed_turn_keeps_code_and_params() -> None:
    t = Trace.failed("q", "file too large", "file_too_large", {"file": "a.pdf", "limit": 50})
    back = Trace.from_json(t.to_json())
    assert back.error and back.error.code == "file_too_large" and back.error.params["limit"] == 50


def test_garbage_fields_do_not_break_loading() -> None:
    t = Trace.from_json({"verdicts": "oops", "blocks": [1, {"n": "x"}], "timings_ms": {"a": "slow"}})
    assert t.verdict_list == () and t.blocks[0].n == 0 and t.timings_ms == {}


def test_a_salvaged_block_round_trips_and_a_plain_one_stores_no_flag() -> None:
    from rag_core.trace_defence import CutRecord

    plain = BlockRecord(1, "c1", "a.txt", 0, 10, None, "", "Fees. Ignore.")
    salvaged = BlockRecord(
        2,
        "c2",
        "a.txt",
        0,
        10,
        None,
        "",
        "Fees. Ignore.",
        cuts=(CutRecord(6, 13, "Ignore.", 0.9),),
        salvaged=True,
    )
    assert "salvaged" not in plain.to_json()
    back = BlockRecord.from_json(json.loads(json.dumps(salvaged.to_json())))
    assert back == salvaged and back.salvaged and not BlockRecord.from_json(plain.to_json()).salvaged
