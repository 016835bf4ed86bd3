"""Questions asking who the parties are: recognised in a client's words, fitted on CUAD's party names,
answered from the lines that name the parties, not from clauses that only say "the parties"."""

from __future__ import annotations

import pytest

from rag_core.judge.clause_types import asked_roles, asks_party_identity
from rag_core.judge.fitted import score
from rag_core.judge.relevance import held_kinds, lexical_features, names_asked_role, party_labels, role_names
from rag_core.judge.train_sets import (
    PARTY_QUESTIONS,
    PARTY_QUESTIONS_NAMED,
    holds,
    is_check,
    load_contracts,
    party_pairs,
)
from rag_core.settings import JudgeTrainSettings
from tests.fixtures.data import TRAIN

needs_train = pytest.mark.skipif(not (TRAIN / "cuad").is_dir(), reason="training data not present")

SHARE_HEADER = "股权转让协议\n\n转让方（甲方）：上海明远投资有限公司\n受让方（乙方）：杭州恒信科技有限公司"
SHARE_ARTICLES = [
    "第一条 转让标的\n甲方同意将其持有的目标公司百分之三十的股权转让给乙方。",
    "第四条 保密\n双方对本协议内容及履行过程中知悉的对方商业秘密负有保密义务，保密期限为本协议终止后三年。",
    "第六条 争议解决\n因本协议引起的争议，提交上海国际仲裁中心仲裁。",
]
LICENCE_PREAMBLE = (
    'This Software License Agreement (the "Agreement") is entered into as of January 15, 2025 by and '
    'between Northwind Software Inc., a Delaware corporation ("Licensor"), and Bluefield Analytics LLC, '
    'a New York limited liability company ("Licensee").'
)
LICENCE_CLAUSES = [
    "10.1 This Agreement constitutes the entire agreement between the parties and supersedes all prior "
    "agreements relating to its subject matter.",
    "4.2 Either party may terminate this Agreement upon thirty (30) days' written notice if the other "
    "party materially breaches this Agreement.",
    "5.1 Each party shall hold the other party's Confidential Information in strict confidence.",
]


@pytest.mark.parametrize(
    "question",
    [
        "房东是谁？",
        "租客叫什么？",
        "买家是哪家公司？",
        "《北京市朝阳区房屋租赁合同》的出租方是谁？",
        "合同双方是谁？",
    ],
)
def test_a_clients_words_for_a_party_ask_who_it_is(question: str) -> None:
    assert asks_party_identity(question)


@pytest.mark.parametrize("question", ["房东迟迟不修房子怎么办？", "房东可以提前收回房子吗？"])
def test_a_question_about_what_a_party_does_is_no_party_question(question: str) -> None:
    assert not asks_party_identity(question)


@pytest.mark.parametrize(
    ("question", "role"),
    [
        ("Who signs for the transferee?", "transferee"),
        (
            "Who are the parties to the share transfer agreement? And who signs for the transferee?",
            "transferee",
        ),
        ("Who signed the agreement on behalf of the licensee?", "licensee"),
        ("谁代表乙方签字？", "乙方"),
    ],
)
def test_who_signs_for_a_party_asks_who_it_is(question: str, role: str) -> None:
    """ "And who signs for the transferee?" was typed Covenant Not To Sue (0.61) and refused as asking
    for such a clause; the signatory is named where the party is."""
    assert asks_party_identity(question) and asked_roles(question) == (role,)


@pytest.mark.parametrize("question", ["When was the agreement signed?", "Who signs the notices?", "谁签字？"])
def test_signing_without_a_party_is_no_party_question(question: str) -> None:
    assert not asks_party_identity(question)


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("甲方同意将其持有的目标公司百分之三十的股权转让给乙方。", False),
        ("甲方应促使标的公司办理工商变更登记。", False),
        ("乙方可将本协议项下权利转让给其关联公司或子公司。", False),
        ("转让方（甲方）：上海明远投资有限公司", True),
        ("承租方（乙方）：李明", True),
        ("本合同由华为技术公司与乙方签订。", True),
    ],
)
def test_a_company_named_only_by_its_role_is_no_name(text: str, names: bool) -> None:
    assert bool(held_kinds(("entity",), text)) is names


def test_every_fitted_party_question_is_read_as_one() -> None:
    for q in PARTY_QUESTIONS:
        assert asks_party_identity(q), q
    for q in PARTY_QUESTIONS_NAMED:
        assert asks_party_identity(q.format(title="Software License Agreement")), q


@pytest.mark.parametrize(
    "question",
    ["Who are the parties to the share transfer agreement?", "股权转让协议的双方是谁？", "合同双方是谁？"],
)
def test_the_party_lines_answer_a_chinese_agreement(question: str) -> None:
    texts = [SHARE_HEADER, *SHARE_ARTICLES]
    s = score(question, texts)
    assert max(range(len(texts)), key=lambda i: s[i].evidence) == 0, [x.evidence for x in s]
    # "双方" in the confidentiality clause and "目标公司" in the first article name nobody
    assert all(x.evidence < s[0].evidence - 0.2 for x in s[1:]), [x.evidence for x in s]


@pytest.mark.parametrize("question", ["Who are the parties to this agreement?", "合同双方是谁？"])
def test_the_preamble_answers_an_english_agreement(question: str) -> None:
    texts = [*LICENCE_CLAUSES, LICENCE_PREAMBLE]
    s = score(question, texts)
    assert max(range(len(texts)), key=lambda i: s[i].evidence) == 3, [x.evidence for x in s]


@needs_train
def test_party_pairs_label_the_windows_that_hold_a_partys_name() -> None:
    ts = JudgeTrainSettings()
    contracts = [c for c in load_contracts(TRAIN, ts) if not is_check(c.name, ts)][:5]
    pairs = party_pairs(contracts, ts, phrasing=0)
    assert pairs and all(p.party and asks_party_identity(p.question) for p in pairs)
    by_text = {c.name: c for c in contracts}
    for p in pairs:
        c = by_text[p.group.split(":", 1)[1]]
        at = c.text.find(p.text)
        window = (at, at + len(p.text))
        if p.label:
            assert any(holds(window, sp, ts) for sp in c.party_spans)
        else:  # a negative touches no party's name
            assert not any(min(window[1], e) > max(window[0], b) for b, e in c.party_spans)
    assert any(p.label for p in pairs) and any(not p.label for p in pairs)
    assert party_pairs(contracts, JudgeTrainSettings(party_questions=False), phrasing=0) == []


LEASE_HEADER = "房屋租赁合同\n\n出租方（甲方）：北京华信置业有限公司\n承租方（乙方）：李明"
EMPLOYMENT_HEADER = "劳动合同\n\n用人单位（甲方）：杭州云帆网络科技有限公司\n劳动者（乙方）：王某"


@pytest.mark.parametrize(
    ("question", "roles"),
    [
        ("房东是谁？", ("房东",)),
        ("Who is the landlord?", ("landlord",)),
        ("Who are the landlord and the tenant under this lease?", ("landlord", "tenant")),
        ("特许人和被特许人分别是谁？", ("特许人", "被特许人")),
        ("合同双方是谁？", ()),
        ("房东什么时候退押金？", ()),
    ],
)
def test_the_roles_a_party_question_names(question: str, roles: tuple[str, ...]) -> None:
    assert asked_roles(question) == roles


@pytest.mark.parametrize(
    ("text", "labels"),
    [
        (LEASE_HEADER, {"出租方", "甲方", "承租方", "乙方"}),
        ('by and between Northwind Software Inc. ("Licensor") and Bluefield Analytics LLC (the "Licensee").', {"licensor", "licensee"}),
        ("LICENSEE: Bluefield Analytics LLC", {"licensee"}),
        ("签订日期：2025年2月20日", set()),
        ("10.1 This Agreement binds the Parties: each of them.", set()),
    ],
)  # fmt: skip
def test_the_roles_a_text_names_someone_as(text: str, labels: set[str]) -> None:
    assert party_labels(text) == labels


def test_a_role_is_named_in_either_language_and_by_a_clients_word() -> None:
    assert {"出租方", "出租人", "landlord"} <= role_names("房东")
    assert names_asked_role(("landlord",), party_labels(LEASE_HEADER))
    assert names_asked_role(("房东",), party_labels(LEASE_HEADER))
    assert not names_asked_role(("房东",), party_labels(EMPLOYMENT_HEADER))
    [lease, job] = lexical_features("房东是谁？", [LEASE_HEADER, EMPLOYMENT_HEADER])
    assert (lease.role_named, lease.role_other, job.role_named, job.role_other) == (True, False, False, True)


@pytest.mark.parametrize("question", ["房东是谁？", "Who is the landlord?", "出租方是哪家公司？"])
def test_the_party_line_of_the_asked_role_answers_it(question: str) -> None:
    """ "房东是谁？" over a lease and an employment contract quoted "劳动者（乙方）：王某" first."""
    lease, job = score(question, [LEASE_HEADER, EMPLOYMENT_HEADER])
    assert lease.evidence > job.evidence + 0.3, (lease.evidence, job.evidence)


@needs_train
def test_role_questions_take_other_contracts_party_lines_as_negatives() -> None:
    ts = JudgeTrainSettings()
    contracts = [c for c in load_contracts(TRAIN, ts) if not is_check(c.name, ts)][:12]
    pairs = [p for p in party_pairs(contracts, ts, phrasing=0) if p.question.startswith("Who is the ")]
    assert pairs
    for p in pairs:
        role = p.question.removeprefix("Who is the ").removesuffix("?").lower()
        named = names_asked_role((role,), party_labels(p.text))
        assert named == p.label, (p.question, p.text[:80])
    assert any(not p.label and party_labels(p.text) for p in pairs)  # names parties, as other roles


@pytest.mark.parametrize(
    ("question", "asks", "roles"),
    [
        ("Who is the licensee? And the licensor?", True, ("licensor",)),
        ("股权转让协议的转让方是谁？ 受让方呢？", True, ("受让方",)),
        ("受让方呢？", False, ()),  # alone it may ask about anything said of the party
        ("甲方的违约责任是什么？ 乙方呢？", False, ()),
        ("Who is the licensee? What is the fee?", False, ()),
    ],
)
def test_a_follow_up_naming_another_role_joined_to_a_party_question(
    question: str, asks: bool, roles: tuple[str, ...]
) -> None:
    assert asks_party_identity(question) is asks
    assert asked_roles(question) == roles


APA_PREAMBLE = (
    "ASSET PURCHASE AGREEMENT\nThis Asset Purchase Agreement is entered into as of June 15, 2025 by and between "
    'Redwood Tools Corp., a California corporation ("Seller"), and Summit Hardware Holdings Ltd., a Texas '
    'corporation ("Buyer").'
)
APA_CLAUSES = [
    "2. PURCHASE PRICE. The purchase price is $12,000,000, of which $1,200,000 is deposited with First Coast "
    'Bank as escrow agent (the "Escrow Amount"), to be held for eighteen (18) months after the Closing.',
    "8. TERMINATION. This Agreement may be terminated before the Closing by mutual written consent.",
    "9. GOVERNING LAW. This Agreement is governed by the laws of the State of Delaware.",
]
SIGNATURE_BLOCK = (
    "10. GENERAL\n10.1 This Agreement constitutes the entire agreement between the parties.\n\n"
    "IN WITNESS WHEREOF, the parties have executed this Agreement as of the Effective Date.\n"
    "Northwind Software Inc.                Bluefield Analytics LLC"
)


def test_the_preamble_of_a_named_agreement_is_relevant_to_who_its_parties_are() -> None:
    """Session 33: "Who are the parties to the asset purchase agreement?" was refused: the preamble scored
    evidence 0.79 but relevance 0.14 (it shares only the title with the question, and every candidate says
    "Agreement"), under the 0.20 an evidence passage needs."""
    texts = [*APA_CLAUSES, APA_PREAMBLE]
    s = score("Who are the parties to the asset purchase agreement?", texts)
    assert s[-1].relevance >= s[-1].evidence > 0.5, (s[-1].relevance, s[-1].evidence)


def test_a_role_no_party_holds_is_answered_by_the_clause_that_names_it() -> None:
    """Session 33: "Who is the escrow agent?" labelled a licence's signature block EVIDENCE (0.88) and quoted
    it; the purchase price clause naming First Coast Bank "as escrow agent" scored 0.43. No party line gives
    anyone that role, so the party model does not judge it."""
    texts = [SIGNATURE_BLOCK, *APA_CLAUSES, APA_PREAMBLE]
    s = score("Who is the escrow agent?", texts)
    assert max(range(len(texts)), key=lambda i: s[i].evidence) == 1, [round(x.evidence, 2) for x in s]
    assert s[0].evidence < 0.5, s[0].evidence
    seller = score("Who is the seller?", texts)  # a role a party line gives: the party model as before
    assert max(range(len(texts)), key=lambda i: seller[i].evidence) == len(texts) - 1


def test_party_lines_answer_who_whatever_topic_the_question_names() -> None:
    """Session 34: "谁是执行事务合伙人？" names the partnership-affairs topic; the party lines mention none of
    its words and were capped, so the answer lost "合伙人甲：张明"."""
    from rag_core.judge.base import PassageInput
    from rag_core.judge.classify import EVIDENCE
    from rag_core.judge.local_judge import LocalJudge
    from rag_core.settings import Settings

    parties = "合伙协议\n合伙人甲：张明，住所北京市海淀区中关村大街1号\n合伙人乙：李华，住所上海市浦东新区世纪大道100号"
    other = "6.2 合伙人退伙的，应当提前60日书面通知其他合伙人。"
    judge = LocalJudge(Settings().verdict)
    named, unnamed = judge.scores(
        "谁是执行事务合伙人？", [PassageInput("a", parties), PassageInput("b", other)]
    )
    assert named[0][EVIDENCE] > 0.5
    assert unnamed[0][EVIDENCE] <= Settings().verdict.topic_evidence_cap


def test_a_role_with_a_position_is_asked_and_named_apart_from_the_others() -> None:
    """Session 34: "合伙人丙是谁？" asked no role, and the quoted answer led with "5.1 …委托合伙人甲为执行事务合伙人"."""
    assert asks_party_identity("合伙人丙是谁？") and asked_roles("合伙人丙是谁？") == ("合伙人丙",)
    third, first = party_labels("合伙人丙：杭州云杉投资管理有限公司"), party_labels("合伙人甲：张明")
    assert third == {"合伙人丙"}
    assert names_asked_role(("合伙人丙",), third) and not names_asked_role(("合伙人丙",), first)
    assert names_asked_role(("合伙人",), first), "a positioned partner is a partner"
    assert asked_roles("甲方是谁？") == ("甲方",)
