"""What every sub-command shares: opening the store, the settings in force, and output."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from rag_core.paths import data_home
from rag_core.settings import Settings
from storage.store import Store, open_store

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def store_of(args: argparse.Namespace) -> Store:
    return open_store(data_home(getattr(args, "store", None)))


def settings_of(store: Store) -> Settings:
    """The settings saved by the admin page, or the defaults."""
    return store.prefs.load_settings()


def emit(args: argparse.Namespace, data: Any, human: str) -> None:
    """JSON with ``--json``, else the human text."""
    if getattr(args, "json", False):
        print(json.dumps(data, ensure_ascii=False, indent=None if isinstance(data, list) else 2))
    else:
        print(human)


def emit_line(data: Any) -> None:
    """One JSON line, flushed, for streaming batch output (--queries / --input)."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def common_parent() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(add_help=False)
    # SUPPRESS: a flag given before the sub-command must not be reset by the sub-parser's default.
    p.add_argument(
        "--store",
        metavar="DIR",
        default=argparse.SUPPRESS,
        help="data directory (default: $LEXGATE_HOME or ./lexgate-data)",
    )
    p.add_argument(
        "--json", action="store_true", default=argparse.SUPPRESS, help="machine-readable JSON output"
    )
    return p


def place_label(page: int | str | None, clause: str, page_end: int | str | None = None) -> str:
    """Where a cited passage is, as the app's citations say it (``export.where_label``): "page 3 ·
    7.2 …" for a PDF, the clause path alone for a text file (no "p.None"), and a Word or Markdown
    section only when the clause path does not start with it.

    Why: a Markdown lease's citation read "p.COMMERCIAL LEASE AGREEMENT > 4. Security Deposit COMMERCIAL
    LEASE AGREEMENT > 4. Security Deposit" — its section anchor taken for a page and then repeated (session 33)."""
    from rag_core.export import where_label

    return where_label(page, clause, "en", page_end)
