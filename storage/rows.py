"""Typed rows of the store: what each repository takes and returns, one dataclass per table shape.

Why dataclasses and not dicts: a page or a bench that reads ``row["kb_ids"]`` breaks silently when
a column is renamed; an attribute breaks under mypy. JSON payloads written by other layers (a
message's trace and citations, an evaluation run's summary and rows, a test set's cases) stay
JSON values inside their row: storage keeps them, it does not interpret them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from typing import Any

from rag_core.models import Document

JsonObject = dict[str, Any]
"""A decoded JSON object that storage keeps verbatim for another layer (trace, summary, case)."""


@dataclass(slots=True)
class ChunkRow:
    """One row of a knowledge base's chunks table; ``vector`` is None when it was not read."""

    id: str
    doc_id: str
    text: str
    start: int
    end: int
    page: int = 0  # 0 = no page (DOCX/TXT)
    anchor: str = ""
    clause: str = ""
    parent_id: str = ""
    kind: str = "plain"  # plain | child | parent
    ordinal: int = 0
    searchable: bool = True
    embedded: bool = False
    tokens: str = ""
    bigrams: str = ""
    vector: list[float] | None = None
    page_end: int = 0  # page of the chunk's last character (schema 2); 0 = no page

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> ChunkRow:
        """A row read from LanceDB (extra columns such as ``_score`` are ignored)."""
        return cls(**{k: record[k] for k in CHUNK_FIELDS if k in record})

    def to_record(self, dim: int) -> dict[str, Any]:
        """The LanceDB row; an unread vector is written as zeros (``embedded`` says it is not real)."""
        out = {k: getattr(self, k) for k in CHUNK_FIELDS}
        out["vector"] = list(self.vector) if self.vector is not None else [0.0] * dim
        return out


CHUNK_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(ChunkRow))


@dataclass
class DocumentRow(Document):
    """A document with its stored payloads: extracted text, page spans, defined terms, file bytes."""

    text: str = ""
    spans_json: str = "[]"  # page/section spans of ``text``
    terms: str = ""  # defined terms and parties, newline-joined
    source: bytes = b""

    def to_record(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class DocumentMeta:
    """What document routing and hits read about a document: names, terms and opening text."""

    id: str
    file_name: str = ""
    title: str = ""
    terms: str = ""
    spans_json: str = "[]"
    head: str = ""  # the opening text, filled in by the retriever


@dataclass
class Conversation:
    id: str
    title: str
    kb_ids: list[str]
    created_at: str
    updated_at: str

    @classmethod
    def from_record(cls, r: dict[str, Any]) -> Conversation:
        return cls(
            id=r["id"],
            title=r["title"] or "",
            kb_ids=list(json.loads(r["kb_ids"] or "[]")),
            created_at=r["created_at"],
            updated_at=r["updated_at"],
        )


@dataclass
class Message:
    """One chat turn; the JSON payloads are what the pipeline produced for it."""

    id: str
    conversation_id: str
    seq: int
    role: str
    content: str
    thinking: str = ""
    citations: list[JsonObject] = field(default_factory=list)
    verdicts: list[JsonObject] = field(default_factory=list)
    trace: JsonObject = field(default_factory=dict)
    usage: JsonObject = field(default_factory=dict)
    latency_ms: float = 0.0
    settings: JsonObject = field(default_factory=dict)
    refused: bool = False
    created_at: str = ""

    @classmethod
    def from_record(cls, r: dict[str, Any]) -> Message:
        def load(key: str, empty: Any) -> Any:
            value = json.loads(r.get(f"{key}_json") or "null")
            return empty if value is None else value

        return cls(
            id=r["id"],
            conversation_id=r["conversation_id"],
            seq=int(r["seq"]),
            role=r["role"],
            content=r["content"] or "",
            thinking=r["thinking"] or "",
            citations=load("citations", []),
            verdicts=load("verdicts", []),
            trace=load("trace", {}),
            usage=load("usage", {}),
            latency_ms=float(r["latency_ms"] or 0.0),
            settings=load("settings", {}),
            refused=bool(r["refused"]),
            created_at=r["created_at"] or "",
        )


@dataclass(frozen=True)
class VerdictRow:
    """One judged passage of an answer, flattened for queries across answers."""

    message_id: str
    passage_id: str
    chunk_id: str
    doc: str
    label: str
    keep: bool
    injection: float
    conflict: float
    relevance: float
    evidence: float
    explanation: str
    created_at: str


@dataclass
class Feedback:
    """A lawyer's rating of one answer; ``trace_json`` is the answer's trace as it was then."""

    message_id: str = ""
    conversation_id: str = ""
    question: str = ""
    answer: str = ""
    rating: int = 0
    helpful: bool = False
    correct_answer: str = ""
    comment: str = ""
    diagnosis: str = ""  # JSON of the diagnosis at the time, "" when none was made
    trace_json: str = "{}"
    id: str = ""
    created_at: str = ""

    @property
    def trace(self) -> JsonObject:
        value = json.loads(self.trace_json or "{}")
        return value if isinstance(value, dict) else {}


FEEDBACK_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Feedback))


@dataclass(frozen=True)
class TestSet:
    __test__ = False  # not a pytest test class despite the name

    id: str
    name: str
    kb_id: str
    created_at: str


@dataclass
class StoredRun:
    """One stored evaluation run; ``settings``, ``summary`` and ``rows`` are the runner's JSON.

    Listing runs reads only the header columns, so a listed run has empty payloads.
    """

    id: str = ""
    testset_id: str = ""
    kb_id: str = ""
    name: str = ""
    status: str = "done"
    created_at: str = ""
    settings: JsonObject = field(default_factory=dict)
    summary: JsonObject = field(default_factory=dict)
    rows: list[JsonObject] = field(default_factory=list)

    @classmethod
    def from_json(cls, data: JsonObject) -> StoredRun:
        """From the runner's (or an exported file's) JSON object."""
        return cls(
            id=str(data.get("id") or ""),
            testset_id=str(data.get("testset_id") or ""),
            kb_id=str(data.get("kb_id") or ""),
            name=str(data.get("name") or ""),
            status=str(data.get("status") or "done"),
            created_at=str(data.get("created_at") or ""),
            settings=dict(data.get("settings") or {}),
            summary=dict(data.get("summary") or {}),
            rows=list(data.get("rows") or []),
        )

    def to_json(self) -> JsonObject:
        return {f.name: getattr(self, f.name) for f in fields(self)}
