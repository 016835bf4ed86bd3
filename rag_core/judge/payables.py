"""Named sums: a Chinese passage that states another sum than the one asked is not its evidence.

Why (browser try-out, lease and labour contract in one base): "乙方每月工资多少？" quoted the lease's
"月租金为人民币6800元" as [2] beside the wage clause. The lease shares 乙方 and 每月 with the question,
the topic (price and payment) and the answer type (an amount) — every signal the judge weighs but the
one that matters: the clause states the rent, and the question asks the wage. Document scope cannot
tell (the lease lacks one of three question words), the evidence margin is per document.

The rule: when the question names a sum (rent, deposit, wage, interest, price, penalty, commission,
bonus) and a Chinese passage names another of them but not every one asked, its evidence is capped
(``topic_evidence_cap``). A passage that names no sum at all is left to the judge ("货款多久结一次？"
of a settlement clause that says only 付款), so a clause that states the asked sum in other words is
not lost for want of a noun.

Why Chinese passages only: a Chinese contract names a sum by its noun in the sentence that states it
(租金、工资、价款). English contracts name sums by defined terms ("the Fee", "Consideration", "Revenue
Share"); on the fit part of ``train/cuad`` the rule would have capped 34 of 231 gold spans of the two
bench categories whose questions name a sum (royalty, liquidated damages), while on the project's
written Chinese pairs (``qa_zh``, training data) it capped none of the 145 answering clauses of the
questions that name a sum, and 233 clauses of other topics of the same contract kinds (17 of those the
fitted judge scored 0.55 or more). On the Chinese check set (``bench zh-check``'s clauses, reported only,
read after the words were fixed) it caps none of the 36 answering clauses of such questions and 26 others.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rag_core.textproc import is_chinese


@dataclass(frozen=True)
class Payable:
    """A sum a contract states, with the words (regular expressions over lower-cased text) that name it."""

    name: str
    zh: str  # its name in Chinese (the note a lawyer reads)
    en: str  # its name in English
    words: tuple[str, ...]


PAYABLES: tuple[Payable, ...] = (
    Payable("rent", "租金", "rent", (r"租金", r"房租", r"月租", r"免租", r"[交付缴欠]租", r"\brents?\b")),
    Payable("deposit", "押金", "deposit", (r"押金", r"保证金", r"定金", r"\bdeposits?\b")),
    Payable(
        "wage",
        "工资",
        "wage",
        (r"工资", r"薪酬", r"薪资", r"薪水", r"工钱", r"劳动报酬", r"\bsalar", r"\bwages?\b", r"\bremunerat"),
    ),
    Payable("interest", "利息", "interest", (r"利息", r"利率", r"\binterest\b")),
    Payable(
        "price",
        "价款",
        "price",
        (r"价款", r"转让款", r"货款", r"房款", r"首付款", r"尾款", r"价格", r"总价", r"单价", r"成交价", r"\bprices?\b"),
    ),
    Payable("penalty", "违约金", "penalty", (r"违约金", r"滞纳金", r"罚金", r"liquidated damages", r"\bpenalt")),
    Payable("commission", "佣金", "commission", (r"佣金", r"提成", r"版税", r"\broyalt", r"(?<!arbitration )\bcommission")),
    Payable("bonus", "奖金", "bonus", (r"奖金", r"年终奖", r"\bbonus")),
)  # fmt: skip
"""The sums lawyers ask about by name, in general drafting words (written for the project; the Chinese
variants 免租, 房款, 首付款, 成交价 were added after reading the training pairs ``qa_zh`` whose answering
clauses name the asked sum so, and 交租 / 付租, 尾款, 年终奖 from the session-29 try-out's questions)."""


OTHER_SUM: str = "other_sum_named"
"""The explanation code of the cap (``local_judge.sum_note``); such a passage is never quoted as the asked
topic's clause either (``clause_gate.quotable``)."""


def mentions_at(p: Payable, low: str) -> list[int]:
    """Where the lower-cased ``low`` names ``p``, in order."""
    return sorted(m.start() for w in p.words for m in re.finditer(w, low))


def _first_at(p: Payable, low: str) -> int:
    """Where ``low`` first names ``p`` (-1: nowhere)."""
    found = mentions_at(p, low)
    return found[0] if found else -1


def named_payables(text: str) -> tuple[Payable, ...]:
    """The sums ``text`` names, in the order it first names them (the note names the first: a deposit
    clause that says "two months' rent" is about the deposit)."""
    low = text.lower()
    at = {p: _first_at(p, low) for p in PAYABLES}
    return tuple(sorted((p for p in PAYABLES if at[p] >= 0), key=lambda p: at[p]))


def other_sum(asked: tuple[Payable, ...], text: str) -> tuple[Payable, Payable] | None:
    """(a sum asked that ``text`` does not name, a sum it names that was not asked) for a Chinese
    ``text``; None when it names no other sum or every sum asked (``asked``: ``named_payables`` of
    the question).

    Why "every sum asked": "逾期交租的违约金怎么算？" kept a share agreement's late-payment penalty on
    the transfer price as EVIDENCE beside the lease's — it names the penalty, but of another sum. On
    the written pairs this caps 4 more clauses of other topics than "none asked" would, and no
    answering clause."""
    if not asked or not is_chinese(text):
        return None
    named = named_payables(text)
    missing = [p for p in asked if p not in named]
    others = [p for p in named if p not in asked]
    return (missing[0], others[0]) if missing and others else None
