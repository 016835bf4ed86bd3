"""Cut suspicious sentences out of a kept passage before the answer model reads it.

Why: the passage threshold (``t_injection``) drops a passage whose worst sentence is clearly an
attack; a real clause with a planted sentence that scores a little lower would otherwise reach
the answer model whole. Cutting every sentence above the lower ``t_injection_sentence`` keeps the
clause answerable while the planted sentence never reaches the prompt (defence in depth). The
cuts are returned with their offsets in the original text, so the evidence panel can show them
struck through with their score.
"""

from __future__ import annotations

from collections.abc import Sequence

from rag_core.judge.injection import SentenceScore, score_sentences
from rag_core.judge.sentences import wrapped_runs, wraps_into
from rag_core.settings import VerdictSettings
from rag_core.trace_defence import CutRecord


def _join(left: str, right: str) -> str:
    """Two pieces of text with one space between them when both sides are Latin text."""
    left, right = left.rstrip(), right.lstrip()
    if left and right and left[-1].isascii() and right[0].isascii():
        return f"{left} {right}"
    return left + right


def without(text: str, cuts: tuple[CutRecord, ...]) -> str:
    """``text`` with the spans of ``cuts`` (in order, not overlapping) taken out."""
    out, pos = "", 0
    for c in cuts:
        out = _join(out, text[pos : c.start])
        pos = c.end
    return _join(out, text[pos:])


def sentences_wrap(text: str, a: SentenceScore, b: SentenceScore) -> bool:
    """Whether two scored sentences, in either order, are one sentence wrapped over two lines (``wraps_into``)."""
    first, second = sorted((a, b), key=lambda x: x.start)
    return wraps_into(text, (first.start, first.end), (second.start, second.end))


def with_wrapped_lines(text: str, sentences: Sequence[SentenceScore], picked: set[int]) -> set[int]:
    """``picked`` (indices into ``sentences``) with every line a picked sentence wraps from or into
    (the whole ``wrapped_runs`` holding it): the attack's sentence is cut whole, not its first line."""
    runs = wrapped_runs(text, [(s.start, s.end) for s in sentences])
    return set(picked) | {i for run in runs if picked.intersection(run) for i in run}


def cut_suspicious_sentences(text: str, settings: VerdictSettings) -> tuple[str, tuple[CutRecord, ...]]:
    """``text`` without its sentences scoring above ``t_injection_sentence`` (each with the lines it wraps
    over), and the cuts made."""
    sentences = score_sentences(text)
    picked = with_wrapped_lines(
        text, sentences, {i for i, s in enumerate(sentences) if s.score > settings.t_injection_sentence}
    )
    cuts = tuple(CutRecord(s.start, s.end, s.text, s.score) for i, s in enumerate(sentences) if i in picked)
    if not cuts:
        return text, ()
    return without(text, cuts), cuts
