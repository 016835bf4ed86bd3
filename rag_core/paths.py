"""Where Lexgate keeps its data: one directory, ``./lexgate-data`` unless told otherwise.

Why: a lawyer must be able to back up, move or wipe everything by one folder. Only the model
cache (the assembled GGUF) may live outside it, under ``LEXGATE_MODEL_CACHE`` or ~/.cache/lexgate.
"""

from __future__ import annotations

import os
from pathlib import Path

DEFAULT_HOME = "lexgate-data"


def data_home(store: str | os.PathLike[str] | None = None) -> Path:
    """The data directory: ``--store`` beats ``LEXGATE_HOME`` beats ``./lexgate-data``."""
    chosen = store or os.environ.get("LEXGATE_HOME") or DEFAULT_HOME
    return Path(chosen).expanduser().resolve()


def model_cache_dir() -> Path:
    """Directory for assembled model files, shared by all stores on the machine."""
    env = os.environ.get("LEXGATE_MODEL_CACHE")
    base = Path(env) if env else Path.home() / ".cache" / "lexgate"
    base.mkdir(parents=True, exist_ok=True)
    return base
