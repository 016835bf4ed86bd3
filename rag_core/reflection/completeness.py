"""A fact the answer left out: a quoted sentence of a cited block that holds a value of the asked kind
none of whose numbers the answer states is added to the answer, quoted.

Why (try-out, session 40): "股权转让价款什么时候支付？" over a share-transfer agreement whose payment clause
reads "乙方应于本协议签署后10个工作日内支付价款的40%，即480万元；其余720万元于工商变更登记完成后15个工作日内付清。"
was answered by the local model "股权转让价款应于本协议签署后10个工作日内支付 [1]" — true, and every
sentence supported, so the support check passed it, but the lawyer read that the whole price falls due
within ten working days. The prompt showed both instalments; the small model kept one. What the
answer omits is read off the quoted answer, which already chose the sentences that answer the question
best (``generation.quoted``): one that holds the asked kind of value (a deadline for "when", an amount
for "how much") in a block the answer cites, none of whose numbers the answer mentions, is a part of the
answer the model dropped — when it is the other half of a sentence the answer reports half of. The
contract joins the two with a semicolon ("…支付价款的40%，即480万元；其余720万元于…付清"; "基础律师费人民币80,000元
…；另按…百分之八支付风险代理费"), the quoted answer splits them (``quoted.clauses_in_order``), and the model
reported the first. Narrow on purpose: only questions asking a numeric kind of value, only blocks the
answer cites, only the semicolon's other half (a further sentence of the clause — late-payment interest
beside a monthly fee, the deposit's return beside its amount — is another fact, which the model may
rightly leave out; so is another row of a table: "第二期什么时候还？" is answered by its row).

The quoted answer's lead sentence is the other omission: "押金是多少？" over a Chinese lease (押金人民币10000元,
the quoted answer's lead) and an English one (a deposit of GBP 24,000) was answered "押金是 GBP 24,000 [2]"
from the block the prompt showed first; the lead sentence is the evidence the quoted answer found to answer
best, and an answer citing none of its block and stating none of its numbers has left it out.
"""

from __future__ import annotations

from collections.abc import Sequence

from rag_core.answer_records import QuotedRecord
from rag_core.generation.prompt import Language
from rag_core.generation.quoted import ends_at_semicolon, quote_line
from rag_core.judge.relevance import asked_kinds, held_kinds
from rag_core.reflection.support import numbers_in
from rag_core.textproc import one_line

NUMERIC_ASKS: tuple[str, ...] = ("date", "amount", "period", "frequency", "percent", "number")
"""Kinds of asked value stated by numbers: what ``numbers_in`` can find in an answer or leave out of it."""

ALSO_LEAD: dict[Language, str] = {"zh": "合同原文另载：", "en": "The documents also state:"}
"""The line above the added quotes: what follows is the documents' text, not the model's (each quote's
citation names its document)."""


SEMICOLON_GAP_MAX_CHARS: int = 3
"""Characters (spaces, a line break) that may stand between the two halves of a sentence split at its semicolon."""


def joined_halves(a: QuotedRecord, b: QuotedRecord) -> bool:
    """``a`` and ``b`` are the two halves of one sentence of the document, split at a semicolon."""
    first, second = (a, b) if a.start <= b.start else (b, a)
    return (
        first.doc_id == second.doc_id
        and ends_at_semicolon(first)
        and 0 <= second.start - first.end <= SEMICOLON_GAP_MAX_CHARS
    )


def omitted_sentences(
    question: str, answer: str, quoted: Sequence[QuotedRecord], cited: set[int], limit: int
) -> list[QuotedRecord]:
    """Quoted sentences that hold a value of the kind ``question`` asks and share no number with
    ``answer``: the quoted answer's lead sentence when the answer does not cite its block, and in the
    blocks it cites the other half of a sentence (split at its semicolon) whose first half the answer
    states a number of; at most ``limit``, in the quoted answer's order."""
    # the most specific kind only: "How many days …?" asks a period, and any number is no period
    kinds = tuple(k for k in asked_kinds(question) if k in NUMERIC_ASKS)[:1]
    if not kinds or limit <= 0 or not quoted:
        return []
    said: set[str] = set().union(*numbers_in(answer, strict=False))
    values = [numbers_in(q.text, strict=True) for q in quoted]
    states = [any(v & said for v in vs) for vs in values]

    def left_out(i: int) -> bool:
        q = quoted[i]
        return (
            bool(values[i])
            and held_kinds(kinds, q.text) != ()
            and not states[i]
            and one_line(q.text) not in answer
        )

    stated = [q for q, st in zip(quoted, states, strict=True) if st]
    out = [quoted[0]] if quoted[0].n not in cited and left_out(0) else []
    for i, q in enumerate(quoted):
        if q.n in cited and left_out(i) and any(p.n == q.n and joined_halves(p, q) for p in stated):
            out.append(q)
    return out[:limit]


def with_omitted(answer: str, omitted: Sequence[QuotedRecord], language: Language) -> str:
    """``answer`` with the omitted sentences quoted under ``ALSO_LEAD``, each with its citation."""
    if not omitted:
        return answer
    lines = [ALSO_LEAD[language], *(quote_line(q.text, q.n) for q in omitted)]
    return answer.rstrip() + "\n\n" + "\n".join(lines)
