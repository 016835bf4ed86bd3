"""Citation markers: parsing every written form, checking, stripping, resolving to source spans."""

from __future__ import annotations

import pytest

from rag_core.generation.citations import (
    build_citations,
    check_citations,
    find_citations,
    remove_citation_markers,
    strip_invalid_citations,
)
from rag_core.models import EvidenceBlock, Hit

BLOCKS = [
    EvidenceBlock(
        1, "采购合同", "p.pdf", 3, "第五条", "违约金为5%。", start=100, end=106, doc_id="d1", chunk_id="c1"
    ),
    EvidenceBlock(
        2, "采购合同", "p.pdf", 4, "第六条", "不得解除。", start=200, end=205, doc_id="d1", chunk_id="c2"
    ),
]


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("The fee is 5% [1].", [1]),
        ("See [1][2].", [1, 2]),
        ("See [1, 2] and [2,3].", [1, 2, 3]),
        ("See [1-3].", [1, 2, 3]),
        ("See [1–3].", [1, 2, 3]),
        ("违约金为5%【1】。", [1]),
        ("违约金为5%［２］。", [2]),
        ("见[1，3]与[2、4]。", [1, 3, 2, 4]),
        ("见〔1〕。", [1]),
        ("见[资料2]和[Evidence 1]。", [2, 1]),
        ("[ 1 ]", [1]),
        ("[3-1]", [3, 1, 2]),
        ("No citation here.", []),
        ("In [2024] the fee rose.", []),
        ("A list [a] is not a citation.", []),
    ],
)
def test_find_citations_reads_every_form(text: str, numbers: list[int]) -> None:
    assert find_citations(text) == numbers


def test_find_citations_keeps_first_seen_order_without_repeats() -> None:
    assert find_citations("a [2] b [1] c [2] d [1][2]") == [2, 1]


def test_check_citations_splits_valid_and_invalid() -> None:
    check = check_citations("A [1]. B [3]. C [2, 7].", BLOCKS)
    assert check.valid == [1, 2]
    assert check.invalid == [3, 7]


@pytest.mark.parametrize(
    ("text", "invalid", "expected"),
    [
        ("The fee is 5% [7].", [7], "The fee is 5%."),
        ("The fee is 5% [1, 7].", [7], "The fee is 5% [1]."),
        ("Fee [1][7] due.", [7], "Fee [1] due."),
        ("违约金为5%【7】。", [7], "违约金为5%。"),
        ("Terms [1-3].", [3], "Terms [1, 2]."),
        ("Valid [1] stays [2].", [7], "Valid [1] stays [2]."),
        ("Nothing to do [1].", [], "Nothing to do [1]."),
    ],
)
def test_strip_invalid_citations(text: str, invalid: list[int], expected: str) -> None:
    assert strip_invalid_citations(text, invalid) == expected


def test_remove_citation_markers_removes_all() -> None:
    assert remove_citation_markers("Fee 5% [1]. Term【2】and [1-3].") == "Fee 5%. Term and."


def test_build_citations_resolves_blocks_to_their_source_spans() -> None:
    citations = build_citations([2, 1, 9], BLOCKS)
    assert [c.n for c in citations] == [2, 1]
    first = citations[0]
    assert (first.doc, first.page, first.clause, first.start, first.end, first.text) == (
        "p.pdf",
        4,
        "第六条",
        200,
        205,
        "不得解除。",
    )
    assert (first.doc_id, first.chunk_id) == ("d1", "c2")


def test_build_citations_from_hits_numbers_them_by_position() -> None:
    hits = [
        Hit("a.pdf", "da", "ca", 0, 4, 1, "§1", 0.9, "text"),
        Hit("b.pdf", "db", "cb", 5, 9, 2, "§2", 0.8, "more"),
    ]
    citations = build_citations([2], hits)
    assert len(citations) == 1
    assert (citations[0].n, citations[0].doc, citations[0].start, citations[0].text) == (
        2,
        "b.pdf",
        5,
        "more",
    )
