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
answer the model dropped. Narrow on purpose: only questions asking a numeric kind of value, only blocks
the answer cites (a quoted sentence of another contract may be the bystander the model rightly left
out), a sentence the answer states any number of is taken as said, and a table row is one of parallel
items ("第二期什么时候还？" is answered by its row, not the first and third instalments').
"""

from __future__ import annotations

from collections.abc import Sequence

from rag_core.answer_records import QuotedRecord
from rag_core.generation.prompt import Language
from rag_core.ingest.extract import TABLE_CELL_SEPARATOR
from rag_core.judge.relevance import asked_kinds, held_kinds
from rag_core.reflection.support import numbers_in
from rag_core.textproc import one_line

NUMERIC_ASKS: tuple[str, ...] = ("date", "amount", "period", "frequency", "percent", "number")
"""Kinds of asked value stated by numbers: what ``numbers_in`` can find in an answer or leave out of it."""

ALSO_LEAD: dict[Language, str] = {"zh": "合同还约定：", "en": "The contract also provides:"}
"""The line above the added quotes: what follows is the contract's text, not the model's."""


def omitted_sentences(
    question: str, answer: str, quoted: Sequence[QuotedRecord], cited: set[int], limit: int
) -> list[QuotedRecord]:
    """Quoted sentences of the cited blocks that hold a value of the kind ``question`` asks and share
    no number with ``answer``, at most ``limit``, in the quoted answer's order."""
    # the most specific kind only: "How many days …?" asks a period, and any number is no period
    kinds = tuple(k for k in asked_kinds(question) if k in NUMERIC_ASKS)[:1]
    if not kinds or limit <= 0:
        return []
    said: set[str] = set().union(*numbers_in(answer, strict=False))
    out: list[QuotedRecord] = []
    for q in quoted:
        if q.n not in cited or TABLE_CELL_SEPARATOR in q.text or not held_kinds(kinds, q.text):
            continue
        values = numbers_in(q.text, strict=True)
        if values and not any(v & said for v in values) and one_line(q.text) not in answer:
            out.append(q)
        if len(out) >= limit:
            break
    return out


def with_omitted(answer: str, omitted: Sequence[QuotedRecord], language: Language) -> str:
    """``answer`` with the omitted sentences quoted under ``ALSO_LEAD``, each with its citation."""
    if not omitted:
        return answer
    lines = [ALSO_LEAD[language], *(f"“{one_line(q.text)}” [{q.n}]" for q in omitted)]
    return answer.rstrip() + "\n\n" + "\n".join(lines)
