"""What the pipeline yields while it answers, and what it returns.

Why events: the UI shows the evidence panel as soon as passages are judged and streams the answer
beside it; the CLI simply collects the final ``Done``. ``AskResult.trace`` is the typed trace.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rag_core.answer_records import QuotedRecord
from rag_core.generation.quoted import QuotedAnswer
from rag_core.models import ChatTurn, Citation, Hit, KnowledgeBase, Usage
from rag_core.retrieval.query_building import RetrievalQuery
from rag_core.trace import Trace, VerdictRecord


@dataclass
class AskRequest:
    question: str
    kbs: list[KnowledgeBase]
    history: list[ChatTurn] = field(default_factory=list)
    think: bool = False
    judge: bool | None = None  # None = settings.verdict.enabled


@dataclass
class Retrieved:
    query: RetrievalQuery
    hits: list[Hit]


@dataclass
class Verdicts:
    verdicts: tuple[VerdictRecord, ...]
    kept: int


@dataclass
class Quoted:
    """The quoted answer: the evidence sentences that best answer the question, at once."""

    quoted: QuotedAnswer


@dataclass
class Thinking:
    text: str


@dataclass
class Token:
    text: str


@dataclass
class AnswerReset:
    """The streamed draft is withdrawn (unsupported); a revised answer follows."""

    reason: str


@dataclass
class Citations:
    citations: list[Citation]


@dataclass
class AskResult:
    question: str
    answer: str = ""
    thinking: str = ""
    refused: bool = False
    citations: list[Citation] = field(default_factory=list)
    trace: Trace = field(default_factory=Trace)
    usage: Usage = field(default_factory=Usage)

    @property
    def verdicts(self) -> tuple[VerdictRecord, ...]:
        return self.trace.verdict_list

    @property
    def quoted(self) -> tuple[QuotedRecord, ...]:
        return self.trace.quoted

    def to_json(self) -> dict[str, Any]:
        """The CLI ``ask --json`` shape."""
        return {
            "answer": self.answer,
            "thinking": self.thinking,
            "refused": self.refused,
            "citations": [c.to_json() for c in self.citations],
            "verdicts": [v.to_json() for v in self.verdicts],
            "trace": self.trace.to_json(),
            "usage": self.usage.to_json(),
            "quoted": [q.to_json() for q in self.quoted],
        }


@dataclass
class Done:
    result: AskResult


Event = Retrieved | Verdicts | Quoted | Thinking | Token | AnswerReset | Citations | Done
