"""Turn four scores into a label, choose the passages handed on, and re-label under new thresholds.

Why here and pure: the order of the checks *is* the product's safety policy (seed 000). Injection
is checked first so that a passage that both attacks and contradicts is dropped; a passage that
contradicts the question's premise is kept even when it looks off-topic, so the answer model can
correct the user instead of following a false assumption. Keeping this free of any judge makes the
admin "threshold lab" (``reclassify``) exact: same scores, new thresholds, no new judge calls.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from rag_core.coded import CodedText, code_of, coded, join
from rag_core.judge.base import thresholds_of
from rag_core.models import Label, Verdict
from rag_core.settings import VerdictSettings

INJECTION = "contains_prompt_injection"
CONFLICT = "contradicts_query_premise"
RELEVANCE = "is_relevant"
EVIDENCE = "contains_answer_evidence"


def classify(scores: dict[str, float], s: VerdictSettings) -> tuple[Label, bool]:
    """Label and keep-flag in seed 000's order; a score equal to its threshold does not trigger it.

    injection > t_injection → drop INJECTION; conflict > t_conflict → keep CONFLICTING;
    relevance < t_relevance → drop IRRELEVANT; evidence > t_evidence with relevance at least
    t_evidence_relevance → keep EVIDENCE, else drop NO_EVIDENCE. A missing score is a bug in the
    judge, so it raises ``KeyError``.
    """
    if scores[INJECTION] > s.t_injection:
        return "INJECTION", False
    if scores[CONFLICT] > s.t_conflict:
        return "CONFLICTING", True
    if scores[RELEVANCE] < s.t_relevance:
        return "IRRELEVANT", False
    if scores[EVIDENCE] > s.t_evidence and not below_evidence_floor(scores, s):
        return "EVIDENCE", True
    return "NO_EVIDENCE", False


def below_evidence_floor(scores: dict[str, float], s: VerdictSettings) -> bool:
    """Relevant enough to keep looking at, not enough to be evidence (``t_evidence_relevance``).

    Why: evidence implies relevance, yet the two are fitted apart, and "What is the monthly rent
    under the lease?" took a software licence's fee clause (relevance 0.22, evidence 0.61, from
    "per month" and an amount) as EVIDENCE and answered "1% per month"."""
    return scores[RELEVANCE] < s.t_evidence_relevance


def floor_note(scores: dict[str, float], s: VerdictSettings) -> str:
    """Why a passage with evidence above ``t_evidence`` is NO_EVIDENCE ("" when it is not)."""
    if scores[EVIDENCE] <= s.t_evidence or not below_evidence_floor(scores, s):
        return ""
    rel = scores[RELEVANCE]
    return coded(
        "evidence_floor",
        f"relevance {rel:.2f} is below {s.t_evidence_relevance:.2f}, the least an evidence passage needs",
        floor_relevance=rel,
        evidence_floor=s.t_evidence_relevance,
    )


def below_margin(evidence: float, top: float, s: VerdictSettings) -> bool:
    """More than ``evidence_margin`` below the strongest EVIDENCE passage's evidence ``top``."""
    return evidence < top - s.evidence_margin


def margin_note(evidence: float, top: float, s: VerdictSettings) -> CodedText:
    """Why an EVIDENCE-scoring passage is NO_EVIDENCE: a stronger passage answers."""
    return coded(
        "evidence_margin",
        f"evidence {evidence:.2f} is more than {s.evidence_margin:.2f} below the strongest passage's "
        f"{top:.2f}: a stronger passage answers",
        margin_evidence=evidence,
        margin_top=top,
        evidence_margin=s.evidence_margin,
    )


def document_of(doc_of: Mapping[str, str] | None) -> Callable[[Verdict], str]:
    """A verdict's document id by its passage id ("" for all of them when ``doc_of`` is not given)."""
    return (lambda v: doc_of.get(v.passage_id, "")) if doc_of else (lambda v: "")


def document_tops(evidence: Iterable[tuple[str, float]]) -> dict[str, float]:
    """The strongest evidence score per document, from (document id, evidence) of EVIDENCE passages
    ("" stands for every passage whose document is not known)."""
    tops: dict[str, float] = {}
    for doc, score in evidence:
        tops[doc] = max(tops.get(doc, -1.0), score)
    return tops


def margin_strength(v: Verdict, s: VerdictSettings) -> float:
    """How strongly an EVIDENCE passage answers, as the bar others are measured against: its evidence, but no more
    than its relevance when that is below ``t_evidence`` — a passage holding the answer is on topic, so evidence
    far above a low relevance is the evidence model reading words, not an answer.

    Why (session 43 browser): "When is it payable?" after a subscription-fee question gave the liability clause
    ("fees paid or payable in that contract year") evidence 0.84 at relevance 0.37; as the top it dropped the fee
    clause (evidence 0.66, relevance 0.87) by the margin, and the local model answered "payable at the end of each
    contract year". The passage itself still stands or falls by its own evidence. (The lesser of the two for every
    passage lowered the bar on most questions and let weaker clauses in: tried, not kept.)"""
    evidence, relevance = v.scores[EVIDENCE], v.scores[RELEVANCE]
    return evidence if relevance >= s.t_evidence else min(evidence, relevance)


def apply_evidence_margin(
    verdicts: Sequence[Verdict], s: VerdictSettings, doc_of: Mapping[str, str] | None = None
) -> list[Verdict]:
    """EVIDENCE verdicts more than ``evidence_margin`` below the strongest one (``margin_strength``) *of the same document*
    (``doc_of``: passage id → document id; without it, all one document) become NO_EVIDENCE and are
    dropped; the rest stand.

    Why: a lawyer reads EVIDENCE as "this passage answers"; when one passage answers at 0.94, a
    passage at 0.62 is a weaker reading of the same question, and most such passages hold no gold
    span. On the fit part (``train thresholds``, two folds by contract) a margin of 0.15 raised
    EVIDENCE precision 0.602 → 0.628 without losing one answer or refusal. Why per document: a
    passage of another contract is that contract's answer, not a weaker one — "How long does the
    confidentiality obligation last?" over a licence and two Chinese contracts dropped the licence's
    own "five (5) years" clause (0.56) below a Chinese one (0.72). Set-wise by nature, so the chat,
    the lab and ``reclassify`` all apply it after the per-passage labels."""
    doc = document_of(doc_of)
    tops = document_tops((doc(v), margin_strength(v, s)) for v in verdicts if v.label == "EVIDENCE")
    out: list[Verdict] = []
    for v in verdicts:
        top = tops.get(doc(v), -1.0)
        if v.label != "EVIDENCE" or not below_margin(v.scores[EVIDENCE], top, s):
            out.append(v)
            continue
        old = CodedText(v.explanation, v.explanation_code, v.explanation_params)
        note = margin_note(v.scores[EVIDENCE], top, s)
        out.append(relabelled(v, "NO_EVIDENCE", False, join([note, old])))
    return out


def _rank_key(indexed: tuple[int, Verdict]) -> tuple[int, float, float, int]:
    """Sort key: CONFLICTING first, then by evidence, then relevance, then retrieval order.

    CONFLICTING passages lead because they carry the correction of the user's premise that the
    answer must state; a limit that cut them off would let the answer follow the false premise.
    Among them, the stronger conflict comes first. Everything else ranks by evidence confidence.
    """
    i, v = indexed
    if v.label == "CONFLICTING":
        return (0, -v.scores[CONFLICT], -v.scores[EVIDENCE], i)
    return (1, -v.scores[EVIDENCE], -v.scores[RELEVANCE], i)


def select_kept(verdicts: list[Verdict], s: VerdictSettings) -> list[Verdict]:
    """The kept verdicts handed on: CONFLICTING first, then by evidence confidence, at most ``max_kept``."""
    kept = [(i, v) for i, v in enumerate(verdicts) if v.keep]
    kept.sort(key=_rank_key)
    return [v for _, v in kept[: s.max_kept]]


def _relabel_note(old: Verdict, label: Label, s: VerdictSettings) -> str:
    """Why the label changed, stated from the stored score and the new threshold."""
    sc = old.scores
    score, op, limit = {
        "INJECTION": (sc[INJECTION], ">", s.t_injection),
        "CONFLICTING": (sc[CONFLICT], ">", s.t_conflict),
        "IRRELEVANT": (sc[RELEVANCE], "<", s.t_relevance),
        "EVIDENCE": (sc[EVIDENCE], ">", s.t_evidence),
        "NO_EVIDENCE": (sc[EVIDENCE], "≤", s.t_evidence),
    }[label]
    name = {"INJECTION": "injection", "CONFLICTING": "conflict", "IRRELEVANT": "relevance"}.get(
        label, "evidence"
    )
    if label == "NO_EVIDENCE" and floor_note(sc, s):  # evidence passed; relevance did not
        score, op, limit, name = sc[RELEVANCE], "<", s.t_evidence_relevance, "relevance"
    text = (
        f"re-labelled {old.label}→{label} under new thresholds: {name} score {score:.2f} {op} {limit:.2f}; "
        f"judged: {old.explanation}"
    )
    params: dict[str, str | int | float] = {
        "old_label": old.label,
        "new_label": label,
        "score_name": "score_" + name,
        "relabel_score": score,
        "relabel_op": op,
        "relabel_threshold": limit,
    }
    if not old.explanation_code:  # what the judge found has no code: the whole note has none
        return text
    params.update(old.explanation_params)
    return coded("relabel+" + old.explanation_code, text, **params)


def reclassify(
    verdicts: list[Verdict], s: VerdictSettings, doc_of: Mapping[str, str] | None = None
) -> list[Verdict]:
    """The same verdicts re-labelled from their stored scores under ``s``; no judge is called.

    An unchanged label keeps its explanation; a changed one says which score crossed which
    threshold (or that a stronger passage of its document answers, ``evidence_margin``; ``doc_of``:
    passage id → document id), followed by what the judge originally found.
    """
    labels = [classify(v.scores, s) for v in verdicts]
    doc = document_of(doc_of)
    tops = document_tops(
        (doc(v), v.scores[EVIDENCE]) for v, (lb, _) in zip(verdicts, labels, strict=True) if lb == "EVIDENCE"
    )
    out: list[Verdict] = []
    for v, (label, keep) in zip(verdicts, labels, strict=True):
        top = tops.get(doc(v), -1.0)
        margin = label == "EVIDENCE" and below_margin(v.scores[EVIDENCE], top, s)
        if margin:
            label, keep = "NO_EVIDENCE", False
        old = CodedText(v.explanation, v.explanation_code, v.explanation_params)
        if label == v.label:
            explanation: str = old
        elif margin:
            explanation = join([margin_note(v.scores[EVIDENCE], top, s), old])
        else:
            explanation = _relabel_note(v, label, s)
        out.append(relabelled(v, label, keep, explanation, thresholds=thresholds_of(s)))
    return out


def relabelled(v: Verdict, label: Label, keep: bool, explanation: str, **changes: Any) -> Verdict:
    """The verdict with a new label and explanation (its code and parameters taken from a coded
    ``explanation``), and any other fields in ``changes``."""
    code, params = code_of(explanation)
    return replace(
        v,
        label=label,
        keep=keep,
        reason=label,
        explanation=explanation,
        explanation_code=code,
        explanation_params=params,
        **changes,
    )
