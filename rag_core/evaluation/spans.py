"""Character spans in source files, and exact character-overlap arithmetic on them.

Why a module of its own: LegalBench-RAG scores retrieval by how many *characters* of the gold
clauses were retrieved, not by chunk ids, so every retrieval metric over gold spans (and the
span-exact context precision/recall) reduces to merging half-open intervals and measuring their
intersection. Keeping that arithmetic here, pure and exact, lets it be tested on hand cases.

Spans are half-open ``[start, end)`` offsets into the Python ``str`` of a file's UTF-8 text,
exactly as the LegalBench-RAG data defines them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Span:
    """A half-open character range ``[start, end)`` in one file (or document)."""

    file: str
    start: int
    end: int

    def __post_init__(self) -> None:
        """Refuse impossible spans at construction, so no metric has to guess what they mean."""
        if self.start < 0:
            raise ValueError(f"span start must be >= 0, got {self.start} in {self.file!r}")
        if self.end < self.start:
            raise ValueError(f"span end {self.end} is before its start {self.start} in {self.file!r}")

    def __len__(self) -> int:
        """Its size in characters."""
        return self.end - self.start

    def overlaps(self, other: Span) -> bool:
        """True when the two spans share at least one character of the same file."""
        return self.file == other.file and min(self.end, other.end) > max(self.start, other.start)


def merge_spans(spans: Iterable[Span]) -> list[Span]:
    """Overlapping or touching spans of one file merged into one; empty spans dropped.

    Why: a character counts once, however many retrieved chunks (overlapping windows, parent and
    child chunks) contain it. Touching spans are merged too; that changes no character count and
    keeps the result canonical. The result is sorted by file, then start.
    """
    by_file: dict[str, list[Span]] = defaultdict(list)
    for span in spans:
        if len(span) > 0:
            by_file[span.file].append(span)
    merged: list[Span] = []
    for file in sorted(by_file):
        current: Span | None = None
        for span in sorted(by_file[file]):
            if current is None:
                current = span
            elif span.start <= current.end:
                current = Span(file, current.start, max(current.end, span.end))
            else:
                merged.append(current)
                current = span
        if current is not None:
            merged.append(current)
    return merged


def total_chars(spans: Iterable[Span]) -> int:
    """Distinct characters covered by the spans (overlaps counted once)."""
    return sum(len(s) for s in merge_spans(spans))


def overlap_chars(a: Iterable[Span], b: Iterable[Span]) -> int:
    """Distinct characters covered by both span sets.

    Both sides are merged first, so the count is the size of the intersection of two character
    sets and is symmetric; neither side's internal overlaps can inflate it.
    """
    left = merge_spans(a)
    right_by_file: dict[str, list[Span]] = defaultdict(list)
    for span in merge_spans(b):
        right_by_file[span.file].append(span)
    shared = 0
    for span in left:
        for other in right_by_file.get(span.file, ()):
            shared += max(0, min(span.end, other.end) - max(span.start, other.start))
    return shared
