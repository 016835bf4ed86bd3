"""Evaluation page: test sets (create, import JSONL all-or-nothing, generate from a knowledge base
with the LLM, edit in the review table and save), runs through the real pipeline with the judge
metrics (stored with their settings snapshot), cancel, compare two runs, and no-LLM mode.

The LLM is the local fake OpenAI server: it writes question/answer pairs for the generation
prompt, answers questions, and replies to each judge prompt in the JSON schema the metrics ask
for (``rag_core/evaluation/metrics.py``).
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from storage.rows import StoredRun
from storage.store import Store, open_store
from tests.fakeopenai import FakeOpenAI, Reply
from tests.ui.conftest import ANSWER_ZH, open_page, seeded, texts, unescape

JOB_TIMEOUT_S = 40


class Script:
    """The fake LLM's behaviour: generation pairs, judge verdicts, answers (optionally slow)."""

    def __init__(self) -> None:
        self.generation_calls = 0
        self.answer_delay_s = 0.0
        self.lock = threading.Lock()

    def __call__(self, request: dict[str, Any]) -> Reply:
        users = [m for m in request.get("messages", []) if m.get("role") == "user"]
        prompt = str(users[-1]["content"]) if users else ""
        if "question/answer pairs" in prompt:
            with self.lock:
                self.generation_calls += 1
                call = self.generation_calls
            if call == 2:  # one unreadable reply: becomes a generation note
                return Reply(content="Sorry, I cannot write questions for this passage.")
            passage = prompt.split("<<<", 1)[1].split(">>>", 1)[0].strip().replace("\n", "")
            question = f"第{call}段：关于“{passage[:24]}”合同如何约定？"
            return Reply.json(
                [
                    {"question": question, "answer": passage[:60], "difficulty": "easy"},
                    {"question": question + "?", "answer": passage[:40], "difficulty": "medium"},
                ]
            )
        if "atomic factual claims" in prompt:  # faithfulness: 1 of 2 claims supported
            return Reply.json(
                {
                    "claims": [
                        {"claim": "违约金为10%", "supported": True},
                        {"claim": "另有约定", "supported": False},
                    ]
                }
            )
        if "different questions that this answer answers" in prompt:  # answer relevancy
            return Reply.json({"questions": ["违约金是多少？"], "noncommittal": False})
        if "rate how directly" in prompt:
            return Reply.json({"relevance": 0.8, "reason": "on topic"})
        if "attributed to the context passages" in prompt:  # context recall
            return Reply.json({"statements": [{"statement": "违约金10%", "attributed": True}]})
        if "useful in arriving at the reference answer" in prompt:  # context precision
            return Reply.json({"useful": True, "reason": "states the rate"})
        if "Classify them" in prompt:  # answer correctness
            return Reply.json({"TP": [{"statement": "10%", "reason": "same"}], "FP": [], "FN": []})
        return Reply(content=ANSWER_ZH, delay_s=self.answer_delay_s)


SCRIPT = Script()


@pytest.fixture(scope="module")
def llm() -> Iterator[FakeOpenAI]:
    with FakeOpenAI(responder=SCRIPT) as srv:
        yield srv


@pytest.fixture(scope="module")
def ev_home(
    tmp_path_factory: pytest.TempPathFactory, llm: FakeOpenAI, contract_files: dict[str, Path]
) -> Iterator[Path]:
    """A data directory with the Chinese lease in one knowledge base and the fake LLM configured."""
    path = tmp_path_factory.mktemp("evaluation") / "lexgate-data"
    with seeded(path, llm.base_url, "租赁合同", [contract_files["zh"]]):
        yield path


@pytest.fixture
def store(ev_home: Path) -> Store:
    return open_store(ev_home)


def page(section: str = "sets", lang: str = "zh") -> AppTest:
    at = open_page("evaluation", lang=lang)
    if section != "sets":
        at.segmented_control(key="ev_section").set_value(section).run()
    assert not at.exception, at.exception
    return at


def wait_job(at: AppTest) -> None:
    """Poll like the page's fragment does until the background job has finished, then rerun.

    A job already taken (none in the session) finished within the run that started it, which then
    showed its outcome; another rerun would consume that one-time message (a flaky failure when the
    machine was idle and the fake model fast)."""
    deadline = time.monotonic() + JOB_TIMEOUT_S
    while time.monotonic() < deadline:
        job = at.session_state["ev_job"] if "ev_job" in at.session_state else None  # noqa: SIM401
        if job is None:
            assert not at.exception, at.exception
            return
        if job.finished:
            break
        time.sleep(0.05)
    else:
        raise AssertionError("evaluation job did not finish")
    at.run()
    assert not at.exception, at.exception


def set_id(store: Store, name: str) -> str:
    return next(ts.id for ts in store.evaluation.testsets() if ts.name == name)


def editor_key(at: AppTest) -> str:
    draft = at.session_state["ev_draft"]
    return f"ev_editor_{draft['tid']}_{draft['v']}"


def frame_with(at: AppTest, column: str) -> Any:
    """The first table showing ``column`` (read-only tables carry no key in AppTest)."""
    return next(d.value for d in at.dataframe if column in d.value.columns)


def create_set(at: AppTest, name: str) -> None:
    at.text_input[0].set_value(name)
    next(b for b in at.button if b.label == "创建").click().run()
    assert not at.exception, at.exception


# ---------------------------------------------------------------- test sets
def test_page_renders_in_both_languages(ev_home: Path) -> None:
    for lang, title in (("zh", "评测"), ("en", "Evaluation")):
        for section in ("sets", "runs", "compare"):
            at = page(section, lang)
            assert at.title[0].value == title
    assert not re.search(r"[\u4e00-\u9fff]", "\n".join(e.value for e in page("sets", "en").info))


def test_import_jsonl_all_or_nothing(ev_home: Path, store: Store) -> None:
    at = page()
    create_set(at, "导入集")
    tid = set_id(store, "导入集")
    assert "导入集" in texts(at) and store.evaluation.cases(tid) == []

    good = {
        "id": "imp-1",
        "question": "押金是多少？",
        "reference_answer": "人民币10000元",
        "difficulty": "easy",
    }
    bad_file = "\n".join(
        [
            json.dumps(good, ensure_ascii=False),
            "{not json",
            json.dumps({"question": "租期多久？", "answer": "三年"}, ensure_ascii=False),
        ]
    )
    at.file_uploader[0].set_value(("cases.jsonl", bad_file.encode(), "application/jsonl")).run()
    at.button(key="ev_import").click().run()
    errors = unescape("\n".join(e.value for e in at.error))
    assert "2 行有问题" in errors and "line 2: not valid JSON" in errors
    assert "line 3: unknown key(s) ['answer']" in errors
    assert len(at.data_editor[0].value) == 0 and store.evaluation.cases(tid) == []  # nothing imported

    good_file = "\n".join(
        json.dumps(c, ensure_ascii=False)
        for c in (
            good,
            {"question": "租金每月多少？", "reference_answer": "人民币5000元"},
            {
                "question": "违约金是多少？",
                "reference_answer": "合同总额的10%",
                "gold_spans": [{"file": "zh_lease.pdf", "start": 10, "end": 40}],
            },
        )
    )
    at.file_uploader[0].set_value(("cases.jsonl", good_file.encode(), "application/jsonl")).run()
    at.button(key="ev_import").click().run()
    assert not at.error
    assert "新增 3 条" in texts(at)
    assert list(at.data_editor[0].value["question"]) == ["押金是多少？", "租金每月多少？", "违约金是多少？"]
    assert store.evaluation.cases(tid) == []  # imported into the review table; saved on Save
    at.button(key="ev_save").click().run()
    saved = store.evaluation.cases(tid)
    assert [c["question"] for c in saved] == ["押金是多少？", "租金每月多少？", "违约金是多少？"]
    assert saved[0]["id"] == "imp-1" and saved[1]["origin"] == "imported"
    assert saved[2]["gold_spans"] == [{"file": "zh_lease.pdf", "start": 10, "end": 40}]
    # Export: the saved cases as JSONL, readable again.
    export = at.download_button(key="ev_export")
    assert export.label == "导出 JSONL（已保存的 3 条）"


def test_generate_from_the_knowledge_base(ev_home: Path, store: Store, llm: FakeOpenAI) -> None:
    at = page()
    create_set(at, "生成集")
    tid = set_id(store, "生成集")
    at.number_input(key="ev_gen_sample").set_value(3)
    at.number_input(key="ev_gen_per").set_value(2).run()
    SCRIPT.generation_calls = 0
    at.button(key="ev_gen_start").click().run()
    wait_job(at)
    shown = texts(at)
    # 3 passages; the 2nd reply is unreadable; each readable reply repeats its question once
    # (skipped as a near-duplicate note): 2 cases, 3 notes.
    assert "已加入 2 条新用例（3 个段落；0 条与已有问题重复被去掉；3 条说明）" in shown, shown
    notes = frame_with(at, "模型原始输出（节选）")
    assert any("not a JSON array" in n for n in notes["说明"]), notes
    assert any("near-duplicate" in n for n in notes["说明"])
    table = at.data_editor[0].value
    assert len(table) == 2 and set(table["origin"]) == {"generated"}
    assert all(q.startswith("第") for q in table["question"])
    assert "有未保存的修改" in shown
    # The generation prompt went out with the passage and the language of the passage.
    prompts = [m["content"] for r in llm.chat_requests() for m in r["messages"] if m["role"] == "user"]
    assert any("Simplified Chinese" in p for p in prompts if "question/answer pairs" in p)
    at.button(key="ev_save").click().run()
    saved = store.evaluation.cases(tid)
    assert len(saved) == 2 and all(c["source_chunks"] and c["origin"] == "generated" for c in saved)
    assert saved[0]["difficulty"] == "easy"


def test_edit_delete_add_and_save(ev_home: Path, store: Store) -> None:
    tid = set_id(store, "导入集")
    at = page()
    at.selectbox(key="ev_ts").set_value(tid).run()
    key = editor_key(at)
    at.session_state[key] = {
        "edited_rows": {0: {"question": "押金金额是多少？", "difficulty": "medium"}},
        "added_rows": [{"question": "谁负责主体结构维修？", "reference_answer": "甲方"}],
        "deleted_rows": [1],
    }
    at.run()
    assert not at.exception, at.exception
    assert "有未保存的修改" in texts(at)
    # Edits survive showing another section (Streamlit drops the table's state meanwhile).
    at.segmented_control(key="ev_section").set_value("runs").run()
    at.segmented_control(key="ev_section").set_value("sets").run()
    assert "有未保存的修改" in texts(at)
    assert at.data_editor[0].value["question"].iloc[0] == "押金金额是多少？"
    at.button(key="ev_save").click().run()
    saved = store.evaluation.cases(tid)
    assert [c["question"] for c in saved] == ["押金金额是多少？", "违约金是多少？", "谁负责主体结构维修？"]
    assert saved[0]["id"] == "imp-1" and saved[0]["difficulty"] == "medium"
    assert saved[1]["gold_spans"]  # what the table does not show is kept
    assert saved[2]["origin"] == "manual" and saved[2]["reference_answer"] == "甲方"
    assert "已保存 3 条用例" in texts(at) and "有未保存的修改" not in texts(at)

    # An edit that empties a question is refused with the row number; nothing saved.
    key = editor_key(at)
    at.session_state[key] = {"edited_rows": {2: {"question": ""}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert any("row 3: the question is empty" in unescape(e.value) for e in at.error)
    assert at.button(key="ev_save").disabled
    assert len(store.evaluation.cases(tid)) == 3


# ---------------------------------------------------------------- runs
def start_run(at: AppTest, store: Store, name: str, run_name: str) -> None:
    at.selectbox(key="ev_run_ts").set_value(set_id(store, name)).run()
    at.text_input(key="ev_run_name").set_value(run_name)
    at.button(key="ev_run_start").click().run()
    assert not at.exception, at.exception


def test_run_shows_metrics_rows_and_is_stored(ev_home: Path, store: Store) -> None:
    at = page("runs")
    start_run(at, store, "导入集", "基线")
    wait_job(at)
    assert "评测完成" in texts(at)
    runs = store.evaluation.runs()
    assert len(runs) == 1 and runs[0].status == "done"
    run = store.evaluation.run(runs[0].id)
    assert run.name == "基线" and run.kb_id == store.kbs.all()[0].id
    assert run.settings["verdict"]["t_evidence"] == store.prefs.load_settings().verdict.t_evidence
    assert run.summary["testset"] == "导入集" and len(run.rows) == 3
    assert run.summary["metrics"]["faithfulness"] == {"mean": 0.5, "n": 3, "could_not_judge": 0}
    assert run.summary["metrics"]["answer_correctness"]["n"] == 3
    assert "context_recall_spans" in run.summary["metrics"]  # the case with gold spans

    labels = [m.label for m in at.metric]
    assert {"用例数", "拒答率", "忠实度", "答案相关性", "上下文召回率", "答案正确性"} <= set(labels)
    assert next(m.value for m in at.metric if m.label == "忠实度") == "0.500"
    assert "已评判 3 条 · 无法评判 0 条" in texts(at)
    charts = at.get("vega_lite_chart")
    assert len(charts) >= 5  # one chart per metric
    rows = at.dataframe(key=f"ev_rows_{run.id}").value
    assert list(rows["问题"]) == ["押金金额是多少？", "违约金是多少？", "谁负责主体结构维修？"]
    assert {"回答", "拒答", "用时", "忠实度"} <= set(rows.columns)
    assert list(rows["忠实度"]) == [0.5, 0.5, 0.5]

    # Selecting a row shows its trace summary: query, verdict labels, citations.
    at.session_state[f"ev_rows_{run.id}"] = {"selection": {"rows": [1], "columns": [], "cells": []}}
    at.run()
    assert not at.exception, at.exception
    assert any(c.value == "违约金是多少？" for c in at.code)  # the retrieval query
    shown = unescape(texts(at))
    assert "实际检索语句" in shown and "EVIDENCE" in shown
    assert "违约金为合同总额的10%" in shown
    assert len(frame_with(at, "证据")) >= 1  # the verdict table with its score columns
    assert any(b.label == "下载这道题的过程记录（JSON）" for b in at.download_button)


def test_compare_two_runs_after_a_threshold_change(ev_home: Path, store: Store) -> None:
    settings = store.prefs.load_settings()
    base = settings.verdict.t_evidence
    settings.verdict.t_evidence = 0.9
    store.prefs.save_settings(settings)
    at = page("runs")
    start_run(at, store, "导入集", "阈值 0.9")
    wait_job(at)
    runs = store.evaluation.runs()
    assert [r.name for r in runs][:2] == ["阈值 0.9", "基线"]
    # Make the comparison show a change: lower one metric of the new run, as a worse answer would.
    b = store.evaluation.run(runs[0].id)
    b.summary["metrics"]["faithfulness"]["mean"] = 0.25
    store.evaluation.save_run(b)

    at = page("compare")
    assert at.selectbox(key="ev_cmp_a").value == runs[1].id
    assert at.selectbox(key="ev_cmp_b").value == runs[0].id
    table = frame_with(at, "差值（B − A）")
    faith = table[table["指标"] == "忠实度"].iloc[0]
    assert faith["A"] == 0.5 and faith["B"] == 0.25 and faith["差值（B − A）"] == pytest.approx(-0.25)
    metric = next(m for m in at.metric if m.label == "忠实度")
    assert metric.value == "0.250" and metric.delta == "-0.250"
    diff = frame_with(at, "设置项")
    row = diff[diff["设置项"] == "verdict.t_evidence"].iloc[0]
    assert row["A"] == json.dumps(base) and row["B"] == "0.9"
    per_question = frame_with(at, "问题")
    assert len(per_question) == 3 and list(per_question["忠实度"]) == [0.0, 0.0, 0.0]
    settings.verdict.t_evidence = base
    store.prefs.save_settings(settings)


def test_cancel_keeps_finished_cases(ev_home: Path, store: Store) -> None:
    at = page("runs")
    SCRIPT.answer_delay_s = 0.6
    try:
        start_run(at, store, "导入集", "取消")
        job = at.session_state["ev_job"]
        deadline = time.monotonic() + JOB_TIMEOUT_S
        while job.done < 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        at.run()
        at.button(key="ev_job_cancel").click().run()
        assert job.token.cancelled
        wait_job(at)
    finally:
        SCRIPT.answer_delay_s = 0.0
    run = store.evaluation.run(store.evaluation.runs()[0].id)
    assert run.name == "取消" and run.status == "cancelled"
    assert len(run.rows) == job.cancelled_at >= 1 and run.summary["cases"] == len(run.rows)
    assert "评测已取消" in texts(at)
    assert any("此运行被取消" in w.value for w in at.warning)


def test_without_llm_generation_and_judging_are_disabled(ev_home: Path, store: Store) -> None:
    saved = store.prefs.load_settings()
    off = saved.model_copy(deep=True)
    off.models.base_url = ""
    store.prefs.save_settings(off)
    try:
        at = page()
        at.selectbox(key="ev_ts").set_value(set_id(store, "导入集")).run()
        assert any("大模型不可用，无法生成用例" in w.value for w in at.warning)
        assert at.button(key="ev_gen_start").disabled
        at = page("runs")
        at.selectbox(key="ev_run_ts").set_value(set_id(store, "导入集")).run()
        assert any(
            "需要大模型评判的指标被停用" in w.value and "1 条用例有片段" in w.value for w in at.warning
        )
        at.text_input(key="ev_run_name").set_value("无模型")
        at.button(key="ev_run_start").click().run()
        wait_job(at)
    finally:
        store.prefs.save_settings(saved)
    run = store.evaluation.run(store.evaluation.runs()[0].id)
    assert run.name == "无模型" and run.summary["judge"] is None
    assert set(run.summary["metrics"]) == {"context_recall_spans", "context_precision_spans"}
    assert run.summary["metrics"]["context_recall_spans"]["n"] == 1


def test_delete_a_run_after_confirming(ev_home: Path, store: Store) -> None:
    kb_id = store.kbs.all()[0].id
    tid = store.evaluation.save_testset("删除运行用", kb_id, [{"question": "q"}])
    base = {"testset_id": tid, "kb_id": kb_id, "summary": {"testset": "删除运行用"}}
    kept = store.evaluation.save_run(
        StoredRun.from_json({**base, "name": "保留的运行", "created_at": "2000-01-01T00:00:00+00:00"})
    )
    doomed = store.evaluation.save_run(
        StoredRun.from_json({**base, "name": "要删除的运行", "rows": [{"question": "q"}] * 2})
    )
    before = {r.id for r in store.evaluation.runs()}
    at = page("runs")
    at.selectbox(key="ev_run_pick").set_value(doomed).run()
    at.button(key="ev_run_delete").click().run()
    assert not at.exception, at.exception
    assert any("确定删除运行记录「要删除的运行」（2 条用例的结果）" in w.value for w in at.warning)
    at.button(key="ev_confirm_run_delete_cancel").click().run()  # cancel: nothing removed
    assert not any("确定删除运行记录" in w.value for w in at.warning)
    assert {r.id for r in store.evaluation.runs()} == before

    at.button(key="ev_run_delete").click().run()
    at.button(key="ev_confirm_run_delete_ok").click().run()
    assert not at.exception, at.exception
    assert "已删除运行记录「要删除的运行」。" in texts(at)
    assert {r.id for r in store.evaluation.runs()} == before - {doomed}
    assert store.evaluation.run(kept).name == "保留的运行"
    picker = at.selectbox(key="ev_run_pick")
    assert not any("要删除的运行" in label for label in picker.options) and picker.value != doomed
    store.evaluation.delete_run(kept)
    store.evaluation.delete_testset(tid)
