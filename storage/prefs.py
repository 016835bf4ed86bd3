"""Settings and feedback: the global settings, small metadata values, and lawyers' ratings.

Why settings live in the store and not in a file: the CLI and the app read the same data
directory, so one saved change applies to both.
"""

from __future__ import annotations

import json
from dataclasses import asdict, replace
from typing import Any

from rag_core.settings import Settings
from storage import schema as S
from storage.base import Database, eq, new_id, now_iso
from storage.rows import FEEDBACK_FIELDS, Feedback

GLOBAL_KEY = "global"
META_PREFIX = "meta:"


class Prefs:
    """The global settings and small JSON metadata values (e.g. a knowledge base's tokenizer version)."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def _value(self, key: str) -> str | None:
        rows = self._db.rows(S.SETTINGS, eq("key", key))
        return str(rows[0]["value_json"]) if rows else None

    def _put(self, key: str, value_json: str) -> None:
        with self._db.write():
            self._db.replace_row(
                S.SETTINGS, "key", {"key": key, "value_json": value_json, "updated_at": now_iso()}
            )

    def load_settings(self) -> Settings:
        raw = self._value(GLOBAL_KEY)
        return Settings.model_validate_json(raw) if raw is not None else Settings()

    def save_settings(self, settings: Settings) -> None:
        self._put(GLOBAL_KEY, settings.model_dump_json())

    def get_meta(self, key: str) -> Any:
        """A small JSON value kept beside the settings; None when never set."""
        raw = self._value(META_PREFIX + key)
        return json.loads(raw) if raw is not None else None

    def set_meta(self, key: str, value: Any) -> None:
        self._put(META_PREFIX + key, json.dumps(value))


class FeedbackLog:
    """Ratings of answers, with the trace of the answer as it was when rated."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def add(self, feedback: Feedback) -> str:
        """Store a rating; its id and time are assigned here."""
        fid = new_id()
        row = asdict(replace(feedback, id=fid, created_at=now_iso()))
        with self._db.write():
            self._db.table(S.FEEDBACK).add([row])
        return fid

    def all(self, max_rating: int | None = None) -> list[Feedback]:
        """Newest first; ``max_rating`` keeps the ratings at or below it."""
        where = f"rating <= {int(max_rating)}" if max_rating is not None else None
        rows = [Feedback(**{k: r[k] for k in FEEDBACK_FIELDS}) for r in self._db.rows(S.FEEDBACK, where)]
        return sorted(rows, key=lambda f: f.created_at, reverse=True)

    def delete(self, feedback_id: str) -> None:
        with self._db.write():
            self._db.table(S.FEEDBACK).delete(eq("id", feedback_id))
