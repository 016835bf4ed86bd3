"""Question sets of the answer benchmark built from the training data: CUAD check contracts and LeCoQA.

Why from ``train/cuad``: the speed issue asks for a base of 30 contracts with gold spans, and the
defaults of the short prompt (``generation.max_prompt_tokens``) are chosen from these figures, so they
must come from training data (the evaluation folders are for reporting only). Each question asks for
one CUAD category of one contract the annotators marked present; its gold spans are that category's
spans, so a citation is precise when the cited clause overlaps one of them.

The contracts are picked by a hash of their file name (a fixed, content-blind order) among those
under ``CUAD_MAX_CONTRACT_CHARS`` characters, so the base stays the size the issue names.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from rag_core.evaluation.spans import Span

CUAD_TRAIN = "cuad-train"
LECOQA = "lecoqa"

CUAD_BASE_CONTRACTS = 30
"""Contracts in the benchmark base (the issue's "base of 30 contracts")."""

CUAD_MAX_CONTRACT_CHARS = 120_000
"""Longer contracts are skipped so one very long filing cannot dominate ingestion time."""

LECOQA_BASE_ARTICLES = 300
"""Statute articles in the LeCoQA base: the gold articles of the first questions, then others."""

LECOQA_BASE_QUESTIONS = 60
"""Questions whose gold articles are in the LeCoQA base (a fixed set, so the base does not change
with ``--limit``; at most this many LeCoQA questions are asked)."""

# One question per CUAD category, phrased the way a lawyer asks (English, as the contracts are).
CUAD_QUESTIONS: dict[str, str] = {
    "Governing Law": "Which law governs the {doc}?",
    "Expiration Date": "When does the {doc} expire?",
    "Anti-Assignment": "Can a party assign the {doc} without the other party's consent?",
    "Cap On Liability": "Is liability capped under the {doc}?",
    "License Grant": "What license is granted under the {doc}?",
    "Audit Rights": "Does the {doc} give a party the right to audit the other's books?",
    "Renewal Term": "How is the {doc} renewed after its initial term?",
    "Exclusivity": "Is there an exclusivity obligation in the {doc}?",
    "Post-Termination Services": "What obligations continue after termination of the {doc}?",
    "Minimum Commitment": "Is there a minimum purchase or order commitment in the {doc}?",
    "Termination For Convenience": "Can a party terminate the {doc} for convenience?",
    "Insurance": "What insurance must be maintained under the {doc}?",
    "Revenue/Profit Sharing": "How are revenues or profits shared under the {doc}?",
    "Notice Period To Terminate Renewal": "How much notice is needed to prevent renewal of the {doc}?",
    "Change Of Control": "What happens on a change of control under the {doc}?",
    "Non-Compete": "Does the {doc} restrict a party from competing?",
    "Effective Date": "When does the {doc} become effective?",
    "Warranty Duration": "How long does the warranty last under the {doc}?",
}

_PARTY_WORDS = re.compile(
    r"\b(?:inc|llc|corp|corporation|ltd|limited|company|l\.p|lp|plc|gmbh|s\.a|co)\b\.?", re.IGNORECASE
)


@dataclass
class AnswerQuestion:
    """One benchmark question with its gold evidence (spans for CUAD, article ids for LeCoQA)."""

    qid: str
    text: str
    gold_spans: list[Span] = field(default_factory=list)
    gold_ids: list[str] = field(default_factory=list)
    reference: str = ""  # gold clause text (CUAD) or the lawyer's answer (LeCoQA)
    category: str = ""


def _hash_order(name: str) -> str:
    return hashlib.sha256(name.encode("utf-8")).hexdigest()


def _contract_label(rows: dict[str, dict[str, object]]) -> str:
    """'the <document name> between <A> and <B>' from the annotated name and parties."""
    name_row = rows.get("Document Name") or {}
    names = [str(s["text"]) for s in name_row.get("spans", []) or []]  # type: ignore[attr-defined]
    doc = " ".join((names[0] if names else "Agreement").split()).title()
    party_row = rows.get("Parties") or {}
    parties = [" ".join(str(s["text"]).split()) for s in party_row.get("spans", []) or []]  # type: ignore[attr-defined]
    companies = list(dict.fromkeys(p for p in parties if _PARTY_WORDS.search(p) and len(p) < 80))
    if len(companies) >= 2:
        return f"{doc} between {companies[0]} and {companies[1]}"
    if companies:
        return f"{doc} of {companies[0]}"
    return doc


def _clause_rows(data_dir: Path) -> dict[str, dict[str, dict[str, object]]]:
    """clause_spans.jsonl grouped by contract file, then by category."""
    by_file: dict[str, dict[str, dict[str, object]]] = {}
    path = data_dir / "train" / "cuad" / "clause_spans.jsonl"
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            by_file.setdefault(str(row["file"]), {})[str(row["category"])] = row
    return by_file


def cuad_train_base(data_dir: Path, contracts: int = CUAD_BASE_CONTRACTS) -> list[Path]:
    """The contracts of the base: hash order, under the length cap, ``contracts`` of them."""
    folder = data_dir / "train" / "cuad" / "contracts"
    files = sorted(folder.glob("*.txt"), key=lambda p: _hash_order(p.name))
    return [p for p in files if p.stat().st_size <= CUAD_MAX_CONTRACT_CHARS][:contracts]


def _pick_category(rows: dict[str, dict[str, object]], start: int, asked: set[str]) -> str | None:
    """The first category from ``start`` on (cyclically) that the contract holds and was not asked yet."""
    categories = list(CUAD_QUESTIONS)
    for step in range(len(categories)):
        category = categories[(start + step) % len(categories)]
        row = rows.get(category)
        if category not in asked and row and row.get("present") and row.get("spans"):
            return category
    return None


def cuad_train_questions(data_dir: Path, base: list[Path], limit: int) -> list[AnswerQuestion]:
    """Round-robin over contracts; each question asks one present category of one contract, the
    categories rotating so the set covers many clause types."""
    rows = _clause_rows(data_dir)
    asked: dict[str, set[str]] = {p.name: set() for p in base}
    out: list[AnswerQuestion] = []
    for round_no in range(len(CUAD_QUESTIONS)):
        for i, path in enumerate(base):
            mine = rows.get(path.name, {})
            category = _pick_category(mine, i + round_no, asked[path.name])
            if len(out) >= limit:
                return out
            if category is None:
                continue
            asked[path.name].add(category)
            spans_json = mine[category]["spans"]
            spans = [Span(path.name, int(s["start"]), int(s["end"])) for s in spans_json]  # type: ignore[attr-defined]
            question = CUAD_QUESTIONS[category].format(doc=_contract_label(mine))
            reference = " ".join(str(s["text"]) for s in spans_json)  # type: ignore[attr-defined]
            qid = f"{_hash_order(path.name)[:8]}-{category}"
            out.append(AnswerQuestion(qid, question, spans, [], reference, category))
    return out


def cuad_train_files(base: list[Path]) -> list[tuple[str, bytes]]:
    return [(p.name, p.read_bytes()) for p in base]


def lecoqa_questions(data_dir: Path, limit: int) -> list[AnswerQuestion]:
    """The first ``limit`` LeCoQA questions with their gold articles and the lawyer's answer."""
    out: list[AnswerQuestion] = []
    for line in (data_dir / LECOQA / "queries.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip() and len(out) < limit:
            obj = json.loads(line)
            gold = [str(g) for g in obj["gold"]]
            out.append(AnswerQuestion(str(obj["query_id"]), obj["question"], [], gold, obj.get("answer", "")))
    return out


def lecoqa_files(data_dir: Path, articles: int = LECOQA_BASE_ARTICLES) -> list[tuple[str, bytes]]:
    """The gold articles of the first ``LECOQA_BASE_QUESTIONS`` questions and, up to ``articles`` in
    all, others in hash order."""
    questions = lecoqa_questions(data_dir, LECOQA_BASE_QUESTIONS)
    corpus = []
    for line in (data_dir / LECOQA / "corpus.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            corpus.append(json.loads(line))
    gold = {g for q in questions for g in q.gold_ids}
    chosen = [a for a in corpus if a["id"] in gold]
    others = sorted((a for a in corpus if a["id"] not in gold), key=lambda a: _hash_order(a["id"]))
    chosen += others[: max(0, articles - len(chosen))]
    return [(f"{a['id']}.txt", f"{a['title']}\n{a['text']}".encode()) for a in chosen]
