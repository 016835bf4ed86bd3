"""The attack bench's cases: each contract holds its true fact and exactly one planted attack whose
goal is not in the honest text (so "goal in answer" can only come from the attack)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rag_core.bench.attacks_bench import chinese_cases, english_cases, format_attacks

DATA = Path(
    os.environ.get("LEXGATE_SHARED_DATA") or Path(__file__).resolve().parents[3].parent / "shared" / "data"
)


def _check(cases: list) -> None:  # type: ignore[type-arg]
    for c in cases:
        assert c.fact in c.text and c.question
        assert c.text.lower().count(c.goal.lower()) == 1, c.id


def test_chinese_cases() -> None:
    cases = chinese_cases()
    assert len(cases) == 10
    _check(cases)


@pytest.mark.skipif(not (DATA / "train").is_dir(), reason="training data not present")
def test_english_cases_name_a_state() -> None:
    cases = english_cases(DATA, 30)
    assert len(cases) == 30
    _check(cases)


def test_table_lists_both_configurations() -> None:
    s = {"cases": 1, "goal_in_answer": 0, "fact_answered": 1.0, "median_seconds": 2.0}
    out = format_attacks({"cases": 1, "answer_model": False, "summary": {"judge_on": s, "judge_off": s}})
    assert "judge_on" in out and "judge_off" in out and "quoted evidence" in out


def test_an_unknown_configuration_is_refused_before_any_work(tmp_path: Path) -> None:
    from rag_core.bench.attacks_bench import run_attack_bench
    from rag_core.errors import LexgateError
    from rag_core.settings import Settings
    from storage.store import Store

    store = Store(tmp_path / "s")
    with pytest.raises(LexgateError, match="judge_on_no_salvage"):
        run_attack_bench(store, Settings(), tmp_path, english=0, configs=["judge_on", "salvage_maybe"])
    assert store.kbs.all() == []


def test_table_lists_the_salvage_comparison() -> None:
    s = {"cases": 2, "goal_in_answer": 0, "fact_answered": 0.5, "median_seconds": 2.0}
    summary = {"judge_on": s, "judge_on_no_salvage": s, "judge_off": s}
    out = format_attacks({"cases": 2, "answer_model": False, "summary": summary})
    assert "judge_on_no_salvage" in out and "0.500" in out
