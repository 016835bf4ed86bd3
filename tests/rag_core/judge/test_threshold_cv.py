"""The threshold cross-validation's arithmetic on hand-made judged questions."""

from __future__ import annotations

import numpy as np

from rag_core.judge.threshold_cv import MARGIN_GRID, Judged, rates, sweep
from rag_core.settings import VerdictSettings


def _j(present: bool, typed: bool, evi: list[float], type_prob: list[float], gold: list[bool]) -> Judged:
    n = len(evi)
    return Judged(present, typed, np.full(n, 0.9), np.asarray(evi), np.asarray(type_prob), np.asarray(gold))


def test_rates_follow_the_evidence_and_clause_type_thresholds() -> None:
    vs = VerdictSettings()
    judged = [
        _j(True, True, [0.8, 0.3], [0.9, 0.1], [True, False]),  # present, found
        _j(False, True, [0.75, 0.2], [0.2, 0.1], [False, False]),  # absent: only the gate refuses it
        _j(False, False, [0.4], [0.0], [False]),  # absent, untyped: refused below t_evidence
    ]
    r = rates(judged, vs, 0.7, 0.5)
    assert r["refusal_absent"] == 1.0 and r["answer_present_gold"] == 1.0
    assert r["evidence_precision"] == 0.5  # two EVIDENCE passages, one on gold
    loose = rates(judged, vs, 0.7, 0.1)  # the gate no longer fires on the absent question
    assert loose["refusal_absent"] == 0.5
    strict = rates(judged, vs, 0.85, 0.5, found=(1.01, 1.0))  # nothing passes: everything refused
    assert strict["answer_present_gold"] == 0.0 and strict["refusal_absent"] == 1.0
    quoted = rates(judged, vs, 0.85, 0.5)  # the found-clause answer quotes the present clause
    assert quoted["answer_present_gold"] == 1.0 and quoted["refusal_absent"] == 1.0


def test_sweep_chooses_the_best_balanced_point() -> None:
    vs = VerdictSettings()
    # both pass every t_evidence of the grid: only the gate can refuse the absent one
    judged = [_j(True, True, [0.97], [0.9], [True]), _j(False, True, [0.95], [0.2], [False])]
    r = sweep(judged, vs)
    assert r["chosen"]["balanced"] == 1.0  # precision stays 0.5: the absent one's passage is EVIDENCE
    assert r["chosen"]["t_clause_type"] > 0.2 and r["chosen"]["t_evidence"] < 0.95
    assert len(r["grid"]) > 100 and r["defaults"]["t_evidence"] == vs.t_evidence


def test_the_evidence_floor_drops_evidence_the_judge_finds_barely_relevant() -> None:
    vs = VerdictSettings()
    low = Judged(False, False, np.asarray([0.25]), np.asarray([0.8]), np.asarray([0.0]), np.asarray([False]))
    assert rates([low], vs, 0.5, 0.3, floor=0.2)["refusal_absent"] == 0.0  # no floor: answered
    assert rates([low], vs, 0.5, 0.3, floor=0.3)["refusal_absent"] == 1.0  # relevance 0.25 < 0.3
    assert {r["t_evidence_relevance"] for r in sweep([low], vs)["grid"]} == {0.2, 0.3, 0.4, 0.5, 0.6}


def test_the_evidence_margin_drops_weaker_evidence_and_is_chosen_only_when_free() -> None:
    """A margin takes EVIDENCE from a passage well below the strongest: precision rises, and at the
    default thresholds the chosen margin is the smallest that loses no answer and no refusal."""
    vs = VerdictSettings()
    judged = [
        _j(True, False, [0.95, 0.7], [0.0, 0.0], [True, False]),  # the weak passage is off gold
        _j(True, False, [0.9, 0.82], [0.0, 0.0], [False, True]),  # the gold one is 0.08 below the top
    ]
    assert rates(judged, vs, 0.55, 0.3, margin=1.0)["evidence_precision"] == 0.5
    wide = rates(judged, vs, 0.55, 0.3, margin=0.15)
    assert wide["evidence_precision"] == 2 / 3 and wide["answer_present_gold"] == 1.0
    tight = rates(judged, vs, 0.55, 0.3, margin=0.05)
    assert tight["answer_present_gold"] == 0.5  # the gold passage is cut too
    r = sweep(judged, vs)
    assert r["margin_at_defaults"]["chosen"]["evidence_margin"] == 0.1
    assert [x["evidence_margin"] for x in r["margin_at_defaults"]["rows"]] == list(MARGIN_GRID)


def test_a_refused_typed_question_cites_its_most_likely_clause_when_found_quoting_is_on() -> None:
    """No passage has evidence, but one is the asked clause type: the found-clause answer cites it
    (answered when it is gold, a lost refusal when the clause is absent); labels do not change."""
    vs = VerdictSettings()
    judged = [
        _j(True, True, [0.3, 0.2], [0.5, 0.95], [False, True]),  # present: the clause without its detail
        _j(False, True, [0.3], [0.85], [False]),  # absent per the labels, a look-alike clause
        _j(False, True, [0.3], [0.4], [False]),  # absent, nothing like the clause
    ]
    off = rates(judged, vs, 0.55, 0.3, found=(1.01, 1.0))
    assert off["answer_present_gold"] == 0.0 and off["refusal_absent"] == 1.0
    on = rates(judged, vs, 0.55, 0.3, found=(0.8, 0.5))
    assert on["answer_present_gold"] == 1.0 and on["refusal_absent"] == 0.5
    assert on["evidence_precision"] == off["evidence_precision"]
    strict = rates(judged, vs, 0.55, 0.3, found=(0.9, 0.5))  # the look-alike stays refused
    assert strict["answer_present_gold"] == 1.0 and strict["refusal_absent"] == 1.0
    assert rates(judged, vs, 0.55, 0.3, found=(0.9, 0.95))["answer_present_gold"] == 0.0  # relevance 0.9
    chosen = sweep(judged, vs)["found_at_defaults"]["chosen"]
    assert chosen["balanced"] == 1.0 and chosen["t_clause_found"] == 0.95


def test_the_floor_is_the_largest_that_loses_no_answer_or_refusal() -> None:
    """A floor takes EVIDENCE from barely relevant passages: here one off gold at relevance 0.28
    (free to drop) and the gold one of another question at 0.42 (dropping it loses an answer)."""
    vs = VerdictSettings()
    judged = [
        Judged(
            True,
            False,
            np.asarray([0.9, 0.28]),
            np.asarray([0.9, 0.85]),
            np.zeros(2),
            np.asarray([True, False]),
        ),
        Judged(True, False, np.asarray([0.42]), np.asarray([0.8]), np.zeros(1), np.asarray([True])),
    ]
    r = sweep(judged, vs)["floor_at_defaults"]
    assert r["chosen"]["t_evidence_relevance"] == 0.4
    assert r["chosen"]["evidence_precision"] == 1.0 and r["chosen"]["answer_present_gold"] == 1.0
    assert r["rows"][0]["evidence_precision"] == 2 / 3
