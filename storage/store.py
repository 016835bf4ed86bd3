"""The embedded LanceDB store of one data directory, as repositories by concern.

``Store`` owns the connection and the one writer lock (``storage.base``) and exposes:

- ``kbs``: knowledge bases; ``docs``: their documents (``storage.catalog``)
- ``chunks``: chunks, indexes and search (``storage.chunks``)
- ``conversations``: conversations, messages and their verdicts (``storage.conversations``)
- ``evaluation``: test sets and evaluation runs (``storage.evaluation``)
- ``prefs``: settings and metadata; ``feedback``: ratings of answers (``storage.prefs``)

Why one entry point: every repository writes under the same lock and reads through the same
cached tables, and callers hold one object per data directory.
"""

from __future__ import annotations

from pathlib import Path

from storage.base import Database, new_id, now_iso, validate_name
from storage.catalog import Documents, KnowledgeBases
from storage.chunks import Chunks
from storage.conversations import Conversations
from storage.evaluation import Evaluation
from storage.prefs import FeedbackLog, Prefs

__all__ = ["Store", "new_id", "now_iso", "open_store", "validate_name"]


class Store:
    """All persistent state of one Lexgate data directory."""

    def __init__(self, home: Path) -> None:
        self.db = Database(home)
        self.home = self.db.home
        self.kbs = KnowledgeBases(self.db)
        self.docs = Documents(self.db)
        self.chunks = Chunks(self.db)
        self.conversations = Conversations(self.db)
        self.evaluation = Evaluation(self.db)
        self.prefs = Prefs(self.db)
        self.feedback = FeedbackLog(self.db)


_STORES: dict[str, Store] = {}


def open_store(home: Path) -> Store:
    """One Store per data directory per process (LanceDB connections are reusable)."""
    key = str(Path(home).resolve())
    if key not in _STORES:
        _STORES[key] = Store(Path(key))
    return _STORES[key]
