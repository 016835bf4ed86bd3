"""The upload handler of the Documents page: one batch of files into one knowledge base, with
per-file and batch progress reported to the page (kept apart from Streamlit so tests can call it)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rag_core.ingest.pipeline import IngestResult, ingest_files
from rag_core.models import KnowledgeBase
from rag_core.settings import Settings

STAGES: tuple[str, ...] = ("extract", "chunk", "embed", "index")
STAGE_WEIGHTS: dict[str, float] = {"extract": 0.15, "chunk": 0.05, "embed": 0.7, "index": 0.1}
"""Share of a file's progress bar each stage fills (embedding is by far the slowest)."""
TERMINAL: tuple[str, ...] = ("failed", "duplicate")
"""Stages that end a file at once: it is out of the batch (its bar full, its state shown)."""

Update = Callable[[int, str, float, float, int], None]
"""Called as (file index, stage, file fraction 0-1, batch fraction 0-1, files finished)."""


class BatchProgress:
    """Turns the pipeline's (file, stage, fraction) callbacks into per-file and batch fractions."""

    def __init__(self, names: Sequence[str], on_update: Update) -> None:
        self.names = list(names)
        self.done = [0.0] * len(self.names)
        self.over = [False] * len(self.names)  # nothing left to do for this file
        self.on_update = on_update

    def _index(self, name: str) -> int | None:
        # The first file of that name not yet complete (two files may share a name).
        for i, n in enumerate(self.names):
            if n == name and self.done[i] < 1.0:
                return i
        return self.names.index(name) if name in self.names else None

    def __call__(self, name: str, stage: str, fraction: float) -> None:
        i = self._index(name)
        if i is None or (stage not in STAGE_WEIGHTS and stage not in TERMINAL):
            return
        if stage in TERMINAL:
            self.done[i], self.over[i] = 1.0, True
            self.on_update(i, stage, 1.0, self.batch(), self.finished())
            return
        before = sum(STAGE_WEIGHTS[s] for s in STAGES[: STAGES.index(stage)])
        value = min(1.0, before + STAGE_WEIGHTS[stage] * max(0.0, min(1.0, fraction)))
        self.done[i] = max(self.done[i], value)
        # A file whose vectors are made has only the batch's shared index write left: it counts
        # as finished now, so the counter moves file by file rather than at the very end.
        self.over[i] = self.over[i] or (stage == "embed" and fraction >= 1.0) or value >= 1.0
        self.on_update(i, stage, self.done[i], self.batch(), self.finished())

    def finish(self, i: int, stage: str = "done") -> None:
        self.done[i], self.over[i] = 1.0, True
        self.on_update(i, stage, 1.0, self.batch(), self.finished())

    def finished(self) -> int:
        return sum(self.over)

    def batch(self) -> float:
        return sum(self.done) / len(self.done) if self.done else 1.0


def ingest_uploads(
    store: Any,
    kb: KnowledgeBase,
    files: Sequence[tuple[str, bytes]],
    settings: Settings,
    on_update: Update | None = None,
) -> list[IngestResult]:
    """Ingest ``files`` (name, bytes); bad files come back ``failed`` with their message, the rest go in."""
    progress = BatchProgress([name for name, _ in files], on_update or (lambda *_: None))
    results = ingest_files(store, kb, list(files), settings, progress)
    for i, r in enumerate(results):
        progress.finish(i, "done" if r.status == "ingested" else r.status)
    return results
