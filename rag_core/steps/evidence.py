"""Step 5, assemble evidence: kept hits grow to their parent clauses (small-to-big), a parent that
carries an injection outside the judged child falls back to the child, the context budget
decides what the answer model sees, and (judge on) every sentence above ``t_injection_sentence``
is cut out of the blocks (defence in depth). The numbered blocks are what citations point at."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from rag_core.coded import coded
from rag_core.generation.prompt import EvidenceBlock
from rag_core.judge.cut import cut_suspicious_sentences
from rag_core.judge.injection import injection_score
from rag_core.models import Hit, KnowledgeBase
from rag_core.retrieval.budget import Passage, apply_budget, expand_to_parents
from rag_core.settings import Settings
from rag_core.trace import BlockRecord, EvidenceRecord, SpanRecord
from rag_core.trace_defence import CutRecord
from storage.store import Store


@dataclass(frozen=True)
class Evidence:
    blocks: tuple[EvidenceBlock, ...]
    record: EvidenceRecord
    notes: tuple[str, ...]
    top: int | None = None  # the block holding the best-ranked kept hit (budgets never drop it)


def _ordered_passages(
    store: Store, settings: Settings, kept: Sequence[Hit], kbs: Sequence[KnowledgeBase]
) -> list[Passage]:
    """Parents of the kept hits per knowledge base, in the order of their best kept child."""
    passages: list[Passage] = []
    for kb in kbs:
        mine = [h for h in kept if h.explain.get("kb", kb.name) == kb.name]
        passages += expand_to_parents(store, kb, mine, settings.retrieval.small_to_big)
    order = {h.chunk_id: i for i, h in enumerate(kept)}
    passages.sort(key=lambda p: min(order.get(c.chunk_id, len(order)) for c in p.children))
    return passages


def _screen_parents(passages: list[Passage], t_injection: float) -> tuple[list[Passage], list[str]]:
    """A parent whose larger text holds an injection outside the judged child hands on the child only."""
    screened: list[Passage] = []
    notes: list[str] = []
    for p in passages:
        if p.children and p.hit is not p.children[0] and injection_score(p.hit.text)[0] > t_injection:
            notes.append(
                coded(
                    "parent_injection_child_used",
                    f"{p.hit.chunk_id}: parent text flagged as injection; child used",
                    chunk=p.hit.chunk_id,
                )
            )
            screened.append(Passage(p.children[0], p.children, p.kb))
        else:
            screened.append(p)
    return screened, notes


def _block(n: int, p: Passage, conflicting: set[str]) -> EvidenceBlock:
    return EvidenceBlock(
        n=n,
        title=p.hit.title or p.hit.doc,
        doc=p.hit.doc,
        page=p.hit.page,
        clause=p.hit.clause,
        text=p.hit.text,
        conflicting=any(c.chunk_id in conflicting for c in p.children),
        start=p.hit.start,
        end=p.hit.end,
        doc_id=p.hit.doc_id,
        chunk_id=p.hit.chunk_id,
    )


def _cut(block: EvidenceBlock, settings: Settings) -> tuple[EvidenceBlock, tuple[CutRecord, ...]]:
    """The block with its suspicious sentences cut out, and the cuts (offsets into the uncut text)."""
    text, cuts = cut_suspicious_sentences(block.text, settings.verdict)
    return (replace(block, text=text), cuts) if cuts else (block, ())


def _record(b: EvidenceBlock, p: Passage, cuts: tuple[CutRecord, ...] = ()) -> BlockRecord:
    return BlockRecord(
        n=b.n,
        chunk_id=b.chunk_id,
        doc=b.doc,
        start=b.start,
        end=b.end,
        page=b.page,
        clause=b.clause,
        text=b.text,
        children=tuple(SpanRecord(c.chunk_id, c.start, c.end) for c in p.children),
        conflicting=b.conflicting,
        doc_id=b.doc_id,
        cuts=cuts,
    )


def assemble_evidence(
    store: Store,
    settings: Settings,
    kept: Sequence[Hit],
    kbs: Sequence[KnowledgeBase],
    conflicting: set[str],
    cut: bool = True,
) -> Evidence:
    """The numbered evidence blocks for the answer model, and what was cut and why.

    ``cut`` (the judge is on) removes suspicious sentences; the record keeps the uncut text and
    the cuts, so the evidence panel can strike them through.
    """
    passages, notes = _screen_parents(
        _ordered_passages(store, settings, kept, kbs), settings.verdict.t_injection
    )
    rs = settings.retrieval
    top = max(kept, key=lambda h: h.score).chunk_id if kept else None  # the best retrieval score
    max_chars = None if settings.generation.prompt_mode == "sentences" else rs.max_context_chars
    passages, budget_notes = apply_budget(passages, rs.max_passages, max_chars, top)
    whole = [_block(i + 1, p, conflicting) for i, p in enumerate(passages)]
    done = [_cut(b, settings) if cut else (b, ()) for b in whole]
    blocks = tuple(b for b, _ in done)
    record = EvidenceRecord(
        tuple(_record(w, p, c) for w, p, (_, c) in zip(whole, passages, done, strict=True)),
        tuple(budget_notes),
    )
    notes += [
        f"{b.chunk_id}: {len(c)} suspicious sentence(s) cut"
        for b, (_, c) in zip(whole, done, strict=True)
        if c
    ]
    top_n = next(
        (b.n for b, p in zip(blocks, passages, strict=True) if top in {c.chunk_id for c in p.children}), None
    )
    return Evidence(blocks, record, tuple(notes), top_n)
