"""Comparing stored evaluation runs (no Streamlit)."""

from __future__ import annotations

import pytest

from rag_core.evaluation import comparison
from storage.rows import StoredRun


def _run(mean: float, values: dict[str, float | None]) -> StoredRun:
    rows = [
        {"case_id": cid, "question": cid, "metrics": {"faithfulness": {"value": v}}}
        for cid, v in values.items()
    ]
    return StoredRun(summary={"metrics": {"faithfulness": {"mean": mean, "n": len(rows)}}}, rows=rows)


def test_settings_diff_lists_changed_and_new_paths() -> None:
    a = {"verdict": {"t_evidence": 0.5, "t_relevance": 0.3}, "models": {"answer_model": "x"}}
    b = {"verdict": {"t_evidence": 0.7, "t_relevance": 0.3}, "models": {"answer_model": "x", "new": True}}
    assert comparison.settings_diff(a, b) == [("models.new", None, True), ("verdict.t_evidence", 0.5, 0.7)]


def test_compare_and_question_deltas() -> None:
    a, b = _run(0.5, {"q1": 0.5, "q2": None}), _run(0.75, {"q1": 1.0, "q2": 0.5, "q3": 1.0})
    [row] = comparison.compare(a, b)
    assert (
        row["metric"] == "faithfulness"
        and row["delta"] == pytest.approx(0.25)
        and (row["n_a"], row["n_b"]) == (2, 3)
    )
    deltas = comparison.question_deltas(a, b, ["faithfulness"])
    assert deltas == [{"question": "q1", "faithfulness": 0.5}, {"question": "q2", "faithfulness": None}]
    assert (
        comparison.trend(0.0001) == 0 and comparison.trend(-0.2) == -1 and comparison.trend(-0.2, False) == 1
    )


def test_metric_order_puts_known_metrics_first() -> None:
    assert comparison.metric_order(["zeta", "context_recall", "faithfulness"]) == [
        "faithfulness",
        "context_recall",
        "zeta",
    ]
