"""Reading and comparing stored evaluation runs: metric order, per-case values, why a metric
could not be judged, two runs side by side, and the settings that differ between them.

Why apart from the page: the comparison is arithmetic over stored JSON; the page only draws it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from rag_core.evaluation.runner import compare_runs
from storage.rows import StoredRun

METRICS: tuple[str, ...] = (
    "faithfulness",
    "answer_relevancy",
    "context_recall",
    "context_precision",
    "answer_correctness",
    "context_recall_spans",
    "context_precision_spans",
)
"""Display order of the metrics (all in [0, 1], higher is better); unknown names follow."""

LLM_METRICS = frozenset(METRICS[:5])
SPAN_METRICS = frozenset(METRICS[5:])
DELTA_EPSILON = 5e-4  # a difference that rounds to 0.000 is "unchanged"


def metric_order(names: Sequence[str]) -> list[str]:
    known = [m for m in METRICS if m in names]
    return known + sorted(n for n in names if n not in METRICS)


def metric_values(rows: Sequence[Mapping[str, Any]], metric: str) -> list[float | None]:
    out: list[float | None] = []
    for r in rows:
        m = (r.get("metrics") or {}).get(metric) or {}
        v = m.get("value")
        out.append(float(v) if isinstance(v, int | float) else None)
    return out


def run_metrics(run: StoredRun) -> list[str]:
    names = set(run.summary.get("metrics") or {})
    for r in run.rows:
        names |= set(r.get("metrics") or {})
    return metric_order(sorted(names))


def unjudged_reasons(rows: Sequence[Mapping[str, Any]], metric: str) -> dict[str, int]:
    """Why a metric could not be judged, with how many cases each reason hit."""
    counts: dict[str, int] = {}
    for r in rows:
        m = (r.get("metrics") or {}).get(metric) or {}
        if m.get("value") is None and m.get("error"):
            counts[str(m["error"])[:160]] = counts.get(str(m["error"])[:160], 0) + 1
    return counts


# ---------------------------------------------------------------- comparing runs


def compare(a: StoredRun, b: StoredRun) -> list[dict[str, Any]]:
    """Per metric (display order): mean of a, of b, and b − a, plus judged counts."""
    rows = {r["metric"]: r for r in compare_runs(a.to_json(), b.to_json())}
    ma = a.summary.get("metrics") or {}
    mb = b.summary.get("metrics") or {}
    out = []
    for name in metric_order(list(rows)):
        r = dict(rows[name])
        r["n_a"] = (ma.get(name) or {}).get("n")
        r["n_b"] = (mb.get(name) or {}).get("n")
        out.append(r)
    return out


def trend(delta: float | None, higher_is_better: bool = True) -> int:
    """+1 better, −1 worse, 0 unchanged or not comparable."""
    if delta is None or abs(delta) < DELTA_EPSILON:
        return 0
    return 1 if (delta > 0) == higher_is_better else -1


def flatten(data: Any, prefix: str = "") -> dict[str, Any]:
    """Nested dicts as dotted paths (``verdict.t_evidence``); lists are values."""
    if not isinstance(data, Mapping):
        return {prefix: data} if prefix else {}
    out: dict[str, Any] = {}
    for key, value in data.items():
        path = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, Mapping) and value:
            out.update(flatten(value, path))
        else:
            out[path] = value
    return out


_MISSING = object()


def settings_diff(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[tuple[str, Any, Any]]:
    """Every setting whose value differs between two snapshots: (path, a, b); absent is None."""
    fa, fb = flatten(a), flatten(b)
    out = []
    for path in sorted(set(fa) | set(fb)):
        va, vb = fa.get(path, _MISSING), fb.get(path, _MISSING)
        if va != vb:
            out.append((path, None if va is _MISSING else va, None if vb is _MISSING else vb))
    return out


def question_deltas(a: StoredRun, b: StoredRun, metrics: Sequence[str]) -> list[dict[str, Any]]:
    """Per question present in both runs (matched by case id): each metric's b − a."""
    rows_a = {str(r.get("case_id")): r for r in a.rows}
    out = []
    for rb in b.rows:
        ra = rows_a.get(str(rb.get("case_id")))
        if ra is None:
            continue
        row: dict[str, Any] = {"question": str(rb.get("question", ""))}
        for m in metrics:
            va = metric_values([ra], m)[0]
            vb = metric_values([rb], m)[0]
            row[m] = (vb - va) if va is not None and vb is not None else None
        out.append(row)
    return out


def display(value: Any) -> str:
    """A setting value as short text for the diff table."""
    if value is None:
        return "—"
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)
