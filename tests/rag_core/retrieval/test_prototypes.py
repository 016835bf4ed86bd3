"""Model clauses per clause type (the offline HyDE list)."""

from __future__ import annotations

from rag_core.retrieval.lexicon import CONCEPTS, has_chinese
from rag_core.retrieval.prototypes import PROTOTYPES, prototype_text


def test_every_concept_has_an_english_and_a_chinese_model_clause() -> None:
    assert {c.name for c in CONCEPTS} == set(PROTOTYPES)
    for name, (english, chinese) in PROTOTYPES.items():
        assert not has_chinese(english), name
        assert has_chinese(chinese), name
        assert len(english) >= 80 and len(chinese) >= 20, name


def test_model_clause_follows_the_question_language_and_type() -> None:
    en = prototype_text("Is there a non-compete clause in this contract?")
    assert en == PROTOTYPES["non_compete"][0]
    zh = prototype_text("押金什么时候退还？")
    assert zh == PROTOTYPES["deposit"][1]


def test_question_of_several_types_gets_each_clause_and_unrelated_gets_none() -> None:
    both = prototype_text("What is the notice period required to terminate the renewal?")
    for name in ("renewal", "termination", "notice"):
        assert PROTOTYPES[name][0] in both
    assert prototype_text("What colour is the logo?") == ""
