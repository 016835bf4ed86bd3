"""Which row of a tiered table (or which threshold sentence) a question's condition falls in: "What service credit
applies if uptime is 98%?" → "95.0% to below 99.0% | 25".

Why (session 45 try-out): a SaaS agreement's service-level table (99.9% or higher | 0, 99.0% to below 99.9% | 10,
95.0% to below 99.0% | 25, below 95.0% | 50) scores alike row by row, so the quoted answer to "如果月可用率低于99%，客户能
获得多少服务抵扣？" held the header, the 99.9% row and two sentences around the table, and not the row that answers.
A lawyer reads such a table by the condition: which band holds 98 %. Tiers of this shape are common — late-payment
rates by days overdue, volume discounts, service credits — so the row is found by reading each row's band, not by
its words.

A band is read from one cell: two values of one kind joined by "to" / "至" / "-" ("95.0% to below 99.0%", "15至30日"), or
one value with a direction before or after it ("below 95.0%", "99.9% or higher", "30日以上", "低于95%"). The asked
point is the one value inside the question's condition (``conflict.conditional_spans``), moved just past it when the
condition says "below" / "above" ("falls below 95%", "超过30日"). Only a band of the point's kind counts, and only when
exactly one row of the table holds the point: two rows holding it say the table is not a tiering.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from rag_core.ingest.extract import TABLE_CELL_SEPARATOR, table_headers
from rag_core.judge.clause_types import question_parts
from rag_core.judge.conflict import conditional_spans
from rag_core.judge.values import Value, extract_values, normalize_text

_BELOW_BEFORE = re.compile(
    r"(?:\bbelow|\bunder|\bless than|\blower than|\bfewer than|<|低于|不足|少于|未满|不到|小于)\s*$",
    re.IGNORECASE,
)
_ABOVE_BEFORE = re.compile(
    r"(?:\babove|\bover|\bmore than|\bexceed(?:s|ing)?|\bgreater than|\bhigher than|\bat least|\bnot less than|>=?|≥"
    r"|超过|高于|多于|大于|不低于|不少于)\s*$",
    re.IGNORECASE,
)
_UP_AFTER = re.compile(
    r"^\s*(?:or (?:higher|more|above|greater)|and (?:above|over|more)|\+|(?:及|或)?以上)", re.IGNORECASE
)
_DOWN_AFTER = re.compile(
    r"^\s*(?:or (?:lower|less|below|fewer)|and below|(?:及|或)?以下|以内)", re.IGNORECASE
)
_JOIN = re.compile(
    r"^\s*(?:to|through|up to|–|—|-|~|～|至|到)\s*(?P<open>below|under|less than)?\s*$", re.IGNORECASE
)

NUDGE: float = 1e-6
"""How far past its value a "below" / "above" condition's point lies (a share of the value, at least this)."""


@dataclass(frozen=True)
class Band:
    """A row's range of one kind of value: low ≤ x, and x < high (``high_open``) or x ≤ high."""

    kind: str
    low: float
    high: float
    high_open: bool = False

    def holds(self, kind: str, x: float) -> bool:
        """Whether a value of ``kind`` lies in the band (a bare number's band takes any kind: "1000 or more" units)."""
        same = kind == self.kind or "number" in (kind, self.kind)
        return same and self.low <= x and (x < self.high if self.high_open else x <= self.high)


def _number(v: Value) -> float | None:
    head = v.key[0] if v.key else None
    return float(head) if isinstance(head, int | float) else None


_CELL_NUMBER = re.compile(
    r"(?P<x>\d+(?:\.\d+)?)\s*(?P<unit>%|％|percent\b|per cent\b|个月|月|日|天|days?\b|months?\b|years?\b|年|元|万元)?",
    re.IGNORECASE,
)


_CLAUSE_LABEL = re.compile(r"^\s*\(?\d+(?:\.\d+)*[.)、]?\s+")
"""A sentence's clause number ("4.2 乙方逾期…超过30日的"), which is no value of its band."""


def _unit_kind(unit: str | None) -> str:
    """A cell number's kind by the unit after it, in ``values``' names (a band is compared with a value of its kind)."""
    if not unit:
        return "number"
    if unit.lower() in {"%", "％", "percent", "per cent"}:
        return "percent"
    return "amount" if unit.endswith("元") else "period"


def cell_band(cell: str) -> Band | None:
    """The band one cell states, or ``None`` (no number, or no direction or join saying it is a band). A range's
    unit written once ("15至30日", "95-99%") is both ends'."""
    norm = _CLAUSE_LABEL.sub("", normalize_text(cell))
    found = list(_CELL_NUMBER.finditer(norm))
    if len(found) == 2:
        first, second = found
        joined = _JOIN.match(
            norm[first.end("x") if not first.group("unit") else first.end() : second.start()]
        )
        if joined:
            kind = _unit_kind(second.group("unit") or first.group("unit"))
            low, high = float(first.group("x")), float(second.group("x"))
            return Band(kind, low, high, high_open=bool(joined.group("open")))
    if len(found) != 1:
        return None
    m = found[0]
    x, kind = float(m.group("x")), _unit_kind(m.group("unit"))
    before, after = norm[: m.start()], norm[m.end() :]
    if _BELOW_BEFORE.search(before):
        return Band(kind, -math.inf, x, high_open=True)
    if _DOWN_AFTER.match(after):
        return Band(kind, -math.inf, x)
    if _ABOVE_BEFORE.search(before) or _UP_AFTER.match(after):
        return Band(kind, x, math.inf)
    return None


def asked_point(question: str) -> tuple[str, float] | None:
    """The kind and value of the one value inside the question's condition, moved just below or above it when the
    condition says so; ``None`` without exactly one such value."""
    norm = normalize_text(question)
    spans = conditional_spans(norm)
    values = [
        v for v in extract_values(norm) if any(a <= v.start < b for a, b in spans) and _number(v) is not None
    ]
    if len(values) != 1:
        return None
    v = values[0]
    x = _number(v)
    if x is None:
        return None
    step = max(NUDGE, abs(x) * NUDGE)
    if _BELOW_BEFORE.search(norm[: v.start]):
        x -= step
    elif _ABOVE_BEFORE.search(norm[: v.start]):
        x += step
    return v.kind, x


def banded_table(question: str, lines: Sequence[str]) -> tuple[list[int], int] | None:
    """The first table of ``lines`` (``extract.table_headers``) with a row whose band holds the question's condition:
    the indexes of its rows among ``lines`` and the position of that row among them; ``None`` without such a table.
    What the premise check cuts a passage to and what the support check holds an answer's tier to."""
    heads = table_headers(lines)
    for head in sorted({h for h in heads if h >= 0}):
        rows = [i for i, h in enumerate(heads) if h == head]
        at = banded_row(question, [lines[i] for i in rows], TABLE_CELL_SEPARATOR)
        if at is not None:
            return rows, at
    return None


def banded_sentence(question: str, sentences: Sequence[str]) -> int | None:
    """The index of the one sentence whose band, read as one cell, holds the question's condition, or ``None``:
    "What if the lessee is 45 days late with a rent payment?" → "乙方逾期支付任何一期租金超过30日的，甲方有权解除本合同…"."""
    return banded_row(question, sentences, "\n")


def banded_row(question: str, rows: Sequence[str], separator: str) -> int | None:
    """The index of the one row (cells joined by ``separator``) whose band holds the question's condition (of its
    last part that states one), or ``None``."""
    # a follow-up joined to the question before it asks with its own condition ("What if it falls below 95%?")
    point = next((p for part in reversed(question_parts(question)) if (p := asked_point(part))), None)
    if point is None:
        return None
    holding = [
        i
        for i, row in enumerate(rows)
        if any((band := cell_band(cell)) is not None and band.holds(*point) for cell in row.split(separator))
    ]
    return holding[0] if len(holding) == 1 else None
