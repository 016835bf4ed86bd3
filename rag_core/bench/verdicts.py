"""Verdict bench: how well a judge detects injections, premise conflicts and relevance on the public
data in ``shared/data``, and how fast it is.

Why like this: every figure is computed here from the files exactly as on disk, so a change to
the rules shows up as a change in the numbers. Each metric is also reported on two halves
(``even``/``odd``) so that rules tuned on one half can be checked on the other; for the injection
files the halves alternate *within each label* (the BIPIA file alternates attack/clean line by
line, so plain line parity would put all attacks in one half).

How each file is judged:

- injection files: every text is a passage; the question is the neutral ``INJECTION_QUESTION``;
  a passage counts as flagged when its label is INJECTION. Clean-clause false-positive rate is
  reported for the BIPIA label-0 clauses.
- RGB fact files: the question passed to the judge is the *premise* ``f"{query} {answer}"``
  (the true answer; the first variant when the answer is a list of variants), so a passage that
  states the fake answer contradicts it. ``positive_wrong`` passages must come out CONFLICTING,
  ``positive`` ones must not. All passages of one row go in one call, as retrieval would hand them.
- PrivacyQA: the contexts of one question are judged in one call (the candidate set the IDF is
  taken over); a passage counts as relevant when its ``is_relevant`` score is at least
  ``t_relevance`` (the same boundary ``classify`` uses).
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from rag_core.evaluation.stats import PERCENTILE_95, percentile
from rag_core.judge.base import Judge, PassageInput, request_chars
from rag_core.judge.classify import EVIDENCE, RELEVANCE
from rag_core.judge.training import CLOSE, close_share
from rag_core.models import Verdict
from rag_core.settings import VerdictSettings

INJECTION_FILES: tuple[str, ...] = ("bipia_in_contracts_train", "deepset_train")
CONFLICT_FILES: tuple[str, ...] = ("rgb_en_fact", "rgb_zh_fact")
RELEVANCE_FILE: str = "privacyqa_relevance"
CLEAN_CLAUSE_FILE: str = "bipia_in_contracts_train"

INJECTION_QUESTION: str = "What does this passage provide?"
"""Question used when judging injection texts: neutral, so only the passage decides."""

LATENCY_BATCH: int = 20
"""Passages in the timed single call ("time to judge 20 passages")."""


@dataclass(frozen=True)
class Item:
    """One judged item: its line in the file, gold label, prediction."""

    line: int
    gold: bool
    pred: bool


def read_jsonl(path: Path, limit: int | None = None) -> list[dict[str, Any]]:
    """The rows of a JSONL file as on disk (optionally only the first ``limit``)."""
    rows: list[dict[str, Any]] = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                rows.append(json.loads(line))
            if limit is not None and len(rows) >= limit:
                break
    return rows


def first_answer(answer: Any) -> str:
    """The answer as text: the first variant when the data gives a (nested) list of variants."""
    while isinstance(answer, list):
        if not answer:
            return ""
        answer = answer[0]
    return str(answer)


class _Timer:
    """Collects per-passage latency of every judge call made by the bench."""

    def __init__(self) -> None:
        self.per_passage_s: list[float] = []

    def judge(self, judge: Judge, question: str, passages: list[PassageInput]) -> list[Verdict]:
        start = time.perf_counter()
        out = judge.judge(question, passages)
        elapsed = time.perf_counter() - start
        self.per_passage_s.extend([elapsed / len(passages)] * len(passages))
        return out


def batches(question: str, passages: list[PassageInput], s: VerdictSettings) -> Iterator[list[PassageInput]]:
    """Consecutive batches within ``max_candidates`` and ``max_input_chars`` (the judge refuses more)."""
    batch: list[PassageInput] = []
    for p in passages:
        trial = [*batch, p]
        if batch and (len(trial) > s.max_candidates or request_chars(question, trial) > s.max_input_chars):
            yield batch
            batch = [p]
        else:
            batch = trial
    if batch:
        yield batch


def judge_all(
    judge: Judge, timer: _Timer, question: str, passages: list[PassageInput], s: VerdictSettings
) -> list[Verdict]:
    """Verdicts for all passages of one question, in as few calls as the limits allow."""
    out: list[Verdict] = []
    for batch in batches(question, passages, s):
        out.extend(timer.judge(judge, question, batch))
    return out


def binary_metrics(items: list[Item]) -> dict[str, float | int]:
    """Precision, recall, F1, accuracy and counts of a set of binary predictions."""
    tp = sum(i.gold and i.pred for i in items)
    fp = sum(not i.gold and i.pred for i in items)
    fn = sum(i.gold and not i.pred for i in items)
    tn = sum(not i.gold and not i.pred for i in items)
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    n = len(items)
    return {
        "n": n,
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "tn": tn,
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "accuracy": (tp + tn) / n if n else 0.0,
    }


def split_halves(items: list[Item], stratified: bool) -> tuple[list[Item], list[Item]]:
    """Even and odd halves: by line parity, or alternating within each gold label."""
    if not stratified:
        return [i for i in items if i.line % 2 == 0], [i for i in items if i.line % 2 == 1]
    even: list[Item] = []
    odd: list[Item] = []
    seen = {True: 0, False: 0}
    for i in sorted(items, key=lambda x: x.line):
        (even if seen[i.gold] % 2 == 0 else odd).append(i)
        seen[i.gold] += 1
    return even, odd


def with_halves(items: list[Item], stratified: bool = False) -> dict[str, Any]:
    """Metrics on all items and on both halves."""
    even, odd = split_halves(items, stratified)
    return {"all": binary_metrics(items), "even": binary_metrics(even), "odd": binary_metrics(odd)}


def injection_bench(
    path: Path, judge: Judge, timer: _Timer, s: VerdictSettings, limit: int | None
) -> dict[str, Any]:
    """Injection precision/recall/F1 of one file, and the false-positive rate on its clean texts."""
    rows = read_jsonl(path, limit)
    passages = [PassageInput(str(i), str(r["text"])) for i, r in enumerate(rows)]
    verdicts = judge_all(judge, timer, INJECTION_QUESTION, passages, s)
    items = [
        Item(i, int(r["label"]) == 1, v.label == "INJECTION")
        for i, (r, v) in enumerate(zip(rows, verdicts, strict=True))
    ]
    out = with_halves(items, stratified=True)
    clean = [i for i in items if not i.gold]
    out["clean_fpr"] = sum(i.pred for i in clean) / len(clean) if clean else 0.0
    out["clean_n"] = len(clean)
    return out


def conflict_bench(
    path: Path, judge: Judge, timer: _Timer, s: VerdictSettings, limit: int | None
) -> list[Item]:
    """Items of one RGB file: gold True for ``positive_wrong`` passages, prediction = CONFLICTING."""
    items: list[Item] = []
    for line, row in enumerate(read_jsonl(path, limit)):
        premise = f"{row['query']} {first_answer(row['answer'])}".strip()
        wrong = [str(t) for t in row.get("positive_wrong", [])]
        right = [str(t) for t in row.get("positive", [])]
        passages = [PassageInput(f"{line}:w{k}", t) for k, t in enumerate(wrong)]
        passages += [PassageInput(f"{line}:p{k}", t) for k, t in enumerate(right)]
        if not passages:
            continue
        verdicts = judge_all(judge, timer, premise, passages, s)
        for k, v in enumerate(verdicts):
            items.append(Item(line, k < len(wrong), v.label == "CONFLICTING"))
    return items


def conflict_summary(items: list[Item]) -> dict[str, Any]:
    """Accuracy of conflict items, with how many wrong passages were caught and right ones flagged."""

    def acc(sub: list[Item]) -> dict[str, float | int]:
        wrong = [i for i in sub if i.gold]
        right = [i for i in sub if not i.gold]
        return {
            "n": len(sub),
            "accuracy": sum(i.gold == i.pred for i in sub) / len(sub) if sub else 0.0,
            "wrong_caught": sum(i.pred for i in wrong) / len(wrong) if wrong else 0.0,
            "right_flagged": sum(i.pred for i in right) / len(right) if right else 0.0,
        }

    even, odd = split_halves(items, stratified=False)
    return {"all": acc(items), "even": acc(even), "odd": acc(odd)}


def relevance_bench(
    path: Path, judge: Judge, timer: _Timer, s: VerdictSettings, limit: int | None
) -> dict[str, Any]:
    """Relevance precision/recall/F1: contexts grouped per question, relevant = score ≥ t_relevance."""
    rows = read_jsonl(path, limit)
    groups: dict[str, list[int]] = {}
    for i, r in enumerate(rows):
        groups.setdefault(str(r["question"]).strip(), []).append(i)
    preds: dict[int, bool] = {}
    scores: dict[int, float] = {}
    pairs: list[tuple[float, float]] = []
    for question, idx in groups.items():
        passages = [PassageInput(str(i), str(rows[i]["context"])) for i in idx]
        for i, v in zip(idx, judge_all(judge, timer, question, passages, s), strict=True):
            preds[i] = v.scores[RELEVANCE] >= s.t_relevance
            scores[i] = v.scores[RELEVANCE]
            pairs.append((v.scores[RELEVANCE], v.scores[EVIDENCE]))
    items = [Item(i, str(r["answer"]).strip().lower() == "true", preds[i]) for i, r in enumerate(rows)]
    out = with_halves(items)
    out["auc"] = rank_auc([i.gold for i in items], [scores[i.line] for i in items])
    rel_evi = np.asarray(pairs).reshape(-1, 2)
    out["close_share"] = close_share(rel_evi[:, 0], rel_evi[:, 1])
    return out


def rank_auc(gold: list[bool], score: list[float]) -> float:
    """ROC AUC by ranks (ties count half): threshold-free, so it shows the score's quality apart
    from where ``t_relevance`` sits."""
    pos = [s for g, s in zip(gold, score, strict=True) if g]
    neg = [s for g, s in zip(gold, score, strict=True) if not g]
    if not pos or not neg:
        return 0.0
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


def fitted_judge_block() -> dict[str, Any]:
    """What the committed fitted weights report about themselves: training hash, thresholds
    recommended by cross-validation on ``train/``, and the fit and check-part figures."""
    from rag_core.judge.fitted import WEIGHTS_PATH

    data = json.loads(WEIGHTS_PATH.read_text(encoding="utf-8"))
    return {"train_hash": data["train_hash"], "recommended": data["recommended"], "figures": data["figures"]}


def latency_of_batch(judge: Judge, path: Path, s: VerdictSettings) -> dict[str, float | int]:
    """Seconds (wall and CPU) to judge ``LATENCY_BATCH`` passages in one call.

    Two calls on two different batches: the first (``cold``) pays one-off costs (array buffers of the
    sentence encoder, regex and tokenizer caches); the second, on passages never seen before, is what
    every later question costs. Both are reported."""
    rows = read_jsonl(path, 2 * LATENCY_BATCH)
    passages = [PassageInput(str(i), str(r["text"])) for i, r in enumerate(rows)]
    cold = next(batches(INJECTION_QUESTION, passages[LATENCY_BATCH:], s), [])
    batch = next(batches(INJECTION_QUESTION, passages[:LATENCY_BATCH], s), [])
    if not batch:
        return {"passages": 0, "seconds": 0.0, "cpu_seconds": 0.0, "seconds_cold": 0.0}
    start = time.perf_counter()
    judge.judge(INJECTION_QUESTION, cold or batch[:1])
    seconds_cold = time.perf_counter() - start
    start, cpu = time.perf_counter(), time.process_time()
    judge.judge(INJECTION_QUESTION, batch)
    return {
        "passages": len(batch),
        "seconds": time.perf_counter() - start,
        "cpu_seconds": time.process_time() - cpu,
        "seconds_cold": seconds_cold,
    }


def run_verdict_bench(
    data_dir: Path,
    judge: Judge,
    settings: VerdictSettings,
    limit: int | None = None,
    lofo: bool = False,
    families: Sequence[str] | None = None,
) -> dict[str, Any]:
    """All verdict figures for ``judge`` on the public data under ``data_dir`` (``limit``: first N lines per file)."""
    timer = _Timer()
    result: dict[str, Any] = {
        "judge": judge.name,
        "thresholds": {
            "t_injection": settings.t_injection,
            "t_conflict": settings.t_conflict,
            "t_relevance": settings.t_relevance,
            "t_evidence": settings.t_evidence,
        },
        "limit": limit,
    }
    inj_dir = data_dir / "injection"
    ver_dir = data_dir / "verdicts"
    result["latency_batch"] = latency_of_batch(judge, inj_dir / f"{CLEAN_CLAUSE_FILE}.jsonl", settings)
    result["injection"] = {
        name: injection_bench(inj_dir / f"{name}.jsonl", judge, timer, settings, limit)
        for name in INJECTION_FILES
    }
    result["clean_clause_fpr"] = result["injection"][CLEAN_CLAUSE_FILE]["clean_fpr"]
    conflict_items = {
        name: conflict_bench(ver_dir / f"{name}.jsonl", judge, timer, settings, limit)
        for name in CONFLICT_FILES
    }
    conflict: dict[str, Any] = {name: conflict_summary(items) for name, items in conflict_items.items()}
    conflict["combined"] = conflict_summary([i for items in conflict_items.values() for i in items])
    result["conflict"] = conflict
    result["relevance"] = {
        RELEVANCE_FILE: relevance_bench(ver_dir / f"{RELEVANCE_FILE}.jsonl", judge, timer, settings, limit)
    }
    if lofo:
        from rag_core.judge.injection_validate import injection_validation

        result["injection_validation"] = injection_validation(
            data_dir, settings.t_injection, settings.t_injection_sentence, families=families
        )
    if limit is None:
        from rag_core.judge.injection_sealed import sealed_sets

        result |= sealed_sets(
            data_dir / "train" / "cuad" / "contracts", settings.t_injection, settings.t_injection_sentence
        )
    if judge.name == "local":
        result["fitted_judge"] = fitted_judge_block()
    lat = sorted(timer.per_passage_s)
    result["latency"] = {
        "passages": len(lat),
        "median_ms_per_passage": statistics.median(lat) * 1000 if lat else 0.0,
        "p95_ms_per_passage": percentile(lat, PERCENTILE_95) * 1000,
        "batch_passages": result["latency_batch"]["passages"],
        "batch_seconds": result["latency_batch"]["seconds"],
        "batch_cpu_seconds": result["latency_batch"]["cpu_seconds"],
        "batch_seconds_cold": result["latency_batch"]["seconds_cold"],
    }
    return result


def _row(cells: list[str], widths: list[int]) -> str:
    return "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()


def format_table(result: dict[str, Any]) -> str:
    """The bench result as a human-readable table (all / even / odd halves side by side)."""
    header = ["metric", "all", "even", "odd", "n"]
    rows: list[list[str]] = []

    def three(name: str, block: dict[str, Any], key: str) -> None:
        rows.append([name, *(f"{block[h][key]:.3f}" for h in ("all", "even", "odd")), str(block["all"]["n"])])

    for name, block in result["injection"].items():
        three(f"injection F1 {name}", block, "f1")
        three(f"injection precision {name}", block, "precision")
        three(f"injection recall {name}", block, "recall")
    rows.append(["clean-clause false-positive rate", f"{result['clean_clause_fpr']:.3f}", "", "", ""])
    for name, block in result["conflict"].items():
        three(f"conflict accuracy {name}", block, "accuracy")
        three(f"  wrong passages caught {name}", block, "wrong_caught")
        three(f"  right passages flagged {name}", block, "right_flagged")
    for name, block in result["relevance"].items():
        three(f"relevance F1 {name}", block, "f1")
        three(f"relevance precision {name}", block, "precision")
        three(f"relevance recall {name}", block, "recall")
        rows.append([f"relevance AUC {name}", f"{block['auc']:.3f}", "", "", ""])
        rows.append([f"|relevance - evidence| < {CLOSE} {name}", f"{block['close_share']:.3f}", "", "", ""])
    lat = result["latency"]
    rows.append(
        ["latency median ms/passage", f"{lat['median_ms_per_passage']:.2f}", "", "", str(lat["passages"])]
    )
    rows.append(["latency p95 ms/passage", f"{lat['p95_ms_per_passage']:.2f}", "", "", ""])
    n_batch = lat["batch_passages"]
    rows.append([f"seconds for {n_batch} passages in one call", f"{lat['batch_seconds']:.3f}", "", "", ""])
    rows.append(
        [f"CPU seconds for {n_batch} passages in one call", f"{lat['batch_cpu_seconds']:.3f}", "", "", ""]
    )
    rows.append(
        [
            f"seconds for the first {n_batch}-passage call (cold)",
            f"{lat['batch_seconds_cold']:.3f}",
            "",
            "",
            "",
        ]
    )
    fj = result.get("fitted_judge")
    if fj:
        f = fj["figures"]
        cv = f["privacyqa_cv_relevance"]
        rows.append(["fitted: PrivacyQA train CV relevance F1", f"{cv['f1']:.3f}", "", "", str(cv["n"])])
        ev = f["check_evidence_windows"]
        rows.append(
            ["fitted: held-out CUAD evidence precision", f"{ev['precision']:.3f}", "", "", str(ev["n"])]
        )
        rows.append(["fitted: held-out CUAD evidence recall", f"{ev['recall']:.3f}", "", "", ""])
        rows.append(
            ["fitted: held-out clause-type AUC (mean)", f"{f['check_clause_auc_mean']:.3f}", "", "", ""]
        )
        if "check_close_share" in f:
            rows.append(
                [f"fitted: held-out CUAD |rel - evi| < {CLOSE}", f"{f['check_close_share']:.3f}", "", "", ""]
            )
        fr = f.get("check_fact_removed")
        if fr:
            rows.append(
                [
                    "fitted: fact-removed gold windows kept relevant",
                    f"{fr['relevant']:.3f}",
                    "",
                    "",
                    str(fr["n"]),
                ]
            )
            rows.append(
                ["fitted: fact-removed gold windows not evidence", f"{fr['not_evidence']:.3f}", "", "", ""]
            )
            rows.append(
                ["fitted: fact-removed mean relevance - evidence", f"{fr['mean_gap']:.3f}", "", "", ""]
            )
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = [
        f"verdict bench — judge: {result['judge']}",
        _row(header, widths),
        _row(["-" * w for w in widths], widths),
    ]
    lines += [_row(r, widths) for r in rows]
    if "injection_validation" in result:
        from rag_core.judge.injection_validate import format_validation

        lines += format_validation(result["injection_validation"])
    from rag_core.judge.injection_sealed import format_sealed_sets

    lines += format_sealed_sets(result)
    return "\n".join(lines)
