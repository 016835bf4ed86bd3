"""Trace records of the evidence-first answer: the quoted sentences and the prompt plan with its times.

Why apart from ``rag_core.trace``: they are the speed work's part of the typed trace (what was
quoted at once, what the answer model read, how many prompt tokens it cost and how many were
served from the KV cache, when the quoted answer and the first token arrived); the trace holds
them as fields and writes them under ``quoted``, ``prompt_plan`` and ``milestones_ms``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

JsonMap = Mapping[str, Any]


def _num(data: JsonMap, key: str, kind: type[int] | type[float]) -> Any:
    """``data[key]`` as an int or float, 0 when missing or unreadable (stored traces may be old)."""
    try:
        return kind(data.get(key) or 0)
    except (TypeError, ValueError):
        return kind(0)


@dataclass(frozen=True)
class QuotedRecord:
    """One quoted sentence: its block number (citation), where it stands, its exact text."""

    n: int
    doc: str
    text: str
    start: int
    end: int
    score: float = 0.0
    doc_id: str = ""
    chunk_id: str = ""
    page: int | str | None = None
    clause: str = ""
    block_start: int = 0
    block_end: int = 0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: JsonMap) -> QuotedRecord:
        page = data.get("page")
        return cls(
            n=_num(data, "n", int),
            doc=str(data.get("doc") or ""),
            text=str(data.get("text") or ""),
            start=_num(data, "start", int),
            end=_num(data, "end", int),
            score=_num(data, "score", float),
            doc_id=str(data.get("doc_id") or ""),
            chunk_id=str(data.get("chunk_id") or ""),
            page=page if isinstance(page, int | str) and not isinstance(page, bool) else None,
            clause=str(data.get("clause") or ""),
            block_start=_num(data, "block_start", int),
            block_end=_num(data, "block_end", int),
        )


@dataclass(frozen=True)
class PromptPlanRecord:
    """What the answer model was given and what it cost."""

    prompt_mode: str = ""  # sentences | passages
    max_prompt_tokens: int = 0
    estimated_prompt_tokens: int = 0
    sentences_in_prompt: Mapping[str, int] = field(default_factory=dict)  # block n -> sentences
    sentences_left_out: int = 0
    over_budget: bool = False
    scoring_ms: float = 0.0
    prompt_tokens: tuple[int, ...] = ()  # measured, one per generation call
    cached_prompt_tokens: tuple[int, ...] = ()  # of those, served from the KV cache

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["prompt_tokens"], out["cached_prompt_tokens"] = (
            list(self.prompt_tokens),
            list(self.cached_prompt_tokens),
        )
        return out

    @classmethod
    def from_json(cls, data: JsonMap) -> PromptPlanRecord:
        sentences = data.get("sentences_in_prompt")
        return cls(
            prompt_mode=str(data.get("prompt_mode") or ""),
            max_prompt_tokens=_num(data, "max_prompt_tokens", int),
            estimated_prompt_tokens=_num(data, "estimated_prompt_tokens", int),
            sentences_in_prompt={str(k): int(v) for k, v in sentences.items()}
            if isinstance(sentences, Mapping)
            else {},
            sentences_left_out=_num(data, "sentences_left_out", int),
            over_budget=bool(data.get("over_budget")),
            scoring_ms=_num(data, "scoring_ms", float),
            prompt_tokens=tuple(int(v) for v in data.get("prompt_tokens") or ()),
            cached_prompt_tokens=tuple(int(v) for v in data.get("cached_prompt_tokens") or ()),
        )


def quoted_from_json(value: Any) -> tuple[QuotedRecord, ...]:
    return (
        tuple(QuotedRecord.from_json(v) for v in value if isinstance(v, Mapping))
        if isinstance(value, list)
        else ()
    )
