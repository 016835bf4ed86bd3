"""Citation markers in an answer: find them, check them against the evidence, repair, resolve.

Why this is strict: a lawyer follows a citation to the clause; a marker that points at no block
is worse than none. So numbers are checked against the blocks the model was actually shown,
unknown ones are removed (and recorded for the trace), and each valid one is resolved to the exact
source span (doc, page, clause, start, end, text).

Accepted forms: ``[1]``, ``[1][2]``, ``[1, 2]``, ``[1，2]``, ``[1、2]``, ``[1-3]``, ``[1–3]``,
``【1】``, ``［1］``, ``〔1〕``, full-width digits, and a label inside the bracket such as
``[资料1]`` or ``[Evidence 2]`` (small models echo the prompt's wording).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from rag_core.models import Citation, EvidenceBlock, Hit

MAX_CITATION_NUMBER = 99
"""Bracketed numbers above this are not citations (a year like [2024], an amount); left alone."""

_OPEN = r"[\[［【〔]"
_CLOSE = r"[\]］】〕]"
_LABEL = r"(?:参考资料|资料|来源|证据|evidence|source|block|ref\.?)\s*"
_NUM = r"[0-9０-９]+"
_LIST_SEP = r"[,，、;；]"
_RANGE_SEP = r"[-–—~～－]"
_MARKER = re.compile(
    rf"(?P<lead>[ \t]*){_OPEN}\s*(?:{_LABEL})?(?P<inner>{_NUM}(?:\s*(?:{_LIST_SEP}|{_RANGE_SEP})\s*(?:{_LABEL})?{_NUM})*)\s*{_CLOSE}",
    re.IGNORECASE,
)
_INNER_TOKEN = re.compile(rf"{_NUM}|{_RANGE_SEP}")
_RANGE_CHARS = frozenset("-–—~～－")


@dataclass
class CitationCheck:
    """Cited numbers split by whether a block with that number was shown to the model."""

    valid: list[int] = field(default_factory=list)
    invalid: list[int] = field(default_factory=list)


def _expand(inner: str) -> list[int]:
    """The numbers one marker names, ranges expanded (``1-3`` → 1, 2, 3; ``3-1`` too)."""
    numbers: list[int] = []
    pending_range = False
    for token in _INNER_TOKEN.findall(inner):
        if token in _RANGE_CHARS:
            pending_range = bool(numbers)
            continue
        value = int(token)  # int() reads full-width digits as well
        if pending_range:
            low, high = sorted((numbers[-1], value))
            numbers.extend(n for n in range(low, high + 1) if n != numbers[-1])
            pending_range = False
        else:
            numbers.append(value)
    return numbers


def _markers(text: str) -> Iterator[tuple[re.Match[str], list[int]]]:
    """Each citation marker with its numbers; markers naming a number above the cap are skipped."""
    for match in _MARKER.finditer(text):
        numbers = _expand(match.group("inner"))
        if numbers and max(numbers) <= MAX_CITATION_NUMBER:
            yield match, numbers


def _unique(numbers: Iterable[int]) -> list[int]:
    """Numbers in first-seen order without repeats."""
    return list(dict.fromkeys(numbers))


def find_citations(answer: str) -> list[int]:
    """All cited block numbers, in order of first appearance, without repeats."""
    return _unique(n for _, numbers in _markers(answer) for n in numbers)


def marker_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of the citation markers (without leading blanks), for sentence splitting."""
    return [(m.start("lead") + len(m.group("lead")), m.end()) for m, _ in _markers(text)]


def check_citations(answer: str, blocks: Sequence[EvidenceBlock]) -> CitationCheck:
    """Split cited numbers into those naming a shown block and those naming none."""
    shown = {b.n for b in blocks}
    cited = find_citations(answer)
    return CitationCheck(valid=[n for n in cited if n in shown], invalid=[n for n in cited if n not in shown])


def _gap(match: re.Match[str]) -> str:
    """What a removed marker leaves: a space only where it alone separated two words ("Term[2]and")."""
    text, start, end = match.string, match.start(), match.end()
    before = text[start - 1] if start > 0 else ""
    after = text[end] if end < len(text) else ""
    joins_words = before.isascii() and before.isalnum() and after.isascii() and after.isalnum()
    return " " if joins_words else ""


def _rewrite(match: re.Match[str], numbers: list[int], drop: set[int]) -> str:
    """A marker with ``drop`` removed: untouched, rewritten as ``[a, b]``, or gone entirely."""
    keep = _unique(n for n in numbers if n not in drop)
    if len(keep) == len(_unique(numbers)):
        return match.group(0)
    if not keep:
        return _gap(match)
    return f"{match.group('lead')}[{', '.join(str(n) for n in keep)}]"


def _substitute(text: str, drop: set[int] | None) -> str:
    """Rewrite every marker of ``text`` without the numbers in ``drop`` (``None``: all of them)."""
    out: list[str] = []
    last = 0
    for match, numbers in _markers(text):
        out.append(text[last : match.start()])
        out.append(_rewrite(match, numbers, set(numbers) if drop is None else drop))
        last = match.end()
    out.append(text[last:])
    return "".join(out)


def strip_invalid_citations(answer: str, invalid: Iterable[int]) -> str:
    """Remove the ``invalid`` numbers from every marker; a marker left empty disappears."""
    drop = set(invalid)
    return _substitute(answer, drop) if drop else answer


def remove_citation_markers(text: str) -> str:
    """Text with every citation marker removed (e.g. an earlier answer shown as history)."""
    return _substitute(text, drop=None)


def _citation_from_block(block: EvidenceBlock) -> Citation:
    """The citation record for one evidence block."""
    return Citation(
        n=block.n,
        doc=block.doc,
        page=block.page,
        clause=block.clause,
        start=block.start,
        end=block.end,
        text=block.text,
        doc_id=block.doc_id,
        chunk_id=block.chunk_id,
    )


def _citation_from_hit(n: int, hit: Hit) -> Citation:
    """The citation record for the ``n``-th hit (hits are numbered 1.. in the order shown)."""
    return Citation(
        n=n,
        doc=hit.doc,
        page=hit.page,
        clause=hit.clause,
        start=hit.start,
        end=hit.end,
        text=hit.text,
        doc_id=hit.doc_id,
        chunk_id=hit.chunk_id,
        page_end=hit.page_end,
    )


def build_citations(valid: Sequence[int], sources: Sequence[EvidenceBlock | Hit]) -> list[Citation]:
    """Resolve valid numbers to their source passages, in citation order.

    ``sources`` are the evidence blocks shown to the model, or the kept hits in the order they
    were numbered (hit i is block i+1). Numbers naming no source are skipped.
    """
    by_number: dict[int, Citation] = {}
    for i, source in enumerate(sources):
        citation = (
            _citation_from_hit(i + 1, source) if isinstance(source, Hit) else _citation_from_block(source)
        )
        by_number[citation.n] = citation
    return [by_number[n] for n in _unique(valid) if n in by_number]
