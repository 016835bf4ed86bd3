"""The background warm-up loads the judge's models and the query embedder before the first question."""

from __future__ import annotations

from rag_core.embeddings import registry
from rag_core.judge import warm
from rag_core.judge.fitted import load_weights
from rag_core.judge.injection_model import default_detector
from rag_core.settings import Settings


def test_warm_judging_loads_the_judge_and_the_embedder_once() -> None:
    s = Settings()
    load_weights.cache_clear()
    default_detector.cache_clear()
    registry.clear_cache()
    warm._started.discard((s.embedding.backend, s.embedding.model))
    assert warm.warm_judging_once(s) is True
    assert load_weights.cache_info().currsize == 1 and default_detector.cache_info().currsize == 1
    key = registry._key(s.embedding.backend, s.embedding.model, s)
    assert key in registry._cache, "the query embedder is loaded"
    assert warm.warm_judging_once(s) is False, "a second call does nothing"


def test_warm_judging_never_raises() -> None:
    """A broken embedder setting is logged; the first question will report it."""
    s = Settings()
    s.embedding.model = "no-such-model-dir"
    s.embedding.backend = "sentence-transformers"
    assert warm.warm_judging(s) >= 0.0
