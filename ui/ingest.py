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

Update = Callable[[int, str, float, float, int], None]
"""Called as (file index, stage, file fraction 0-1, batch fraction 0-1, files finished)."""


class BatchProgress:
    """Turns the pipeline's (file, stage, fraction) callbacks into per-file and batch fractions."""

    def __init__(self, names: Sequence[str], on_update: Update) -> None:
        self.names = list(names)
        self.done = [0.0] * len(self.names)
        self.on_update = on_update

    def _index(self, name: str) -> int | None:
        # The first file of that name not yet complete (two files may share a name).
        for i, n in enumerate(self.names):
            if n == name and self.done[i] < 1.0:
                return i
        return self.names.index(name) if name in self.names else None

    def __call__(self, name: str, stage: str, fraction: float) -> None:
        i = self._index(name)
        if i is None or stage not in STAGE_WEIGHTS:
            return
        before = sum(STAGE_WEIGHTS[s] for s in STAGES[: STAGES.index(stage)])
        value = min(1.0, before + STAGE_WEIGHTS[stage] * max(0.0, min(1.0, fraction)))
        self.done[i] = max(self.done[i], value)
        self.on_update(i, stage, self.done[i], self.batch(), self.finished())

    def finish(self, i: int) -> None:
        self.done[i] = 1.0
        self.on_update(i, "done", 1.0, self.batch(), self.finished())

    def finished(self) -> int:
        return sum(1 for d in self.done if d >= 1.0)

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
    for i in range(len(files)):
        progress.finish(i)
    return results
