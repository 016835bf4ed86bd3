"""``bench refusal``: does the judge refuse questions whose clause is absent and keep the gold clause
when it is present — on contracts the judge was never fitted on?

How (issue 10): ``train/cuad`` is split by a hash of the contract name (``train_sets.is_check``);
the committed weights are fitted on the fit part only, so every question here is about a check
contract, asked with phrasing 1 of ``clause_types`` (the fit used phrasing 0), in English or
Chinese by a hash of (contract, category). One question per (contract, category) for the ~20
``BENCH_CATEGORIES``.

Judge part (all sampled questions): the candidates are the contract's 700-character windows ranked
by reciprocal-rank fusion of usem cosine and lexical coverage (a stand-in for retrieval that needs
no e5 ingestion of 88 contracts), the top ``candidates`` judged by the offline judge in one call,
kept by ``select_kept`` and passed through the absent-clause gate. A question is *refused* when
nothing is kept or the gate fires, unless a candidate is the asked clause (``clause_gate.found_clause``:
the pipeline then quotes it, saying no passage states what was asked, and that candidate is cited);
a present-clause question is *answered with a gold span* when it is not refused and a kept (or the
quoted) passage overlaps a gold span. EVIDENCE precision is the share of EVIDENCE
passages that overlap a gold span of the asked category.

End-to-end part (``llm``: a sample of questions, half present and half absent): the sampled
contracts are ingested into their own knowledge bases and each question goes through the real
``Pipeline`` (retrieval, judge, local answer model, reflection); a present-clause answer counts when
it cites a span overlapping gold, an absent-clause question when the pipeline refuses.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from rag_core.judge import dense
from rag_core.judge.base import PassageInput
from rag_core.judge.classify import EVIDENCE, RELEVANCE, apply_evidence_margin, select_kept
from rag_core.judge.clause_gate import absent_clause_type, found_clause
from rag_core.judge.clause_types import BENCH_CATEGORIES
from rag_core.judge.local_judge import LocalJudge
from rag_core.judge.train_sets import Contract, is_check, load_contracts, question_for, rank_windows
from rag_core.judge.training import CLOSE, close_share
from rag_core.settings import JudgeTrainSettings, Settings
from storage.store import Store

Log = Callable[[str], None]
CANDIDATES: int = 20
"""Windows handed to the judge per question (the retrieval default ``candidates``)."""


@dataclass(frozen=True)
class BenchQuestion:
    contract: Contract
    category: str
    question: str
    present: bool
    gold: tuple[tuple[int, int], ...]


def bench_questions(train_dir: Path, ts: JudgeTrainSettings, contracts: int | None) -> list[BenchQuestion]:
    """One question per (check contract, bench category), phrasing 1; the first ``contracts`` check
    contracts in name-hash order (a sample that does not depend on file names' alphabet)."""
    check = [c for c in load_contracts(train_dir, ts) if is_check(c.name, ts)]
    check.sort(key=lambda c: hashlib.sha1(c.name.encode()).hexdigest())
    return contract_questions(check[:contracts])


def contract_questions(contracts: list[Contract]) -> list[BenchQuestion]:
    """One question per (contract, bench category) whose presence is known, phrasing 1."""
    out: list[BenchQuestion] = []
    for c in contracts:
        for k in BENCH_CATEGORIES:
            if k in c.spans:
                spans = tuple(c.spans[k])
                out.append(BenchQuestion(c, k, question_for(k, c.name, 1), bool(spans), spans))
    return out


def overlaps(a: tuple[int, int], spans: tuple[tuple[int, int], ...]) -> bool:
    return any(min(a[1], e) - max(a[0], s) > 0 for s, e in spans)


def candidates(
    q: BenchQuestion, n: int, embed_fn: Callable[[list[str]], np.ndarray] = dense.embed
) -> list[tuple[int, int]]:
    """The contract's windows ranked by fused usem cosine and lexical coverage; the top ``n``
    (``train_sets.rank_windows``, the ranking the evidence model's ranked negatives are drawn with)."""
    c = q.contract
    texts = [c.text[s:e] for s, e in c.windows]
    pvecs = dense.passage_vectors(texts, embed_fn)
    return [c.windows[i] for i in rank_windows(q.question, embed_fn([q.question])[0], texts, pvecs, n)]


def judge_part(questions: list[BenchQuestion], settings: Settings, log: Log) -> dict[str, Any]:
    """Refusal, answer-with-gold and EVIDENCE precision of the offline judge (see the module doc)."""
    judge = LocalJudge(settings.verdict)
    absent_n = absent_refused = present_n = present_gold = 0
    ev_n = ev_gold = 0
    gate_fired = found_quoted = 0
    seconds: list[float] = []
    rel_evi: list[tuple[float, float]] = []
    for i, q in enumerate(questions):
        wins = candidates(q, CANDIDATES)
        passages = [PassageInput(str(j), q.contract.text[s:e]) for j, (s, e) in enumerate(wins)]
        t0 = time.perf_counter()
        verdicts = apply_evidence_margin(judge.judge(q.question, passages), settings.verdict)
        kept = select_kept(verdicts, settings.verdict)
        gate = absent_clause_type(
            q.question, [passages[int(v.passage_id)].text for v in kept], settings.verdict
        )
        refused = not kept or gate is not None
        cited = [] if refused else [int(v.passage_id) for v in kept]
        if refused:  # the asked clause quoted when none holds the asked detail (the pipeline's rule)
            found = found_clause(q.question, [p.text for p in passages], verdicts, settings.verdict)
            refused, cited = found is None, [] if found is None else [int(verdicts[found].passage_id)]
            found_quoted += found is not None
        seconds.append(time.perf_counter() - t0)
        gate_fired += gate is not None
        rel_evi += [(v.scores[RELEVANCE], v.scores[EVIDENCE]) for v in verdicts]
        for v in verdicts:
            if v.label == "EVIDENCE":
                ev_n += 1
                ev_gold += overlaps(wins[int(v.passage_id)], q.gold)
        if q.present:
            present_n += 1
            present_gold += not refused and any(overlaps(wins[i], q.gold) for i in cited)
        else:
            absent_n += 1
            absent_refused += refused
        if (i + 1) % 50 == 0:
            log(f"  judged {i + 1}/{len(questions)} questions")
    return {
        "questions": len(questions),
        "absent": absent_n,
        "refusal_rate_absent": absent_refused / absent_n if absent_n else None,
        "present": present_n,
        "answer_rate_present_with_gold": present_gold / present_n if present_n else None,
        "evidence_passages": ev_n,
        "evidence_precision": ev_gold / ev_n if ev_n else None,
        "clause_gate_fired": gate_fired,
        "found_clause_quoted": found_quoted,
        "close_share": close_share(*np.asarray(rel_evi).reshape(-1, 2).T),
        "judge_seconds_median": float(np.median(seconds)) if seconds else 0.0,
    }


def format_refusal(r: dict[str, Any]) -> str:
    """The bench result as readable lines."""
    j = r["judge"]

    def pct(x: float | None) -> str:
        return "—" if x is None else f"{x:.3f}"

    lines = [
        f"bench refusal — {j['questions']} questions on {r['contracts']} held-out CUAD contracts "
        f"(phrasing 1, English/Chinese), judge: local fitted",
        f"refusal rate, clause absent          {pct(j['refusal_rate_absent'])}  (n={j['absent']})",
        f"answered with a gold span, present   {pct(j['answer_rate_present_with_gold'])}  (n={j['present']})",
        f"EVIDENCE precision                   {pct(j['evidence_precision'])}  (n={j['evidence_passages']})",
        f"absent-clause gate fired             {j['clause_gate_fired']}",
        f"asked clause quoted, no evidence     {j.get('found_clause_quoted', 0)}",
        f"|relevance - evidence| < {CLOSE}      {j['close_share']:.3f}  (all judged candidates)",
        f"judge seconds per question (median)  {j['judge_seconds_median']:.3f}",
    ]
    for key, title in (
        ("pipeline", "pipeline, real retrieval, no answer model (quoted answer)"),
        ("end_to_end", "end to end"),
    ):
        e = r.get(key)
        if e:
            lines += [
                f"{title} ({e['questions']} questions, answer model {e['answer_model']}):",
                f"  refusal rate, clause absent        {pct(e['refusal_rate_absent'])}  (n={e['absent']})",
                f"  answered citing a gold span        {pct(e['answer_rate_present_with_gold'])}  (n={e['present']})",
                f"  EVIDENCE precision (settled labels) {pct(e.get('evidence_precision'))}  "
                f"(n={e.get('evidence_passages', 0)})",
                f"  median seconds per question        {e['seconds_median']:.1f}",
            ]
    return "\n".join(lines)


def end_to_end_sample(questions: list[BenchQuestion], n: int, per_contract: int) -> list[BenchQuestion]:
    """Up to ``n`` questions, half present and half absent, at most ``per_contract`` of each kind
    per contract, from as few contracts as that allows (each sampled contract is ingested)."""
    out: list[BenchQuestion] = []
    taken: dict[tuple[str, bool], int] = {}
    for q in questions:
        key = (q.contract.name, q.present)
        if len(out) < n and taken.get(key, 0) < per_contract:
            out.append(q)
            taken[key] = taken.get(key, 0) + 1
    return out


def contract_kbs(
    store: Store, settings: Settings, train_dir: Path, questions: list[BenchQuestion], log: Log
) -> dict[str, Any]:
    """One knowledge base per sampled contract, ingested once and reused by later runs (by name)."""
    from rag_core.embeddings.registry import describe
    from rag_core.ingest.pipeline import ingest_files

    kbs: dict[str, Any] = {}
    for q in questions:
        name = "refusal-" + hashlib.sha1(q.contract.name.encode()).hexdigest()[:12]
        if q.contract.name in kbs:
            continue
        kb = store.kbs.find(name)
        if kb is None or not any(d.status == "indexed" for d in store.docs.all(kb)):
            if kb is not None:
                store.kbs.delete(kb.id)
            _display, dim = describe(settings.embedding.backend, settings.embedding.model, settings)
            kb = store.kbs.create(name, settings.embedding.backend, settings.embedding.model, dim)
            log(f"  ingesting {q.contract.name[:60]} …")
            ingest_files(store, kb, [train_dir / "cuad" / "contracts" / q.contract.name], settings)
        kbs[q.contract.name] = kb
    return kbs


def end_to_end_part(
    store: Store,
    settings: Settings,
    train_dir: Path,
    questions: list[BenchQuestion],
    log: Log,
    answer_model: bool = True,
) -> dict[str, Any]:
    """The questions through the real pipeline (retrieval, judge, gates, answer, review), one
    knowledge base per contract. ``answer_model`` False runs it with no answer model, so the answer
    is the quoted evidence: every step a lawyer's question meets except generation, fast enough to
    ask every bench question rather than a sample."""
    from rag_core.pipeline import AskRequest, Done, Pipeline

    pipeline = Pipeline.from_settings(store, settings) if answer_model else Pipeline(store, settings, None)
    kbs = contract_kbs(store, settings, train_dir, questions, log)
    absent_n = absent_refused = present_n = present_gold = 0
    ev_n = ev_gold = 0
    seconds: list[float] = []
    rows: list[dict[str, Any]] = []
    for i, q in enumerate(questions):
        t0 = time.perf_counter()
        result = None
        for event in pipeline.ask(AskRequest(q.question, [kbs[q.contract.name]])):
            if isinstance(event, Done):
                result = event.result
        seconds.append(time.perf_counter() - t0)
        assert result is not None
        gold = any(overlaps((c.start, c.end), q.gold) for c in result.citations)
        evidence = [v for v in result.verdicts if v.label == "EVIDENCE"]
        ev_n += len(evidence)
        ev_gold += sum(overlaps((v.start, v.end), q.gold) for v in evidence)
        if q.present:
            present_n += 1
            present_gold += not result.refused and gold
        else:
            absent_n += 1
            absent_refused += result.refused
        rows.append(
            {"question": q.question, "category": q.category, "present": q.present, "refused": result.refused,
             "cited_gold": gold, "answer": result.answer, "seconds": round(seconds[-1], 1)}
        )  # fmt: skip
        if answer_model or (i + 1) % 50 == 0:
            log(f"  [{i + 1}/{len(questions)}] {seconds[-1]:.1f} s refused={result.refused} gold={gold}")
    return {
        "questions": len(questions),
        "answer_model": getattr(pipeline.answer_model, "name", None),
        "absent": absent_n,
        "refusal_rate_absent": absent_refused / absent_n if absent_n else None,
        "present": present_n,
        "answer_rate_present_with_gold": present_gold / present_n if present_n else None,
        "evidence_passages": ev_n,
        "evidence_precision": ev_gold / ev_n if ev_n else None,
        "seconds_median": float(np.median(seconds)) if seconds else 0.0,
        "rows": rows,
    }


def run_refusal_bench(
    store: Store,
    settings: Settings,
    train_dir: Path,
    contracts: int | None,
    llm: int,
    log: Log,
    pipeline: bool = False,
) -> dict[str, Any]:
    """The judge part, then (``pipeline``) every question through the pipeline with no answer
    model, then (``llm`` > 0) a sample with the answer model."""
    ts = JudgeTrainSettings()
    questions = bench_questions(train_dir, ts, contracts)
    log(f"{len(questions)} questions on {len({q.contract.name for q in questions})} check contracts")
    result: dict[str, Any] = {
        "contracts": len({q.contract.name for q in questions}),
        "judge": judge_part(questions, settings, log),
    }
    if pipeline:
        result["pipeline"] = end_to_end_part(store, settings, train_dir, questions, log, answer_model=False)
    if llm > 0:
        sample = end_to_end_sample(questions, llm, per_contract=3)
        result["end_to_end"] = end_to_end_part(store, settings, train_dir, sample, log)
    return result
