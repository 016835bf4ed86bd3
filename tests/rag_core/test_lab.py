"""The threshold lab's re-labelling of stored verdicts (``rag_core.lab.relabel``)."""

from __future__ import annotations

from typing import Any

from rag_core.judge.classify import CONFLICT, EVIDENCE, INJECTION, RELEVANCE
from rag_core.lab import relabel
from rag_core.settings import VerdictSettings


def _row(pid: str, doc_id: str, evidence: float) -> dict[str, Any]:
    scores = {INJECTION: 0.0, CONFLICT: 0.0, RELEVANCE: 0.9, EVIDENCE: evidence}
    return {
        "passage_id": pid,
        "chunk_id": pid,
        "doc_id": doc_id,
        "scores": scores,
        "label": "EVIDENCE",
        "keep": True,
    }


def test_the_lab_applies_the_margin_within_each_document() -> None:
    """As the chat does: a passage is weighed against the strongest of its own document, so raising
    nothing but the margin cannot take the only answer of one contract away for another's."""
    rows = [_row("a1", "lease", 0.94), _row("a2", "lease", 0.62), _row("b1", "licence", 0.62)]
    out = relabel(rows, VerdictSettings(evidence_margin=0.15))
    assert [r["label"] for r in out] == ["EVIDENCE", "NO_EVIDENCE", "EVIDENCE"]
    assert [r["old_label"] for r in out] == ["EVIDENCE"] * 3
