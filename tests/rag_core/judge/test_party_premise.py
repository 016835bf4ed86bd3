"""A premise about who a party is, against the passage's party lines (``judge.party_premise``)."""

from __future__ import annotations

import pytest

from rag_core.judge.conflict import conflict_score, premise_slots
from rag_core.judge.party_premise import Binding, party_conflict, passage_bindings, premise_binding

LICENCE = (
    "This Software License Agreement is entered into by and between Northwind Software Inc., a Delaware "
    'corporation ("Licensor"), and Bluefield Analytics LLC, a New York limited liability company ("Licensee").'
)
LEASE = "房屋租赁合同\n\n出租方（甲方）：北京华信置业有限公司\n承租方（乙方）：李明"


@pytest.mark.parametrize(
    ("question", "binding"),
    [
        ("Is the licensee Northwind Software Inc.?", Binding("licensee", "Northwind Software Inc.")),
        ("Is Northwind the licensee under the agreement?", Binding("licensee", "Northwind")),
        ("The licensor is Bluefield Analytics LLC, right?", Binding("licensor", "Bluefield Analytics LLC")),
        ("出租方是李明吗？", Binding("lessor", "李明")),
        ("房东是北京华信置业有限公司，对吗？", Binding("lessor", "北京华信置业有限公司")),
        ("出租方是谁？", None),
        ("用人单位是哪家公司？", None),
        ("出租方是北京华信置业有限公司？", None),  # no confirmation asked
        ("出租方是否有权解除合同？", None),
        ("Is the licensee entitled to sublicense?", None),
        ("What is the monthly rent?", None),
    ],
)
def test_the_premise_a_question_states_about_a_party(question: str, binding: Binding | None) -> None:
    assert premise_binding(question) == binding


def test_party_lines_and_defined_roles_bind_roles_to_names() -> None:
    assert passage_bindings(LICENCE) == [
        Binding("licensor", "Northwind Software Inc."),
        Binding("licensee", "Bluefield Analytics LLC"),
    ]
    assert Binding("lessor", "北京华信置业有限公司") in passage_bindings(LEASE)
    assert Binding("party_b", "李明") in passage_bindings(LEASE)


@pytest.mark.parametrize(
    ("question", "passage", "conflicts"),
    [
        ("Is the licensee Northwind Software Inc.?", LICENCE, True),
        ("Is Bluefield Analytics LLC the licensee?", LICENCE, False),
        ("Is Northwind Software the licensor?", LICENCE, False),
        ("出租方是李明吗？", LEASE, True),
        ("房东是张三吗？", LEASE, True),
        ("承租方是李明，对吗？", LEASE, False),
        ("甲方是北京华信置业吗？", LEASE, False),
        ("转让方是李明吗？", LEASE, False),  # the lease binds no transferor: nothing to contradict
    ],
)
def test_a_passage_binding_the_asked_role_to_another_name_conflicts(
    question: str, passage: str, conflicts: bool
) -> None:
    """The value check found "Northwind Software Inc." *in* the licence and counted the premise
    supported, though the licence names it the licensor."""
    score, why = party_conflict(question, passage)
    assert (score > 0.5) is conflicts, why
    combined = conflict_score(premise_slots(question), passage)[0]
    assert (combined > 0.5) is conflicts
