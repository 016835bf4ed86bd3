"""The packaged local model: GGUF assembly from part packages, and one real run of the 0.5B model."""

from __future__ import annotations

import hashlib
import os
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from rag_core.errors import LexgateError, LLMError
from rag_core.llm.base import ChatModel, ChatOptions, Message, StreamDelta
from rag_core.llm.local_llama import (
    SPECS,
    GgufSpec,
    LocalLlamaModel,
    assemble_gguf,
    get_local_model,
    part_paths,
)
from rag_core.models import Usage
from rag_core.settings import ModelSettings

os.environ["HF_HUB_OFFLINE"] = "1"


@pytest.fixture
def tiny_parts(tmp_path: Path) -> Iterator[tuple[GgufSpec, bytes]]:
    """Three real importable part modules (like the PyPI ones) holding a small byte string."""
    prefix = f"lexgate_testpart_{os.getpid()}_{time.monotonic_ns()}_"
    blob = os.urandom(300_000)
    pieces = [blob[:100_000], blob[100_000:250_000], blob[250_000:]]
    pkg_root = tmp_path / "site"
    for i, piece in enumerate(pieces, start=1):
        mod = pkg_root / f"{prefix}{i}"
        (mod / "data").mkdir(parents=True)
        (mod / "data" / f"part{i:02d}.bin").write_bytes(piece)
        (mod / "__init__.py").write_text(
            "import os\ndef get_part_path():\n"
            f"    return os.path.join(os.path.dirname(os.path.abspath(__file__)), 'data', 'part{i:02d}.bin')\n"
        )
    sys.path.insert(0, str(pkg_root))
    spec = GgufSpec(
        "0.5b", "tiny.gguf", prefix, "tiny-part", "1.0", 3, len(blob), hashlib.sha256(blob).hexdigest()
    )
    yield spec, blob
    sys.path.remove(str(pkg_root))


def test_assembles_parts_in_order_with_sidecar(tiny_parts: tuple[GgufSpec, bytes], tmp_path: Path) -> None:
    spec, blob = tiny_parts
    cache = tmp_path / "cache"
    path = assemble_gguf(spec, cache)
    assert path == cache / "tiny.gguf"
    assert path.read_bytes() == blob
    assert (cache / "tiny.gguf.ok").read_text().startswith(spec.sha256)
    assert sorted(p.name for p in cache.iterdir()) == ["tiny.gguf", "tiny.gguf.ok"]  # no temp file left
    mtime = path.stat().st_mtime_ns
    assert assemble_gguf(spec, cache) == path
    assert path.stat().st_mtime_ns == mtime  # reused, not rewritten


def test_corrupt_cached_file_is_reassembled(tiny_parts: tuple[GgufSpec, bytes], tmp_path: Path) -> None:
    spec, blob = tiny_parts
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "tiny.gguf").write_bytes(b"\0" * len(blob))  # right size, wrong bytes, no sidecar
    assert assemble_gguf(spec, cache).read_bytes() == blob


def test_wrong_digest_is_refused_and_leaves_nothing(
    tiny_parts: tuple[GgufSpec, bytes], tmp_path: Path
) -> None:
    spec, blob = tiny_parts
    bad = GgufSpec(
        spec.size, spec.file_name, spec.module_prefix, spec.pip_prefix, "1.0", 3, len(blob), "0" * 64
    )
    cache = tmp_path / "cache"
    with pytest.raises(LexgateError, match="wrong sha256"):
        assemble_gguf(bad, cache)
    assert list(cache.iterdir()) == []


def test_wrong_total_size_is_refused(tiny_parts: tuple[GgufSpec, bytes], tmp_path: Path) -> None:
    spec, blob = tiny_parts
    bad = GgufSpec(
        spec.size, spec.file_name, spec.module_prefix, spec.pip_prefix, "1.0", 3, len(blob) + 1, spec.sha256
    )
    with pytest.raises(LexgateError, match="add up to"):
        assemble_gguf(bad, tmp_path / "cache")


def test_missing_part_package_names_what_to_install() -> None:
    spec = GgufSpec("0.5b", "x.gguf", "lexgate_no_such_part", "no-such-part", "9.9", 2, 1, "0" * 64)
    with pytest.raises(LexgateError) as err:
        part_paths(spec)
    assert "pip install no-such-part1==9.9" in str(err.value)


def test_packaged_part_packages_are_installed() -> None:
    for spec in SPECS.values():
        paths = part_paths(spec)
        assert len(paths) == spec.parts
        assert sum(p.stat().st_size for p in paths) == spec.n_bytes


def test_model_object_is_lazy_and_shared() -> None:
    a = LocalLlamaModel("0.5b", ModelSettings())
    assert a._llm is None  # constructing does not load
    b = get_local_model("0.5b", ModelSettings(local_threads=1, local_ctx=2048))
    assert get_local_model("0.5b", ModelSettings(local_threads=1, local_ctx=2048, timeout_s=5)) is b
    assert isinstance(a, ChatModel)
    with pytest.raises(LexgateError, match="unknown local model size"):
        LocalLlamaModel("7b", ModelSettings())  # type: ignore[arg-type]


# ---- one real end-to-end run of the packaged 0.5B model


@pytest.fixture(scope="module")
def small_model() -> LocalLlamaModel:
    # One thread: tests run next to other test processes, and with the cores busy llama.cpp with
    # 2 threads collapses (16 s instead of 1.5 s for the same 12 tokens, measured here).
    return get_local_model("0.5b", ModelSettings(local_threads=1, local_ctx=2048))


@pytest.mark.slow
def test_local_05b_end_to_end(small_model: LocalLlamaModel) -> None:
    start = time.perf_counter()
    usage = Usage()
    deltas: list[StreamDelta] = list(
        small_model.stream(
            [
                Message("system", "You are a concise legal assistant."),
                Message("user", "Name one remedy for breach."),
            ],
            ChatOptions(max_tokens=24, temperature=0.0),
            usage_out=usage,
        )
    )
    elapsed = time.perf_counter() - start
    answer = "".join(d.text for d in deltas if d.kind == "token")
    assert answer.strip()
    assert usage.prompt_tokens > 5 and 0 < usage.completion_tokens <= 24
    assert elapsed < 30, f"took {elapsed:.1f} s"


@pytest.mark.slow
def test_local_05b_json_mode(small_model: LocalLlamaModel) -> None:
    obj = small_model.chat_json(
        [
            Message("system", "Reply with a JSON object only."),
            Message("user", 'Fill in: {"capital_of_france": "..."}'),
        ],
        ChatOptions(json_mode=True, max_tokens=30),
    )
    assert isinstance(obj, dict) and obj


@pytest.mark.slow
def test_yes_no_logit_sanity(small_model: LocalLlamaModel) -> None:
    """The 0.5B model says "yes" to nearly any factual question (P(yes) about 0.7 for both
    "Is Paris in France?" and "Is Paris in Japan?"; the 1.5B model gives 0.98 / 0.03). So the absolute
    check uses the easiest possible pair, an instruction to say yes or no, which proves the mechanism
    (right token ids, logits of the last prompt position); the factual pair is checked for order only.
    """
    system = Message("system", "Answer with exactly one word: yes or no.")
    p_yes = small_model.yes_no_logit([system, Message("user", "Reply with the word yes.")])
    p_no = small_model.yes_no_logit([system, Message("user", "Reply with the word no.")])
    assert p_yes > 0.5 > p_no
    france = small_model.yes_no_logit([system, Message("user", "Is Paris in France? Answer yes or no.")])
    japan = small_model.yes_no_logit([system, Message("user", "Is Paris in Japan? Answer yes or no.")])
    assert france > japan
    again = small_model.yes_no_logit([system, Message("user", "Reply with the word yes.")])
    assert abs(again - p_yes) < 0.02  # prefix reuse changes only float rounding


@pytest.mark.slow
def test_second_generation_in_same_thread_while_streaming_is_refused(small_model: LocalLlamaModel) -> None:
    stream = small_model.stream([Message("user", "Count to ten.")], ChatOptions(max_tokens=16))
    next(stream)
    with pytest.raises(LLMError, match="already generating"):
        small_model.chat([Message("user", "hi")], ChatOptions(max_tokens=2))
    stream.close()  # releases the model
    assert small_model.chat([Message("user", "hi")], ChatOptions(max_tokens=2)).usage.completion_tokens > 0


@pytest.mark.slow
def test_generations_from_two_threads_take_turns(small_model: LocalLlamaModel) -> None:
    results: list[str] = []

    def work() -> None:
        results.append(small_model.chat([Message("user", "Say OK.")], ChatOptions(max_tokens=4)).content)

    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert len(results) == 2 and all(results)


@pytest.mark.slow
def test_prompt_longer_than_context_is_a_clear_error() -> None:
    model = LocalLlamaModel("0.5b", ModelSettings(local_threads=1, local_ctx=512))
    with pytest.raises(LLMError, match="512-token context"):
        model.chat([Message("user", "word " * 900)], ChatOptions(max_tokens=4))
    with pytest.raises(LLMError, match="does not fit"):
        model.yes_no_logit([Message("user", "word " * 900)])
    assert model.chat([Message("user", "hi")], ChatOptions(max_tokens=2)).content  # the lock was released
