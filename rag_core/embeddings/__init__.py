"""Embedding backends behind one ``Embedder`` interface; use ``get_embedder`` / ``describe``."""

from rag_core.compute import LOCAL_COMPUTE_LOCK
from rag_core.embeddings.base import Embedder, l2_normalize
from rag_core.embeddings.registry import BACKENDS, clear_cache, describe, get_embedder

__all__ = [
    "BACKENDS",
    "LOCAL_COMPUTE_LOCK",
    "Embedder",
    "clear_cache",
    "describe",
    "get_embedder",
    "l2_normalize",
]
