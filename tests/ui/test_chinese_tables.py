"""The tables the Chinese interface shows (the browser test cannot read them: the grid draws on a
canvas) hold no English the app wrote: verdict reasons, document notes and status, support
labels, methods and notes. Document and answer text in other columns is the lawyer's own."""

from __future__ import annotations

import re
from pathlib import Path

from tests.ui.conftest import open_page

LATIN_WORD = re.compile(r"(?<![\w.])[A-Za-z][A-Za-z_]+(?![\w])")
ALLOWED = {"INJECTION", "CONFLICTING", "IRRELEVANT", "EVIDENCE", "NO_EVIDENCE", "pypdf", "pypdfium2", "LLM"}
APP_COLUMNS = {"理由", "备注", "状态", "语言", "支持度", "方法", "说明", "页码/章节"}
"""Columns whose cells the app writes (the others show document or answer text)."""


def _english_in_app_columns(at) -> dict[str, set[str]]:  # type: ignore[no-untyped-def]
    found: dict[str, set[str]] = {}
    for frame in at.dataframe:
        table = frame.value
        for column in set(table.columns) & APP_COLUMNS:
            for cell in table[column]:
                words = set(LATIN_WORD.findall(str(cell))) - ALLOWED
                if words:
                    found.setdefault(column, set()).update(words)
    return found


def test_app_written_cells_are_chinese(seeded_home: Path) -> None:
    chat = open_page("chat")
    chat.chat_input[0].set_value("违约金是多少？").run()
    assert not chat.exception, chat.exception
    assert len(chat.dataframe) >= 1 and "理由" in chat.dataframe[0].value.columns
    assert not _english_in_app_columns(chat)

    for page in ("documents", "inspector", "feedback"):
        at = open_page(page)
        assert not _english_in_app_columns(at), page
    docs = open_page("documents").dataframe[0].value
    assert set(docs["语言"]) <= {"中文", "英文", "中英混合"}
    inspector = open_page("inspector")
    support = [f.value for f in inspector.dataframe if "支持度" in f.value.columns]
    assert support and set(support[0]["支持度"]) <= {"完全支持", "部分支持", "无支持"}
