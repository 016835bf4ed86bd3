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
from typing import Literal

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


def word_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each word of jieba's default cut, in order, covering the whole text.

    Why: a name word found as a substring may sit inside a longer word ("服务" inside "服务费");
    callers that remove or mark words need the boundaries the tokenizer sees.
    """
    _ensure_jieba()
    return [(start, end) for _word, start, end in jieba.tokenize(text)]


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


# ---------------------------------------------------------------- language of a text
# Why counting and not a model: contracts are long and clean, so the share of CJK ideographs is a
# reliable, instant and offline signal; questions reuse the same counts so that documents and
# questions are classified by one rule. Ingestion labels documents, generation picks the answer
# language, evaluation the language of generated questions.

Language = Literal["zh", "en", "mixed"]

CJK_IDEOGRAPHS = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f"
"""CJK Unified Ideographs (+ Extension A, B–F) and Compatibility Ideographs: the 'Chinese letters'."""

ASKING = re.compile(
    r"哪|谁|什么|几|多少|多久|多长|怎么|怎样|如何|为什么|为何|是否|吗|\b(?:who|which|what)\b", re.I
)
"""Question words: a run of text that holds one asks for a name ("哪家公司", "what company"), it names none.
(多久 … 为何 since session 41: "员工想辞职要提前多久通知公司？" read "…提前多久通知公司" as a company's name, routed a
follow-up by its words 提前/通知/试用期 and judged "试用期内呢？" as "内呢？".)"""

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


_SPELLINGS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"licenc"), "licens"),  # licence, licenced, licencing
    (re.compile(r"\b(def|off|pret)enc(?=e)"), r"\1ens"),  # defence, offence, pretence
    (re.compile(r"(?<=[a-z]{2})is(?=(?:e[ds]?|ing|ations?)\b)"), "iz"),  # authorise, organisation
    (re.compile(r"(?<=[a-z]{2})ys(?=(?:e[ds]?|ing)\b)"), "yz"),  # analyse
    (re.compile(r"\b(cent|met|lit|fib)re(?=s?\b)"), r"\1er"),  # centre, metre
)


def fold_spelling(low: str) -> str:
    """Lower-cased English text with British spellings turned American, letter for letter (offsets hold).

    Why: a lawyer in London, Hong Kong or Singapore writes "licence" about a contract that says
    "license"; the words did not meet, so "The licence fee is USD 100,000 a year, correct?" was not
    found to contradict "an annual license fee of USD 84,000". Applied to both sides of a comparison,
    so a word it changes needlessly ("otherwise" → "otherwize") still meets itself."""
    for rx, to in _SPELLINGS:
        low = rx.sub(to, low)
    return low


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


_PER_PERIOD: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("month", re.compile(r"(?<!第)一个月|每个?月|(?<!个)月租|按月|当月|\bmonthly\b|\b(?:per|a|each|every)\s+month\b", re.I)),
    ("quarter", re.compile(r"(?<!第)一个季度|每个?季度?|季租|按季|当季|\bquarterly\b|\b(?:per|a|each|every)\s+quarter\b", re.I)),
    ("year", re.compile(r"(?<!第)一年|每年|年租|按年|当年|\bannual(?:ly)?\b|\byearly\b|\bper\s+annum\b|\b(?:per|a|each|every)\s+year\b", re.I)),
)  # fmt: skip
"""The period an amount is per: "月租金"/"monthly" (month), "当季租金"/"quarterly" (quarter), "年租金"/"annual"
(year). Not the month of "第一个月" nor the 月租 inside "两个月租金"."""


def per_periods(text: str) -> frozenset[str]:
    """The periods ``text`` states an amount per (``_PER_PERIOD``)."""
    return frozenset(name for name, rx in _PER_PERIOD if rx.search(text))


def strip_per_periods(text: str) -> str:
    """``text`` without its per-period phrases: the 一 of "一个月" is the period, not a number it states."""
    for _, rx in _PER_PERIOD:
        text = rx.sub(" ", text)
    return text


_MARKDOWN_MARKUP_RE = re.compile(r"^ {0,3}#{1,6}[ \t]+|[ \t]+#+[ \t]*$|\*\*|__", re.MULTILINE)
"""A Markdown heading's hashes (leading, and the optional closing run) and bold markers."""


_ZH_MARKS = "，。；：、？！（）《》“”‘’"
_CJK_GAP = re.compile(f"(?<=[{_CJK}{_ZH_MARKS}])\\s+(?=[{_CJK}{_ZH_MARKS}])")


def wrap_joint(before: str, after: str) -> str:
    """What stands for an undone line wrap between text ending ``before`` and text starting ``after``: nothing between
    Chinese characters or marks, one space otherwise (the rule of ``one_line``)."""
    return "" if _CJK_GAP.match(f"{before[-1:]} {after[:1]}", 1) else " "


def one_line(text: str) -> str:
    """``text`` on one line: each whitespace run one space, and none between Chinese characters or marks.

    Why (session 39 try-out): a PDF line break inside a Chinese sentence became a space in the quoted answer
    ("剩 余的预收物业服务费", "滞纳 金"); Chinese writes no spaces, and a lawyer reads one as a misquote."""
    return _CJK_GAP.sub("", " ".join(text.split()))


def plain_markdown(text: str) -> str:
    """``text`` without Markdown heading hashes and bold markers, for the fitted judge to read.

    Why: the relevance and evidence models learnt from plain contract text; a Markdown contract's
    "## 第八条 争议解决" heading cost its dispute clause relevance 0.95 → 0.74 and the question
    "运输合同的争议由哪里的法院管辖？" was refused. What a lawyer sees and cites stays the file's text.
    """
    return _MARKDOWN_MARKUP_RE.sub("", text)


_CONTRACT_TITLE = re.compile(
    r"合同|协议|契约|协定|章程|\b(?:agreements?|contracts?|lease|licen[cs]e|deed|indenture|terms|nda)\b", re.I
)
"""A title that names a contract by its kind ("房屋租赁合同", "TERM LOAN AGREEMENT", "commercial_lease")."""


def names_a_contract(title: str) -> bool:
    """Whether a title says it is a contract (``_CONTRACT_TITLE``): what routing asks of a title before a kind
    word names it (``routing.is_contract_title``) and document scope before a Chinese word written in it
    names the document (``doc_scope.names_literally``). Here, not in routing: document scope imports it,
    and routing imports the judge."""
    return bool(_CONTRACT_TITLE.search(title))
