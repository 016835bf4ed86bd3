"""The threshold lab: judge a question's candidates once, then re-label them under other thresholds.

Why its own module: the admin page must show every candidate's scores and its label under the
thresholds being tried, without generating an answer and without a new judge call per slider
move. Retrieval and judging happen here, once (``judge_question``); ``relabel`` only re-reads the
stored scores (``reclassify``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rag_core.judge.base import Judge, passage_from_hit, verdict_record
from rag_core.judge.classify import reclassify
from rag_core.judge.factory import make_judge
from rag_core.llm.factory import get_chat_model
from rag_core.models import KnowledgeBase, Verdict
from rag_core.retrieval.retriever import Retriever
from rag_core.settings import Settings, VerdictSettings
from rag_core.steps.judging import searched_documents, settle_labels
from storage.store import Store

_VERDICT_FIELDS = (
    "passage_id",
    "scores",
    "label",
    "keep",
    "reason",
    "explanation",
    "thresholds",
    "explanation_code",
    "explanation_params",
)


def make_lab_judge(settings: Settings) -> Judge:
    """The judge the settings name (the LLM judge needs its model; otherwise the offline judge)."""
    model = get_chat_model(settings, "judge") if settings.verdict.backend == "llm" else None
    return make_judge(settings, model)


def judge_question(
    store: Store, settings: Settings, kbs: Sequence[KnowledgeBase], question: str
) -> list[dict[str, Any]]:
    """Retrieve ``question``'s candidates and judge them once; the verdicts as the pipeline stores them."""
    if not question.strip() or not kbs:
        return []
    result = Retriever(store, settings, get_chat_model(settings, "rewrite")).search(
        list(kbs), question, question=question
    )
    hits = result.hits
    if not hits:
        return []
    judge = make_lab_judge(settings)
    verdicts: Sequence[Verdict] = judge.judge(
        question, [passage_from_hit(i + 1, h) for i, h in enumerate(hits)]
    )
    # the same document scope and evidence margin as the pipeline's, so the lab shows the labels a chat gets
    verdicts = settle_labels(
        question, verdicts, hits, searched_documents(store, hits, settings), settings.verdict
    )
    by_id = {h.chunk_id: h for h in hits}
    return [verdict_record(v, by_id[v.passage_id]) for v in verdicts]


def to_verdict(row: Mapping[str, Any]) -> Verdict:
    """A stored verdict dict back into a ``Verdict`` (extra passage fields are ignored)."""
    return Verdict(
        passage_id=str(row.get("passage_id") or row.get("chunk_id", "")),
        scores={k: float(v) for k, v in dict(row.get("scores") or {}).items()},
        label=row.get("label", "NO_EVIDENCE"),
        keep=bool(row.get("keep")),
        reason=str(row.get("reason") or row.get("label", "")),
        explanation=str(row.get("explanation", "")),
        thresholds=dict(row.get("thresholds") or {}),
        explanation_code=str(row.get("explanation_code") or ""),
        explanation_params=dict(row.get("explanation_params") or {}),
    )


def relabel(rows: Sequence[Mapping[str, Any]], verdict_settings: VerdictSettings) -> list[dict[str, Any]]:
    """Stored verdict dicts re-labelled under ``verdict_settings``; each keeps ``old_label``/``old_keep``."""
    verdicts = [to_verdict(r) for r in rows]
    doc_of = {
        v.passage_id: str(r.get("doc_id") or r.get("doc") or "") for v, r in zip(verdicts, rows, strict=True)
    }
    fresh = reclassify(verdicts, verdict_settings, doc_of)
    out = []
    for row, v in zip(rows, fresh, strict=True):
        new = dict(row)
        new.update({k: getattr(v, k) for k in _VERDICT_FIELDS})
        new["old_label"] = row.get("label", "")
        new["old_keep"] = bool(row.get("keep"))
        out.append(new)
    return out
