"""What went wrong in a low-rated answer, read from its trace; and a corrected answer as an eval case.

Why from the trace: every answer stores what was retrieved, how each passage was judged, which
passages the answer model saw and how well each sentence was supported. Given the lawyer's
correct answer (or the gold clause text), the failing stage can be named without re-running
anything: the gold clause was never retrieved, it was retrieved but dropped by its verdict (or
cut by a limit), it reached the model but the answer refused, or the answer did not follow it.

Matching is lexical and deliberately simple: the share of the reference's units (Chinese
character bigrams, English content words, numbers by value) found in a passage. A correct answer
is short and restates the clause's facts, so its units recur in the clause that backs it.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Literal, get_args

from rag_core import textproc
from rag_core.reflection.support import numbers_in
from rag_core.trace import Trace

if TYPE_CHECKING:
    from storage.store import Store

Stage = Literal[
    "not_retrieved",
    "dropped_by_verdict",
    "cut_by_limit",
    "refused",
    "answer_unsupported",
    "answer_matches",
    "needs_reference",
]
STAGES: tuple[str, ...] = get_args(Stage)

GOLD_MATCH = 0.5
"""Share of the reference's units a passage must contain to count as the gold clause."""

ANSWER_MATCH = 0.6
"""Share of the reference's units the answer must contain to count as saying the same thing."""

MAX_SOURCE_CHUNKS = 3
"""Most matching passages recorded as an evaluation case's ``source_chunks``."""

FEEDBACK_TESTSET = "feedback"
"""The test set corrected answers are appended to."""

_LATIN_WORD = re.compile(r"[a-z][a-z'-]+")


@dataclass
class PassageMatch:
    """How well one candidate passage contains the reference."""

    chunk_id: str
    doc: str
    page: Any
    clause: str
    overlap: float
    label: str = ""  # verdict label; "" when the judge was off
    keep: bool = False  # kept by its verdict
    used: bool = False  # handed to the answer model (in an evidence block)


@dataclass
class Diagnosis:
    stage: Stage
    summary: str  # one English sentence (CLI, logs); the app words it from ``stage`` and ``best``
    best: PassageMatch | None = None
    matches: list[PassageMatch] = field(default_factory=list)
    answer_overlap: float | None = None
    unsupported: list[str] = field(default_factory=list)  # answer sentences judged unsupported

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def units(text: str) -> set[str]:
    """Comparable units of ``text``: CJK bigrams, English content words, numbers by value."""
    low = text.lower()
    out = set(textproc.bigrams(low))
    out |= {w for w in _LATIN_WORD.findall(low) if w not in textproc.ENGLISH_STOPWORDS}
    for forms in numbers_in(text, strict=False):
        out.add("#" + min(forms))
    return out


def _number_forms(text: str) -> set[str]:
    return {"#" + f for forms in numbers_in(text, strict=False) for f in forms}


def overlap(reference: str, text: str) -> float:
    """Share of ``reference``'s units found in ``text`` (0 when the reference has none)."""
    ref = units(reference)
    if not ref:
        return 0.0
    have = units(text) | _number_forms(text)
    return len(ref & have) / len(ref)


def missing_numbers(reference: str, text: str) -> list[str]:
    """Numbers of ``reference`` that ``text`` states under no reading: a wrong amount is a wrong answer."""
    have = _number_forms(text)
    return [
        min(forms) for forms in numbers_in(reference, strict=False) if not {"#" + f for f in forms} & have
    ]


def _used_ids(trace: Trace) -> set[str]:
    used: set[str] = set()
    for block in trace.blocks:
        used.add(block.chunk_id)
        used |= {c.chunk_id for c in block.children}
    return used


def candidates(trace: Trace) -> list[PassageMatch]:
    """Every passage the turn considered: the judged candidates, or the blocks when judging was off."""
    used = _used_ids(trace)
    out = [
        PassageMatch(v.chunk_id, v.doc, v.page, v.clause, 0.0, v.label, v.keep, v.chunk_id in used)
        for v in trace.verdict_list
    ]
    if not out:
        out = [PassageMatch(b.chunk_id, b.doc, b.page, b.clause, 0.0, "", True, True) for b in trace.blocks]
    return out


def _texts(trace: Trace) -> dict[str, str]:
    texts = {v.chunk_id: v.text for v in trace.verdict_list}
    for b in trace.blocks:
        texts.setdefault(b.chunk_id, b.text)
    return texts


def _unsupported(trace: Trace) -> list[str]:
    r = trace.reflection
    if r is None:
        return []
    support = r.support_after_regeneration or r.support
    return [s.sentence for s in support if s.label == "not" and s.counted]


def diagnose(
    trace: Trace,
    answer: str,
    refused: bool = False,
    reference: str = "",
    gold_chunk_ids: Sequence[str] = (),
) -> Diagnosis:
    """The earliest stage that lost the right answer.

    ``reference`` is the lawyer's correct answer or the gold clause text; ``gold_chunk_ids``
    name the gold passages directly when known (evaluation cases). Without either, only what
    the trace itself shows can be said (refusal, unsupported sentences).
    """
    unsupported = _unsupported(trace)
    passages = candidates(trace)
    if not reference.strip() and not gold_chunk_ids:
        if refused:
            return Diagnosis(
                "refused", "the answer refused: no passage qualified as evidence", unsupported=unsupported
            )
        if unsupported:
            return Diagnosis(
                "answer_unsupported",
                f"{len(unsupported)} answer sentence(s) not supported by the kept evidence",
                unsupported=unsupported,
            )
        return Diagnosis(
            "needs_reference", "give the correct answer to locate the failing stage", matches=passages
        )

    texts = _texts(trace)
    gold = set(gold_chunk_ids)
    for p in passages:
        p.overlap = 1.0 if p.chunk_id in gold else round(overlap(reference, texts.get(p.chunk_id, "")), 3)
    passages.sort(key=lambda p: -p.overlap)
    # A passage is the gold clause when it holds most of the reference *and* all its numbers:
    # "20%" is not backed by a clause that says "10%", however many words they share.
    matching = [
        p
        for p in passages
        if p.chunk_id in gold
        or (p.overlap >= GOLD_MATCH and not missing_numbers(reference, texts.get(p.chunk_id, "")))
    ]
    best = passages[0] if passages else None
    if not matching:
        share = f"{best.overlap:.0%}" if best else "no candidates"
        return Diagnosis(
            "not_retrieved",
            f"the gold clause was never retrieved (best candidate holds {share} of the reference)",
            best,
            passages,
            unsupported=unsupported,
        )
    used = [p for p in matching if p.used]
    if not used:
        top = matching[0]
        if top.keep:
            return Diagnosis(
                "cut_by_limit",
                f"the gold clause was kept ({top.label or 'no judge'}) but cut by the passage/context limits",
                top,
                passages,
                unsupported=unsupported,
            )
        return Diagnosis(
            "dropped_by_verdict",
            f"the gold clause was retrieved but dropped by its verdict ({top.label})",
            top,
            passages,
            unsupported=unsupported,
        )
    if refused:
        return Diagnosis(
            "refused",
            "the gold clause reached the answer model, but the answer refused",
            used[0],
            passages,
            unsupported=unsupported,
        )
    said = round(overlap(reference, answer), 3)
    if said < ANSWER_MATCH or unsupported or missing_numbers(reference, answer):
        return Diagnosis(
            "answer_unsupported",
            f"the gold clause reached the answer model, but the answer does not follow it "
            f"(answer holds {said:.0%} of the reference)",
            used[0],
            passages,
            said,
            unsupported,
        )
    return Diagnosis(
        "answer_matches",
        f"the answer already states the reference ({said:.0%}); the rating concerns something else",
        used[0],
        passages,
        said,
        unsupported,
    )


def eval_case(
    question: str,
    reference_answer: str,
    trace: Trace,
    gold_chunk_ids: Sequence[str] = (),
) -> dict[str, Any]:
    """A corrected answer as an evaluation case (``rag_core.evaluation.testset.EvalCase`` JSON shape).

    ``source_chunks`` are the given gold ids, else the considered passages that contain the
    reference, best first; none when the gold clause was never retrieved.
    """
    sources = list(dict.fromkeys(gold_chunk_ids))
    if not sources:
        texts = _texts(trace)
        scored = sorted(((overlap(reference_answer, t), cid) for cid, t in texts.items()), reverse=True)
        sources = [
            cid
            for score, cid in scored
            if score >= GOLD_MATCH and not missing_numbers(reference_answer, texts[cid])
        ][:MAX_SOURCE_CHUNKS]
    digest = hashlib.sha256(f"{question.strip()}\n{reference_answer.strip()}".encode()).hexdigest()[:12]
    return {
        "id": f"fb-{digest}",
        "question": question.strip(),
        "reference_answer": reference_answer.strip(),
        "source_chunks": sources,
        "origin": "feedback",
    }


def append_case(
    store: Store, case: Mapping[str, Any], kb_id: str = "", testset: str = FEEDBACK_TESTSET
) -> tuple[str, bool]:
    """Add ``case`` to the test set named ``testset`` (created when missing).

    Returns (test set id, added); a case with the same id or question is replaced, not doubled.
    """
    existing = store.evaluation.find_testset(testset)
    tid = existing.id if existing else ""
    cases: list[dict[str, Any]] = store.evaluation.cases(tid) if tid else []
    added = not any(c.get("id") == case["id"] or c.get("question") == case["question"] for c in cases)
    cases = [c for c in cases if c.get("id") != case["id"] and c.get("question") != case["question"]]
    cases.append(dict(case))
    kb = kb_id or (existing.kb_id if existing else "")
    return store.evaluation.save_testset(testset, kb, cases, tid), added
