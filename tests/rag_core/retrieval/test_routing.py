from __future__ import annotations

from rag_core.retrieval.routing import name_tokens, route

DOCS = [
    {
        "id": "d1",
        "file_name": "GluMobileInc_Content License Agreement.txt",
        "title": "Wireless Content License Agreement",
        "terms": "Fox Mobile Entertainment, Inc.\nGlu Mobile Inc.",
    },
    {
        "id": "d2",
        "file_name": "FLOTEKINDUSTRIES_SUPPLY AGREEMENT.txt",
        "title": "Supply Agreement",
        "terms": "Flotek Industries\nFlorida Chemical Company",
    },
    {
        "id": "d3",
        "file_name": "DYNAMEX_TRANSPORTATION SERVICES AGREEMENT.txt",
        "title": "Transportation Services Agreement",
        "terms": "Dynamex Inc.",
    },
    {
        "id": "d4",
        "file_name": "房屋租赁合同.docx",
        "title": "房屋租赁合同",
        "terms": "北京华昌盛科技有限公司",
    },
]


def test_routes_english_named_contract() -> None:
    q = "Consider the Supply Agreement between Flotek Industries and Florida Chemical Company; what is the term?"
    d = route(q, DOCS, 0.5)
    assert d is not None and d.doc_id == "d2"
    assert "flotek" in d.matched


def test_routes_chinese_book_title() -> None:
    d = route("在《房屋租赁合同》中，租金是多少？", DOCS, 0.5)
    assert d is not None and d.doc_id == "d4"


def test_no_route_for_generic_question() -> None:
    assert route("What is the governing law of the agreement?", DOCS, 0.5) is None
    assert route("违约金是多少？", DOCS, 0.5) is None


def test_no_route_with_single_document() -> None:
    assert route("Consider the Supply Agreement between Flotek", DOCS[1:2], 0.5) is None


def test_generic_words_do_not_count() -> None:
    assert "agreement" not in name_tokens("Supply Agreement")
    assert "supply" in name_tokens("SupplyAgreement")


def test_strip_names_removes_the_contract_name_but_keeps_the_question() -> None:
    from rag_core.retrieval.routing import strip_names

    q = "Which law governs the Master Services Agreement?"
    assert "law governs" in strip_names(q, ["master", "services"]).lower()
    assert "master" not in strip_names(q, ["master", "services"]).lower()
    assert strip_names("Master Services", ["master", "services"]) == "Master Services"
