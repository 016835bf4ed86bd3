"""Step 4, judge: the four questions for every candidate, labelled in seed 000's classify order;
then (``verdict.salvage_injected_passages``) a passage dropped as INJECTION may hand on a
salvaged excerpt, re-judged on its own (``judge.salvage``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from rag_core.coded import coded
from rag_core.judge.base import Judge, passage_from_hit, thresholds_of, verdict_record
from rag_core.judge.classify import EVIDENCE, apply_evidence_margin, select_kept
from rag_core.judge.clause_gate import asked_clause_type
from rag_core.judge.clause_types import DOCUMENT_TOPICS, thesaurus_types, topics_named
from rag_core.judge.doc_scope import apply_doc_scope, cap_to_cited, covered_terms, title_words
from rag_core.judge.documents_differ import apply_documents_differ, states_premise_ids
from rag_core.judge.factory import make_judge
from rag_core.judge.party_premise import premise_binding
from rag_core.judge.premise_held import apply_premise_held
from rag_core.judge.salvage import salvage_passage
from rag_core.llm.base import ChatModel
from rag_core.models import ChatTurn, Hit, Verdict
from rag_core.retrieval.query_building import (
    about_previous_subject,
    build_retrieval_query,
    chained_turns,
    elliptical,
    previous_question,
    refers_back,
    with_new_subject,
)
from rag_core.retrieval.routing import in_document_query, strip_names
from rag_core.settings import Settings, VerdictSettings
from rag_core.steps.turn import Turn
from rag_core.trace import VerdictRecord, VerdictStage
from rag_core.trace_defence import CutRecord
from rag_core.trace_retrieval import RetrievalRecord
from storage.store import Store

Documents = Mapping[str, tuple[str, str]]
"""Document id → (file name, text) of the documents the candidates come from (``judge.doc_scope``)."""


@dataclass(frozen=True)
class Salvaged:
    """An INJECTION passage's excerpt that passed its own verdict: the hit (uncut text), what was
    cut from it, and the excerpt's verdict (the passage's own verdict stays INJECTION)."""

    hit: Hit
    cuts: tuple[CutRecord, ...]
    verdict: Verdict


@dataclass(frozen=True)
class Judged:
    """The verdicts (settled, and as trace records) and the hits kept, best first; ``raw``: the
    verdicts as the judge returned them, before ``settle_labels`` (settled again under other scopes
    without asking the judge again)."""

    verdicts: tuple[Verdict, ...]
    stage: VerdictStage
    kept: tuple[Hit, ...]
    salvaged: tuple[Salvaged, ...] = ()
    raw: tuple[Verdict, ...] = ()

    @property
    def conflicting_ids(self) -> set[str]:
        """The CONFLICTING passages, salvaged excerpts among them: the excerpt of "Within ninety (90) days … the
        Processor shall … return or delete all personal data" (its planted summary directive cut) contradicts "The
        processor may keep personal data for five years, right?", yet was handed on unmarked (session 37)."""
        salvaged = {s.hit.chunk_id for s in self.salvaged if s.verdict.label == "CONFLICTING"}
        return {v.passage_id for v in self.verdicts if v.label == "CONFLICTING"} | salvaged

    @property
    def affirming_ids(self) -> set[str]:
        """The passages stating the yes/no question's value that another document contradicts."""
        return states_premise_ids(self.verdicts)

    @property
    def salvage_cuts(self) -> dict[str, tuple[CutRecord, ...]]:
        """Chunk id → sentences cut, for the salvaged hits (all of them kept)."""
        return {s.hit.chunk_id: s.cuts for s in self.salvaged}


def salvage_dropped(
    question: str, verdicts: tuple[Verdict, ...], hits: list[Hit], judge: Judge, settings: Settings
) -> list[Salvaged]:
    """Excerpts of the INJECTION passages that, with the attack cut, the judge keeps on their own.

    Why re-judged: the excerpt must earn its place like any passage (relevant, with evidence),
    and the judge must find no injection left in it; one batch call for all of them.
    """
    by_id = {h.chunk_id: (i, h) for i, h in enumerate(hits)}
    found = []
    for v in verdicts:
        if v.label != "INJECTION":
            continue
        rank, hit = by_id[v.passage_id]
        excerpt = salvage_passage(hit.text, settings.verdict)
        if excerpt is not None:
            found.append((hit, excerpt, replace(passage_from_hit(rank + 1, hit), text=excerpt.text)))
    if not found:
        return []
    again = judge.judge(question, [p for _, _, p in found])
    return [
        Salvaged(hit, excerpt.cuts, w)
        for (hit, excerpt, _), w in zip(found, again, strict=True)
        if w.keep and w.label != "INJECTION"
    ]


def question_as_asked(turn: Turn) -> str:
    """The question document scope reads: as asked (or its standalone rewrite), with the words that named
    a routed contract (``settle_labels``)."""
    return turn.query.condensed if turn.query and turn.query.condensed else turn.req.question


def judged_question(question: str, retrieval: RetrievalRecord | None) -> str:
    """The question without the words that named a routed contract ("" when nothing was routed).

    Why: inside the routed contract its own name ("the Distributor Agreement between ScanSource and
    Cisco") matches the title block and headers, so the judge and the quoted answer took a title
    line for evidence (0.74 for "1. Nonexclusive Value Added Distributor Agreement Terms and
    Conditions" against 0.02 without the name). Retrieval already searches inside the contract
    with this query; the judge reads the same. Unless the question asserts who a party is ("Is the
    licensee Northwind Software Inc.?", ``party_premise``): that name is what is asked, and stripped
    the premise check read "Is the licensee Inc.?".
    """
    names = list(retrieval.routed_names()) if retrieval else []
    if premise_binding(question) is not None:
        return ""
    stripped = in_document_query(question, names).strip() if names else ""
    return stripped if stripped and stripped != question else ""


def without_title_words(question: str, docs: Documents) -> str:
    """The question without the words that named its one contract among several (``doc_scope.title_words``),
    a second reading for the judge (``judge_hits``' ``also``; "" when nothing is named, or when the words
    also say what is asked: removing them changes the question's clause types or topics, as 保密 in
    "保密协议的保密期限是多久？").

    Why: document scope already holds the question to that contract; inside it the naming word favours
    every clause that happens to repeat it — "设备总价是多少？" kept the payment clause ("设备验收合格后…总价款的百分之
    六十") and dropped the price clause below the evidence margin."""
    words = list(title_words(question, docs)) if docs else []
    if not words:
        return ""
    stripped = strip_names(question, words)
    if stripped == question:
        return ""
    # a topic the contract's own name says (借款 of 借款合同: the loan) is what every clause of it is about, not
    # what the question asks of it (session 38: the loan topic made "借款年利率是多少？" lose its second reading)
    named = {t.name for t in topics_named(" ".join(words))} & DOCUMENT_TOPICS
    same_ask = thesaurus_types(stripped) == thesaurus_types(question) and [
        t.name for t in topics_named(stripped) if t.name not in named
    ] == [t.name for t in topics_named(question) if t.name not in named]
    return stripped if same_ask else ""


def searched_documents(store: Store, hits: list[Hit], settings: Settings) -> dict[str, tuple[str, str]]:
    """The candidates' documents, read only when document scope can matter (two or more of them)."""
    ids = sorted({h.doc_id for h in hits})
    if not settings.verdict.scope_to_documents or len(ids) < 2:
        return {}
    names = {h.doc_id: h.doc for h in hits}
    return {d: (names[d], text) for d, text in store.docs.texts(ids).items()}


def settle_labels(
    question: str,
    verdicts: Sequence[Verdict],
    hits: list[Hit],
    docs: Documents | None,
    s: VerdictSettings,
    cited: Mapping[str, str] | None = None,
    scope_question: str = "",
) -> tuple[Verdict, ...]:
    """The set-wise steps after the per-passage labels, in order — document scope (with ``docs``,
    ``judge.doc_scope``; read on ``scope_question`` when given), the previous answer's documents for a
    follow-up (``cited``: document id → name, ``doc_scope.cap_to_cited``), a wh-question's value granted
    by a passage of a document (``judge.premise_held``), the evidence margin per document, then a yes/no
    question's value stated by one document and contradicted by another (``judge.documents_differ``) — so the
    chat, its salvaged excerpts and the threshold lab show the same labels.

    Why ``scope_question``: the judge reads the question without the words that named a routed contract
    (``judged_question``), but those words are what tells the documents apart: "商标许可合同的争议怎么解决？"
    was judged as "争议怎么解决？", the carriage contract's dispute clause stayed in scope beside the
    trademark licence's, and the answer quoted it first (session 35)."""
    doc_of = {h.chunk_id: h.doc_id for h in hits}
    if docs:
        verdicts = apply_doc_scope(scope_question or question, verdicts, doc_of, docs, s)
    if cited:
        verdicts = cap_to_cited(verdicts, doc_of, cited, s)
    texts = {h.chunk_id: h.text for h in hits}
    verdicts = apply_premise_held(question, verdicts, texts, s, doc_of)
    verdicts = apply_evidence_margin(verdicts, s, doc_of)
    return tuple(apply_documents_differ(question, verdicts, texts, s, doc_of))


def judge_hits(
    question: str,
    hits: list[Hit],
    settings: Settings,
    judge_model: ChatModel | None,
    judge_on: bool,
    docs: Documents | None = None,
    cited: Mapping[str, str] | None = None,
    also: str = "",
    scope_question: str = "",
) -> Judged:
    """Judge every hit, or with the judge off keep the first ``max_passages`` unjudged (plain RAG).

    With ``docs`` (``searched_documents``), passages of a document out of the question's scope have
    their evidence capped (``judge.doc_scope``); with ``cited``, those of documents other than these.
    With ``also`` (``without_title_words``), every passage is judged on that reading too and keeps the
    verdict of the reading that finds more evidence in it (``better_reading``). ``scope_question``: the
    question as asked, for document scope (``settle_labels``)."""
    thresholds = dict(thresholds_of(settings.verdict))
    if not judge_on or not hits:
        kept = tuple(hits[: settings.retrieval.max_passages])
        return Judged((), VerdictStage((), thresholds, len(kept), judged=judge_on), kept)
    judge = make_judge(settings, judge_model)
    passages = [passage_from_hit(i + 1, h) for i, h in enumerate(hits)]
    raw = tuple(judge.judge(question, passages))
    if also:
        raw = better_reading(raw, judge.judge(also, passages))
    return settle_judged(question, raw, hits, settings, judge, docs, cited, scope_question)


def better_reading(asked: Sequence[Verdict], plain: Sequence[Verdict]) -> tuple[Verdict, ...]:
    """Per passage, the verdict of the question as asked, or of its reading without the words naming
    the contract when that one finds more evidence in the passage.

    Why both: judged only without those words, questions whose naming word is also their object lost
    their answer ("出借人可以提前收回借款吗？" read as "出借人可以提前收回吗？", "Can the borrower use the loan to buy …?"
    without "loan", both refused); judged only as asked, "设备总价是多少？" dropped the price clause."""
    return tuple(
        p if p.scores[EVIDENCE] > a.scores[EVIDENCE] else a for a, p in zip(asked, plain, strict=True)
    )


def settle_judged(
    question: str,
    raw: tuple[Verdict, ...],
    hits: list[Hit],
    settings: Settings,
    judge: Judge,
    docs: Documents | None = None,
    cited: Mapping[str, str] | None = None,
    scope_question: str = "",
) -> Judged:
    """The judge's verdicts settled (``settle_labels``, document scope read on ``scope_question`` when
    given), the dropped injections salvaged (the excerpts are judged by ``judge``) and the passages kept."""
    thresholds = dict(thresholds_of(settings.verdict))
    verdicts = settle_labels(question, raw, hits, docs, settings.verdict, cited, scope_question)
    by_id = {h.chunk_id: h for h in hits}
    records = tuple(VerdictRecord.from_json(verdict_record(v, by_id[v.passage_id])) for v in verdicts)
    salvaged: list[Salvaged] = []
    if settings.verdict.salvage_injected_passages:
        salvaged = salvage_dropped(question, verdicts, hits, judge, settings)
    if salvaged:
        # an excerpt is held to the same scopes and margin, against the strongest passage of either kind
        both = settle_labels(
            question,
            [*verdicts, *(x.verdict for x in salvaged)],
            hits,
            docs,
            settings.verdict,
            cited,
            scope_question,
        )
        settled = both[len(verdicts) :]
        salvaged = [replace(x, verdict=v) for x, v in zip(salvaged, settled, strict=True) if v.keep]
    chosen = select_kept([*verdicts, *(s.verdict for s in salvaged)], settings.verdict)
    kept = tuple(by_id[v.passage_id] for v in chosen)
    picked = {id(v) for v in chosen}
    stage = VerdictStage(records, thresholds, len(kept))
    return Judged(verdicts, stage, kept, tuple(s for s in salvaged if id(s.verdict) in picked), raw)


def covers_as_much(question: str, joined: Judged, alone: Judged) -> bool:
    """Whether the best passage kept with the previous question joined uses as many of the question's
    own words as the best one kept for it alone ("退还" in the deposit clause, not in the term
    clause; "可以提前解除吗？" after a rent question stays with the termination clause, which has 解除,
    where the join kept the rent clause)."""

    def used(j: Judged) -> int:
        return len(covered_terms(question, j.kept[0].text)) if j.kept else 0

    return used(joined) >= used(alone)


def previously_cited(history: Sequence[ChatTurn], hits: list[Hit]) -> dict[str, str]:
    """Document id → name of the documents the last answer cited, when any of them is among the
    candidates (else nothing: the follow-up cannot be held to documents retrieval did not find)."""
    last = next((t for t in reversed(history) if t.role == "assistant"), None)
    names = {h.doc_id: h.doc for h in hits}
    return {d: names[d] for d in (last.cited_docs if last else ()) if d in names}


def judge_follow_up(
    turn: Turn,
    hits: list[Hit],
    judged: Judged,
    settings: Settings,
    judge_model: ChatModel | None,
    docs: Documents | None = None,
) -> Judged:
    """A follow-up judged with the previous question when the question alone kept nothing, or when
    it refers back to it ("那什么时候付？", "金额呢？", "When is it due?").

    Why: "什么时候支付？" after "押金是多少？" names no subject, so on its own no passage holds its
    answer and it was refused, though retrieval (seed 003's joined query) had found the deposit
    clause. Judging every turn with the earlier questions joined in would let an unrelated earlier
    question make its clauses "evidence" for a new one; so the join (one previous question only) is
    tried only when the question alone kept nothing and names no clause type of its own ("这份租赁合同
    约定的竞业限制期限是多久？" after a rent question stays refused, not answered with the rent), and used only
    when it keeps something. A question that refers back is judged with the previous one even when
    it kept something alone: "那什么时候付？" after a share-transfer price question kept the lease's rent
    date on its own and was answered with it. A question that names no subject of its own
    (``elliptical``: "什么时候退还？" after "押金是多少？") is judged both ways, and the join is used unless
    its best passage holds fewer of the question's own words than the best one kept alone. Such a
    follow-up, and one that refers back without naming a subject of its own (``about_previous_subject``:
    "那是哪一天付？", "When is it due?", not "那押金呢？"), is held to the documents the previous answer
    cited (``previously_cited``, when they are among the candidates), alone and joined. A follow-up
    that is only a subject of its own and 呢 ("那房租呢？") is judged as the previous question asked of
    that subject (``with_new_subject``), not joined to it; like the question itself it is read without
    the words that named a routed contract (``judged_question``; ``follow_up_question`` routes on it).
    The trace records the judged text and why.
    """
    if not judged.verdicts or not turn.req.history or turn.query is None:
        return judged
    asked = turn.asked_question
    ellipsis = elliptical(asked)
    if asked_clause_type(asked) is not None and not ellipsis:
        return judged  # it names its own clause type: a question of its own, refused on its own
    back = refers_back(asked)
    if judged.kept and not back and not ellipsis:
        return judged
    previous = previous_question(turn.req.history)
    history = turn.req.history
    context = with_new_subject(previous, asked) or build_retrieval_query(
        history, asked, chained_turns(history)
    )
    if context == asked.strip():
        return judged
    cited = previously_cited(turn.req.history, hits) if about_previous_subject(asked) else {}
    scope = context
    context = judged_question(context, turn.retrieval) or context  # without a routed contract's name
    again = judge_hits(
        context, hits, settings, judge_model, judge_on=True, docs=docs, cited=cited, scope_question=scope
    )
    if cited and judged.kept and judged.raw:  # its subject is the previous answer's: so are its documents
        held = settle_judged(
            asked,
            judged.raw,
            hits,
            settings,
            make_judge(settings, judge_model),
            docs,
            cited,
            question_as_asked(turn),
        )
        judged = held if held.kept else judged
    if not again.kept:
        return judged
    if judged.kept and not back and not covers_as_much(asked, again, judged):
        return judged
    if not judged.kept:
        note = coded(
            "judged_in_context",
            "the question alone kept no passage: judged together with the previous question",
        )
    elif back:
        note = coded(
            "judged_refers_back",
            "the question refers back to the previous one: judged together with it",
        )
    else:
        note = coded(
            "judged_elliptical",
            "the question names no subject of its own, and judged with the previous one its best passage "
            "holds as many of its words: judged together with it",
        )
    turn.query = replace(turn.query, in_context=context, notes=(*turn.query.notes, note))
    return again
