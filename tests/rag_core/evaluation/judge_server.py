"""A judge model for evaluation tests: the real OpenAI client against the local fake HTTP server.

Why: the judge LLM is not the thing under test; the metric arithmetic and the parsing of its
replies are. So the replies are scripted, but they travel the real way (``OpenAIChatModel`` →
HTTP → ``tests.fakeopenai``), and tests can inspect the requests the metrics actually sent.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rag_core.llm.openai_client import OpenAIChatModel
from rag_core.settings import ModelSettings
from tests.fakeopenai import FakeOpenAI, Reply

Scripted = str | Reply
Script = list[Scripted] | Callable[[str], Scripted]
REQUEST_TIMEOUT_S = 10.0  # a local fake server answers at once; fail fast if it does not


def _last_user_text(request: dict[str, Any]) -> str:
    """The prompt the metric wrote (its last user message)."""
    users = [m for m in request.get("messages", []) if m.get("role") == "user"]
    return str(users[-1]["content"]) if users else ""


class JudgeServer:
    """A started fake endpoint whose chat replies come from a list (in order) or a function of the prompt."""

    def __init__(self) -> None:
        self._script: Script = []
        self.server = FakeOpenAI(responder=self._respond)

    def _respond(self, request: dict[str, Any]) -> Reply:
        prompt = _last_user_text(request)
        if callable(self._script):
            reply = self._script(prompt)
        elif self._script:
            reply = self._script.pop(0)
        else:
            reply = Reply.error(404, "no scripted reply left")
        return reply if isinstance(reply, Reply) else Reply(content=reply)

    def reset(self) -> None:
        """Forget the script and the recorded requests (the server is shared between tests)."""
        self._script = []
        with self.server._lock:
            self.server.requests.clear()

    def model(self, script: Script) -> OpenAIChatModel:
        """A judge whose next replies follow ``script``; no retries so a scripted error is final."""
        self._script = list(script) if isinstance(script, list) else script
        settings = ModelSettings(retries=0, timeout_s=REQUEST_TIMEOUT_S)
        return OpenAIChatModel(self.server.base_url, "", "fake-judge", settings, "judge")

    def requests(self) -> list[dict[str, Any]]:
        """Every chat-completions request body received."""
        return self.server.chat_requests()

    def prompts(self) -> list[str]:
        """The prompt of every request received, in order."""
        return [_last_user_text(r) for r in self.requests()]
