"""Small-to-big expansion and the context budget for the answer model.

Why: small child chunks are what retrieval matches precisely; the answer model needs the clause
around them. Children of one parent collapse into that parent once, and the passages handed on
are capped by count and by characters so a long contract cannot crowd out the question.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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
    return list(out.values())


def apply_budget(
    passages: list[Passage], max_passages: int, max_chars: int
) -> tuple[list[Passage], list[str]]:
    """Keep passages in order while both the count and the character budget allow; say what was cut.

    A passage too long for the remaining budget falls back to its best child rather than being
    truncated mid-sentence, so the text handed on is always an exact document span.
    """
    kept: list[Passage] = []
    notes: list[str] = []
    used = 0
    for p in passages:
        if len(kept) >= max_passages:
            notes.append(
                coded(
                    "budget_over_passages",
                    f"{p.hit.chunk_id}: over max_passages={max_passages}",
                    chunk=p.hit.chunk_id,
                    limit=max_passages,
                )
            )
            continue
        if used + len(p.hit.text) <= max_chars:
            kept.append(p)
            used += len(p.hit.text)
            continue
        child = p.children[0] if p.children else None
        if child is not None and child is not p.hit and used + len(child.text) <= max_chars:
            kept.append(Passage(child, [child], p.kb))
            used += len(child.text)
            notes.append(
                coded(
                    "budget_child_used",
                    f"{p.hit.chunk_id}: parent over budget, child {child.chunk_id} used",
                    chunk=p.hit.chunk_id,
                    child=child.chunk_id,
                )
            )
            continue
        notes.append(
            coded(
                "budget_over_chars",
                f"{p.hit.chunk_id}: over max_context_chars={max_chars}",
                chunk=p.hit.chunk_id,
                limit=max_chars,
            )
        )
    return kept, notes
