"""Small-to-big expansion and the context budget for the answer model.

Why: small child chunks are what retrieval matches precisely; the answer model needs the clause
around them. Children of one parent collapse into that parent once, and the passages handed on
are capped by count and by characters so a long contract cannot crowd out the question.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from rag_core.chunking import RANGE_SEPARATOR
from rag_core.coded import coded
from rag_core.models import Hit, KnowledgeBase
from storage.store import Store


@dataclass
class Passage:
    """One evidence block for the answer model: a parent (or the hit itself), with its hits inside."""

    hit: Hit  # the parent-level passage (exact offsets into the document text)
    children: list[Hit] = field(default_factory=list)  # retrieved chunks inside it, best first
    kb: KnowledgeBase | None = None


def expand_to_parents(store: Store, kb: KnowledgeBase, hits: list[Hit], small_to_big: bool) -> list[Passage]:
    """Replace child hits by their parents, keeping the best rank of each parent, de-duplicated."""
    if not small_to_big:
        return [Passage(h, [h], kb) for h in hits]
    parents = store.chunks.by_ids(kb, [h.parent_id for h in hits if h.parent_id])
    out: dict[str, Passage] = {}
    for h in hits:
        row = parents.get(h.parent_id)
        if row is None:
            out.setdefault(h.chunk_id, Passage(h, [h], kb))
            continue
        if h.parent_id in out:
            out[h.parent_id].children.append(h)
            continue
        parent = Hit(
            doc=h.doc,
            doc_id=h.doc_id,
            chunk_id=row.id,
            start=int(row.start),
            end=int(row.end),
            page=int(row.page) if row.page else (row.anchor or h.page),
            clause=row.clause or h.clause,
            score=h.score,
            text=row.text,
            title=h.title,
            explain={"from_child": h.chunk_id},
            page_end=row.page_end or None,
        )
        out[h.parent_id] = Passage(parent, [h], kb)
    return [replace(p, hit=replace(p.hit, clause=children_clause(p))) for p in out.values()]


def children_clause(passage: Passage) -> str:
    """A parent's clause label: the clauses of the retrieved children inside it, in reading order,
    when the parent spans a range of clauses; else its own.

    Why: a short contract's parent is the whole contract, "第一条 服务内容 – 第八条 争议解决"; the
    citation of the fee clause should say "第三条 服务费用及支付", the clause that was retrieved.
    """
    if RANGE_SEPARATOR not in passage.hit.clause:
        return passage.hit.clause
    labels = dict.fromkeys(c.clause for c in sorted(passage.children, key=lambda c: c.start) if c.clause)
    return "; ".join(labels) or passage.hit.clause


def _top_index(passages: list[Passage], top_chunk_id: str | None) -> int:
    """Index of the passage holding ``top_chunk_id`` (the best-ranked kept hit), else the first."""
    for i, p in enumerate(passages):
        if top_chunk_id in (p.hit.chunk_id, *(c.chunk_id for c in p.children)):
            return i
    return 0


def apply_budget(
    passages: list[Passage], max_passages: int, max_chars: int | None, top_chunk_id: str | None = None
) -> tuple[list[Passage], list[str]]:
    """Keep passages in order while both the count and the character budget allow; say what was cut.

    A passage too long for the remaining budget falls back to its best child rather than being
    truncated mid-sentence, so the text handed on is always an exact document span. The top-ranked
    passage (the one holding ``top_chunk_id``, else the first) is never dropped: it is budgeted
    before the others, and kept whole when even its best child is over the budget, because an
    answer without the best evidence is worse than a long prompt (a top Compensation clause cut
    "over max_context_chars" made the answer say the rate was not specified). ``max_chars=None``
    caps by count only (the short prompt budgets tokens itself).
    """
    if not passages:
        return [], []
    top = _top_index(passages, top_chunk_id)
    limit = max_chars if max_chars is not None else float("inf")
    chosen: dict[int, Passage] = {}
    notes: list[str] = []
    used = 0
    for i in [top, *(j for j in range(len(passages)) if j != top)]:
        p = passages[i]
        chunk = p.hit.chunk_id
        if len(chosen) >= max_passages:
            notes.append(
                coded(
                    "budget_over_passages",
                    f"{chunk}: over max_passages={max_passages}",
                    chunk=chunk,
                    limit=max_passages,
                )
            )
            continue
        child = p.children[0] if p.children else None
        if used + len(p.hit.text) <= limit:
            chosen[i] = p
        elif child is not None and child is not p.hit and used + len(child.text) <= limit:
            chosen[i] = Passage(child, [child], p.kb)
            notes.append(
                coded(
                    "budget_child_used",
                    f"{chunk}: parent over budget, child {child.chunk_id} used",
                    chunk=chunk,
                    child=child.chunk_id,
                )
            )
        elif i == top:
            chosen[i] = p
            notes.append(
                coded(
                    "budget_top_kept",
                    f"{chunk}: top-ranked passage kept over max_context_chars={max_chars}",
                    chunk=chunk,
                    limit=max_chars or 0,
                )
            )
        else:
            notes.append(
                coded(
                    "budget_over_chars",
                    f"{chunk}: over max_context_chars={max_chars}",
                    chunk=chunk,
                    limit=max_chars or 0,
                )
            )
            continue
        used += len(chosen[i].hit.text)
    return [chosen[i] for i in sorted(chosen)], notes
