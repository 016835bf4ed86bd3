"""Fitting the Chinese-passage head (``zh_head``) on the written Chinese pairs and measuring it
leave-one-contract-kind-out, beside the shared models on the same pairs.

Why leave one kind out: the head will meet contracts of kinds nobody wrote pairs for; a kind's
clauses and questions share wording (every lease speaks of 出租方 and 房屋), so a random split would
measure how well the head remembers a kind, not how it does on a new one.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from rag_core.judge import dense
from rag_core.judge.fitted import JudgeWeights, asks_party, shared_scores
from rag_core.judge.qa_zh import ZH_QA, ZhQA
from rag_core.judge.relevance import asked_kinds, value_kinds, without_values
from rag_core.judge.zh_head import FEATURES, ZhHead, head_rows
from rag_core.settings import JudgeTrainSettings
from rag_core.textproc import is_chinese


@dataclass(frozen=True)
class HeadPairs:
    """One row per (question, candidate clause)."""

    x: np.ndarray  # (n, len(FEATURES))
    own: np.ndarray  # the candidate is the question's own clause (relevant)
    answered: np.ndarray  # the question's own clause states the asked fact
    kinds: list[str]  # contract kind of the question
    questions: np.ndarray  # question number of the row
    removed: np.ndarray  # the own clause of an answered question with the asked values cut out
    shared_rel: np.ndarray
    shared_evi: np.ndarray

    @property
    def y_rel(self) -> np.ndarray:
        return self.own

    @property
    def y_evi(self) -> np.ndarray:
        return self.own & self.answered

    def rows(self, mask: np.ndarray) -> HeadPairs:
        """The rows ``mask`` selects, every field cut alike (questions keep their numbers).

        Why here: a subset (one contract kind for ``bench zh-check``'s per-kind figures) must cut
        every field, and a field added later is cut by the class that declares it."""
        return HeadPairs(
            self.x[mask],
            self.own[mask],
            self.answered[mask],
            [k for k, m in zip(self.kinds, mask, strict=True) if m],
            self.questions[mask],
            self.removed[mask],
            self.shared_rel[mask],
            self.shared_evi[mask],
        )


def _by_kind(entries: Sequence[ZhQA]) -> dict[str, list[ZhQA]]:
    out: dict[str, list[ZhQA]] = defaultdict(list)
    for e in entries:
        out[e.kind].append(e)
    return dict(sorted(out.items()))


def _candidates(
    ents: list[ZhQA], at: int, others: list[ZhQA], n_other: int, seed: list[int]
) -> tuple[list[str], int]:
    """The clauses an entry's questions are scored against, and where its own clause is among them:
    its kind's clauses and ``n_other`` of other kinds, without other clauses of its topic."""
    e = ents[at]
    pick = np.random.default_rng(seed).choice(len(others), min(n_other, len(others)), replace=False)
    same = [c for j, c in enumerate(ents) if j == at or c.topic != e.topic]
    other = [others[j] for j in sorted(int(p) for p in pick) if others[j].topic != e.topic]
    return [c.clause for c in same + other], same.index(e)


def head_pairs(
    w: JudgeWeights,
    ts: JudgeTrainSettings,
    kinds_limit: int | None = None,
    entries: Sequence[ZhQA] = ZH_QA,
) -> HeadPairs:
    """The head's training rows, each with the shared models' scores (``w``) among its features.

    Questions asking who the parties are are left out: at run time they keep the party model's
    scores (``fitted.with_zh_head``). ``kinds_limit``: the first few contract kinds only (the
    suite's quick refit). ``entries``: the written pairs (``qa_zh``), or a set never fitted on
    (``bench zh-check``). A question asking for a value (a period, an amount, a date)
    is also asked of its own clause with those values cut out (``relevance.without_values``, as
    ``train_sets.fact_removed_pairs`` does for CUAD): relevant, not evidence. Without these rows the
    written clauses that leave a detail open were nearly all worded apart from the question, and the
    head took a clause holding every word of "货物的质量保证期是多久？" but no period for evidence (0.996)."""
    xs: list[np.ndarray] = []
    own: list[bool] = []
    answered: list[bool] = []
    kinds: list[str] = []
    qids: list[int] = []
    cut_rows: list[bool] = []
    srel: list[float] = []
    sevi: list[float] = []
    groups = dict(list(_by_kind(entries).items())[:kinds_limit])
    qn = 0
    for ki, (kind, ents) in enumerate(groups.items()):
        others = [c for k, cs in groups.items() if k != kind for c in cs]
        for ei, e in enumerate(ents):
            texts, at = _candidates(ents, ei, others, ts.zh_head_other_kinds, [ki, ei])
            answers = [q for q in e.answered if is_chinese(q)]  # the head scores Chinese questions only
            asked = [(q, True, texts) for q in answers]
            asked += [(q, False, texts) for q in e.unanswered if is_chinese(q)]
            for q in answers:
                cut = without_values(texts[at], value_kinds(tuple(asked_kinds(q))))
                if cut is not None:
                    asked.append((q, False, [*texts[:at], cut, *texts[at + 1 :]]))
            for q, ans, cands in asked:
                s = shared_scores(q, cands, w)
                if asks_party(s.lexical, q):
                    continue
                take = list(range(len(cands))) if cands is texts else [at]
                xs.append(head_rows(s, take, dense.embed))
                own += [j == at for j in take]
                answered += [ans] * len(take)
                cut_rows += [cands is not texts] * len(take)
                kinds += [kind] * len(take)
                qids += [qn] * len(take)
                srel += [float(s.relevance[j]) for j in take]
                sevi += [float(s.evidence[j]) for j in take]
                qn += 1
    return HeadPairs(
        np.vstack(xs) if xs else np.zeros((0, len(FEATURES))),
        np.asarray(own, dtype=bool),
        np.asarray(answered, dtype=bool),
        kinds,
        np.asarray(qids, dtype=np.int64),
        np.asarray(cut_rows, dtype=bool),
        np.asarray(srel),
        np.asarray(sevi),
    )


def _weights(y: np.ndarray, ts: JudgeTrainSettings) -> np.ndarray:
    return np.where(y, ts.zh_head_positive_weight, 1.0)


def fit_head(hp: HeadPairs, ts: JudgeTrainSettings, rows: np.ndarray | None = None) -> ZhHead:
    """The head fitted on ``rows`` (all pairs by default): relevance on every pair, ``answers`` on
    the relevant ones (``ZhHead``)."""
    from rag_core.judge.training import fit_logistic

    use = np.ones(len(hp.own), dtype=bool) if rows is None else rows
    own = use & hp.own
    return ZhHead(
        fit_logistic(hp.x[use], hp.y_rel[use], ts.c_zh_head, _weights(hp.y_rel[use], ts)),
        fit_logistic(hp.x[own], hp.y_evi[own], ts.c_zh_head),
    )


def kind_cv(hp: HeadPairs, ts: JudgeTrainSettings) -> tuple[np.ndarray, np.ndarray]:
    """Relevance and evidence of every row from a head fitted without the row's contract kind."""
    rel, evi = np.zeros(len(hp.own)), np.zeros(len(hp.own))
    kinds = np.asarray(hp.kinds)
    for k in sorted(set(hp.kinds)):
        out = kinds == k
        rel[out], evi[out] = fit_head(hp, ts, ~out).scores(hp.x[out])
    return rel, evi


def head_figures(
    hp: HeadPairs, rel: np.ndarray, evi: np.ndarray, t_rel: float, t_evi: float
) -> dict[str, float]:
    """What a lawyer's Chinese question meets: AUCs, the answering clause ranked first by evidence
    (``top1``) and kept (``own_evidence``: evidence ≥ t_evi and relevance ≥ t_rel), a clause of the
    topic that leaves the asked detail open taken for evidence (``unanswered_evidence``), and the
    share of other clauses taken for evidence (``other_evidence``); and the answering clauses with
    the asked values cut out still relevant (``fact_removed_relevant``) but not evidence
    (``fact_removed_evidence``)."""
    from sklearn.metrics import roc_auc_score

    top1: list[bool] = []
    kept: list[bool] = []
    open_kept: list[bool] = []
    other: list[float] = []
    for q in np.unique(hp.questions[~hp.removed]):
        ids = np.flatnonzero(hp.questions == q)
        o = int(ids[hp.own[ids]][0])
        if hp.answered[o]:
            top1.append(int(ids[np.argmax(evi[ids])]) == o)
            kept.append(bool(evi[o] >= t_evi and rel[o] >= t_rel))
            other.append(float(np.mean(evi[ids[ids != o]] >= t_evi)))
        else:
            open_kept.append(bool(evi[o] >= t_evi))
    return {
        "pairs": len(hp.own),
        "relevance_auc": round(float(roc_auc_score(hp.y_rel, rel)), 3),
        "evidence_auc": round(float(roc_auc_score(hp.y_evi, evi)), 3),
        "top1": round(float(np.mean(top1)), 3),
        "own_evidence": round(float(np.mean(kept)), 3),
        "unanswered_evidence": round(float(np.mean(open_kept)), 3),
        "other_evidence": round(float(np.mean(other)), 3),
        "fact_removed_relevant": round(float(np.mean(rel[hp.removed] >= t_rel)), 3),
        "fact_removed_evidence": round(float(np.mean(evi[hp.removed] >= t_evi)), 3),
    }
