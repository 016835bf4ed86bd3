"""The written Chinese (question, clause) pairs: data for the next attempt at fitting the judge on Chinese
passages (session 22 fitted on them and reverted: see the README), kept apart from the test fixtures."""

from __future__ import annotations

import re

from rag_core.judge.clauses_zh import ZH_CLAUSES
from rag_core.judge.qa_zh_more import WRITTEN_ZH_QA
from tests.rag_core.judge.zh_fixtures import CONTRACTS, QUESTIONS, WITHOUT_FACT


def _sentences(text: str) -> set[str]:
    return {s.strip() for s in re.split(r"[。；;！？]", text) if len(s.strip()) >= 8}


def test_the_written_pairs_share_no_sentence_or_question_with_the_test_fixtures() -> None:
    """The fixtures stay a check the fit never reads (and so do the classifier's written clauses)."""
    written = {s for item in WRITTEN_ZH_QA for s in _sentences(item.clause)}
    fixtures = {s for clauses in CONTRACTS.values() for _, text in clauses for s in _sentences(text)}
    fixtures |= {s for *_, text in WITHOUT_FACT for s in _sentences(text)}
    assert not written & fixtures
    assert not written & {s for *_, text in ZH_CLAUSES for s in _sentences(text)}
    asked = {q for item in WRITTEN_ZH_QA for q in (*item.answered, *item.unanswered)}
    assert not asked & {q for _, q, *_ in QUESTIONS} and not asked & {q for _, q, _ in WITHOUT_FACT}


def test_every_item_asks_what_it_answers_and_what_it_leaves_open() -> None:
    kinds = {item.kind for item in WRITTEN_ZH_QA}
    assert len(WRITTEN_ZH_QA) >= 380 and len(kinds) >= 35
    for item in WRITTEN_ZH_QA:
        assert item.answered and item.unanswered and item.topic, item
        assert any(q.isascii() for q in item.answered), item  # one English question each
