from __future__ import annotations

import pytest

from rag_core.retrieval.fusion import interleave, rrf, with_other_groups, with_reserved


def test_rrf_sums_reciprocal_ranks() -> None:
    fused = dict(rrf([["a", "b", "c"], ["b", "c", "d"]], k=60))
    assert fused["a"] == pytest.approx(1 / 61)
    assert fused["b"] == pytest.approx(1 / 62 + 1 / 61)
    assert fused["c"] == pytest.approx(1 / 63 + 1 / 62)
    assert fused["d"] == pytest.approx(1 / 63)


def test_rrf_orders_by_score_and_breaks_ties_by_first_appearance() -> None:
    order = [cid for cid, _ in rrf([["a", "b"], ["b", "a"]], k=60)]
    assert order == ["a", "b"]  # equal scores: 'a' seen first at rank 1 of list 0
    order = [cid for cid, _ in rrf([["x", "y", "z"], ["z", "y"]], k=1)]
    assert order[0] == "z"  # 1/4 + 1/2 beats 1/2 and 1/3 + 1/3


def test_rrf_weights_scale_each_list() -> None:
    fused = dict(rrf([["a"], ["b"]], k=60, weights=[2.0, 1.0]))
    assert fused["a"] == pytest.approx(2 / 61)
    assert fused["b"] == pytest.approx(1 / 61)
    with pytest.raises(ValueError):
        rrf([["a"]], k=60, weights=[1.0, 2.0])


def test_rrf_counts_an_id_once_per_list() -> None:
    fused = dict(rrf([["a", "a", "b"]], k=60))
    assert fused["a"] == pytest.approx(1 / 61)
    assert fused["b"] == pytest.approx(1 / 63)


def test_multi_list_rrf() -> None:
    fused = rrf([["a", "b"], ["b"], ["c", "b"]], k=60)
    assert fused[0][0] == "b"
    assert dict(fused)["b"] == pytest.approx(1 / 62 + 1 / 61 + 1 / 62)


def test_interleave_by_rank() -> None:
    assert interleave([["a1", "a2", "a3"], ["b1"], ["c1", "c2"]]) == ["a1", "b1", "c1", "a2", "c2", "a3"]
    assert interleave([]) == []


def test_reserved_ids_take_the_last_places_of_the_cut() -> None:
    fused = [("a", 0.5), ("b", 0.4), ("c", 0.3), ("d", 0.2), ("x", 0.1)]
    assert with_reserved(fused, ["x", "b"], 3) == [("a", 0.5), ("b", 0.4), ("x", 0.1)]
    assert with_reserved(fused, ["b"], 3) == fused[:3], "already in: nothing moves"
    assert with_reserved(fused, ["y"], 2) == [("a", 0.5), ("y", 0.0)], "an id the fusion never saw"
    assert with_reserved(fused, [], 2) == fused[:2]
    assert with_reserved(fused, ["c", "x"], 3) == [("a", 0.5), ("c", 0.3), ("x", 0.1)], (
        "a reserved id in place stays"
    )
    assert with_reserved(fused, ["a", "b", "x"], 2) == [("a", 0.5), ("b", 0.4)], "no place left to give"
    assert with_reserved(fused[:2], ["x"], 3) == [("a", 0.5), ("b", 0.4), ("x", 0.0)], "room left: appended"


def test_reserved_places_keep_the_first_hits_and_add_other_documents() -> None:
    """Session 33: the translated leg's four reserved places went to three contracts, two to one of
    them, and the asset purchase agreement (the only one with the question's Seller) ranked fifth; one
    place per contract instead lost the franchise agreement's fee clause, its third best hit."""
    doc = {"a1": "A", "a2": "A", "b1": "B", "a3": "A", "c1": "C", "c2": "C", "d1": "D"}
    ids = ["a1", "a2", "b1", "a3", "c1", "c2", "d1"]
    assert with_other_groups(ids, doc.__getitem__, 3) == ["a1", "a2", "b1", "c1"]
    assert with_other_groups(ids, doc.__getitem__, 2) == ["a1", "a2", "b1"], "only the next two are looked at"
    assert with_other_groups(["a1", "a2"], doc.__getitem__, 3) == ["a1", "a2"]
    assert with_other_groups(ids, doc.__getitem__, 0) == []
    assert with_other_groups([], doc.__getitem__, 2) == []
