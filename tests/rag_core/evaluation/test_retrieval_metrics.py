"""Exact span and id metrics on hand cases whose right values are worked out in the comments."""

from __future__ import annotations

import json

import pytest

from rag_core.evaluation.retrieval_metrics import (
    at_k,
    char_precision_recall,
    id_report,
    mrr_ids,
    recall_at_k_ids,
    reciprocal_rank,
    span_report,
)
from rag_core.evaluation.spans import Span, merge_spans, overlap_chars, total_chars


def A(start: int, end: int) -> Span:
    return Span("a.txt", start, end)


def B(start: int, end: int) -> Span:
    return Span("b.txt", start, end)


def test_span_rejects_impossible_ranges() -> None:
    with pytest.raises(ValueError):
        Span("a", 5, 4)
    with pytest.raises(ValueError):
        Span("a", -1, 4)


def test_merge_joins_overlapping_and_touching_per_file_and_drops_empty() -> None:
    spans = [A(10, 20), B(0, 5), A(0, 5), A(15, 30), A(30, 32), A(40, 40), B(3, 8)]
    assert merge_spans(spans) == [A(0, 5), A(10, 32), B(0, 8)]
    assert total_chars(spans) == 5 + 22 + 8


def test_overlap_is_counted_once_and_symmetric() -> None:
    left = [A(0, 20), A(10, 30)]
    right = [A(15, 25), A(20, 40)]
    # left covers [0,30), right [15,40): shared [15,30) = 15
    assert overlap_chars(left, right) == overlap_chars(right, left) == 15


def test_disjoint() -> None:
    assert char_precision_recall([A(0, 10)], [A(20, 30)]) == (0.0, 0.0)


def test_retrieved_contains_gold() -> None:
    assert char_precision_recall([A(0, 100)], [A(20, 30)]) == pytest.approx((10 / 100, 1.0))


def test_gold_contains_retrieved() -> None:
    assert char_precision_recall([A(20, 30)], [A(0, 100)]) == pytest.approx((1.0, 10 / 100))


def test_partial_overlap() -> None:
    # [0,20) and [10,40) share [10,20): 10 of 20 retrieved, 10 of 30 gold
    assert char_precision_recall([A(0, 20)], [A(10, 40)]) == pytest.approx((0.5, 10 / 30))


def test_overlapping_retrieved_spans_are_merged_before_counting() -> None:
    # merged retrieval [0,30) = 30 chars; gold [15,25) fully inside -> p = 10/30, r = 1.
    # Counting each chunk separately would give p = 15/40 and r = 1.5.
    precision, recall = char_precision_recall([A(0, 20), A(10, 30)], [A(15, 25)])
    assert precision == pytest.approx(1 / 3)
    assert recall == pytest.approx(1.0)


def test_same_offsets_in_another_file_do_not_count() -> None:
    # retrieved a[0,10) + b[0,10) = 20 chars; gold a[5,15) + c[0,10) = 20 chars; shared a[5,10) = 5
    retrieved = [A(0, 10), B(0, 10)]
    gold = [A(5, 15), Span("c.txt", 0, 10)]
    assert char_precision_recall(retrieved, gold) == pytest.approx((5 / 20, 5 / 20))


def test_overlapping_gold_spans_are_merged() -> None:
    # gold [0,15) = 15 chars; retrieved [0,5)
    assert char_precision_recall([A(0, 5)], [A(0, 10), A(5, 15)]) == pytest.approx((1.0, 5 / 15))


def test_nothing_retrieved_scores_zero_and_no_gold_is_an_error() -> None:
    assert char_precision_recall([], [A(0, 10)]) == (0.0, 0.0)
    with pytest.raises(ValueError):
        char_precision_recall([A(0, 10)], [])


def test_at_k_cuts_the_ranking_and_uses_all_when_short() -> None:
    gold = [A(0, 10)]
    ranked = [A(100, 110), A(0, 10), B(0, 20)]
    result = at_k(ranked, gold, ks=(4, 1, 2))
    assert list(result) == [1, 2, 4]
    assert result[1] == (0.0, 0.0)
    assert result[2] == pytest.approx((10 / 20, 1.0))
    assert result[4] == pytest.approx((10 / 40, 1.0))  # only 3 retrieved: all of them
    with pytest.raises(ValueError):
        at_k(ranked, gold, ks=(0, 1))


def test_reciprocal_rank() -> None:
    gold = [A(50, 60)]
    assert reciprocal_rank([A(0, 10), B(50, 60), A(55, 56)], gold) == pytest.approx(1 / 3)
    assert reciprocal_rank([A(60, 70), A(40, 50)], gold) == 0.0  # touching is not overlapping
    assert reciprocal_rank([], gold) == 0.0


def test_recall_at_k_ids_deduplicates_the_ranking_first() -> None:
    ranked = ["A", "A", "B", "A", "C", "D"]  # distinct order: A, B, C, D
    assert recall_at_k_ids(ranked, ["C", "B"], ks=(1, 2, 3, 10)) == {1: 0.0, 2: 0.5, 3: 1.0, 10: 1.0}
    assert mrr_ids(ranked, ["C", "B"]) == pytest.approx(1 / 2)
    assert mrr_ids(ranked, ["Z"]) == 0.0
    # duplicate gold ids count once
    assert recall_at_k_ids(ranked, ["B", "B", "Z"], ks=(5,)) == {5: 0.5}
    with pytest.raises(ValueError):
        recall_at_k_ids(ranked, [])


def test_span_report_means_and_renderings() -> None:
    queries = [
        ([A(0, 10)], [A(0, 10)]),  # p=r=1 at every k, rr=1
        ([B(0, 10), A(0, 20)], [A(0, 10)]),  # @1: 0,0 ; @2: 10/30, 1 ; rr=1/2
    ]
    report = span_report("cuad", queries, ks=(1, 2))
    assert report.n_queries == 2
    assert report.precision_at_k is not None
    assert report.precision_at_k[1] == pytest.approx(0.5)
    assert report.precision_at_k[2] == pytest.approx((1 + 1 / 3) / 2)
    assert report.recall_at_k == pytest.approx({1: 0.5, 2: 1.0})
    assert report.mrr == pytest.approx(0.75)
    data = json.loads(json.dumps(report.to_json()))
    assert data["recall_at_k"]["2"] == pytest.approx(1.0)
    table = report.to_table()
    assert "precision" in table and "@2" in table and "MRR  0.7500" in table
    with pytest.raises(ValueError):
        span_report("empty", [])


def test_id_report_has_no_precision() -> None:
    report = id_report("lecoqa", [(["x", "x", "y"], ["y"]), (["z"], ["q"])], ks=(1, 2))
    assert report.precision_at_k is None
    assert report.recall_at_k == pytest.approx({1: 0.0, 2: 0.5})
    assert report.mrr == pytest.approx(0.25)
    assert "precision" not in report.to_table()
    assert report.to_json()["precision_at_k"] is None
