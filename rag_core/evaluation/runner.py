"""Run a test set through the real ask pipeline and score every answer (seed 004: measure first).

Why through the pipeline: the lawyer wants to know whether a threshold change made *their*
answers better, so each case goes through retrieval, verdicts, generation and reflection exactly
as in the chat, and the run stores the settings snapshot it ran under.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rag_core.errors import LexgateError
from rag_core.evaluation.metrics import (
    MetricResult,
    aggregate,
    context_precision_spans,
    context_recall_spans,
    evaluate_case,
)
from rag_core.evaluation.spans import Span
from rag_core.evaluation.testset import EvalCase
from rag_core.llm.base import CancellableModel, CancelToken, ChatModel
from rag_core.models import KnowledgeBase
from rag_core.pipeline import AskRequest, AskResult, Done, Pipeline
from rag_core.trace import Trace

Progress = Callable[[int, int, str], None]
"""Called as (cases done, cases in all, current question)."""


@dataclass
class EvalRun:
    name: str
    kb: str
    testset_id: str
    settings: dict[str, Any]
    rows: list[dict[str, Any]] = field(default_factory=list)
    summary: dict[str, Any] = field(default_factory=dict)
    status: str = "done"  # done | cancelled

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kb": self.kb,
            "testset_id": self.testset_id,
            "status": self.status,
            "settings": self.settings,
            "summary": self.summary,
            "rows": self.rows,
        }


def _answer(pipeline: Pipeline, kb: KnowledgeBase, question: str, cancel: CancelToken | None) -> AskResult:
    result: AskResult | None = None
    for ev in pipeline.ask(AskRequest(question, [kb]), cancel):
        if isinstance(ev, Done):
            result = ev.result
    assert result is not None
    return result


def evidence_of(result: AskResult) -> tuple[list[str], list[Span]]:
    """The evidence blocks the answer model saw, in block order, as texts and as document spans."""
    blocks = result.trace.blocks
    return [b.text for b in blocks], [Span(b.doc, b.start, b.end) for b in blocks]


def _score(
    case: EvalCase, result: AskResult, judge_model: ChatModel | None, embed: Callable[[list[str]], Any] | None
) -> dict[str, MetricResult]:
    """Every metric that applies; without a judge model only the span metrics, which need none."""
    contexts, spans = evidence_of(result)
    if judge_model is not None:
        return evaluate_case(case, result.answer, contexts, judge_model, embed, spans)
    if not case.gold_spans:
        return {}
    return {
        "context_recall_spans": context_recall_spans(spans, case.gold_spans),
        "context_precision_spans": context_precision_spans(spans, case.gold_spans),
    }


def _row(
    case: EvalCase, result: AskResult, latency_ms: float, metrics: dict[str, MetricResult]
) -> dict[str, Any]:
    return {
        "case_id": case.id,
        "question": case.question,
        "reference_answer": case.reference_answer,
        "answer": result.answer,
        "refused": result.refused,
        "citations": [c.to_json() for c in result.citations],
        "latency_ms": round(latency_ms, 1),
        "metrics": {
            k: {
                "value": m.value,
                "error": m.error,
                "error_code": m.error_code,
                "error_params": m.error_params,
            }
            for k, m in metrics.items()
        },
        "trace": result.trace.to_json(),
        "error": result.trace.error.message if result.trace.error else "",
    }


def summarize(rows: list[dict[str, Any]], judge: str | None) -> dict[str, Any]:
    """A run's summary from its stored rows: per-metric means over judged values, refusal rate, latency."""
    per_case = [
        {
            k: MetricResult(
                k,
                m.get("value"),
                error=m.get("error"),
                error_code=str(m.get("error_code") or ""),
                error_params=dict(m.get("error_params") or {}),
            )
            for k, m in (r.get("metrics") or {}).items()
        }
        for r in rows
    ]
    latencies = sorted(float(r.get("latency_ms") or 0.0) for r in rows)
    return {
        "cases": len(rows),
        "metrics": aggregate(per_case),
        "refusal_rate": (sum(bool(r.get("refused")) for r in rows) / len(rows)) if rows else None,
        "median_latency_ms": latencies[len(latencies) // 2] if latencies else None,
        "errors": sum(1 for r in rows if r.get("error")),
        "judge": judge,
    }


def run_eval(
    pipeline: Pipeline,
    kb: KnowledgeBase,
    cases: list[EvalCase],
    judge_model: ChatModel | None,
    embed: Callable[[list[str]], Any] | None,
    name: str = "",
    testset_id: str = "",
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> EvalRun:
    """Answer and score every case.

    A question that fails (an endpoint timeout, say) becomes an error row and the run goes on.
    After a cancel the case in progress is dropped (its answer or judging was cut short), the run
    keeps the cases finished before it and its status is "cancelled"; the judge refuses new calls
    at once, so a cancel does not wait for the remaining metrics.
    """
    run = EvalRun(
        name or f"run {time.strftime('%Y-%m-%d %H:%M')}", kb.name, testset_id, pipeline.settings.snapshot()
    )
    judge = (
        CancellableModel(judge_model, cancel)
        if judge_model is not None and cancel is not None
        else judge_model
    )
    for i, case in enumerate(cases):
        if cancel is not None and cancel.cancelled:
            break
        if progress:
            progress(i, len(cases), case.question)
        t0 = time.perf_counter()
        try:
            result = _answer(pipeline, kb, case.question, cancel)
        except LexgateError as err:
            trace = Trace.failed(case.question, err.message, err.code, err.params)
            result = AskResult(question=case.question, refused=True, trace=trace)
        latency = (time.perf_counter() - t0) * 1000
        metrics = _score(case, result, judge, embed) if result.trace.error is None else {}
        if cancel is not None and cancel.cancelled:
            break
        run.rows.append(_row(case, result, latency, metrics))
    if len(run.rows) < len(cases):
        run.status = "cancelled"
    if progress:
        progress(len(run.rows), len(cases), "")
    run.summary = summarize(run.rows, getattr(judge_model, "name", None))
    return run


def compare_runs(a: dict[str, Any], b: dict[str, Any]) -> list[dict[str, Any]]:
    """Per metric: the two means and their difference (b − a), for side-by-side display."""
    ma = a.get("summary", {}).get("metrics", {})
    mb = b.get("summary", {}).get("metrics", {})
    out = []
    for name in sorted(set(ma) | set(mb)):
        va = ma.get(name, {}).get("mean")
        vb = mb.get(name, {}).get("mean")
        delta = (vb - va) if isinstance(va, float | int) and isinstance(vb, float | int) else None
        out.append({"metric": name, "a": va, "b": vb, "delta": delta})
    return out
