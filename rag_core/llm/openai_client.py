"""A ``ChatModel`` over any OpenAI-compatible endpoint (OpenAI, vLLM, llama.cpp server, DeepSeek, Qwen…).

Why the ``openai`` SDK with our own retry loop: the SDK speaks the protocol and SSE, but its built-in
retries also retry timeouts (a 120 s timeout retried twice keeps a lawyer waiting six minutes) and
its errors are not messages a lawyer can act on. Here every failure becomes an ``LLMError`` saying
which endpoint and model failed and what to do.

Reasoning arrives either as ``delta.reasoning_content`` (DeepSeek, Qwen, vLLM, llama.cpp server) or
inline as ``<think>…</think>`` in the content; both end up on the "thinking" channel.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Generator, Iterator
from typing import Any, TypeVar

import openai

from rag_core.errors import LexgateError, LLMError, ParamValue
from rag_core.llm.base import CancelToken, ChatOptions, ChatResult, Message, Role, StreamDelta
from rag_core.llm.jsonparse import parse_json_object
from rag_core.llm.think import ThinkParser, split_think
from rag_core.models import Usage
from rag_core.settings import ModelSettings

log = logging.getLogger(__name__)

T = TypeVar("T")

# Request fields a strict or older server may refuse with 400/422; dropped (once) and retried, because
# the answer is still useful without them (no JSON mode, no usage, no thinking switch).
_OPTIONAL_PARAMS = ("response_format", "stream_options", "extra_body")
# Token estimate when the server reports no usage: each CJK character (ideographs, kana, hangul,
# CJK and fullwidth punctuation) is about one token in common BPE vocabularies; other text about
# CHARS_PER_TOKEN characters per token (English prose).
CHARS_PER_TOKEN = 4.0
_ONE_TOKEN_CHAR = re.compile(
    "[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]"
)
_NO_KEY = "not-needed"  # local servers (vLLM, llama.cpp) accept any key; the SDK insists on one


# ---------------------------------------------------------------- errors and retries (shared)


def is_transient(exc: Exception) -> bool:
    """Worth retrying: connection failures, 5xx and 429. Not timeouts (they would multiply the wait)."""
    if isinstance(exc, openai.APITimeoutError):
        return False
    if isinstance(exc, openai.APIConnectionError):
        return True
    if isinstance(exc, openai.APIStatusError):
        return exc.status_code == 429 or exc.status_code >= 500
    return False


def _server_message(exc: openai.APIStatusError) -> str:
    """The server's own error text, shortened for a UI message."""
    body = exc.body
    msg = ""
    if isinstance(body, dict):
        inner = body.get("error", body)
        msg = str(inner.get("message", "")) if isinstance(inner, dict) else str(inner)
    msg = msg or str(exc.message)
    return msg[:200]


def to_llm_error(
    exc: Exception, subject: str, timeout_s: float, attempts: int = 1, *, model: str = "", url: str = ""
) -> LLMError:
    """Translate an SDK exception into a message that says what failed and what to do.

    ``model`` and ``url`` name the endpoint in the error's parameters (the UI's own language).
    """
    tried = f" after {attempts} attempts" if attempts > 1 else ""
    where: dict[str, ParamValue] = {"model": model, "url": url, "attempts": attempts}
    if isinstance(exc, openai.APITimeoutError):
        return LLMError(
            f"no response within {timeout_s:g} s",
            "raise the request timeout in the model settings, or use a faster model or a shorter prompt",
            subject=subject,
            code="llm_timeout",
            params={**where, "seconds": timeout_s},
        )
    if isinstance(exc, openai.APIConnectionError):
        return LLMError(
            f"cannot connect to the endpoint{tried}",
            "check the base URL (usually ending in /v1) and that the server is running and reachable",
            subject=subject,
            code="llm_connect",
            params=where,
        )
    if not isinstance(exc, openai.APIStatusError):
        return LLMError(
            f"request failed: {exc}",
            "see the log for details",
            subject=subject,
            code="llm_failed",
            params={**where, "detail": str(exc)[:200]},
        )
    status, msg = exc.status_code, _server_message(exc)
    what, hint, code = _status_error(status, msg, tried)
    return LLMError(what, hint, subject=subject, code=code, params={**where, "status": status, "detail": msg})


_STATUS_ERRORS: dict[int, tuple[str, str, str]] = {
    401: (
        "the endpoint rejected the API key (HTTP 401)",
        "check the API key in the model settings",
        "llm_unauthorized",
    ),
    403: ("access denied (HTTP 403): {msg}", "check that this API key may use this model", "llm_forbidden"),
    404: (
        "not found (HTTP 404): {msg}",
        "check the base URL (usually ending in /v1) and the model name",
        "llm_not_found",
    ),
    429: (
        "rate limited (HTTP 429){tried}",
        "wait a moment, or lower the concurrency settings",
        "llm_rate_limited",
    ),
}
"""What an HTTP status means to the lawyer: message template, what to do, error code."""

_SERVER_ERROR = (
    "server error (HTTP {status}){tried}: {msg}",
    "the endpoint is failing; try again later",
    "llm_server_error",
)
_REFUSED = (
    "request refused (HTTP {status}): {msg}",
    "check the model name and the model settings",
    "llm_refused",
)


def _status_error(status: int, msg: str, tried: str) -> tuple[str, str, str]:
    """Message, hint and code of an HTTP error status (5xx: the server; other 4xx: the request)."""
    template, hint, code = _STATUS_ERRORS.get(status) or (_SERVER_ERROR if status >= 500 else _REFUSED)
    return template.format(status=status, msg=msg, tried=tried), hint, code


def with_retries(
    call: Callable[[], T],
    *,
    retries: int,
    backoff_s: float,
    on_error: Callable[[Exception, int], LLMError],
    sleep: Callable[[float], None] = time.sleep,
) -> T:
    """Run ``call``; retry transient failures with exponential backoff, else raise ``on_error``'s error."""
    attempt = 0
    while True:
        attempt += 1
        try:
            return call()
        except openai.APIError as exc:
            if attempt > retries or not is_transient(exc):
                raise on_error(exc, attempt) from exc
            delay = backoff_s * 2 ** (attempt - 1)
            log.warning("transient LLM error (%s); retry %d/%d in %.2f s", exc, attempt, retries, delay)
            sleep(delay)


def make_client(base_url: str, api_key: str, timeout_s: float) -> openai.OpenAI:
    """An SDK client without its own retries (we retry ourselves, see module doc)."""
    return openai.OpenAI(base_url=base_url, api_key=api_key or _NO_KEY, timeout=timeout_s, max_retries=0)


def estimate_tokens(text: str) -> int:
    """Rough token count of ``text``, for servers that report no usage: CJK characters one each,
    the rest ``CHARS_PER_TOKEN`` characters per token."""
    if not text:
        return 0
    cjk = len(_ONE_TOKEN_CHAR.findall(text))
    return max(1, cjk + round((len(text) - cjk) / CHARS_PER_TOKEN))


def _reasoning_of(obj: Any) -> str:
    """Reasoning text of a delta/message: ``reasoning_content`` (DeepSeek/Qwen/vLLM) or ``reasoning``."""
    text = getattr(obj, "reasoning_content", None)
    if not text:
        extra = getattr(obj, "model_extra", None) or {}
        text = extra.get("reasoning_content") or extra.get("reasoning")
    return text if isinstance(text, str) else ""


# ---------------------------------------------------------------- the client


class OpenAIChatModel:
    """``ChatModel`` for one model on one OpenAI-compatible endpoint, for one role."""

    def __init__(self, base_url: str, api_key: str, model: str, settings: ModelSettings, role: Role) -> None:
        if not base_url.strip():
            raise LexgateError(
                "no endpoint base URL set", "enter the base URL in the model settings", code="llm_no_base_url"
            )
        if not model.strip():
            raise LexgateError(
                f"no endpoint model set for the {role} role",
                "enter the answer model name in the model settings",
                subject=base_url,
                code="llm_no_model",
                params={"url": base_url},
            )
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.role = role
        self.settings = settings
        self.name = f"openai/{model}"
        self.subject = f"{role} model '{model}' at {self.base_url}"
        self.last_usage_estimated = False  # True when the last call's usage was estimated (no server usage)
        self._client = make_client(self.base_url, api_key, settings.timeout_s)

    def _error(self, exc: Exception, attempts: int = 1) -> LLMError:
        return to_llm_error(
            exc, self.subject, self.settings.timeout_s, attempts, model=self.model, url=self.base_url
        )

    # ---- request building ----
    def _params(self, messages: list[Message], opts: ChatOptions, stream: bool) -> dict[str, Any]:
        """Request fields; thinking switches only when asked (some servers refuse unknown fields)."""
        params: dict[str, Any] = {
            "model": self.model,
            "messages": [m.to_dict() for m in messages],
            "temperature": opts.temperature,
            "max_tokens": opts.max_tokens,
        }
        if opts.stop:
            params["stop"] = list(opts.stop)
        if opts.json_mode:
            params["response_format"] = {"type": "json_object"}
        if opts.think and self.settings.enable_thinking_param:
            params["extra_body"] = {
                "enable_thinking": True,
                "chat_template_kwargs": {"enable_thinking": True},
            }
        if stream:
            params["stream"] = True
            params["stream_options"] = {"include_usage": True}
        return params

    def _create(self, params: dict[str, Any]) -> Any:
        """One create call with retries; optional fields a server refuses are dropped once."""
        try:
            return self._create_once(params)
        except LLMError as err:
            cause = err.__cause__
            refused = isinstance(cause, openai.BadRequestError | openai.UnprocessableEntityError)
            dropped = [k for k in _OPTIONAL_PARAMS if k in params]
            if not (refused and dropped):
                raise
            log.warning("%s refused %s (%s); retrying without them", self.subject, dropped, cause)
            return self._create_once({k: v for k, v in params.items() if k not in _OPTIONAL_PARAMS})

    def _create_once(self, params: dict[str, Any]) -> Any:
        """``chat.completions.create`` with transient-error retries."""

        def call() -> Any:
            return self._client.chat.completions.create(**params)

        def fail(exc: Exception, attempts: int) -> LLMError:
            return self._error(exc, attempts)

        return with_retries(
            call, retries=self.settings.retries, backoff_s=self.settings.backoff_s, on_error=fail
        )

    @staticmethod
    def _prompt_text(messages: list[Message]) -> str:
        return "\n".join(m.content for m in messages)

    def _usage(self, raw: Any, prompt_text: str, completion_text: str) -> Usage:
        """Server usage when sent, else an estimate marked ``estimated`` (and ``last_usage_estimated``)."""
        if raw is not None and getattr(raw, "prompt_tokens", None) is not None:
            self.last_usage_estimated = False
            return Usage(int(raw.prompt_tokens or 0), int(raw.completion_tokens or 0))
        self.last_usage_estimated = True
        return Usage(estimate_tokens(prompt_text), estimate_tokens(completion_text), estimated=True)

    # ---- ChatModel ----
    def chat(self, messages: list[Message], options: ChatOptions | None = None) -> ChatResult:
        """A whole completion, with reasoning split off into ``thinking``."""
        opts = options or ChatOptions()
        resp = self._create(self._params(messages, opts, stream=False))
        if not getattr(resp, "choices", None):
            raise LLMError(
                "the endpoint returned no choices",
                "check that the model name is a chat model",
                subject=self.subject,
                code="llm_no_choices",
                params={"model": self.model, "url": self.base_url},
            )
        choice = resp.choices[0]
        msg = choice.message
        reasoning = _reasoning_of(msg)
        content = msg.content or ""
        inline_thinking, answer = split_think(content, expect_thinking=opts.think and not reasoning)
        thinking = "\n".join(t for t in (reasoning.strip(), inline_thinking) if t)
        usage = self._usage(getattr(resp, "usage", None), self._prompt_text(messages), reasoning + content)
        return ChatResult(
            answer,
            thinking,
            usage,
            str(getattr(resp, "model", "") or self.model),
            str(choice.finish_reason or ""),
        )

    def stream(
        self,
        messages: list[Message],
        options: ChatOptions | None = None,
        cancel: CancelToken | None = None,
        usage_out: Usage | None = None,
    ) -> Generator[StreamDelta, None, None]:
        """Deltas as they arrive; ``cancel`` (or ``close()``) closes the HTTP stream at the next delta."""
        opts = options or ChatOptions()
        response = self._create(self._params(messages, opts, stream=True))
        state = _StreamState(expect_thinking=opts.think)
        try:
            for chunk in response:
                if cancel is not None and cancel.cancelled:
                    break
                yield from state.consume(chunk)
            else:
                yield from state.finish()
        except openai.APIError as exc:
            raise self._error(exc) from exc
        finally:
            response.close()
            if usage_out is not None:
                usage_out.add(self._usage(state.usage, self._prompt_text(messages), "".join(state.text)))

    def chat_json(self, messages: list[Message], options: ChatOptions | None = None) -> dict[str, Any]:
        """A completion parsed as a JSON object; ``LLMError`` when none can be recovered."""
        opts = options or ChatOptions(json_mode=True)
        result = self.chat(messages, opts)
        obj = parse_json_object(result.content)
        if obj is None:
            snippet = result.content[:160].replace("\n", " ")
            raise LLMError(
                f"the reply is not a JSON object: {snippet!r}",
                "the model did not follow the JSON format; try again, or use a stronger model",
                subject=self.subject,
                code="llm_not_json",
                params={"model": self.model, "url": self.base_url},
            )
        return obj

    def test_connection(self) -> str:
        """A short human status of the endpoint, or ``LLMError`` saying what is wrong."""
        try:
            ids = [m.id for m in self._client.models.list().data]
        except openai.APIStatusError as exc:
            if exc.status_code not in (404, 405, 501):
                raise self._error(exc) from exc
            ids = []  # server without a model listing: try a one-token chat instead
        except openai.APIError as exc:
            raise self._error(exc) from exc
        if self.model in ids:
            return (
                f"Connected to {self.base_url}: model '{self.model}' is available ({len(ids)} models listed)."
            )
        self.chat([Message("user", "ping")], ChatOptions(max_tokens=1))
        listed = f" (not among the {len(ids)} listed models)" if ids else ""
        return f"Connected to {self.base_url}: model '{self.model}' answered{listed}."


class _StreamState:
    """Per-stream bookkeeping: reasoning channel, inline ``<think>`` parser, usage, text seen."""

    def __init__(self, expect_thinking: bool) -> None:
        self.expect_thinking = expect_thinking
        self.reasoning_seen = False
        self.parser: ThinkParser | None = None
        self.usage: Any = None
        self.text: list[str] = []  # every reasoning and content delta, for the estimate without usage

    def consume(self, chunk: Any) -> Iterator[StreamDelta]:
        """Deltas of one SSE chunk."""
        if getattr(chunk, "usage", None) is not None:
            self.usage = chunk.usage
        for choice in (chunk.choices or [])[:1]:
            delta = choice.delta
            if delta is None:
                continue
            reasoning = _reasoning_of(delta)
            if reasoning:
                self.reasoning_seen = True
                self.text.append(reasoning)
                yield StreamDelta("thinking", reasoning)
            if delta.content:
                if self.parser is None:
                    # Content after a reasoning channel carries no inline thinking.
                    self.parser = ThinkParser(
                        expect_thinking=self.expect_thinking and not self.reasoning_seen
                    )
                self.text.append(delta.content)
                yield from self.parser.feed(delta.content)

    def finish(self) -> Iterator[StreamDelta]:
        """Held-back text at the natural end of the stream."""
        if self.parser is not None:
            yield from self.parser.finish()
