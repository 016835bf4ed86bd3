"""Tokenisation for the keyword leg: jieba ``cut_for_search`` tokens and CJK character bigrams.

Why both: jieba splits unknown defined terms and party names (e.g. 华昌盛科技) unpredictably, so
the document side and the query side can disagree; character bigrams match regardless. Index
and query go through the same functions, so BM25 sees the same vocabulary on both sides.
"""

from __future__ import annotations

import logging
import re
import threading
from functools import lru_cache

import jieba
import Stemmer

from rag_core.paths import model_cache_dir

_CJK = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK_RUN = re.compile(f"[{_CJK}]+")
_WORDISH = re.compile(rf"[{_CJK}]|[0-9a-z]", re.IGNORECASE)
_LATIN_WORD = re.compile(r"^[a-z]+$")
_init_lock = threading.Lock()
_ready = False
_stemmer = Stemmer.Stemmer("english")
_stem_lock = threading.Lock()

TOKENIZER_VERSION = 2
"""Bumped whenever ``tokens`` changes; knowledge bases indexed with an older version are re-tokenized."""

ENGLISH_STOPWORDS = frozenset(
    """a an the of to in on at for by with from and or as is are was were be been being this that these
    those it its which who whom what when where how why shall will may can must would should could do does
    did not no any all such other than then there their them they he she his her we our us you your i me my
    into upon under over between about after before during per each both either neither nor if so also""".split()
)
"""Dropped from English queries only: they carry no retrieval signal but cost BM25 time."""

CHINESE_STOPWORDS = frozenset(
    "的 了 是 在 和 与 及 或 等 之 其 该 此 为 对 将 被 由 于 以 而 并 中 上 下 吗 呢 吧 啊 么 什么 怎么 哪些 如何 是否 多少 请问".split()
)


def _ensure_jieba() -> None:
    """Load jieba once, keeping its dictionary cache in Lexgate's model cache rather than /tmp."""
    global _ready
    if _ready:
        return
    with _init_lock:
        if not _ready:
            jieba.setLogLevel(logging.WARNING)
            jieba.dt.tmp_dir = str(model_cache_dir())
            jieba.initialize()
            _ready = True


def add_terms(terms: list[str]) -> None:
    """Teach jieba a document's defined terms and parties so they survive as whole tokens."""
    _ensure_jieba()
    for term in terms:
        if 2 <= len(term) <= 20 and _CJK_RUN.search(term):
            jieba.add_word(term, freq=50_000)
    _cached_tokens.cache_clear()


def tokens(text: str) -> list[str]:
    """Lower-cased jieba search tokens without punctuation or whitespace; English words stemmed
    (Snowball), so "terminate", "terminated" and "termination" meet in BM25."""
    _ensure_jieba()
    out = [t for t in (w.strip().lower() for w in jieba.cut_for_search(text)) if t and _WORDISH.search(t)]
    latin = [i for i, t in enumerate(out) if _LATIN_WORD.match(t)]
    if latin:
        with _stem_lock:  # a PyStemmer object is not safe to share between threads
            stems = _stemmer.stemWords([out[i] for i in latin])
        for i, stem in zip(latin, stems, strict=True):
            out[i] = stem
    return out


@lru_cache(maxsize=4096)
def _cached_tokens(text: str) -> tuple[str, ...]:
    return tuple(tokens(text))


_STOP_STEMS = frozenset(_stemmer.stemWords(sorted(ENGLISH_STOPWORDS)))


def query_tokens(text: str) -> list[str]:
    """Query-side tokens: stopwords removed (a query of only stopwords keeps them)."""
    toks = list(_cached_tokens(text))
    kept = [
        t for t in toks if t not in _STOP_STEMS and t not in ENGLISH_STOPWORDS and t not in CHINESE_STOPWORDS
    ]
    return kept or toks


def bigrams(text: str) -> list[str]:
    """Overlapping character bigrams of every CJK run (a single character stands alone)."""
    out: list[str] = []
    for run in _CJK_RUN.findall(text):
        if len(run) == 1:
            out.append(run)
        else:
            out.extend(run[i : i + 2] for i in range(len(run) - 1))
    return out


def has_cjk(text: str) -> bool:
    return bool(_CJK_RUN.search(text))


def fts_query(terms: list[str]) -> str:
    """A full-text query string: the tokens, de-duplicated, joined by spaces (no query syntax)."""
    seen: dict[str, None] = {}
    for t in terms:
        clean = re.sub(r"[\"'():\\^~*?+\-\[\]{}!]", "", t)
        if clean:
            seen.setdefault(clean, None)
    return " ".join(seen)


_DEFINED_EN = re.compile(r"\((?:the\s+|each\s+a\s+|a\s+)?[\"“]([A-Z][A-Za-z0-9&.,' -]{1,40})[\"”]\)")
_DEFINED_ZH = re.compile(
    r"(?:以下简称|下称|简称)[为：:]?\s*[\"“「『]?([\u4e00-\u9fffA-Za-z0-9]{2,20})[\"”」』]?"
)
_PARTY_ZH = re.compile(
    r"(?:甲方|乙方|丙方|出租方|承租方|买方|卖方|委托方|受托方)[（(]?[^：:\n]{0,6}[)）]?[：:]\s*([^\n，,；;]{2,40})"
)
_BETWEEN_EN = re.compile(r"\bbetween\s+(.{3,120}?)\s+and\s+(.{3,120}?)(?:[,.;(]|\n)", re.IGNORECASE)


def defined_terms(text: str, limit: int = 60) -> list[str]:
    """Defined terms and party names of a contract (routing, jieba's user dictionary)."""
    head = text[:20_000]
    found: list[str] = []
    found += _DEFINED_EN.findall(head)
    found += _DEFINED_ZH.findall(head)
    found += [m.strip() for m in _PARTY_ZH.findall(head)]
    for a, b in _BETWEEN_EN.findall(head[:5000]):
        found += [a.strip(' ,"“”'), b.strip(' ,"“”')]
    out: dict[str, None] = {}
    for term in found:
        term = term.strip()
        if 2 <= len(term) <= 80:
            out.setdefault(term, None)
    return list(out)[:limit]
