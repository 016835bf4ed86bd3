"""The Evaluation page's work, kept apart from Streamlit so tests can call it: background jobs
with progress and cancel (test-set generation, evaluation runs), the test set between the review
table and the stored cases, run summaries, and the comparison of two runs.

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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rag_core.errors import LexgateError
from rag_core.evaluation.runner import EvalRun, compare_runs, run_eval
from rag_core.evaluation.testset import (
    DIFFICULTIES,
    EvalCase,
    GenerationNote,
    case_id,
    char_bigrams,
    check_jsonl,
    generate_cases,
    near_duplicate_of,
)
from rag_core.llm.base import CancellableModel, CancelToken, ChatModel
from rag_core.models import KnowledgeBase
from rag_core.textproc import detect_language
from storage.rows import ChunkRow, StoredRun, TestSet
from storage.store import Store

log = logging.getLogger("lexgate.ui.evaluation")

METRICS: tuple[str, ...] = (
    "faithfulness",
    "answer_relevancy",
    "context_recall",
    "context_precision",
    "answer_correctness",
    "context_recall_spans",
    "context_precision_spans",
)
"""Display order of the metrics (all in [0, 1], higher is better); unknown names follow."""

LLM_METRICS = frozenset(METRICS[:5])
SPAN_METRICS = frozenset(METRICS[5:])
MIN_CHUNK_CHARS = 80  # shorter chunks (titles, signature lines) make poor questions
DEFAULT_SAMPLE = 10  # chunks sampled for generation by default
MAX_PER_CHUNK = 5
MAX_SAMPLE = 200
DELTA_EPSILON = 5e-4  # a difference that rounds to 0.000 is "unchanged"


def metric_order(names: Sequence[str]) -> list[str]:
    known = [m for m in METRICS if m in names]
    return known + sorted(n for n in names if n not in METRICS)


# ---------------------------------------------------------------- background jobs


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


# ---------------------------------------------------------------- test-set cases


def chunk_language(text: str) -> str:
    """The language questions about a chunk are written in: its own (bilingual chunks: Chinese)."""
    return "en" if detect_language(text) == "en" else "zh"


def pick_chunks(
    rows: Sequence[ChunkRow],
    n: int,
    used: frozenset[str] | set[str] = frozenset(),
    min_chars: int = MIN_CHUNK_CHARS,
) -> list[ChunkRow]:
    """``n`` chunks spread evenly over the knowledge base, preferring chunks no case comes from.

    Parent and plain chunks only (whole clauses; child chunks are pieces of their parent), long
    enough to ask about, in document order so the sample covers every document.
    """
    pool = [r for r in rows if r.kind in ("parent", "plain") and len(r.text.strip()) >= min_chars]
    pool.sort(key=lambda r: (r.doc_id, int(r.start)))
    fresh = [r for r in pool if r.id not in used]
    source = fresh if len(fresh) >= n else fresh + [r for r in pool if r.id in used]
    if n >= len(source):
        return list(source)
    step = len(source) / n
    return [source[int(i * step)] for i in range(n)]


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


def _unique_id(wanted: str, taken: set[str]) -> str:
    new, k = wanted, 2
    while new in taken:
        new, k = f"{wanted}-{k}", k + 1
    return new


def merge_generated(
    existing: list[dict[str, Any]], new: Sequence[EvalCase]
) -> tuple[list[dict[str, Any]], int, int]:
    """``existing`` plus the new cases that repeat no question so far: (cases, added, duplicates)."""
    seen = [(str(c.get("id", "")), char_bigrams(str(c.get("question", "")))) for c in existing]
    taken = {str(c.get("id", "")) for c in existing}
    merged = list(existing)
    added = duplicates = 0
    for case in new:
        if near_duplicate_of(case.question, seen) is not None:
            duplicates += 1
            continue
        data = case.to_json()
        data["id"] = _unique_id(case.id, taken)
        taken.add(data["id"])
        seen.append((data["id"], char_bigrams(case.question)))
        merged.append(data)
        added += 1
    return merged, added, duplicates


def merge_imported(
    existing: list[dict[str, Any]], imported: Sequence[EvalCase]
) -> tuple[list[dict[str, Any]], int, int]:
    """``existing`` with the imported cases: a case whose id is already there replaces it in place.

    Returns (cases, added, replaced).
    """
    merged = list(existing)
    index = {str(c.get("id", "")): i for i, c in enumerate(merged)}
    added = replaced = 0
    for case in imported:
        if case.id in index:
            merged[index[case.id]] = case.to_json()
            replaced += 1
        else:
            index[case.id] = len(merged)
            merged.append(case.to_json())
            added += 1
    return merged, added, replaced


def parse_import(text: str) -> tuple[list[EvalCase], list[str]]:
    """The cases of a JSONL file and, when any line is bad, every bad line ("line n: why")."""
    cases, problems = check_jsonl(text, "imported")
    return cases, [str(p) for p in problems]


def cases_jsonl(cases: Sequence[Mapping[str, Any]]) -> str:
    """The stored case dicts as JSONL (the same shape ``to_jsonl`` writes)."""
    return "".join(json.dumps(dict(c), ensure_ascii=False) + "\n" for c in cases)


EDITOR_COLUMNS: tuple[str, ...] = ("id", "question", "reference_answer", "difficulty", "origin", "sources")
"""Columns of the review table; ``id``, ``origin`` and ``sources`` are read-only."""


def editor_rows(cases: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    rows = []
    for c in cases:
        spans = c.get("gold_spans") or []
        sources = len(c.get("source_chunks") or []) + len(spans)
        rows.append(
            {
                "id": str(c.get("id", "")),
                "question": str(c.get("question", "")),
                "reference_answer": str(c.get("reference_answer", "")),
                "difficulty": c.get("difficulty") if c.get("difficulty") in DIFFICULTIES else None,
                "origin": str(c.get("origin", "manual")),
                "sources": sources,
            }
        )
    return rows


def _text(value: Any) -> str:
    """A table cell as text (pandas gives NaN/None for empty cells)."""
    if value is None or (isinstance(value, float) and value != value):
        return ""
    return str(value).strip()


def cases_from_editor(
    records: Sequence[Mapping[str, Any]], base: Sequence[Mapping[str, Any]]
) -> tuple[list[dict[str, Any]], list[str]]:
    """The edited table back to case dicts, and what is wrong with it (row numbers 1-based).

    A row keeps everything of its case the table does not show (source chunks, gold spans); a new
    row becomes a "manual" case with an id from its content; an empty new row is ignored.
    """
    by_id = {str(c.get("id", "")): c for c in base}
    cases: list[dict[str, Any]] = []
    problems: list[str] = []
    seen: dict[str, int] = {}
    for n, rec in enumerate(records, start=1):
        question = _text(rec.get("question"))
        reference = _text(rec.get("reference_answer"))
        difficulty = _text(rec.get("difficulty")) or None
        cid = _text(rec.get("id"))
        if not cid and not question and not reference:
            continue  # a row added and left empty
        if not question:
            problems.append(f"row {n}: the question is empty")
            continue
        if difficulty is not None and difficulty not in DIFFICULTIES:
            problems.append(f"row {n}: difficulty must be one of {list(DIFFICULTIES)}")
            continue
        if cid in by_id:
            case = normalize_case(by_id[cid])
        else:
            cid = case_id(question, reference)
            case = normalize_case({"id": cid, "question": question, "origin": "manual"})
        case.update(question=question, reference_answer=reference)
        case.pop("difficulty", None)
        if difficulty is not None:
            case["difficulty"] = difficulty
        case = normalize_case(case)
        if cid in seen:
            problems.append(f"row {n}: the same question as row {seen[cid]}")
            continue
        seen[cid] = n
        cases.append(case)
    return cases, problems


def normalize_case(case: Mapping[str, Any]) -> dict[str, Any]:
    """A case dict in the JSONL shape and key order (``EvalCase.to_json``), defaults filled in,
    so a table that changed nothing compares equal to the stored cases."""
    out: dict[str, Any] = {
        "id": str(case.get("id", "")),
        "question": str(case.get("question") or "").strip(),
        "reference_answer": str(case.get("reference_answer") or "").strip(),
        "source_chunks": list(case.get("source_chunks") or []),
    }
    if case.get("gold_spans") is not None:
        out["gold_spans"] = case["gold_spans"]
    if case.get("difficulty") in DIFFICULTIES:
        out["difficulty"] = case["difficulty"]
    out["origin"] = str(case.get("origin") or "manual")
    return out


def span_case_count(cases: Sequence[Mapping[str, Any]]) -> int:
    return sum(1 for c in cases if c.get("gold_spans"))


def to_eval_cases(cases: Sequence[Mapping[str, Any]]) -> list[EvalCase]:
    """Stored case dicts as ``EvalCase`` (through the JSONL reader, so they are validated alike)."""
    parsed, problems = check_jsonl(cases_jsonl(cases), "manual")
    if problems:
        raise LexgateError(
            "the test set has invalid cases: " + "; ".join(str(p) for p in problems),
            "fix them in the table and save",
        )
    return parsed


# ---------------------------------------------------------------- runs


def finish_run(run: EvalRun) -> dict[str, Any]:
    """The run as stored, JSON-safe (``run_eval`` already dropped a case cut short by cancel)."""
    return json.loads(json.dumps(run.to_json(), ensure_ascii=False, default=str))


def run_job(
    job: Job,
    store: Store,
    pipeline: Any,
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


def metric_values(rows: Sequence[Mapping[str, Any]], metric: str) -> list[float | None]:
    out: list[float | None] = []
    for r in rows:
        m = (r.get("metrics") or {}).get(metric) or {}
        v = m.get("value")
        out.append(float(v) if isinstance(v, int | float) else None)
    return out


def run_metrics(run: StoredRun) -> list[str]:
    names = set(run.summary.get("metrics") or {})
    for r in run.rows:
        names |= set(r.get("metrics") or {})
    return metric_order(sorted(names))


def unjudged_reasons(rows: Sequence[Mapping[str, Any]], metric: str) -> dict[str, int]:
    """Why a metric could not be judged, with how many cases each reason hit."""
    counts: dict[str, int] = {}
    for r in rows:
        m = (r.get("metrics") or {}).get(metric) or {}
        if m.get("value") is None and m.get("error"):
            counts[str(m["error"])[:160]] = counts.get(str(m["error"])[:160], 0) + 1
    return counts


# ---------------------------------------------------------------- comparing runs


def compare(a: StoredRun, b: StoredRun) -> list[dict[str, Any]]:
    """Per metric (display order): mean of a, of b, and b − a, plus judged counts."""
    rows = {r["metric"]: r for r in compare_runs(a.to_json(), b.to_json())}
    ma = a.summary.get("metrics") or {}
    mb = b.summary.get("metrics") or {}
    out = []
    for name in metric_order(list(rows)):
        r = dict(rows[name])
        r["n_a"] = (ma.get(name) or {}).get("n")
        r["n_b"] = (mb.get(name) or {}).get("n")
        out.append(r)
    return out


def trend(delta: float | None, higher_is_better: bool = True) -> int:
    """+1 better, −1 worse, 0 unchanged or not comparable."""
    if delta is None or abs(delta) < DELTA_EPSILON:
        return 0
    return 1 if (delta > 0) == higher_is_better else -1


def flatten(data: Any, prefix: str = "") -> dict[str, Any]:
    """Nested dicts as dotted paths (``verdict.t_evidence``); lists are values."""
    if not isinstance(data, Mapping):
        return {prefix: data} if prefix else {}
    out: dict[str, Any] = {}
    for key, value in data.items():
        path = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, Mapping) and value:
            out.update(flatten(value, path))
        else:
            out[path] = value
    return out


_MISSING = object()


def settings_diff(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[tuple[str, Any, Any]]:
    """Every setting whose value differs between two snapshots: (path, a, b); absent is None."""
    fa, fb = flatten(a), flatten(b)
    out = []
    for path in sorted(set(fa) | set(fb)):
        va, vb = fa.get(path, _MISSING), fb.get(path, _MISSING)
        if va != vb:
            out.append((path, None if va is _MISSING else va, None if vb is _MISSING else vb))
    return out


def question_deltas(a: StoredRun, b: StoredRun, metrics: Sequence[str]) -> list[dict[str, Any]]:
    """Per question present in both runs (matched by case id): each metric's b − a."""
    rows_a = {str(r.get("case_id")): r for r in a.rows}
    out = []
    for rb in b.rows:
        ra = rows_a.get(str(rb.get("case_id")))
        if ra is None:
            continue
        row: dict[str, Any] = {"question": str(rb.get("question", ""))}
        for m in metrics:
            va = metric_values([ra], m)[0]
            vb = metric_values([rb], m)[0]
            row[m] = (vb - va) if va is not None and vb is not None else None
        out.append(row)
    return out


def display(value: Any) -> str:
    """A setting value as short text for the diff table."""
    if value is None:
        return "—"
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)
