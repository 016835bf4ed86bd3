"""Fixtures of the evaluation tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.rag_core.evaluation.judge_server import JudgeServer


@pytest.fixture(scope="module")
def _judge_endpoint() -> Iterator[JudgeServer]:
    """One fake endpoint per module: stopping a server costs half a second, so it is shared."""
    served = JudgeServer()
    with served.server:
        yield served


@pytest.fixture
def judge_server(_judge_endpoint: JudgeServer) -> JudgeServer:
    """The shared judge endpoint with no script and no recorded requests."""
    _judge_endpoint.reset()
    return _judge_endpoint
