"""A tiered table's row is found by the band that holds the question's condition."""

from __future__ import annotations

import math

from rag_core.generation.prompt import EvidenceBlock
from rag_core.generation.quoted import score_blocks, select_quoted
from rag_core.generation.table_lookup import Band, asked_point, banded_row, cell_band
from rag_core.settings import Settings

SLA_ROWS = [
    "99.9% or higher | 0",
    "99.0% to below 99.9% | 10",
    "95.0% to below 99.0% | 25",
    "below 95.0% | 50",
]
LATE_ROWS = ["逾期15日以内 | 0.05%", "逾期15日至30日 | 0.1%", "逾期30日以上 | 0.2%"]


def test_a_cell_states_a_band_by_a_join_or_a_direction() -> None:
    assert cell_band("95.0% to below 99.0%") == Band("percent", 95.0, 99.0, high_open=True)
    assert cell_band("99.9% or higher") == Band("percent", 99.9, math.inf)
    assert cell_band("below 95.0%") == Band("percent", -math.inf, 95.0, high_open=True)
    assert cell_band("逾期15日至30日") == Band("period", 15.0, 30.0)
    assert cell_band("逾期30日以上") == Band("period", 30.0, math.inf)
    assert cell_band("25") is None and cell_band("0.1%") is None  # a value alone is no band
    assert cell_band("2025年1月1日至2025年12月31日") is None


def test_the_asked_point_is_the_value_of_the_condition_moved_past_a_direction() -> None:
    assert asked_point("What service credit applies if uptime is 98%?") == ("percent", 98.0)
    kind, x = asked_point("如果月可用率低于99%，客户能获得多少服务抵扣？") or ("", 0.0)
    assert kind == "percent" and 98.99 < x < 99
    assert asked_point("What is the service credit?") is None
    assert asked_point("The credit is 10% if uptime is 98%, right?") is None  # a tag asserts: no condition


def test_the_one_row_holding_the_condition_is_found() -> None:
    """Session 45 try-out: the service-level table's rows scored alike and the quoted answer to "如果月可用率低于99%…"
    held the 99.9% row, not the 95-99 % one."""
    sep = " | "
    assert banded_row("What service credit applies if uptime is 98%?", SLA_ROWS, sep) == 2
    assert banded_row("如果月可用率低于99%，客户能获得多少服务抵扣？", SLA_ROWS, sep) == 2
    assert banded_row("What credit applies if uptime is 99.95%?", SLA_ROWS, sep) == 0
    assert (
        banded_row("What service credit applies if uptime is 98%? What if it falls below 95%?", SLA_ROWS, sep)
        == 3
    )
    assert banded_row("如果逾期20天，违约金比例是多少？", LATE_ROWS, sep) == 1
    assert banded_row("逾期超过30日时，违约金是多少？", LATE_ROWS, sep) == 2
    assert banded_row("What is the service credit?", SLA_ROWS, sep) is None
    assert (
        banded_row("What if uptime is 98%?", ["Tier A | 95.0% or higher", "Tier B | 90.0% or higher"], sep)
        is None
    )


def test_the_quoted_answer_quotes_the_banded_row_under_its_header() -> None:
    table = "4. Service Levels\nMonthly Uptime | Service Credit (%)\n" + "\n".join(SLA_ROWS) + "\n"
    block = EvidenceBlock(
        1, "SaaS", "saas.docx", 1, "4. Service Levels", table, False, 0, len(table), "d", "c1"
    )
    q = "如果月可用率低于99%，客户能获得多少服务抵扣？"

    def scores(_q: str, sentences: list[str]) -> list[float]:  # the try-out's: the 99.9% row best
        return [0.43 if "99.9% or" in t else 0.39 for t in sentences]

    quoted = select_quoted([block], score_blocks(q, [block], scores), Settings().generation, q)
    assert [x.text for x in quoted.sentences] == [
        "Monthly Uptime | Service Credit (%)",
        "95.0% to below 99.0% | 25",
    ]


def test_a_threshold_sentence_holding_the_condition_is_quoted_first() -> None:
    """Session 45 try-out: "What if the lessee is 45 days late with a rent payment?" quoted the daily late fee, the
    total rent and the deposit, and left out "乙方逾期支付任何一期租金超过30日的，甲方有权解除本合同…" of the same passage."""
    text = (
        "第四条 逾期付款\n4.1 乙方逾期支付租金的，每逾期一日，应按逾期金额的万分之五向甲方支付违约金。\n"
        "4.2 乙方逾期支付任何一期租金超过30日的，甲方有权解除本合同、收回租赁物。\n"
    )
    block = EvidenceBlock(
        1, "融资租赁合同", "lease.pdf", 2, "第四条 逾期付款", text, False, 0, len(text), "d", "c1"
    )

    def scores(_q: str, sentences: list[str]) -> list[float]:
        return [0.61 if "万分之五" in t else 0.3 for t in sentences]

    for q, first in (
        ("What if the lessee is 45 days late with a rent payment?", "4.2"),
        ("如果乙方逾期10天支付租金，要付多少违约金？", "4.1"),
    ):
        s = Settings().generation
        quoted = select_quoted([block], score_blocks(q, [block], scores), s, q)
        assert quoted.sentences[0].text.startswith(first), (q, [x.text for x in quoted.sentences])


def test_a_correcting_table_row_leads_under_its_header() -> None:
    """Session 45 try-out: "Is the customer entitled to a service credit of 10% if uptime is 98%?" was corrected with
    "95.0% to below 99.0% | 25" alone, which does not say that 25 is the credit in per cent."""
    table = "4. Service Levels\nMonthly Uptime | Service Credit (%)\n" + "\n".join(SLA_ROWS) + "\n"
    block = EvidenceBlock(
        1, "SaaS", "saas.docx", 1, "4. Service Levels", table, True, 0, len(table), "d", "c1"
    )
    q = "Is the customer entitled to a service credit of 10% if uptime is 98%?"

    def scores(_q: str, sentences: list[str]) -> list[float]:
        return [0.43 if "99.9% or" in t else 0.39 for t in sentences]

    quoted = select_quoted([block], score_blocks(q, [block], scores), Settings().generation, q)
    assert [x.text for x in quoted.sentences][:2] == [
        "Monthly Uptime | Service Credit (%)",
        "95.0% to below 99.0% | 25",
    ]
