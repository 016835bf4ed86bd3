"""End-to-end answer benchmark on the shared data: ask every question through the real pipeline,
score the answers with the RAGAS-style metrics, and check the citations against the gold evidence.

Why citation validity separately: a lawyer trusts a citation only if the cited block really holds
the supporting text. On CUAD a citation is valid when its span overlaps a gold span; on LeCoQA when
it cites a gold statute article.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rag_core.bench.retrieval_bench import CUAD, ensure_kb, load_queries
from rag_core.embeddings.registry import get_embedder
from rag_core.evaluation.runner import run_eval
from rag_core.evaluation.spans import Span
from rag_core.evaluation.testset import EvalCase
from rag_core.llm.factory import get_chat_model
from rag_core.pipeline import Pipeline
from rag_core.settings import Settings
from storage.store import Store


def _cases(data_dir: Path, dataset: str, limit: int) -> tuple[list[EvalCase], dict[str, list[str]]]:
    """Evaluation cases, and the gold article ids per case for LeCoQA."""
    cases: list[EvalCase] = []
    gold_ids: dict[str, list[str]] = {}
    for q in load_queries(data_dir, dataset)[:limit]:
        if dataset == CUAD:
            cases.append(EvalCase(id=q.qid, question=q.text, gold_spans=q.gold_spans, origin="imported"))
        else:
            cases.append(EvalCase(id=q.qid, question=q.text, origin="imported"))
            gold_ids[q.qid] = q.gold_ids
    if dataset != CUAD:  # the lawyer's answers are the reference answers
        answers = {}
        for line in (data_dir / dataset / "queries.jsonl").read_text(encoding="utf-8").splitlines():
            if line.strip():
                obj = json.loads(line)
                answers[str(obj["query_id"])] = obj.get("answer", "")
        for c in cases:
            c.reference_answer = answers.get(c.id, "")
    return cases, gold_ids


def citation_validity(row: dict[str, Any], case: EvalCase, gold_ids: list[str]) -> tuple[int, int]:
    """(valid citations, citations) of one answer."""
    cites = row["citations"]
    if case.gold_spans:
        valid = sum(
            1 for c in cites if any(Span(c["doc"], c["start"], c["end"]).overlaps(g) for g in case.gold_spans)
        )
    else:
        valid = sum(1 for c in cites if c["doc"].removesuffix(".txt") in gold_ids)
    return valid, len(cites)


def run_answers_bench(
    store: Store,
    settings: Settings,
    data_dir: Path,
    dataset: str,
    limit: int,
    log: Callable[[str], None] = print,
) -> dict[str, Any]:
    kb, _ = ensure_kb(store, settings, data_dir, dataset, log)
    cases, gold_ids = _cases(data_dir, dataset, limit)
    pipeline = Pipeline.from_settings(store, settings)
    judge = get_chat_model(settings, "judge")
    embedder = get_embedder(kb.embed_backend, kb.embed_model, settings)

    def progress(done: int, total: int, question: str) -> None:
        log(f"  [{done}/{total}] {question[:70]}")

    run = run_eval(
        pipeline, kb, cases, judge, embedder.embed_queries, name=f"bench-{dataset}", progress=progress
    )
    valid = total = 0
    answers_with_valid = 0
    for row, case in zip(run.rows, cases, strict=False):
        v, n = citation_validity(row, case, gold_ids.get(case.id, []))
        valid, total = valid + v, total + n
        answers_with_valid += int(v > 0)
        row["citations_valid"] = v
        row.pop("trace", None)
    latencies = [r["latency_ms"] for r in run.rows]
    return {
        "dataset": dataset,
        "cases": len(run.rows),
        "answer_model": getattr(pipeline.answer_model, "name", None),
        "judge_model": getattr(judge, "name", None),
        "metrics": run.summary["metrics"],
        "refusal_rate": run.summary["refusal_rate"],
        "citation_validity": (valid / total) if total else None,
        "answers_with_a_valid_citation": (answers_with_valid / len(run.rows)) if run.rows else None,
        "latency_ms": {
            "median": statistics.median(latencies) if latencies else None,
            "max": max(latencies) if latencies else None,
        },
        "rows": run.rows,
    }


def format_answers(r: dict[str, Any]) -> str:
    lines = [
        f"{r['dataset']}: {r['cases']} questions; answer model {r['answer_model']}, judge {r['judge_model']}",
        f"refusal rate {r['refusal_rate']}",
        f"citation validity {r['citation_validity']} (answers with a valid citation: {r['answers_with_a_valid_citation']})",
        f"latency per answer: median {r['latency_ms']['median']} ms, max {r['latency_ms']['max']} ms",
    ]
    for name, agg in r["metrics"].items():
        mean = "—" if agg["mean"] is None else f"{agg['mean']:.3f}"
        lines.append(f"  {name:<26} {mean}  (judged {agg['n']}, could not judge {agg['could_not_judge']})")
    return "\n".join(lines)
