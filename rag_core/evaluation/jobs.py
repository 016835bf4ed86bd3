"""Long evaluation work in a background thread: test-set generation and evaluation runs.

Why background threads: a run answers and judges every case through the real pipeline (minutes
with a local model). Run in the page script, any click (the cancel button included) would abort
the script and lose every finished case; in a thread the job keeps going, the page polls it, a
cancel lets the case in progress end and keeps what finished, and the run is stored even when
the browser tab is closed.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rag_core.errors import LexgateError
from rag_core.evaluation.casebook import chunk_language
from rag_core.evaluation.runner import EvalRun, run_eval
from rag_core.evaluation.testset import EvalCase, GenerationNote, generate_cases
from rag_core.llm.base import CancellableModel, CancelToken, ChatModel
from rag_core.models import KnowledgeBase
from rag_core.pipeline import Pipeline
from storage.rows import ChunkRow, StoredRun, TestSet
from storage.store import Store

log = logging.getLogger("lexgate.evaluation")


class Job:
    """One piece of long work in a daemon thread: progress, cancel, then a result or an error.

    ``work(job)`` reports through ``job.progress`` and checks ``job.token``; the page reads the
    fields (plain attributes: a torn read shows a stale number for one poll, nothing worse).
    """

    def __init__(self, kind: str, work: Callable[[Job], Any], target: str = "") -> None:
        self.kind = kind  # "generate" | "run"
        self.target = target  # the test set the job belongs to
        self.work = work
        self.token = CancelToken()
        self.done = 0
        self.total = 0
        self.current = ""
        self.cancelled_at: int | None = None  # cases finished when cancel was pressed
        self.result: Any = None
        self.error: BaseException | None = None
        self._finished = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"lexgate-eval-{kind}", daemon=True)

    def start(self) -> Job:
        self._thread.start()
        return self

    def _run(self) -> None:
        try:
            self.result = self.work(self)
        except Exception as err:  # reported on the page as a message
            if not isinstance(err, LexgateError):
                log.exception("evaluation job %s failed", self.kind)
            self.error = err
        finally:
            self._finished.set()

    def progress(self, done: int, total: int, current: str = "") -> None:
        self.done, self.total, self.current = done, total, current

    def cancel(self) -> None:
        if not self.token.cancelled:
            self.cancelled_at = self.done
            self.token.cancel()

    @property
    def finished(self) -> bool:
        return self._finished.is_set()

    @property
    def fraction(self) -> float:
        return min(1.0, self.done / self.total) if self.total else 0.0

    def wait(self, timeout: float | None = None) -> bool:
        return self._finished.wait(timeout)


@dataclass
class Generated:
    cases: list[EvalCase] = field(default_factory=list)
    notes: list[GenerationNote] = field(default_factory=list)
    chunks: int = 0  # chunks asked about (fewer than sampled when cancelled)


def generate(
    job: Job, model: ChatModel, chunks: Sequence[ChunkRow], per_chunk: int, language: str
) -> Generated:
    """Cases for each chunk (``language`` "auto": each chunk's own), with progress and cancel."""
    out = Generated()
    wrapped = CancellableModel(model, job.token)
    for i, row in enumerate(chunks):
        if job.token.cancelled:
            break
        text = row.text
        job.progress(i, len(chunks), text[:80])
        lang = chunk_language(text) if language == "auto" else language
        for item in generate_cases(wrapped, [(row.id, text)], per_chunk, lang):
            if isinstance(item, EvalCase):
                out.cases.append(item)
            elif not job.token.cancelled:
                out.notes.append(item)
        out.chunks = i + 1
    job.progress(out.chunks, len(chunks), "")
    return out


def finish_run(run: EvalRun) -> dict[str, Any]:
    """The run as stored, JSON-safe (``run_eval`` already dropped a case cut short by cancel)."""
    return json.loads(json.dumps(run.to_json(), ensure_ascii=False, default=str))


def run_job(
    job: Job,
    store: Store,
    pipeline: Pipeline,
    kb: KnowledgeBase,
    testset: TestSet,
    cases: list[EvalCase],
    judge: ChatModel | None,
    embed_of: Callable[[], Callable[[list[str]], Any] | None],
    name: str,
) -> dict[str, str]:
    """Answer and score every case, store the run with its settings snapshot; its id and status."""
    job.progress(0, len(cases), "")
    embed = embed_of()
    run = run_eval(
        pipeline,
        kb,
        cases,
        judge,
        embed,
        name=name,
        testset_id=testset.id,
        progress=job.progress,
        cancel=job.token,
    )
    data = finish_run(run)
    data["kb_id"] = kb.id
    data["summary"]["testset"] = testset.name
    return {"id": store.evaluation.save_run(StoredRun.from_json(data)), "status": str(data["status"])}
