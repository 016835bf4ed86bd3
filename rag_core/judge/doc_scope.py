"""Document scope: in a base of several contracts, a question whose words one contract uses and
another does not is about the first; the other's passages cannot be its evidence.

Why (issue 10): the follow-up "股权转让价款是多少？ 那什么时候付？" over a share-transfer agreement and a
lease kept the lease's rent and deposit clauses as EVIDENCE (about 0.78: they say when something is
paid), and the quoted answer added lease sentences after the share agreement's. The lease never
says 股权, 转让 or 价款; the share agreement says all four of the question's words. The judge reads one
passage at a time and cannot see that; the whole documents can.

The rule compares whole documents, never passages: a document is out of scope when the question
words it uses (in its own language or, through the glossary, translated) are a strict subset of
another searched document's and at most ``doc_scope_max_share`` of them. The share was chosen on
pairs of training contracts (``scope_sweep``, ``python -m rag_core train doc-scope``): how often the
contract that holds the asked clause would be scoped out against how often one that lacks it would.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from rag_core.coded import CodedText, code_of, coded, join
from rag_core.judge.classify import EVIDENCE, classify
from rag_core.judge.relevance import term_in, terms
from rag_core.models import Verdict
from rag_core.settings import JudgeTrainSettings, VerdictSettings

SWEEP_SHARES: tuple[float, ...] = (0.25, 0.34, 0.5, 0.67, 0.99)
"""The candidate values of ``doc_scope_max_share`` that ``scope_sweep`` reports."""

PHRASINGS: int = 2
"""Phrasings asked per (contract, category) in the sweep: every category has at least two."""


@lru_cache(maxsize=64)
def _doc_view(text: str) -> tuple[frozenset[str], str]:
    """A document's content terms and lowered text, once per text (a chat asks many questions of
    the same few contracts; a long contract takes jieba a noticeable moment)."""
    return frozenset(terms(text)), text.lower()


def covered_terms(question: str, text: str) -> frozenset[str]:
    """The question's content words that the document uses, itself or translated."""
    doc_terms, low = _doc_view(text)
    return frozenset(t for t in dict.fromkeys(terms(question)) if term_in(t, doc_terms, low, translated=True))


def dominated(mine: frozenset[str], other: frozenset[str], max_share: float) -> bool:
    """``other`` uses every question word ``mine`` does, and ``mine`` at most ``max_share`` of ``other``'s."""
    return mine < other and len(mine) <= max_share * len(other)


@dataclass(frozen=True)
class OutOfScope:
    """Why a document is out of the question's scope: the words another document uses and it lacks."""

    doc_id: str
    missing: tuple[str, ...]
    other_doc: str


def out_of_scope(
    question: str, docs: Mapping[str, tuple[str, str]], max_share: float
) -> dict[str, OutOfScope]:
    """Document id → why it is out of scope, for ``docs`` (id → (name, text)); empty with one document.

    A document is compared with the one that covers the most question words (ties: the first), so
    the reason names one clear alternative."""
    if len(docs) < 2:
        return {}
    cover = {d: covered_terms(question, text) for d, (_, text) in docs.items()}
    best = max(cover, key=lambda d: len(cover[d]))
    out: dict[str, OutOfScope] = {}
    for d, mine in cover.items():
        if d != best and dominated(mine, cover[best], max_share):
            missing = tuple(t for t in dict.fromkeys(terms(question)) if t in cover[best] - mine)
            out[d] = OutOfScope(d, missing, docs[best][0])
    return out


def scope_note(why: OutOfScope, cap: float) -> CodedText:
    """The reason shown on a capped verdict."""
    words = "、".join(why.missing)
    return coded(
        "doc_out_of_scope",
        f"the question's words {words} are in {why.other_doc}, not in this document: "
        f"evidence capped at {cap:.2f}",
        scope_words=words,
        scope_doc=why.other_doc,
        scope_cap=cap,
    )


def cap_verdict(v: Verdict, why: OutOfScope, s: VerdictSettings) -> Verdict:
    """The verdict with its evidence capped and re-labelled; INJECTION and CONFLICTING stand (a
    planted attack or a contradicted premise is worth showing whatever the document)."""
    cap = s.doc_scope_evidence_cap
    if v.label in ("INJECTION", "CONFLICTING") or v.scores.get(EVIDENCE, 0.0) <= cap:
        return v
    scores = {**v.scores, EVIDENCE: cap}
    label, keep = classify(scores, s)
    text = join([scope_note(why, cap), CodedText(v.explanation, v.explanation_code, v.explanation_params)])
    code, params = code_of(text)
    return replace(
        v,
        scores=scores,
        label=label,
        keep=keep,
        reason=label,
        explanation=str(text),
        explanation_code=code,
        explanation_params=params,
    )


def apply_doc_scope(
    question: str,
    verdicts: Sequence[Verdict],
    doc_of: Mapping[str, str],
    docs: Mapping[str, tuple[str, str]],
    s: VerdictSettings,
) -> tuple[Verdict, ...]:
    """The verdicts with those of out-of-scope documents capped (``doc_of``: passage id → document id)."""
    if not s.scope_to_documents:
        return tuple(verdicts)
    gone = out_of_scope(question, docs, s.doc_scope_max_share)
    if not gone:
        return tuple(verdicts)
    return tuple(
        cap_verdict(v, gone[doc_of[v.passage_id]], s) if doc_of.get(v.passage_id) in gone else v
        for v in verdicts
    )


# --- choosing doc_scope_max_share on training contracts --------------------------------------------


def scope_sweep(
    train_dir: Path, ts: JudgeTrainSettings, contracts: int = 80, seed: int = 1
) -> dict[str, Any]:
    """For each candidate share: how often a fit-part contract that holds the asked clause is scoped
    out beside a random other contract (the cost), and how often a contract that lacks it is (the
    gain). Questions: every phrasing of every category a sampled contract holds; never the check part."""
    from rag_core.bench.refusal_bench import BENCH_CATEGORIES
    from rag_core.judge.train_sets import is_check, load_contracts, question_for

    fit = [c for c in load_contracts(train_dir, ts) if not is_check(c.name, ts)]
    rng = random.Random(seed)
    cost = dict.fromkeys(SWEEP_SHARES, 0)
    gain = dict.fromkeys(SWEEP_SHARES, 0)
    asked = lacking = 0
    for c in rng.sample(fit, min(contracts, len(fit))):
        for k in BENCH_CATEGORIES:
            if not c.spans.get(k):
                continue
            for phrasing in range(PHRASINGS):
                q = question_for(k, c.name, phrasing)
                y = rng.choice([d for d in fit if d is not c])
                holder, other = covered_terms(q, c.text), covered_terms(q, y.text)
                asked += 1
                lacks = k in y.spans and not y.spans[k]
                lacking += lacks
                for share in SWEEP_SHARES:
                    cost[share] += dominated(holder, other, share)
                    gain[share] += lacks and dominated(other, holder, share)
    return {
        "questions": asked,
        "beside_a_contract_lacking_the_clause": lacking,
        "shares": [
            {
                "max_share": share,
                "holder_scoped_out": round(cost[share] / max(asked, 1), 4),
                "lacking_scoped_out": round(gain[share] / max(lacking, 1), 4),
            }
            for share in SWEEP_SHARES
        ],
    }


def format_sweep(r: dict[str, Any]) -> str:
    """The sweep as a small table."""
    lines = [
        f"{r['questions']} questions on fit-part contracts, each beside a random other fit contract "
        f"({r['beside_a_contract_lacking_the_clause']} beside one lacking the clause)",
        "max_share  holder scoped out (cost)  lacking scoped out (gain)",
    ]
    lines += [
        f"{x['max_share']:<9}  {x['holder_scoped_out']:<24}  {x['lacking_scoped_out']}" for x in r["shares"]
    ]
    return "\n".join(lines)
