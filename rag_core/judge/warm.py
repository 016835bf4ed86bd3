"""Warm the offline judge and the query embedder in the background, before the first question.

Why: the first judging call of a process loads the tokeniser dictionary, the sentence encoder the
fitted judge reads, its weights and the injection detector (about 1.8 s on two cores, against
0.15 s for the next call); embedding the first query loads the embedder. Paid inside the first
question, they pushed its quoted answer past the 1.5 s target. The local answer model's warm-up
runs this first, in its own thread, before loading the model (so the two do not compete for the
cores); with an endpoint it runs alone. The speed benchmark does the same, so its first row is not
a cold one.
"""

from __future__ import annotations

import logging
import threading
import time

from rag_core.embeddings.registry import get_embedder
from rag_core.judge.base import PassageInput
from rag_core.judge.local_judge import LocalJudge
from rag_core.settings import Settings

log = logging.getLogger(__name__)

_SAMPLE: tuple[tuple[str, str], ...] = (
    ("租金是多少？", "第三条 租金\n每月租金为人民币9500元，乙方应于每月5日前支付。"),
    (
        "What is the term?",
        "2. Term. This Agreement remains in force for three (3) years from the Effective Date.",
    ),
)
"""One question and clause per language: both tokenisers and every judge model are exercised."""

_started: set[tuple[str, str]] = set()
_lock = threading.Lock()


def warm_judging(settings: Settings) -> float:
    """Judge the sample clauses and embed their questions once; seconds taken (errors are logged,
    never raised: the first question will load whatever failed here and report it then)."""
    t0 = time.perf_counter()
    try:
        judge = LocalJudge(settings.verdict)
        for question, clause in _SAMPLE:
            judge.judge(question, [PassageInput(id="warm", text=clause, rank=1)])
        embedder = get_embedder(settings.embedding.backend, settings.embedding.model, settings)
        embedder.embed_queries([q for q, _ in _SAMPLE])
    except Exception:  # a warm-up must never break the app; the real call reports the cause
        log.warning("judge warm-up failed", exc_info=True)
    return round(time.perf_counter() - t0, 2)


def warm_judging_once(settings: Settings) -> bool:
    """``warm_judging`` unless this process already did (or is doing) it for this embedder."""
    key = (settings.embedding.backend, settings.embedding.model)
    with _lock:
        if key in _started:
            return False
        _started.add(key)
    warm_judging(settings)
    return True


def start_judging_warmup(settings: Settings) -> threading.Thread:
    """``warm_judging_once`` in a daemon thread (when no local answer model warm-up will run it)."""
    thread = threading.Thread(
        target=warm_judging_once, args=(settings,), name="lexgate-judge-warmup", daemon=True
    )
    thread.start()
    return thread
