"""Step 5, assemble evidence: kept hits grow to their parent clauses (small-to-big), a parent that
carries an injection outside the judged child falls back to the child, the context budget
decides what the answer model sees, and (judge on) every sentence above ``t_injection_sentence``
is cut out of the blocks (defence in depth). A salvaged excerpt of an INJECTION passage (see
``steps.judging``) is handed on as its own span, never grown to its parent, with the attack and
what continues it cut. The numbered blocks are what citations point at."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from rag_core.coded import coded
from rag_core.generation.prompt import EvidenceBlock
from rag_core.judge.cut import cut_suspicious_sentences, without
from rag_core.judge.injection import injection_score
from rag_core.models import Hit, KnowledgeBase
from rag_core.reflection.facts import Aliases, party_aliases
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
    store: Store,
    settings: Settings,
    kept: Sequence[Hit],
    kbs: Sequence[KnowledgeBase],
    salvaged: Mapping[str, tuple[CutRecord, ...]],
) -> list[Passage]:
    """Parents of the kept hits per knowledge base, in the order of their best kept child; a
    salvaged hit stays itself (its parent holds the attack that was cut from it)."""
    passages: list[Passage] = []
    for kb in kbs:
        mine = [h for h in kept if h.explain.get("kb", kb.name) == kb.name]
        grow = [h for h in mine if h.chunk_id not in salvaged]
        passages += expand_to_parents(store, kb, grow, settings.retrieval.small_to_big)
        passages += [Passage(h, [h], kb) for h in mine if h.chunk_id in salvaged]
    order = {h.chunk_id: i for i, h in enumerate(kept)}
    passages.sort(key=lambda p: min(order.get(c.chunk_id, len(order)) for c in p.children))
    return passages


def _screen_parents(passages: list[Passage], t_injection: float) -> tuple[list[Passage], list[str]]:
    """A parent whose larger text holds an injection outside the judged children hands on the children only,
    each as its own passage.

    Why every child (try-out, session 38): a SaaS agreement's "7. Limitation of Liability" parent holds a planted
    7.4; its kept children 7.1 (the cap) and 7.2 grew to it, it was flagged, and only its first child, 7.2, was
    handed on: the cap clause reached neither the quoted answer nor the model."""
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
            screened += [Passage(child, [child], p.kb) for child in p.children]
        else:
            screened.append(p)
    return screened, notes


def _block(
    n: int,
    p: Passage,
    conflicting: set[str],
    aliases: Aliases = frozenset(),
    affirming: frozenset[str] = frozenset(),
) -> EvidenceBlock:
    return EvidenceBlock(
        n=n,
        title=p.hit.title or p.hit.doc,
        doc=p.hit.doc,
        page=p.hit.page,
        clause=p.hit.clause,
        text=p.hit.text,
        conflicting=any(c.chunk_id in conflicting for c in p.children),
        affirming=any(c.chunk_id in affirming for c in p.children),
        start=p.hit.start,
        end=p.hit.end,
        doc_id=p.hit.doc_id,
        chunk_id=p.hit.chunk_id,
        judged=tuple(sorted((c.start, c.end) for c in p.children)),
        aliases=aliases,
    )


def _document_aliases(store: Store, passages: Sequence[Passage]) -> dict[str, Aliases]:
    """Each block document's letter parties (出租方（甲方）…), read once from its whole text: a clause
    says 乙方, only the heading says who 乙方 is."""
    texts = store.docs.texts(sorted({p.hit.doc_id for p in passages if p.hit.doc_id}))
    return {d: party_aliases(t) for d, t in texts.items()}


def _cut(
    block: EvidenceBlock, settings: Settings, salvaged: Mapping[str, tuple[CutRecord, ...]]
) -> tuple[EvidenceBlock, tuple[CutRecord, ...]]:
    """The block with its suspicious sentences cut out, and the cuts (offsets into the uncut text);
    a salvaged block loses the cuts its salvage decided (the attack and what continues it)."""
    if block.chunk_id in salvaged:
        cuts = salvaged[block.chunk_id]
        return replace(block, text=without(block.text, cuts)), cuts
    text, cuts = cut_suspicious_sentences(block.text, settings.verdict)
    return (replace(block, text=text), cuts) if cuts else (block, ())


def _note(b: EvidenceBlock, cuts: tuple[CutRecord, ...], salvaged: Mapping[str, object]) -> str:
    """What the defence did to a block, for the trace notes."""
    if b.chunk_id in salvaged:
        return coded(
            "salvaged_excerpt",
            f"{b.chunk_id}: flagged as injection; {len(cuts)} suspicious or continuing sentence(s) cut, "
            "the rest re-judged on its own and handed on as a salvaged excerpt",
            chunk=b.chunk_id,
            cut=len(cuts),
        )
    return f"{b.chunk_id}: {len(cuts)} suspicious sentence(s) cut"


def _record(
    b: EvidenceBlock, p: Passage, cuts: tuple[CutRecord, ...] = (), salvaged: bool = False
) -> BlockRecord:
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
        salvaged=salvaged,
    )


def assemble_evidence(
    store: Store,
    settings: Settings,
    kept: Sequence[Hit],
    kbs: Sequence[KnowledgeBase],
    conflicting: set[str],
    cut: bool = True,
    salvaged: Mapping[str, tuple[CutRecord, ...]] | None = None,
    affirming: frozenset[str] = frozenset(),
) -> Evidence:
    """The numbered evidence blocks for the answer model, and what was cut and why.

    ``cut`` (the judge is on) removes suspicious sentences; the record keeps the uncut text and
    the cuts, so the evidence panel can strike them through. ``salvaged`` maps the chunk id of a
    salvaged excerpt to the sentences its salvage cut. ``affirming``: the kept passages that state a value
    another document's CONFLICTING passage denies (``judge.documents_differ``).
    """
    salvaged = salvaged or {}
    passages, notes = _screen_parents(
        _ordered_passages(store, settings, kept, kbs, salvaged), settings.verdict.t_injection
    )
    rs = settings.retrieval
    top = max(kept, key=lambda h: h.score).chunk_id if kept else None  # the best retrieval score
    max_chars = None if settings.generation.prompt_mode == "sentences" else rs.max_context_chars
    passages, budget_notes = apply_budget(passages, rs.max_passages, max_chars, top)
    aliases = _document_aliases(store, passages)
    whole = [
        _block(i + 1, p, conflicting, aliases.get(p.hit.doc_id, frozenset()), affirming)
        for i, p in enumerate(passages)
    ]
    done = [_cut(b, settings, salvaged) if cut else (b, ()) for b in whole]
    blocks = tuple(b for b, _ in done)
    record = EvidenceRecord(
        tuple(
            _record(w, p, c, w.chunk_id in salvaged)
            for w, p, (_, c) in zip(whole, passages, done, strict=True)
        ),
        tuple(budget_notes),
    )
    notes += [_note(b, c, salvaged) for b, (_, c) in zip(whole, done, strict=True) if c]
    top_n = next(
        (b.n for b, p in zip(blocks, passages, strict=True) if top in {c.chunk_id for c in p.children}), None
    )
    return Evidence(blocks, record, tuple(notes), top_n)
