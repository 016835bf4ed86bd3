"""Evaluation library: exact retrieval metrics, LLM-judged answer metrics, and test sets.

Why one package: the retrieval benchmarks, the admin page's evaluation view and the feedback
loop all score with the same definitions; nothing here reads the knowledge base itself.
"""

from rag_core.evaluation.metrics import (
    JudgeOptions,
    MetricResult,
    aggregate,
    answer_correctness,
    answer_relevancy,
    average_precision,
    context_precision,
    context_precision_spans,
    context_recall,
    context_recall_spans,
    evaluate_case,
    faithfulness,
)
from rag_core.evaluation.retrieval_metrics import (
    RetrievalReport,
    at_k,
    char_precision_recall,
    id_report,
    mrr_ids,
    recall_at_k_ids,
    reciprocal_rank,
    span_report,
)
from rag_core.evaluation.spans import Span, merge_spans
from rag_core.evaluation.testset import (
    EvalCase,
    GenerationNote,
    TestSetError,
    dedupe,
    generate_cases,
    load_jsonl,
    parse_jsonl,
    save_jsonl,
    to_jsonl,
)

__all__ = [
    "EvalCase",
    "GenerationNote",
    "JudgeOptions",
    "MetricResult",
    "RetrievalReport",
    "Span",
    "TestSetError",
    "aggregate",
    "answer_correctness",
    "answer_relevancy",
    "at_k",
    "average_precision",
    "char_precision_recall",
    "context_precision",
    "context_precision_spans",
    "context_recall",
    "context_recall_spans",
    "dedupe",
    "evaluate_case",
    "faithfulness",
    "generate_cases",
    "id_report",
    "load_jsonl",
    "merge_spans",
    "mrr_ids",
    "parse_jsonl",
    "recall_at_k_ids",
    "reciprocal_rank",
    "save_jsonl",
    "span_report",
    "to_jsonl",
]
