"""The offline default judge: rules and fitted scores, no large model, 20 passages well under 1 s.

Why this composition: each of the four questions has its own module (injection rules, premise
slot alignment, and the fitted relevance/evidence models of ``fitted.py``, weights from
``train judge``); this class only checks the limits, runs them, and labels with seed 000's
``classify``. The explanation leads with what decided the label.
"""

from __future__ import annotations

import jieba

from rag_core.coded import code_of, coded, join
from rag_core.judge.base import PassageInput, check_limits, thresholds_of
from rag_core.judge.classify import CONFLICT, EVIDENCE, INJECTION, RELEVANCE, classify, floor_note
from rag_core.judge.clause_gate import asked_topics, mentions_topic
from rag_core.judge.clause_types import Topic
from rag_core.judge.conflict import YesNo, confirm_with_llm, conflict_score, premise_slots
from rag_core.judge.fitted import score as fitted_score
from rag_core.judge.fitted_explain import fitted_explanation
from rag_core.judge.forum_premise import forum_agreement
from rag_core.judge.injection import injection_score
from rag_core.judge.payables import OTHER_SUM, Payable, named_payables, other_sum
from rag_core.models import Label, Verdict
from rag_core.settings import VerdictSettings
from rag_core.textproc import plain_markdown


def explain(label: Label, why: dict[str, str]) -> str:
    """The explanation of a label: the reason of the score that decided it."""
    return {
        "INJECTION": why[INJECTION],
        "CONFLICTING": why[CONFLICT],
        "IRRELEVANT": why[RELEVANCE],
        "EVIDENCE": why[EVIDENCE],
        "NO_EVIDENCE": why[EVIDENCE],
    }[label]


def topic_note(topic: Topic, cap: float) -> str:
    """Why a passage's evidence was capped: it says nothing of the topic the question asks about.

    Why: "保密义务在合同终止后持续多久？" labelled a lease's deposit clause EVIDENCE (0.71, from "合同解除后")
    above the English confidentiality clause, and the answer quoted the deposit first."""
    return coded(
        "topic_not_mentioned",
        f"mentions nothing of {topic.en} ({topic.zh}), the topic asked (in either language): evidence capped at {cap:.2f}",
        topic_zh=topic.zh,
        topic_en=topic.en,
        topic_cap=cap,
    )


def entity_note(cap: float) -> str:
    """Why a passage's evidence was capped for a question that asks who a party is: it names none.

    Why: "Who is the licensee?" labelled every "Licensee shall …" clause of a licence EVIDENCE (0.86-0.92),
    beside the one preamble that names Bluefield Analytics LLC; the label told the lawyer nothing."""
    return coded(
        "entity_not_named",
        f"names no party (a company or person named as a party): evidence capped at {cap:.2f}",
        entity_cap=cap,
    )


def sum_note(asked: Payable, named: Payable, cap: float) -> str:
    """Why a passage's evidence was capped: it states another sum than the one asked (``payables``)."""
    return coded(
        OTHER_SUM,
        f"names the {named.en} ({named.zh}), not the {asked.en} ({asked.zh}) asked: evidence capped at {cap:.2f}",
        asked_zh=asked.zh,
        asked_en=asked.en,
        named_zh=named.zh,
        named_en=named.en,
        sum_cap=cap,
    )


def topic_text(p: PassageInput) -> str:
    """What the topic cap reads: the passage under its clause heading path.

    Why: "5.2 The obligations of this Section 5 continue … for five (5) years after the termination"
    names no confidentiality word, but it sits under "5. CONFIDENTIALITY"; read alone it was capped,
    and "How long does the confidentiality obligation last after termination?" was refused (browser
    try-out)."""
    return f"{p.clause}\n{p.text}" if p.clause else p.text


class LocalJudge:
    """Offline judge. ``yes_no`` (optional) lets ``logit_confirm_top`` ask a local LLM about conflicts."""

    name = "local"

    def __init__(self, settings: VerdictSettings, yes_no: YesNo | None = None) -> None:
        self.settings = settings
        self.yes_no = yes_no
        jieba.initialize()  # load the dictionary now (~1 s once), not inside the first timed request

    def scores(
        self, question: str, passages: list[PassageInput]
    ) -> list[tuple[dict[str, float], dict[str, str]]]:
        """The four scores and their reasons for each passage, without labelling (the LLM judge's fallback)."""
        slots = premise_slots(question)
        rel = fitted_score(question, [plain_markdown(p.text) for p in passages])
        inj = [injection_score(p.text) for p in passages]
        con = [conflict_score(slots, p.text) for p in passages]
        con_scores = [c[0] for c in con]
        confirmed = [False] * len(passages)
        top = self.settings.logit_confirm_top
        if self.yes_no is not None and top > 0:
            res = confirm_with_llm(question, [p.text for p in passages], con_scores, self.yes_no, top)
            con_scores = [r[0] for r in res]
            confirmed = [r[1] for r in res]
        topics = asked_topics(question)
        sums = named_payables(question)
        out: list[tuple[dict[str, float], dict[str, str]]] = []
        for i in range(len(passages)):
            scores = {
                INJECTION: inj[i][0],
                CONFLICT: con_scores[i],
                RELEVANCE: rel[i].relevance,
                EVIDENCE: rel[i].evidence,
            }
            con_why = con[i][1] or coded("con_none", "no value in the passage contradicts the question")
            if confirmed[i]:
                llm = coded("con_llm", f"(LLM-confirmed score {con_scores[i]:.2f})", llm_score=con_scores[i])
                con_why = join([con_why, llm], sep=" ")
            rel_why = fitted_explanation(rel[i], self.settings.t_clause_type)
            evi_why = rel_why
            cap = self.settings.topic_evidence_cap
            caps: list[str] = []
            headed = topic_text(passages[i])
            if topics and not mentions_topic(headed, topics):
                caps.append(topic_note(topics[0], cap))
            other = other_sum(sums, headed)
            if other:
                caps.append(sum_note(*other, cap))
            lex = rel[i].lexical
            if lex.kinds == ("entity",) and not lex.matched:
                caps.append(entity_note(cap))
            if caps:
                scores[EVIDENCE] = min(scores[EVIDENCE], cap)
                evi_why = join([*reversed(caps), rel_why], sep="; ")  # the party-name cap leads when both act
                # an IRRELEVANT row shows the fitted evidence too: say it was capped (the bar shows the cap)
                rel_why = join([rel_why, *caps], sep="; ")
            floor, agreed = forum_agreement(question, headed)
            if floor and not caps:
                scores[RELEVANCE] = max(scores[RELEVANCE], floor)
                scores[EVIDENCE] = max(scores[EVIDENCE], floor)
                rel_why = evi_why = join([agreed, rel_why], sep="; ")
            why = {INJECTION: inj[i][1], CONFLICT: con_why, RELEVANCE: rel_why, EVIDENCE: evi_why}
            out.append((scores, why))
        return out

    def judge(self, question: str, passages: list[PassageInput]) -> list[Verdict]:
        """One verdict per passage, in input order; ``LimitExceeded`` before any work if too large."""
        check_limits(question, passages, self.settings)
        thresholds = thresholds_of(self.settings)
        verdicts: list[Verdict] = []
        for p, (scores, why) in zip(passages, self.scores(question, passages), strict=True):
            label, keep = classify(scores, self.settings)
            why_label = join([floor_note(scores, self.settings), explain(label, why)], sep="; ")
            code, params = code_of(why_label)
            verdicts.append(
                Verdict(p.id, scores, label, keep, label, why_label, dict(thresholds), code, params)
            )
        return verdicts
