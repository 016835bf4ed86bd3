"""Step 7, review (seed 001's IS_SUPPORTED): citations checked and repaired, support judged per
sentence; an unsupported draft is regenerated once with a stricter prompt, then replaced by quotes.
Also the two answers that need no generation: the refusal and the quoted fallback."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from rag_core.coded import coded
from rag_core.generation import citations as cit
from rag_core.generation.answer import strip_think
from rag_core.generation.prompt import EvidenceBlock, strip_clause_paths, strip_prompt_echo
from rag_core.generation.quoted import QUOTED_NOTES
from rag_core.generation.refusal import (
    count_labels,
    empty_answer_for,
    is_risk_empty,
    refusal_text,
    uncited_refusal_text,
)
from rag_core.llm.base import CancelToken, ChatModel
from rag_core.models import Verdict
from rag_core.reflection.completeness import omitted_sentences, with_omitted
from rag_core.reflection.facts import unbacked_permission, without_invented, without_repeats
from rag_core.reflection.output_guard import guard_answer
from rag_core.reflection.support import (
    SentenceSupport,
    correct_article_labels,
    judge_support,
    needs_regeneration,
    numbers_in,
    repair_citations,
    split_sentences,
)
from rag_core.settings import ReflectionSettings
from rag_core.steps.events import AnswerReset, Event, Token
from rag_core.steps.generate import generate
from rag_core.steps.obey import correct_premise
from rag_core.steps.turn import Turn
from rag_core.textproc import plain_markdown
from rag_core.trace import ReflectionRecord, RepairRecord, SupportRecord


def unbacked_claim(support: SentenceSupport) -> bool:
    """A sentence that cites nothing, that the overlap finds unsupported (``not``) and that states no number a
    block could confirm: a claim of the model's own, which may not open an answer.

    Why (session 41 browser): "Does the DPA allow the processor to transfer data outside the EU?" over a data
    processing agreement that says nothing of transfers kept its deletion clause, and the local model opened "The
    DPA does not allow the processor to transfer data outside the EU." (overlap 0.25, kept because the quoted clause
    after it was supported). A first line that restates a number the clause states ("员工想辞职要提前30天通知公司。")
    scores the same overlap and stays: its number is checked by the number rule. Nor is the quoted answer's own
    correction line one ("不对：资料内容与问题的前提不符。", ``quoted.QUOTED_NOTES``): without a model, every false-premise
    answer was reviewed as unsupported and shown under "I could not write a fully supported answer" (session 42)."""
    return (
        support.counted
        and support.label == "not"
        and not support.cited
        and not numbers_in(support.sentence, strict=False)
        and support.sentence.strip() not in QUOTED_NOTES
    )


@dataclass(frozen=True)
class Review:
    """One draft after review: the corrected text, its valid citation numbers, and whether it passes."""

    answer: str
    valid: tuple[int, ...]
    ok: bool
    invalid: tuple[int, ...] = ()
    repairs: tuple[RepairRecord, ...] = ()
    support: tuple[SupportRecord, ...] | None = None
    articles: tuple[str, ...] = ()  # coded notes: article labels corrected (``correct_article_labels``)


def review_draft(
    answer: str, blocks: Sequence[EvidenceBlock], rs: ReflectionSettings, asked: str = ""
) -> Review:
    """Drop invalid citation numbers, correct an article label the evidence places elsewhere, point
    sentences at the block that states them, judge support.

    Acceptable means: at least one valid citation and (with IS_SUPPORTED on) supported enough.
    """
    answer = without_repeats(answer)
    check = cit.check_citations(answer, blocks)
    if check.invalid:
        answer = cit.strip_invalid_citations(answer, check.invalid)
    answer, fixes = correct_article_labels(answer, blocks)
    answer, repairs = repair_citations(answer, blocks, rs)
    valid = tuple(cit.check_citations(answer, blocks).valid) if repairs else tuple(check.valid)
    repaired = tuple(RepairRecord(r.sentence, r.added, tuple(r.dropped)) for r in repairs)
    articles = tuple(
        coded(
            "article_corrected",
            f"the draft named {f.named} for what {f.holder} states: corrected",
            named=f.named,
            holder=f.holder,
        )
        for f in fixes
    )
    if not rs.is_supported:
        return Review(answer, valid, bool(valid), tuple(check.invalid), repaired, articles=articles)
    supports = judge_support(split_sentences(answer), blocks, rs, None, asked)
    invented = [s.sentence for s in supports if s.label == "not" and s.counted and s.note]
    if invented and len(invented) < len(supports):  # issue 10: an invented fact never stays
        answer = without_invented(answer, invented)
        valid = tuple(cit.check_citations(answer, blocks).valid)
    records = tuple(
        SupportRecord(s.sentence, s.label, s.score, tuple(s.cited), s.by, s.counted, s.note) for s in supports
    )
    # a party's name no block states is not cut out of a list and left half: the answer is redone or quoted
    renamed = any(s.invented_names for s in supports)
    # nor is the answer's first sentence: what is left after it supports an answer that is gone ("房租一个月是
    # 20400元" cut left only the quarterly clause's sentence to answer "房租一个月多少钱？", browser try-out)
    lead_invented = bool(supports) and (supports[0].sentence in invented or unbacked_claim(supports[0]))
    ok = bool(valid) and not needs_regeneration(supports, rs) and not renamed and not lead_invented
    return Review(answer, valid, ok, tuple(check.invalid), repaired, records, articles)


def _record(turn: Turn, review: Review, regenerated: bool) -> None:
    """Add one review to the turn's reflection record."""
    r = turn.reflection or ReflectionRecord()
    support = review.support or ()
    turn.reflection = ReflectionRecord(
        support=r.support if regenerated else support,
        support_after_regeneration=support if regenerated else r.support_after_regeneration,
        invalid_citations=r.invalid_citations + review.invalid,
        repairs=r.repairs + review.repairs,
        guard=r.guard,
    )


def _replace(turn: Turn, answer: str, reason: str) -> Iterator[Event]:
    """Replace the streamed draft with ``answer`` and note why."""
    turn.notes.append(reason)
    turn.answer = answer
    yield AnswerReset(reason)
    yield Token(answer)


def _unecho(turn: Turn) -> Iterator[Event]:
    """The draft without the prompt's markup copied into it (``strip_prompt_echo``), then without Markdown
    heading hashes and bold markers (``plain_markdown``), each recorded.

    Why the Markdown: the answer is shown as plain text (model output is untrusted: no markup is rendered),
    and the local model's "**试用期**为三个月" reached the lawyer with its asterisks (session 36 browser)."""
    clauses = [b.clause for b in (turn.evidence.blocks if turn.evidence else ()) if b.clause]
    clean = strip_clause_paths(strip_prompt_echo(turn.answer), clauses)
    if clean != turn.answer:
        yield from _replace(
            turn, clean, coded("prompt_echo_removed", "prompt layout copied into the answer: removed")
        )
    plain = plain_markdown(turn.answer)
    if plain != turn.answer:
        yield from _replace(turn, plain, coded("markdown_removed", "Markdown markup in the answer: removed"))


def _guard(turn: Turn, blocks: Sequence[EvidenceBlock]) -> Iterator[Event]:
    """The output guard on the draft: sentences resting on cut text or carrying foreign links,
    e-mail addresses, phone numbers or images are removed and recorded."""
    rs = turn.settings.reflection
    if not rs.output_guard:
        return
    cut = [c.sentence for b in (turn.evidence.blocks if turn.evidence else ()) for c in b.cuts]
    answer, removed = guard_answer(turn.answer, blocks, cut, rs)
    if not removed:
        return
    r = turn.reflection or ReflectionRecord()
    turn.reflection = replace(r, guard=r.guard + removed)
    yield from _replace(turn, answer, f"output guard removed {len(removed)} sentence(s)")


def _granted_unbacked(turn: Turn, review: Review, blocks: Sequence[EvidenceBlock]) -> Review:
    """The review failed when the draft says yes to a permission question whose party no block
    gives any permission (``facts.unbacked_permission``); the reason goes in the turn's notes."""
    if not review.ok:
        return review
    role = unbacked_permission(turn.asked_question, review.answer, [(b.text, b.aliases) for b in blocks])
    if not role:
        return review
    turn.notes.append(
        coded(
            "permission_unbacked",
            f"the draft grants the {role} a permission that no evidence block gives it: not supported",
            role=role,
        )
    )
    return replace(review, ok=False)


def _apply(turn: Turn, review: Review, regenerated: bool) -> Iterator[Event]:
    """Record the review and, when it changed the draft, replace the streamed text."""
    _record(turn, review, regenerated)
    turn.notes.extend(review.articles)
    if review.answer != turn.answer:
        yield AnswerReset(coded("citations_corrected", "citations corrected"))
        turn.answer = review.answer
        yield Token(review.answer)


def _complete(turn: Turn, blocks: Sequence[EvidenceBlock]) -> Iterator[Event]:
    """The accepted answer with the quoted sentences it left out added (``reflection.completeness``)."""
    cited = set(cit.check_citations(turn.answer, blocks).valid)
    limit = turn.settings.reflection.omitted_max_sentences
    omitted = omitted_sentences(turn.judged_question, turn.answer, turn.quoted, cited, limit)
    if not omitted:
        return
    reason = coded(
        "omitted_quoted",
        f"the answer left out the asked value of {len(omitted)} quoted sentence(s): added, quoted",
        count=len(omitted),
    )
    yield from _replace(turn, with_omitted(turn.answer, omitted, turn.language), reason)


def _withhold(turn: Turn, blocks: Sequence[EvidenceBlock], kb_empty: str) -> Iterator[Event]:
    """The last resort: quote the evidence (IS_SUPPORTED on) or withhold an uncited answer."""
    rs, language = turn.settings.reflection, turn.language
    if rs.is_supported:
        yield from _replace(
            turn,
            turn.fallback,
            coded("quoting_unsupported", "unsupported: quoting the evidence instead of inventing"),
        )
        return
    turn.refused = True
    answer = uncited_refusal_text(
        language, len(blocks), empty_answer_for(language, kb_empty, turn.settings.generation)
    )
    yield from _replace(turn, answer, coded("withheld_uncited", "the answer cited no evidence: withheld"))


def review_answer(
    model: ChatModel | None,
    turn: Turn,
    blocks: Sequence[EvidenceBlock],
    kb_empty: str,
    cancel: CancelToken | None,
) -> Iterator[Event]:
    """Accept, regenerate once with a stricter prompt, then quote; then resolve the citations.

    A cancelled answer is kept as far as it got (invalid citation numbers removed), never
    regenerated: the lawyer pressed stop.
    """
    rs = turn.settings.reflection
    turn.answer = strip_think(turn.answer)
    if turn.cancelled:
        check = cit.check_citations(turn.answer, blocks)
        turn.answer = cit.strip_invalid_citations(turn.answer, check.invalid)
        turn.citations = cit.build_citations(check.valid, blocks)
        return
    yield from _unecho(turn)
    yield from _guard(turn, blocks)
    review = _granted_unbacked(turn, review_draft(turn.answer, blocks, rs, turn.judged_question), blocks)
    yield from _apply(turn, review, regenerated=False)
    if not review.ok and rs.is_supported and rs.regenerate_unsupported and model is not None:
        reason = coded(
            "regenerating", "answer not supported by the evidence; regenerating with a stricter prompt"
        )
        turn.notes.append(reason)
        yield AnswerReset(reason)
        turn.answer, turn.thinking = "", ""
        yield from generate(model, turn, blocks, cancel, strict=True)
        turn.answer = strip_think(turn.answer)
        yield from _unecho(turn)
        yield from _guard(turn, blocks)
        yield from correct_premise(turn, blocks)
        review = _granted_unbacked(turn, review_draft(turn.answer, blocks, rs, turn.judged_question), blocks)
        yield from _apply(turn, review, regenerated=True)
    if review.ok:
        yield from _complete(turn, blocks)
        # an added quote may cite a block the prompt left out (the quoted answer reads every block)
        cited_from = turn.all_blocks or blocks
        turn.citations = cit.build_citations(cit.check_citations(turn.answer, cited_from).valid, cited_from)
    else:
        yield from _withhold(turn, blocks, kb_empty)
        quoted_from = turn.all_blocks or blocks  # the fallback may quote a block the prompt left out
        turn.citations = cit.build_citations(cit.check_citations(turn.answer, quoted_from).valid, quoted_from)
    if not turn.citations:
        turn.refused = True


def refuse(turn: Turn, verdicts: Sequence[Verdict], searched: int, judged: bool) -> Iterator[Event]:
    """Nothing qualified: say what was searched and why nothing was kept; never fall back when the
    judge removed injections and nothing else (risk-empty)."""
    req = turn.req
    turn.refused = True
    if judged and is_risk_empty(list(verdicts)):
        turn.notes.append(coded("risk_empty", "risk-empty: injection removed and nothing kept; no fallback"))
    kb_empty = req.kbs[0].empty_answer if req.kbs else ""
    counts = count_labels(list(verdicts))
    turn.answer = refusal_text(
        turn.language,
        searched,
        {str(k): v for k, v in counts.items()},
        empty_answer_for(turn.language, kb_empty, turn.settings.generation),
        req.kbs[0].name if req.kbs else "",
    )
    yield Token(turn.answer)


def quote_without_model(turn: Turn, quoted: str) -> None:
    """With no answer model configured, the answer is the quoted evidence."""
    turn.answer = quoted
    turn.notes.append(coded("no_answer_model", "no answer model: quoted the evidence"))
