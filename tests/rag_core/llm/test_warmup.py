"""The background warm-up and the reused system-prompt prefix of the local model."""

from __future__ import annotations

import threading

import pytest

from rag_core.generation.prompt import build_messages, system_prompt
from rag_core.llm.base import ChatOptions
from rag_core.llm.factory import separate_reasoning, thinking_available
from rag_core.llm.local_llama import LocalLlamaModel, common_prefix, get_local_model
from rag_core.llm.warmup import Warmup, current_state, start_warmup
from rag_core.models import Usage
from rag_core.settings import ModelSettings, Settings


def test_warmup_runs_loading_then_priming_then_ready() -> None:
    step = threading.Event()
    seen: list[str] = []

    def load() -> object:
        step.wait(10)
        return object()

    run = Warmup("local/x", load, lambda: 240)
    assert run.state.phase == "loading" and not run.state.done and run.state.progress < 1
    run.thread.start()
    seen.append(run.state.phase)
    step.set()
    state = run.wait(10)
    assert seen == ["loading"] and state.phase == "ready" and state.done
    assert state.primed_tokens == 240 and state.load_s is not None and state.prime_s is not None
    assert state.elapsed_s >= 0 and state.progress == 1.0


def test_warmup_failure_is_kept_not_raised() -> None:
    def boom() -> int:
        raise RuntimeError("no memory")

    run = Warmup("local/x", lambda: None, boom)
    run.thread.start()
    state = run.wait(10)
    assert state.phase == "failed" and "no memory" in state.error


def test_one_warmup_per_model_and_none_for_an_endpoint() -> None:
    s = Settings()
    s.models.local_ctx = 2999  # its own slot in this test process
    made: list[int] = []

    def factory(settings: Settings, language: str) -> Warmup:
        made.append(1)
        return Warmup("local/y", lambda: None, lambda: 1)

    first = start_warmup(s, "zh", factory)  # type: ignore[arg-type]
    again = start_warmup(s, "en", factory)  # type: ignore[arg-type]
    assert first is again and made == [1]
    assert isinstance(first, Warmup) and first.wait(10).phase == "ready"
    assert current_state(s).phase == "ready"
    s.models.provider = "openai"
    assert current_state(s).phase == "endpoint" and start_warmup(s).phase == "endpoint"  # type: ignore[union-attr]
    other = Settings()
    other.models.local_ctx = 2998
    assert current_state(other).phase == "off"


def test_thinking_is_offered_only_with_an_endpoint() -> None:
    s = Settings()
    assert not thinking_available(s)
    s.models.provider, s.models.base_url, s.models.answer_model = "openai", "http://127.0.0.1:9/v1", "m"
    assert thinking_available(s)
    assert not separate_reasoning(LocalLlamaModel("0.5b", ModelSettings())) and not separate_reasoning(None)


def test_common_prefix() -> None:
    assert common_prefix([1, 2, 3], [1, 2, 4, 5]) == 2 and common_prefix([], [1]) == 0


@pytest.mark.slow
def test_the_system_prompt_prefix_is_reused_across_questions() -> None:
    model = get_local_model("0.5b", ModelSettings(local_threads=1, local_ctx=2048))
    primed = model.prime(system_prompt("zh"))
    assert primed > 100
    usages = []
    for question in ("租金每月多少？", "租期多久？"):
        usage = Usage()
        messages = build_messages(question, [], [], "zh")
        list(model.stream(messages, ChatOptions(max_tokens=4, temperature=0.0), usage_out=usage))
        usages.append(usage)
    # the whole system prompt (and the chat template's user header) came from the KV cache
    assert all(u.cached_prompt_tokens >= primed - 10 for u in usages)
    assert all(u.cached_prompt_tokens < u.prompt_tokens for u in usages)
