"""The short prompt: the best evidence sentences with their clause headings, within a token budget.

Why: the 1.5B model reads a prompt at ~37 tokens/s on two cores, so 4,500 characters of whole
parents (~3,000 tokens of Chinese) meant a minute before the first word. Most of a 1,500-character
parent does not answer the question. The answer model therefore reads, per kept block, only the
sentences that score best against the question (the scores the quoted answer already computed),
each with the previous sentence when it cannot stand alone ("Such notice …", "前款规定…"), in
reading order, under the block's usual header (title, page, clause path). The whole prompt stays
within ``max_prompt_tokens`` (``endpoint_max_prompt_tokens`` for an endpoint).

Budget cuts drop the lowest-scoring sentences first and never the top-ranked passage: the best
sentence of block 1 is placed before anything else, whatever it costs. Blocks keep their numbers
(a block left without sentences is simply not shown), so a citation still resolves to the block's
full clause, which is what the citation opens.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from rag_core.generation.prompt import EvidenceBlock, Language, render_block
from rag_core.generation.quoted import BlockSentence, ScoredSentence, block_sentences, ends_at_semicolon
from rag_core.ingest.extract import TABLE_CELL_SEPARATOR
from rag_core.llm.openai_client import estimate_tokens
from rag_core.settings import Settings

GAP = " … "
"""Placed between two shown sentences of one block that are not adjacent in the clause."""

_NEEDS_PREVIOUS = re.compile(
    r"^\s*(?:(?i:such|these|those|thereafter|however|notwithstanding the foregoing|the foregoing|"
    r"in such|in that case|provided(?:,)? however|provided that|except as aforesaid)\b|"
    r"[a-z]|"  # a lower-case start continues the sentence before (a split after "Inc." or "No.")
    r"该|上述|前述|前款|前项|但|但是|否则|如前所述)"
)
"""A sentence starting like this leans on the one before it; it is shown with its predecessor."""


@dataclass
class CompactPrompt:
    """The blocks as the answer model sees them (``excerpt`` set) and how the budget was spent."""

    blocks: list[EvidenceBlock]
    budget_tokens: int
    fixed_tokens: int
    evidence_tokens: int
    sentences: dict[int, list[BlockSentence]] = field(default_factory=dict)
    left_out: int = 0  # sentences that scored high enough but did not fit
    over_budget: bool = False  # the top passage alone exceeded the budget (shown anyway)

    @property
    def estimated_tokens(self) -> int:
        return self.fixed_tokens + self.evidence_tokens


def prompt_budget(settings: Settings) -> int:
    """The whole-prompt token budget for the configured answer model."""
    g = settings.generation
    return g.endpoint_max_prompt_tokens if settings.models.provider == "openai" else g.max_prompt_tokens


def needs_previous(sentence: str) -> bool:
    """Whether a sentence needs the one before it to make sense on its own."""
    return bool(_NEEDS_PREVIOUS.match(sentence))


def excerpt(block: EvidenceBlock, chosen: Sequence[BlockSentence]) -> str:
    """The chosen sentences in reading order, each run under its heading line when the block has
    one, with ``GAP`` where sentences were skipped; a table row on a line of its own.

    Why the rows: joined into one line ("Monthly Uptime | Service Credit (%) 99.9% or higher | 0 99.0% to below
    99.9% | 10 …"), a service-level table lost its rows for the answer model, which gave the wrong tier's credit, and
    for the support check, which reads a table by its lines (session 45 try-out)."""
    lines: list[str] = []
    last: BlockSentence | None = None
    for s in sorted(chosen, key=lambda x: x.position):
        text = " ".join(s.text.split())
        row = TABLE_CELL_SEPARATOR in s.text or (last is not None and TABLE_CELL_SEPARATOR in last.text)
        if s.heading and (last is None or s.heading != last.heading):
            lines.append(s.heading)
            lines.append(text)
        elif row:
            lines.append(text)
        elif last is not None and s.position == last.position + 1:
            lines[-1] += f" {text}"
        elif last is not None:
            lines[-1] += f"{GAP}{text}"
        else:
            lines.append(text)
        last = s
    return "\n".join(lines)


def _header_tokens(block: EvidenceBlock, language: Language) -> int:
    return estimate_tokens(render_block(replace(block, excerpt="", text=""), language))


def _unit(s: BlockSentence, siblings: dict[tuple[int, int], BlockSentence]) -> list[BlockSentence]:
    """A sentence and, when it leans on it, the sentence before: also when the one before ends with a
    semicolon, the two being one sentence's coordinate clauses.

    Why (browser try-out, session 36): of "3.2 合同签订后5个工作日内，甲方支付总价款的30%；验收合格后10个工作日内，
    甲方支付剩余70%。" the answer model was shown the second clause alone (and the first only as the block's heading
    label, "3.2 合同签订后5个工作日内"), and wrote that the remaining 70% was paid within those 5 days."""
    prev = siblings.get((s.block, s.position - 1))
    leans = prev is not None and (needs_previous(s.text) or ends_at_semicolon(prev))
    return [prev, s] if prev is not None and leans else [s]


def compact_blocks(
    blocks: Sequence[EvidenceBlock],
    scored: Sequence[ScoredSentence],
    fixed_tokens: int,
    budget_tokens: int,
    language: Language,
    min_relative: float,
    top: int | None = None,
    required: Sequence[tuple[int, int]] = (),
) -> CompactPrompt:
    """Fill the budget with the best sentences, the top passage's best sentence first.

    ``top`` is the number of the top-ranked block (default: the first block). ``required``: (block,
    position) of sentences placed after it whatever they score or cost — the quoted answer's sentences
    that contradict or state the question's premise. Why: "试用期是90天，对吗？" left the CONFLICTING block out
    of the prompt (its sentences scored under the floor), so the model never saw the marked passage it is
    told to correct the premise from, and the correction quoted from that block cited a number the model's
    evidence did not hold (session 37).
    """
    if not blocks:
        return CompactPrompt([], budget_tokens, fixed_tokens, 0)
    scores = {(x.sentence.block, x.sentence.position): x.score for x in scored}
    siblings = {(x.sentence.block, x.sentence.position): x.sentence for x in scored}
    by_n = {b.n: b for b in blocks}
    top = top if top in by_n else blocks[0].n
    if not any(x.sentence.block == top for x in scored):  # not scored: its sentences, unscored
        siblings.update({(s.block, s.position): s for s in block_sentences(by_n[top])})
    order = {b.n: i for i, b in enumerate(blocks)}
    ranked = sorted(
        siblings.values(), key=lambda s: (-scores.get((s.block, s.position), 0.0), order[s.block], s.position)
    )
    first = next(s for s in ranked if s.block == top)
    must = [first, *(siblings[k] for k in required if k in siblings and siblings[k] is not first)]
    best = max(scores.values(), default=0.0)
    chosen: dict[int, dict[int, BlockSentence]] = {}
    used, left_out = 0, 0
    room = budget_tokens - fixed_tokens
    for s in [*must, *ranked]:
        score = scores.get((s.block, s.position), 0.0)
        forced = any(s is m for m in must)
        if not forced and (s.position in chosen.get(s.block, {}) or score < best * min_relative):
            continue
        unit = [u for u in _unit(s, siblings) if u.position not in chosen.get(u.block, {})]
        headed = {c.heading for c in chosen.get(s.block, {}).values()}
        cost = sum(estimate_tokens(u.text) for u in unit)
        cost += sum(estimate_tokens(h) for h in {u.heading for u in unit} - headed if h)
        if s.block not in chosen:
            cost += _header_tokens(by_n[s.block], language)
        if not forced and used + cost > room:
            left_out += 1
            continue
        chosen.setdefault(s.block, {}).update({u.position: u for u in unit})
        used += cost
    shown = [replace(b, excerpt=excerpt(b, list(chosen[b.n].values()))) for b in blocks if b.n in chosen]
    return CompactPrompt(
        shown,
        budget_tokens,
        fixed_tokens,
        used,
        {n: sorted(v.values(), key=lambda x: x.position) for n, v in chosen.items()},
        left_out,
        over_budget=fixed_tokens + used > budget_tokens,
    )
