"""Language of a document or a question: Chinese, English or mixed.

Why counting and not a model: contracts are long and clean, so the share of CJK ideographs is a
reliable, instant and offline signal; questions reuse the same counts so that documents and
questions are classified by one rule.
"""

from __future__ import annotations

import re
from typing import Literal

Language = Literal["zh", "en", "mixed"]

CJK_IDEOGRAPHS = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f"
"""CJK Unified Ideographs (+ Extension A, B–F) and Compatibility Ideographs: the 'Chinese letters'."""

ZH_MIN_SHARE = 0.6
"""Share of ideographs among letters (ideographs + Latin letters) from which a document is 'zh'.

Chinese contracts quote English names and terms; at 0.6 a text still reads as Chinese."""

EN_MAX_SHARE = 0.05
"""Share of ideographs among letters up to which a document is 'en' (a few Chinese names allowed)."""

CHINESE_MIN_SHARE = 0.5
"""Share of ideographs among (ideographs + Latin *words*) above which a question counts as Chinese.

Words, not letters, because one ideograph carries about as much as one English word: a question
such as ``合同中 Termination 条款是什么`` is Chinese, ``What is the 违约金 in the lease?`` is not."""

_CJK_RE = re.compile(f"[{CJK_IDEOGRAPHS}]")
_LATIN_RUN_RE = re.compile(r"[A-Za-z\u00c0-\u024f]+")


def count_ideographs(text: str) -> int:
    """Number of CJK ideographs in ``text``."""
    return len(_CJK_RE.findall(text))


def _latin_runs(text: str) -> list[str]:
    """Runs of Latin letters (ASCII and Latin-1/Extended-A/B), i.e. Latin words."""
    return _LATIN_RUN_RE.findall(text)


def has_cjk(text: str) -> bool:
    """Whether ``text`` contains at least one CJK ideograph (e.g. to pick a Chinese tokenizer)."""
    return _CJK_RE.search(text) is not None


def cjk_share(text: str) -> float:
    """Share of CJK ideographs among all letters (ideographs + Latin letters); 0.0 without letters."""
    if text.isascii():
        return 0.0
    ideographs = count_ideographs(text)
    letters = sum(map(len, _latin_runs(text)))
    total = ideographs + letters
    return ideographs / total if total else 0.0


def detect_language(text: str) -> Language:
    """'zh', 'en' or 'mixed' for a document, from the share of ideographs among letters.

    A text without any letters (numbers only, empty) is 'en', the model's default.
    """
    share = cjk_share(text)
    if share >= ZH_MIN_SHARE:
        return "zh"
    if share <= EN_MAX_SHARE:
        return "en"
    return "mixed"


def is_chinese(text: str) -> bool:
    """Whether a short text (a question) is mainly Chinese, so the answer should be in Chinese."""
    ideographs = count_ideographs(text)
    if not ideographs:
        return False
    words = len(_latin_runs(text))
    return ideographs / (ideographs + words) > CHINESE_MIN_SHARE
