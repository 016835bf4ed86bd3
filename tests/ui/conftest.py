"""Fixtures for the app tests: a data directory with settings that point the answer model at the
local fake OpenAI server, a knowledge base with a real contract, and an AppTest factory."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from rag_core.settings import Settings
from storage.store import open_store
from tests.fakeopenai import FakeOpenAI, Reply
from tests.fixtures import make_docs
from tests.fixtures.kb import make_kb

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
TIMEOUT = 60

THINKING = "用户问违约金。证据[1]第六条写明违约金为合同总额的10%。"
ANSWER_ZH = "根据合同，违约金为合同总额的10%。[1]"
ANSWER_EN = "The monthly fee is USD 12,500 [1]."


def responder(request: dict[str, Any]) -> Reply:
    """Answers in the question's language, with reasoning; cites passage [1]."""
    text = " ".join(str(m.get("content", "")) for m in request.get("messages", []))
    if "违约金" in text or "租金" in text or "押金" in text:
        return Reply(content=ANSWER_ZH, reasoning_content=THINKING)
    return Reply(content=ANSWER_EN, reasoning_content="Look at Section 2.")


def fake_settings(base_url: str) -> Settings:
    s = Settings()
    s.models.provider = "openai"
    s.models.base_url = base_url
    s.models.answer_model = "fake"
    s.models.timeout_s = 20
    s.models.retries = 0
    return s


@pytest.fixture(scope="session")
def fake_llm() -> Iterator[FakeOpenAI]:
    with FakeOpenAI(responder=responder) as srv:
        yield srv


@pytest.fixture(scope="session")
def contract_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("docs")
    return {
        "zh": make_docs.write_zh_contract_pdf(d),
        "en": make_docs.write_en_contract_pdf(d),
        "fake": make_docs.write_fake_pdf(d),
        "docx": make_docs.write_docx(d),
    }


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fake_llm: FakeOpenAI) -> Path:
    """An empty data directory in force for the app, with the fake answer model configured."""
    path = tmp_path / "lexgate-data"
    monkeypatch.setenv("LEXGATE_HOME", str(path))
    open_store(path).prefs.save_settings(fake_settings(fake_llm.base_url))
    return path


@pytest.fixture(scope="module")
def seeded_home(
    tmp_path_factory: pytest.TempPathFactory, fake_llm: FakeOpenAI, contract_files: dict[str, Path]
) -> Iterator[Path]:
    """A data directory with a knowledge base holding the Chinese lease and the English MSA."""
    path = tmp_path_factory.mktemp("seeded") / "lexgate-data"
    with seeded(path, fake_llm.base_url, "合同库", [contract_files["zh"], contract_files["en"]]):
        yield path


@contextmanager
def seeded(path: Path, base_url: str, kb_name: str, files: list[Path]) -> Iterator[None]:
    """``path`` as the app's data directory: the fake LLM at ``base_url`` configured and one
    knowledge base ``kb_name`` holding ``files``."""
    store = open_store(path)
    settings = fake_settings(base_url)
    store.prefs.save_settings(settings)
    make_kb(store, settings, kb_name, files)
    with lexgate_home(path):
        yield


def open_page(page: str | None = None, lang: str = "zh") -> AppTest:
    """The app, run once, then switched to ``app_pages/<page>.py`` and run again."""
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.session_state["lang"] = lang
    at.run()
    assert not at.exception, at.exception
    if page:
        at.switch_page(f"app_pages/{page}.py")
        at.run()
        assert not at.exception, at.exception
    return at


@pytest.fixture
def app() -> Callable[..., AppTest]:
    return open_page


def texts(at: AppTest) -> str:
    """Every text the page shows (markdown, captions, alerts, labels), joined, for assertions."""
    parts: list[str] = []
    for kind in ("markdown", "caption", "success", "error", "warning", "info", "title", "subheader", "code"):
        parts += [str(e.value) for e in getattr(at, kind)]
    parts += [str(e.label) for e in at.expander]
    return "\n".join(parts)


def unescape(text: str) -> str:
    """Markdown-escaped text back to plain text (the app escapes every untrusted string and breaks
    bare links with an invisible word joiner)."""
    import re

    from rag_core.export import WORD_JOINER

    return re.sub(r"\\(.)", r"\1", text).replace(WORD_JOINER, "")


@contextmanager
def lexgate_home(path: Path) -> Iterator[None]:
    """Point the app at ``path`` for a module-scoped fixture (``monkeypatch`` is function-scoped)."""
    old = os.environ.get("LEXGATE_HOME")
    os.environ["LEXGATE_HOME"] = str(path)
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("LEXGATE_HOME", None)
        else:
            os.environ["LEXGATE_HOME"] = old
