"""The retriever's optional steps against a real LanceDB and a real OpenAI-compatible server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rag_core.coded import code_of
from rag_core.llm.openai_client import OpenAIChatModel
from rag_core.models import ChatTurn, Hit, KnowledgeBase
from rag_core.retrieval.budget import Passage, apply_budget, expand_to_parents
from rag_core.retrieval.query_building import earlier_route_questions
from rag_core.retrieval.retriever import Retriever
from rag_core.settings import ModelSettings, Settings
from rag_core.trace_retrieval import KbRetrievalRecord
from storage.store import Store
from tests.fakeopenai import FakeOpenAI, Reply
from tests.fixtures.kb import make_kb

LEASE = (
    "房屋租赁合同\n\n第一条 租金\n租金每月人民币5000元，乙方应于每月5日前支付。\n\n"
    "第二条 押金\n押金为人民币10000元，合同终止后退还。\n\n"
    "第三条 解除\n乙方逾期支付租金超过15日的，甲方有权解除本合同。\n"
)
MSA = (
    "Master Services Agreement\n\nSection 1 Fees\nClient shall pay a monthly fee of USD 12,500.\n\n"
    "Section 2 Termination\nEither party may terminate this Agreement upon ninety days written notice.\n\n"
    "Section 3 Governing Law\nThis Agreement is governed by the laws of the State of New York.\n"
)


def _kb(store: Store, name: str, files: list[tuple[str, str]], settings: Settings) -> KnowledgeBase:
    return make_kb(store, settings, name, [(n, t.encode()) for n, t in files])


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    root: Path = tmp_path_factory.mktemp("retr")
    store = Store(root / "store")
    settings = Settings()
    zh = _kb(store, "leases", [("lease.txt", LEASE)], settings)
    en = _kb(store, "msa", [("msa.txt", MSA)], settings)
    yield {"store": store, "zh": zh, "en": en}


def _llm(server: FakeOpenAI) -> OpenAIChatModel:
    return OpenAIChatModel(server.base_url, "k", "fake-chat", ModelSettings(retries=0), "rewrite")


def test_hyde_and_multi_query_add_lists_and_are_traced(world: dict[str, Any]) -> None:
    def responder(req: dict[str, Any]) -> Reply:
        prompt = req["messages"][-1]["content"]
        if "hypothetical" in prompt or "合同条款" in prompt or "Write one contract clause" in prompt:
            return Reply(content="Either party may terminate this Agreement upon written notice.")
        return Reply(content="termination notice period\nhow to end the agreement\nnotice days to terminate")

    settings = Settings()
    settings.retrieval.hyde = settings.retrieval.multi_query = True
    with FakeOpenAI(responder) as server:
        res = Retriever(world["store"], settings, _llm(server)).search_kb(
            world["en"], "Can the contract be ended early?"
        )
        sent = [r["messages"][-1]["content"] for r in server.chat_requests()]
    assert res.trace["hyde"].startswith("Either party may terminate")
    assert len(res.trace["rewrites"]) == 3
    assert "hyde_vector" in res.trace["legs"] and "rewrite1_bm25" in res.trace["legs"]
    assert "Termination" in res.hits[0].clause
    assert any("Can the contract be ended early?" in s for s in sent)


def test_expansion_without_llm_is_skipped_with_a_note(world: dict[str, Any]) -> None:
    settings = Settings()
    settings.retrieval.hyde = True
    res = Retriever(world["store"], settings, None).search_kb(world["en"], "termination notice")
    assert any("no LLM" in n for n in res.trace["notes"])
    assert res.hits


def test_llm_rerank_reorders_and_unparsable_scores_five(world: dict[str, Any]) -> None:
    def responder(req: dict[str, Any]) -> Reply:
        prompt = req["messages"][-1]["content"]
        if "New York" in prompt:
            return Reply(content="10")
        if "monthly fee" in prompt:
            return Reply(content="no idea")  # unparsable → 5
        return Reply(content="1")

    settings = Settings()
    settings.retrieval.rerank = "llm"
    with FakeOpenAI(responder) as server:
        res = Retriever(world["store"], settings, _llm(server)).search_kb(
            world["en"], "monthly fee payment", k=3
        )
    assert "New York" in res.hits[0].text
    scores = {h.chunk_id: h.explain.get("rerank_score") for h in res.hits}
    assert 10.0 in scores.values() and 5.0 in scores.values()
    assert res.trace["rerank"]["method"] == "llm"


def test_several_knowledge_bases_are_interleaved(world: dict[str, Any]) -> None:
    res = Retriever(world["store"], Settings()).search([world["zh"], world["en"]], "租金 fee", k=4)
    kbs = [h.explain["kb"] for h in res.hits]
    assert kbs[:2] in (["leases", "msa"], ["msa", "leases"])
    assert res.trace["merge"] == "interleave"


def test_modes_bm25_and_vector_use_one_leg(world: dict[str, Any]) -> None:
    r = Retriever(world["store"], Settings())
    bm = r.search_kb(world["zh"], "押金", mode="bm25")
    assert set(bm.trace["legs"]) <= {"bm25", "bigram"} and "押金" in bm.hits[0].text
    vec = r.search_kb(world["zh"], "押金", mode="vector")
    assert set(vec.trace["legs"]) == {"vector"}
    assert all(
        h.explain["legs"]["vector"]["score"] >= Settings().retrieval.vector_min_similarity for h in vec.hits
    )


def test_model_clause_is_searched_inside_a_named_contract_only_and_can_be_switched_off(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path / "both")
    settings = Settings()
    kb = _kb(store, "both", [("lease.txt", LEASE), ("msa.txt", MSA)], settings)
    named = "In the Master Services Agreement, can the agreement be terminated early?"
    on = Retriever(store, settings).search_kb(kb, named)
    assert on.trace["routing"] is not None
    assert "routed_prototype" in on.trace["legs"] and on.trace["prototype"].startswith(
        "Either party may terminate"
    )
    assert "prototype" not in on.trace["legs"]  # not across the whole knowledge base
    assert "Termination" in on.hits[0].clause
    unnamed = Retriever(store, settings).search_kb(kb, "Can the agreement be terminated early?")
    assert unnamed.trace["routing"] is None
    assert not any(leg.endswith("prototype") for leg in unnamed.trace["legs"])
    settings.retrieval.clause_prototypes = False
    off = Retriever(store, settings).search_kb(kb, named)
    assert not any(leg.endswith("prototype") for leg in off.trace["legs"]) and "prototype" not in off.trace


SUPPLY = (
    "Supply Agreement between Acme Corp and Northwind Ltd\n\nSection 1 Term\nThis Agreement remains in "
    "force for five years.\n\nSection 2 Termination\nEither party may terminate this Agreement on "
    "thirty days notice.\n"
)


def test_a_question_naming_one_contract_searches_only_that_contract(tmp_path: Path) -> None:
    """Other contracts' clauses of the same type must not become its evidence."""
    store = Store(tmp_path / "three")
    settings = Settings()
    kb = _kb(store, "three", [("lease.txt", LEASE), ("msa.txt", MSA), ("supply.txt", SUPPLY)], settings)
    named = "In the Master Services Agreement, can the agreement be terminated early?"
    only = Retriever(store, settings).search_kb(kb, named)
    assert only.hits and {h.doc for h in only.hits} == {"msa.txt"}
    assert [code_of(n)[0] for n in only.trace["notes"]] == ["retrieval_routed_only"]
    settings.retrieval.routing_exclusive = False
    whole = Retriever(store, settings).search_kb(kb, named)
    assert whole.hits[0].doc == "msa.txt" and {h.doc for h in whole.hits} > {"msa.txt"}
    assert "retrieval_routed_only" not in [code_of(n)[0] for n in whole.trace["notes"]]


def test_small_to_big_dedupes_children_of_one_parent(world: dict[str, Any]) -> None:
    store, kb = world["store"], world["zh"]
    hits = Retriever(store, Settings()).search_kb(kb, "租金 押金 解除", k=5).hits
    passages = expand_to_parents(store, kb, hits, small_to_big=True)
    parent_ids = [p.hit.chunk_id for p in passages]
    assert len(parent_ids) == len(set(parent_ids))
    text = store.docs.text(hits[0].doc_id)
    for p in passages:
        assert text[p.hit.start : p.hit.end] == p.hit.text
        for c in p.children:
            assert p.hit.start <= c.start and c.end <= p.hit.end


def _hit(cid: str, n: int) -> Hit:
    return Hit("d.txt", "d", cid, 0, n, None, "", 1.0, "x" * n)


def test_budget_limits_count_and_characters_and_falls_back_to_the_child() -> None:
    parent = Hit("d.txt", "d", "p", 0, 900, None, "", 1.0, "p" * 900)
    child = _hit("c", 100)
    passages = [
        Passage(_hit("a", 400), [_hit("a", 400)]),
        Passage(parent, [child]),
        Passage(_hit("b", 50), []),
    ]
    kept, notes = apply_budget(passages, max_passages=6, max_chars=600)
    assert [p.hit.chunk_id for p in kept] == ["a", "c", "b"]
    assert any("child c used" in n for n in notes)
    kept, notes = apply_budget(passages, max_passages=1, max_chars=10_000)
    assert [p.hit.chunk_id for p in kept] == ["a"] and len(notes) == 2


def test_budget_never_drops_the_top_ranked_passage() -> None:
    long_top = Hit("d.txt", "d", "top", 0, 5000, None, "", 1.0, "t" * 5000)
    passages = [
        Passage(_hit("a", 2000), [_hit("a", 2000)]),
        Passage(_hit("b", 2000), [_hit("b", 2000)]),
        Passage(long_top, [long_top]),  # the best retrieval rank, but third in evidence order
    ]
    kept, notes = apply_budget(passages, max_passages=6, max_chars=4500, top_chunk_id="top")
    assert "top" in [p.hit.chunk_id for p in kept]
    assert [p.hit.chunk_id for p in kept] == ["top"]  # order kept; the others no longer fit
    assert any("top-ranked passage kept" in n for n in notes)
    kept, _ = apply_budget(passages, max_passages=6, max_chars=4500)  # no top named: the first
    assert [p.hit.chunk_id for p in kept] == ["a", "b"]
    kept, _ = apply_budget(passages, max_passages=2, max_chars=None, top_chunk_id="top")
    assert [p.hit.chunk_id for p in kept] == ["a", "top"]  # count only; the top passage counts first
    assert apply_budget([], 6, 4500) == ([], [])


def test_expansions_also_search_inside_the_routed_contract(world: dict[str, Any], tmp_path: Path) -> None:
    store = Store(tmp_path / "both")
    settings = Settings()
    kb = _kb(store, "both", [("lease.txt", LEASE), ("msa.txt", MSA)], settings)
    settings.retrieval.hyde = settings.retrieval.multi_query = True
    settings.retrieval.multi_query_count = 1

    def responder(req: dict[str, Any]) -> Reply:
        return Reply(content="Either party may terminate this Agreement upon written notice.")

    with FakeOpenAI(responder) as server:
        res = Retriever(store, settings, _llm(server)).search_kb(
            kb, "In the Master Services Agreement, can it be ended early?"
        )
        calls = len(server.chat_requests())
    assert res.trace["routing"] and calls == 2, "HyDE and rewrites are asked once, used in both scopes"
    assert "routed_hyde_vector" in res.trace["legs"] and "hyde_vector" in res.trace["legs"]
    assert res.hits[0].explain.get("routed") and "Termination" in res.hits[0].clause


def test_a_question_in_the_other_language_also_searches_its_translated_words(tmp_path: Path) -> None:
    """A Chinese question about an English contract shares no word with it: the translated keyword
    leg (glossary + thesaurus) searches "governed"/"laws", and only where a document of the other
    language is in scope, so a monolingual base never runs it."""
    store = Store(tmp_path / "mixed")
    settings = Settings()
    kb = _kb(store, "mixed", [("lease.txt", LEASE), ("msa.txt", MSA)], settings)
    got = Retriever(store, settings).search_kb(kb, "合同约定的准据法是什么？")
    assert "bm25_translated" in got.trace["legs"]
    assert {"governed", "laws"} <= set(got.trace["translated"]["query"])
    translated = got.trace["legs"]["bm25_translated"]
    assert translated and "Governing Law" in next(
        h.clause for h in got.hits if h.chunk_id == translated[0]["chunk_id"]
    )
    english = Retriever(store, settings).search_kb(kb, "What is the monthly rent?")
    assert "租金" in english.trace["translated"]["query"]
    assert any(h.doc == "lease.txt" for h in english.hits[:3])
    settings.retrieval.cross_language = False
    off = Retriever(store, settings).search_kb(kb, "合同约定的准据法是什么？")
    assert "bm25_translated" not in off.trace["legs"] and "translated" not in off.trace


def test_a_monolingual_base_runs_no_translated_leg(world: dict[str, Any]) -> None:
    got = Retriever(world["store"], Settings()).search_kb(world["zh"], "租金是多少？")
    assert "bm25_translated" not in got.trace["legs"]


def test_the_translated_legs_best_hits_are_always_candidates(tmp_path: Path) -> None:
    """Seen in a try-out: "咨询费分几期支付？" over four Chinese contracts with payment clauses and an English
    consulting agreement fused none of the agreement's clauses into the candidates — the Chinese
    clauses meet the question on three legs, the English ones on the translated leg only."""
    store = Store(tmp_path / "mixed")
    settings = Settings()
    settings.retrieval.candidates = 4
    sale = "设备买卖合同\n\n第三条 付款方式\n合同签订后七日内，甲方支付总价款的百分之三十；验收合格后支付百分之六十。\n"
    loan = "借款合同\n\n第四条 利息\n利息每月20日支付。\n\n第五条 还款\n乙方应于期限届满之日一次性支付全部本金。\n"
    consulting = (
        "Consulting Services Agreement\n\nSection 2 Fees\nClient shall pay Consultant a fixed fee of GBP 180,000, "
        "payable in three equal instalments.\n"
    )
    files = [("lease.txt", LEASE), ("sale.txt", sale), ("loan.txt", loan), ("consulting.txt", consulting)]
    kb = _kb(store, "mixed", files, settings)
    q = "咨询费分几期支付？"
    settings.retrieval.cross_language_reserved = 0
    without = Retriever(store, settings).search_kb(kb, q)
    assert without.trace["legs"]["bm25_translated"], "the translated leg found the English clause"
    assert all(h.doc != "consulting.txt" for h in without.hits), "outvoted by the Chinese legs"
    settings.retrieval.cross_language_reserved = 1
    got = Retriever(store, settings).search_kb(kb, q)
    assert len(got.hits) == 4
    assert any(h.doc == "consulting.txt" and "instalments" in h.text for h in got.hits)


def test_the_reserved_places_reach_more_than_one_other_language_contract(tmp_path: Path) -> None:
    """Session 33: "卖方的竞业限制期限是多久？" reserved the translated leg's places for one agreement's
    two non-compete passages and never judged the asset purchase agreement's, the one whose Seller
    the question names."""
    store = Store(tmp_path / "mixed")
    settings = Settings()
    settings.retrieval.candidates = 3
    labour = "劳动合同\n\n第七条 竞业限制\n乙方离职后一年内不得在与甲方有竞争关系的单位任职。\n"
    sale = "设备买卖合同\n\n第三条 付款\n买方应于验收合格后十五日内付清货款。\n\n第四条 质保\n质保期为十二个月。\n"
    distribution = (
        "Distribution Agreement\n\n4. Non-Competition\nDuring the term Distributor shall not compete with "
        "Supplier or sell any competing products, and the non-compete restriction continues for one (1) year.\n\n"
        "5. Restrictive Covenants\nDistributor shall not compete, directly or indirectly, in any competing "
        "business during the restriction period.\n"
    )
    purchase = (
        "Asset Purchase Agreement\n\n5. Non-Competition\nFor four (4) years after the Closing, Seller shall "
        "not engage in the sale of hand tools.\n"
    )
    loan = "借款合同\n\n第三条 借款期限\n借款期限为十二个月。\n\n第四条 竞业\n借款人在借款期限内不得从事与出借人竞争的业务。\n"
    files = [
        ("labour.txt", labour),
        ("sale.txt", sale),
        ("loan.txt", loan),
        ("lease.txt", LEASE),
        ("dist.txt", distribution),
        ("apa.txt", purchase),
    ]
    kb = _kb(store, "mixed", files, settings)
    settings.retrieval.anchor_max_passages = (
        0  # three candidates: the rare-word passages alone would fill them
    )
    settings.retrieval.cross_language_reserved = 2
    got = Retriever(store, settings).search_kb(kb, "卖方的竞业限制期限是多久？")
    translated = [r["chunk_id"] for r in got.trace["legs"]["bm25_translated"]]
    assert len(translated) >= 3, "both of the distribution agreement's passages lead the translated leg"
    assert "apa.txt" in {h.doc for h in got.hits}


def test_the_questions_own_words_translated_are_searched_by_meaning(tmp_path: Path) -> None:
    """Session 41: "员工离职需要提前多久通知？" over Chinese contracts with notice clauses and English ones
    left the employment agreement's notice clause out of every leg's 20: the Chinese clauses are nearer
    the question's vector, and the translated keywords met termination clauses that say "terminate" and
    "notice" more often. Its glossary words embedded ("employee … resign … notice") find it first."""
    store = Store(tmp_path / "mixed")
    settings = Settings()
    settings.retrieval.candidates = 5
    settings.retrieval.anchor_max_passages = 0
    settings.retrieval.cross_language_reserved = 1
    property_mgmt = (
        "物业服务合同\n\n第十条 合同解除\n甲方可提前六十日书面通知乙方解除本合同。乙方提前解除合同的，应提前六个月书面通知甲方。\n\n"
        "第三条 服务期限\n本合同服务期限为三年。期满前三个月，甲方应书面通知乙方是否续聘。\n"
    )
    loan = "借款合同\n\n第七条 提前还款\n乙方可以提前偿还借款，但应提前十五日书面通知甲方。\n\n第三条 借款期限\n借款期限为十八个月。\n"
    partnership = "合伙协议\n\n6.2 合伙人退伙的，应当提前60日书面通知其他合伙人。\n\n第二条 合伙期限\n合伙期限为十年。\n"
    saas = (
        "SaaS Agreement\n\n8. Termination\n8.1 Either party may terminate this Agreement by written notice if the other "
        "party commits a material breach. Termination notice must state the breach.\n\n8.2 Customer may terminate for "
        "convenience on one hundred and twenty (120) days' written notice, paying an early termination fee; "
        "termination takes effect at the end of the notice period.\n"
    )
    employment = (
        "Employment Agreement\n\n3. Salary. The Company shall pay the Employee a gross annual salary of GBP 78,000.\n\n"
        "6. Notice. After the probationary period, either party may terminate employment by giving three (3) "
        "months' written notice.\n\n7. Confidentiality. The Employee shall not disclose confidential information.\n"
    )
    files = [
        ("wuye.txt", property_mgmt),
        ("loan.txt", loan),
        ("partnership.txt", partnership),
        ("saas.txt", saas),
        ("employment.txt", employment),
    ]
    kb = _kb(store, "mixed", files, settings)
    q = "员工离职需要提前多久通知？"
    got = Retriever(store, settings).search_kb(kb, q)
    assert {"employee", "resign", "notice"} <= set(got.trace["glossed"]["query"])
    # the typed trace keeps the embedded words for the inspector
    assert KbRetrievalRecord.from_json(got.trace).glossed["query"] == tuple(got.trace["glossed"]["query"])
    assert got.trace["legs"]["vector_translated"], "the translated vector leg ran"
    assert any(h.doc == "employment.txt" and "three (3) months" in h.text for h in got.hits)
    settings.retrieval.cross_language_vector = False
    off = Retriever(store, settings).search_kb(kb, q)
    assert "vector_translated" not in off.trace["legs"]
    assert all("three (3) months" not in h.text for h in off.hits), "without it the clause is outvoted"


def test_a_question_word_few_passages_use_makes_them_candidates(tmp_path: Path) -> None:
    """Session 33: "How long is the escrow held?" fused twenty term clauses ahead of the one passage
    that says "escrow" (an asset purchase price, held "for eighteen (18) months")."""
    store = Store(tmp_path / "terms")
    settings = Settings()
    settings.retrieval.candidates = 3
    terms = [
        (
            f"c{i}.txt",
            f"Agreement {i}\n\n5. Term\nThis Agreement remains in effect for {n} years and continues for "
            f"a further period of one year unless terminated. How long the term lasts is held in Schedule {i}.\n",
        )
        for i, n in enumerate(("two", "three", "four", "five"))
    ]
    purchase = (
        "Asset Purchase Agreement\n\n2. Purchase Price\nThe purchase price is $12,000,000, of which $1,200,000 "
        "is kept back by Buyer as a holdback, to be held for eighteen (18) months after the "
        "Closing to secure Seller's indemnification obligations.\n"
    )
    kb = _kb(store, "terms", [*terms, ("apa.txt", purchase)], settings)
    # "escrow" names a thesaurus concept now (session 41: a question word adds the term vocabulary only
    # when no topic word names one), so the word the thesaurus does not know is "holdback"; and "term" names
    # the term concept, whose words join the vector query too (a bare "how long" no longer does, session 42)
    q = "For what term is the holdback held?"
    settings.retrieval.anchor_max_passages = 0
    without = Retriever(store, settings).search_kb(kb, q)
    assert all(h.doc != "apa.txt" for h in without.hits), "outvoted by the term clauses"
    settings.retrieval.anchor_max_passages = 3
    got = Retriever(store, settings).search_kb(kb, q)
    assert len(got.hits) == 3
    assert [r["chunk_id"] for r in got.trace["legs"]["anchor"]] == [
        h.chunk_id for h in got.hits if h.doc == "apa.txt"
    ]


def test_a_follow_up_naming_no_contract_stays_in_the_contract_named_earlier(tmp_path: Path) -> None:
    """Session 38 try-out: "What if the customer never organises the acceptance test?" after a question naming the
    technical service contract searched the whole base and was answered with another clause; a question asking
    across the contracts, or naming one of its own, is not held."""
    store = Store(tmp_path / "chat")
    settings = Settings()
    kb = _kb(store, "chat", [("lease.txt", LEASE), ("msa.txt", MSA), ("supply.txt", SUPPLY)], settings)
    earlier = ("In the Master Services Agreement, how is the fee paid?", "Hello")
    held = Retriever(store, settings).search_kb(kb, "Can it be terminated early?", earlier=earlier)
    assert held.hits and {h.doc for h in held.hits} == {"msa.txt"}
    assert [code_of(n)[0] for n in held.trace["notes"]] == ["retrieval_routed_earlier"]
    assert held.trace["routing"]["earlier_question"] == earlier[0]
    own = Retriever(store, settings).search_kb(
        kb, "Can the Supply Agreement be terminated early?", earlier=earlier
    )
    assert {h.doc for h in own.hits} == {"supply.txt"}
    assert earlier_route_questions([], "Which other agreements can be terminated early?") == ()
    turns = [ChatTurn.of_message("user", earlier[0], None), ChatTurn.of_message("assistant", "…", None)]
    assert earlier_route_questions(turns, "Can it be terminated early?") == (earlier[0],)
    assert earlier_route_questions(turns, "其他合同可以提前解除吗？") == ()
    across = [*turns, ChatTurn.of_message("user", "Which other agreements have an audit right?", None)]
    assert earlier_route_questions(across, "Can it be terminated early?") == ()
    whole = Retriever(store, settings).search_kb(kb, "Can it be terminated early?")
    assert whole.trace["routing"] is None and len({h.doc for h in whole.hits}) > 1
    retriever = Retriever(store, settings)
    index = retriever.route_index(kb)
    retriever.search_kb(kb, "Can it be terminated early?", earlier=earlier)
    assert retriever.route_index(kb) is index, "built once per loaded document list, not per earlier question"
    retriever.doc_meta(kb, refresh=True)
    assert retriever.route_index(kb) is not index, "rebuilt with the documents"


def test_a_question_word_alone_does_not_steer_the_vector_leg(tmp_path: Path) -> None:
    """Session 42 try-out: "How long is the training program?" — "how long" names the term concept when no topic
    word does, and its words ("term expire expiration …") joined the vector query too; there they outweighed
    "training program", and every term clause of the base ranked above the franchise's training clause, which fell
    out of the candidates. The keyword leg still gets them; the vector leg reads the question as asked."""
    store = Store(tmp_path / "terms")
    settings = Settings()
    term_clauses = [
        (
            f"{name}.txt",
            f"{name.title()} Agreement\n\n9. TERM. The term of this Agreement shall commence on the Effective Date and "
            f"continue for a period of {years} years, unless earlier terminated. It shall expire on the anniversary of "
            "the Effective Date and renew for successive one-year periods.\n",
        )
        for name, years in (
            ("reseller", 2),
            ("distributor", 3),
            ("hosting", 4),
            ("marketing", 5),
            ("supply", 6),
        )
    ]
    franchise = (
        "Franchise Agreement\n\n4. TRAINING\n4.1 Franchisor shall provide an initial training program of four (4) "
        "weeks at its Seattle training center for up to three (3) of Franchisee's managers.\n\n"
        "2. TERM\n2.1 The initial term is ten (10) years from the opening date.\n"
    )
    kb = _kb(store, "terms", [*term_clauses, ("franchise.txt", franchise)], settings)
    q = "How long is the training program?"
    got = Retriever(store, settings).search_kb(kb, q, mode="vector", use_routing=False)
    assert "term" in got.trace["expansion"]["query"], "the keyword legs are still expanded"
    assert "training program" in got.hits[0].text


def test_a_party_question_keeps_each_documents_opening_naming_the_role(tmp_path: Path) -> None:
    """Session 44 try-out: with several distribution agreements, "Who is the distributor?" fused twenty clauses saying
    "Distributor shall …" ahead of every preamble and quoted none. The openings that name the role are reserved
    places now, the earliest passage of each document; a question that asks no party gets none, and 0 turns it off."""
    clauses = "".join(
        f"\n\n{i}. Duty {i}\nThe Distributor shall keep distributor records {i} and the Distributor shall report "
        f"to the Supplier on distributor sales {i}."
        for i in range(2, 30)
    )
    agreements = [
        (f"dist{n}.txt", f"DISTRIBUTION AGREEMENT\n\nThis Agreement is made between Supplier {n} Ltd (\"Supplier\") "
         f"and Seller {n} GmbH (\"Distributor\").{clauses}")
        for n in range(3)
    ]  # fmt: skip
    store = Store(tmp_path / "store")
    settings = Settings()
    settings.retrieval.candidates = 8
    kb = _kb(store, "dist", agreements, settings)
    res = Retriever(store, settings, None).search_kb(kb, "Who is the distributor?")
    openings = [h for h in res.hits if "Seller" in h.text]
    assert len(openings) == 3 and all(h.explain.get("reserved") for h in openings), [
        h.text[:60] for h in res.hits
    ]
    assert "party_heads" in res.trace["legs"]
    assert not any(
        "Seller" in h.text for h in Retriever(store, settings, None).search_kb(kb, "Who keeps records?").hits
    )
    settings.retrieval.party_heads_reserved = 0
    off = Retriever(store, settings, None).search_kb(kb, "Who is the distributor?")
    assert "party_heads" not in off.trace["legs"]
