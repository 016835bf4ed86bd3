"""Training sets of the fitted judge, built from ``../shared/data/train`` only.

Why these sets: PrivacyQA pairs say whether a clause is *relevant* to a question. CUAD gives, per
contract and clause category, the exact spans or the fact that the contract lacks the clause: a
contract window that holds a span of the asked category is *evidence*, the other windows of the
same contract (other clauses, or nothing, when the category is absent) are not. The contracts are
split by a hash of their file name into a fit part and a check part, so the check part (and
``bench refusal``) is made of contracts the weights never saw; the fit part's questions use
phrasing 0 of ``clause_types``, the check part's phrasing 1.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from rag_core.chunking import split_range
from rag_core.judge.clause_types import BY_NAME, CATEGORY_NAMES
from rag_core.settings import JudgeTrainSettings

PRIVACYQA = "privacyqa_train.jsonl"
SPANS = "cuad/clause_spans.jsonl"
CONTRACTS = "cuad/contracts"


@dataclass
class Contract:
    """One CUAD contract: text, windows, and per known category its spans (empty = absent)."""

    name: str
    text: str
    windows: list[tuple[int, int]]
    spans: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    labels: list[set[str]] = field(default_factory=list)  # per window: categories it holds
    pool: list[int] = field(default_factory=list)  # the windows used: all labelled + a sample of plain
    party_spans: list[tuple[int, int]] = field(default_factory=list)  # CUAD "Parties": the names
    title: str = ""  # CUAD "Document Name" (its first span), "" when not given


@dataclass(frozen=True)
class Pair:
    """One (question, text) pair with its gold label; ``group`` keeps pairs of one source together."""

    question: str
    text: str
    label: bool
    group: str
    sentence: bool = False  # a single sentence (sentence-level evidence), not a window
    relevant: bool | None = None  # the relevance label when it differs from ``label`` (None: the same)
    fact_removed: bool = False  # a gold window with the asked fact cut out (counterfactual)
    ranked: bool = False  # one of the top retrieval-ranked windows of its contract for the question
    party: bool = False  # asked who the parties are (``party_pairs``)

    @property
    def is_relevant(self) -> bool:
        return self.label if self.relevant is None else self.relevant


def is_check(name: str, ts: JudgeTrainSettings) -> bool:
    """The contract belongs to the held-out check part (stable: a hash of its file name)."""
    return int(hashlib.sha1(name.encode("utf-8")).hexdigest(), 16) % ts.check_share == 0


def holds(window: tuple[int, int], span: tuple[int, int], ts: JudgeTrainSettings) -> bool:
    """The window covers enough of the span (or the span enough of the window) to hold the clause."""
    inter = min(window[1], span[1]) - max(window[0], span[0])
    return inter > 0 and inter >= ts.span_overlap_min * min(span[1] - span[0], window[1] - window[0])


def load_contracts(train_dir: Path, ts: JudgeTrainSettings) -> list[Contract]:
    """All CUAD training contracts with their windows and the known categories' spans, by name."""
    by_name: dict[str, Contract] = {}
    for path in sorted((train_dir / CONTRACTS).glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        windows = split_range(text, 0, len(text), ts.window_chars, ts.window_overlap)
        by_name[path.name] = Contract(path.name, text, windows)
    with (train_dir / SPANS).open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            c = by_name.get(row["file"])
            if c is not None and row["category"] == PARTIES and row["present"]:
                c.party_spans = [(int(s["start"]), int(s["end"])) for s in row["spans"]]
            if c is not None and row["category"] == DOCUMENT_NAME and row["present"] and row["spans"]:
                c.title = " ".join(str(row["spans"][0]["text"]).split())
            if c is None or row["category"] not in BY_NAME:
                continue
            c.spans[row["category"]] = (
                [(int(s["start"]), int(s["end"])) for s in row["spans"]] if row["present"] else []
            )
    for c in by_name.values():
        c.labels = [{k for k, sp in c.spans.items() if any(holds(w, s, ts) for s in sp)} for w in c.windows]
        plain = [i for i, lab in enumerate(c.labels) if not lab]
        rng = random.Random(f"{ts.seed}|{c.name}")
        labelled = [i for i, lab in enumerate(c.labels) if lab]
        c.pool = sorted(
            _sample(rng, labelled, ts.clause_positives) + _sample(rng, plain, ts.clause_negatives)
        )
    return [by_name[n] for n in sorted(by_name)]


def load_privacyqa(train_dir: Path) -> list[Pair]:
    """PrivacyQA training pairs, grouped by question."""
    pairs: list[Pair] = []
    with (train_dir / PRIVACYQA).open(encoding="utf-8") as fh:
        for line in fh:
            r = json.loads(line)
            q = str(r["question"]).strip()
            pairs.append(Pair(q, str(r["context"]), str(r["answer"]).strip().lower() == "true", f"pqa:{q}"))
    return pairs


def question_for(category: str, contract: str, phrasing: int) -> str:
    """One phrasing of the question about ``category``; English or Chinese by a hash of the pair."""
    ct = BY_NAME[category]
    zh = int(hashlib.sha1(f"{contract}|{category}".encode()).hexdigest(), 16) % 2 == 1
    return (ct.questions_zh if zh else ct.questions_en)[phrasing]


def _sample(rng: random.Random, items: list[int], n: int) -> list[int]:
    return sorted(rng.sample(items, min(n, len(items))))


def _sentence_pairs(
    c: Contract, win: tuple[int, int], question: str, category: str, group: str, n: int
) -> list[Pair]:
    """Sentences of a gold window, labelled by whether each overlaps a span of the category."""
    from rag_core.judge.dense import sentences

    text = c.text[win[0] : win[1]]
    out: list[Pair] = []
    pos = 0
    for s in sentences(text)[:n]:
        at = text.find(s, pos)
        if at < 0:
            continue
        pos = at + len(s)
        lo, hi = win[0] + at, win[0] + at + len(s)
        label = any(min(hi, e) - max(lo, b) > 0 for b, e in c.spans.get(category, []))
        out.append(Pair(question, s, label, group, sentence=True))
    return out


def _sentence_turn(contract: str, category: str, ts: JudgeTrainSettings) -> bool:
    """One present-clause question in ``sentence_every`` also yields sentence-level pairs."""
    return int(hashlib.sha1(f"s|{contract}|{category}".encode()).hexdigest(), 16) % ts.sentence_every == 0


def evidence_pairs(
    contracts: list[Contract],
    ts: JudgeTrainSettings,
    phrasing: int,
    categories: tuple[str, ...] = CATEGORY_NAMES,
) -> list[Pair]:
    """Per (contract, category): gold windows, windows of other clause types and random windows."""
    rng = random.Random(ts.seed + phrasing)
    pairs: list[Pair] = []
    for c in contracts:
        for k in categories:
            if k not in c.spans:
                continue
            q = question_for(k, c.name, phrasing)
            group = f"cuad:{c.name}"
            idx = c.pool
            gold = [i for i in idx if k in c.labels[i]]
            other = [i for i in idx if c.labels[i] and k not in c.labels[i]]
            plain = [i for i in idx if not c.labels[i]]
            chosen = _sample(rng, gold, ts.evidence_positives)
            chosen += _sample(rng, other, ts.evidence_other) + _sample(rng, plain, ts.evidence_random)
            for i in chosen:
                s, e = c.windows[i]
                pairs.append(Pair(q, c.text[s:e], i in gold, group))
            if gold and ts.sentence_pairs and _sentence_turn(c.name, k, ts):
                pairs += _sentence_pairs(c, c.windows[chosen[0]], q, k, group, ts.sentence_pairs)
            pairs += fact_removed_pairs(c, [i for i in chosen if i in gold], q, group, ts)
            if ts.value_questions and gold:
                pairs += value_question_pairs(c, k, chosen, gold, group, ts)
            if ts.heading_pairs:
                pairs += heading_pairs(c, k, [i for i in chosen if i in gold], q, group)
    return pairs


PARTIES = "Parties"
"""The CUAD category whose spans are the parties' names (no clause type: ``party_pairs`` asks for it)."""
PARTY_QUESTIONS: tuple[str, ...] = (
    "Who are the parties to this agreement?",
    "合同双方是谁？",
    "Who are the parties to the contract?",
    "本协议的当事人是谁？",
    "Who are the contracting parties?",
    "签约双方分别是谁？",
)
"""Fit-only questions asking who the parties are (each one ``asks_party_identity``)."""
PARTY_QUESTIONS_NAMED: tuple[str, ...] = ("Who are the parties to the {title}?", "《{title}》的双方是谁？")
"""The same question naming the contract by its title, as a lawyer asks in a base of many contracts:
the title's words are in every window that says "this Agreement", the names only in a few."""
DOCUMENT_NAME = "Document Name"
TITLE_MAX_CHARS = 80
"""A longer CUAD "Document Name" span is a sentence, not a title to ask by."""
ENTITY: tuple[str, ...] = ("entity",)
PARTY_RANKER = "parties to this agreement"
"""The words the hard negatives of a party question are ranked by, whatever its language (a Chinese
question covers no word of an English window)."""


def _party_windows(c: Contract, ts: JudgeTrainSettings) -> tuple[list[int], list[int]]:
    """The windows holding a party's name, and those touching none and repeating no full name (a
    signature block names the parties where CUAD marks nothing)."""
    from rag_core.judge.relevance import held_kinds

    gold = [i for i, w in enumerate(c.windows) if any(holds(w, sp, ts) for sp in c.party_spans)]
    names = {n.lower() for n in (c.text[b:e].strip() for b, e in c.party_spans) if held_kinds(ENTITY, n)}
    clear = [
        i
        for i, (ws, we) in enumerate(c.windows)
        if not any(min(we, e) > max(ws, b) for b, e in c.party_spans)
        and not any(n in c.text[ws:we].lower() for n in names)
    ]
    return gold, clear


def _top_by_words(c: Contract, words: str, candidates: list[int], n: int) -> list[int]:
    """The ``n`` candidate windows sharing most of ``words`` (IDF-weighted coverage)."""
    from rag_core.judge.relevance import coverage_scores

    cov = coverage_scores(words, [c.text[s:e] for s, e in (c.windows[i] for i in candidates)])
    return [candidates[j] for j in np.argsort(-np.asarray(cov), kind="stable")[:n]]


def party_pairs(contracts: list[Contract], ts: JudgeTrainSettings, phrasing: int) -> list[Pair]:
    """Per contract, a question asking who the parties are: windows holding a party's name (CUAD
    "Parties") are evidence; the windows that share most words with "parties to this agreement" and
    name none ("This Agreement constitutes the entire agreement between the parties"), and a few
    random ones, are not. And, where the contract names someone by a role ("Licensee"), a question
    asking who that role is (``role_pairs``). These rows fit the party model alone
    (``training.fit_party``), neither the relevance nor the shared evidence model.

    Why: no training question asked who a party is, so for "Who are the parties to the share
    transfer agreement?" the evidence model read only word coverage: the entire-agreement clause and
    "IN WITNESS WHEREOF, the parties have executed …" scored 0.94–0.97 and the party lines that name
    both companies 0.20–0.35, which hold no word of the question."""
    if not ts.party_questions:
        return []
    rng = random.Random(ts.seed + 1000 + phrasing)
    asked = [c for c in contracts if c.party_spans]
    pairs: list[Pair] = []
    for k, c in enumerate(asked):
        turn = int(hashlib.sha1(f"p|{c.name}|{phrasing}".encode()).hexdigest(), 16)
        q = PARTY_QUESTIONS[turn % len(PARTY_QUESTIONS)]
        if c.title and len(c.title) <= TITLE_MAX_CHARS and turn % 3 == 0:
            q = PARTY_QUESTIONS_NAMED[turn % 2].format(title=c.title.title())
        gold, clear = _party_windows(c, ts)
        top = _top_by_words(c, PARTY_RANKER, clear, ts.party_negatives)
        rest = [i for i in clear if i not in top]
        chosen = _sample(rng, gold, ts.evidence_positives) + top + _sample(rng, rest, ts.evidence_random)
        for i in chosen:
            s, e = c.windows[i]
            pairs.append(Pair(q, c.text[s:e], i in gold, f"cuad:{c.name}", party=True))
        others = asked[k + 1 :] + asked[:k]
        pairs += role_pairs(c, gold, clear, others, ts, turn)
    return pairs


PARTY_ROLE_QUESTION = "Who is the {role}?"
"""A fit-only question asking who one role of the contract is (``role_pairs``)."""


def role_pairs(
    c: Contract, gold: list[int], clear: list[int], others: list[Contract], ts: JudgeTrainSettings, turn: int
) -> list[Pair]:
    """A question asking who one of the roles the contract names someone as is ("Who is the
    Distributor?", a role of ``relevance.party_labels``): the windows naming someone as it are
    evidence; the windows sharing most words with it that name no one, and the windows of other
    contracts that name their parties as other roles, are not.

    Why: "房东是谁？" over a lease and an employment contract quoted "劳动者（乙方）：王某" first: both lines
    name a party, and a question naming a role was fitted like one asking for all of them."""
    from rag_core.judge.relevance import names_asked_role, party_labels

    labelled = {i: party_labels(c.text[s:e]) for i, (s, e) in ((i, c.windows[i]) for i in gold)}
    roles = sorted({r for labels in labelled.values() for r in labels if r.isascii()})
    if not roles or not ts.party_other_windows:
        return []
    role = roles[turn % len(roles)]
    q = PARTY_ROLE_QUESTION.format(role=role.title())
    group = f"cuad:{c.name}"
    named = [i for i, labels in labelled.items() if names_asked_role((role,), labels)][
        : ts.evidence_positives
    ]
    out = [Pair(q, c.text[s:e], True, group, party=True) for s, e in (c.windows[i] for i in named)]
    unnamed = [i for i in clear if not names_asked_role((role,), party_labels(c.text[slice(*c.windows[i])]))]
    for i in _top_by_words(c, role, unnamed, ts.party_negatives // 2):
        s, e = c.windows[i]
        out.append(Pair(q, c.text[s:e], False, group, party=True))
    found = 0
    for o in others:  # another contract's party lines, naming other roles only
        o_gold, _ = _party_windows(o, ts)
        for i in o_gold[:1]:
            text = o.text[o.windows[i][0] : o.windows[i][1]]
            labels = party_labels(text)
            if labels and not names_asked_role((role,), labels):
                out.append(Pair(q, text, False, group, party=True))
                found += 1
        if found >= ts.party_other_windows:
            break
    return out


RRF_K: float = 60.0
"""Reciprocal-rank-fusion constant of ``rank_windows`` (the retrieval default)."""


def rank_windows(question: str, qvec: np.ndarray, texts: list[str], wvecs: np.ndarray, n: int) -> list[int]:
    """Indices of the ``n`` texts ranked first by reciprocal-rank fusion of usem cosine and lexical
    coverage: how ``bench refusal`` stands in for retrieval, and how ``ranked_pairs`` picks the
    windows the evidence model must tell apart — the same function, so the fit sees the bench's
    (and retrieval's) kind of candidates."""
    from rag_core.judge.relevance import coverage_scores
    from rag_core.retrieval.fusion import rrf

    if not texts:
        return []
    cos = wvecs @ qvec
    lex = np.asarray(coverage_scores(question, texts))
    by_cos = [str(i) for i in np.argsort(-cos, kind="stable")]
    by_lex = [str(i) for i in np.argsort(-lex, kind="stable")]
    return [int(i) for i, _ in rrf([by_cos, by_lex], k=RRF_K)[:n]]


def ranked_contracts(contracts: list[Contract], n: int) -> list[Contract]:
    """The first ``n`` contracts in name-hash order (a sample that does not follow the alphabet)."""
    return sorted(contracts, key=lambda c: hashlib.sha1(c.name.encode()).hexdigest())[:n]


@dataclass(frozen=True)
class Ranked:
    """One (contract, category) question and the indices of its contract's top-ranked windows."""

    contract: Contract
    category: str
    question: str
    top: tuple[int, ...]


def rank_contracts(
    contracts: list[Contract],
    ts: JudgeTrainSettings,
    phrasing: int,
    embed_fn: Callable[[list[str]], np.ndarray],
    categories: tuple[str, ...] = CATEGORY_NAMES,
) -> list[Ranked]:
    """Per (contract among the first ``ranked_contracts``, known category): the top
    ``ranked_candidates`` windows of the whole contract as ``rank_windows`` ranks them."""
    from rag_core.judge.dense import passage_vectors

    chosen = ranked_contracts(contracts, ts.ranked_contracts)
    asked = [(c, k, question_for(k, c.name, phrasing)) for c in chosen for k in categories if k in c.spans]
    qvecs = dict(zip([q for _, _, q in asked], embed_fn([q for _, _, q in asked]), strict=True))
    out: list[Ranked] = []
    current: tuple[str, list[str], np.ndarray] = ("", [], np.zeros((0, 0)))
    for c, k, q in asked:
        if current[0] != c.name:
            texts = [c.text[s:e] for s, e in c.windows]
            current = (c.name, texts, passage_vectors(texts, embed_fn))
        _, texts, wvecs = current
        out.append(Ranked(c, k, q, tuple(rank_windows(q, qvecs[q], texts, wvecs, ts.ranked_candidates))))
    return out


def ranked_pairs(ranked: list[Ranked], ts: JudgeTrainSettings) -> list[Pair]:
    """The ranked windows of each question, evidence when the window holds a gold span of the
    category, not evidence when it touches none (windows that only graze a span are left out).

    Why (issue 10): the random windows of ``evidence_pairs`` are easy negatives; at run time the
    candidates are retrieval-ranked — clauses of the same topic in the same contract (the indemnity
    above the liability cap) — and for an absent clause type *every* candidate is such a window.
    Fitted only on the random ones, EVIDENCE precision on ranked candidates was 0.43."""
    pairs: list[Pair] = []
    for r in ranked:
        c, spans = r.contract, r.contract.spans[r.category]
        for i in r.top:
            w = c.windows[i]
            gold = any(holds(w, sp, ts) for sp in spans)
            if gold or not any(min(w[1], e) > max(w[0], b) for b, e in spans):
                pairs.append(Pair(r.question, c.text[w[0] : w[1]], gold, f"cuad:{c.name}", ranked=True))
    return pairs


def heading_pairs(c: Contract, category: str, gold: list[int], question: str, group: str) -> list[Pair]:
    """Lines that only name things: the contract's title (neither relevant nor evidence) and the
    heading line of a gold window's clause (relevant — it names the asked clause — but not evidence).

    Why: a knowledge base's chunks include title-only and heading-only pieces ("房屋租赁合同"), and
    the windows the judge was fitted on never were one; a six-character title scored 0.78 as evidence."""
    from rag_core.chunking import find_headings

    out: list[Pair] = []
    title = c.text.strip().split("\n", 1)[0].strip()
    if title:
        out.append(Pair(question, title[:HEADING_MAX_CHARS], False, group, relevant=False))
    for i in gold[:1]:
        s, e = c.windows[i]
        span_start = min((b for b, f in c.spans.get(category, []) if f > s and b < e), default=e)
        before = [h for h in find_headings(c.text[s:e]) if s + h.start <= span_start]
        if before:  # the heading of the clause the gold span is in (its number and title only)
            out.append(Pair(question, before[-1].label[:HEADING_MAX_CHARS], False, group, relevant=True))
    return out


HEADING_MAX_CHARS = 120
"""A heading line longer than this runs into its clause's text: it is cut here."""


VALUE_TEMPLATES: dict[str, tuple[str, str]] = {
    "period": ("How long does the {en} provision last?", "{zh}条款约定的期限是多久？"),
    "amount": ("What amount is set in the {en} provision?", "{zh}条款约定的金额是多少？"),
    "date": ("What date is set in the {en} provision?", "{zh}条款约定的日期是哪天？"),
    "percent": ("What percentage is set in the {en} provision?", "{zh}条款约定的比例是多少？"),
}
"""Fit-only questions asking for the value a clause states (never asked by ``bench refusal``)."""


def _span_text(c: Contract, window: tuple[int, int], category: str) -> str:
    """The part of the window inside the category's gold spans."""
    parts = [c.text[max(window[0], b) : min(window[1], e)] for b, e in c.spans.get(category, [])]
    return " ".join(p for p in parts if p)


def value_question_pairs(
    c: Contract, category: str, chosen: list[int], gold: list[int], group: str, ts: JudgeTrainSettings
) -> list[Pair]:
    """A question asking for the value (period, amount, date, percentage) the clause's gold text
    states: gold windows whose span part states it are evidence; gold windows that do not, and the
    fact-removed copies, are relevant but not evidence; the other chosen windows are neither.

    Why: the bench-style questions of ``clause_types`` mostly ask yes/no, so without these the
    evidence model sees few questions where the asked clause is present but the asked fact is not."""
    from rag_core.judge.relevance import held_kinds

    spans_text = " ".join(c.text[b:e] for b, e in c.spans.get(category, []))
    kinds = held_kinds(tuple(VALUE_TEMPLATES), spans_text)
    if not kinds:
        return []
    ct = BY_NAME[category]
    zh = int(hashlib.sha1(f"v|{c.name}|{category}".encode()).hexdigest(), 16) % 2 == 1
    question = VALUE_TEMPLATES[kinds[0]][1 if zh else 0].format(en=ct.en, zh=ct.zh)
    out: list[Pair] = []
    holding: list[int] = []
    for i in chosen:
        s, e = c.windows[i]
        states = i in gold and bool(held_kinds(kinds[:1], _span_text(c, (s, e), category)))
        holding += [i] if states else []
        out.append(Pair(question, c.text[s:e], states, group, relevant=i in gold))
    return out + fact_removed_pairs(c, holding, question, group, ts)


def fact_removed_pairs(
    c: Contract, gold: list[int], question: str, group: str, ts: JudgeTrainSettings
) -> list[Pair]:
    """Gold windows of a question asking for a value (a date, period, amount, number) with those
    values cut out: relevant (still the asked clause) but not evidence (the asked fact is gone).

    Why: CUAD's gold windows nearly always state the asked fact, so without these the evidence
    model cannot learn that "a clause of the asked type without the asked fact" does not answer —
    and relevance and evidence collapse into one score (issue 10)."""
    from rag_core.judge.relevance import asked_kinds, value_kinds, without_values

    kinds = value_kinds(tuple(asked_kinds(question)))
    if not kinds:
        return []
    out: list[Pair] = []
    for i in gold[: ts.fact_removed]:
        s, e = c.windows[i]
        text = without_values(c.text[s:e], kinds)
        if text is not None:
            out.append(Pair(question, text, False, group, relevant=True, fact_removed=True))
    return out


def clause_examples(
    contracts: list[Contract], ranked: list[Ranked] | None = None, ts: JudgeTrainSettings | None = None
) -> list[tuple[str, set[str], str]]:
    """(text, categories it holds, contract) for the clause classifier: per contract its pool
    (windows holding a span, ``clause_negatives`` random windows holding none), the windows ranked
    first for any category question (``ranked``) and, with ``ts.clause_sentences``, the sentences
    of its pool windows.

    Why the ranked windows: they are the hard negatives of the absent-clause gate — the windows
    retrieval puts first for "Is there a non-compete?" in a contract that has none. Why sentences:
    the classifier is also applied to single sentences (sentence-level evidence for the quoted
    answer and the support check), and fitted on 700-character windows only it called "The goods
    shall be delivered to the Buyer's warehouse." as much a warranty period as the warranty itself."""
    extra: dict[str, set[int]] = {}
    for r in ranked or []:
        extra.setdefault(r.contract.name, set()).update(r.top)
    out: list[tuple[str, set[str], str]] = []
    for c in contracts:
        for i in sorted({*c.pool, *extra.get(c.name, set())}):
            s, e = c.windows[i]
            out.append((c.text[s:e], c.labels[i], c.name))
        if ts is not None and ts.clause_sentences:
            out += [(t, lab, c.name) for t, lab in window_sentences(c, c.pool, ts)]
    return out


def window_sentences(c: Contract, windows: list[int], ts: JudgeTrainSettings) -> list[tuple[str, set[str]]]:
    """Each window's sentences that hold a span (with the categories whose spans they hold, by
    ``holds`` as for windows) and its first ``clause_sentences`` sentences holding none; each
    distinct sentence once."""
    from rag_core.judge.dense import sentences

    seen: set[str] = set()
    out: list[tuple[str, set[str]]] = []
    for i in windows:
        s, e = c.windows[i]
        text, pos, plain = c.text[s:e], 0, 0
        for sent in sentences(text):
            at = text.find(sent, pos)
            if at < 0 or sent in seen:
                continue
            pos, lo = at + len(sent), s + at
            span = (lo, lo + len(sent))
            labels = {k for k, sp in c.spans.items() if any(holds(span, x, ts) for x in sp)}
            plain += not labels
            if labels or plain <= ts.clause_sentences:
                seen.add(sent)
                out.append((sent, labels))
    return out


def train_hash(train_dir: Path, ts: JudgeTrainSettings) -> str:
    """sha256 over the training files, the train settings and the judge's feature and fit code.

    Any change to data, settings or the code that computes features makes the committed weights
    stale; the test suite recomputes this and compares it with the hash stored in the weights.
    """
    h = hashlib.sha256()
    for rel in (PRIVACYQA, SPANS):
        h.update(rel.encode())
        h.update((train_dir / rel).read_bytes())
    for path in sorted((train_dir / CONTRACTS).glob("*.txt")):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    h.update(ts.model_dump_json().encode())
    here = Path(__file__).parent
    for src in (
        "train_sets.py",
        "training.py",
        "features.py",
        "fitted.py",
        "clause_types.py",
        "clause_lexicon.py",
        "clauses_zh.py",
        "relevance.py",
        "values.py",  # the kinds of value a passage holds are features (value_missing_in_clause, kind_matched)
        "dense.py",
        "glossary.py",
        "qa_zh.py",  # the Chinese head's training pairs
        "zh_head.py",
        "zh_head_training.py",
    ):
        h.update((here / src).read_bytes())
    h.update((here.parent / "definitions.py").read_bytes())  # the definition_share feature
    return h.hexdigest()
