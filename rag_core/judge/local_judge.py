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
from rag_core.judge.clause_types import Topic, thesaurus_types
from rag_core.judge.conflict import YesNo, confirm_with_llm, conflict_score, premise_slots
from rag_core.judge.fitted import FittedScores
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


def other_clause_note(
    fit: FittedScores, unmentioned: Topic | None, named_type: bool, conflict: float, s: VerdictSettings
) -> str:
    """Why a passage's conflict is held at ``t_conflict`` ("" when it is not): the passage is not about the question
    (relevance below ``t_relevance``: the classify order asks about conflict first, and the seed's judge was an LLM
    that would not read a value of an unrelated clause as contradicting the premise), the question's words name a
    clause type (``named_type``: the thesaurus, not the classifier's guess, which typed "The processor may
    keep personal data for five years, right?" as IP ownership) the passage is not (below
    ``t_clause_type``) and looks like another type (a one-line "The late-payment penalty is $8,000." is
    liquidated damages at 24%, its best type: still the asked clause), or the question asks about a topic
    the passage never mentions (``unmentioned``, the topic whose evidence cap applies): its other value is
    of another clause.

    Why (try-out, session 36): "The non-solicitation period is six months, right?" labelled an asset
    purchase's four-year non-compete ("For a period of four (4) years…", relevance 0.17, No-Solicit 2%)
    CONFLICTING, and the correction led with it; the non-solicitation clauses themselves say twelve months.
    "The lock-up period is 24 months, right?" (a share-transfer topic) did the same with a carriage
    contract's "本合同有效期一年" (session 37)."""
    if conflict <= s.t_conflict:
        return ""
    if fit.relevance < s.t_relevance:
        # session 39 try-out: "The break notice is three months, right?" had ten CONFLICTING passages, among them a
        # technical service contract's warranty clause (relevance 0.11, "在接到故障通知后四小时内响应"), which led the
        # correction above the lease's break clause (six months' notice)
        return coded(
            "con_off_question",
            f"not about the question (relevance {fit.relevance:.2f} below {s.t_relevance:.2f}): its value does not "
            f"contradict the question (conflict {conflict:.2f} held at {s.t_conflict:.2f})",
            relevance=fit.relevance,
            conflict=conflict,
        )
    if unmentioned is not None:
        return coded(
            "con_other_topic",
            f"mentions nothing of {unmentioned.en} ({unmentioned.zh}), the topic asked: a value of another clause "
            f"does not contradict the question (conflict {conflict:.2f} held at {s.t_conflict:.2f})",
            topic_zh=unmentioned.zh,
            topic_en=unmentioned.en,
            conflict=conflict,
        )
    if (
        not named_type
        or not fit.asked_types
        or fit.type_prob >= s.t_clause_type
        or fit.best_type == fit.asked_types[0]
    ):
        return ""
    return coded(
        "con_other_type",
        f"not the asked clause type, {fit.asked_types[0]} ({fit.type_prob:.0%}): a value of another clause "
        f"does not contradict the question (conflict {conflict:.2f} held at {s.t_conflict:.2f})",
        clause_type=fit.asked_types[0],
        type_prob=fit.type_prob,
        conflict=conflict,
    )


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
        named_type = bool(thesaurus_types(question))
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
            headed = topic_text(passages[i])
            unmentioned = topics[0] if topics and not mentions_topic(headed, topics) else None
            off_type = other_clause_note(rel[i], unmentioned, named_type, scores[CONFLICT], self.settings)
            if off_type:
                scores[CONFLICT] = self.settings.t_conflict
                con_why = join([off_type, con_why], sep="; ")
            if confirmed[i]:
                llm = coded("con_llm", f"(LLM-confirmed score {con_scores[i]:.2f})", llm_score=con_scores[i])
                con_why = join([con_why, llm], sep=" ")
            rel_why = fitted_explanation(rel[i], self.settings.t_clause_type)
            evi_why = rel_why
            cap = self.settings.topic_evidence_cap
            caps: list[str] = []
            if unmentioned is not None:
                caps.append(topic_note(unmentioned, cap))
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
