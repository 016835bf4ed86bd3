"""Output guard: remove answer sentences that carry what an injection wanted in the answer.

Why after generation: cutting and spotlighting keep planted text away from the answer model,
but a sentence that slips through still has two tell-tale shapes. Either it rests only on a
sentence the defence cut (or would have cut), or it carries a contact point the lawyer's
evidence does not hold: a link, an e-mail address, a phone number, an image; or it repeats a name,
quoted string or number that only a cut sentence holds. An attacker's goal
is nearly always one of these (a fixed claim, or a way to reach the user), while a faithful
answer only repeats what the kept evidence says. Each removed sentence is recorded in the trace
with a stable code.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rag_core.generation.prompt import EvidenceBlock
from rag_core.judge.sentences import split_sentences
from rag_core.reflection.support import content_tokens, is_connective
from rag_core.settings import ReflectionSettings
from rag_core.trace_defence import GuardRecord

_URL = re.compile(r"(?:https?://|www\.)[^\s)\]>\"'，。；、]+", re.IGNORECASE)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)|<\s*img\b[^>]*>", re.IGNORECASE)
_PHONE = re.compile(r"(?<![\w.])\+?\d[\d ()-]{6,}\d(?![\w.])")
PHONE_MIN_DIGITS: int = 7
"""Digits a number needs to count as a phone number (shorter runs are amounts, dates, sections)."""

CJK_ITEM_CHARS: int = 4
"""Length of the Chinese character runs compared with the cut sentences (a word pair, roughly)."""

CJK_ITEMS_MIN: int = 2
"""Runs of an answer sentence found only in cut sentences that mark it as carrying the attack's goal."""

# A name ("Atlantis", "Freedonia"), a quoted string or a number an answer sentence may carry.
_ITEM = re.compile(r"[\"“「]([^\"”」]{2,60})[\"”」]|\b([A-Z][a-z]{2,}(?:\s+[A-Z][a-z]{2,})*)\b|(\d[\d,.]*\d)")
_CJK_RUN = re.compile(r"[\u4e00-\u9fff]+")


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text)


def _foreign_items(sentence: str, evidence: str) -> list[tuple[str, str]]:
    """(code, item) for each link, e-mail, image or phone number of ``sentence`` absent from ``evidence``."""
    low = evidence.lower()
    digits = _digits(evidence)
    found: list[tuple[str, str]] = []
    for m in _IMAGE.finditer(sentence):
        found.append(("guard_image", m.group(0)))
    for m in _URL.finditer(sentence):
        url = m.group(0).rstrip(".,;:!?")
        if url.lower() not in low:
            found.append(("guard_url", url))
    for m in _EMAIL.finditer(sentence):
        if m.group(0).lower() not in low:
            found.append(("guard_email", m.group(0)))
    for m in _PHONE.finditer(sentence):
        d = _digits(m.group(0))
        if len(d) >= PHONE_MIN_DIGITS and d not in digits:
            found.append(("guard_phone", m.group(0)))
    return found


def _share(tokens: set[str], other: set[str]) -> float:
    """Share of ``tokens`` that also occur in ``other``."""
    return len(tokens & other) / len(tokens) if tokens else 0.0


def rests_on_cut(sentence: str, kept: Sequence[str], cut: Sequence[str], rs: ReflectionSettings) -> str:
    """The cut sentence that ``sentence`` rests on when the kept evidence does not support it, else "".

    A lead-in or connective line ("Quoted from the contract:") states nothing to rest on: the quoted
    answer lost its lead line whenever the cut attack said "contract"."""
    tokens = content_tokens(sentence)
    if not tokens or not cut or is_connective(sentence):
        return ""
    best_cut = max(cut, key=lambda c: _share(tokens, content_tokens(c)))
    if _share(tokens, content_tokens(best_cut)) < rs.support_partial:
        return ""
    kept_share = max((_share(tokens, content_tokens(k)) for k in kept), default=0.0)
    return best_cut if kept_share < _share(tokens, content_tokens(best_cut)) else ""


def cut_item(sentence: str, evidence: str, cut: Sequence[str]) -> str:
    """A name, quoted string or number of ``sentence`` that only a cut sentence holds, or "".

    Why: the attacker's goal ("the laws of Atlantis", "本协议无需支付任何价款") sits in the sentence
    the defence cut; an answer that repeats it got it from there, however the rest is worded.
    Chinese has no capitals, so there it is two runs of ``CJK_ITEM_CHARS`` characters found in a
    cut sentence and nowhere in the kept evidence.
    """
    if not cut:
        return ""
    low, cut_low = evidence.lower(), [c.lower() for c in cut]
    for m in _ITEM.finditer(sentence):
        item = next(g for g in m.groups() if g).lower()
        if item not in low and any(item in c for c in cut_low):
            return m.group(0)
    n = CJK_ITEM_CHARS
    runs = {r[i : i + n] for r in _CJK_RUN.findall(sentence) for i in range(len(r) - n + 1)}
    only_cut = sorted(g for g in runs if g not in evidence and any(g in c for c in cut))
    return "".join(only_cut[:CJK_ITEMS_MIN]) if len(only_cut) >= CJK_ITEMS_MIN else ""


def guard_answer(
    answer: str, blocks: Sequence[EvidenceBlock], cut: Sequence[str], rs: ReflectionSettings
) -> tuple[str, tuple[GuardRecord, ...]]:
    """``answer`` without its guarded sentences, and a record of each removal.

    ``blocks`` are the kept evidence as the answer model read it (cuts already removed); ``cut``
    are the sentences the defence removed from them.
    """
    evidence = "\n".join(b.text for b in blocks)
    kept = [b.text for b in blocks]
    removed: list[GuardRecord] = []
    out = answer
    for sentence in split_sentences(answer):
        items = _foreign_items(sentence, evidence)
        if items:
            code, item = items[0]
            removed.append(GuardRecord(sentence, code, item))
        elif source := rests_on_cut(sentence, kept, cut, rs):
            removed.append(GuardRecord(sentence, "guard_cut_support", source))
        elif item := cut_item(sentence, evidence, cut):
            removed.append(GuardRecord(sentence, "guard_cut_item", item))
        else:
            continue
        out = out.replace(sentence, "", 1)
    if not removed:
        return answer, ()
    cleaned = "\n".join(line.rstrip() for line in out.splitlines() if line.strip())
    return cleaned.strip(), tuple(removed)
