"""``python -m rag_core train thresholds``: choose ``t_evidence``, ``t_clause_type`` and
``t_evidence_relevance`` on the fit part.

Why: the thresholds decide refusal (nothing above ``t_evidence``, or no kept passage of the asked
clause type from ``t_clause_type``), and choosing them on ``bench refusal``'s check contracts would
tune on what is reported. So they are chosen by two-fold cross-validation *by contract* on the fit
part only: for each half of the fit contracts, the relevance and evidence models are refitted
without that half's windows and judged, with the clause classifier fitted without it
(``FitInputs.half_models``), exactly as ``bench refusal`` judges the check part — one question per
(contract, bench category) in phrasing 1 (the fit uses phrasing 0), the top candidates by fused
usem and lexical ranking. A grid of both thresholds is swept over the recorded scores; the choice
is the point nearest to meeting all three targets of issue 10 at once — the largest
min(refusal / 0.90, answer / 0.85, EVIDENCE precision / 0.80) — because the balanced rate alone
picks a low ``t_evidence`` that labels a third of the candidates EVIDENCE, which is the complaint
the labels must answer. Grid points within ``SHARE_TIE`` of the best share are ties, broken by the
balanced rate, so a hair of precision is not bought with many answers. Nothing is written: the figures say which defaults to set in
``settings.py``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from rag_core.judge.fitted import JudgeWeights, score
from rag_core.judge.train_sets import Contract
from rag_core.judge.training import VectorCache, fit_inputs, fit_models, fit_sets
from rag_core.settings import JudgeTrainSettings, VerdictSettings

Log = Callable[[str], None]
EVIDENCE_GRID: tuple[float, ...] = tuple(round(0.1 + 0.05 * i, 2) for i in range(17))
CLAUSE_GRID: tuple[float, ...] = (0.0, *(round(0.1 + 0.05 * i, 2) for i in range(15)))
"""``t_clause_type`` from 0 (no absent-clause gate) to 0.8."""
FLOOR_GRID: tuple[float, ...] = (0.2, 0.3, 0.4, 0.5, 0.6)
"""``t_evidence_relevance``: the relevance an EVIDENCE passage needs (0.2 is ``t_relevance``: no floor)."""
FLOOR_FREE_GRID: tuple[float, ...] = (0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5)
"""``t_evidence_relevance`` at the default thresholds, in finer steps (``floor_at_defaults``)."""
MARGIN_GRID: tuple[float, ...] = (1.0, 0.3, 0.2, 0.15, 0.1, 0.05)
"""``evidence_margin``: how far below the strongest EVIDENCE candidate another may be (1: no margin)."""
FOUND_GRID: tuple[float, ...] = (1.01, 0.95, 0.9, 0.85, 0.8, 0.7, 0.6, 0.5)
"""``t_clause_found``: the clause-type probability a passage needs to be cited as the asked clause
when no passage holds the asked detail (1.01: never)."""
FOUND_RELEVANCE_GRID: tuple[float, ...] = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)
"""``t_found_relevance``: the relevance such a passage needs."""
RELEVANCE_TIE_BREAK: float = 1e-6
"""Relevance's weight beside the clause-type probability when the found clause is picked: it only
breaks ties, as ``clause_gate.found_clause`` does."""
SHARE_TIE: float = 0.01
"""Grid points whose target share is within this of the best are ties (1,200 questions cannot tell
them apart); among them the best balanced rate wins, so precision is not bought with answers."""
TARGETS: dict[str, float] = {"refusal_absent": 0.90, "answer_present_gold": 0.85, "evidence_precision": 0.80}
"""Issue 10's targets; a grid point's ``target_share`` is its worst figure as a share of its target."""


@dataclass(frozen=True)
class Judged:
    """One question's candidates as the judge scored them."""

    present: bool
    typed: bool  # the question asks about a clause type (the absent-clause gate applies)
    rel: np.ndarray
    evi: np.ndarray
    type_prob: np.ndarray
    gold: np.ndarray  # the candidate overlaps a gold span


def judge_questions(
    contracts: list[Contract],
    w: JudgeWeights,
    candidates_n: int,
    embed_fn: Callable[[list[str]], np.ndarray] | None = None,
) -> list[Judged]:
    """Score the bench questions of ``contracts`` with the weights ``w`` (no label yet); ``embed_fn``
    ranks the candidates from the training vector cache (the judge itself embeds as at run time)."""
    from rag_core.bench.refusal_bench import candidates, contract_questions, overlaps

    out: list[Judged] = []
    for q in contract_questions(contracts):
        wins = candidates(q, candidates_n, embed_fn) if embed_fn else candidates(q, candidates_n)
        sc = score(q.question, [q.contract.text[s:e] for s, e in wins], w)
        out.append(
            Judged(
                q.present,
                bool(sc and sc[0].asked_types),
                np.asarray([s.relevance for s in sc]),
                np.asarray([s.evidence for s in sc]),
                np.asarray([s.type_prob for s in sc]),
                np.asarray([overlaps(win, q.gold) for win in wins], dtype=bool),
            )
        )
    return out


@dataclass(frozen=True)
class ScoreMatrix:
    """Judged questions as padded (question × candidate) arrays sorted by evidence, so one grid
    point is a few array operations (a grid of thousands of points sweeps in seconds)."""

    present: np.ndarray
    typed: np.ndarray
    valid: np.ndarray
    rel: np.ndarray
    evi: np.ndarray
    type_prob: np.ndarray
    gold: np.ndarray

    @classmethod
    def of(cls, judged: list[Judged]) -> ScoreMatrix:
        n = max((len(j.evi) for j in judged), default=0)
        shape = (len(judged), n)
        valid, gold = np.zeros(shape, dtype=bool), np.zeros(shape, dtype=bool)
        rel, evi, tp = np.zeros(shape), np.full(shape, -1.0), np.zeros(shape)
        for i, j in enumerate(judged):
            order = np.argsort(-j.evi, kind="stable")  # ``classify`` keeps by evidence
            k = len(order)
            valid[i, :k] = True
            rel[i, :k], evi[i, :k], tp[i, :k], gold[i, :k] = (
                j.rel[order],
                j.evi[order],
                j.type_prob[order],
                j.gold[order],
            )
        present = np.asarray([j.present for j in judged], dtype=bool)
        typed = np.asarray([j.typed for j in judged], dtype=bool)
        return cls(present, typed, valid, rel, evi, tp, gold)


def rates(
    judged: list[Judged] | ScoreMatrix,
    vs: VerdictSettings,
    t_evi: float,
    t_clause: float,
    floor: float | None = None,
    margin: float | None = None,
    found: tuple[float, float] | None = None,
) -> dict[str, float]:
    """Refusal / answer / EVIDENCE precision of ``judged`` under the thresholds (``classify``'s
    order without injection and conflict, which CUAD windows do not raise, then
    ``apply_evidence_margin``; ``max_kept`` by evidence); ``floor``: the relevance an EVIDENCE
    passage needs, ``margin``: ``evidence_margin``, ``found``: (``t_clause_found``,
    ``t_found_relevance``), a refused typed question answered by citing its most likely passage of
    the asked type (``clause_gate.found_clause``) (defaults: the settings')."""
    m = judged if isinstance(judged, ScoreMatrix) else ScoreMatrix.of(judged)
    floor = vs.t_evidence_relevance if floor is None else floor
    margin = vs.evidence_margin if margin is None else margin
    evidence = m.valid & (m.rel >= max(vs.t_relevance, floor)) & (m.evi > t_evi)
    top = np.where(evidence, m.evi, -np.inf).max(axis=1, keepdims=True, initial=-np.inf)
    evidence &= m.evi >= top - margin
    kept = evidence & (np.cumsum(evidence, axis=1) <= vs.max_kept)
    any_kept = kept.any(axis=1)
    type_best = np.where(kept, m.type_prob, -np.inf).max(axis=1, initial=-np.inf)
    refused = ~any_kept | (m.typed & (type_best < t_clause))
    cited = kept & ~refused[:, None]
    t_found, found_rel = (vs.t_clause_found, vs.t_found_relevance) if found is None else found
    if vs.cite_found_clause or found is not None:
        refused, cited = cite_found(m, refused, cited, t_found, found_rel)
    answered = m.present & ~refused & (cited & m.gold).any(axis=1)
    absent, present = int((~m.present).sum()), int(m.present.sum())
    ev_n = int(evidence.sum())
    refusal = float((refused & ~m.present).sum() / absent) if absent else 0.0
    answer = float(answered.sum() / present) if present else 0.0
    precision = float((evidence & m.gold).sum() / ev_n) if ev_n else 0.0
    return {
        "t_evidence": t_evi,
        "t_clause_type": t_clause,
        "t_evidence_relevance": floor,
        "evidence_margin": margin,
        "t_clause_found": t_found,
        "t_found_relevance": found_rel,
        "refusal_absent": refusal,
        "answer_present_gold": answer,
        "evidence_precision": precision,
        "balanced": (refusal + answer) / 2,
        "target_share": min(
            refusal / TARGETS["refusal_absent"],
            answer / TARGETS["answer_present_gold"],
            precision / TARGETS["evidence_precision"],
        ),
    }


def cite_found(
    m: ScoreMatrix, refused: np.ndarray, cited: np.ndarray, t_found: float, found_rel: float
) -> tuple[np.ndarray, np.ndarray]:
    """Refusals and cited candidates after the found-clause answer: a refused typed question with a
    candidate of the asked type (``type_prob`` at least ``t_found``, relevance at least
    ``found_rel``) is answered by citing the most likely such candidate."""
    eligible = m.valid & (m.type_prob >= t_found) & (m.rel >= found_rel)
    turn = refused & m.typed & eligible.any(axis=1)
    pick = np.argmax(np.where(eligible, m.type_prob + RELEVANCE_TIE_BREAK * m.rel, -np.inf), axis=1)
    chosen = np.zeros_like(cited)
    chosen[np.arange(len(pick)), pick] = True
    return refused & ~turn, np.where(turn[:, None], chosen, cited)


def sweep(judged: list[Judged], vs: VerdictSettings) -> dict[str, Any]:
    """Every grid point, the chosen one and the current defaults."""
    m = ScoreMatrix.of(judged)
    grid = [
        rates(m, vs, te, tc, fl, mg)
        for te in EVIDENCE_GRID
        for tc in CLAUSE_GRID
        for fl in FLOOR_GRID
        for mg in MARGIN_GRID
    ]
    top = max(r["target_share"] for r in grid)
    best = max(
        (r for r in grid if r["target_share"] >= top - SHARE_TIE),
        key=lambda r: (round(r["balanced"], 4), round(r["target_share"], 4)),
    )
    return {
        "questions": len(judged),
        "absent": sum(not j.present for j in judged),
        "chosen": best,
        "defaults": rates(m, vs, vs.t_evidence, vs.t_clause_type),
        "margin_at_defaults": margin_at_defaults(m, vs),
        "floor_at_defaults": floor_at_defaults(m, vs),
        "found_at_defaults": found_at_defaults(m, vs),
        "grid": grid,
    }


def margin_at_defaults(m: ScoreMatrix, vs: VerdictSettings) -> dict[str, Any]:
    """Each ``evidence_margin`` of ``MARGIN_GRID`` at the default thresholds, and the smallest one
    that loses no refusal and no answer against no margin (the most precision for free).

    Why apart from the grid: the margin only takes EVIDENCE labels from passages well below the
    strongest, so at fixed thresholds it can buy precision without a single answer; the joint grid
    also moves ``t_evidence``, trading refusals for answers, which is a choice of its own."""
    rows = [rates(m, vs, vs.t_evidence, vs.t_clause_type, margin=mg) for mg in MARGIN_GRID]
    base = rates(m, vs, vs.t_evidence, vs.t_clause_type, margin=1.0)
    return {"rows": rows, "chosen": min(free_of(rows, base), key=lambda r: r["evidence_margin"])}


def floor_at_defaults(m: ScoreMatrix, vs: VerdictSettings) -> dict[str, Any]:
    """Each ``t_evidence_relevance`` of ``FLOOR_FREE_GRID`` at the default thresholds and margin,
    and the largest one that loses no refusal and no answer against no floor (``t_relevance``).

    Why, as for the margin: a floor only takes EVIDENCE from passages the judge finds barely on
    topic, so it can buy precision without an answer; the joint grid's choice trades answers.
    A report, not the default: the fit part holds no Chinese passage, and its choice (0.35 in
    session 21) left the check part unchanged and cost a Chinese loan clause its answer (0.29)."""
    rows = [rates(m, vs, vs.t_evidence, vs.t_clause_type, floor=fl) for fl in FLOOR_FREE_GRID]
    base = rates(m, vs, vs.t_evidence, vs.t_clause_type, floor=vs.t_relevance)
    return {"rows": rows, "chosen": max(free_of(rows, base), key=lambda r: r["t_evidence_relevance"])}


def free_of(rows: list[dict[str, Any]], base: dict[str, Any]) -> list[dict[str, Any]]:
    """The rows that lose no answer and no refusal against ``base`` (``base`` itself among them)."""
    return [
        r
        for r in rows
        if r["answer_present_gold"] >= base["answer_present_gold"]
        and r["refusal_absent"] >= base["refusal_absent"]
    ]


def found_at_defaults(m: ScoreMatrix, vs: VerdictSettings) -> dict[str, Any]:
    """Each (``t_clause_found``, ``t_found_relevance``) of the grids at the default thresholds, and
    the one with the best balanced rate (ties: the stricter), beside no found-clause answer.

    Why the balanced rate: the found-clause answer turns refusals into cited answers; on a present
    clause that is an answer a lawyer can use (the clause, saying it states no asked detail), on an
    absent one it is a wrong clause cited, so both count alike. EVIDENCE precision cannot change:
    no label changes."""
    rows = [
        rates(m, vs, vs.t_evidence, vs.t_clause_type, found=(tf, fr))
        for tf in FOUND_GRID
        for fr in FOUND_RELEVANCE_GRID
    ]
    chosen = max(rows, key=lambda r: (round(r["balanced"], 4), r["t_clause_found"], r["t_found_relevance"]))
    return {
        "rows": rows,
        "off": rates(m, vs, vs.t_evidence, vs.t_clause_type, found=(1.01, 1.0)),
        "chosen": chosen,
    }


def judged_json(judged: list[Judged]) -> list[dict[str, Any]]:
    """The recorded scores as JSON (``--save-scores``), so the grid can be swept again in seconds."""
    return [
        {
            "present": j.present,
            "typed": j.typed,
            **{k: getattr(j, k).tolist() for k in ("rel", "evi", "type_prob", "gold")},
        }
        for j in judged
    ]


def judged_from_json(rows: list[dict[str, Any]]) -> list[Judged]:
    """Scores written by ``judged_json`` (``--from-scores``)."""
    return [
        Judged(
            bool(r["present"]),
            bool(r["typed"]),
            np.asarray(r["rel"], dtype=float),
            np.asarray(r["evi"], dtype=float),
            np.asarray(r["type_prob"], dtype=float),
            np.asarray(r["gold"], dtype=bool),
        )
        for r in rows
    ]


def threshold_judged(
    train_dir: Path, ts: JudgeTrainSettings, contracts: int, candidates_n: int, log: Log
) -> list[Judged]:
    """Two folds by contract on the fit part; ``contracts`` held-out contracts judged per fold."""
    inp = fit_inputs(train_dir, ts, log, VectorCache(), None)
    judged: list[Judged] = []
    for h in (0, 1):
        names = [g.split(":", 1)[1] for g in inp.ev_rows.groups]
        use = np.asarray([inp.halves.get(n, -1) != h for n in names], dtype=bool)
        relevance, evidence = fit_models(fit_sets(inp.rel_rows, inp.ev_rows, ts, cuad=use), ts)
        w = JudgeWeights(inp.half_models[h], relevance, evidence, ts.question_type_min, "")
        held = sorted(
            (c for c in inp.fit_c if inp.halves[c.name] == h),
            key=lambda c: hashlib.sha1(c.name.encode()).hexdigest(),
        )[:contracts]
        judged += judge_questions(held, w, candidates_n, inp.cache.get)
        log(f"fold {h}: {len(held)} held-out fit contracts judged, {len(judged)} questions so far")
    return judged


def format_cv(r: dict[str, Any]) -> str:
    """The chosen thresholds and the defaults, as lines."""

    def line(name: str, x: dict[str, float]) -> str:
        return (
            f"{name:<9} t_evidence {x['t_evidence']:.2f}  t_clause_type {x['t_clause_type']:.2f}  "
            f"t_evidence_relevance {x['t_evidence_relevance']:.2f}  evidence_margin {x['evidence_margin']:.2f}  "
            f"refused-absent {x['refusal_absent']:.3f}  answered-present {x['answer_present_gold']:.3f}  "
            f"EVIDENCE precision {x['evidence_precision']:.3f}"
        )

    return "\n".join(
        [
            f"threshold CV on the fit part — {r['questions']} questions ({r['absent']} absent), 2 folds by contract",
            line("defaults", r["defaults"]),
            line("chosen", r["chosen"]),
            "evidence_margin at the default thresholds (chosen: the smallest that loses no answer or refusal):",
            *(line("  margin", x) for x in r["margin_at_defaults"]["rows"]),
            line("  chosen", r["margin_at_defaults"]["chosen"]),
            "t_evidence_relevance at the default thresholds (chosen: the largest that loses no answer or refusal):",
            *(line("  floor", x) for x in r["floor_at_defaults"]["rows"]),
            line("  chosen", r["floor_at_defaults"]["chosen"]),
            "found-clause answer at the default thresholds (t_clause_found / t_found_relevance; "
            "chosen: the best balanced rate, ties the stricter):",
            found_line("  off", r["found_at_defaults"]["off"]),
            found_line("  chosen", r["found_at_defaults"]["chosen"]),
        ]
    )


def found_line(name: str, x: dict[str, float]) -> str:
    """One found-clause point as a line."""
    return (
        f"{name:<9} t_clause_found {x['t_clause_found']:.2f}  t_found_relevance {x['t_found_relevance']:.2f}  "
        f"refused-absent {x['refusal_absent']:.3f}  answered-present {x['answer_present_gold']:.3f}"
    )
