"""Chat page round trip with the offline judge and the fake OpenAI answer model: thinking shown
apart, evidence panel with labels, citations, persistence with trace, multi-turn history,
conflict notice, refusal, export and feedback."""

from __future__ import annotations

from pathlib import Path

from rag_core.settings import Settings
from storage.store import open_store
from tests.fakeopenai import FakeOpenAI, Reply
from tests.ui.conftest import ANSWER_ZH, THINKING, open_page, texts, unescape


def _ask(at, question: str):  # type: ignore[no-untyped-def]
    at.chat_input[0].set_value(question).run()
    assert not at.exception, at.exception
    return at


def test_round_trip_with_thinking_evidence_citations_and_feedback(
    seeded_home: Path, fake_llm: FakeOpenAI
) -> None:
    store = open_store(seeded_home)
    at = open_page("chat")
    assert at.multiselect[0].value == [store.kbs.all()[0].id]
    at.toggle(key="chat_think").set_value(True).run()
    _ask(at, "违约金是多少？")

    # Persisted: the user message and the answer with its trace, verdicts, citations, usage.
    conv = store.conversations.all("违约金是多少")[0]
    assert conv.title == "违约金是多少？"
    msgs = store.conversations.messages(conv.id)
    assert [m.role for m in msgs] == ["user", "assistant"]
    answer = msgs[1]
    assert "10%" in answer.content and answer.thinking == THINKING
    assert answer.verdicts and answer.citations[0]["doc"] == "zh_lease.pdf"
    assert answer.trace["query"]["text"] == "违约金是多少？" and answer.trace["prompts"]
    assert answer.usage["total_tokens"] > 0 and answer.latency_ms > 0
    assert answer.usage["estimated"] is False  # the fake server reports usage by default
    assert answer.settings["models"]["answer_model"] == "fake"
    assert store.conversations.verdicts(answer.id)
    assert fake_llm.chat_requests()[-1].get("stream") is True

    # Shown: thinking apart from the answer, the evidence panel, the citation with its page.
    thinking = next(e for e in at.expander if e.label == "思考过程")
    assert THINKING in unescape("\n".join(str(m.value) for m in thinking.markdown))
    shown = unescape(texts(at))
    assert "证据面板" in shown and "违约金为合同总额的10%" in shown
    assert THINKING not in unescape(
        "\n".join(str(m.value) for m in at.chat_message[1].markdown if m not in thinking.markdown)
    )
    panel = at.dataframe[0].value
    labels = {lab for cell in panel["标签"] for lab in cell}
    assert "EVIDENCE" in labels and set(panel.columns) >= {"注入", "前提矛盾", "相关", "证据", "保留"}
    cite = next(e for e in at.expander if unescape(e.label).startswith("[1] zh_lease.pdf"))
    assert "第 3 页" in unescape(cite.label) and "第六条 违约金" in unescape(cite.label)
    assert any(":orange-background[" in str(m.value) for m in cite.markdown)
    assert len(cite.image) == 1  # the PDF page image with the passage marked
    assert {b.label for b in at.download_button} >= {"导出 Markdown", "导出 Word (DOCX)"}
    assert any(c.value == answer.content for c in at.code)  # copyable answer

    # Open one passage's details from the evidence panel.
    pick = next(s for s in at.selectbox if s.label == "查看某段的评分与理由")
    pick.set_value(0).run()
    bars = [p.text for p in at.progress]
    assert len(bars) == 4 and f"阈值 {Settings().verdict.t_injection:.2f}" in bars[0]
    injection = float(bars[0].split(":")[1].split("(")[0])
    assert injection < Settings().verdict.t_injection_sentence  # a clean clause: not even cut
    assert "\\[1\\] 保留" in texts(at) or "[1] 保留" in unescape(texts(at))

    # Feedback: rating 1 with a correct answer is stored with a diagnosis.
    mid = answer.id
    at.radio(key=f"fb_rating_{mid}").set_value(1)
    at.radio(key=f"fb_helpful_{mid}").set_value(False)
    at.text_area(key=f"fb_correct_{mid}").set_value("违约金为合同总额的20%")
    at.text_input(key=f"fb_comment_{mid}").set_value("数字不对")
    next(b for b in at.button if b.label == "提交反馈").click().run()
    fb = store.feedback.all()
    assert len(fb) == 1 and fb[0].rating == 1 and fb[0].message_id == mid
    assert fb[0].correct_answer == "违约金为合同总额的20%" and '"stage"' in fb[0].diagnosis
    assert "已收到反馈" in texts(at)

    # A follow-up turn sends the earlier turns as history.
    _ask(at, "押金呢？")
    last = fake_llm.chat_requests()[-1]
    assert "违约金是多少" in str(last["messages"])
    msgs = store.conversations.messages(conv.id)
    assert len(msgs) == 4 and "违约金是多少" in msgs[3].trace["query"]["joined"]

    # History survives a new session (restart): a fresh AppTest shows the stored turns.
    again = open_page("chat")
    again.session_state["chat_cid"] = conv.id
    again.run()
    assert len(again.chat_message) == 4
    # The stored turns count kept passages as the live panel did: the passages ticked as kept.
    counts = [sum(1 for v in m.verdicts if v["keep"]) for m in msgs if m.role == "assistant"]
    summaries = [str(c.value) for c in again.caption if "段交给回答模型" in str(c.value)]
    assert [s.split("保留 ")[1].split(" 段")[0] for s in summaries] == [str(n) for n in counts]
    assert "思考过程" in [e.label for e in again.expander]


def test_conflict_and_refusal(seeded_home: Path) -> None:
    store = open_store(seeded_home)
    at = open_page("chat")
    next(b for b in at.button if b.label == "新对话").click().run()
    _ask(at, "租金每月8000元，对吗？")
    shown = texts(at)
    assert "文档内容与您问题的前提相矛盾" in shown
    labels = {lab for cell in at.dataframe[0].value["标签"] for lab in cell}
    assert "CONFLICTING" in labels

    # Refusal: with an evidence threshold nothing can pass, the answer says what was searched.
    settings = store.prefs.load_settings()
    settings.verdict.t_evidence = 1.0
    store.prefs.save_settings(settings)
    try:
        at = open_page("chat")
        _ask(at, "乙方的开户银行是哪家？")
        shown = unescape(texts(at))
        assert "检索范围：合同库" in shown and "没有一段被判定为可用证据" in shown
        conv = store.conversations.all("开户银行")[0]
        assert store.conversations.messages(conv.id)[-1].refused
    finally:
        settings.verdict.t_evidence = 0.4
        store.prefs.save_settings(settings)


def test_conversation_rename_search_delete(seeded_home: Path) -> None:
    store = open_store(seeded_home)
    cid = store.conversations.create("测试对话", [store.kbs.all()[0].id])
    at = open_page("chat")
    at.sidebar.text_input[0].set_value("测试").run()
    titles = [b.label for b in at.sidebar.button]
    assert any("测试对话" in unescape(t) for t in titles) and not any("违约金" in t for t in titles)
    at.button(key=f"conv_{cid}").click().run()
    rename = next(w for w in at.sidebar.text_input if w.label == "标题")
    rename.set_value("改名后的对话")
    next(b for b in at.sidebar.button if b.label == "重命名").click().run()
    assert store.conversations.get(cid).title == "改名后的对话"
    at.button(key="conv_delete").click().run()
    at.button(key="conv_delete_ok").click().run()
    assert cid not in [c.id for c in store.conversations.all()]
    assert not at.exception


def test_usage_the_endpoint_did_not_report_is_shown_as_an_estimate(
    seeded_home: Path, fake_llm: FakeOpenAI
) -> None:
    store = open_store(seeded_home)
    fake_llm.script(Reply(content=ANSWER_ZH, send_usage=False))  # the answer stream carries no usage
    at = open_page("chat")
    next(b for b in at.button if b.label == "新对话").click().run()
    _ask(at, "违约金的比例是多少？")
    conv = store.conversations.all("违约金的比例")[0]
    usage = store.conversations.messages(conv.id)[1].usage
    assert usage["estimated"] is True and usage["total_tokens"] > 0
    assert any(f"≈{usage['total_tokens']} tokens（估算）" in c.value for c in at.caption)

    inspector = open_page("inspector")
    inspector.selectbox(key="inspect_conv").set_value(conv.id).run()
    tokens = next(m for m in inspector.metric if m.label == "Tokens")
    assert tokens.value == f"≈{usage['total_tokens']}（估算）"
    en = open_page("inspector", lang="en")
    en.selectbox(key="inspect_conv").set_value(conv.id).run()
    assert next(m for m in en.metric if m.label == "Tokens").value == f"≈{usage['total_tokens']} (estimated)"


def test_two_answers_quoting_the_same_sentence_both_render(seeded_home: Path, fake_llm: FakeOpenAI) -> None:
    """Seen in the app: the second answer quoting a sentence the first had quoted raised a
    duplicate-key error and the chat page stopped."""
    at = open_page("chat")
    _ask(at, "违约金是多少？")
    _ask(at, "违约金是多少？")
    quoted = [e for e in at.expander if e.label.startswith("引用")]
    assert len({e.key for e in quoted}) == len(quoted) >= 2


def test_with_no_answer_model_the_quoted_sentences_show_once(seeded_home: Path, fake_llm: FakeOpenAI) -> None:
    """Browser try-out: with no answer model the answer is the quoted evidence, and the same
    sentences were shown twice (the quoted box, then the answer)."""
    from tests.ui.conftest import fake_settings

    store = open_store(seeded_home)
    bare = fake_settings("")
    bare.models.base_url = ""  # no endpoint: no answer model for any role
    store.prefs.save_settings(bare)
    try:
        at = open_page("chat")
        next(b for b in at.button if b.label == "新对话").click().run()
        _ask(at, "违约金是多少？")
        shown = texts(at)
        assert "合同原文摘录（生成回答之前）" not in shown
        assert "合同原文摘录" in shown  # the answer itself is the quote
    finally:
        store.prefs.save_settings(fake_settings(fake_llm.base_url))


def test_a_quoted_chinese_sentence_wrapped_in_the_pdf_shows_without_a_space() -> None:
    """Session 39 browser try-out: the quoted box read "剩 余的预收物业服务费" where the PDF broke the line."""
    from ui.components import quoted_line

    line = quoted_line("乙方应在三十日内移交剩\n余的预收物业服务费。", 1, "wuye.pdf · 第十一条 交接")
    assert "移交剩余的预收物业服务费" in line and "剩 余" not in line and "[1" in line
