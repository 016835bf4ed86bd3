"""Evaluation test sets: the case record, JSONL import/export, LLM generation and de-duplication.

Why: metrics are only as good as the questions they are run on. Cases come from four places
(generated from chunks, written by hand, turned from user feedback, imported from public
benchmarks) and all end up in one JSONL shape that lawyers can read and edit.

Import is all-or-nothing: a file with any bad line raises ``TestSetError`` listing *every* bad
line (number and what is wrong) and imports nothing, so a half-imported set can never be
mistaken for the whole one. Unknown keys are bad lines too: with ``reference_answer`` optional, a
misspelt key would otherwise silently drop the reference.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeGuard, cast, get_args

from rag_core.errors import LexgateError, LLMError
from rag_core.evaluation.spans import Span
from rag_core.llm.base import ChatModel, ChatOptions, Message
from rag_core.llm.jsonparse import parse_json_object, parse_json_value

Difficulty = Literal["easy", "medium", "hard"]
Origin = Literal["generated", "manual", "feedback", "imported"]
DIFFICULTIES: tuple[str, ...] = get_args(Difficulty)
ORIGINS: tuple[str, ...] = get_args(Origin)

# Two questions whose character-bigram Jaccard similarity reaches this are one question asked
# twice (generation often rephrases only punctuation or a particle such as 的/了).
NEAR_DUPLICATE_JACCARD = 0.85
ID_HASH_CHARS = 12  # hex digits of the content hash used when a case has no id
GENERATION_TEMPERATURE = 0.3  # some variety between questions of one chunk, still grounded
GENERATION_TOKENS_PER_PAIR = 256  # answer budget per requested question/answer pair
RAW_EXCERPT_CHARS = 300  # how much unparsable model output a note keeps for diagnosis
LANGUAGE_NAMES: dict[str, str] = {"zh": "Simplified Chinese", "en": "English"}

_ALLOWED_KEYS = frozenset(
    {"id", "question", "reference_answer", "source_chunks", "gold_spans", "difficulty", "origin"}
)


@dataclass
class EvalCase:
    """One evaluation question with what a right answer and right retrieval look like."""

    id: str
    question: str
    reference_answer: str = ""  # empty: only reference-free metrics apply
    source_chunks: list[str] = field(default_factory=list)  # chunk ids the answer comes from
    gold_spans: list[Span] | None = None  # exact evidence, when the source data has it
    difficulty: Difficulty | None = None
    origin: Origin = "manual"

    def to_json(self) -> dict[str, Any]:
        """The JSONL shape; optional fields only when set, spans as ``{"file", "start", "end"}``."""
        out: dict[str, Any] = {
            "id": self.id,
            "question": self.question,
            "reference_answer": self.reference_answer,
            "source_chunks": list(self.source_chunks),
        }
        if self.gold_spans is not None:
            out["gold_spans"] = [{"file": s.file, "start": s.start, "end": s.end} for s in self.gold_spans]
        if self.difficulty is not None:
            out["difficulty"] = self.difficulty
        out["origin"] = self.origin
        return out


@dataclass
class LineProblem:
    """What is wrong with one line of an imported file."""

    line: int  # 1-based, as editors show it
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


class TestSetError(LexgateError):
    """A test-set file with bad lines; nothing of it was imported."""

    __test__ = False  # not a pytest test class despite the name

    def __init__(self, problems: list[LineProblem], subject: str = "") -> None:
        self.problems = problems
        listing = "; ".join(str(p) for p in problems)
        super().__init__(
            f"{len(problems)} bad line(s), nothing imported: {listing}",
            "fix these lines and import the file again",
            subject=subject,
        )


def case_id(question: str, reference_answer: str = "") -> str:
    """A stable id from the content, so re-importing an id-less file gives the same ids."""
    digest = hashlib.sha256(f"{question}\x1f{reference_answer}".encode()).hexdigest()
    return f"case-{digest[:ID_HASH_CHARS]}"


# ---------------------------------------------------------------- JSONL import / export


def to_jsonl(cases: Iterable[EvalCase]) -> str:
    """Cases as JSONL text, one object per line, Chinese kept readable."""
    return "".join(json.dumps(c.to_json(), ensure_ascii=False) + "\n" for c in cases)


def save_jsonl(cases: Iterable[EvalCase], path: Path) -> None:
    """Write cases to a UTF-8 JSONL file."""
    path.write_text(to_jsonl(cases), encoding="utf-8")


def load_jsonl(path: Path, origin: Origin = "imported") -> list[EvalCase]:
    """Read a JSONL test set; all-or-nothing (``TestSetError`` lists every bad line)."""
    return parse_jsonl(path.read_text(encoding="utf-8"), origin=origin, subject=path.name)


def parse_jsonl(text: str, origin: Origin = "imported", subject: str = "") -> list[EvalCase]:
    """Parse JSONL text into cases; ``origin`` applies to lines that do not state their own.

    Blank lines are skipped. Ids must be unique within the file (a missing id is derived from the
    content, so two identical id-less cases also collide and are reported).
    """
    cases, problems = check_jsonl(text, origin)
    if problems:
        raise TestSetError(problems, subject=subject)
    return cases


def check_jsonl(text: str, origin: Origin = "imported") -> tuple[list[EvalCase], list[LineProblem]]:
    """Every readable case and every problem, for callers (the UI) that show both before importing."""
    cases: list[EvalCase] = []
    problems: list[LineProblem] = []
    first_line_of: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        case_or_error = _case_from_line(line, origin)
        if isinstance(case_or_error, str):
            problems.append(LineProblem(number, case_or_error))
            continue
        if case_or_error.id in first_line_of:
            problems.append(
                LineProblem(
                    number, f"id {case_or_error.id!r} already used on line {first_line_of[case_or_error.id]}"
                )
            )
            continue
        first_line_of[case_or_error.id] = number
        cases.append(case_or_error)
    return cases, problems


def _case_from_line(line: str, origin: Origin) -> EvalCase | str:
    """One case, or the reason (for the user) why the line is not one."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as err:
        return f"not valid JSON ({err.msg} at column {err.colno})"
    if not isinstance(obj, dict):
        return f"expected a JSON object, got {type(obj).__name__}"
    unknown = sorted(set(obj) - _ALLOWED_KEYS)
    if unknown:
        return f"unknown key(s) {unknown}; allowed: {sorted(_ALLOWED_KEYS)}"
    question = obj.get("question")
    if not isinstance(question, str) or not question.strip():
        return "'question' is missing or not a non-empty string"
    reference = obj.get("reference_answer", "")
    if not isinstance(reference, str):
        return "'reference_answer' must be a string"
    chunks = obj.get("source_chunks", [])
    if not isinstance(chunks, list) or not all(isinstance(c, str) for c in chunks):
        return "'source_chunks' must be a list of strings"
    spans = _spans_from_json(obj["gold_spans"]) if obj.get("gold_spans") is not None else None
    if isinstance(spans, str):
        return spans
    difficulty = obj.get("difficulty")
    if difficulty is not None and difficulty not in DIFFICULTIES:
        return f"'difficulty' must be one of {list(DIFFICULTIES)}, got {difficulty!r}"
    line_origin = obj.get("origin", origin)
    if line_origin not in ORIGINS:
        return f"'origin' must be one of {list(ORIGINS)}, got {line_origin!r}"
    given_id = obj.get("id")
    if given_id is not None and (not isinstance(given_id, str | int) or isinstance(given_id, bool)):
        return "'id' must be a string or an integer"
    return EvalCase(
        id=str(given_id) if given_id is not None and str(given_id) else case_id(question, reference),
        question=question,
        reference_answer=reference,
        source_chunks=list(chunks),
        gold_spans=spans,
        difficulty=cast(Difficulty | None, difficulty),
        origin=cast(Origin, line_origin),
    )


def _spans_from_json(value: Any) -> list[Span] | str:
    """Gold spans from ``[{"file" or "doc", "start", "end"}]``, or what is wrong with them."""
    if not isinstance(value, list):
        return "'gold_spans' must be a list of {file|doc, start, end} objects"
    spans: list[Span] = []
    for i, item in enumerate(value):
        where = f"'gold_spans[{i}]'"
        if not isinstance(item, dict):
            return f"{where} must be an object with file|doc, start, end"
        file = item.get("file", item.get("doc"))
        if not isinstance(file, str) or not file:
            return f"{where} needs a non-empty 'file' (or 'doc')"
        start, end = item.get("start"), item.get("end")
        if not _is_int(start) or not _is_int(end):
            return f"{where} 'start' and 'end' must be integers"
        if start < 0 or end < start:
            return f"{where} must satisfy 0 <= start <= end, got start={start}, end={end}"
        spans.append(Span(file, start, end))
    return spans


def _is_int(value: Any) -> TypeGuard[int]:
    """An integer that is not a bool (JSON true would otherwise pass as 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


# ---------------------------------------------------------------- de-duplication


def normalise_question(text: str) -> str:
    """Compatibility-folded, lower-cased text without whitespace or punctuation.

    Why: generated questions often differ only in full/half-width forms, case, spaces or a final
    question mark; those must compare equal.
    """
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(ch for ch in folded if not ch.isspace() and not unicodedata.category(ch).startswith("P"))


def char_bigrams(text: str) -> frozenset[str]:
    """Character bigrams of normalised text; a one-character text is its own single 'bigram'.

    Why characters: Chinese has no spaces and a word segmenter would add its own errors; bigrams
    work for Chinese and English alike.
    """
    norm = normalise_question(text)
    if len(norm) < 2:
        return frozenset({norm}) if norm else frozenset()
    return frozenset(norm[i : i + 2] for i in range(len(norm) - 1))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    """|a ∩ b| / |a ∪ b|; two empty sets are identical (1.0)."""
    union = a | b
    return len(a & b) / len(union) if union else 1.0


def near_duplicate_of(
    question: str, seen: Sequence[tuple[str, frozenset[str]]], threshold: float = NEAR_DUPLICATE_JACCARD
) -> str | None:
    """The id of the first seen question this one nearly repeats, or ``None``.

    ``seen`` holds ``(id, char_bigrams(question))`` pairs so bigrams are computed once per case.
    """
    grams = char_bigrams(question)
    for seen_id, seen_grams in seen:
        if jaccard(grams, seen_grams) >= threshold:
            return seen_id
    return None


def dedupe(cases: Iterable[EvalCase], threshold: float = NEAR_DUPLICATE_JACCARD) -> list[EvalCase]:
    """Cases without near-duplicate questions; the first of each group is kept, order preserved."""
    kept: list[EvalCase] = []
    seen: list[tuple[str, frozenset[str]]] = []
    for case in cases:
        if near_duplicate_of(case.question, seen, threshold) is None:
            kept.append(case)
            seen.append((case.id, char_bigrams(case.question)))
    return kept


# ---------------------------------------------------------------- generation


@dataclass
class GenerationNote:
    """Something generation skipped or changed, with enough of the output to see why."""

    chunk_id: str
    message: str
    raw: str = ""


_GENERATION_SYSTEM = (
    "You write evaluation questions for a legal contract knowledge base used by lawyers. "
    "The passage may be in Chinese, English or both. Reply with JSON only."
)

_GENERATION_PROMPT = """Passage (chunk {chunk_id}):
<<<
{text}
>>>

Write exactly {n} question/answer pairs in {language} about this passage.
Rules:
- Ask what a lawyer would really ask about a contract like this one.
- The answer must be taken only from the passage; add nothing the passage does not say.
- Mix difficulties: "easy" (one fact stated directly), "medium" (a condition, exception or
  combination of two provisions), "hard" (reasoning across several provisions or a comparison).
- Every question must be answerable from the passage alone and differ from the others.

Reply with a JSON array and nothing else:
[{{"question": "...", "answer": "...", "difficulty": "easy" | "medium" | "hard"}}]"""


def generation_messages(chunk_id: str, text: str, n: int, language: str) -> list[Message]:
    """The prompt asking for ``n`` grounded question/answer pairs about one chunk."""
    language_name = LANGUAGE_NAMES.get(language, language)
    user = _GENERATION_PROMPT.format(chunk_id=chunk_id, text=text, n=n, language=language_name)
    return [Message("system", _GENERATION_SYSTEM), Message("user", user)]


_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)
_ARRAY_KEY = "items"


def parse_json_array(raw: str) -> list[Any] | None:
    """A top-level JSON array in model output (fenced, with trailing prose, or cut off), else None.

    Why not ``parse_json_value`` alone: for an unfenced array of objects it finds the first
    ``{`` before the ``[`` and returns only the first element. A reply counts as an array only
    when its first bracket comes before its first brace.
    """
    fenced = _FENCE.search(raw)
    body = (fenced.group(1) if fenced else raw).strip()
    start, brace = body.find("["), body.find("{")
    if start < 0 or 0 <= brace < start:
        return None
    try:
        value, _ = json.JSONDecoder().raw_decode(body[start:])
    except ValueError:  # cut off: let the partial-JSON repair close it inside a wrapper object
        wrapped = parse_json_object(f'{{"{_ARRAY_KEY}": {body[start:]}')
        value = wrapped.get(_ARRAY_KEY) if wrapped else None
    return value if isinstance(value, list) else None


def _pairs_from_output(raw: str) -> list[Any] | None:
    """The list of pairs in a model reply: a bare array, or an object wrapping one."""
    array = parse_json_array(raw)
    if array is not None:
        return array
    value = parse_json_value(raw)
    if isinstance(value, dict):
        lists = [v for v in value.values() if isinstance(v, list)]
        value = lists[0] if len(lists) == 1 else ([value] if "question" in value else None)
    return value if isinstance(value, list) else None


def _read_pair(item: Any) -> tuple[str, str, Difficulty | None, str] | str:
    """(question, answer, difficulty, remark) from one generated item, or why it is unusable."""
    if not isinstance(item, dict):
        return f"item is not an object: {str(item)[:RAW_EXCERPT_CHARS]}"
    question, answer = item.get("question"), item.get("answer")
    if not isinstance(question, str) or not question.strip():
        return "item has no question"
    if not isinstance(answer, str) or not answer.strip():
        return f"item has no answer: {question.strip()!r}"
    level = str(item.get("difficulty", "")).strip().lower()
    if level in DIFFICULTIES:
        return question.strip(), answer.strip(), cast(Difficulty, level), ""
    return question.strip(), answer.strip(), None, f"unknown difficulty {item.get('difficulty')!r} left unset"


def generate_cases(
    model: ChatModel,
    chunks: Iterable[tuple[str, str]],
    per_chunk: int,
    language: str,
    threshold: float = NEAR_DUPLICATE_JACCARD,
) -> Iterator[EvalCase | GenerationNote]:
    """Question/answer cases written by ``model`` from each ``(chunk_id, text)``, lazily.

    Unparsable replies, unusable items, surplus items and near-duplicate questions (across all
    chunks so far) are skipped and reported as ``GenerationNote`` in the stream; an LLM failure on
    one chunk is noted and generation goes on with the next. ``language`` is ``"zh"``, ``"en"``
    or a language name.
    """
    if per_chunk < 1:
        raise ValueError(f"per_chunk must be at least 1, got {per_chunk}")
    options = ChatOptions(
        temperature=GENERATION_TEMPERATURE, max_tokens=GENERATION_TOKENS_PER_PAIR * per_chunk
    )
    seen: list[tuple[str, frozenset[str]]] = []
    for chunk_id, text in chunks:
        try:
            raw = model.chat(generation_messages(chunk_id, text, per_chunk, language), options).content
        except LLMError as err:
            yield GenerationNote(chunk_id, f"model failed: {err}")
            continue
        items = _pairs_from_output(raw)
        if items is None:
            yield GenerationNote(chunk_id, "output is not a JSON array of pairs", raw[:RAW_EXCERPT_CHARS])
            continue
        if len(items) > per_chunk:
            yield GenerationNote(chunk_id, f"{len(items)} pairs returned, kept the first {per_chunk}")
        for index, item in enumerate(items[:per_chunk]):
            pair = _read_pair(item)
            if isinstance(pair, str):
                yield GenerationNote(chunk_id, pair)
                continue
            question, answer, difficulty, remark = pair
            duplicate = near_duplicate_of(question, seen, threshold)
            if duplicate is not None:
                yield GenerationNote(chunk_id, f"near-duplicate of {duplicate} skipped: {question!r}")
                continue
            if remark:
                yield GenerationNote(chunk_id, remark)
            case = EvalCase(
                id=f"gen-{chunk_id}-{index + 1}",
                question=question,
                reference_answer=answer,
                source_chunks=[chunk_id],
                difficulty=difficulty,
                origin="generated",
            )
            seen.append((case.id, char_bigrams(question)))
            yield case
