"""Step 4, judge: the four questions for every candidate, labelled in seed 000's classify order."""

from __future__ import annotations

from dataclasses import dataclass

from rag_core.judge.base import passage_from_hit, thresholds_of, verdict_record
from rag_core.judge.classify import select_kept
from rag_core.judge.factory import make_judge
from rag_core.llm.base import ChatModel
from rag_core.models import Hit, Verdict
from rag_core.retrieval.routing import in_document_query
from rag_core.settings import Settings
from rag_core.trace import VerdictRecord, VerdictStage
from rag_core.trace_retrieval import RetrievalRecord


@dataclass(frozen=True)
class Judged:
    """The verdicts (as the judge returned them and as trace records) and the hits kept, best first."""

    verdicts: tuple[Verdict, ...]
    stage: VerdictStage
    kept: tuple[Hit, ...]

    @property
    def conflicting_ids(self) -> set[str]:
        return {v.passage_id for v in self.verdicts if v.label == "CONFLICTING"}


def judged_question(question: str, retrieval: RetrievalRecord | None) -> str:
    """The question without the words that named a routed contract ("" when nothing was routed).

    Why: inside the routed contract its own name ("the Distributor Agreement between ScanSource and
    Cisco") matches the title block and headers, so the judge and the quoted answer took a title
    line for evidence (0.74 for "1. Nonexclusive Value Added Distributor Agreement Terms and
    Conditions" against 0.02 without the name). Retrieval already searches inside the contract
    with this query; the judge reads the same.
    """
    names = list(retrieval.routed_names()) if retrieval else []
    stripped = in_document_query(question, names).strip() if names else ""
    return stripped if stripped and stripped != question else ""


def judge_hits(
    question: str, hits: list[Hit], settings: Settings, judge_model: ChatModel | None, judge_on: bool
) -> Judged:
    """Judge every hit, or with the judge off keep the first ``max_passages`` unjudged (plain RAG)."""
    thresholds = dict(thresholds_of(settings.verdict))
    if not judge_on or not hits:
        kept = tuple(hits[: settings.retrieval.max_passages])
        return Judged((), VerdictStage((), thresholds, len(kept), judged=judge_on), kept)
    judge = make_judge(settings, judge_model)
    verdicts = judge.judge(question, [passage_from_hit(i + 1, h) for i, h in enumerate(hits)])
    by_id = {h.chunk_id: h for h in hits}
    records = tuple(VerdictRecord.from_json(verdict_record(v, by_id[v.passage_id])) for v in verdicts)
    kept = tuple(by_id[v.passage_id] for v in select_kept(verdicts, settings.verdict))
    return Judged(tuple(verdicts), VerdictStage(records, thresholds, len(kept)), kept)
