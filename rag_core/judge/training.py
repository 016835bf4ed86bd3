"""``python -m rag_core train judge``: fit the clause-type, relevance and evidence models, and the
Chinese head stacked on the last two (``zh_head_training``).

Why this order: the clause classifier comes first because its probabilities are features of the
other two; for the evidence training pairs they are *cross-fitted* (each half of the fit contracts
is scored by a classifier fitted on the other half), so the evidence model learns how much to
trust the classifier on contracts it has not seen — which is the situation at run time. Every
figure printed is measured on data the model being measured was not fitted on: grouped
cross-validation (by question for PrivacyQA, by contract for CUAD) and the held-out check
contracts, asked with a different phrasing.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from rag_core.judge import dense
from rag_core.judge.clause_lexicon import fit_lexical
from rag_core.judge.clause_types import CATEGORY_NAMES, trigger_matrix
from rag_core.judge.clauses_zh import ZH_CLAUSES
from rag_core.judge.features import EVIDENCE_COLUMNS, SCALAR_FEATURES, feature_matrix
from rag_core.judge.fitted import (
    ClauseModel,
    JudgeWeights,
    Logistic,
    part_views,
    question_view,
    weights_from_json,
)
from rag_core.judge.relevance import lexical_features
from rag_core.judge.train_sets import (
    Contract,
    Pair,
    Ranked,
    clause_examples,
    evidence_pairs,
    is_check,
    load_contracts,
    load_privacyqa,
    party_pairs,
    rank_contracts,
    ranked_pairs,
    train_hash,
)
from rag_core.judge.zh_head import FEATURES as HEAD_FEATURES
from rag_core.judge.zh_head_training import fit_head, head_figures, head_pairs, kind_cv
from rag_core.paths import model_cache_dir
from rag_core.settings import JudgeTrainSettings, VerdictSettings

Log = Callable[[str], None]
THRESHOLD_GRID: tuple[float, ...] = tuple(round(0.05 * i, 2) for i in range(2, 19))
EVIDENCE_PRECISION_GOAL: float = 0.8
"""The evidence threshold recommended is the lowest whose cross-validated precision reaches this."""
ABSENT_LOGIT: float = -10.0
"""Intercept of a clause type with no example in the sample (only in small test fits)."""
SAMPLE_HEAD_KINDS: int = 3
"""Contract kinds of the written Chinese pairs the Chinese head is fitted on in a ``sample`` fit."""
SIGNIFICANT: int = 7
"""Significant digits kept in the JSON weights (what the run-time model uses)."""


# ----------------------------------------------------------------------------- vectors
class VectorCache:
    """usem vectors of training texts, cached on disk per ordered text list (never committed)."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = root or model_cache_dir() / "judge-vectors"
        self.root.mkdir(parents=True, exist_ok=True)
        self.vecs: dict[str, np.ndarray] = {}

    def add(self, texts: list[str]) -> None:
        """Embed the texts not yet known (from the disk cache when this exact list was seen)."""
        todo = list(dict.fromkeys(t for t in texts if t not in self.vecs))
        if not todo:
            return
        key = hashlib.sha256("\x00".join(todo).encode("utf-8")).hexdigest()[:24]
        path = self.root / f"usem-{key}.npy"
        if path.exists():
            arr = np.load(path)
        else:
            arr = dense.embed(todo) if len(todo) < dense.MEMO_SIZE else _embed_many(todo)
            np.save(path, arr)
        self.vecs.update(zip(todo, arr, strict=True))

    def get(self, texts: list[str]) -> np.ndarray:
        self.add(texts)
        return np.stack([self.vecs[t] for t in texts]) if texts else np.zeros((0, dense.DIM))


def _embed_many(texts: list[str]) -> np.ndarray:
    """Embed a long list in slices (the in-process memo stays small)."""
    step = dense.MEMO_SIZE // 2
    return np.vstack([dense.embed(texts[i : i + step]) for i in range(0, len(texts), step)])


# ----------------------------------------------------------------------------- fitting
def _round(x: np.ndarray | float) -> Any:
    """Floats at ``SIGNIFICANT`` digits (JSON-able lists)."""
    arr = np.asarray(x, dtype=np.float64)
    out = np.vectorize(lambda v: float(f"{v:.{SIGNIFICANT}g}"))(arr) if arr.size else arr
    return out.tolist()


def fit_logistic(x: np.ndarray, y: np.ndarray, c: float, weight: np.ndarray | None = None) -> Logistic:
    """A standardised L2 logistic regression (scikit-learn lbfgs: deterministic)."""
    from sklearn.linear_model import LogisticRegression

    mean = x.mean(axis=0)
    scale = np.maximum(x.std(axis=0), 1e-6)
    m = LogisticRegression(C=c, max_iter=3000)
    m.fit((x - mean) / scale, y.astype(int), sample_weight=weight)
    return Logistic(m.coef_[0].copy(), float(m.intercept_[0]), mean, scale)


def logistic_json(m: Logistic, names: list[str]) -> dict[str, Any]:
    return {
        "features": names,
        "coef": _round(m.coef),
        "intercept": _round(m.intercept),
        "mean": _round(m.mean),
        "scale": _round(m.scale),
    }


def clause_json(m: ClauseModel) -> dict[str, Any]:
    out = {
        "trigger_coef": _round(m.trigger_coef),
        "categories": list(CATEGORY_NAMES),
        "coef": _round(m.coef),
        "intercept": _round(m.intercept),
    }
    if m.words is not None:
        out["words"] = m.words.to_json(_round)
    return out


def fit_clause(
    vecs: np.ndarray,
    texts: list[str],
    labels: list[set[str]],
    c: float,
    weight: np.ndarray | None = None,
    words: JudgeTrainSettings | None = None,
) -> ClauseModel:
    """One balanced logistic per category over the unit vector and the category's thesaurus match;
    with ``words`` (the train settings), the word side too (``clause_lexicon``; English text only)."""
    from sklearn.linear_model import LogisticRegression

    trig = trigger_matrix(texts)
    coef, icpt, tcoef = [], [], []
    for j, k in enumerate(CATEGORY_NAMES):
        y = np.asarray([k in lab for lab in labels], dtype=int)
        if y.min() == y.max():  # a small sample without this category: it is never predicted
            coef.append(np.zeros(vecs.shape[1]))
            icpt.append(ABSENT_LOGIT if y.max() == 0 else -ABSENT_LOGIT)
            tcoef.append(0.0)
            continue
        m = LogisticRegression(C=c, max_iter=3000, class_weight="balanced")
        m.fit(np.hstack([vecs, trig[:, j : j + 1]]), y, sample_weight=weight)
        coef.append(m.coef_[0][:-1])
        tcoef.append(m.coef_[0][-1])
        icpt.append(m.intercept_[0])
    side = None
    if words is not None and words.clause_words > 0:
        side = fit_lexical(
            texts,
            labels,
            CATEGORY_NAMES,
            words.clause_words,
            words.clause_words_min_df,
            words.c_clause_words,
            words.clause_words_share,
            weight,
            absent_logit=ABSENT_LOGIT,
        )
    return ClauseModel(CATEGORY_NAMES, np.asarray(coef), np.asarray(icpt), np.asarray(tcoef), words=side)


# ----------------------------------------------------------------------------- features
@dataclass
class Rows:
    x_rel: np.ndarray
    x_evi: np.ndarray
    y: np.ndarray  # evidence labels
    y_rel: np.ndarray  # relevance labels (differ from ``y`` on fact-removed windows)
    groups: list[str]
    sentence: np.ndarray
    fact_removed: np.ndarray
    ranked: np.ndarray
    party: np.ndarray

    @property
    def windows(self) -> np.ndarray:
        """Rows that are sampled contract windows (not sentences, counterfactual copies, ranked or
        party questions)."""
        return ~self.sentence & ~self.fact_removed & ~self.ranked & ~self.party


def pair_rows(
    pairs: list[Pair], cache: VectorCache, clause_of: Callable[[str], ClauseModel], q_min: float
) -> Rows:
    """Feature rows of pairs, one question group at a time (lexical IDF over the group's texts).

    ``clause_of(group)`` gives the clause model used for that group (cross-fitting)."""
    by_q: dict[tuple[str, str, bool], list[int]] = {}
    for i, p in enumerate(pairs):  # a ranked candidate set is its own group (its IDF is the set's)
        by_q.setdefault((p.group, p.question, p.ranked), []).append(i)
    texts = list(dict.fromkeys(p.text for p in pairs))
    cache.add([*(dense.passage_text(t) for t in texts), *(p.question for p in pairs)])
    cache.add([dense.passage_text(s) for t in texts for s in dense.segments(t)])
    pv = dense.passage_vectors(texts, cache.get)
    at = {t: i for i, t in enumerate(texts)}
    n_rel = len(SCALAR_FEATURES) + dense.DIM
    x_rel = np.zeros((len(pairs), n_rel))
    x_evi = np.zeros((len(pairs), len(EVIDENCE_COLUMNS)))
    for (group, q, _ranked), idx in by_q.items():
        model = clause_of(group)
        w = JudgeWeights(model, _NULL, _NULL, q_min, "")
        qv = question_view(q, cache.get([q])[0], w)
        ptexts = [pairs[i].text for i in idx]
        views = part_views(ptexts, pv[[at[t] for t in ptexts]], model, cache.get)
        lex = lexical_features(q, ptexts)
        rows = feature_matrix(qv, views, lex, interaction=True)
        x_rel[idx] = rows
        x_evi[idx] = rows[:, EVIDENCE_COLUMNS]
    return Rows(
        x_rel,
        x_evi,
        np.asarray([p.label for p in pairs], dtype=int),
        np.asarray([p.is_relevant for p in pairs], dtype=int),
        [p.group for p in pairs],
        np.asarray([p.sentence for p in pairs], dtype=bool),
        np.asarray([p.fact_removed for p in pairs], dtype=bool),
        np.asarray([p.ranked for p in pairs], dtype=bool),
        np.asarray([p.party for p in pairs], dtype=bool),
    )


_NULL = Logistic(np.zeros(1), 0.0, np.zeros(1), np.ones(1))


# ----------------------------------------------------------------------------- figures
def binary_figures(y: np.ndarray, p: np.ndarray, t: float) -> dict[str, float]:
    """Precision, recall, F1 at threshold ``t``, ROC AUC and expected calibration error."""
    from sklearn.metrics import roc_auc_score

    pred = p >= t
    tp = float(np.sum(pred & (y == 1)))
    prec = tp / max(1.0, float(pred.sum()))
    rec = tp / max(1.0, float((y == 1).sum()))
    f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
    bins = np.clip((p * 10).astype(int), 0, 9)
    ece = sum(
        abs(float(p[bins == b].mean()) - float(y[bins == b].mean())) * np.mean(bins == b)
        for b in set(bins.tolist())
    )
    auc = float(roc_auc_score(y, p)) if len(set(y.tolist())) == 2 else 0.0
    return {
        "n": len(y),
        "precision": prec,
        "recall": rec,
        "f1": f1,
        "auc": auc,
        "ece": float(ece),
        "threshold": t,
    }


def grouped_cv(
    x: np.ndarray, y: np.ndarray, groups: list[str], c: float, folds: int, weight: np.ndarray | None
) -> np.ndarray:
    """Out-of-fold probabilities, folds by group (a question / a contract never in two folds)."""
    from sklearn.model_selection import GroupKFold

    out = np.zeros(len(y))
    for tr, te in GroupKFold(n_splits=min(folds, len(set(groups)))).split(x, y, groups):
        m = fit_logistic(x[tr], y[tr], c, None if weight is None else weight[tr])
        out[te] = m.proba(x[te])
    return out


CLOSE: float = 0.05
"""Relevance and evidence closer than this count as "the same number" on screen (issue 10)."""


def close_share(rel: np.ndarray, evi: np.ndarray) -> float:
    """Share of rows whose relevance and evidence differ by less than ``CLOSE``: near 1 means the
    two labels tell the lawyer nothing apart."""
    return float(np.mean(np.abs(rel - evi) < CLOSE)) if len(rel) else 0.0


def fact_removed_figures(rel: np.ndarray, evi: np.ndarray, t_rel: float, t_evi: float) -> dict[str, float]:
    """On gold windows with the asked fact cut out: kept relevant, not evidence, and the mean gap."""
    n = len(rel)
    return {
        "n": n,
        "relevant": float(np.mean(rel >= t_rel)) if n else 0.0,
        "not_evidence": float(np.mean(evi <= t_evi)) if n else 0.0,
        "mean_gap": float(np.mean(rel - evi)) if n else 0.0,
    }


def best_f1_threshold(y: np.ndarray, p: np.ndarray) -> float:
    return max(THRESHOLD_GRID, key=lambda t: binary_figures(y, p, t)["f1"])


def precision_threshold(y: np.ndarray, p: np.ndarray) -> float:
    ok = [t for t in THRESHOLD_GRID if binary_figures(y, p, t)["precision"] >= EVIDENCE_PRECISION_GOAL]
    return ok[0] if ok else THRESHOLD_GRID[-1]


# ----------------------------------------------------------------------------- the whole fit
def _clause_sets(
    contracts: list[Contract],
    ts: JudgeTrainSettings,
    cache: VectorCache,
    ranked: list[Ranked] | None = None,
    sentences: bool = True,
) -> tuple[np.ndarray, list[str], list[set[str]], list[str]]:
    ex = clause_examples(contracts, ranked, ts if sentences else None)
    texts = [t for t, _, _ in ex]
    vecs = dense.passage_vectors(texts, cache.get)
    return vecs, texts, [lab for _, lab, _ in ex], [n for _, _, n in ex]


def category_aucs(labels: list[set[str]], probs: np.ndarray) -> dict[str, float]:
    """ROC AUC of each category's probability column, for the categories both present and absent."""
    from sklearn.metrics import roc_auc_score

    out: dict[str, float] = {}
    for j, k in enumerate(CATEGORY_NAMES):
        y = np.asarray([k in lab for lab in labels], dtype=int)
        if 0 < y.sum() < len(y):
            out[k] = float(roc_auc_score(y, probs[:, j]))
    return out


@dataclass(frozen=True)
class ClauseSet:
    """The clause classifier's examples: vectors, texts, categories, source (contract or ``zh:<kind>``)
    and sample weight."""

    vecs: np.ndarray
    texts: list[str]
    labels: list[set[str]]
    names: list[str]
    weight: np.ndarray

    def subset(self, keep: list[bool]) -> ClauseSet:
        idx = [i for i, k in enumerate(keep) if k]
        return ClauseSet(
            self.vecs[idx],
            [self.texts[i] for i in idx],
            [self.labels[i] for i in idx],
            [self.names[i] for i in idx],
            self.weight[idx],
        )

    def fit(self, c: float, words: JudgeTrainSettings | None = None) -> ClauseModel:
        return fit_clause(self.vecs, self.texts, self.labels, c, self.weight, words)


def with_chinese(
    cuad: tuple[np.ndarray, list[str], list[set[str]], list[str]], ts: JudgeTrainSettings, cache: VectorCache
) -> ClauseSet:
    """The CUAD examples plus the written Chinese clauses (``clauses_zh``) at ``ts.zh_clause_weight``."""
    vecs, texts, labels, names = cuad
    weight = np.ones(len(texts))
    if ts.zh_clause_weight <= 0:
        return ClauseSet(vecs, texts, labels, names, weight)
    zt = [t for _, _, t in ZH_CLAUSES]
    return ClauseSet(
        np.vstack([vecs, dense.passage_vectors(zt, cache.get)]),
        texts + zt,
        labels + [set(cats) for _, cats, _ in ZH_CLAUSES],
        names + [f"zh:{kind}" for kind, _, _ in ZH_CLAUSES],
        np.concatenate([weight, np.full(len(zt), ts.zh_clause_weight)]),
    )


def zh_kind_cv(cs: ClauseSet, ts: JudgeTrainSettings, folds: int = 4) -> dict[str, float]:
    """How the clause classifier does on Chinese clauses of contract kinds it was not fitted on: the
    kinds dealt into ``folds`` folds, each fold's clauses scored by a classifier fitted on everything
    else. Mean per-category AUC, the share of clauses of no category scoring above 0.5 for some
    category, and the share of typed clauses scoring under 0.5 for their own category."""
    zh = [i for i, n in enumerate(cs.names) if n.startswith("zh:")]
    if not zh:
        return {}
    kinds = sorted({cs.names[i] for i in zh})
    fold = {k: j % folds for j, k in enumerate(kinds)}
    probs = np.zeros((len(cs.names), len(CATEGORY_NAMES)))
    for f in range(folds):
        test = [i for i in zh if fold[cs.names[i]] == f]
        held = set(test)
        model = cs.subset([i not in held for i in range(len(cs.names))]).fit(ts.c_clause)
        probs[test] = model.proba(cs.vecs[test], [cs.texts[i] for i in test])
    labels = [cs.labels[i] for i in zh]
    p = probs[zh]
    aucs = category_aucs(labels, p)
    none = [float(p[i].max()) for i, lab in enumerate(labels) if not lab]
    own = [max(float(p[i][CATEGORY_NAMES.index(k)]) for k in lab) for i, lab in enumerate(labels) if lab]
    return {
        "clauses": len(zh),
        "auc_mean": float(np.mean(list(aucs.values()))),
        "untyped_above_0.5": float(np.mean(np.asarray(none) > 0.5)) if none else 0.0,
        "typed_own_below_0.5": float(np.mean(np.asarray(own) < 0.5)) if own else 0.0,
    }


@dataclass
class FitInputs:
    """Everything the relevance and evidence fits are made from (features already computed)."""

    fit_c: list[Contract]
    check_c: list[Contract]
    clause: ClauseModel
    half_models: list[ClauseModel]  # [h]: fitted on the fit contracts *not* in half h
    halves: dict[str, int]  # fit contract → its half (0/1)
    rel_rows: Rows  # PrivacyQA
    ev_rows: Rows  # CUAD (phrasing 0)
    cache: VectorCache
    clause_set: ClauseSet


def fit_inputs(
    train_dir: Path, ts: JudgeTrainSettings, log: Log, cache: VectorCache, sample: tuple[int, int] | None
) -> FitInputs:
    """Contracts, the clause classifier (full and cross-fitted halves) and the feature rows."""
    t0 = time.perf_counter()
    contracts = load_contracts(train_dir, ts)
    fit_c = [c for c in contracts if not is_check(c.name, ts)][: sample[0] if sample else None]
    check_c = [c for c in contracts if is_check(c.name, ts)][: sample[0] if sample else None]
    log(f"{len(fit_c)} fit contracts, {len(check_c)} check contracts")
    ranked = rank_contracts(fit_c, ts, 0, cache.get)
    log(f"ranked {len(ranked)} questions' candidates, {time.perf_counter() - t0:.0f} s")
    cs = with_chinese(_clause_sets(fit_c, ts, cache, ranked if ts.ranked_clause else None), ts, cache)
    halves = {c.name: i % 2 for i, c in enumerate(fit_c)}
    # the CUAD-only classifier, with the one fitted on CUAD and the Chinese clauses for Chinese text
    en = cs.subset([not n.startswith("zh:") for n in cs.names])
    clause = en.fit(ts.c_clause, ts)
    if len(en.names) < len(cs.names):
        clause = replace(clause, chinese=cs.fit(ts.c_clause))
    # the evidence rows (English passages) are scored by classifiers fitted without their half
    half_models = [en.subset([halves[n] != h for n in en.names]).fit(ts.c_clause, ts) for h in (0, 1)]
    log(f"clause classifiers: {len(cs.labels)} examples, {time.perf_counter() - t0:.0f} s")

    def cross(group: str) -> ClauseModel:
        name = group.split(":", 1)[1]
        return half_models[halves[name]] if group.startswith("cuad:") and name in halves else clause

    pqa = load_privacyqa(train_dir)[: sample[1] if sample else None]
    ev = evidence_pairs(fit_c, ts, phrasing=0)
    ev += ranked_pairs(ranked, ts)
    ev += party_pairs(fit_c, ts, phrasing=0)
    rel_rows = pair_rows(pqa, cache, cross, ts.question_type_min)
    ev_rows = pair_rows(ev, cache, cross, ts.question_type_min)
    log(f"features: {len(pqa)} PrivacyQA pairs, {len(ev)} CUAD pairs, {time.perf_counter() - t0:.0f} s")
    return FitInputs(fit_c, check_c, clause, half_models, halves, rel_rows, ev_rows, cache, cs)


@dataclass
class FitSets:
    """The relevance and evidence training matrices with labels, groups and sample weights."""

    x_rel: np.ndarray
    y_rel: np.ndarray
    g_rel: list[str]
    w_rel: np.ndarray
    x_evi: np.ndarray
    y_evi: np.ndarray
    g_evi: list[str]
    w_evi: np.ndarray
    rel_cuad: np.ndarray  # which CUAD rows are in the relevance set
    evi_cuad: np.ndarray  # which CUAD rows are in the evidence set (first, in order)


def fit_sets(
    rel_rows: Rows, ev_rows: Rows, ts: JudgeTrainSettings, cuad: np.ndarray | None = None
) -> FitSets:
    """Relevance: PrivacyQA, the CUAD windows and the fact-removed copies (relevant: the asked
    clause). Evidence: the CUAD windows, sentences and fact-removed copies, and PrivacyQA — whose
    relevant clauses answer their question, teaching questions that name no clause type ("what
    data is shared?", "押金是多少？"). The party questions' windows are in neither: their evidence is the
    party model's (``fit_party``), and fitted beside the others they moved the scores of questions that
    ask no party. ``cuad``: the CUAD rows to use (a fold); all by default."""
    use = (np.ones(len(ev_rows.y), dtype=bool) if cuad is None else cuad) & ~ev_rows.party
    rel_cuad = ~ev_rows.sentence & ~ev_rows.ranked & use
    n_pqa = len(rel_rows.y)
    w_cuad = np.where(ev_rows.ranked[use], ts.ranked_weight, 1.0)
    return FitSets(
        np.vstack([rel_rows.x_rel, ev_rows.x_rel[rel_cuad]]),
        np.concatenate([rel_rows.y_rel, ev_rows.y_rel[rel_cuad]]),
        rel_rows.groups + [g for g, keep in zip(ev_rows.groups, rel_cuad, strict=True) if keep],
        np.concatenate([np.ones(n_pqa), np.full(int(rel_cuad.sum()), ts.relevance_cuad_weight)]),
        np.vstack([ev_rows.x_evi[use], rel_rows.x_evi]),
        np.concatenate([ev_rows.y[use], rel_rows.y]),
        [g for g, keep in zip(ev_rows.groups, use, strict=True) if keep] + rel_rows.groups,
        np.concatenate([w_cuad, np.full(n_pqa, ts.evidence_privacyqa_weight)]),
        rel_cuad,
        use,
    )


def fit_models(fs: FitSets, ts: JudgeTrainSettings) -> tuple[Logistic, Logistic]:
    """The relevance and the evidence logistic."""
    relevance = fit_logistic(fs.x_rel, fs.y_rel, ts.c_relevance, fs.w_rel)
    return relevance, fit_logistic(fs.x_evi, fs.y_evi, ts.c_evidence, fs.w_evi)


def fit_party(ev_rows: Rows, ts: JudgeTrainSettings) -> Logistic | None:
    """The evidence logistic of questions asking who the parties are, fitted on their rows only
    (``fitted.evidence_model``); ``None`` without such rows."""
    if not ev_rows.party.any():
        return None
    return fit_logistic(ev_rows.x_evi[ev_rows.party], ev_rows.y[ev_rows.party], ts.c_evidence)


def party_top1(rows: Rows, evi: np.ndarray, groups: list[str]) -> float:
    """Share of the party questions whose highest-evidence window names a party: what a quoted
    answer to "Who are the parties?" rests on."""
    best: dict[str, tuple[float, int]] = {}
    for i in np.flatnonzero(rows.party):
        if groups[i] not in best or evi[i] > best[groups[i]][0]:
            best[groups[i]] = (float(evi[i]), int(rows.y[i]))
    return round(float(np.mean([y for _, y in best.values()])), 3) if best else 0.0


def fit_all(
    train_dir: Path,
    ts: JudgeTrainSettings,
    log: Log,
    cache: VectorCache | None = None,
    sample: tuple[int, int] | None = None,
) -> dict[str, Any]:
    """Fit the three models and measure them; returns the JSON the run time loads.

    ``sample`` = (contracts, PrivacyQA pairs) fits on the first few of each only: the quick,
    deterministic refit the test suite runs twice and compares.
    """
    t0 = time.perf_counter()
    inp = fit_inputs(train_dir, ts, log, cache or VectorCache(), sample)
    cache = inp.cache
    rel_rows, ev_rows, check_c = inp.rel_rows, inp.ev_rows, inp.check_c
    fs = fit_sets(rel_rows, ev_rows, ts)
    relevance, evidence = fit_models(fs, ts)
    party = fit_party(ev_rows, ts)
    clause = inp.clause

    cv_rel_all = grouped_cv(fs.x_rel, fs.y_rel, fs.g_rel, ts.c_relevance, ts.cv_folds, fs.w_rel)
    cv_rel = cv_rel_all[: len(rel_rows.y)]
    t_rel = best_f1_threshold(rel_rows.y, cv_rel)
    cv_evi = np.zeros(len(ev_rows.y))  # the party rows are the party model's (below)
    cv_evi[fs.evi_cuad] = grouped_cv(fs.x_evi, fs.y_evi, fs.g_evi, ts.c_evidence, ts.cv_folds, fs.w_evi)[
        : int(fs.evi_cuad.sum())
    ]
    win = ev_rows.windows
    t_evi = precision_threshold(ev_rows.y[win], cv_evi[win])
    cv_rel_cuad = np.zeros(len(ev_rows.y))
    cv_rel_cuad[fs.rel_cuad] = cv_rel_all[len(rel_rows.y) :]
    figures: dict[str, Any] = {
        "privacyqa_cv_relevance": binary_figures(rel_rows.y, cv_rel, t_rel),
        "privacyqa_cv_relevance_at_0.5": binary_figures(rel_rows.y, cv_rel, 0.5),
        "cuad_fit_cv_evidence_windows": binary_figures(ev_rows.y[win], cv_evi[win], t_evi),
        "cuad_fit_cv_evidence_ranked": binary_figures(
            ev_rows.y[ev_rows.ranked], cv_evi[ev_rows.ranked], t_evi
        ),
        "cuad_fit_cv_evidence_sentences": binary_figures(
            ev_rows.y[ev_rows.sentence], cv_evi[ev_rows.sentence], t_evi
        ),
        "cuad_fit_cv_fact_removed": fact_removed_figures(
            cv_rel_cuad[ev_rows.fact_removed], cv_evi[ev_rows.fact_removed], t_rel, t_evi
        ),
        "cuad_fit_cv_close_share": close_share(cv_rel_cuad[win], cv_evi[win]),
    }
    if party is not None:
        pr = ev_rows.party
        groups = [g for g, p in zip(ev_rows.groups, pr, strict=True) if p]
        cv_party = grouped_cv(ev_rows.x_evi[pr], ev_rows.y[pr], groups, ts.c_evidence, ts.cv_folds, None)
        figures["cuad_fit_cv_party"] = binary_figures(ev_rows.y[pr], cv_party, t_evi)
    data: dict[str, Any] = {
        "schema": 1,
        "train_hash": train_hash(train_dir, ts),
        "settings": json.loads(ts.model_dump_json()),
        "recommended": {"t_relevance": t_rel, "t_evidence": t_evi},
        "clause": clause_json(clause),
        "relevance": logistic_json(relevance, [*SCALAR_FEATURES, *(f"qp{i}" for i in range(dense.DIM))]),
        "evidence": logistic_json(evidence, [SCALAR_FEATURES[i] for i in EVIDENCE_COLUMNS]),
    }
    if party is not None:
        data["party_evidence"] = logistic_json(party, [SCALAR_FEATURES[i] for i in EVIDENCE_COLUMNS])
    if clause.chinese is not None:
        data["clause_zh"] = clause_json(clause.chinese)
    figures.update(check_figures(check_c, ts, cache, weights_from_json(data), t_rel, t_evi))
    figures["zh_clause_kind_cv"] = zh_kind_cv(inp.clause_set, ts)
    if ts.zh_head:
        limit = SAMPLE_HEAD_KINDS if sample else None
        data["zh_head"], figures["zh_head_cv"] = fit_zh_head(weights_from_json(data), ts, log, limit)
    figures["seconds"] = round(time.perf_counter() - t0, 1)
    data["figures"] = figures
    log(f"done in {figures['seconds']} s")
    return data


def fit_zh_head(
    w: JudgeWeights, ts: JudgeTrainSettings, log: Log, kinds_limit: int | None = None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The Chinese head's weights (stacked on ``w``, the shared models just fitted) and its
    leave-one-kind-out figures beside the shared models' at the run-time default thresholds."""
    hp = head_pairs(w, ts, kinds_limit)
    log(f"chinese head: {len(hp.own)} pairs")
    head = fit_head(hp, ts)
    cv_rel, cv_evi = kind_cv(hp, ts)
    v = VerdictSettings()
    weights = {
        "relevance": logistic_json(head.relevance, list(HEAD_FEATURES)),
        "answers": logistic_json(head.answers, list(HEAD_FEATURES)),
    }
    figures = {
        "head": head_figures(hp, cv_rel, cv_evi, v.t_relevance, v.t_evidence),
        "shared": head_figures(hp, hp.shared_rel, hp.shared_evi, v.t_relevance, v.t_evidence),
    }
    return weights, figures


def check_figures(
    check_c: list[Contract],
    ts: JudgeTrainSettings,
    cache: VectorCache,
    w: JudgeWeights,
    t_rel: float,
    t_evi: float,
) -> dict[str, Any]:
    """The fitted models on the held-out check contracts, asked with phrasing 1."""
    pairs = evidence_pairs(check_c, ts, phrasing=1) + party_pairs(check_c, ts, phrasing=1)
    rows = pair_rows(pairs, cache, lambda _g: w.clause, w.question_type_min)
    win = rows.windows
    evi = w.evidence.proba(rows.x_evi)
    if w.party is not None:
        evi[rows.party] = w.party.proba(rows.x_evi[rows.party])
    rel = w.relevance.proba(rows.x_rel)
    vecs, texts, labels, _ = _clause_sets(check_c, ts, cache, sentences=False)  # windows, as before
    aucs = category_aucs(labels, w.clause.proba(vecs, texts))
    return {
        "check_evidence_windows": binary_figures(rows.y[win], evi[win], t_evi),
        "check_evidence_sentences": binary_figures(rows.y[rows.sentence], evi[rows.sentence], t_evi),
        "check_fact_removed": fact_removed_figures(
            rel[rows.fact_removed], evi[rows.fact_removed], t_rel, t_evi
        ),
        "check_close_share": close_share(rel[win], evi[win]),
        "check_party": binary_figures(rows.y[rows.party], evi[rows.party], t_evi),
        "check_party_top1": party_top1(rows, evi, [p.group for p in pairs]),
        "check_relevance_windows": binary_figures(rows.y[win], rel[win], t_rel),
        "check_clause_auc_mean": float(np.mean(list(aucs.values()))) if aucs else 0.0,
        "check_clause_auc": aucs,
    }
