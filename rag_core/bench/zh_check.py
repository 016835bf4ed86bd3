"""``bench zh-check``: the Chinese head and the shared models on Chinese question–clause pairs that no
fit ever read and that the author of the training pairs did not write (``zh_check_set``).

Why: the head's own figures (``train judge`` → ``zh_head_cv``) are leave-one-contract-kind-out on
the written pairs (``qa_zh``); held-out kinds, but one author's phrasing on both sides. A set
written apart from them (by another author, with contract kinds the pairs lack: warehousing,
transport, gift, partnership, factoring …) tells how the head does on wording it was not fitted
to. Candidates are built as for the fit (``zh_head_training.head_pairs``: the clause's contract,
clauses of other kinds, no other clause of the asked topic), scored with the committed weights,
and read at the run-time thresholds (``VerdictSettings``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from rag_core.bench.zh_check_set import ZH_CHECK
from rag_core.errors import LexgateError
from rag_core.judge.fitted import load_weights
from rag_core.judge.zh_head_training import HeadPairs, head_figures, head_pairs
from rag_core.settings import JudgeTrainSettings, VerdictSettings

Log = Callable[[str], None]


def _per_kind(
    hp: HeadPairs, rel: np.ndarray, evi: np.ndarray, t_rel: float, t_evi: float
) -> dict[str, dict[str, float]]:
    """The head's figures (``head_figures``) per contract kind: which kinds of contract it reads worse
    than the average says."""
    kinds = np.asarray(hp.kinds)
    return {
        k: head_figures(hp.rows(kinds == k), rel[kinds == k], evi[kinds == k], t_rel, t_evi)
        for k in sorted(set(hp.kinds))
    }


def run_zh_check(verdict: VerdictSettings, log: Log) -> dict[str, Any]:
    """Shared models and head (committed weights) on the check set, beside the head's figures on
    the written pairs as ``train judge`` recorded them."""
    t0 = time.perf_counter()
    w = load_weights()
    if w.zh_head is None:
        raise LexgateError("the judge weights have no Chinese head", "run `python -m rag_core train judge`")
    hp = head_pairs(w, JudgeTrainSettings(), entries=ZH_CHECK)
    log(f"{len(hp.own)} pairs from {len(ZH_CHECK)} clauses of {len(set(e.kind for e in ZH_CHECK))} kinds")
    rel, evi = w.zh_head.scores(hp.x)
    t_rel, t_evi = verdict.t_relevance, verdict.t_evidence
    return {
        "clauses": len(ZH_CHECK),
        "questions": len(np.unique(hp.questions[~hp.removed])),
        "shared": head_figures(hp, hp.shared_rel, hp.shared_evi, t_rel, t_evi),
        "head": head_figures(hp, rel, evi, t_rel, t_evi),
        "head_per_kind": _per_kind(hp, rel, evi, t_rel, t_evi),
        "written_pairs_cv": w.figures.get("zh_head_cv", {}),
        "t_relevance": t_rel,
        "t_evidence": t_evi,
        "seconds": round(time.perf_counter() - t0, 1),
    }


_ROWS = (
    ("relevance_auc", "relevance AUC"),
    ("evidence_auc", "evidence AUC"),
    ("top1", "answering clause ranked first"),
    ("own_evidence", "answering clause kept as EVIDENCE"),
    ("unanswered_evidence", "open-detail clause taken for EVIDENCE"),
    ("other_evidence", "other clauses taken for EVIDENCE"),
    ("fact_removed_relevant", "asked value cut out: still relevant"),
    ("fact_removed_evidence", "asked value cut out: taken for EVIDENCE"),
)


def format_zh_check(r: dict[str, Any]) -> str:
    """The table: shared models and head on the check set, and the head on the written pairs."""
    cv = r["written_pairs_cv"].get("head", {})
    lines = [
        f"Chinese check set: {r['clauses']} clauses, {r['questions']} questions, {r['head']['pairs']} pairs "
        f"(t_relevance {r['t_relevance']}, t_evidence {r['t_evidence']})",
        f"{'':42s} {'shared':>8s} {'head':>8s} {'head, written pairs (CV)':>26s}",
    ]
    for key, label in _ROWS:
        lines.append(
            f"{label:42s} {r['shared'][key]:8.3f} {r['head'][key]:8.3f} {cv.get(key, float('nan')):26.3f}"
        )
    lines.append("head per contract kind: answering clause ranked first / kept as EVIDENCE")
    for kind, f in r["head_per_kind"].items():
        lines.append(f"  {kind:16s} {f['pairs']:5d} pairs  {f['top1']:.3f} / {f['own_evidence']:.3f}")
    lines.append(f"{r['seconds']} s")
    return "\n".join(lines)
