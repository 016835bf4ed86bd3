"""The benchmarks' shared latency statistics."""

from __future__ import annotations

from rag_core.evaluation.stats import PERCENTILE_95, median_p95, percentile


def test_nearest_rank_percentile() -> None:
    values = [float(v) for v in range(1, 21)]  # 1..20
    assert percentile(values, PERCENTILE_95) == 20.0  # rank int(0.95 * 20) = 19 -> the 20th value
    assert percentile(values, 0.5) == 11.0
    assert percentile([3.0, 1.0, 2.0], 0.0) == 1.0
    assert percentile([], PERCENTILE_95) == 0.0


def test_median_and_p95_rounded() -> None:
    assert median_p95([1.234, 2.345, 9.876], 1) == {"median": 2.3, "p95": 9.9}
    assert median_p95([], 2) == {"median": 0.0, "p95": 0.0}
