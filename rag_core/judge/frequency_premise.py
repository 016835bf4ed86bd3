"""A premise about how often a sum is paid against a passage that states another payment period.

Why (try-out, session 29): "租金按月支付吗？" over a lease whose rent clause says "租金按季度支付" was
answered with that clause quoted and no correction: the premise holds no number, date or party, so
the value check (``conflict.value_conflict``) had nothing to compare, and the lawyer had to notice
that the answer said "no" without saying so. A payment period is a slot of its own: the question asks
whether the rent is paid monthly; a sentence of the passage that states when that sum is paid, and
only for other periods, contradicts it.

What counts as stating a payment period is narrow on purpose: a period word bound to a paying verb
("按季度支付", "每月5日前支付", "payable quarterly", "monthly instalments"), not a rate ("月租金",
"USD 2,000 per month" are amounts per period, not how often they are paid). A period counts for
the premise only when the premise's sum (``payables``) stands near it or, if the premise names none,
one of its other content words does.
"""

from __future__ import annotations

import re

from rag_core.coded import coded
from rag_core.judge.payables import Payable, mentions_at, named_payables

_PAY_ZH = r"(?:支付|付款|付清|交纳|缴纳|交付|预付|预交|发放|结算|结息|计付|付|交|缴)"
_GAP_ZH = r"(?!租|工资|薪|利|息|平均)[^，,。；;]{0,12}?"
"""Up to 12 characters of the same clause between the period and the paying verb, unless the period
word starts a sum's name: "按月租金的百分之二十支付" is a rate on the monthly rent, not a monthly payment."""
_PAY_EN = r"(?:paid|payable|due|billed|invoiced|pays?)\s+(?:\w+\s+){0,3}?"

PAYMENT_PERIODS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("week", re.compile(
        rf"(?:按|每个?)(?:周|星期){_GAP_ZH}{_PAY_ZH}|周付|{_PAY_EN}weekly\b|\bweekly\s+(?:payments?|instal?l?ments?)\b", re.I)),
    ("month", re.compile(
        rf"(?:按|每个?)月{_GAP_ZH}{_PAY_ZH}|月付|每(?:一|1)?个月为一期|{_PAY_EN}monthly\b|\bmonthly\s+(?:payments?|instal?l?ments?)\b", re.I)),
    ("quarter", re.compile(
        rf"(?:按|每个?)季度?{_GAP_ZH}{_PAY_ZH}|季付|每(?:三|3)个月为一期|每季度为一期|{_PAY_EN}quarterly\b|\bquarterly\s+(?:payments?|instal?l?ments?)\b",
        re.I)),
    ("year", re.compile(
        rf"(?:按|每)年度?{_GAP_ZH}{_PAY_ZH}|年付|每(?:十二|12)个月为一期|每年为一期|{_PAY_EN}(?:annually|yearly)\b|\b(?:annual|yearly)\s+(?:payments?|instal?l?ments?)\b",
        re.I)),
)  # fmt: skip
"""Payment periods, each as a period word bound to a paying verb (Chinese: within the same clause,
at most 12 characters apart, "每季度第一个月的5日前向甲方支付"; English: "payable in arrears
quarterly"), or as the length of an instalment ("分12期支付，每三个月为一期": session 45, "租金是按月支付的吗？" over a finance
lease paid quarterly was not corrected)."""

FREQUENCY_STRENGTH: float = 0.8
"""Conflict score of a sentence that states only other payment periods for the premise's sum: as sure
as a different number for the same thing (``conflict.TYPE_PRIOR``'s 0.9), less a margin for a sum
the sentence names beside another."""

ALTERNATIVE = re.compile(r"还是|或者|\bor\b", re.I)
"""An alternative question ("按月还是按季？") asks which period, and asserts none."""

_SENTENCE = re.compile(r"(?<=[!?;。！？；\n])\s*|(?<=\.)(?!\d)\s*")
"""Sentence ends; a full stop before a digit is a clause number's ("3.1 租金总额…" was quoted as "1 租金总额…")."""

NEAR_CHARS: int = 16
"""How far (characters) the premise's sum may stand from a stated payment period for the period to be
the sum's: "甲方每月支付乙方工资" is the wage's, while "按月向乙方支付经济补偿，标准为…平均工资" pays a
compensation measured by the wage (a non-compete clause is no contradiction of "工资按季度发放吗？")."""

PERIOD_SURFACES: dict[str, tuple[str, ...]] = {
    "week": ("每周", "按周", "每星期", "weekly"),
    "month": ("按月", "每月", "每个月", "月付", "monthly"),
    "quarter": ("按季度", "按季", "每季度", "每个季度", "季付", "quarterly"),
    "year": ("按年", "每年", "年付", "annually", "yearly"),
}
"""How a text names each period, its Chinese name first and its English one last (the note's words), and
how a draft answer may repeat it: a draft that opens by repeating the premise's false period ("工资按季度
发放 [1]。") affirms it (``reflection.premise.false_values``)."""


def payment_periods(text: str) -> frozenset[str]:
    """The payment periods ``text`` states (``PAYMENT_PERIODS``)."""
    return frozenset(name for name, rx in PAYMENT_PERIODS if rx.search(text))


def _anchors(low: str, sums: tuple[Payable, ...], words: list[str]) -> list[int]:
    """Where the lower-cased sentence ``low`` names the premise's sums (``payables``) or, for a premise
    naming none, one of its other ``words``."""
    if sums:
        return [i for p in sums for i in mentions_at(p, low)]
    return [m.start() for w in words for m in re.finditer(re.escape(w), low)]


def stated_periods(sentence: str, sums: tuple[Payable, ...], words: list[str]) -> frozenset[str]:
    """The payment periods the sentence states for the premise's sum: periods within ``NEAR_CHARS`` of
    one of its ``_anchors``."""
    at = _anchors(sentence.lower(), sums, words)
    return frozenset(
        name
        for name, rx in PAYMENT_PERIODS
        if any(m.start() - NEAR_CHARS <= i <= m.end() + NEAR_CHARS for m in rx.finditer(sentence) for i in at)
    )


def frequency_conflict(premise: str, passage: str, words: list[str]) -> tuple[float, str]:
    """``FREQUENCY_STRENGTH`` and why, when the premise states one payment period and the passage's
    sentences about its sum state only others; (0, "") otherwise. ``words``: the premise's content
    terms (lower-cased), read only when the premise names no sum."""
    asked = payment_periods(premise)
    if len(asked) != 1 or ALTERNATIVE.search(premise):
        return 0.0, ""
    sums = named_payables(premise)
    own = [w for w in words if not payment_periods(w) and len(w) > 1]
    stated: set[str] = set()
    quote = ""
    for sentence in _SENTENCE.split(passage):
        periods = stated_periods(sentence, sums, own)
        if periods:
            stated |= periods
            quote = quote or " ".join(sentence.split())[:80]
    if not stated or stated & asked:
        return 0.0, ""
    q = PERIOD_SURFACES[next(iter(asked))]
    p = PERIOD_SURFACES[sorted(stated)[0]]
    return FREQUENCY_STRENGTH, coded(
        "con_payment_period",
        f"the question says paid {q[-1]}, the passage {p[-1]}: '{quote}'",
        asked_zh=q[0],
        asked_en=q[-1],
        stated_zh=p[0],
        stated_en=p[-1],
        quote=quote,
    )
