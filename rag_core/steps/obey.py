"""The answer obeys the labels (issue 10): two checks between evidence assembly and review.

- Absent clause: the question asks about a clause type and none of the evidence blocks is of it
  → "the documents contain no … clause", citing nothing (never a fact of another clause type).
- False premise: a CONFLICTING block is in the evidence → the answer must open by correcting the
  premise; a draft that affirms it is replaced by the quoted correction.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from rag_core.coded import coded
from rag_core.generation.prompt import EvidenceBlock
from rag_core.generation.refusal import absent_clause_text, empty_answer_for, is_risk_empty
from rag_core.judge.clause_gate import absent_clause_type, absent_topic
from rag_core.judge.clause_types import ClauseType, Topic
from rag_core.models import Verdict
from rag_core.reflection.premise import enforce_correction
from rag_core.steps.events import AnswerReset, Event, Token
from rag_core.steps.turn import Turn


def absent_clause(
    turn: Turn, blocks: Sequence[EvidenceBlock], verdicts: Sequence[Verdict], judged: bool
) -> ClauseType | Topic | None:
    """The asked clause type (or named topic) when no evidence block (none CONFLICTING) is of it;
    only when judged, and never when the judge removed injections and kept nothing (that answer is
    the knowledge base's configured text alone)."""
    if not judged or any(b.conflicting for b in blocks) or is_risk_empty(list(verdicts)):
        return None
    texts = [b.text for b in blocks]
    return absent_clause_type(turn.asked_question, texts, turn.settings.verdict) or absent_topic(
        turn.asked_question, texts
    )


def refuse_absent_clause(turn: Turn, clause: ClauseType | Topic, searched: int) -> Iterator[Event]:
    """Refuse with "the documents contain no … clause"; nothing is cited."""
    req = turn.req
    turn.refused = True
    kb_empty = req.kbs[0].empty_answer if req.kbs else ""
    lead = empty_answer_for(turn.language, kb_empty, turn.settings.generation)
    turn.answer = absent_clause_text(turn.language, clause.zh, clause.en, searched, lead)
    turn.notes.append(
        coded(
            "absent_clause",
            f"no evidence passage is a {clause.en} clause: refused instead of answering from another clause",
            clause_type=clause.name,
        )
    )
    yield Token(turn.answer)


def correct_premise(turn: Turn, blocks: Sequence[EvidenceBlock]) -> Iterator[Event]:
    """Make the draft open with the premise's correction when a CONFLICTING block is present."""
    fixed, why = enforce_correction(turn.answer, turn.req.question, blocks, turn.language)
    if why:
        turn.notes.append(coded("premise_corrected", why))
        yield AnswerReset(why)
        turn.answer = fixed
        yield Token(fixed)
