"""The fitted judge's features: computed by one function at fit time and at run time.

Why these features (issue 10): relevance and evidence are different questions. Relevance asks
"is this about the subject?" — vector similarity of question and passage, lexical coverage of the
passage and of its best sentence and a learned question-passage interaction (the
element-wise product of their vectors, so "sell my data" can meet "disclose to third parties").
Evidence asks "does this hold the answer?" — the same signals plus whether the passage is the
*clause type* the question asks about (a classifier fitted on CUAD span text, so a confidentiality
term is not evidence for a non-compete question) and whether it holds the *kind of value* asked
for (a period for "how long", an amount for "how much", a party for "who", a place for "where") — looked for
in the clause of the asked type when the passage holds several clauses. When the question names
no clause type ("押金是多少？"), only the words and the vector can say the passage is about the asked
thing: the ``untyped_*`` features let the fit weigh them apart for such questions (a lease-term
clause holding a number is not evidence for a rent question), and the asked-value check is made
only for typed questions, where "the asked clause" is defined. ``other_type_max`` is 0 for them:
no type is asked, so none is "another". A word matched only through the glossary stays out of the
``untyped_*`` features when fitting: counted in either of them, the fit gave the pair opposite
weights of about ±6 per unit (the Chinese training questions of no type meet their English windows
only through translations, spread across sentences), and a Chinese clause holding every word of
"发生争议怎么解决？" fell to 0.34. At run time it counts as matched there (``translated_untyped``):
every untyped training question is English on English (PrivacyQA), so no fit can weigh a
translated match for them on its own, and the same-language weights are the best stand-in
("What is the monthly rent?" on a Chinese lease; "保密义务持续多久？" on an English clause).
``party_named`` is ``kind_matched`` for a question asking who a party is (``train_sets.party_pairs``):
apart, because a party line holds none of the question's words and the pooled kind weight is the
other kinds' (an amount, a period). ``role_named`` / ``role_other``: for a question naming the role
("房东是谁？"), the passage names someone as that role, or names parties but none as it
(``relevance.party_labels``): the employment contract's "劳动者（乙方）：王某" names a party, not the landlord.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import numpy as np

from rag_core.definitions import definitions
from rag_core.judge.relevance import LexicalFeatures, held_kinds, value_kinds

SCALAR_FEATURES: tuple[str, ...] = (
    "cos",
    "best_sentence",
    "coverage",
    "topic",
    "bigram",
    "substantive",
    "log_length",
    "type_known",
    "type_prob",
    "type_mismatch",
    "other_type_max",
    "type_agreement",
    "kind_asked",
    "kind_matched",
    "kind_missing",
    "value_asked",
    "value_missing_in_clause",
    "untyped_cos",
    "untyped_coverage",
    "untyped_best_sentence",
    "translated_coverage",
    "translated_best_sentence",
    "party_named",
    "role_named",
    "role_other",
    "definitions",
)

EVIDENCE_DROPPED: tuple[str, ...] = ("coverage", "cos")
"""Scalar features the evidence model does not read. Why: fitted beside ``best_sentence`` it took a
negative weight (the candidates are ranked by coverage, so among them a window that covers the
question across many sentences is more often a bystander), and a clause that states the answer in
words of the question ("Either party may terminate this Agreement without cause at any time …")
scored 0.38 for "May either party end the contract without cause?" because it covered all of them.
The passage's vector similarity (``cos``) went the same way for the same reason (the candidates are
also ranked by it; weight −0.67 per unit); without either, all three fit-part figures of
``train thresholds`` rose (0.873 / 0.504 / 0.470 → 0.874 / 0.513 / 0.472 → 0.878 / 0.515 / 0.478)."""
EVIDENCE_COLUMNS: tuple[int, ...] = tuple(
    i for i, n in enumerate(SCALAR_FEATURES) if n not in EVIDENCE_DROPPED
)
"""Columns of ``feature_matrix`` the evidence model reads, in order."""

LENGTH_SCALE: float = math.log(1000.0)
"""log(1 + characters) is divided by this, so a 1,000-character passage has length feature 1."""


@dataclass(frozen=True)
class QuestionView:
    """A question as the features see it: its vector and clause types."""

    text: str
    vec: np.ndarray  # (512,) unit vector
    types: tuple[int, ...]  # indices of the clause types asked about (thesaurus or classifier)
    type_probs: np.ndarray  # (K,) clause-type classifier applied to the question's vector


@dataclass(frozen=True)
class PassageView:
    """A passage as the features see it: its vector and its clause types."""

    text: str
    vec: np.ndarray  # (512,)
    clause_probs: np.ndarray  # (K,) probability that the passage (its best part) is each clause type
    parts: tuple[str, ...] = ()  # the whole passage, then its clause segments (``dense.segments``)
    part_probs: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))  # (1 + S, K)


def asked_clause_text(q: QuestionView, p: PassageView) -> str:
    """The part of the passage that is the asked clause: the whole passage or the clause segment
    most likely of the asked type (the whole passage when no type is asked or it has no segments)."""
    if not q.types or len(p.parts) < 2:
        return p.text
    best = [max(float(row[i]) for i in q.types) for row in p.part_probs]
    return p.parts[int(np.argmax(best))]


def scalar_row(
    q: QuestionView, p: PassageView, lex: LexicalFeatures, translated_untyped: bool = False
) -> list[float]:
    """The scalar features of one (question, passage) pair, in ``SCALAR_FEATURES`` order.

    ``translated_untyped`` (run time only): in the ``untyped_*`` features a word matched through the
    glossary counts as matched, so the weights fitted on same-language matches apply to it."""
    untyped_coverage, untyped_best = lex.coverage, lex.best_sentence
    if translated_untyped:
        untyped_coverage = lex.coverage + lex.translated
        untyped_best = max(lex.best_sentence, lex.translated_best_sentence)
    cos = float(q.vec @ p.vec)
    known = 1.0 if q.types else 0.0
    type_prob = float(max(p.clause_probs[i] for i in q.types)) if q.types else 0.0
    others = [float(v) for i, v in enumerate(p.clause_probs) if i not in q.types]
    weights = q.type_probs / (float(q.type_probs.sum()) or 1.0)
    asked = 1.0 if lex.kinds else 0.0
    matched = 1.0 if lex.matched else 0.0
    values = value_kinds(lex.kinds)  # looked for in the asked clause: only defined when a type is asked
    clause_has = bool(held_kinds(values, asked_clause_text(q, p))) if values else True
    return [
        cos,
        lex.best_sentence,
        lex.coverage,
        lex.topic,
        lex.bigram,
        1.0 if lex.substantive else 0.0,
        math.log1p(len(p.text)) / LENGTH_SCALE,
        known,
        type_prob,
        known * (1.0 - type_prob),
        known * max(others, default=0.0),  # "another type than the asked one": none asked, none other
        float(weights @ p.clause_probs),
        asked,
        matched,
        asked * (1.0 - matched),
        known * (1.0 if values else 0.0),
        known * (0.0 if clause_has else 1.0),
        (1.0 - known) * cos,
        (1.0 - known) * untyped_coverage,
        (1.0 - known) * untyped_best,
        lex.translated,
        lex.translated_best_sentence,
        1.0 if lex.kinds == ("entity",) and lex.matched else 0.0,
        1.0 if lex.role_named else 0.0,
        1.0 if lex.role_other else 0.0,
        known * definition_share(asked_clause_text(q, p)),
    ]


_SENTENCE_END = re.compile(r"[.;。；](?:\s|$)")


def definition_share(text: str) -> float:
    """The share of a passage's sentences that define a term ("X shall mean …"), at most 1.

    Why (session 32, fit-part diagnosis of EVIDENCE precision): a typed question's EVIDENCE passages off
    the gold spans included definitions that name the asked subject ("1.51 VERTICALNET COMPETITOR shall
    mean …" for a non-compete question, "1.11 INTELLECTUAL PROPERTY RIGHTS shall mean …" for IP
    assignment); a definition is sometimes the answer ("INITIAL TERM shall mean …"), so the fit weighs it."""
    sentences = max(1, len(_SENTENCE_END.findall(text)))
    return min(1.0, len(definitions(text)) / sentences)


def feature_matrix(
    q: QuestionView,
    passages: list[PassageView],
    lex: list[LexicalFeatures],
    interaction: bool,
    translated_untyped: bool = False,
) -> np.ndarray:
    """Rows of features for one question's passages; ``interaction`` appends q⊙p (512 columns)."""
    rows = np.asarray(
        [scalar_row(q, p, x, translated_untyped) for p, x in zip(passages, lex, strict=True)],
        dtype=np.float64,
    )
    rows = rows.reshape(len(passages), len(SCALAR_FEATURES))
    if not interaction:
        return rows
    prods = np.stack([q.vec * p.vec for p in passages]) if passages else np.zeros((0, len(q.vec)))
    return np.hstack([rows, prods.astype(np.float64)])
