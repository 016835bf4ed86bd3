"""classify's order and boundaries, select_kept's ranking and limit, reclassify without a judge."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rag_core.judge.classify import (
    CONFLICT,
    EVIDENCE,
    INJECTION,
    RELEVANCE,
    apply_evidence_margin,
    classify,
    reclassify,
    select_kept,
)
from rag_core.models import Verdict
from rag_core.settings import VerdictSettings

S = VerdictSettings(
    t_injection=0.5, t_conflict=0.5, t_relevance=0.3, t_evidence=0.4, t_evidence_relevance=0.3, max_kept=3
)


def sc(inj: float = 0.0, con: float = 0.0, rel: float = 0.9, ev: float = 0.9) -> dict[str, float]:
    return {INJECTION: inj, CONFLICT: con, RELEVANCE: rel, EVIDENCE: ev}


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        (sc(inj=0.51, con=0.9), ("INJECTION", False)),  # injection beats conflict
        (sc(inj=0.5, con=0.51), ("CONFLICTING", True)),  # equal to t_injection: not injection
        (sc(con=0.51, rel=0.0, ev=0.0), ("CONFLICTING", True)),  # conflict kept even when off-topic
        (sc(con=0.5, rel=0.29), ("IRRELEVANT", False)),  # equal to t_conflict: not conflicting
        (sc(rel=0.3, ev=0.41), ("EVIDENCE", True)),  # equal to t_relevance: still relevant
        (sc(rel=0.3, ev=0.4), ("NO_EVIDENCE", False)),  # equal to t_evidence: no evidence
        (sc(rel=0.9, ev=0.1), ("NO_EVIDENCE", False)),
    ],
)
def test_classify_order_and_boundaries(scores: dict[str, float], expected: tuple[str, bool]) -> None:
    assert classify(scores, S) == expected


def test_classify_missing_score_is_an_error() -> None:
    with pytest.raises(KeyError):
        classify({INJECTION: 0.0}, S)


def verdict(pid: str, scores: dict[str, float], explanation: str = "judged") -> Verdict:
    label, keep = classify(scores, S)
    return Verdict(pid, scores, label, keep, label, explanation)


def test_select_kept_conflicting_first_then_evidence_and_limit() -> None:
    vs = [
        verdict("ev-low", sc(ev=0.5)),
        verdict("inj", sc(inj=0.9)),
        verdict("ev-high", sc(ev=0.95)),
        verdict("conf-weak", sc(con=0.6, ev=0.1)),
        verdict("ev-mid", sc(ev=0.7)),
        verdict("conf-strong", sc(con=0.9, ev=0.2)),
        verdict("irrelevant", sc(rel=0.1)),
    ]
    kept = select_kept(vs, S)
    assert [v.passage_id for v in kept] == ["conf-strong", "conf-weak", "ev-high"]
    more = select_kept(vs, VerdictSettings(max_kept=10))
    assert [v.passage_id for v in more] == ["conf-strong", "conf-weak", "ev-high", "ev-mid", "ev-low"]


def test_select_kept_ties_keep_retrieval_order() -> None:
    vs = [verdict("a", sc(ev=0.8)), verdict("b", sc(ev=0.8)), verdict("c", sc(ev=0.8))]
    assert [v.passage_id for v in select_kept(vs, VerdictSettings(max_kept=2))] == ["a", "b"]


def test_reclassify_relabels_from_stored_scores() -> None:
    vs = [
        verdict("x", sc(inj=0.35, ev=0.8), "covers 3/4 query terms"),
        verdict("y", sc(ev=0.8), "covers 4/4"),
    ]
    assert vs[0].label == "EVIDENCE"
    stricter = VerdictSettings(t_injection=0.3)
    out = reclassify(vs, stricter)
    assert out[0].label == "INJECTION" and not out[0].keep and out[0].reason == "INJECTION"
    assert "injection score 0.35 > 0.30" in out[0].explanation and "covers 3/4" in out[0].explanation
    assert out[0].thresholds["t_injection"] == 0.3
    assert out[1].label == "EVIDENCE" and out[1].explanation == "covers 4/4"
    assert out[0].scores == vs[0].scores
    assert vs[0].label == "EVIDENCE"  # the input is not modified


def test_evidence_needs_the_evidence_floor_of_relevance_and_says_so() -> None:
    """Relevant enough to look at (≥ t_relevance) but under t_evidence_relevance: NO_EVIDENCE,
    however high the evidence score; the note names the relevance, and so does a re-label."""
    from rag_core.coded import code_of
    from rag_core.judge.classify import floor_note

    s = VerdictSettings(t_relevance=0.2, t_evidence=0.5, t_evidence_relevance=0.3)
    assert classify(sc(rel=0.22, ev=0.61), s) == ("NO_EVIDENCE", False)
    assert classify(sc(rel=0.3, ev=0.61), s) == ("EVIDENCE", True)  # equal to the floor: enough
    note = floor_note(sc(rel=0.22, ev=0.61), s)
    assert "relevance 0.22 is below 0.30" in note and code_of(note)[0] == "evidence_floor"
    assert floor_note(sc(rel=0.22, ev=0.4), s) == ""  # evidence decided it: no floor note
    v = Verdict("1", sc(rel=0.22, ev=0.61), "EVIDENCE", True, "EVIDENCE", "judged", {})
    (new,) = reclassify([v], s)
    assert new.label == "NO_EVIDENCE" and "relevance score 0.22 < 0.30" in new.explanation


def test_evidence_well_below_the_strongest_passage_is_no_evidence() -> None:
    """A passage more than ``evidence_margin`` under the strongest EVIDENCE passage is NO_EVIDENCE and
    says why (a stronger passage answers); one inside the margin, a CONFLICTING one and a question
    whose only evidence is weak are untouched; margin 1 is off."""
    s = S.model_copy(update={"evidence_margin": 0.15})
    vs = [
        verdict("top", sc(ev=0.94)),
        verdict("near", sc(ev=0.8)),
        verdict("weak", sc(ev=0.62), "fitted model"),
        verdict("conf", sc(con=0.9, ev=0.2)),
    ]
    out = {v.passage_id: v for v in apply_evidence_margin(vs, s)}
    assert [out[p].label for p in ("top", "near", "weak", "conf")] == [
        "EVIDENCE",
        "EVIDENCE",
        "NO_EVIDENCE",
        "CONFLICTING",
    ]
    weak = out["weak"]
    assert not weak.keep and weak.explanation.startswith("evidence 0.62 is more than 0.15 below")
    assert "0.94: a stronger passage answers" in weak.explanation and weak.explanation.endswith(
        "fitted model"
    )
    coded_old = replace(verdict("c", sc(ev=0.62)), explanation_code="fitted", explanation_params={})
    margin_code = apply_evidence_margin([vs[0], coded_old], s)[1].explanation_code
    assert margin_code.startswith("evidence_margin") and margin_code.endswith("fitted")
    assert apply_evidence_margin([verdict("only", sc(ev=0.62))], s)[0].label == "EVIDENCE"
    off = S.model_copy(update={"evidence_margin": 1.0})
    assert [v.label for v in apply_evidence_margin(vs, off)] == [v.label for v in vs]


def test_a_passage_whose_evidence_outruns_its_relevance_sets_no_higher_bar() -> None:
    """Session 43 browser: the liability clause ("fees paid or payable") read as evidence 0.84 at relevance 0.37 for
    "When is it payable?" and, as the top, dropped the fee clause (0.66 at relevance 0.87). A passage whose
    relevance is under ``t_evidence`` sets the bar at no more than its relevance; each passage still stands by its
    own evidence."""
    s = S.model_copy(update={"evidence_margin": 0.15})
    vs = [verdict("liability", sc(rel=0.37, ev=0.84)), verdict("fees", sc(rel=0.87, ev=0.66))]
    assert [v.label for v in apply_evidence_margin(vs, s)] == ["EVIDENCE", "EVIDENCE"]
    consistent = [verdict("top", sc(rel=0.6, ev=0.84)), verdict("fees", sc(rel=0.87, ev=0.66))]
    assert [v.label for v in apply_evidence_margin(consistent, s)] == ["EVIDENCE", "NO_EVIDENCE"]


def test_reclassify_applies_the_margin_and_keeps_an_unchanged_label_quiet() -> None:
    """The lab re-labels from stored scores: the margin holds there too, a verdict already NO_EVIDENCE
    by the margin keeps its explanation, and turning the margin off makes it EVIDENCE again."""
    s = S.model_copy(update={"evidence_margin": 0.15})
    judged = apply_evidence_margin([verdict("top", sc(ev=0.94)), verdict("weak", sc(ev=0.62))], s)
    again = reclassify(judged, s)
    assert [v.label for v in again] == ["EVIDENCE", "NO_EVIDENCE"]
    assert again[1].explanation == judged[1].explanation
    off = reclassify(judged, S.model_copy(update={"evidence_margin": 1.0}))
    assert off[1].label == "EVIDENCE" and off[1].keep
    fresh = reclassify([verdict("top", sc(ev=0.94)), verdict("weak", sc(ev=0.62), "judged")], s)
    assert fresh[1].label == "NO_EVIDENCE" and "a stronger passage answers" in fresh[1].explanation


def test_the_margin_compares_a_passage_with_the_strongest_of_its_own_document() -> None:
    """Seen in the browser: "How long does the confidentiality obligation last?" over a licence and two
    Chinese contracts dropped the licence's own "five (5) years" clause (0.56) "for a stronger passage"
    of another contract (0.72). Another contract's passage is its own answer, not a weaker one."""
    s = S.model_copy(update={"evidence_margin": 0.15})
    vs = [verdict("a1", sc(ev=0.94)), verdict("a2", sc(ev=0.62)), verdict("b1", sc(ev=0.62))]
    doc_of = {"a1": "A", "a2": "A", "b1": "B"}
    assert [v.label for v in apply_evidence_margin(vs, s, doc_of)] == ["EVIDENCE", "NO_EVIDENCE", "EVIDENCE"]
    assert [v.label for v in apply_evidence_margin(vs, s)] == ["EVIDENCE", "NO_EVIDENCE", "NO_EVIDENCE"]
    assert [v.label for v in reclassify(vs, s, doc_of)] == ["EVIDENCE", "NO_EVIDENCE", "EVIDENCE"]
