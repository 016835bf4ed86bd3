"""The answer obeys the labels (issue 10): two checks between evidence assembly and review.

- Absent clause: the question asks about a clause type and none of the evidence blocks is of it
  → "the documents contain no … clause", citing nothing (never a fact of another clause type);
  unless a searched passage is that clause type though it holds no answer evidence → that clause,
  quoted, with "no passage states what was asked" (``found_clause_hit``, ``quote_found_clause``).
- False premise: a CONFLICTING block is in the evidence → the answer must open by correcting the
  premise; a draft that affirms it is replaced by the quoted correction.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rag_core.coded import coded
from rag_core.generation import citations as cit
from rag_core.generation.prompt import EvidenceBlock
from rag_core.generation.quoted import QuotedAnswer
from rag_core.generation.refusal import absent_clause_text, empty_answer_for, found_clause_lead, is_risk_empty
from rag_core.judge.clause_gate import absent_clause_type, absent_topic, found_clause, found_topic
from rag_core.judge.clause_types import ClauseType, Topic
from rag_core.models import Hit, Verdict
from rag_core.reflection.premise import enforce_correction
from rag_core.settings import VerdictSettings
from rag_core.steps.events import AnswerReset, Event, Token
from rag_core.steps.turn import Turn


@dataclass(frozen=True)
class AbsentClause:
    """The asked clause type (or named topic) that no evidence block is; ``found``: a retrieved
    passage looks like it, but none was kept as evidence."""

    kind: ClauseType | Topic
    found: bool


def missing_kind(question: str, texts: list[str], settings: VerdictSettings) -> ClauseType | Topic | None:
    """The asked clause type or named topic that none of ``texts`` is (``None``: none asked, or present)."""
    return absent_clause_type(question, texts, settings) or absent_topic(question, texts)


def absent_clause(
    turn: Turn,
    blocks: Sequence[EvidenceBlock],
    verdicts: Sequence[Verdict],
    judged: bool,
    retrieved: Sequence[str] = (),
    kept: Sequence[str] = (),
) -> AbsentClause | None:
    """The asked clause type (or named topic) when no evidence block (none CONFLICTING) is of it, nor any
    kept passage (``kept``: their texts); only when judged, and never when the judge removed injections and
    kept nothing (that answer is the knowledge base's configured text alone). ``retrieved``: the texts of every
    judged passage, which tell whether the documents have the clause at all.

    Why the kept passages: a block may be the kept clause's whole parent, where the clause is one part of many.
    "合同的有效期是多久？" over a joint venture agreement kept its DURATION passage (Expiration Date 0.91) but the
    block handed on, 1,365 characters of royalty and duration terms, scored 0.46, and at ``t_clause_type`` 0.55 the
    question was refused (``bench refusal``, session 39)."""
    if not judged or any(b.conflicting for b in blocks) or is_risk_empty(list(verdicts)):
        return None
    kind = missing_kind(turn.asked_question, [*(b.text for b in blocks), *kept], turn.settings.verdict)
    if kind is None:
        return None
    found = (
        bool(retrieved) and missing_kind(turn.asked_question, list(retrieved), turn.settings.verdict) is None
    )
    return AbsentClause(kind, found)


def refuse_absent_clause(turn: Turn, absent: AbsentClause, searched: int) -> Iterator[Event]:
    """Refuse with "the documents contain no … clause" (or, when it was found, "passages look like
    such a clause, none answers"); nothing is cited."""
    req = turn.req
    turn.refused = True
    clause = absent.kind
    kb_empty = req.kbs[0].empty_answer if req.kbs else ""
    lead = empty_answer_for(turn.language, kb_empty, turn.settings.generation)
    turn.answer = absent_clause_text(turn.language, clause.zh, clause.en, searched, lead, absent.found)
    if absent.found:
        note = coded(
            "absent_clause_found",
            f"passages that look like a {clause.en} clause were retrieved but none was kept as evidence: refused instead of "
            "answering from another clause",
            clause_type=clause.name,
        )
    else:
        note = coded(
            "absent_clause",
            f"no evidence passage is a {clause.en} clause: refused instead of answering from another clause",
            clause_type=clause.name,
        )
    turn.notes.append(note)
    yield Token(turn.answer)


@dataclass(frozen=True)
class FoundClause:
    """The searched passage quoted as the asked clause, and the asked kind of value the judge found
    it lacks ("period", from its ``rel_lacks`` explanation; "" when none was named)."""

    hit: Hit
    lacks: str = ""


def found_clause_hit(
    turn: Turn, absent: AbsentClause, verdicts: Sequence[Verdict], hits: Sequence[Hit]
) -> FoundClause | None:
    """The searched passage to quote as the asked clause (``clause_gate.found_clause``, or
    ``found_topic`` for a named topic); only when the absent-clause gate found passages that look
    like it."""
    if not absent.found:
        return None
    by_id = {h.chunk_id: h for h in hits}
    judged = [v for v in verdicts if v.passage_id in by_id]
    texts = [by_id[v.passage_id].text for v in judged]
    find = found_clause if isinstance(absent.kind, ClauseType) else found_topic
    i = find(turn.asked_question, texts, judged, turn.settings.verdict)
    if i is None:
        return None
    v = judged[i]
    lacks = str(v.explanation_params.get("kind", "")) if "rel_lacks" in v.explanation_code else ""
    return FoundClause(by_id[v.passage_id], lacks)


def quote_found_clause(
    turn: Turn,
    absent: AbsentClause,
    found: FoundClause,
    quoted: QuotedAnswer,
    blocks: Sequence[EvidenceBlock],
    searched: int,
) -> Iterator[Event]:
    """Answer with the asked clause quoted and "no passage states what was asked"; refuse as before
    when nothing of it can be quoted. Written, not generated: a model handed a clause without the
    asked detail tends to supply the detail."""
    clause = absent.kind
    lead = found_clause_lead(turn.language, clause.zh, clause.en, found.lacks)
    answer = quoted.render(turn.language, {turn.language: lead})
    valid = cit.check_citations(answer, blocks).valid if answer else []
    if not valid:
        yield from refuse_absent_clause(turn, absent, searched)
        return
    turn.answer = answer
    turn.citations = cit.build_citations(valid, blocks)
    turn.notes.append(
        coded(
            "clause_found_quoted",
            f"no passage holds answer evidence, but one is a {clause.en} clause: quoted it, saying that no "
            "passage states what was asked",
            clause_type=clause.name,
        )
    )
    yield Token(answer)


def correct_premise(turn: Turn, blocks: Sequence[EvidenceBlock]) -> Iterator[Event]:
    """Make the draft open with the premise's correction when a CONFLICTING block is present."""
    fixed, why = enforce_correction(turn.answer, turn.req.question, blocks, turn.language)
    if why:
        turn.notes.append(coded("premise_corrected", why))
        yield AnswerReset(why)
        turn.answer = fixed
        yield Token(fixed)
