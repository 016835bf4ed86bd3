"""Speed features in the app: the local model's warm-up on the Home page, the quoted answer above the
generated one, and the deep-thinking toggle that says plainly the local model has no reasoning."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from rag_core.llm.warmup import Warmup, current_state, start_warmup
from rag_core.settings import Settings
from storage.store import open_store
from tests.fakeopenai import FakeOpenAI
from tests.fixtures.kb import make_kb
from tests.ui.conftest import open_page, texts


def _local_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ctx: int) -> Settings:
    """A data directory in force with the local model configured; ``ctx`` is a context size no
    other test uses, so the warm-up has its own slot in this test process."""
    home = tmp_path / "lexgate-data"
    monkeypatch.setenv("LEXGATE_HOME", str(home))
    s = Settings()
    s.models.local_ctx = ctx
    open_store(home).prefs.save_settings(s)
    return s


def test_home_page_shows_the_warmup_while_loading_then_ready(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = _local_home(tmp_path, monkeypatch, 3001)
    loaded, primed = threading.Event(), threading.Event()

    def load() -> object:
        loaded.wait(30)
        return object()

    def prime() -> int:
        primed.wait(30)
        return 251

    run = start_warmup(settings, "zh", factory=lambda s, lang: Warmup("local/test-model", load, prime))
    assert isinstance(run, Warmup)
    at = open_page()
    assert "正在后台加载本地模型" in texts(at) + " ".join(p.proto.text for p in at.get("progress"))
    loaded.set()
    primed.set()
    state = run.wait(10)
    assert state.phase == "ready" and state.primed_tokens == 251 and state.load_s is not None
    at.run()
    assert "本地模型已预热" in texts(at) and "251" in texts(at)
    assert current_state(settings).phase == "ready"


def test_a_failed_warmup_is_a_message_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = _local_home(tmp_path, monkeypatch, 3002)

    def broken() -> object:
        raise OSError("disk full")

    run = start_warmup(settings, "en", factory=lambda s, lang: Warmup("local/test-model", broken, lambda: 0))
    assert isinstance(run, Warmup) and run.wait(10).phase == "failed"
    at = open_page(lang="en")
    assert "could not be warmed up" in texts(at) and "disk full" in texts(at)


def test_no_warmup_for_an_endpoint(seeded_home: Path) -> None:
    at = open_page()
    assert "正在后台加载" not in texts(at) and not at.get("progress")


def test_thinking_toggle_is_off_and_says_why_with_the_local_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, contract_files: dict[str, Path]
) -> None:
    home = tmp_path / "lexgate-data"
    monkeypatch.setenv("LEXGATE_HOME", str(home))
    store = open_store(home)
    settings = Settings()  # the packaged local model
    store.prefs.save_settings(settings)
    make_kb(store, settings, "合同库", [contract_files["zh"]])
    at = open_page("chat")
    toggle = at.toggle(key="chat_think")
    assert toggle.disabled and "本地模型无独立推理过程" in texts(at)
    assert "深度思考仅在配置了会单独输出推理过程的接口模型时可用" in toggle.help


def test_quoted_answer_shown_above_the_generated_answer(seeded_home: Path, fake_llm: FakeOpenAI) -> None:
    at = open_page("chat")
    assert not at.toggle(key="chat_think").disabled  # an endpoint may stream its reasoning
    at.chat_input[0].set_value("违约金是多少？").run()
    assert not at.exception, at.exception
    assert "合同原文摘录（生成回答之前）" in texts(at)
    marks = [str(m.value) for m in at.markdown]
    quoted = next(
        i for i, m in enumerate(marks) if m.startswith("“") and "\\[" in m
    )  # “sentence” [n] — where
    answer = next(i for i, m in enumerate(marks) if ":blue-badge[1]" in m)  # the answer, with its citation
    assert quoted < answer  # the quote stays above the generated answer
    store = open_store(seeded_home)
    conv = store.conversations.all("违约金是多少")[0]
    answer = store.conversations.messages(conv.id)[1]
    assert answer.trace["quoted"] and "10%" in answer.trace["quoted"][0]["text"]
