"""The connection, the one writer lock and the filter helpers every repository of the store shares.

Why a single writer: LanceDB's ``merge_insert`` was seen to create duplicate ids when two
processes wrote at once, so every write transaction takes one file lock. Readers never lock;
``read_consistency_interval=0`` makes every read see the newest committed version, so the app
sees documents ingested by the CLI without restarting. Filter strings are built here and in the
repositories only: nothing outside ``storage/`` writes SQL.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import lancedb
from filelock import FileLock, Timeout

from rag_core.errors import LexgateError
from rag_core.models import KnowledgeBase
from storage import schema as S

WRITE_LOCK_TIMEOUT_S = 120.0
"""How long a writer waits for another writer before giving up with a clear message."""

NAME_MAX_CHARS = 120
"""Longest knowledge base or test set name: names are shown in the UI and used in CLI flags."""


def now_iso() -> str:
    """UTC timestamps to the microsecond, so histories sort the same on every laptop and two rows
    written in the same second (a cancelled run and the next one) keep their order."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def new_id() -> str:
    return uuid.uuid4().hex


def sql_str(value: str) -> str:
    """A SQL string literal for LanceDB filters; names come from users, so quotes are doubled."""
    return "'" + value.replace("'", "''") + "'"


def eq(column: str, value: str) -> str:
    """``column = 'value'``, quoted."""
    return f"{column} = {sql_str(value)}"


def one_of(column: str, values: Iterable[str]) -> str:
    """``column IN (...)`` over distinct values, sorted so equal sets give equal filters."""
    return f"{column} IN (" + ", ".join(sql_str(v) for v in sorted(set(values))) + ")"


def all_of(*conditions: str) -> str:
    """The conditions joined with AND, empty ones left out."""
    return " AND ".join(c for c in conditions if c)


def validate_name(name: str, what: str) -> str:
    """Names are shown in the UI and used in CLI flags: non-empty, one line, reasonably short."""
    clean = (name or "").strip()
    if not clean:
        raise LexgateError(f"the {what} name is empty", "give it a name")
    if "\n" in clean or len(clean) > NAME_MAX_CHARS:
        raise LexgateError(f"the {what} name must be one line of at most {NAME_MAX_CHARS} characters")
    return clean


class Database:
    """One data directory's LanceDB connection, its open tables and its writer lock."""

    def __init__(self, home: Path) -> None:
        self.home = Path(home)
        self.home.mkdir(parents=True, exist_ok=True)
        (self.home / "locks").mkdir(exist_ok=True)
        self.db = lancedb.connect(str(self.home / "db"), read_consistency_interval=timedelta(0))
        self._lock = FileLock(str(self.home / "locks" / "write.lock"))
        self._tables: dict[str, Any] = {}
        self._ensure_fixed_tables()

    @contextmanager
    def write(self) -> Iterator[None]:
        """The one write transaction lock of this data directory (re-entrant in-process)."""
        try:
            self._lock.acquire(timeout=WRITE_LOCK_TIMEOUT_S)
        except Timeout as err:
            raise LexgateError(
                f"the store at {self.home} is busy: another process has been writing for over "
                f"{WRITE_LOCK_TIMEOUT_S:.0f} s",
                "wait for the other ingestion to finish, then try again",
            ) from err
        try:
            yield
        finally:
            self._lock.release()

    def lease(self, name: str) -> FileLock:
        """A named lock beside the writer lock (held across several write transactions)."""
        return FileLock(str(self.home / "locks" / f"{name}.lock"))

    def table_names(self) -> set[str]:
        """All table names, page by page (``table_names`` returns only 10 by default)."""
        names: set[str] = set()
        token: str | None = None
        while True:
            resp = self.db.list_tables(page_token=token, limit=1000)
            names.update(resp.tables)
            token = resp.page_token
            if not token:
                return names

    def _ensure_fixed_tables(self) -> None:
        missing = [n for n in S.FIXED_TABLES if n not in self.table_names()]
        if not missing:
            return
        with self.write():
            existing = self.table_names()
            for name in missing:
                if name not in existing:
                    self.db.create_table(name, schema=S.FIXED_TABLES[name])

    def table(self, name: str) -> Any:
        """An open table, cached; reads still see the newest version (consistency interval 0)."""
        tbl = self._tables.get(name)
        if tbl is None:
            tbl = self.db.open_table(name)
            if name.startswith(S.CHUNKS_PREFIX):
                self._migrate(tbl, S.CHUNK_MIGRATIONS)
            elif name == S.DOCUMENTS:
                self._migrate(tbl, S.DOCUMENT_MIGRATIONS)
            self._tables[name] = tbl
        return tbl

    def _migrate(self, tbl: Any, columns: dict[str, str]) -> None:
        """A table written before schema 2 gains its new ``columns`` (name → SQL filling old rows)."""
        missing = {c: e for c, e in columns.items() if c not in tbl.schema.names}
        if missing:
            with self.write():
                tbl.checkout_latest()
                still = {c: e for c, e in missing.items() if c not in tbl.schema.names}
                if still:
                    tbl.add_columns(still)

    def chunks_table(self, kb: KnowledgeBase) -> Any:
        return self.table(S.CHUNKS_PREFIX + kb.id)

    def create_chunks_table(self, kb: KnowledgeBase) -> None:
        self.db.create_table(S.CHUNKS_PREFIX + kb.id, schema=S.chunks_schema(kb.embed_dim))

    def drop_chunks_table(self, kb: KnowledgeBase) -> None:
        name = S.CHUNKS_PREFIX + kb.id
        if name in self.table_names():
            self.db.drop_table(name)
        self._tables.pop(name, None)

    def rows(
        self, name: str, where: str | None = None, columns: list[str] | None = None
    ) -> list[dict[str, Any]]:
        """Every row of a table matching ``where`` (all columns unless some are named)."""
        q = self.table(name).search()
        if where:
            q = q.where(where)
        if columns:
            q = q.select(columns)
        rows: list[dict[str, Any]] = q.limit(None).to_list()
        return rows

    def replace_row(self, name: str, key: str, row: dict[str, Any]) -> None:
        """Delete the row with ``key`` = its value, then add it (callers hold the writer lock)."""
        tbl = self.table(name)
        tbl.delete(eq(key, str(row[key])))
        tbl.add([row])
