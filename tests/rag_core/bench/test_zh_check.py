"""``bench zh-check``: a Chinese check set written apart from the training pairs, and the bench that
scores the committed head on it."""

from __future__ import annotations

from rag_core.bench.zh_check import format_zh_check, run_zh_check
from rag_core.bench.zh_check_set import ZH_CHECK
from rag_core.judge.clauses_zh import ZH_CLAUSES
from rag_core.judge.qa_zh_more import WRITTEN_ZH_QA
from rag_core.settings import VerdictSettings
from tests.rag_core.judge.test_qa_zh import _sentences
from tests.rag_core.judge.zh_fixtures import CONTRACTS, QUESTIONS, WITHOUT_FACT


def test_the_check_set_shares_no_sentence_or_question_with_what_the_judge_was_fitted_on() -> None:
    """It measures the head on wording it was not fitted to: no clause sentence or question of the
    written training pairs, the classifier's clauses or the fixtures."""
    check = {s for e in ZH_CHECK for s in _sentences(e.clause)}
    fitted = {s for e in WRITTEN_ZH_QA for s in _sentences(e.clause)}
    fitted |= {s for *_, text in ZH_CLAUSES for s in _sentences(text)}
    fitted |= {s for clauses in CONTRACTS.values() for _, text in clauses for s in _sentences(text)}
    assert not check & fitted
    asked = {q for e in ZH_CHECK for q in (*e.answered, *e.unanswered)}
    assert len(asked) == sum(len(e.answered) + len(e.unanswered) for e in ZH_CHECK)  # no question twice
    assert not asked & {q for e in WRITTEN_ZH_QA for q in (*e.answered, *e.unanswered)}
    assert not asked & {q for _, q, *_ in QUESTIONS} and not asked & {q for _, q, _ in WITHOUT_FACT}


def test_every_kind_asks_each_topic_once_in_chinese() -> None:
    kinds = {e.kind for e in ZH_CHECK}
    assert len(ZH_CHECK) >= 100 and len(kinds) >= 12
    assert kinds - {e.kind for e in WRITTEN_ZH_QA}, "kinds the training pairs lack"
    for kind in kinds:
        topics = [e.topic for e in ZH_CHECK if e.kind == kind]
        assert len(topics) == len(set(topics)), kind
    for e in ZH_CHECK:
        assert e.answered and e.unanswered, e
        assert not any(q.isascii() for q in (*e.answered, *e.unanswered)), e


def test_the_bench_scores_shared_models_and_head_on_every_question() -> None:
    """Both columns come from scoring (not from the recorded figures), and the head ranks the
    answering clause first more often than the shared models: what it was fitted for."""
    logs: list[str] = []
    r = run_zh_check(VerdictSettings(), logs.append)
    asked = sum(len(e.answered) + len(e.unanswered) for e in ZH_CHECK)
    assert asked - 5 <= r["questions"] <= asked  # who-are-the-parties questions keep the party model
    for col in ("shared", "head"):
        assert 0.0 < r[col]["top1"] <= 1.0 and 0.5 < r[col]["relevance_auc"] <= 1.0
    assert r["head"]["top1"] > r["shared"]["top1"]
    assert set(r["head_per_kind"]) == {e.kind for e in ZH_CHECK}
    table = format_zh_check(r)
    assert "answering clause ranked first" in table and "warehousing" in table
