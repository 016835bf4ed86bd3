"""The per-configuration answer benchmark: its question sets from the training data and its figures."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rag_core.bench.answer_sets import (
    CUAD_BASE_CONTRACTS,
    LECOQA_BASE_ARTICLES,
    cuad_train_base,
    cuad_train_questions,
    lecoqa_files,
    lecoqa_questions,
)
from rag_core.bench.speed_answers import format_speed, parse_configs, summarize_rows, token_f1
from rag_core.errors import LexgateError
from rag_core.settings import Settings
from tests.conftest import SHARED_DATA

DATA = Path(os.environ.get("LEXGATE_SHARED_DATA") or SHARED_DATA)
needs_data = pytest.mark.skipif(not (DATA / "train" / "cuad").is_dir(), reason="shared data absent")


@needs_data
def test_cuad_train_questions_ask_present_clauses_of_the_base_contracts() -> None:
    base = cuad_train_base(DATA)
    assert len(base) == CUAD_BASE_CONTRACTS and all("legalbench" not in str(p) for p in base)
    questions = cuad_train_questions(DATA, base, 40)
    assert len(questions) == 40 and len({q.qid for q in questions}) == 40
    names = {p.name for p in base}
    for q in questions:
        assert q.gold_spans and all(s.file in names for s in q.gold_spans)
        text = (base[0].parent / q.gold_spans[0].file).read_text(encoding="utf-8")
        assert text[q.gold_spans[0].start : q.gold_spans[0].end] in q.reference
    assert len({q.category for q in questions}) >= 8  # many clause types, not one


@needs_data
def test_lecoqa_base_holds_the_gold_articles() -> None:
    files = lecoqa_files(DATA)
    names = {name.removesuffix(".txt") for name, _ in files}
    assert len(files) == LECOQA_BASE_ARTICLES
    assert all(set(q.gold_ids) <= names for q in lecoqa_questions(DATA, 20))


def test_token_f1_and_summary() -> None:
    assert token_f1("The rate is USD 250 per hour.", "USD 250 per hour") > 0.5
    assert token_f1("", "x") == 0.0 and token_f1("租金每月5000元", "租金每月人民币5000元") > 0.5
    row = {
        "to_verdicts_ms": 500.0,
        "to_quoted_ms": 700.0,
        "to_first_token_ms": 9000.0,
        "to_end_ms": 20000.0,
        "prompt_tokens": 480,
        "cached_prompt_tokens": 230,
        "citations": 2,
        "citations_gold": 1,
        "quoted": 3,
        "quoted_gold": 3,
        "refused": False,
        "answer_f1": 0.4,
        "quoted_f1": 0.6,
        "loadavg_1min": 3.0,
    }
    refused = {
        **row,
        "to_quoted_ms": 1300.0,
        "to_end_ms": 400.0,
        "refused": True,
        "citations": 0,
        "citations_gold": 0,
    }
    summary = summarize_rows([row, refused])
    assert summary["to_end_answered_ms"]["median"] == 20000.0, "a refusal's quick end is not an answer time"
    assert summary["to_quoted_ms"]["median"] == 1000.0 and summary["to_quoted_ms"]["p95"] == 1300.0
    assert summary["citation_precision"] == 0.5 and summary["quoted_precision"] == 1.0
    assert summary["refusal_rate"] == 0.5
    table = format_speed(
        {"dataset": "d", "kb": "k", "questions": 2, "configs": {"local-1.5b/sentences": {"summary": summary}}}
    )
    assert "| local-1.5b/sentences | 0.50 / 0.50 | 1.00 / 1.30 |" in table


def test_configurations() -> None:
    s = Settings()
    names = [
        c.name for c in parse_configs(["local-1.5b", "local-0.5b", "endpoint"], ["sentences", "passages"], s)
    ]
    assert names == [
        "local-1.5b/sentences",
        "local-1.5b/passages",
        "local-0.5b/sentences",
        "local-0.5b/passages",
    ]
    assert parse_configs(["quoted"], ["passages"], s)[0].provider == "none"
    s.models.base_url = "http://127.0.0.1:9/v1"
    assert parse_configs(["endpoint"], ["sentences"], s)[0].provider == "openai"
    with pytest.raises(LexgateError):
        parse_configs(["local-7b"], ["sentences"], s)
    with pytest.raises(LexgateError):
        parse_configs(["local-1.5b"], ["whole"], s)


def test_a_row_counts_the_first_drafts_prompt_and_its_cached_share() -> None:
    """A regenerated answer sums two prompts in its usage; the row reports the first one alone."""
    from rag_core.answer_records import PromptPlanRecord
    from rag_core.bench.answer_sets import AnswerQuestion
    from rag_core.bench.speed_answers import question_row
    from rag_core.models import Usage
    from rag_core.steps.events import AskResult
    from rag_core.trace import Trace

    plan = PromptPlanRecord(prompt_tokens=(538, 560), cached_prompt_tokens=(280, 268))
    result = AskResult("q", trace=Trace(prompt_plan=plan), usage=Usage(1098, 40, cached_prompt_tokens=548))
    row = question_row(AnswerQuestion("q1", "q", category="Term"), result, 1000.0)
    assert (row["prompt_tokens"], row["cached_prompt_tokens"]) == (538, 280)
