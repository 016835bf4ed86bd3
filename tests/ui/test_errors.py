"""Library errors in the interface language (ui/errors.py): every error code the library uses has a
Chinese and an English template, and real errors — bad files, a failing endpoint, missing models,
invalid settings — render in Chinese with their parameters (file name, model, URL, limits)."""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from pydantic import ValidationError

from rag_core.errors import IngestError, LexgateError, LLMError
from rag_core.ingest.pipeline import prepare
from rag_core.ingest.validate import BINARY_MAGICS
from rag_core.llm.base import CancellableModel, CancelToken, ChatOptions, Message
from rag_core.llm.factory import unavailable_error, why_unavailable
from rag_core.llm.local_llama import GgufSpec, part_paths
from rag_core.llm.openai_client import OpenAIChatModel
from rag_core.settings import ModelSettings, Settings
from rag_core.trace import Trace
from tests.fakeopenai import FakeOpenAI, Reply, fake_openai
from tests.fixtures import make_docs
from tests.ui.conftest import ROOT, unescape
from ui.errors import ERR_PREFIX, KIND_PREFIX, coded_text, error_text, stored_error_text, validation_text
from ui.i18n import EN, ZH

__all__ = ["fake_openai"]

CODE_RE = re.compile(r"""\bcode\s*=\s*["']([a-z0-9_]+)["']""")
CJK = re.compile(r"[\u4e00-\u9fff]")
MSGS = [Message("user", "违约金是多少？")]


def library_codes() -> dict[str, str]:
    """Every error code written in rag_core/ and storage/ (as ``code="..."``) → a file that uses it."""
    found: dict[str, str] = {}
    for folder in ("rag_core", "storage"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for code in CODE_RE.findall(path.read_text(encoding="utf-8")):
                found.setdefault(code, str(path.relative_to(ROOT)))
    return found


def zh(err: LexgateError) -> str:
    return unescape(error_text(err, language="zh"))


def assert_chinese(err: LexgateError, *fragments: str) -> str:
    """``err`` is coded, renders in Chinese from its template (not the English fallback) and shows
    every fragment; the rendered text is returned."""
    assert err.code, err.message
    text = zh(err)
    assert CJK.search(text) and err.what not in text, text
    for fragment in fragments:
        assert fragment in text, (fragment, text)
    return text


# ---------------------------------------------------------------- every code has a translation
def test_every_library_code_has_chinese_and_english() -> None:
    codes = library_codes()
    assert len(codes) >= 50, sorted(codes)  # the scan itself works
    missing = sorted(f"{code} ({where})" for code, where in codes.items() if ERR_PREFIX + code not in ZH)
    assert not missing, f"add err_<code> to ZH and EN in ui/i18n.py: {missing}"
    assert all(ERR_PREFIX + code in EN for code in codes)


def test_every_detected_file_kind_is_named() -> None:
    for kind, _english in BINARY_MAGICS.values():
        assert KIND_PREFIX + kind in ZH and KIND_PREFIX + kind in EN, kind


# ---------------------------------------------------------------- bad files
BAD_FILES: list[tuple[Callable[[Path], Path], str, tuple[str, ...], bool]] = [
    # writer, code, Chinese fragments, English template gives exactly the library's message
    (make_docs.write_empty, "ingest_empty", ("文件为空",), True),
    (make_docs.write_unsupported, "ingest_unsupported_type", ("不支持 .xyz 格式", ".docx"), True),
    (make_docs.write_fake_pdf, "ingest_not_pdf", ("内容不是 PDF",), True),
    (make_docs.write_truncated_pdf, "ingest_pdf_incomplete", ("PDF 不完整",), True),
    (make_docs.write_garbage_pdf, "ingest_pdf_damaged", ("PDF 已损坏",), False),
    (make_docs.write_corrupted_docx, "ingest_docx_damaged", ("Word 文档已损坏",), False),
    (make_docs.write_truncated_docx, "ingest_docx_damaged", ("Word 文档已损坏",), False),
    (make_docs.write_doc_as_docx, "ingest_doc_renamed", ("旧版 Word",), True),
    (make_docs.write_encrypted_pdf, "ingest_pdf_encrypted", ("PDF 已加密", "移除密码"), True),
    (make_docs.write_scanned_pdf, "ingest_pdf_scanned", ("扫描版 PDF", "OCR"), True),
    (make_docs.write_docx_bomb, "ingest_docx_ratio", ("压缩炸弹", "200 倍"), True),
    (make_docs.write_undecodable_txt, "ingest_undecodable", ("无法识别文本编码", "UTF-8"), True),
    (make_docs.write_pdf_as_txt, "ingest_text_disguised", ("扩展名是 .txt", "实际是PDF 文件"), True),
    (
        make_docs.write_oversized_txt,
        "ingest_too_large",
        ("0.2 MB", "超过 0.1 MB 的上限", "max_file_mb"),
        True,
    ),
]


@pytest.mark.parametrize(("writer", "code", "fragments", "same_english"), BAD_FILES)
def test_bad_file_errors_render_in_chinese_with_the_file_name(
    tmp_path: Path,
    writer: Callable[[Path], Path],
    code: str,
    fragments: tuple[str, ...],
    same_english: bool,
) -> None:
    path = writer(tmp_path)
    settings = Settings()
    settings.ingest.max_file_mb = 0.1
    with pytest.raises(IngestError) as caught:
        prepare(path.read_bytes(), path.name, settings)
    err = caught.value
    assert err.code == code and err.params["file"] == path.name
    text = assert_chinese(err, *fragments)
    assert text.startswith(f"{path.name}：")
    assert path.name not in unescape(error_text(err, with_file=False, language="zh"))
    english = unescape(error_text(err, language="en"))
    assert english.startswith(f"{path.name}: ")
    if same_english:  # the English template says what the library says (the CLI's words)
        assert english == err.message


PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64


def _zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("name", "data", "code", "fragments"),
    [
        ("旧合同.doc", b"x", "ingest_old_doc", ("不支持 .doc 格式", "另存为 .docx")),
        ("合同.rtf", b"x", "ingest_office_type", ("不支持 .rtf 格式",)),
        ("合同", b"x", "ingest_no_extension", ("没有扩展名",)),
        ("扫描件.pdf", PNG, "ingest_pdf_disguised", ("扩展名是 .pdf", "实际是PNG 图片")),
        ("合同.docx", PNG, "ingest_docx_disguised", ("扩展名是 .docx", "实际是PNG 图片")),
        ("合同.docx", b"plain text", "ingest_not_docx", ("不是 Word 文档",)),
        ("合同.docx", _zip({"a.txt": b"x"}), "ingest_zip_not_docx", ("ZIP 压缩包", "word/document.xml")),
        (
            "大合同.docx",
            _zip({"word/document.xml": b"<w/>" * 300_000}),
            "ingest_docx_unpacked_too_large",
            ("解压后为 1.2 MB", "超过 1 MB 的上限"),
        ),
        ("合同.txt", "条款".encode("utf-16"), "ingest_utf16", ("UTF-16",)),
        ("合同.md", b"# a\x00b", "ingest_binary_text", ("NUL 字节",)),
        ("空白.txt", b" \n\n \n", "ingest_no_text", ("没有可索引的文字",)),
    ],
)
def test_more_bad_files_render_in_chinese(
    name: str, data: bytes, code: str, fragments: tuple[str, ...]
) -> None:
    settings = Settings()
    settings.ingest.max_docx_unpacked_mb = 1
    with pytest.raises(IngestError) as caught:
        prepare(data, name, settings)
    assert caught.value.code == code
    assert assert_chinese(caught.value, *fragments).startswith(f"{name}：")


def test_file_names_are_escaped_in_the_rendered_error() -> None:
    name = "[click](http://evil.example)*x*.xyz"
    with pytest.raises(IngestError) as caught:
        prepare(b"text", name, Settings())
    rendered = error_text(caught.value, language="zh")
    assert "](" not in rendered.replace("\\](", "") and "\\*x\\*" in rendered
    assert unescape(rendered).startswith(name + "：不支持 .xyz 格式")


def test_unknown_code_or_none_shows_the_english_message() -> None:
    err = LexgateError("something odd", "try again", subject="a.pdf")
    assert unescape(error_text(err, language="zh")) == "a.pdf: something odd — try again"
    assert unescape(coded_text("no_such_code", {"file": "a.pdf"}, "fallback", language="zh")) == "fallback"


# ---------------------------------------------------------------- endpoint errors
def _client(srv: FakeOpenAI, **settings: object) -> OpenAIChatModel:
    values: dict[str, object] = {"timeout_s": 5.0, "retries": 0, "backoff_s": 0.01, **settings}
    return OpenAIChatModel(
        srv.base_url, "sk-test", "fake-chat", ModelSettings.model_validate(values), "answer"
    )


@pytest.mark.parametrize(
    ("replies", "settings", "code", "fragments"),
    [
        (
            [Reply.error(403, "no access for this key")],
            {},
            "llm_forbidden",
            ("HTTP 403", "「fake-chat」", "拒绝访问"),
        ),
        (
            [Reply.error(404, "model does not exist")],
            {},
            "llm_not_found",
            ("HTTP 404", "model does not exist"),
        ),
        ([Reply.error(429, "slow down")], {}, "llm_rate_limited", ("HTTP 429", "共尝试 1 次", "稍候")),
        (
            [Reply.error(500, "model crashed")] * 2,
            {"retries": 1},
            "llm_server_error",
            ("HTTP 500", "共尝试 2 次", "model crashed"),
        ),
        ([Reply.error(400, "bad field")], {}, "llm_refused", ("HTTP 400", "bad field", "「fake-chat」")),
        (
            [Reply(content="late", delay_s=2.0)],
            {"timeout_s": 0.3},
            "llm_timeout",
            ("0.3 秒", "「fake-chat」"),
        ),
    ],
)
def test_endpoint_errors_render_in_chinese(
    fake_openai: FakeOpenAI,
    replies: list[Reply],
    settings: dict[str, object],
    code: str,
    fragments: tuple[str, ...],
) -> None:
    fake_openai.script(*replies)
    with pytest.raises(LLMError) as caught:
        _client(fake_openai, **settings).chat(MSGS)
    assert caught.value.code == code
    assert_chinese(caught.value, *fragments)


def test_rejected_key_and_unreadable_json_render_in_chinese(fake_openai: FakeOpenAI) -> None:
    fake_openai.api_key = "the-right-key"
    with pytest.raises(LLMError) as caught:
        _client(fake_openai).chat(MSGS)
    assert_chinese(caught.value, "HTTP 401", "API 密钥", fake_openai.base_url)
    fake_openai.api_key = None
    fake_openai.script(Reply(content="sorry, no JSON here"))
    with pytest.raises(LLMError) as caught:
        _client(fake_openai).chat_json(MSGS, ChatOptions(json_mode=True))
    assert_chinese(caught.value, "「fake-chat」", "JSON")


def test_unreachable_endpoint_renders_in_chinese_and_survives_a_stored_trace() -> None:
    srv = FakeOpenAI().start()
    url = srv.base_url
    srv.stop()  # nothing listens on that port any more
    model = OpenAIChatModel(url, "k", "m", ModelSettings(retries=1, backoff_s=0.01, timeout_s=2), "answer")
    with pytest.raises(LLMError) as caught:
        model.chat(MSGS)
    text = assert_chinese(caught.value, "无法连接", url, "共尝试 2 次")
    err = caught.value
    failed = Trace.failed("q", err.message, err.code, err.params)  # as the chat page stores a failed turn
    stored = Trace.from_json(json.loads(json.dumps(failed.to_json())))
    assert stored.error and stored.error.message == err.message
    assert unescape(stored_error_text(stored.error, language="zh")) == text
    old = Trace.from_json({"error": "old English text"})  # a version-1 trace with no code
    assert old.error and unescape(stored_error_text(old.error, language="zh")) == "old English text"


def test_missing_settings_and_models_render_in_chinese() -> None:
    s = Settings()
    s.models.provider = "openai"
    err = unavailable_error(s, "answer")
    assert err is not None and why_unavailable(s) == err.what
    assert_chinese(err, "基础地址")
    s.models.base_url = "http://127.0.0.1:9/v1"
    no_model = unavailable_error(s, "judge")
    assert no_model is not None
    assert_chinese(no_model, "模型名称")
    with pytest.raises(LexgateError) as caught:
        OpenAIChatModel("", "k", "m", ModelSettings(), "answer")
    assert_chinese(caught.value, "基础地址")
    with pytest.raises(LexgateError) as caught:
        OpenAIChatModel("http://127.0.0.1:9/v1", "k", " ", ModelSettings(), "answer")
    assert_chinese(caught.value, "模型名称")
    absent = GgufSpec(
        "0.5b", "x.gguf", "lexgate_no_such_part_", "lexgate-no-such-part-", "9.9.9", 1, 1, "0" * 64
    )
    with pytest.raises(LexgateError) as caught:
        part_paths(absent)
    assert_chinese(caught.value, "pip install lexgate-no-such-part-1==9.9.9", "未安装")


def test_cancelled_call_renders_in_chinese(fake_openai: FakeOpenAI) -> None:
    token = CancelToken()
    token.cancel()
    with pytest.raises(LLMError) as caught:
        CancellableModel(_client(fake_openai), token).chat(MSGS)
    assert zh(caught.value) == "已取消。"


# ---------------------------------------------------------------- settings validation
def test_settings_validation_renders_in_chinese() -> None:
    data = Settings().model_dump()
    data["verdict"]["t_injection"] = 1.5
    data["ingest"]["max_file_mb"] = 0
    data["retrieval"]["mode"] = "nope"
    with pytest.raises(ValidationError) as caught:
        Settings.model_validate(data)
    shown = {
        ".".join(map(str, e["loc"])): unescape(validation_text(e, language="zh"))
        for e in caught.value.errors()
    }
    assert shown["verdict.t_injection"] == "verdict.t_injection：应小于或等于 1（输入值 1.5）"
    assert shown["ingest.max_file_mb"] == "ingest.max_file_mb：应大于 0（输入值 0）"
    assert shown["retrieval.mode"].startswith("retrieval.mode：应为以下之一：")
    english = [unescape(validation_text(e, language="en")) for e in caught.value.errors()]
    assert "verdict.t_injection: Input should be less than or equal to 1 (got 1.5)" in english
