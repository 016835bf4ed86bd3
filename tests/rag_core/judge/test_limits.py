"""Limits are enforced before any work, with a clear message, never by silent truncation."""

from __future__ import annotations

import pytest

from rag_core.errors import LimitExceeded
from rag_core.judge.base import QUESTION_PROMPT_CHARS, PassageInput, check_limits, request_chars
from rag_core.judge.local_judge import LocalJudge
from rag_core.settings import VerdictSettings


def test_too_many_passages_refused_with_hint() -> None:
    s = VerdictSettings(max_candidates=3)
    passages = [PassageInput(str(i), "text") for i in range(4)]
    with pytest.raises(LimitExceeded) as err:
        LocalJudge(s).judge("q", passages)
    assert "4 passages, limit 3: lower retrieval candidates or raise the limit in Admin" in str(err.value)


def test_request_chars_count_question_passages_and_prompts() -> None:
    passages = [PassageInput("a", "x" * 100), PassageInput("b", "y" * 50)]
    assert request_chars("1234", passages) == 4 + 150 + 2 * QUESTION_PROMPT_CHARS


def test_oversized_request_refused_not_truncated() -> None:
    s = VerdictSettings(max_input_chars=1000)
    passages = [PassageInput("a", "x" * (1000 - QUESTION_PROMPT_CHARS))]
    check_limits("", passages, s)  # exactly at the limit passes
    with pytest.raises(LimitExceeded) as err:
        LocalJudge(s).judge("q", passages)
    msg = str(err.value)
    assert f"request of {1001} characters" in msg and "limit 1000" in msg and "Admin" in msg
