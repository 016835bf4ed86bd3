"""The answer being built: what the streaming steps write into, frozen into the trace at the end.

Why one mutable record here and frozen records everywhere else: generation and review stream,
so the answer text, thinking, usage and prompts grow while events go out; everything a step
decides once (query, retrieval, verdicts, evidence, review) is a frozen record the step returns.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from rag_core.answer_records import PromptPlanRecord, QuotedRecord
from rag_core.generation.prompt import EvidenceBlock, Language, question_language
from rag_core.models import Citation, Usage
from rag_core.settings import Settings
from rag_core.steps.events import AskRequest, AskResult, Citations, Done, Event
from rag_core.trace import (
    EvidenceRecord,
    ModelsRecord,
    QueryRecord,
    ReflectionRecord,
    RetrievalRecord,
    RetrieveOrNotRecord,
    Trace,
    VerdictStage,
)


class Clock:
    """Milliseconds per stage since the previous lap, and in all."""

    def __init__(self) -> None:
        self.t0 = time.perf_counter()
        self.last = self.t0
        self.stages: dict[str, float] = {}

    def lap(self, stage: str) -> None:
        now = time.perf_counter()
        self.stages[stage] = round((now - self.last) * 1000, 1)
        self.last = now

    def total_ms(self) -> float:
        return round((time.perf_counter() - self.t0) * 1000, 1)

    def mark(self, milestones: dict[str, float], name: str) -> None:
        """Milliseconds since the question was asked, recorded once per milestone."""
        milestones.setdefault(name, self.total_ms())


@dataclass
class Turn:
    """One question on its way to an answer."""

    req: AskRequest
    settings: Settings
    models: ModelsRecord
    language: Language = "zh"
    clock: Clock = field(default_factory=Clock)
    answer: str = ""
    thinking: str = ""
    refused: bool = False
    citations: list[Citation] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    notes: list[str] = field(default_factory=list)
    prompts: list[str] = field(default_factory=list)
    cancelled: bool = False
    retrieve_or_not: RetrieveOrNotRecord | None = None
    query: QueryRecord | None = None
    retrieval: RetrievalRecord | None = None
    verdicts: VerdictStage | None = None
    evidence: EvidenceRecord = field(default_factory=EvidenceRecord)
    reflection: ReflectionRecord | None = None
    quoted: tuple[QuotedRecord, ...] = ()
    fallback: str = ""  # the quoted answer as the unsupported-answer fallback text
    all_blocks: tuple[EvidenceBlock, ...] = ()  # every evidence block (the prompt may show fewer)
    prompt_plan: PromptPlanRecord | None = None
    milestones: dict[str, float] = field(default_factory=dict)

    @classmethod
    def start(cls, req: AskRequest, settings: Settings, models: ModelsRecord) -> Turn:
        return cls(req, settings, models, language=question_language(req.question))

    @property
    def asked_question(self) -> str:
        """This turn's question without a routed contract's name (``steps.judging.judged_question``):
        what the clause-type gate reads."""
        return self.query.judged if self.query and self.query.judged else self.req.question

    @property
    def judged_question(self) -> str:
        """What the judge and the sentence scorer read: the asked question, or the follow-up with the
        previous question when the question alone found no evidence (``steps.judging.judge_follow_up``)."""
        return self.query.in_context if self.query and self.query.in_context else self.asked_question

    def trace(self) -> Trace:
        """The frozen trace of what happened so far."""
        return Trace(
            question=self.req.question,
            language=self.language,
            kbs=tuple(kb.name for kb in self.req.kbs),
            think=self.req.think,
            settings=self.settings.snapshot(),
            models=self.models,
            retrieve_or_not=self.retrieve_or_not,
            query=self.query,
            retrieval=self.retrieval,
            verdicts=self.verdicts,
            evidence=self.evidence,
            prompts=tuple(self.prompts),
            reflection=self.reflection,
            notes=tuple(self.notes),
            timings_ms={**self.clock.stages, "total": self.clock.total_ms()},
            cancelled=self.cancelled,
            quoted=self.quoted,
            prompt_plan=self.prompt_plan,
            milestones_ms=dict(self.milestones),
        )

    def result(self) -> AskResult:
        return AskResult(
            question=self.req.question,
            answer=self.answer,
            thinking=self.thinking,
            refused=self.refused,
            citations=list(self.citations),
            trace=self.trace(),
            usage=self.usage,
        )

    def done(self) -> Iterator[Event]:
        """The closing events: the citations, then the result."""
        yield Citations(list(self.citations))
        yield Done(self.result())
