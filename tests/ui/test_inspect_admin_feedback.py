"""Inspect, Admin (generated settings form, validation, reset, model test, threshold lab) and
Feedback pages, over a data directory where one real turn was answered."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from rag_core.settings import Settings
from storage.rows import Feedback, Message
from storage.store import Store, open_store
from tests.fakeopenai import FakeOpenAI
from tests.ui.conftest import open_page, texts, unescape


@pytest.fixture(scope="module")
def answered(seeded_home: Path) -> dict[str, Any]:
    """One answered turn, asked through the Chat page."""
    at = open_page("chat")
    at.chat_input[0].set_value("违约金是多少？").run()
    assert not at.exception
    store = open_store(seeded_home)
    conv = store.conversations.all("违约金是多少")[0]
    return {"conv": conv, "answer": store.conversations.messages(conv.id)[1]}


# ---------------------------------------------------------------- inspect
def test_inspector_shows_the_whole_turn(answered: dict[str, Any]) -> None:
    at = open_page("inspector")
    shown = unescape(texts(at))
    assert "违约金是多少？" in shown
    assert any(c.value == "违约金是多少？" for c in at.code)  # the query actually searched
    assert [m.label for m in at.metric][:2] == ["总用时", "Tokens"]
    legs = at.dataframe[0].value
    assert {"bm25 #", "vector score", "融合排名"} <= set(legs.columns)
    verdicts = at.dataframe[1].value
    n = len(answered["answer"].verdicts)
    assert len(verdicts) == n and {"注入", "证据", "理由"} <= set(verdicts.columns)
    assert {m.label for m in at.metric} >= {"注入阈值", "证据阈值"}
    prompt = next(c.value for c in at.code if "违约金是多少" in c.value and len(c.value) > 200)
    assert "[1]" in prompt  # the exact prompt with numbered evidence
    assert {b.label for b in at.download_button} == {"导出 JSON"}

    # Filters: kept only, then one label only.
    at.segmented_control(key="inspect_kept").set_value("kept").run()
    kept = sum(1 for v in answered["answer"].verdicts if v["keep"])
    assert len(at.dataframe[1].value) == kept < n
    at.segmented_control(key="inspect_kept").set_value("all").run()
    at.multiselect(key="inspect_labels").set_value(["NO_EVIDENCE"]).run()
    no_ev = sum(1 for v in answered["answer"].verdicts if v["label"] == "NO_EVIDENCE")
    assert len(at.dataframe[1].value) == no_ev
    timings = at.dataframe[-1].value
    assert "retrieval" in set(timings[timings.columns[0]]) and "total" in set(timings[timings.columns[0]])
    assert not at.exception


def test_inspector_json_export_is_the_stored_message(answered: dict[str, Any]) -> None:
    from ui.components import download_json  # noqa: F401  (the page's export helper)

    msg = answered["answer"]
    data = json.loads(
        json.dumps({"question": "违约金是多少？", **asdict(msg)}, ensure_ascii=False, default=str)
    )
    assert data["trace"]["retrieval"]["fused"] and data["verdicts"][0]["scores"]


# ---------------------------------------------------------------- admin
def _field(at, group: str, name: str):  # type: ignore[no-untyped-def]
    key = f"set_{group}_{name}"
    for kind in ("number_input", "toggle", "selectbox", "text_input", "text_area"):
        for w in getattr(at, kind):
            if w.key == key:
                return w
    raise KeyError(key)


def test_admin_form_is_generated_validated_saved_and_reset(home: Path) -> None:
    store = open_store(home)
    before = store.prefs.load_settings()
    at = open_page("admin")
    # Every field of the settings model has a widget, with unit, range and default in its help.
    for group, model in Settings.model_fields.items():
        for name in model.annotation.model_fields:  # type: ignore[union-attr]
            _field(at, group, name)
    thr = _field(at, "verdict", "t_injection")
    assert (
        thr.label == "注入阈值 · 得分 0–1"
        and "verdict.t_injection" in thr.help
        and "0 … 1" in thr.help
        and f"默认: {Settings().verdict.t_injection}" in thr.help
    )
    assert _field(at, "models", "api_key").proto.type == 1  # password input

    # Out of range: a message, nothing saved.
    thr.set_value(1.5)
    at.button(key="settings_save").click().run()
    errors = [unescape(e.value) for e in at.error]
    assert "设置未保存：verdict.t_injection：应小于或等于 1（输入值 1.5）" in errors, errors
    assert store.prefs.load_settings() == before

    # In range: saved.
    _field(at, "verdict", "t_injection").set_value(0.75)
    _field(at, "retrieval", "mode").set_value("bm25")
    at.button(key="settings_save").click().run()
    saved = store.prefs.load_settings()
    assert saved.verdict.t_injection == 0.75 and saved.retrieval.mode == "bm25"
    assert saved.models.base_url == before.models.base_url
    assert "设置已保存" in texts(at)

    # Reset to defaults, with confirmation.
    at.button(key="settings_reset").click().run()
    at.button(key="settings_reset_ok").click().run()
    assert store.prefs.load_settings() == Settings()
    assert _field(at, "verdict", "t_injection").value == Settings().verdict.t_injection
    assert not at.exception


def test_admin_connection_test(home: Path, fake_llm: FakeOpenAI) -> None:
    at = open_page("admin")
    at.button(key="conn_test").click().run()
    assert any("fake" in s.value and "Connected" in unescape(s.value) for s in at.success)
    _field(at, "models", "base_url").set_value("http://127.0.0.1:9/v1")
    at.button(key="conn_test").click().run()
    assert at.error and "无法连接到模型接口 http://127.0.0.1:9/v1" in unescape(at.error[0].value)


def test_threshold_lab_relabels_without_new_judging(seeded_home: Path, answered: dict[str, Any]) -> None:
    store = open_store(seeded_home)
    at = open_page("admin")
    at.text_input(key="lab_q").set_value("违约金是多少？")
    next(b for b in at.button if b.label == "检索并判断").click().run()
    assert not at.exception, at.exception
    table = at.dataframe[0].value
    before = [c[0] for c in table["标签"]]
    assert "EVIDENCE" in before and len(table) >= 5
    assert "0 段标签发生变化" in texts(at)

    import rag_core.lab as lab

    calls: list[int] = []
    real = lab.make_lab_judge
    lab.make_lab_judge = lambda s: calls.append(1) or real(s)  # type: ignore[assignment]
    try:
        at.slider(key="lab_t_evidence").set_value(1.0).run()
    finally:
        lab.make_lab_judge = real  # type: ignore[assignment]
    assert calls == []  # moving a slider re-labels stored scores only
    after = [c[0] for c in at.dataframe[0].value["标签"]]
    old = [c[0] for c in at.dataframe[0].value["原标签"]]
    assert old == before and after != before and "EVIDENCE" not in after
    assert "NO_EVIDENCE" in after

    at.button(key="lab_save").click().run()
    assert store.prefs.load_settings().verdict.t_evidence == 1.0
    s = store.prefs.load_settings()
    s.verdict.t_evidence = 0.4
    store.prefs.save_settings(s)

    # A past turn's stored verdicts can be loaded instead.
    at.segmented_control(key="lab_source").set_value("turn").run()
    at.button(key="lab_load").click().run()
    assert len(at.dataframe[0].value) == len(answered["answer"].verdicts)


# ---------------------------------------------------------------- feedback
def _feedback(store: Store, answer: Message, rating: int, correct: str) -> None:
    store.feedback.add(
        Feedback(
            message_id=answer.id,
            conversation_id=answer.conversation_id,
            question="违约金是多少？",
            answer=answer.content,
            rating=rating,
            helpful=rating > 2,
            correct_answer=correct,
            comment="",
            trace_json=json.dumps(answer.trace, ensure_ascii=False),
        )
    )


def test_feedback_page_diagnoses_and_makes_eval_cases(seeded_home: Path, answered: dict[str, Any]) -> None:
    store = open_store(seeded_home)
    for f in store.feedback.all():  # other tests may have left feedback in this module's store
        store.feedback.delete(f.id)
    _feedback(store, answered["answer"], 5, "")
    _feedback(store, answered["answer"], 1, "押金为人民币10000元")
    at = open_page("feedback")
    assert [m.value for m in at.metric][:3] == ["2", "3.0", "1"]
    assert len(at.dataframe[0].value) == 2
    shown = unescape(texts(at))
    # The deposit clause was retrieved, and the fitted judge rightly dropped it for a penalty
    # question: the diagnosis names the judging step.
    assert "失败环节" in shown and "正确条款被检索到，但被判断环节丢弃" in shown
    assert "第四条 押金" in shown
    at.button[0].click().run()
    sets = store.evaluation.testsets()
    assert [t.name for t in sets] == ["feedback"]
    case = store.evaluation.cases(sets[0].id)[0]
    assert case["origin"] == "feedback" and case["reference_answer"] == "押金为人民币10000元"
    assert "已加入评测集" in texts(at)
