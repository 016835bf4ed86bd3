"""Typed records that cross module boundaries: documents, chunks, hits, verdicts, citations, events.

Why dataclasses: they are cheap, typed, and serialise with ``to_json`` into the CLI's JSON shapes,
which external evaluation scripts depend on (the field names here are that contract).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

# The five reason labels a passage can receive (seed 000's classify order).
Label = Literal["INJECTION", "CONFLICTING", "IRRELEVANT", "EVIDENCE", "NO_EVIDENCE"]
LABELS: tuple[Label, ...] = ("INJECTION", "CONFLICTING", "IRRELEVANT", "EVIDENCE", "NO_EVIDENCE")
# The four yes/no questions asked of every passage, in seed 000's order.
QUESTIONS: tuple[str, ...] = (
    "contains_prompt_injection",
    "contradicts_query_premise",
    "is_relevant",
    "contains_answer_evidence",
)


@dataclass
class KnowledgeBase:
    id: str
    name: str
    embed_backend: str
    embed_model: str
    embed_dim: int
    created_at: str
    empty_answer: str = ""  # configured refusal text; empty = the settings' language default


@dataclass
class PageSpan:
    """Where one PDF page (1-based) or one DOCX section lies in the extracted text."""

    start: int
    end: int
    page: int | None = None  # PDF page number
    anchor: str = ""  # DOCX heading anchor


@dataclass
class ExtractedDocument:
    """The text a document yields, with where its pages/sections lie; chunk offsets index ``text``."""

    text: str
    file_type: str  # pdf | docx | txt | md
    spans: list[PageSpan] = field(default_factory=list)
    pages: int = 0
    encoding: str = "utf-8"
    language: str = "en"  # zh | en | mixed
    title: str = ""
    notes: list[str] = field(default_factory=list)  # e.g. "pypdf text garbled; used pypdfium2"


@dataclass
class Document:
    id: str  # sha256 of the file content
    kb_id: str
    file_name: str
    file_type: str
    size_bytes: int
    pages: int
    language: str
    ingested_at: str
    status: str  # "indexed" | "keyword-only" | "failed"
    title: str = ""
    encoding: str = "utf-8"
    n_chunks: int = 0
    notes: str = ""
    notes_json: str = "[]"  # the notes with their codes (``rag_core.coded.record``), for the interface


@dataclass
class Chunk:
    id: str
    doc_id: str
    text: str
    start: int
    end: int
    page: int | None = None  # PDF page of the chunk's first character
    anchor: str = ""
    clause: str = ""  # clause heading path, e.g. "第五条 违约责任" or "Section 7.2 Termination"
    parent_id: str = ""  # for child chunks: their parent's id
    kind: Literal["plain", "child", "parent"] = "plain"
    ordinal: int = 0
    page_end: int | None = None  # PDF page of its last character (== page unless it spans pages)


@dataclass
class Hit:
    """One retrieved passage. ``text == doc_text[start:end]`` always holds."""

    doc: str  # file name
    doc_id: str
    chunk_id: str
    start: int
    end: int
    page: int | str | None
    clause: str
    score: float
    text: str
    title: str = ""
    parent_id: str = ""
    explain: dict[str, Any] = field(default_factory=dict)  # per-leg ranks/scores, fused rank, rerank
    page_end: int | None = None  # last PDF page of the passage (None: one page, or no pages)

    def to_json(self) -> dict[str, Any]:
        """The CLI hit shape; ``explain`` only when filled."""
        out: dict[str, Any] = {
            "doc": self.doc,
            "chunk_id": self.chunk_id,
            "start": self.start,
            "end": self.end,
            "page": self.page,
            "page_end": self.page_end if self.page_end is not None else self.page,
            "clause": self.clause,
            "score": self.score,
            "text": self.text,
        }
        if self.explain:
            out["explain"] = self.explain
        return out


@dataclass
class EvidenceBlock:
    """One kept passage as the answer model sees it, numbered for citation.

    ``start``/``end``/``doc_id``/``chunk_id`` locate the source passage so a citation can point
    back at the exact span (``Hit.text == doc_text[start:end]``). ``excerpt``, when set, is what
    the answer model reads instead of the whole text (the short prompt's chosen sentences); the
    citation still opens ``text``. ``judged``: the spans the judge labelled, when the block is a
    larger parent around them (empty: the whole block was judged).
    """

    n: int
    title: str
    doc: str
    page: int | str | None
    clause: str
    text: str
    conflicting: bool = False
    start: int = 0
    end: int = 0
    doc_id: str = ""
    chunk_id: str = ""
    excerpt: str = ""
    affirming: bool = False  # states the question's value that a conflicting block of another document denies
    judged: tuple[tuple[int, int], ...] = ()  # document spans of the judged passages inside it
    aliases: frozenset[tuple[str, str]] = frozenset()


@dataclass
class Verdict:
    """The judge's answer for one passage: four scores, the label, and why."""

    passage_id: str
    scores: dict[str, float]
    label: Label
    keep: bool
    reason: str  # the label, repeated for the CLI shape
    explanation: str  # short English text: why this label (CLI, logs)
    thresholds: dict[str, float] = field(default_factory=dict)
    # The same explanation for an interface in another language: a stable snake_case code whose
    # template (``why_<code>`` in ui/i18n.py) is filled with ``explanation_params``.
    explanation_code: str = ""
    explanation_params: dict[str, str | int | float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Citation:
    n: int
    doc: str
    page: int | str | None
    clause: str
    start: int
    end: int
    text: str
    doc_id: str = ""
    chunk_id: str = ""
    page_end: int | str | None = None  # last PDF page of the cited passage (None: same as page)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Usage:
    """Token counts of one or more calls; ``estimated`` when any part was estimated from characters
    (an endpoint that sent no usage), so a sum with one estimated call is an estimate too."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    estimated: bool = False
    cached_prompt_tokens: int = 0  # prompt tokens whose KV cache was reused (the fixed system prompt)

    def add(self, other: Usage) -> None:
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens
        self.estimated = self.estimated or other.estimated
        self.cached_prompt_tokens += other.cached_prompt_tokens

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def to_json(self) -> dict[str, Any]:
        """The shape stored with a message and printed by ``ask --json``."""
        return {
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "total_tokens": self.total_tokens,
            "estimated": self.estimated,
            "cached_prompt_tokens": self.cached_prompt_tokens,
        }


@dataclass
class ChatTurn:
    role: Literal["user", "assistant"]
    content: str
    # an assistant turn: the ids of the documents its answer cited (a follow-up that refers back
    # to it is about those documents, ``steps.judging.judge_follow_up``)
    cited_docs: tuple[str, ...] = ()

    @classmethod
    def of_message(cls, role: Literal["user", "assistant"], content: str, citations: Any) -> ChatTurn:
        """A stored or posted message as history; its citations (objects with ``doc_id``, as ``ask``
        prints and the store keeps them) give the documents it cited. Anything else is ignored."""
        rows = citations if isinstance(citations, list) else []
        ids = (str(c.get("doc_id") or "") for c in rows if isinstance(c, dict))
        return cls(role, content, tuple(dict.fromkeys(d for d in ids if d)))
