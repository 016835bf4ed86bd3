"""Cut suspicious sentences out of a kept passage before the answer model reads it.

Why: the passage threshold (``t_injection``) drops a passage whose worst sentence is clearly an
attack; a real clause with a planted sentence that scores a little lower would otherwise reach
the answer model whole. Cutting every sentence above the lower ``t_injection_sentence`` keeps the
clause answerable while the planted sentence never reaches the prompt (defence in depth). The
cuts are returned with their offsets in the original text, so the evidence panel can show them
struck through with their score.
"""

from __future__ import annotations

from rag_core.judge.injection import score_sentences
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


def cut_suspicious_sentences(text: str, settings: VerdictSettings) -> tuple[str, tuple[CutRecord, ...]]:
    """``text`` without its sentences scoring above ``t_injection_sentence``, and the cuts made."""
    cuts = tuple(
        CutRecord(s.start, s.end, s.text, s.score)
        for s in score_sentences(text)
        if s.score > settings.t_injection_sentence
    )
    if not cuts:
        return text, ()
    return without(text, cuts), cuts
