"""Which chat model the settings select."""

from __future__ import annotations

from rag_core.llm.base import ChatModel, Message
from rag_core.llm.factory import available, get_chat_model, model_for_role, why_unavailable
from rag_core.llm.local_llama import LocalLlamaModel
from rag_core.llm.openai_client import OpenAIChatModel
from rag_core.settings import ModelSettings, Settings
from tests.fakeopenai import FakeOpenAI, fake_openai

__all__ = ["fake_openai"]


def test_openai_without_base_url_is_unavailable() -> None:
    s = Settings(models=ModelSettings(provider="openai", answer_model="m"))
    assert not available(s)
    assert "base URL" in why_unavailable(s)
    assert get_chat_model(s, "answer") is None


def test_openai_without_model_is_unavailable() -> None:
    s = Settings(models=ModelSettings(provider="openai", base_url="http://127.0.0.1:9/v1"))
    assert get_chat_model(s, "judge") is None
    assert "model name" in why_unavailable(s, "judge")


def test_roles_fall_back_to_the_answer_model() -> None:
    m = ModelSettings(answer_model="big", judge_model="", rewrite_model="fast")
    assert (model_for_role(m, "answer"), model_for_role(m, "judge"), model_for_role(m, "rewrite")) == (
        "big",
        "big",
        "fast",
    )


def test_openai_model_per_role_and_cached(fake_openai: FakeOpenAI) -> None:
    s = Settings(
        models=ModelSettings(
            provider="openai", base_url=fake_openai.base_url, answer_model="a", judge_model="j"
        )
    )
    judge = get_chat_model(s, "judge")
    assert isinstance(judge, OpenAIChatModel) and isinstance(judge, ChatModel)
    assert judge.model == "j" and judge.role == "judge"
    rewrite = get_chat_model(s, "rewrite")
    assert isinstance(rewrite, OpenAIChatModel) and rewrite.model == "a"
    assert get_chat_model(s, "judge") is judge
    judge.chat([Message("user", "hi")])
    assert fake_openai.chat_requests()[0]["model"] == "j"


def test_local_provider_hands_out_the_lazy_local_model() -> None:
    s = Settings(models=ModelSettings(provider="local", local_model="0.5b"))
    assert available(s)
    model = get_chat_model(s, "answer")
    assert isinstance(model, LocalLlamaModel)
    assert model.spec.size == "0.5b"
    assert get_chat_model(s, "judge") is model
