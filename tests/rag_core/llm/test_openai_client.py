"""OpenAIChatModel against the real local fake server (tests/fakeopenai.py)."""

from __future__ import annotations

import threading
import time

import pytest

from rag_core.errors import LexgateError, LLMError
from rag_core.llm.base import CancelToken, ChatModel, ChatOptions, Message, StreamDelta
from rag_core.llm.openai_client import CHARS_PER_TOKEN, OpenAIChatModel, estimate_tokens
from rag_core.models import Usage
from rag_core.settings import ModelSettings
from tests.fakeopenai import FakeOpenAI, Reply, fake_openai

__all__ = ["fake_openai"]

MSGS = [Message("system", "You answer about contracts."), Message("user", "Can I terminate early?")]


def client(srv: FakeOpenAI, **settings: object) -> OpenAIChatModel:
    values: dict[str, object] = {"timeout_s": 5.0, "retries": 2, "backoff_s": 0.01, **settings}
    return OpenAIChatModel(
        srv.base_url, "sk-test", "fake-chat", ModelSettings.model_validate(values), "answer"
    )


def collect(deltas: list[StreamDelta]) -> tuple[str, str]:
    thinking = "".join(d.text for d in deltas if d.kind == "thinking")
    answer = "".join(d.text for d in deltas if d.kind == "token")
    return thinking, answer


def test_is_a_chat_model(fake_openai: FakeOpenAI) -> None:
    assert isinstance(client(fake_openai), ChatModel)


def test_chat_sends_messages_and_returns_content(fake_openai: FakeOpenAI) -> None:
    result = client(fake_openai).chat(MSGS, ChatOptions(temperature=0.2, max_tokens=64, stop=["\n\n"]))
    assert result.content == "echo: Can I terminate early?"
    assert result.model == "fake-chat"
    assert result.finish_reason == "stop"
    sent = fake_openai.chat_requests()[0]
    assert sent["messages"] == [m.to_dict() for m in MSGS]
    assert (sent["temperature"], sent["max_tokens"], sent["stop"]) == (0.2, 64, ["\n\n"])
    assert fake_openai.requests[0].headers["authorization"] == "Bearer sk-test"


def test_chat_usage_from_server(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Reply(content="ok", usage={"prompt_tokens": 11, "completion_tokens": 3}))
    model = client(fake_openai)
    result = model.chat(MSGS)
    assert (result.usage.prompt_tokens, result.usage.completion_tokens) == (11, 3)
    assert result.usage.estimated is False and model.last_usage_estimated is False


def test_chat_usage_estimated_when_missing(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Reply(content="x" * 40, send_usage=False))
    model = client(fake_openai)
    result = model.chat(MSGS)
    assert result.usage.completion_tokens == 40 / CHARS_PER_TOKEN
    assert result.usage.prompt_tokens == estimate_tokens("\n".join(m.content for m in MSGS)) > 0
    assert result.usage.estimated is True and model.last_usage_estimated is True


def test_chat_splits_reasoning_content_and_inline_think(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(
        Reply(content="Answer A", reasoning_content="channel reasoning"),
        Reply(content="<think>inline reasoning</think>Answer B"),
    )
    model = client(fake_openai)
    a = model.chat(MSGS)
    assert (a.thinking, a.content) == ("channel reasoning", "Answer A")
    b = model.chat(MSGS)
    assert (b.thinking, b.content) == ("inline reasoning", "Answer B")


def test_stream_with_reasoning_content(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(
        Reply(content="Clause 7 allows it.", reasoning_content="Look at clause 7 first.", chunk_chars=3)
    )
    usage = Usage()
    deltas = list(client(fake_openai).stream(MSGS, ChatOptions(think=True), usage_out=usage))
    thinking, answer = collect(deltas)
    assert thinking == "Look at clause 7 first."
    assert answer == "Clause 7 allows it."
    first_token = next(i for i, d in enumerate(deltas) if d.kind == "token")
    assert all(d.kind == "thinking" for d in deltas[:first_token])
    assert usage.total_tokens > 0


def test_stream_with_inline_think_split_across_chunks(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Reply(chunks=["<thi", "nk>weigh", " it</th", "ink>", "\n\nDone", "."]))
    thinking, answer = collect(list(client(fake_openai).stream(MSGS)))
    assert (thinking, answer) == ("weigh it", "Done.")


def test_stream_missing_open_tag_when_thinking_asked(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Reply(chunks=["reasoning ", "here", "</think>", "answer"]))
    thinking, answer = collect(list(client(fake_openai).stream(MSGS, ChatOptions(think=True))))
    assert (thinking, answer) == ("reasoning here", "answer")


def test_stream_usage_requested_and_reported(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Reply(content="one two three", usage={"prompt_tokens": 21, "completion_tokens": 3}))
    model = client(fake_openai)
    usage = Usage(prompt_tokens=1)
    list(model.stream(MSGS, usage_out=usage))
    assert fake_openai.chat_requests()[0]["stream_options"] == {"include_usage": True}
    assert (usage.prompt_tokens, usage.completion_tokens) == (22, 3)  # added to what was there
    assert usage.estimated is False and model.last_usage_estimated is False


def test_stream_usage_estimated_when_server_sends_none(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Reply(content="y" * 60, send_usage=False))
    model = client(fake_openai)
    usage = Usage()
    list(model.stream(MSGS, usage_out=usage))
    assert fake_openai.chat_requests()[0]["stream_options"] == {"include_usage": True}  # asked, not sent
    assert usage.completion_tokens == 60 / CHARS_PER_TOKEN
    assert usage.estimated is True and model.last_usage_estimated is True


def test_stream_estimate_counts_cjk_per_character_and_reasoning(fake_openai: FakeOpenAI) -> None:
    answer = "违约金为合同总额的10%。"  # 10 CJK characters and punctuation + 3 other characters
    fake_openai.script(
        Reply(content=answer, reasoning_content="看第六条", send_usage=False, chunk_chars=2),
        Reply(content="ok", usage={"prompt_tokens": 5, "completion_tokens": 1}),
    )
    model = client(fake_openai)
    zh = [Message("user", "违约金是多少？")]
    usage = Usage()
    list(model.stream(zh, ChatOptions(think=True), usage_out=usage))
    assert usage.prompt_tokens == 7  # one token per Chinese character, the fullwidth ？ included
    assert usage.completion_tokens == 4 + 10 + 1  # reasoning, CJK answer, "10%" at 4 chars per token
    assert usage.estimated is True
    # A later call with server usage adds real numbers but the sum stays an estimate.
    list(model.stream(zh, usage_out=usage))
    assert (usage.prompt_tokens, usage.completion_tokens) == (12, 16)
    assert usage.estimated is True and model.last_usage_estimated is False


def test_estimate_tokens_and_usage_add() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("a") == 1  # never zero for some text
    assert estimate_tokens("The monthly fee is USD 12,500.") == round(30 / CHARS_PER_TOKEN)
    assert estimate_tokens("合同") == 2
    total = Usage(1, 2)
    total.add(Usage(3, 4))
    assert (total.total_tokens, total.estimated) == (10, False)
    total.add(Usage(1, 1, estimated=True))
    assert (total.total_tokens, total.estimated) == (12, True)
    total.add(Usage(1, 1))  # an exact part does not make the sum exact again
    assert total.estimated is True
    assert total.to_json() == {
        "prompt_tokens": 6,
        "completion_tokens": 8,
        "total_tokens": 14,
        "estimated": True,
        "cached_prompt_tokens": 0,
    }


def test_json_mode_sends_response_format_and_parses(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Reply.json({"relevant": 0.9, "label": "EVIDENCE"}))
    obj = client(fake_openai).chat_json(MSGS, ChatOptions(json_mode=True))
    assert obj == {"relevant": 0.9, "label": "EVIDENCE"}
    assert fake_openai.chat_requests()[0]["response_format"] == {"type": "json_object"}


def test_json_fenced_reply_is_parsed(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Reply(content='Here you go:\n```json\n{"a": [1, 2]}\n```\nDone.'))
    assert client(fake_openai).chat_json(MSGS) == {"a": [1, 2]}


def test_json_after_reasoning_is_parsed(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Reply(content='<think>{"not": "this"}</think>{"yes": true}'))
    assert client(fake_openai).chat_json(MSGS) == {"yes": True}


def test_json_unparsable_raises_llm_error(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Reply(content="I cannot answer in JSON, sorry."))
    with pytest.raises(LLMError, match="not a JSON object") as err:
        client(fake_openai).chat_json(MSGS)
    assert "fake-chat" in str(err.value)


def test_json_mode_falls_back_when_server_rejects_response_format(fake_openai: FakeOpenAI) -> None:
    def responder(req: dict[str, object]) -> Reply:
        if "response_format" in req:
            return Reply.error(400, "response_format is not supported")
        return Reply(content='{"ok": 1}')

    fake_openai.responder = responder
    assert client(fake_openai).chat_json(MSGS, ChatOptions(json_mode=True)) == {"ok": 1}
    sent = fake_openai.chat_requests()
    assert len(sent) == 2
    assert "response_format" in sent[0] and "response_format" not in sent[1]


def test_retry_on_500_then_success(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Reply.error(500), Reply.error(503), Reply(content="recovered"))
    assert client(fake_openai, retries=2).chat(MSGS).content == "recovered"
    assert len(fake_openai.chat_requests()) == 3


def test_retry_on_429(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Reply.error(429, "slow down"), Reply(content="ok"))
    assert client(fake_openai).chat(MSGS).content == "ok"


def test_backoff_grows_exponentially(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Reply.error(500), Reply.error(500), Reply(content="ok"))
    start = time.perf_counter()
    client(fake_openai, retries=2, backoff_s=0.1).chat(MSGS)
    assert time.perf_counter() - start >= 0.1 + 0.2


def test_500_exhausting_retries_raises_clear_error(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(*[Reply.error(500, "model crashed")] * 3)
    with pytest.raises(LLMError) as err:
        client(fake_openai, retries=2).chat(MSGS)
    msg = str(err.value)
    assert "HTTP 500" in msg and "3 attempts" in msg and "model crashed" in msg
    assert fake_openai.base_url in msg
    assert len(fake_openai.chat_requests()) == 3


def test_no_retry_on_401_with_clear_message(fake_openai: FakeOpenAI) -> None:
    fake_openai.api_key = "the-right-key"
    with pytest.raises(LLMError) as err:
        client(fake_openai).chat(MSGS)
    msg = str(err.value)
    assert "HTTP 401" in msg and "API key" in msg and "fake-chat" in msg
    assert len(fake_openai.chat_requests()) == 1


def test_no_retry_on_404(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Reply.error(404, "model 'nope' does not exist"))
    with pytest.raises(LLMError, match="model name"):
        client(fake_openai).chat(MSGS)
    assert len(fake_openai.chat_requests()) == 1


def test_timeout_raises_quickly_without_retry(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Reply(content="late", delay_s=3.0))
    start = time.perf_counter()
    with pytest.raises(LLMError, match=r"no response within 0\.3 s"):
        client(fake_openai, timeout_s=0.3, retries=2).chat(MSGS)
    assert time.perf_counter() - start < 2.0
    assert len(fake_openai.chat_requests()) == 1


def test_stream_timeout_between_chunks(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Reply(content="abcdefgh", chunk_chars=2, chunk_delay_s=1.0))
    start = time.perf_counter()
    with pytest.raises(LLMError, match="no response within"):
        list(client(fake_openai, timeout_s=0.3).stream(MSGS))
    assert time.perf_counter() - start < 2.5


def test_connection_refused_is_retried_then_clear() -> None:
    srv = FakeOpenAI().start()
    url = srv.base_url
    srv.stop()  # nothing listens on that port any more
    model = OpenAIChatModel(url, "k", "m", ModelSettings(retries=1, backoff_s=0.01, timeout_s=2), "judge")
    with pytest.raises(LLMError, match="cannot connect") as err:
        model.chat(MSGS)
    assert "judge model 'm'" in str(err.value)


def test_cancellation_closes_the_stream(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Reply(content="x" * 400, chunk_chars=1, chunk_delay_s=0.01))
    cancel = CancelToken()
    got: list[StreamDelta] = []
    start = time.perf_counter()
    for delta in client(fake_openai).stream(MSGS, cancel=cancel):
        got.append(delta)
        if len(got) == 3:
            cancel.cancel()
    assert len(got) == 3
    assert time.perf_counter() - start < 2.0  # 400 chunks x 10 ms would take 4 s
    deadline = time.time() + 3
    while fake_openai.disconnects == 0 and time.time() < deadline:
        time.sleep(0.05)
    assert fake_openai.disconnects == 1


def test_cancel_from_another_thread(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Reply(content="y" * 200, chunk_chars=1, chunk_delay_s=0.01))
    cancel = CancelToken()
    threading.Timer(0.3, cancel.cancel).start()
    got = list(client(fake_openai).stream(MSGS, cancel=cancel))
    assert 0 < len(got) < 200


def test_enable_thinking_sent_only_when_think(fake_openai: FakeOpenAI) -> None:
    model = client(fake_openai)
    model.chat(MSGS, ChatOptions(think=True))
    list(model.stream(MSGS, ChatOptions(think=True)))
    model.chat(MSGS, ChatOptions(think=False))
    list(model.stream(MSGS))
    sent = fake_openai.chat_requests()
    for req in sent[:2]:
        assert req["enable_thinking"] is True
        assert req["chat_template_kwargs"] == {"enable_thinking": True}
    for req in sent[2:]:
        assert "enable_thinking" not in req and "chat_template_kwargs" not in req


def test_enable_thinking_param_can_be_switched_off(fake_openai: FakeOpenAI) -> None:
    client(fake_openai, enable_thinking_param=False).chat(MSGS, ChatOptions(think=True))
    assert "enable_thinking" not in fake_openai.chat_requests()[0]


def test_connection_lists_models(fake_openai: FakeOpenAI) -> None:
    status = client(fake_openai).test_connection()
    assert "fake-chat" in status and "available" in status
    assert fake_openai.chat_requests() == []


def test_connection_without_models_route_does_one_token_chat(fake_openai: FakeOpenAI) -> None:
    fake_openai.models_status = 404
    status = client(fake_openai).test_connection()
    assert "answered" in status
    assert fake_openai.chat_requests()[0]["max_tokens"] == 1


def test_connection_bad_key(fake_openai: FakeOpenAI) -> None:
    fake_openai.api_key = "other"
    with pytest.raises(LLMError, match="API key"):
        client(fake_openai).test_connection()


def test_missing_model_or_url_is_a_clear_error() -> None:
    with pytest.raises(LexgateError, match="base URL"):
        OpenAIChatModel("", "k", "m", ModelSettings(), "answer")
    with pytest.raises(LexgateError, match="model"):
        OpenAIChatModel("http://127.0.0.1:9/v1", "k", " ", ModelSettings(), "judge")
