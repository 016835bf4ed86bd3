"""Trace records of retrieval: every leg's ranks, the fused list, routing, expansions, rerank.

Why a module beside ``trace.py``: retrieval has the most parts of any stage; ``Trace.retrieval``
holds a ``RetrievalRecord``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rag_core.trace_json import (
    JsonMap,
    _coded_notes,
    _float,
    _floats,
    _int,
    _mapping,
    _maps,
    _notes,
    _str,
    _strs,
)


@dataclass(frozen=True)
class RankedRecord:
    """One candidate's place in one list (a leg, or the fused list)."""

    chunk_id: str
    rank: int
    score: float

    @classmethod
    def from_json(cls, data: JsonMap) -> RankedRecord:
        return cls(_str(data, "chunk_id"), _int(data, "rank"), _float(data, "score"))

    def to_json(self) -> dict[str, Any]:
        return {"chunk_id": self.chunk_id, "rank": self.rank, "score": self.score}


@dataclass(frozen=True)
class RoutingRecord:
    """The contract a question's proper names pointed at, and the query searched inside it."""

    doc_id: str
    file_name: str
    score: float
    runner_up: float
    matched: tuple[str, ...]
    in_doc_query: str = ""

    @classmethod
    def from_json(cls, data: JsonMap) -> RoutingRecord:
        return cls(
            _str(data, "doc_id"),
            _str(data, "file_name"),
            _float(data, "score"),
            _float(data, "runner_up"),
            _strs(data.get("matched")),
            _str(data, "in_doc_query"),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "doc_id": self.doc_id,
            "file_name": self.file_name,
            "score": self.score,
            "runner_up": self.runner_up,
            "matched": list(self.matched),
            "in_doc_query": self.in_doc_query,
        }


@dataclass(frozen=True)
class RerankRecord:
    method: str
    scores: tuple[float, ...]

    @classmethod
    def from_json(cls, data: JsonMap) -> RerankRecord:
        scores = data.get("scores") or []
        return cls(_str(data, "method"), tuple(float(s) for s in scores if isinstance(s, int | float)))

    def to_json(self) -> dict[str, Any]:
        return {"method": self.method, "scores": list(self.scores)}


@dataclass(frozen=True)
class KbRetrievalRecord:
    """Retrieval in one knowledge base: every leg's ranks, the fused list, routing and expansions."""

    kb: str
    query: str
    mode: str
    legs: Mapping[str, tuple[RankedRecord, ...]] = field(default_factory=dict)
    fused: tuple[RankedRecord, ...] = ()
    routing: RoutingRecord | None = None
    hyde: str = ""
    rewrites: tuple[str, ...] = ()
    rerank: RerankRecord | None = None
    expansion: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    translated: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # the other language's words
    glossed: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # those embedded (vector leg)
    prototype: str = ""
    notes: tuple[str, ...] = ()
    timings_ms: Mapping[str, float] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: JsonMap) -> KbRetrievalRecord:
        legs_raw = _mapping(data.get("legs"))
        expansion_raw = _mapping(data.get("expansion"))
        routing, rerank = data.get("routing"), data.get("rerank")
        return cls(
            kb=_str(data, "kb"),
            query=_str(data, "query"),
            mode=_str(data, "mode"),
            legs={str(k): tuple(RankedRecord.from_json(h) for h in _maps(v)) for k, v in legs_raw.items()},
            fused=tuple(RankedRecord.from_json(h) for h in _maps(data.get("fused"))),
            routing=RoutingRecord.from_json(routing) if isinstance(routing, Mapping) else None,
            hyde=_str(data, "hyde"),
            rewrites=_strs(data.get("rewrites")),
            rerank=RerankRecord.from_json(rerank) if isinstance(rerank, Mapping) else None,
            expansion={str(k): _strs(v) for k, v in expansion_raw.items()},
            translated={str(k): _strs(v) for k, v in _mapping(data.get("translated")).items()},
            glossed={str(k): _strs(v) for k, v in _mapping(data.get("glossed")).items()},
            prototype=_str(data, "prototype"),
            notes=_notes(data, "notes"),
            timings_ms=_floats(data.get("timings_ms")),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "kb": self.kb,
            "query": self.query,
            "mode": self.mode,
            "legs": {k: [h.to_json() for h in v] for k, v in self.legs.items()},
            "fused": [h.to_json() for h in self.fused],
            "routing": self.routing.to_json() if self.routing else None,
            "hyde": self.hyde,
            "rewrites": list(self.rewrites),
            "rerank": self.rerank.to_json() if self.rerank else None,
            "expansion": {k: list(v) for k, v in self.expansion.items()},
            "translated": {k: list(v) for k, v in self.translated.items()},
            "glossed": {k: list(v) for k, v in self.glossed.items()},
            "prototype": self.prototype,
            **_coded_notes("notes", self.notes),
            "timings_ms": dict(self.timings_ms),
        }


@dataclass(frozen=True)
class RetrievalRecord:
    """Retrieval over the question's knowledge bases (several are merged by interleaving ranks)."""

    per_kb: tuple[KbRetrievalRecord, ...]
    merge: str = ""

    @classmethod
    def from_json(cls, data: JsonMap) -> RetrievalRecord:
        if "per_kb" in data:
            return cls(
                tuple(KbRetrievalRecord.from_json(r) for r in _maps(data.get("per_kb"))), _str(data, "merge")
            )
        return cls((KbRetrievalRecord.from_json(data),))

    def routed_names(self) -> tuple[str, ...]:
        """The question's words that named a routed contract, over every knowledge base."""
        return tuple(w for r in self.per_kb if r.routing for w in r.routing.matched)

    def to_json(self) -> dict[str, Any]:
        if len(self.per_kb) == 1 and not self.merge:
            return self.per_kb[0].to_json()
        return {"per_kb": [r.to_json() for r in self.per_kb], "merge": self.merge}
