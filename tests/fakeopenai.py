"""A real, local, scriptable OpenAI-compatible HTTP server for tests.

Why a real server: the clients under test go through the ``openai`` SDK, httpx, SSE parsing,
timeouts and retries; only a real socket exercises all of that. Uses the standard library only.

Usage::

    with FakeOpenAI() as srv:                       # default echo-ish responder
        client = OpenAIChatModel(srv.base_url, "key", "fake-chat", ModelSettings(), "answer")
        ...
        assert srv.chat_requests()[0]["model"] == "fake-chat"

    srv = FakeOpenAI(responder=lambda req: Reply(content='{"a": 1}'))
    srv.script(Reply(status=500), Reply(content="ok"))   # next replies, in order, then the responder

Pytest fixture: ``from tests.fakeopenai import fake_openai`` (yields a started server).
"""

from __future__ import annotations

import base64
import hashlib
import json
import struct
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


@dataclass
class Reply:
    """What the server answers to one chat-completions request.

    content: answer text (may hold inline ``<think>`` tags).
    reasoning_content: streamed as ``delta.reasoning_content`` before the content (and returned as
        ``message.reasoning_content`` when not streaming).
    chunks: explicit content pieces for streaming (overrides splitting ``content``), e.g. to cut a tag.
    status: HTTP status; >= 400 sends an OpenAI-style error body with ``error_message``.
    delay_s: sleep before sending anything (headers included), to trigger client timeouts.
    chunk_delay_s: sleep before every streamed chunk (slow generation, cancellation).
    chunk_chars: characters per streamed content chunk when ``chunks`` is not given.
    send_usage: include ``usage`` (non-stream always; stream when the client asked include_usage).
    usage: explicit usage numbers; default counts whitespace-separated words.
    """

    content: str = ""
    reasoning_content: str = ""
    chunks: list[str] | None = None
    status: int = 200
    error_message: str = "fake server error"
    delay_s: float = 0.0
    chunk_delay_s: float = 0.0
    chunk_chars: int = 4
    send_usage: bool = True
    usage: dict[str, int] | None = None
    finish_reason: str = "stop"
    model: str | None = None
    headers: dict[str, str] = field(default_factory=dict)

    @classmethod
    def json(cls, obj: Any, **kw: Any) -> Reply:
        """A reply whose content is ``obj`` serialised as JSON."""
        return cls(content=json.dumps(obj, ensure_ascii=False), **kw)

    @classmethod
    def error(cls, status: int, message: str = "fake server error", **kw: Any) -> Reply:
        """An HTTP error reply."""
        return cls(status=status, error_message=message, **kw)


Responder = Callable[[dict[str, Any]], Reply]


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


def default_responder(request: dict[str, Any]) -> Reply:
    """Echo-ish: answers with the last user message, so tests can see what was sent."""
    users = [m for m in request.get("messages", []) if m.get("role") == "user"]
    last = users[-1]["content"] if users else ""
    if isinstance(last, list):  # content parts
        last = " ".join(str(p.get("text", "")) for p in last if isinstance(p, dict))
    rf = request.get("response_format") or {}
    if rf.get("type") == "json_object":
        return Reply.json({"echo": last})
    return Reply(content=f"echo: {last}")


def hash_embedding(text: str, dim: int) -> list[float]:
    """A deterministic unit vector for ``text``: the same text always gets the same vector."""
    values: list[float] = []
    counter = 0
    while len(values) < dim:
        digest = hashlib.sha256(f"{counter}:{text}".encode()).digest()
        for i in range(0, len(digest), 4):
            (n,) = struct.unpack("<I", digest[i : i + 4])
            values.append(n / 2**32 - 0.5)
        counter += 1
    vec = values[:dim]
    norm = sum(v * v for v in vec) ** 0.5 or 1.0
    return [v / norm for v in vec]


def _count_tokens(text: str) -> int:
    """A crude token count for fake usage numbers."""
    return len(text.split())


class _QuietServer(ThreadingHTTPServer):
    """Clients that hang up mid-stream (cancel tests, timeouts) are expected, not errors to print."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        import sys

        if isinstance(sys.exc_info()[1], ConnectionError | TimeoutError):
            return
        super().handle_error(request, client_address)


class FakeOpenAI:
    """The server. Start with ``with FakeOpenAI() as srv`` or ``start()``/``stop()``."""

    def __init__(
        self,
        responder: Responder | None = None,
        *,
        embed_dim: int = 16,
        models: tuple[str, ...] = ("fake-chat", "fake-embed"),
        api_key: str | None = None,
    ) -> None:
        self.responder: Responder = responder or default_responder
        self.embed_dim = embed_dim
        self.models = models
        self.api_key = api_key  # when set, other bearer tokens get 401
        self.requests: list[RecordedRequest] = []
        self.disconnects = 0  # streams the client closed before the end
        self.embedding_errors: list[int] = []  # statuses answered to the next /embeddings calls
        self.models_status = 200  # e.g. 404 for a server without /models
        self._scripted: list[Reply] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ---- lifecycle ----
    def start(self) -> FakeOpenAI:
        """Bind 127.0.0.1 on a free port and serve in a daemon thread."""
        handler = _make_handler(self)
        self._server = _QuietServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        server = self._server
        self._thread = threading.Thread(
            target=lambda: server.serve_forever(poll_interval=0.02), name="fakeopenai", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and free the port."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._server is not None, "server not started"
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        """The OpenAI-style base URL, ending in ``/v1``."""
        return f"http://127.0.0.1:{self.port}/v1"

    # ---- scripting / inspection ----
    def script(self, *replies: Reply) -> None:
        """Queue replies for the next chat requests, used in order before the responder."""
        with self._lock:
            self._scripted.extend(replies)

    def next_reply(self, request: dict[str, Any]) -> Reply:
        """The scripted reply if one is queued, else the responder's."""
        with self._lock:
            if self._scripted:
                return self._scripted.pop(0)
        return self.responder(request)

    def record(self, req: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(req)

    def chat_requests(self) -> list[dict[str, Any]]:
        """Bodies of every chat-completions request received, in order."""
        return [r.body for r in self.requests if r.path.endswith("/chat/completions")]

    def embedding_requests(self) -> list[dict[str, Any]]:
        """Bodies of every embeddings request received, in order."""
        return [r.body for r in self.requests if r.path.endswith("/embeddings")]


def _make_handler(srv: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    """A handler class bound to ``srv`` (http.server wants a class, not an instance)."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            """Silence the default stderr access log."""

        # ---- plumbing ----
        def _read_json(self) -> dict[str, Any]:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw or b"{}")
            except json.JSONDecodeError:
                body = {"_raw": raw.decode("utf-8", "replace")}
            return body if isinstance(body, dict) else {"_body": body}

        def _send_json(self, status: int, obj: Any, headers: dict[str, str] | None = None) -> None:
            data = json.dumps(obj, ensure_ascii=False).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)

        def _send_error(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
            err = {"error": {"message": message, "type": "fake_error", "code": status}}
            self._send_json(status, err, headers)

        def _authorised(self) -> bool:
            if srv.api_key is None:
                return True
            return self.headers.get("Authorization", "") == f"Bearer {srv.api_key}"

        def _record(self, body: dict[str, Any]) -> None:
            headers = {
                k.lower(): v for k, v in self.headers.items()
            }  # lower-case keys: lookups need no case games
            srv.record(RecordedRequest(self.command, self.path, headers, body))

        # ---- routes ----
        def do_GET(self) -> None:
            self._record({})
            if not self._authorised():
                self._send_error(401, "Incorrect API key provided")
            elif self.path.rstrip("/").endswith("/models") and srv.models_status == 200:
                data = [{"id": m, "object": "model", "owned_by": "fake"} for m in srv.models]
                self._send_json(200, {"object": "list", "data": data})
            elif self.path.rstrip("/").endswith("/models"):
                self._send_error(srv.models_status, "models listing unavailable")
            else:
                self._send_error(404, f"no route {self.path}")

        def do_POST(self) -> None:
            body = self._read_json()
            self._record(body)
            if not self._authorised():
                self._send_error(401, "Incorrect API key provided")
            elif self.path.endswith("/chat/completions"):
                self._chat(body)
            elif self.path.endswith("/embeddings"):
                self._embeddings(body)
            else:
                self._send_error(404, f"no route {self.path}")

        def _embeddings(self, body: dict[str, Any]) -> None:
            with srv._lock:
                status = srv.embedding_errors.pop(0) if srv.embedding_errors else 200
            if status != 200:
                self._send_error(status, "scripted embeddings failure")
                return
            inputs = body.get("input", [])
            texts = [inputs] if isinstance(inputs, str) else [str(t) for t in inputs]
            as_b64 = body.get("encoding_format") == "base64"
            data = []
            for i, text in enumerate(texts):
                vec = hash_embedding(text, srv.embed_dim)
                emb: Any = base64.b64encode(struct.pack(f"<{len(vec)}f", *vec)).decode() if as_b64 else vec
                data.append({"object": "embedding", "index": i, "embedding": emb})
            n = sum(_count_tokens(t) for t in texts)
            out = {
                "object": "list",
                "data": data,
                "model": body.get("model", "fake-embed"),
                "usage": {"prompt_tokens": n, "total_tokens": n},
            }
            self._send_json(200, out)

        def _chat(self, body: dict[str, Any]) -> None:
            reply = srv.next_reply(body)
            if reply.delay_s:
                time.sleep(reply.delay_s)
            if reply.status >= 400:
                self._send_error(reply.status, reply.error_message, reply.headers)
                return
            usage = reply.usage or {
                "prompt_tokens": sum(
                    _count_tokens(str(m.get("content", ""))) for m in body.get("messages", [])
                ),
                "completion_tokens": _count_tokens(reply.reasoning_content + " " + reply.content),
            }
            usage = {**usage, "total_tokens": usage["prompt_tokens"] + usage["completion_tokens"]}
            model = reply.model or body.get("model", "fake-chat")
            if body.get("stream"):
                include = bool((body.get("stream_options") or {}).get("include_usage"))
                self._stream(reply, model, usage if include and reply.send_usage else None)
                return
            message: dict[str, Any] = {"role": "assistant", "content": reply.content}
            if reply.reasoning_content:
                message["reasoning_content"] = reply.reasoning_content
            out: dict[str, Any] = {
                "id": "chatcmpl-fake",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": model,
                "choices": [{"index": 0, "message": message, "finish_reason": reply.finish_reason}],
            }
            if reply.send_usage:
                out["usage"] = usage
            self._send_json(200, out, reply.headers)

        def _stream(self, reply: Reply, model: str, usage: dict[str, int] | None) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            try:
                for chunk in _stream_chunks(reply, model, usage):
                    if reply.chunk_delay_s:
                        time.sleep(reply.chunk_delay_s)
                    self.wfile.write(b"data: " + json.dumps(chunk, ensure_ascii=False).encode() + b"\n\n")
                    self.wfile.flush()
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                with srv._lock:
                    srv.disconnects += 1

    return Handler


def _pieces(text: str, size: int) -> list[str]:
    """``text`` cut into pieces of ``size`` characters."""
    size = max(1, size)
    return [text[i : i + size] for i in range(0, len(text), size)]


def _stream_chunks(reply: Reply, model: str, usage: dict[str, int] | None) -> Iterator[dict[str, Any]]:
    """The SSE payloads: role, reasoning deltas, content deltas, finish, then usage."""

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {
            "id": "chatcmpl-fake",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }

    yield chunk({"role": "assistant", "content": ""})
    for piece in _pieces(reply.reasoning_content, reply.chunk_chars):
        yield chunk({"reasoning_content": piece})
    pieces = reply.chunks if reply.chunks is not None else _pieces(reply.content, reply.chunk_chars)
    for piece in pieces:
        yield chunk({"content": piece})
    yield chunk({}, reply.finish_reason)
    if usage is not None:
        yield {
            "id": "chatcmpl-fake",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": model,
            "choices": [],
            "usage": usage,
        }


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    """A started fake server, stopped after the test."""
    with FakeOpenAI() as srv:
        yield srv
