"""A test set between the review table and the stored cases: sampling chunks to ask about,
merging generated and imported cases, the table's rows and back, and validation.

Why apart from the page: every step is a pure function over case dicts (the JSONL shape of
``EvalCase.to_json``), so tests check them without a browser and the page only draws.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from rag_core.errors import LexgateError
from rag_core.evaluation.testset import (
    DIFFICULTIES,
    EvalCase,
    case_id,
    char_bigrams,
    check_jsonl,
    near_duplicate_of,
)
from rag_core.textproc import detect_language
from storage.rows import ChunkRow

MIN_CHUNK_CHARS = 80  # shorter chunks (titles, signature lines) make poor questions
DEFAULT_SAMPLE = 10  # chunks sampled for generation by default
MAX_PER_CHUNK = 5
MAX_SAMPLE = 200


def chunk_language(text: str) -> str:
    """The language questions about a chunk are written in: its own (bilingual chunks: Chinese)."""
    return "en" if detect_language(text) == "en" else "zh"


def pick_chunks(
    rows: Sequence[ChunkRow],
    n: int,
    used: frozenset[str] | set[str] = frozenset(),
    min_chars: int = MIN_CHUNK_CHARS,
) -> list[ChunkRow]:
    """``n`` chunks spread evenly over the knowledge base, preferring chunks no case comes from.

    Parent and plain chunks only (whole clauses; child chunks are pieces of their parent), long
    enough to ask about, in document order so the sample covers every document.
    """
    pool = [r for r in rows if r.kind in ("parent", "plain") and len(r.text.strip()) >= min_chars]
    pool.sort(key=lambda r: (r.doc_id, int(r.start)))
    fresh = [r for r in pool if r.id not in used]
    source = fresh if len(fresh) >= n else fresh + [r for r in pool if r.id in used]
    if n >= len(source):
        return list(source)
    step = len(source) / n
    return [source[int(i * step)] for i in range(n)]


def _unique_id(wanted: str, taken: set[str]) -> str:
    new, k = wanted, 2
    while new in taken:
        new, k = f"{wanted}-{k}", k + 1
    return new


def merge_generated(
    existing: list[dict[str, Any]], new: Sequence[EvalCase]
) -> tuple[list[dict[str, Any]], int, int]:
    """``existing`` plus the new cases that repeat no question so far: (cases, added, duplicates)."""
    seen = [(str(c.get("id", "")), char_bigrams(str(c.get("question", "")))) for c in existing]
    taken = {str(c.get("id", "")) for c in existing}
    merged = list(existing)
    added = duplicates = 0
    for case in new:
        if near_duplicate_of(case.question, seen) is not None:
            duplicates += 1
            continue
        data = case.to_json()
        data["id"] = _unique_id(case.id, taken)
        taken.add(data["id"])
        seen.append((data["id"], char_bigrams(case.question)))
        merged.append(data)
        added += 1
    return merged, added, duplicates


def merge_imported(
    existing: list[dict[str, Any]], imported: Sequence[EvalCase]
) -> tuple[list[dict[str, Any]], int, int]:
    """``existing`` with the imported cases: a case whose id is already there replaces it in place.

    Returns (cases, added, replaced).
    """
    merged = list(existing)
    index = {str(c.get("id", "")): i for i, c in enumerate(merged)}
    added = replaced = 0
    for case in imported:
        if case.id in index:
            merged[index[case.id]] = case.to_json()
            replaced += 1
        else:
            index[case.id] = len(merged)
            merged.append(case.to_json())
            added += 1
    return merged, added, replaced


def parse_import(text: str) -> tuple[list[EvalCase], list[str]]:
    """The cases of a JSONL file and, when any line is bad, every bad line ("line n: why")."""
    cases, problems = check_jsonl(text, "imported")
    return cases, [str(p) for p in problems]


def cases_jsonl(cases: Sequence[Mapping[str, Any]]) -> str:
    """The stored case dicts as JSONL (the same shape ``to_jsonl`` writes)."""
    return "".join(json.dumps(dict(c), ensure_ascii=False) + "\n" for c in cases)


EDITOR_COLUMNS: tuple[str, ...] = ("id", "question", "reference_answer", "difficulty", "origin", "sources")
"""Columns of the review table; ``id``, ``origin`` and ``sources`` are read-only."""


def editor_rows(cases: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    rows = []
    for c in cases:
        spans = c.get("gold_spans") or []
        sources = len(c.get("source_chunks") or []) + len(spans)
        rows.append(
            {
                "id": str(c.get("id", "")),
                "question": str(c.get("question", "")),
                "reference_answer": str(c.get("reference_answer", "")),
                "difficulty": c.get("difficulty") if c.get("difficulty") in DIFFICULTIES else None,
                "origin": str(c.get("origin", "manual")),
                "sources": sources,
            }
        )
    return rows


def _text(value: Any) -> str:
    """A table cell as text (pandas gives NaN/None for empty cells)."""
    if value is None or (isinstance(value, float) and value != value):
        return ""
    return str(value).strip()


def cases_from_editor(
    records: Sequence[Mapping[str, Any]], base: Sequence[Mapping[str, Any]]
) -> tuple[list[dict[str, Any]], list[str]]:
    """The edited table back to case dicts, and what is wrong with it (row numbers 1-based).

    A row keeps everything of its case the table does not show (source chunks, gold spans); a new
    row becomes a "manual" case with an id from its content; an empty new row is ignored.
    """
    by_id = {str(c.get("id", "")): c for c in base}
    cases: list[dict[str, Any]] = []
    problems: list[str] = []
    seen: dict[str, int] = {}
    for n, rec in enumerate(records, start=1):
        question = _text(rec.get("question"))
        reference = _text(rec.get("reference_answer"))
        difficulty = _text(rec.get("difficulty")) or None
        cid = _text(rec.get("id"))
        if not cid and not question and not reference:
            continue  # a row added and left empty
        if not question:
            problems.append(f"row {n}: the question is empty")
            continue
        if difficulty is not None and difficulty not in DIFFICULTIES:
            problems.append(f"row {n}: difficulty must be one of {list(DIFFICULTIES)}")
            continue
        if cid in by_id:
            case = normalize_case(by_id[cid])
        else:
            cid = case_id(question, reference)
            case = normalize_case({"id": cid, "question": question, "origin": "manual"})
        case.update(question=question, reference_answer=reference)
        case.pop("difficulty", None)
        if difficulty is not None:
            case["difficulty"] = difficulty
        case = normalize_case(case)
        if cid in seen:
            problems.append(f"row {n}: the same question as row {seen[cid]}")
            continue
        seen[cid] = n
        cases.append(case)
    return cases, problems


def normalize_case(case: Mapping[str, Any]) -> dict[str, Any]:
    """A case dict in the JSONL shape and key order (``EvalCase.to_json``), defaults filled in,
    so a table that changed nothing compares equal to the stored cases."""
    out: dict[str, Any] = {
        "id": str(case.get("id", "")),
        "question": str(case.get("question") or "").strip(),
        "reference_answer": str(case.get("reference_answer") or "").strip(),
        "source_chunks": list(case.get("source_chunks") or []),
    }
    if case.get("gold_spans") is not None:
        out["gold_spans"] = case["gold_spans"]
    if case.get("difficulty") in DIFFICULTIES:
        out["difficulty"] = case["difficulty"]
    out["origin"] = str(case.get("origin") or "manual")
    return out


def span_case_count(cases: Sequence[Mapping[str, Any]]) -> int:
    return sum(1 for c in cases if c.get("gold_spans"))


def to_eval_cases(cases: Sequence[Mapping[str, Any]]) -> list[EvalCase]:
    """Stored case dicts as ``EvalCase`` (through the JSONL reader, so they are validated alike)."""
    parsed, problems = check_jsonl(cases_jsonl(cases), "manual")
    if problems:
        raise LexgateError(
            "the test set has invalid cases: " + "; ".join(str(p) for p in problems),
            "fix them in the table and save",
        )
    return parsed


# ---------------------------------------------------------------- runs
