from __future__ import annotations

from rag_core.retrieval.lexicon import concepts_of, expansion_terms


def test_expiration_question_gets_term_vocabulary() -> None:
    terms = expansion_terms("What is the expiration date of this contract?")
    assert "term" in terms and "until" in terms
    assert [c.name for c in concepts_of("What is the expiration date of this contract?")] == ["term"]


def test_chinese_questions_map_to_chinese_clause_words() -> None:
    assert "违约金" in expansion_terms("逾期付款要承担什么罚金？")
    assert "管辖" in expansion_terms("合同适用法律是哪里的？")


def test_words_already_in_the_question_are_not_repeated() -> None:
    terms = expansion_terms("Is there a termination for convenience clause?")
    assert "convenience" not in terms and "terminate" in terms


def test_unrelated_question_gets_nothing() -> None:
    assert expansion_terms("Hello there") == []


def test_expansions_follow_the_question_language() -> None:
    en = expansion_terms("How much is the monthly fee?")
    zh = expansion_terms("租金每月多少钱？")
    assert en and not any("\u4e00" <= ch <= "\u9fff" for t in en for ch in t)
    assert zh and all(any("\u4e00" <= ch <= "\u9fff" for ch in t) for t in zh)


def test_a_mostly_english_question_naming_a_chinese_party_is_translated_as_english() -> None:
    """The question's language is the share of its letters (``textproc.is_chinese``), as everywhere
    else: one Chinese party name no longer turns an English question's translations around."""
    from rag_core.retrieval.lexicon import translated_terms

    assert "租赁" in translated_terms("What does 甲方 owe under the lease?")
    assert "rent" in translated_terms("租金是多少？")


def test_working_from_home_and_severance_find_the_contracts_words() -> None:
    """Session 36: "Can the employee work from home?" missed "may work remotely up to two (2) days per week" (not
    among the twenty candidates); a severance question reaches the clause that says "without Cause"."""
    assert "remote" in expansion_terms("Can the employee work from home?")
    assert "远程办公" in expansion_terms("员工可以居家办公吗？")
    assert "without cause" in expansion_terms("What severance does the employee get?")


def test_a_question_word_names_a_concept_only_when_no_topic_word_does() -> None:
    """ "How much notice" asks a period, not money; 多久 beside 离职/通知 asks a notice period, not the
    contract's term — their thesaurus words flooded the keyword legs (session 41)."""
    assert "payment" not in _names("How much notice must the employee give to resign?")
    assert "term" not in _names("员工离职需要提前多久通知？")
    assert _names("How much is payable?") == ["payment"]
    assert _names("How long does the agreement last?") == ["term"]
    assert _names("合同多长时间？") == ["term"]


def _names(question: str) -> list[str]:
    return [c.name for c in concepts_of(question)]


def test_without_asked_only_the_topic_words_name_concepts() -> None:
    """Session 42: the vector query takes the concepts the question's topic words name, not the one its "how long"
    alone named — "How long is the training program?" is no question about the contract's term."""
    assert "term" in expansion_terms("How long is the training program?")
    assert expansion_terms("How long is the training program?", asked=False) == []
    assert concepts_of("How long is the term of the franchise?", asked=False)[0].name == "term"
