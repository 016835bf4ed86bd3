"""Chunking of extracted text into clause-aware plain or parent/child chunks with exact offsets.

Why offsets only: every chunk must satisfy ``doc_text[chunk.start:chunk.end] == chunk.text``
(citations and external evaluators rely on it). So nothing here builds text by concatenation:
functions move integer offsets over the document text and slice it once at the end. Trimming of
whitespace moves offsets too.

Design:

* **Recursive splitter** (``split_range``): a piece ends at the last separator of the highest
  priority (``SEPARATORS``) found in the back part of the size window, keeping the separator at
  the end of the piece; without any separator it is cut hard at the size. That gives the result
  of the classic recursive splitter in one left-to-right pass (each step searches one window
  with ``str.rfind``: linear time). The next piece starts ``overlap`` characters before the
  previous end, snapped forward to a separator boundary when one is near.
* **Clause blocks** (``clause_blocks``): lines that start a clause (第十二条, 第三章, Article V,
  Section 7.2, 7.2.1, 12.) cut the text into blocks with a heading path such as
  ``第三章 违约责任 > 第六条 违约金``; DOCX/MD section anchors cut it too.
* **Clause-aware chunks**: one block per chunk when it fits; a block holding only its heading
  is glued to the next block; consecutive tiny blocks (< ``tiny_clause_chars``)
  of the same parent are merged (the first one's path is kept); long blocks are split inside.
* **Parent/child**: parents (``parent_size``) are what the answer model reads; children
  (``child_size``) are cut inside each parent with the same rules and are what gets indexed.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass, replace
from typing import Literal

from rag_core.models import Chunk, PageSpan
from rag_core.settings import ChunkingSettings

SEPARATORS: tuple[str, ...] = ("\n\n", "\n", "。", "；", "，", ". ", " ")
"""Split points in priority order: paragraph, line, Chinese sentence/clause/comma, English sentence, word."""

MIN_FILL = 0.5
"""A separator is only used as a cut if the piece is at least this share of the size, so that a
high-priority separator near the start does not leave a crumb."""

OVERLAP_SNAP_FRACTION = 0.5
"""The overlap start may move forward by up to this share of the overlap to reach a separator."""

MAX_OVERLAP_FRACTION = 0.4
"""Overlap is capped at this share of the size: more would index most text twice. Kept below
``MIN_FILL`` so every step advances by at least a tenth of the size (no quadratic crawl)."""

CHUNKER_VERSION = 6
"""Bumped whenever chunk boundaries change, so cached benchmark indexes are rebuilt."""

CLAUSE_LABEL_MAX_CHARS = 60
"""A clause heading in a path is cut to this length (a heading line may run into the clause body)."""

WRAP_MIN_LINE_CHARS = 50
"""A line at least this long that ends mid-sentence was wrapped by the PDF layout, so a Latin
'heading' on the next line (``Section 7.2 hereof …``) is a continuation, not a clause start."""

TITLE_LINE_MAX_GAP = 2
"""A bare heading (``ARTICLE II``) takes its title from the next line if at most this many line
breaks (one blank line) separate them."""

HEADER_TITLE_MAX_CHARS = 80
"""Document titles in the embedding header are cut to this length."""

PATH_SEPARATOR = " > "
RANGE_SEPARATOR = " – "
"""Between the first and last clause of a chunk that covers several (``range_path``)."""

ChunkKind = Literal["plain", "child", "parent"]

# -------------------------------------------------------------------------------------------
# Safe cut points
# -------------------------------------------------------------------------------------------

_JOINERS = frozenset("\u200d\u034f")  # zero-width joiner, combining grapheme joiner
_MARK_CATEGORIES = frozenset({"Mn", "Mc", "Me"})


def _attaches_to_previous(ch: str) -> bool:
    """Whether ``ch`` belongs to the character before it (combining mark, variation selector, …)."""
    code = ord(ch)
    if 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF or 0x1F3FB <= code <= 0x1F3FF:
        return True  # variation selectors, emoji skin-tone modifiers
    return ch in _JOINERS or unicodedata.category(ch) in _MARK_CATEGORIES


def is_safe_boundary(text: str, i: int) -> bool:
    """Whether a cut between ``text[i-1]`` and ``text[i]`` keeps user-visible characters whole.

    Python strings index code points, so a cut never splits UTF-8 bytes; what it can split is a
    ``\\r\\n`` pair, a base character and its combining marks / variation selector, a ZWJ emoji
    sequence, or a surrogate pair that leaked into the text (from ``surrogateescape`` decoding).
    """
    if i <= 0 or i >= len(text):
        return True
    before, after = text[i - 1], text[i]
    if before == "\r" and after == "\n":
        return False
    if before in _JOINERS:
        return False
    if "\ud800" <= before <= "\udbff" and "\udc00" <= after <= "\udfff":
        return False
    return after.isascii() or not _attaches_to_previous(after)


def safe_cut(text: str, i: int, lo: int, hi: int) -> int:
    """The nearest safe boundary at or before ``i`` (not below ``lo``), else the next one (≤ ``hi``)."""
    j = i
    while j > lo and not is_safe_boundary(text, j):
        j -= 1
    if j > lo or is_safe_boundary(text, j):
        return j
    j = i
    while j < hi and not is_safe_boundary(text, j):
        j += 1
    return j


def trim(text: str, start: int, end: int) -> tuple[int, int]:
    """``[start, end)`` without leading/trailing whitespace, by moving offsets (text untouched).

    If the first kept character is a mark attached to a trimmed space, the space is kept too.
    """
    lo, hi = start, end
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start < end and not is_safe_boundary(text, start):
        start = safe_cut(text, start, lo, end)
    while end < hi and not is_safe_boundary(text, end):
        end += 1
    return start, end


_NON_SPACE = re.compile(r"\S")


def has_text(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` holds any non-whitespace character."""
    return _NON_SPACE.search(text, start, end) is not None


# -------------------------------------------------------------------------------------------
# Recursive splitter
# -------------------------------------------------------------------------------------------


def find_cut(text: str, pos: int, hi: int, size: int) -> int:
    """End of the piece that starts at ``pos``: the best separator in the window, else a hard cut."""
    if hi - pos <= size:
        return hi
    window_end = pos + size
    min_end = pos + max(1, int(size * MIN_FILL))
    for sep in SEPARATORS:
        i = text.rfind(sep, max(pos, min_end - len(sep)), window_end)
        if i >= 0:
            cut = i + len(sep)
            if is_safe_boundary(text, cut):
                return cut
    cut = safe_cut(text, window_end, pos + 1, hi)
    return cut if cut > pos else window_end


def next_start(text: str, prev_start: int, cut: int, overlap: int) -> int:
    """Start of the next piece: ``overlap`` before ``cut``, snapped forward to a separator if near."""
    if overlap <= 0:
        return cut
    lo = max(prev_start + 1, cut - overlap)
    hi = min(lo + int(overlap * OVERLAP_SNAP_FRACTION), cut - 1)
    for sep in SEPARATORS:
        i = text.find(sep, max(prev_start, lo - len(sep)), hi)
        if i >= 0 and is_safe_boundary(text, i + len(sep)):
            return i + len(sep)
    return safe_cut(text, lo, prev_start + 1, cut)


def split_range(text: str, lo: int, hi: int, size: int, overlap: int) -> list[tuple[int, int]]:
    """Pieces ``[start, end)`` of ``text[lo:hi]``: each ≤ ``size``, trimmed, overlapping by ~``overlap``.

    Every non-whitespace character of the range lies in at least one piece.
    """
    overlap = min(overlap, int(size * MAX_OVERLAP_FRACTION))
    pieces: list[tuple[int, int]] = []
    pos = lo
    while pos < hi:
        cut = find_cut(text, pos, hi, size)
        start, end = trim(text, pos, cut)
        if end > start:
            pieces.append((start, end))
        if cut >= hi or not has_text(text, cut, hi):
            break
        # overlap, starting after this piece's first character so that pieces always advance;
        # after a window of whitespace only there is nothing to overlap with
        pos = max(next_start(text, start, cut, overlap), pos + 1) if end > start else cut
    return pieces


# -------------------------------------------------------------------------------------------
# Clause headings and blocks
# -------------------------------------------------------------------------------------------

_ZH_NUMERAL = "一二三四五六七八九十百千零〇两0-9０-９"
_CLAUSE_RE = re.compile(
    rf"""
    ^[ \t\u3000]*(?:\#{{1,6}}[ \t]+)?(?:\*\*)?
    (?P<num>
        第[{_ZH_NUMERAL}]{{1,8}}(?P<zh>[编章节条])(?=[ \t\u3000：:、]|\r?$)
      | (?P<art>ARTICLE|Article|CHAPTER|Chapter)[ \t]+(?:[IVXLC]{{1,7}}|[0-9]{{1,3}})\b\.?
      | (?:SECTION|Section)[ \t]+(?P<sec>[0-9]{{1,3}}(?:\.[0-9]{{1,3}}){{0,4}})\b\.?
      | (?P<dotted>[0-9]{{1,3}}(?:\.[0-9]{{1,3}}){{1,4}})\.?(?=[ \t\u3000]+[A-Z"“(\u4e00-\u9fff])
      | (?P<single>[0-9]{{1,3}})[.、](?=[ \t\u3000]*[A-Z"“\u4e00-\u9fff])
      | (?P<zhnum>[一二三四五六七八九十]{{1,3}})、
    )
    """,
    re.MULTILINE | re.VERBOSE,
)
"""A line that starts a clause. ``(a)`` items are deliberately not clauses."""

_ZH_LEVELS = {"编": 0, "章": 1, "节": 2, "条": 3}
ARTICLE_LEVEL = 1
SECTION_BASE_LEVEL = 3  # Section 7 → 4, Section 7.2 → 5
ZH_ENUM_LEVEL = 4  # 一、 items: below 第X条, above 1. items
NUMBERED_BASE_LEVEL = 4  # 7. → 5, 7.2 → 6, 7.2.1 → 7
"""Heading levels: smaller is higher. Numbered items sit below Sections/条 so that
``Section 7 > 7.2`` and ``第一条 > 1.1`` nest, and below each other by depth."""

_LABEL_END_RE = re.compile(r"。|；|：|:|;|，|\.\s|\.$")
_LABEL_LEAD = " \t\u3000.:：、*"
_SENTENCE_END = frozenset(".。;；:：!?！？)）\"”'’")


def heading_level(match: re.Match[str]) -> int:
    """Hierarchy level of a clause heading (smaller = higher)."""
    if match.group("zh"):
        return _ZH_LEVELS[match.group("zh")]
    if match.group("art"):
        return ARTICLE_LEVEL
    if match.group("sec"):
        return SECTION_BASE_LEVEL + match.group("sec").count(".") + 1
    if match.group("zhnum"):
        return ZH_ENUM_LEVEL
    number = match.group("dotted") or match.group("single")
    return NUMBERED_BASE_LEVEL + number.count(".") + 1


def heading_label(text: str, match: re.Match[str], line_end: int) -> str:
    """The clause's name for paths: its number plus the heading text up to the first sentence end.

    A bare number line (``ARTICLE V`` with the title on the next line) takes the next line as its
    title when that line is short, not a sentence and not a heading itself.
    """
    number = match.group("num").strip()
    rest = text[match.end() : line_end].strip().lstrip(_LABEL_LEAD).replace("**", "")
    if not rest:
        rest = _title_line_after(text, line_end)
    cut = _LABEL_END_RE.search(rest)
    if cut:
        rest = rest[: cut.start()]
    label = f"{number} {rest.strip()}".strip()
    return label[:CLAUSE_LABEL_MAX_CHARS].rstrip()


def _title_line_after(text: str, line_end: int) -> str:
    """The next non-blank line (at most one blank line away) if it reads like a heading title."""
    found = _NON_SPACE.search(text, line_end)
    if found is None or text.count("\n", line_end, found.start()) > TITLE_LINE_MAX_GAP:
        return ""
    start = text.rfind("\n", line_end, found.start()) + 1
    end = text.find("\n", start)
    line = text[start : len(text) if end < 0 else end].strip()
    if not line or len(line) > CLAUSE_LABEL_MAX_CHARS or line[-1] in _SENTENCE_END:
        return ""
    return "" if _CLAUSE_RE.match(text, start) else line


def continues_wrapped_line(text: str, line_start: int) -> bool:
    """Whether the line at ``line_start`` continues a long previous line that stopped mid-sentence."""
    if line_start == 0:
        return False
    prev_start = text.rfind("\n", 0, line_start - 1) + 1
    prev = text[prev_start : line_start - 1].rstrip()
    return len(prev) >= WRAP_MIN_LINE_CHARS and prev[-1] not in _SENTENCE_END


@dataclass(frozen=True)
class Heading:
    """A clause heading found in the text."""

    start: int  # start of its line
    line_end: int
    level: int
    label: str


def find_headings(text: str) -> list[Heading]:
    """All clause headings of ``text`` in order (regex over the whole text: linear, in C)."""
    headings: list[Heading] = []
    for match in _CLAUSE_RE.finditer(text):
        latin = not (match.group("zh") or match.group("zhnum"))
        if latin and continues_wrapped_line(text, match.start()):
            continue
        line_end = text.find("\n", match.end())
        line_end = len(text) if line_end < 0 else line_end
        headings.append(
            Heading(match.start(), line_end, heading_level(match), heading_label(text, match, line_end))
        )
    return headings


@dataclass(frozen=True)
class ClauseBlock:
    """A clause (or the preamble) of the text: ``[start, end)`` with its heading path."""

    start: int
    end: int
    path: str
    parent: str  # path of the enclosing clause; "" at top level
    body_start: int  # end of the heading line (== start for text without a heading)

    @property
    def size(self) -> int:
        return self.end - self.start


def parent_path(path: str) -> str:
    """``a > b > c`` → ``a > b``; top level → ""."""
    cut = path.rfind(PATH_SEPARATOR)
    return path[:cut] if cut >= 0 else ""


def clause_blocks(text: str, spans: list[PageSpan]) -> list[ClauseBlock]:
    """Cut ``text`` into contiguous clause blocks covering it completely.

    Boundaries are clause headings and section anchors (DOCX/MD spans with an ``anchor``). An
    anchor is the author's explicit structure, so at an anchor the path restarts from it and
    headings found inside the section nest below it.
    """
    anchors = {span.start: span.anchor for span in spans if span.anchor and 0 <= span.start < len(text)}
    headings = {h.start: h for h in find_headings(text)}
    positions = sorted(anchors.keys() | headings.keys())
    bounds: list[tuple[int, str, str, int]] = []  # (start, path, parent, body_start)
    base = ""
    stack: list[tuple[int, str]] = []
    for pos in positions:
        heading = headings.get(pos)
        if pos in anchors:
            base, stack = anchors[pos], []
            path, parent = base, parent_path(base)
            line_end = text.find("\n", pos)
            body_start = len(text) if line_end < 0 else line_end
        else:
            assert heading is not None
            while stack and stack[-1][0] >= heading.level:
                stack.pop()
            parent = PATH_SEPARATOR.join([p for p in (base, *(label for _, label in stack)) if p])
            stack.append((heading.level, heading.label))
            path = f"{parent}{PATH_SEPARATOR}{heading.label}" if parent else heading.label
            body_start = heading.line_end
        bounds.append((pos, path, parent, body_start))
    if not bounds or bounds[0][0] > 0:
        bounds.insert(0, (0, "", "", 0))
    blocks: list[ClauseBlock] = []
    for i, (start, path, parent, body_start) in enumerate(bounds):
        end = bounds[i + 1][0] if i + 1 < len(bounds) else len(text)
        if end > start:
            blocks.append(ClauseBlock(start, end, path, parent, min(body_start, end)))
    return blocks


def clip_blocks(blocks: list[ClauseBlock], starts: list[int], lo: int, hi: int) -> list[ClauseBlock]:
    """The blocks overlapping ``[lo, hi)``, clipped to it (``starts`` = block starts, for bisect)."""
    first = max(bisect_right(starts, lo) - 1, 0)
    out: list[ClauseBlock] = []
    for block in blocks[first:]:
        if block.start >= hi:
            break
        start, end = max(block.start, lo), min(block.end, hi)
        if end > start:
            out.append(
                replace(block, start=start, end=end, body_start=min(max(block.body_start, start), end))
            )
    return out


def range_path(text: str, group: list[ClauseBlock]) -> str:
    """The clause path of a chunk covering ``group``: one clause's path, or ``first – last label``.

    Why a range: a chunk holding clauses 8 to 12 labelled only "8. Notice" would make a citation of
    clause 12 point at clause 8.
    """
    paths = [b.path for b in group if b.path and not is_heading_only(text, b)] or [
        b.path for b in group if b.path
    ]
    if not paths:
        return ""
    first, last = paths[0], paths[-1]
    if first == last:
        return first
    return f"{first}{RANGE_SEPARATOR}{last.rsplit(PATH_SEPARATOR, 1)[-1]}"


def clause_within(text: str, label: str, pos: int) -> str:
    """The clause holding offset ``pos`` of a passage, by the passage's own headings when it holds
    several clauses; else (or in text before its first heading) the passage's ``label`` — none when that
    label starts with the first heading's path (the text before it is a preamble, not that clause).

    Why: a parent passage of a short contract covers every clause, so a sentence quoted from its
    article 3 was cited as "第一条 服务内容 – 第八条 争议解决"; a lawyer needs the article it sits in.
    """
    blocks = [b for b in clause_blocks(text, []) if b.path]
    if len(blocks) < 2:
        return label
    if pos >= blocks[0].start:
        return clause_at(blocks, [b.start for b in blocks], pos)
    # before the first heading: the passage's label names that heading when the passage opens with a
    # preamble, not a clause carried over from the previous passage ("This Agreement is entered into by
    # and between …" was cited as "1. DEFINITIONS > 1.1 …")
    return "" if label.startswith(blocks[0].path) else label


HEADING_ONLY_MAX_CHARS = 80
"""A block is a bare heading only if its heading line is at most this long (one-line clauses such as
``3. Signage. The Company shall …`` carry their whole text on the heading line)."""

SENTENCE_END_CHARS: frozenset[str] = frozenset(".。;；:：!?！？")
"""Characters that close a sentence: a line ending in none of them runs on or is a heading."""


ONE_LINE_CLAUSE_END_CHARS: frozenset[str] = frozenset(".。;；!?！？")
"""A heading line ending in one of these may be a whole clause (a colon introduces what follows)."""

ONE_LINE_CLAUSE_MIN_LOWER_WORDS = 3
"""An English heading line is a sentence, not a title, with at least this many lower-case words
("3.3 Invoices are due within thirty (30) days …" against "5. Term and Termination.")."""

_CJK = re.compile(r"[\u4e00-\u9fff]")


def states_clause(text: str, block: ClauseBlock) -> bool:
    """The block's heading line is itself a whole clause ("4.1 合同签订后十四日内，发包人…支付预付款。").

    Why: numbered sub-clauses of one short sentence each have no body below their heading line; read
    as bare headings they joined the next clause one after another, so a construction contract's
    4.1–4.3 and 第五条 became one passage labelled 第五条 and the judge read payments and delay damages
    as one clause."""
    line = text[block.start : block.body_start].strip()
    if not line or line[-1] not in ONE_LINE_CLAUSE_END_CHARS:
        return False
    if _CJK.search(line):
        return True
    return sum(1 for w in line.split() if w[:1].islower()) >= ONE_LINE_CLAUSE_MIN_LOWER_WORDS


def is_heading_only(text: str, block: ClauseBlock) -> bool:
    """A heading with no body, e.g. ``第三章 违约责任`` right before ``第六条``; not a one-line clause
    (``states_clause``)."""
    return (
        block.body_start - block.start <= HEADING_ONLY_MAX_CHARS
        and not has_text(text, block.body_start, block.end)
        and not states_clause(text, block)
    )


_CJK_SENTENCE_END = frozenset("。！？")


def is_whole_cjk_clause(text: str, block: ClauseBlock) -> bool:
    """A Chinese clause whose body is a complete sentence ("第六条 转租 未经甲方书面同意，乙方不得…转租。").

    Why: 30–55 Chinese characters state a whole obligation, yet the tiny-clause rule (made for
    English heading stubs) packed 第五–八条 of a lease into one child; the judge then read repairs,
    subletting, termination and disputes as one passage and scored the subletting question 0.50
    (0.69 on 第六条 alone), so it was refused."""
    body = text[block.body_start : block.end].strip() or text[block.start : block.end].strip()
    return bool(body) and body[-1] in _CJK_SENTENCE_END and bool(_CJK.search(body))


def _is_small(text: str, block: ClauseBlock, size: int, merge_below: float) -> bool:
    """Under ``merge_below``; when packing children (``merge_below`` < ``size``), a whole Chinese
    clause is never small (``is_whole_cjk_clause``)."""
    if block.size >= merge_below:
        return False
    return merge_below >= size or not is_whole_cjk_clause(text, block)


def pack_blocks(text: str, blocks: list[ClauseBlock], size: int, merge_below: float) -> list[ClauseBlock]:
    """Group consecutive clause blocks: a heading-only block always joins the next one; blocks
    smaller than ``merge_below`` join a group of such blocks while the group fits in ``size``.

    Parents pass ``merge_below = size`` (pack whole clauses greedily); children and plain chunks
    pass a small fraction, so each ordinary clause is its own chunk and only tiny ones share (a
    whole Chinese clause is not tiny, ``_is_small``). Groups never cross into another parent
    clause (a new chapter starts a new chunk).
    """
    groups: list[list[ClauseBlock]] = []
    for block in blocks:
        cur = groups[-1] if groups else None
        if cur is not None:
            heading_only = all(is_heading_only(text, b) for b in cur)
            small = _is_small(text, block, size, merge_below) and all(
                _is_small(text, b, size, merge_below) for b in cur
            )
            sibling = block.parent == cur[-1].parent or is_heading_only(text, cur[-1])
            if heading_only or (small and sibling and block.end - cur[0].start <= size):
                cur.append(block)
                continue
        groups.append([block])
    return [
        ClauseBlock(g[0].start, g[-1].end, range_path(text, g), g[0].parent, g[0].body_start) for g in groups
    ]


def clause_at(blocks: list[ClauseBlock], starts: list[int], pos: int) -> str:
    """Path of the block containing offset ``pos``."""
    i = bisect_right(starts, pos) - 1
    return blocks[i].path if i >= 0 else ""


# -------------------------------------------------------------------------------------------
# Chunks
# -------------------------------------------------------------------------------------------


def clause_chunks(
    text: str,
    blocks: list[ClauseBlock],
    starts: list[int],
    lo: int,
    hi: int,
    size: int,
    overlap: int,
    clause_aware: bool,
    merge_below: float,
) -> list[tuple[int, int, str]]:
    """``(start, end, clause path)`` pieces of ``text[lo:hi]``; clause-aware pieces never cut a clause
    that fits, and split only clauses larger than ``size``."""
    if not clause_aware:
        return [(s, e, clause_at(blocks, starts, s)) for s, e in split_range(text, lo, hi, size, overlap)]
    pieces: list[tuple[int, int, str]] = []
    for block in pack_blocks(text, clip_blocks(blocks, starts, lo, hi), size, merge_below):
        if block.size <= size:
            start, end = trim(text, block.start, block.end)
            if end > start:
                pieces.append((start, end, block.path))
        else:
            pieces.extend(
                (s, e, block.path) for s, e in split_range(text, block.start, block.end, size, overlap)
            )
    return pieces


@dataclass
class _SpanLocator:
    """Page number and section anchor of an offset, by bisecting the extraction spans."""

    page_starts: list[int]
    pages: list[int]
    anchor_starts: list[int]
    anchors: list[str]

    @classmethod
    def of(cls, spans: list[PageSpan]) -> _SpanLocator:
        paged = sorted((s.start, s.page) for s in spans if s.page is not None)
        anchored = sorted((s.start, s.anchor) for s in spans if s.page is None)
        return cls(
            [s for s, _ in paged], [p for _, p in paged], [s for s, _ in anchored], [a for _, a in anchored]
        )

    def page(self, pos: int) -> int | None:
        i = bisect_right(self.page_starts, pos) - 1
        return self.pages[max(i, 0)] if self.pages else None

    def page_range(self, text: str, start: int, end: int) -> tuple[int | None, int | None]:
        """Pages of the first and last non-blank characters of ``text[start:end]``.

        Why not ``page(end)``: a chunk may end in the blank lines that join two pages, which
        belong to neither; the range must name the pages the words are on.
        """
        piece = text[start:end]
        lead = len(piece) - len(piece.lstrip())
        trail = len(piece.rstrip())
        if trail <= lead:
            return self.page(start), self.page(start)
        return self.page(start + lead), self.page(start + trail - 1)

    def anchor(self, pos: int) -> str:
        i = bisect_right(self.anchor_starts, pos) - 1
        return self.anchors[i] if i >= 0 else ""


def chunk_id(doc_id: str, kind: ChunkKind, ordinal: int) -> str:
    """Deterministic chunk id: same document, same settings → same ids."""
    return f"{doc_id[:16]}-{kind[0]}{ordinal:05d}"


def _make_chunks(
    text: str,
    pieces: list[tuple[int, int, str]],
    kind: ChunkKind,
    doc_id: str,
    locator: _SpanLocator,
    first_ordinal: int = 0,
    parent_id: str = "",
) -> list[Chunk]:
    out: list[Chunk] = []
    for ordinal, (start, end, clause) in enumerate(pieces, start=first_ordinal):
        first, last = locator.page_range(text, start, end)
        out.append(
            Chunk(
                id=chunk_id(doc_id, kind, ordinal),
                doc_id=doc_id,
                text=text[start:end],
                start=start,
                end=end,
                page=first,
                page_end=last,
                anchor=locator.anchor(start),
                clause=clause,
                parent_id=parent_id,
                kind=kind,
                ordinal=ordinal,
            )
        )
    return out


def child_starts(parents: list[Chunk]) -> list[int]:
    """Where each parent's children begin: after the text earlier parents already cover.

    Why: parents overlap so the answer model sees context across a cut, but children that
    repeated the overlap would be indexed twice and fill a ranking's top k with the same
    characters; the children instead tile the document once, each inside its parent.
    """
    out: list[int] = []
    covered = 0
    for parent in parents:
        out.append(max(parent.start, covered))
        covered = max(covered, parent.end)
    return out


def chunk_document(text: str, spans: list[PageSpan], settings: ChunkingSettings, doc_id: str) -> list[Chunk]:
    """Chunks of a document: parents then their children when ``parent_child``, else plain chunks.

    Every chunk satisfies ``text[chunk.start:chunk.end] == chunk.text``; children lie inside
    their parent's range; ordinals count per kind in document order.
    """
    blocks = clause_blocks(text, spans)
    starts = [b.start for b in blocks]
    locator = _SpanLocator.of(spans)
    aware = settings.clause_aware
    if not settings.parent_child:
        tiny = settings.tiny_clause_chars
        pieces = clause_chunks(
            text, blocks, starts, 0, len(text), settings.chunk_size, settings.chunk_overlap, aware, tiny
        )
        return _make_chunks(text, pieces, "plain", doc_id, locator)
    parent_pieces = clause_chunks(
        text,
        blocks,
        starts,
        0,
        len(text),
        settings.parent_size,
        settings.parent_overlap,
        aware,
        settings.parent_size,
    )
    parents = _make_chunks(text, parent_pieces, "parent", doc_id, locator)
    children: list[Chunk] = []
    for parent, lo in zip(parents, child_starts(parents), strict=True):
        if lo >= parent.end:
            continue
        child_pieces = clause_chunks(
            text,
            blocks,
            starts,
            lo,
            parent.end,
            settings.child_size,
            settings.child_overlap,
            aware,
            settings.tiny_clause_chars,
        )
        children.extend(_make_chunks(text, child_pieces, "child", doc_id, locator, len(children), parent.id))
    return parents + children


def embed_text(chunk: Chunk, title: str, settings: ChunkingSettings) -> str:
    """The text embedded for retrieval: ``title | clause path`` header line + the chunk text.

    The header lets a vector search for 'termination in the Contoso MSA' hit a chunk whose own
    words never name the contract; ``chunk.text`` and its offsets are untouched.
    """
    if not settings.embed_header:
        return chunk.text
    header = " | ".join(part for part in (title.strip()[:HEADER_TITLE_MAX_CHARS], chunk.clause) if part)
    return f"{header}\n{chunk.text}" if header else chunk.text
