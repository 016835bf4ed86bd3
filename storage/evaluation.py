"""Test sets (their cases as JSON documents) and stored evaluation runs.

Why cases stay JSON here: a test set is what the lawyer imported or edited, validated by
``rag_core.evaluation.testset``; storage keeps it verbatim and in order.
"""

from __future__ import annotations

import json

from rag_core.errors import NotFound
from storage import schema as S
from storage.base import Database, eq, new_id, now_iso, validate_name
from storage.rows import JsonObject, StoredRun, TestSet

RUN_HEADER_COLUMNS = ["id", "testset_id", "kb_id", "name", "status", "created_at"]
"""What a run listing reads: the per-case rows can be megabytes."""


class Evaluation:
    """Test sets and evaluation runs."""

    def __init__(self, db: Database) -> None:
        self._db = db

    # ------------------------------------------------------------------ test sets
    def save_testset(self, name: str, kb_id: str, cases: list[JsonObject], testset_id: str = "") -> str:
        """Create or replace a test set's cases in one locked write."""
        name = validate_name(name, "test set")
        tid = testset_id or new_id()
        with self._db.write():
            self._db.table(S.TESTSETS).delete(eq("id", tid))
            self._db.table(S.EVAL_CASES).delete(eq("testset_id", tid))
            self._db.table(S.TESTSETS).add(
                [{"id": tid, "name": name, "kb_id": kb_id, "created_at": now_iso()}]
            )
            if cases:
                self._db.table(S.EVAL_CASES).add(
                    [
                        {
                            "id": str(c.get("id") or new_id()),
                            "testset_id": tid,
                            "seq": i,
                            "case_json": json.dumps(c, ensure_ascii=False),
                        }
                        for i, c in enumerate(cases)
                    ]
                )
        return tid

    def testsets(self) -> list[TestSet]:
        """Oldest first."""
        return sorted((TestSet(**r) for r in self._db.rows(S.TESTSETS)), key=lambda t: t.created_at)

    def find_testset(self, name: str) -> TestSet | None:
        return next((t for t in self.testsets() if t.name == name), None)

    def cases(self, testset_id: str) -> list[JsonObject]:
        """A test set's cases in their saved order."""
        rows = self._db.rows(S.EVAL_CASES, eq("testset_id", testset_id))
        return [json.loads(r["case_json"]) for r in sorted(rows, key=lambda r: r["seq"])]

    def delete_testset(self, testset_id: str) -> None:
        with self._db.write():
            self._db.table(S.EVAL_CASES).delete(eq("testset_id", testset_id))
            self._db.table(S.TESTSETS).delete(eq("id", testset_id))

    # ------------------------------------------------------------------ runs
    def save_run(self, run: StoredRun) -> str:
        """Create or replace a run; returns its id (a new one when the run has none)."""
        rid = run.id or new_id()
        row = {
            "id": rid,
            "testset_id": run.testset_id,
            "kb_id": run.kb_id,
            "name": run.name,
            "status": run.status,
            "created_at": run.created_at or now_iso(),
            "settings_json": json.dumps(run.settings, ensure_ascii=False),
            "summary_json": json.dumps(run.summary, ensure_ascii=False),
            "rows_json": json.dumps(run.rows, ensure_ascii=False),
        }
        with self._db.write():
            self._db.replace_row(S.EVAL_RUNS, "id", row)
        return rid

    def runs(self) -> list[StoredRun]:
        """Newest first, headers only (empty settings, summary and rows)."""
        rows = self._db.rows(S.EVAL_RUNS, None, RUN_HEADER_COLUMNS)
        return sorted((StoredRun(**r) for r in rows), key=lambda r: r.created_at, reverse=True)

    def run(self, run_id: str) -> StoredRun:
        rows = self._db.rows(S.EVAL_RUNS, eq("id", run_id))
        if not rows:
            raise NotFound(f"no evaluation run {run_id}")
        r = rows[0]
        payload = {key: json.loads(r.pop(f"{key}_json") or "null") for key in ("settings", "summary", "rows")}
        return StoredRun.from_json({**r, **payload})

    def delete_run(self, run_id: str) -> None:
        """Remove one stored run; its test set and the other runs are kept."""
        with self._db.write():
            if not self._db.rows(S.EVAL_RUNS, eq("id", run_id), ["id"]):
                raise NotFound(f"no evaluation run {run_id}")
            self._db.table(S.EVAL_RUNS).delete(eq("id", run_id))
