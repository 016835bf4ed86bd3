"""The app in a real browser: `streamlit run app.py` as a subprocess over a fresh data directory,
Debian's chromium driven by Playwright. Upload a contract, ask, watch the evidence panel appear
while the answer streams, open a citation, inspect the turn, move a threshold, leave feedback.

Answers come from the local fake OpenAI server (pre-saved in the store's settings), so the test is
fast and deterministic. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from storage.store import open_store
from tests.e2e.appserver import CHROMIUM, STEP_TIMEOUT_MS, app_server, browser_page
from tests.e2e.appserver import goto as _goto
from tests.e2e.appserver import idle as _idle
from tests.e2e.appserver import shot as _shot
from tests.fakeopenai import FakeOpenAI, Reply
from tests.fixtures import make_docs
from tests.ui.conftest import THINKING, fake_settings

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="/usr/bin/chromium is not installed (apt install chromium)"
)

ANSWER = "根据合同，违约金为合同总额的10%。[1] 另外，逾期支付租金超过15日的，甲方有权解除合同。[1]"


def _responder(request: dict[str, Any]) -> Reply:
    # Slow enough that the evidence panel is visible while the answer is still streaming; a question
    # about the deposit streams very slowly so the stop button can be pressed mid-answer.
    last = request.get("messages", [{}])[-1].get("content", "")
    slow = str(last).rstrip().endswith("押金是多少？")
    return Reply(
        content=ANSWER, reasoning_content=THINKING, chunk_chars=2, chunk_delay_s=0.5 if slow else 0.06
    )


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    home = tmp_path_factory.mktemp("e2e") / "lexgate-data"
    docs = tmp_path_factory.mktemp("e2e-docs")
    with FakeOpenAI(responder=_responder) as fake:
        open_store(home).prefs.save_settings(fake_settings(fake.base_url))
        with app_server(home, tmp_path_factory.mktemp("e2e-log")) as url:
            yield {
                "url": url,
                "home": home,
                "zh": make_docs.write_zh_contract_pdf(docs),
                "bad": make_docs.write_fake_pdf(docs),
                "fake": fake,
            }


@pytest.fixture(scope="module")
def page(server: dict[str, Any]) -> Iterator[Any]:
    with browser_page() as pg:
        yield pg


def test_lawyer_flow(page: Any, server: dict[str, Any]) -> None:
    pg, url = page, server["url"]
    t0 = time.monotonic()

    def lap(what: str) -> None:
        print(f"{time.monotonic() - t0:6.1f} s  {what}")

    store = open_store(server["home"])

    # Documents: create a knowledge base, upload a contract and a broken file together.
    _goto(pg, f"{url}/documents")
    pg.get_by_label("知识库名称").fill("租赁合同")
    pg.get_by_role("button", name="创建").click()
    pg.get_by_text("已创建知识库「租赁合同」").wait_for()
    pg.locator("[data-testid=stFileUploaderDropzoneInput]").set_input_files(
        [str(server["zh"]), str(server["bad"])]
    )
    pg.get_by_role("button", name="导入 2 个文件").click()
    pg.get_by_text("zh_lease.pdf：已导入，3 页").wait_for()
    pg.get_by_text("not_really.pdf：未导入").wait_for()
    _idle(pg)
    _shot(pg, "01_documents")
    assert [d.file_name for d in store.docs.all(store.kbs.all()[0])] == ["zh_lease.pdf"]

    lap("documents")
    # Chat: deep thinking on; the evidence panel shows before the answer has finished streaming.
    _goto(pg, f"{url}/chat")
    pg.get_by_text("深度思考").click()
    _idle(pg)
    pg.get_by_placeholder("就合同提问").fill("违约金是多少？")
    pg.keyboard.press("Enter")
    pg.get_by_text("证据面板").first.wait_for()
    pg.get_by_text("正在思考…").first.wait_for()
    _shot(pg, "02_chat_streaming")
    assert not pg.get_by_text("复制与导出").is_visible()  # the answer is still being written
    pg.get_by_text("复制与导出").wait_for()
    _idle(pg)
    assert pg.get_by_text("根据合同，违约金为合同总额的10%").first.is_visible()
    assert pg.get_by_text("EVIDENCE").first.is_visible() or pg.locator("canvas").first.is_visible()

    lap("chat answered")
    # A citation opens the passage, its highlighted span and the marked PDF page.
    pg.get_by_text("[1] zh_lease.pdf").first.click()
    img = pg.locator("[data-testid=stExpanderDetails] [data-testid=stImage] img").first
    img.wait_for()
    assert img.evaluate("e => e.naturalWidth") > 500
    src = img.get_attribute("src", timeout=5000) or ""
    assert src.startswith(f"{url}/media/") or src.startswith("/media/")  # served locally, no remote host
    pg.wait_for_timeout(1200)  # let the expander finish opening
    img.scroll_into_view_if_needed()
    _shot(pg, "03_chat_citation")

    lap("citation")
    # Feedback on the answer.
    pg.get_by_text("反馈", exact=True).last.click()
    form = pg.locator("[data-testid=stForm]").filter(has_text="提交反馈").last
    form.get_by_text("2", exact=True).click()
    form.get_by_text("否", exact=True).click()
    form.get_by_label("正确答案（可选）").fill("违约金为合同总额的20%")
    form.get_by_role("button", name="提交反馈").click()
    pg.get_by_text("已收到反馈，谢谢。").wait_for()
    fb = store.feedback.all()
    assert len(fb) == 1 and fb[0].rating == 2 and fb[0].diagnosis

    lap("feedback")
    # Stop mid-answer: the partial answer is kept and marked as stopped. The feedback run must have
    # finished first: Streamlit's chat input drops its stop button when a run that was already going at
    # submit time ends, even while the submitted run still streams.
    _idle(pg)
    pg.get_by_placeholder("就合同提问").fill("押金是多少？")
    pg.keyboard.press("Enter")
    pg.get_by_text("判断完成，正在生成回答…").wait_for()
    pg.get_by_text("正在思考…").last.wait_for()  # the answer model is streaming its reasoning
    pg.locator("[data-testid=stChatInputStopButton]").click()  # the send button is a stop button now
    conv = store.conversations.all("违约金是多少")[0]
    deadline = time.monotonic() + 30
    while len(store.conversations.messages(conv.id)) < 4 and time.monotonic() < deadline:
        pg.wait_for_timeout(200)
    stopped = store.conversations.messages(conv.id)[-1]
    assert stopped.trace.get("stopped") and len(stopped.content) < len(ANSWER)
    assert stopped.thinking and THINKING.startswith(stopped.thinking)  # the partial reasoning is kept
    pg.get_by_role("button", name="违约金是多少？").click()  # the next run shows the turn as stopped
    pg.get_by_text("已停止：回答未完成").first.wait_for()

    lap("stop")
    # Inspector: the turn's query, verdicts with thresholds, the exact prompt.
    _goto(pg, f"{url}/inspector")
    pg.get_by_text("实际检索语句").wait_for()
    pg.get_by_label("回答", exact=True).first.click()  # the latest turn is the stopped one: pick the first
    pg.get_by_role("option", name="1. 违约金是多少？").click()
    _idle(pg)
    pg.get_by_role("tab", name="判断").click()
    pg.get_by_text("证据阈值").first.wait_for()
    _shot(pg, "04_inspector_verdicts")
    pg.get_by_role("tab", name="提示词").click()
    pg.get_by_text("违约金是多少", exact=False).first.wait_for()

    lap("inspector")
    # Admin threshold lab: judge once, raise the evidence threshold, labels change; save it.
    _goto(pg, f"{url}/admin")
    pg.get_by_role("tab", name="阈值实验室").click()
    _idle(pg)  # choosing a tab reruns the page; text typed during that rerun is lost
    question = pg.get_by_label("问题", exact=True)
    question.fill("违约金是多少？")
    question.press("Tab")  # commit the text; in a form, Enter would submit it and the click submit it again
    pg.get_by_role("button", name="检索并判断").click()
    pg.get_by_text("段标签发生变化").wait_for()
    _idle(pg)
    assert pg.get_by_text("0 段标签发生变化").is_visible()
    slider = pg.locator("[data-testid=stSlider]").filter(has_text="证据阈值").get_by_role("slider")
    slider.focus()
    pg.keyboard.press("End")
    _idle(pg)
    pg.wait_for_function(
        "() => /[1-9]\\d* 段标签发生变化/.test(document.body.innerText)", timeout=STEP_TIMEOUT_MS
    )
    _shot(pg, "05_admin_threshold_lab")
    pg.get_by_role("button", name="保存这组阈值").click()
    pg.get_by_text("阈值已保存。").wait_for()
    assert store.prefs.load_settings().verdict.t_evidence == 1.0

    lap("threshold lab")
    # Feedback page: the low-rated answer with its diagnosis.
    _goto(pg, f"{url}/feedback")
    pg.get_by_text("失败环节").wait_for()
    _shot(pg, "06_feedback")

    lap("feedback page")
    # English interface.
    pg.get_by_text("English", exact=True).click()
    pg.get_by_text("Low-rated answers and diagnosis").wait_for()
    pg.locator("[data-testid=stSidebarNav]").get_by_text("Chat", exact=True).click()  # same session
    pg.get_by_role("button", name="违约金是多少？").click()
    pg.get_by_text("Evidence panel", exact=True).first.wait_for()
    _idle(pg)
    _shot(pg, "07_chat_english")
