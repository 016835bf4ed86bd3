"""The sentences of a cited passage that the answer rests on, as exact offsets in the document.

Why: a citation that highlights a whole parent passage (第二条 to 第五条 for a deposit question)
makes the lawyer hunt for the sentence that matters. Each answer sentence citing ``[n]`` is
matched to the sentence of passage ``n`` that states most of its words (CJK character bigrams,
Latin word stems, numbers); those passage sentences are what the viewer highlights and what the
page image marks. When no passage sentence holds enough of a cited sentence, nothing is claimed:
the viewer then marks the retrieved span instead.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from rag_core.generation.citations import find_citations, remove_citation_markers
from rag_core.ingest.extract import table_headers
from rag_core.judge.values import extract_values
from rag_core.reflection.support import content_tokens, overlap_share, split_sentences
from rag_core.textproc import bigrams, has_cjk, tokens

_SENTENCE_END = re.compile(r"[。！？；]+|[!?;.]+(?=\s|$)|\n+")
"""Chinese terminators end a sentence anywhere; ASCII ones only before a space or the end (so a
URL's ``?id=1`` or a clause number's ``7.2`` stays inside its sentence)."""
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*%?")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of ``text``, ending after 。！？；!?; or a full stop, or at
    a line break; blank sentences are dropped and each span is trimmed of surrounding spaces."""
    out: list[tuple[int, int]] = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        end = m.start() if m.group().startswith("\n") else m.end()
        out.append((start, end))
        start = m.end()
    out.append((start, len(text)))
    trimmed = []
    for a, b in out:
        piece = text[a:b]
        lead = len(piece) - len(piece.lstrip())
        tail = len(piece.rstrip())
        if tail > lead:
            trimmed.append((a + lead, a + tail))
    return trimmed


def grams(text: str) -> set[str]:
    """What a sentence states, comparably across answer and passage: CJK bigrams, Latin
    word stems of three letters or more, and numbers."""
    bare = remove_citation_markers(text)
    latin = {t for t in tokens(bare) if t.isascii() and t.isalpha() and len(t) >= 3}
    return set(bigrams(bare)) | latin | set(_NUMBER.findall(bare))


VALUE_KINDS: frozenset[str] = frozenset({"amount", "percent", "date", "year", "period"})
"""Kinds of value that ``translated_share`` matches across languages ("五年" and "five (5) years")."""


@lru_cache(maxsize=256)
def _claim_side(claim: str) -> tuple[frozenset[str], frozenset[tuple[object, ...]]]:
    """A citing sentence's content words and value keys, read once for all the passage sentences it
    is held against."""
    bare = remove_citation_markers(claim)
    return frozenset(content_tokens(bare)), frozenset(
        v.key for v in extract_values(bare) if v.kind in VALUE_KINDS
    )


def translated_share(claim: str, sentence: str) -> float:
    """Share of a claim's content words found in a sentence of the other language, themselves or
    translated (the support check's ``overlap_share``), its values (amounts, dates, periods) counted
    as words.

    Why: a Chinese answer on an English clause ("保密义务持续五年 [1]" on "5.2 The obligations of this
    Section 5 continue … for five (5) years") shares no character bigram with it, so the citation marked
    the retrieved span and said it could not find the sentence the answer rests on; the value decides
    between two sentences that each hold two translated words."""
    words, mine = _claim_side(claim)
    have = content_tokens(sentence)
    theirs = {v.key for v in extract_values(sentence) if v.kind in VALUE_KINDS}
    total = len(words) + len(mine)
    if not total:
        return 0.0
    return (overlap_share(words, have, sentence) * len(words) + len(mine & theirs)) / total


def citing_sentences(answer: str, n: int) -> list[str]:
    """The sentences of ``answer`` that cite ``[n]`` (a marker after the full stop stays with its
    sentence, as the support check reads them)."""
    return [s for s in split_sentences(answer) if n in find_citations(s)]


def resting_spans(answer: str, n: int, passage: str, offset: int, min_share: float) -> list[tuple[int, int]]:
    """Document offsets of the passage sentences the answer's ``[n]`` sentences rest on.

    ``passage`` is the cited text and ``offset`` where it starts in the document. For each citing
    sentence the passage sentence holding the largest share of its grams is taken when that share
    is at least ``min_share`` (across languages, the translated share when higher:
    ``translated_share``); the spans are returned in document order, without repeats.
    """
    sentences = sentence_spans(passage)
    headers = row_headers(passage, sentences)
    found: set[tuple[int, int]] = set()
    for claim in citing_sentences(answer, n):
        want = grams(claim)
        if not want:
            continue
        best: tuple[float, tuple[int, int]] | None = None
        chinese = has_cjk(claim)
        for a, b in sentences:
            head = headers.get((a, b))
            read = grams(passage[a:b]) | (grams(passage[head[0] : head[1]]) if head else set())
            share = len(want & read) / len(want)
            if chinese != has_cjk(passage[a:b]):  # a Chinese answer on an English clause, or back
                share = max(share, translated_share(claim, passage[a:b]))
            if best is None or share > best[0]:
                best = (share, (a, b))
        if best is not None and best[0] >= min_share:
            found.add(best[1])
            if best[1] in headers:
                found.add(headers[best[1]])
    return sorted((offset + a, offset + b) for a, b in found)


def row_headers(passage: str, sentences: Sequence[tuple[int, int]]) -> dict[tuple[int, int], tuple[int, int]]:
    """Each table row's header row (``extract.table_headers``), by span.

    Why: "商铺的物业费是6.0元/平方米·月 [1]" highlighted the fee table's header ("物业类型 | 收费标准（元/平方米·月）",
    which holds the unit) and not the row "商铺 | 6.0" it rests on (browser, session 33): a row is read with its
    header, as the quoted answer reads it (``quoted.block_sentences``), and highlighted with it."""
    heads = table_headers([passage[a:b] for a, b in sentences])
    return {span: sentences[h] for span, h in zip(sentences, heads, strict=True) if h >= 0}


def clip(spans: Sequence[tuple[int, int]], start: int, end: int) -> list[tuple[int, int]]:
    """``spans`` cut to the range [start, end), empty pieces dropped."""
    return [(max(a, start), min(b, end)) for a, b in spans if min(b, end) > max(a, start)]


def resting_clauses(text: str, label: str, offset: int, marks: Sequence[tuple[int, int]]) -> str:
    """The clause path of the cited passage's sentences in ``marks`` (document offsets; the passage
    starts at ``offset``), each clause once in reading order; ``label`` when there are none.

    Why: a parent passage grown from several kept clauses is cited as "第三条 租金及支付方式; 第四条
    押金; 第七条 违约责任" though the answer rests on one sentence of 第三条 (browser try-out); the
    citation names the clause its highlighted sentences sit in."""
    from rag_core.chunking import clause_within

    found = [clause_within(text, label, a - offset) for a, _ in sorted(marks)]
    return "; ".join(dict.fromkeys(c for c in found if c)) or label
