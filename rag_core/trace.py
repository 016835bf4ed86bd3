"""The typed trace of one answer: one frozen record per pipeline stage.

Why typed: the trace is the contract between the library and every page that explains an answer
(chat, inspector, evaluation, feedback). As a free-form dictionary a renamed key broke a page
silently; as records, a renamed field is a type error. ``to_json`` writes the flat layout stored with
every message since the first version (so ``ask --json`` keeps its shape) plus ``schema_version``;
``from_json`` reads that layout whatever its version, so traces stored before the records existed
still open in the inspector. Retrieval's records are in ``trace_retrieval``, the defence's in
``trace_defence``, the quoted answer's in ``answer_records``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rag_core.answer_records import PromptPlanRecord, QuotedRecord, quoted_from_json
from rag_core.coded import code_of, from_record, record
from rag_core.trace_defence import CutRecord, GuardRecord
from rag_core.trace_json import (
    JsonMap,
    Page,
    Scalar,
    _coded_notes,
    _float,
    _floats,
    _int,
    _maps,
    _notes,
    _page,
    _scalars,
    _str,
    _strs,
)
from rag_core.trace_retrieval import (
    KbRetrievalRecord,
    RankedRecord,
    RerankRecord,
    RetrievalRecord,
    RoutingRecord,
)

__all__ = [
    "KbRetrievalRecord",
    "RankedRecord",
    "RerankRecord",
    "RetrievalRecord",
    "RoutingRecord",
]

TRACE_SCHEMA_VERSION = 2
"""1: the untyped dictionary (no ``schema_version`` key); 2: these records."""


# ---------------------------------------------------------------------- query
@dataclass(frozen=True)
class RetrieveOrNotRecord:
    needed: bool
    by: str
    reason: str

    @classmethod
    def from_json(cls, data: JsonMap) -> RetrieveOrNotRecord:
        coded_reason = data.get("reason_coded")
        reason = from_record(coded_reason) if isinstance(coded_reason, Mapping) else _str(data, "reason")
        return cls(bool(data.get("needed", True)), _str(data, "by"), reason)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"needed": self.needed, "by": self.by, "reason": self.reason}
        if code_of(self.reason)[0]:
            out["reason_coded"] = record(self.reason)
        return out


@dataclass(frozen=True)
class QueryRecord:
    """What retrieval searched for: the query, seed 003's join, the LLM's standalone rewrite, and the
    question the judge read (without the words naming a routed contract; "" when it is the question),
    and the follow-up read with the previous question when the question alone found no evidence."""

    text: str
    joined: str = ""
    condensed: str = ""
    notes: tuple[str, ...] = ()
    judged: str = ""
    in_context: str = ""

    @classmethod
    def from_json(cls, data: JsonMap) -> QueryRecord:
        return cls(
            _str(data, "text"),
            _str(data, "joined"),
            _str(data, "condensed"),
            _notes(data, "notes"),
            _str(data, "judged"),
            _str(data, "in_context"),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "joined": self.joined,
            "condensed": self.condensed,
            "judged": self.judged,
            "in_context": self.in_context,
            **_coded_notes("notes", self.notes),
        }


# ---------------------------------------------------------------------- verdicts
@dataclass(frozen=True)
class VerdictRecord:
    """One passage's verdict with the passage it judged: what the evidence panel, the inspector
    and the threshold lab read."""

    chunk_id: str
    scores: Mapping[str, float]
    label: str
    keep: bool
    explanation: str = ""
    thresholds: Mapping[str, float] = field(default_factory=dict)
    explanation_code: str = ""
    explanation_params: Mapping[str, Scalar] = field(default_factory=dict)
    doc: str = ""
    doc_id: str = ""
    page: Page = None
    clause: str = ""
    start: int = 0
    end: int = 0
    text: str = ""
    kb: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)
    """Fields a newer judge adds (sentence scores, cut sentences…), kept so nothing is lost."""

    _KNOWN = frozenset(
        "passage_id chunk_id scores label keep reason explanation thresholds explanation_code "
        "explanation_params doc doc_id page clause start end text kb".split()
    )

    @classmethod
    def from_json(cls, data: JsonMap) -> VerdictRecord:
        return cls(
            chunk_id=_str(data, "chunk_id") or _str(data, "passage_id"),
            scores=_floats(data.get("scores")),
            label=_str(data, "label") or _str(data, "reason"),
            keep=bool(data.get("keep")),
            explanation=_str(data, "explanation"),
            thresholds=_floats(data.get("thresholds")),
            explanation_code=_str(data, "explanation_code"),
            explanation_params=_scalars(data.get("explanation_params")),
            doc=_str(data, "doc"),
            doc_id=_str(data, "doc_id"),
            page=_page(data.get("page")),
            clause=_str(data, "clause"),
            start=_int(data, "start"),
            end=_int(data, "end"),
            text=_str(data, "text"),
            kb=_str(data, "kb"),
            extra={k: v for k, v in data.items() if k not in cls._KNOWN},
        )

    def to_json(self) -> dict[str, Any]:
        """The verdict record shape of ``ask --json`` (``passage_id`` and ``reason`` repeated)."""
        return {
            "passage_id": self.chunk_id,
            "scores": dict(self.scores),
            "label": self.label,
            "keep": self.keep,
            "reason": self.label,
            "explanation": self.explanation,
            "thresholds": dict(self.thresholds),
            "explanation_code": self.explanation_code,
            "explanation_params": dict(self.explanation_params),
            "chunk_id": self.chunk_id,
            "doc": self.doc,
            "doc_id": self.doc_id,
            "page": self.page,
            "clause": self.clause,
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "kb": self.kb,
            **dict(self.extra),
        }


@dataclass(frozen=True)
class VerdictStage:
    """All verdicts of a question and the thresholds they were labelled with."""

    verdicts: tuple[VerdictRecord, ...] = ()
    thresholds: Mapping[str, float] = field(default_factory=dict)
    kept: int = 0
    judged: bool = True


# ---------------------------------------------------------------------- evidence
@dataclass(frozen=True)
class SpanRecord:
    chunk_id: str
    start: int
    end: int

    @classmethod
    def from_json(cls, data: JsonMap) -> SpanRecord:
        return cls(_str(data, "chunk_id"), _int(data, "start"), _int(data, "end"))

    def to_json(self) -> dict[str, Any]:
        return {"chunk_id": self.chunk_id, "start": self.start, "end": self.end}


@dataclass(frozen=True)
class BlockRecord:
    """One numbered evidence block the answer model saw, with the judged children inside it."""

    n: int
    chunk_id: str
    doc: str
    start: int
    end: int
    page: Page
    clause: str
    text: str
    children: tuple[SpanRecord, ...] = ()
    conflicting: bool = False
    doc_id: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)
    cuts: tuple[CutRecord, ...] = ()  # sentences cut out of ``text`` (offsets into the uncut text)
    salvaged: bool = False  # an excerpt of a passage judged INJECTION (the attack cut, the rest re-judged)

    _KNOWN = frozenset(
        "n chunk_id doc start end page clause text children conflicting doc_id cuts salvaged".split()
    )

    @classmethod
    def from_json(cls, data: JsonMap) -> BlockRecord:
        return cls(
            n=_int(data, "n"),
            chunk_id=_str(data, "chunk_id"),
            doc=_str(data, "doc"),
            start=_int(data, "start"),
            end=_int(data, "end"),
            page=_page(data.get("page")),
            clause=_str(data, "clause"),
            text=_str(data, "text"),
            children=tuple(SpanRecord.from_json(c) for c in _maps(data.get("children"))),
            conflicting=bool(data.get("conflicting")),
            doc_id=_str(data, "doc_id"),
            extra={k: v for k, v in data.items() if k not in cls._KNOWN},
            cuts=tuple(CutRecord.from_json(c) for c in _maps(data.get("cuts"))),
            salvaged=bool(data.get("salvaged")),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "chunk_id": self.chunk_id,
            "doc": self.doc,
            "doc_id": self.doc_id,
            "start": self.start,
            "end": self.end,
            "page": self.page,
            "clause": self.clause,
            "text": self.text,
            "children": [c.to_json() for c in self.children],
            "conflicting": self.conflicting,
            "cuts": [c.to_json() for c in self.cuts],
            **({"salvaged": True} if self.salvaged else {}),
            **dict(self.extra),
        }


@dataclass(frozen=True)
class EvidenceRecord:
    blocks: tuple[BlockRecord, ...] = ()
    budget_notes: tuple[str, ...] = ()


# ---------------------------------------------------------------------- reflection
@dataclass(frozen=True)
class SupportRecord:
    """How well one answer sentence is backed (seed 001's IS_SUPPORTED), by what and why."""

    sentence: str
    label: str
    score: float
    cited: tuple[int, ...] = ()
    by: str = "overlap"
    counted: bool = True
    note: str = ""

    @classmethod
    def from_json(cls, data: JsonMap) -> SupportRecord:
        cited = data.get("cited") or []
        return cls(
            _str(data, "sentence"),
            _str(data, "label"),
            _float(data, "score"),
            tuple(int(c) for c in cited if isinstance(c, int | float)),
            _str(data, "by") or "overlap",
            bool(data.get("counted", True)),
            from_record(data["note_coded"])
            if isinstance(data.get("note_coded"), Mapping)
            else _str(data, "note"),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "sentence": self.sentence,
            "label": self.label,
            "score": self.score,
            "cited": list(self.cited),
            "by": self.by,
            "counted": self.counted,
            "note": self.note,
            **({"note_coded": record(self.note)} if code_of(self.note)[0] else {}),
        }


@dataclass(frozen=True)
class RepairRecord:
    sentence: str
    added: int
    dropped: tuple[int, ...] = ()

    @classmethod
    def from_json(cls, data: JsonMap) -> RepairRecord:
        dropped = data.get("dropped") or []
        return cls(_str(data, "sentence"), _int(data, "added"), tuple(int(d) for d in dropped))

    def to_json(self) -> dict[str, Any]:
        return {"sentence": self.sentence, "added": self.added, "dropped": list(self.dropped)}


@dataclass(frozen=True)
class ReflectionRecord:
    """Seed 001's IS_SUPPORTED: support per sentence of the draft and, when it was regenerated, of the
    second draft; citation numbers removed and citations repaired across both reviews."""

    support: tuple[SupportRecord, ...] = ()
    support_after_regeneration: tuple[SupportRecord, ...] | None = None
    invalid_citations: tuple[int, ...] = ()
    repairs: tuple[RepairRecord, ...] = ()
    guard: tuple[GuardRecord, ...] = ()  # answer sentences removed by the output guard

    @classmethod
    def from_json(cls, data: JsonMap) -> ReflectionRecord | None:
        """Read from the flat layout; ``None`` when no review ran."""
        keys = ("support", "support_after_regeneration", "invalid_citations", "citation_repairs", "guard")
        if not any(k in data for k in keys):
            return None
        second = data.get("support_after_regeneration")
        return cls(
            tuple(SupportRecord.from_json(s) for s in _maps(data.get("support"))),
            tuple(SupportRecord.from_json(s) for s in _maps(second)) if second is not None else None,
            tuple(int(i) for i in data.get("invalid_citations") or [] if isinstance(i, int | float)),
            tuple(RepairRecord.from_json(x) for x in _maps(data.get("citation_repairs"))),
            tuple(GuardRecord.from_json(x) for x in _maps(data.get("guard"))),
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"support": [s.to_json() for s in self.support]}
        if self.support_after_regeneration is not None:
            out["support_after_regeneration"] = [s.to_json() for s in self.support_after_regeneration]
        if self.invalid_citations:
            out["invalid_citations"] = list(self.invalid_citations)
        if self.repairs:
            out["citation_repairs"] = [x.to_json() for x in self.repairs]
        if self.guard:
            out["guard"] = [x.to_json() for x in self.guard]
        return out


# ---------------------------------------------------------------------- models, errors
@dataclass(frozen=True)
class ModelsRecord:
    answer: str | None = None
    judge: str | None = None
    rewrite: str | None = None

    @classmethod
    def from_json(cls, data: JsonMap) -> ModelsRecord:
        def name(key: str) -> str | None:
            value = data.get(key)
            return None if value is None else str(value)

        return cls(name("answer"), name("judge"), name("rewrite"))

    def to_json(self) -> dict[str, Any]:
        return {"answer": self.answer, "judge": self.judge, "rewrite": self.rewrite}


@dataclass(frozen=True)
class ErrorRecord:
    """A failed turn: the library's English message, its code and parameters (``LexgateError.record``)."""

    message: str
    code: str = ""
    params: Mapping[str, Scalar] = field(default_factory=dict)


# ---------------------------------------------------------------------- the trace
@dataclass(frozen=True)
class Trace:
    """Everything one answer went through, stage by stage (``None``: the stage did not run)."""

    question: str = ""
    language: str = ""
    kbs: tuple[str, ...] = ()
    think: bool = False
    settings: Mapping[str, Any] = field(default_factory=dict)
    """The settings snapshot in force (API key masked): shown as it is, never read by key."""
    models: ModelsRecord = field(default_factory=ModelsRecord)
    retrieve_or_not: RetrieveOrNotRecord | None = None
    query: QueryRecord | None = None
    retrieval: RetrievalRecord | None = None
    verdicts: VerdictStage | None = None
    evidence: EvidenceRecord = field(default_factory=EvidenceRecord)
    prompts: tuple[str, ...] = ()
    reflection: ReflectionRecord | None = None
    notes: tuple[str, ...] = ()
    timings_ms: Mapping[str, float] = field(default_factory=dict)
    cancelled: bool = False
    stopped: bool = False
    error: ErrorRecord | None = None
    schema_version: int = TRACE_SCHEMA_VERSION
    quoted: tuple[QuotedRecord, ...] = ()  # the quoted answer, shown as soon as verdicts are in
    prompt_plan: PromptPlanRecord | None = None
    milestones_ms: Mapping[str, float] = field(default_factory=dict)  # to_verdicts, to_quoted, to_first_token

    @classmethod
    def failed(
        cls, question: str, message: str, code: str = "", params: Mapping[str, Scalar] | None = None
    ) -> Trace:
        """The trace of a turn that failed before it answered (``LexgateError``'s message and code)."""
        return cls(question=question, error=ErrorRecord(message, code, dict(params or {})))

    @property
    def blocks(self) -> tuple[BlockRecord, ...]:
        return self.evidence.blocks

    @property
    def verdict_list(self) -> tuple[VerdictRecord, ...]:
        return self.verdicts.verdicts if self.verdicts else ()

    @property
    def thresholds(self) -> Mapping[str, float]:
        return self.verdicts.thresholds if self.verdicts else {}

    def block(self, n: int) -> BlockRecord | None:
        """The evidence block numbered ``n`` (what a citation ``[n]`` points at)."""
        return next((b for b in self.evidence.blocks if b.n == n), None)

    def retrievals(self) -> tuple[KbRetrievalRecord, ...]:
        return self.retrieval.per_kb if self.retrieval else ()

    # ------------------------------------------------------------------ json
    def to_json(self) -> dict[str, Any]:
        """The flat stored layout (version 1's keys, so ``ask --json`` keeps its shape)."""
        out: dict[str, Any] = {
            "schema_version": self.schema_version,
            "question": self.question,
            "language": self.language,
            "kbs": list(self.kbs),
            "think": self.think,
            "settings": dict(self.settings),
            "models": self.models.to_json(),
            **_coded_notes("notes", self.notes),
            "timings_ms": dict(self.timings_ms),
        }
        if self.retrieve_or_not:
            out["retrieve_or_not"] = self.retrieve_or_not.to_json()
        if self.query:
            out["query"] = self.query.to_json()
        if self.retrieval:
            out["retrieval"] = self.retrieval.to_json()
        if self.verdicts:
            out["verdicts"] = [v.to_json() for v in self.verdicts.verdicts]
            out["thresholds"] = dict(self.verdicts.thresholds)
            out["kept"] = self.verdicts.kept
            out["judged"] = self.verdicts.judged
        if self.query or self.evidence.blocks:
            out["blocks"] = [b.to_json() for b in self.evidence.blocks]
            out.update(_coded_notes("budget_notes", self.evidence.budget_notes))
        if self.prompts:
            out["prompts"] = list(self.prompts)
        if self.reflection:
            out.update(self.reflection.to_json())
        if self.quoted:
            out["quoted"] = [q.to_json() for q in self.quoted]
        if self.prompt_plan:
            out["prompt_plan"] = self.prompt_plan.to_json()
        if self.milestones_ms:
            out["milestones_ms"] = dict(self.milestones_ms)
        if self.cancelled:
            out["cancelled"] = True
        if self.stopped:
            out["stopped"] = True
        if self.error:
            out.update(
                error=self.error.message, error_code=self.error.code, error_params=dict(self.error.params)
            )
        return out

    @classmethod
    def from_json(cls, data: JsonMap | None) -> Trace:
        """A stored trace of any version (version 1 had no ``schema_version``); unknown keys ignored."""
        data = data or {}
        rn, q, rt = data.get("retrieve_or_not"), data.get("query"), data.get("retrieval")
        verdicts = _maps(data.get("verdicts"))
        has_verdicts = "verdicts" in data or "thresholds" in data
        error = data.get("error")
        return cls(
            question=_str(data, "question"),
            language=_str(data, "language"),
            kbs=_strs(data.get("kbs")),
            think=bool(data.get("think")),
            settings=dict(data["settings"]) if isinstance(data.get("settings"), Mapping) else {},
            models=ModelsRecord.from_json(data["models"])
            if isinstance(data.get("models"), Mapping)
            else ModelsRecord(),
            retrieve_or_not=RetrieveOrNotRecord.from_json(rn) if isinstance(rn, Mapping) else None,
            query=QueryRecord.from_json(q) if isinstance(q, Mapping) else None,
            retrieval=RetrievalRecord.from_json(rt) if isinstance(rt, Mapping) and rt else None,
            verdicts=VerdictStage(
                tuple(VerdictRecord.from_json(v) for v in verdicts),
                _floats(data.get("thresholds")),
                _int(data, "kept") if "kept" in data else sum(1 for v in verdicts if v.get("keep")),
                bool(data.get("judged", bool(verdicts))),
            )
            if has_verdicts
            else None,
            evidence=EvidenceRecord(
                tuple(BlockRecord.from_json(b) for b in _maps(data.get("blocks"))),
                _notes(data, "budget_notes"),
            ),
            prompts=tuple(p if isinstance(p, str) else str(p) for p in data.get("prompts") or []),
            reflection=ReflectionRecord.from_json(data),
            notes=_notes(data, "notes"),
            timings_ms=_floats(data.get("timings_ms")),
            cancelled=bool(data.get("cancelled")),
            stopped=bool(data.get("stopped")),
            error=ErrorRecord(str(error), _str(data, "error_code"), _scalars(data.get("error_params")))
            if error
            else None,
            schema_version=_int(data, "schema_version") or 1,
            quoted=quoted_from_json(data.get("quoted")),
            prompt_plan=PromptPlanRecord.from_json(pp)
            if isinstance(pp := data.get("prompt_plan"), Mapping)
            else None,
            milestones_ms=_floats(data.get("milestones_ms")),
        )


def verdicts_of(items: Sequence[JsonMap | VerdictRecord]) -> tuple[VerdictRecord, ...]:
    """Verdict records from stored JSON rows or records (a message row stores them as JSON)."""
    return tuple(v if isinstance(v, VerdictRecord) else VerdictRecord.from_json(v) for v in items)
