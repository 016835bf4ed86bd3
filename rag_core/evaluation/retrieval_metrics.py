"""Exact retrieval metrics: character precision/recall@k over gold spans, recall@k by id, MRR.

Why no LLM here: the retrieval benchmarks (LegalBench-RAG-mini-CUAD, LeCoQA) carry gold
evidence, so the score of a ranking is a matter of arithmetic. These functions are pure and
deterministic; a number they return is reproducible from the inputs alone.

Conventions (documented because benchmarks differ on them):

* Character precision and recall follow LegalBench-RAG: precision = retrieved characters that
  lie in a gold span / all retrieved characters; recall = gold characters that were retrieved /
  all gold characters. Unlike the reference implementation, retrieved spans are merged before
  counting, so a character returned by two overlapping chunks (sliding windows, parent and
  child) counts once in both numerator and denominator; without this, precision could exceed
  what was actually shown to the reader and recall could exceed 1.
* Nothing retrieved gives precision 0 (as in LegalBench-RAG). A query without gold characters
  cannot be scored and raises ``ValueError``: silently scoring it would bias the mean.
* By-id rankings are de-duplicated in order before cutting at k, because several chunks can
  come from one statute article; rank in MRR is the rank among distinct ids.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from rag_core.evaluation.spans import Span, overlap_chars, total_chars

SPAN_KS: tuple[int, ...] = (1, 2, 4, 8, 16, 32, 64)  # LegalBench-RAG's cut-offs
ID_KS: tuple[int, ...] = (1, 5, 10, 20)  # cut-offs for the by-id (LeCoQA) benchmark
TABLE_DECIMALS = 4  # digits shown in text tables; JSON keeps full precision


def char_precision_recall(retrieved: Sequence[Span], gold: Sequence[Span]) -> tuple[float, float]:
    """LegalBench-RAG character precision and recall of one retrieval (see module notes)."""
    gold_chars = total_chars(gold)
    if gold_chars == 0:
        raise ValueError("a query without gold characters cannot be scored")
    retrieved_chars = total_chars(retrieved)
    shared = overlap_chars(retrieved, gold)
    precision = shared / retrieved_chars if retrieved_chars else 0.0
    return precision, shared / gold_chars


def at_k(
    retrieved_ranked: Sequence[Span], gold: Sequence[Span], ks: Iterable[int] = SPAN_KS
) -> dict[int, tuple[float, float]]:
    """Character (precision, recall) of the top-k retrieved spans, for each k.

    When fewer than k spans were retrieved, all of them are scored (as LegalBench-RAG does), so a
    short ranking is not rewarded or punished beyond what it returned.
    """
    return {k: char_precision_recall(retrieved_ranked[:k], gold) for k in _checked_ks(ks)}


def reciprocal_rank(retrieved_ranked: Sequence[Span], gold: Sequence[Span]) -> float:
    """1/rank of the first retrieved span sharing a character with any gold span; 0 if none."""
    for rank, span in enumerate(retrieved_ranked, start=1):
        if any(span.overlaps(g) for g in gold):
            return 1.0 / rank
    return 0.0


def dedupe_ids(ranked_ids: Iterable[str]) -> list[str]:
    """Ids in first-seen order without repeats: several chunks of one article count once."""
    return list(dict.fromkeys(ranked_ids))


def recall_at_k_ids(
    ranked_ids: Sequence[str], gold_ids: Sequence[str], ks: Iterable[int] = ID_KS
) -> dict[int, float]:
    """Share of distinct gold ids found among the first k distinct ranked ids, for each k."""
    gold = set(gold_ids)
    if not gold:
        raise ValueError("a query without gold ids cannot be scored")
    ranked = dedupe_ids(ranked_ids)
    return {k: len(gold.intersection(ranked[:k])) / len(gold) for k in _checked_ks(ks)}


def mrr_ids(ranked_ids: Sequence[str], gold_ids: Sequence[str]) -> float:
    """1/rank (among distinct ranked ids) of the first gold id; 0 if none was retrieved."""
    gold = set(gold_ids)
    for rank, doc_id in enumerate(dedupe_ids(ranked_ids), start=1):
        if doc_id in gold:
            return 1.0 / rank
    return 0.0


def _checked_ks(ks: Iterable[int]) -> list[int]:
    """Cut-offs sorted and de-duplicated; a k below 1 is a caller error, not an empty score."""
    out = sorted(set(ks))
    if not out or out[0] < 1:
        raise ValueError(f"cut-offs k must be positive integers, got {out}")
    return out


def _mean(values: Sequence[float]) -> float:
    """Arithmetic mean; callers guarantee at least one value."""
    return sum(values) / len(values)


@dataclass
class RetrievalReport:
    """Mean retrieval metrics over a benchmark's queries.

    ``precision_at_k`` is ``None`` for by-id benchmarks, where precision over characters has no
    meaning.
    """

    name: str
    n_queries: int
    ks: list[int]
    recall_at_k: dict[int, float]
    mrr: float
    precision_at_k: dict[int, float] | None = None
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict; k keys become strings as JSON requires."""
        data = asdict(self)
        data["recall_at_k"] = {str(k): v for k, v in self.recall_at_k.items()}
        if self.precision_at_k is not None:
            data["precision_at_k"] = {str(k): v for k, v in self.precision_at_k.items()}
        return data

    def to_json_str(self) -> str:
        """The JSON form as text, Chinese kept readable."""
        return json.dumps(self.to_json(), ensure_ascii=False, indent=2)

    def to_table(self) -> str:
        """A plain-text table for terminals and reports: one row per metric, one column per k."""
        header = ["metric", *(f"@{k}" for k in self.ks)]
        rows: list[list[str]] = []
        if self.precision_at_k is not None:
            rows.append(["precision", *(_fmt(self.precision_at_k[k]) for k in self.ks)])
        rows.append(["recall", *(_fmt(self.recall_at_k[k]) for k in self.ks)])
        widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
        lines = [f"{self.name} (n={self.n_queries})"]
        for row in [header, *rows]:
            lines.append("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
        lines.append(f"MRR  {_fmt(self.mrr)}")
        lines.extend(f"note: {n}" for n in self.notes)
        return "\n".join(lines)


def _fmt(value: float) -> str:
    """A metric value as shown in tables."""
    return f"{value:.{TABLE_DECIMALS}f}"


def span_report(
    name: str,
    queries: Sequence[tuple[Sequence[Span], Sequence[Span]]],
    ks: Iterable[int] = SPAN_KS,
) -> RetrievalReport:
    """Mean character precision/recall@k and MRR over ``(retrieved_ranked, gold)`` pairs."""
    if not queries:
        raise ValueError("a report needs at least one query")
    cut = _checked_ks(ks)
    per_query = [at_k(retrieved, gold, cut) for retrieved, gold in queries]
    return RetrievalReport(
        name=name,
        n_queries=len(queries),
        ks=cut,
        precision_at_k={k: _mean([q[k][0] for q in per_query]) for k in cut},
        recall_at_k={k: _mean([q[k][1] for q in per_query]) for k in cut},
        mrr=_mean([reciprocal_rank(retrieved, gold) for retrieved, gold in queries]),
    )


def id_report(
    name: str,
    queries: Sequence[tuple[Sequence[str], Sequence[str]]],
    ks: Iterable[int] = ID_KS,
) -> RetrievalReport:
    """Mean recall@k and MRR by id over ``(ranked_ids, gold_ids)`` pairs."""
    if not queries:
        raise ValueError("a report needs at least one query")
    cut = _checked_ks(ks)
    per_query = [recall_at_k_ids(ranked, gold, cut) for ranked, gold in queries]
    return RetrievalReport(
        name=name,
        n_queries=len(queries),
        ks=cut,
        recall_at_k={k: _mean([q[k] for q in per_query]) for k in cut},
        mrr=_mean([mrr_ids(ranked, gold) for ranked, gold in queries]),
    )
