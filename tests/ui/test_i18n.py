"""Strings: both languages hold the same keys, every key the app uses exists, the app renders in
English when switched, and no page passes anything through ``unsafe_allow_html``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rag_core.evaluation.comparison import METRICS
from rag_core.feedback import STAGES
from rag_core.models import LABELS
from tests.ui.conftest import ROOT, open_page, texts
from ui.i18n import EN, FIELD_HELP_ZH, ZH

SOURCES = [ROOT / "app.py", *sorted((ROOT / "app_pages").glob("*.py")), *sorted((ROOT / "ui").glob("*.py"))]


def _placeholders(template: str) -> set[str]:
    """A template's parameters; one given in both languages (``topic_zh``/``topic_en``) counts once,
    as each language's template names it in its own language only."""
    return {re.sub(r"_(?:zh|en)$", "_<lang>", name) for name in re.findall(r"{(\w+)", template)}


def test_same_keys_in_both_languages() -> None:
    assert set(ZH) == set(EN)
    for key in ZH:
        assert _placeholders(ZH[key]) == _placeholders(EN[key]), key


def test_every_used_key_exists() -> None:
    used: set[str] = set()
    for path in SOURCES:
        used |= set(re.findall(r"""\bt\(\s*["']([a-zA-Z0-9_]+)["']""", path.read_text(encoding="utf-8")))
    assert used, "no t() calls found"
    prefixes = {k for k in used if k.endswith("_")}  # t("stage_" + stage): checked below
    missing = sorted(used - prefixes - set(ZH))
    assert not missing, missing
    for prefix, names in {
        "label_": LABELS,
        "stage_": ("waiting", "extract", "chunk", "embed", "index", "done", "failed", "duplicate"),
        "diag_": STAGES,
        "thr_": ("t_injection", "t_conflict", "t_relevance", "t_evidence"),
        "group_": (
            "retrieval",
            "verdict",
            "generation",
            "reflection",
            "models",
            "ingest",
            "chunking",
            "embedding",
        ),
        "lab_source_": ("question", "turn"),
        "preview_kind_": ("indexed", "parent"),
        "status_": ("indexed", "embedding"),
        "doc_lang_": ("zh", "en", "mixed"),
        "ev_m_": METRICS,
        "ev_h_": METRICS,
    }.items():
        for name in names:
            assert prefix + name in ZH, prefix + name


def test_every_setting_has_a_chinese_description() -> None:
    from rag_core.settings import Settings

    fields = {f"{g}.{n}" for g, m in Settings.model_fields.items() for n in m.annotation.model_fields}  # type: ignore[union-attr]
    assert fields == set(FIELD_HELP_ZH)


def test_no_raw_html() -> None:
    """Only ui/style.py hands markup to Streamlit, and only a style sheet built from its own rules
    and i18n templates (see its docstring)."""
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        assert "unsafe_allow_html=" not in text, path
        if path.name == "style.py":
            assert text.count("st.html(") == 1 and 'st.html(f"<style>{uploader_css(' in text
        else:
            assert "st.html(" not in text, path


def test_uploader_style_sheet_cannot_be_broken_out_of() -> None:
    from ui.style import css_string

    assert css_string('a"b') == '"a\\22 b"'
    hostile = css_string('"}</style><script>alert(1)</script>')
    assert "<" not in hostile and ">" not in hostile and hostile.count('"') == 2


@pytest.mark.parametrize("page", [None, "documents", "chat", "inspector", "admin", "feedback"])
def test_pages_render_in_english(home: Path, page: str | None) -> None:
    at = open_page(page, lang="en")
    shown = texts(at)
    assert not at.exception
    heads = [e.value for e in at.title] + [e.value for e in at.subheader]
    assert heads and not re.search(r"[\u4e00-\u9fff]", "\n".join(heads)), shown
    zh = open_page(page, lang="zh")
    assert re.search(
        r"[\u4e00-\u9fff]", "\n".join([e.value for e in zh.title] + [e.value for e in zh.subheader])
    )


def test_language_switch_in_sidebar(home: Path) -> None:
    at = open_page(None)
    assert at.title[0].value == "Lexgate 合同知识库"
    radio = at.sidebar.radio[0]
    assert radio.options == ["中文", "English"] and radio.value == "zh"
    radio.set_value("en").run()
    assert at.title[0].value == "Lexgate contract knowledge base"
    at.switch_page("app_pages/documents.py").run()
    assert at.title[0].value == "Documents and knowledge bases"


def test_every_setting_has_a_name_and_unit_in_both_languages() -> None:
    """The Admin page labels settings by name in the interface language, never by field name."""
    from rag_core.settings import Settings
    from ui.i18n import FIELD_LABELS, UNIT_NAMES

    fields = {
        f"{g}.{n}": f for g, m in Settings.model_fields.items() for n, f in m.annotation.model_fields.items()
    }  # type: ignore[union-attr]
    units = {str((f.json_schema_extra or {}).get("unit", "")) for f in fields.values()} - {""}  # type: ignore[union-attr]
    for language in ("zh", "en"):
        assert set(FIELD_LABELS[language]) == set(fields), language
        assert units <= set(UNIT_NAMES[language]), sorted(units - set(UNIT_NAMES[language]))


def test_every_code_the_library_writes_has_a_template_in_both_languages() -> None:
    """``coded("<code>", ...)`` anywhere in rag_core: its ``why_``/``note_`` template exists in
    Chinese and English (codes built from a prefix, like ``"con_" + side``, are checked by the
    tests of their module)."""
    codes: set[str] = set()
    for path in (ROOT / "rag_core").rglob("*.py"):
        codes |= set(re.findall(r'coded\(\s*"([a-z0-9_]+)"', path.read_text(encoding="utf-8")))
    codes = {c for c in codes if not c.endswith("_")}
    assert len(codes) > 30
    missing = sorted(
        c for c in codes if not ({f"why_{c}", f"note_{c}"} & set(ZH) and {f"why_{c}", f"note_{c}"} & set(EN))
    )
    assert not missing, missing
