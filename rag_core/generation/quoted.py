"""The quoted answer: the evidence sentences that best answer the question, shown at once.

Why: on a 2-core laptop the local model needs seconds to minutes to write an answer, while the
judged evidence is there in about a second. A lawyer gets the one to three contract sentences that
answer the question right away, verbatim, each with its citation and its exact span in the
document, labelled as quoted; the generated answer follows below. The same sentences are what the
refusal logic falls back to and what ``ask --json`` returns as ``quoted``.

Sentences keep exact document offsets (``doc_text[start:end] == text``) because the UI highlights
them inside the cited clause. Scoring is a ``SentenceScorer`` (question, sentences) -> scores in
[0, 1], computed once per question for all kept blocks: the quoted answer and the short prompt
(``rag_core.generation.compact``) share it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from rag_core.answer_records import QuotedRecord
from rag_core.chunking import HEADING_ONLY_MAX_CHARS, SENTENCE_END_CHARS, clause_within
from rag_core.definitions import definitions
from rag_core.generation.prompt import EvidenceBlock, Language
from rag_core.generation.table_lookup import banded_row, banded_sentence
from rag_core.generation.word_weights import idf_weights, unseen_weight, weighted_share
from rag_core.ingest.extract import TABLE_CELL_SEPARATOR, table_headers
from rag_core.judge.conflict import affirmation_score, contradiction_of, premise_slots
from rag_core.reflection.facts import asked_actor, other_actor, same_actor, sentence_actors
from rag_core.reflection.support import content_tokens, split_sentences
from rag_core.settings import GenerationSettings
from rag_core.textproc import has_cjk, one_line, per_periods

SentenceScorer = Callable[[str, list[str]], list[float]]
"""(question, sentences) -> one score in [0, 1] per sentence (higher answers the question better)."""

_LINE = re.compile(r"[^\n]+")
CAPITALS_HEADING_MAX_WORDS = 6
"""A shouted heading is short ("LIMITATION OF WARRANTY AND LIABILITY."); a disclaimer is longer."""
_LINE_END = frozenset(".。;；:：!?！？,，、)）\"”'’")
"""A line ending otherwise (and short) is a heading such as ``第三条 违约金`` or ``Section 2 Fees``."""

QUOTED_LEAD: dict[Language, str] = {"zh": "合同原文摘录：", "en": "Quoted from the contract:"}
FALLBACK_LEAD: dict[Language, str] = {
    "zh": "未能生成有充分依据的回答，以下为合同原文摘录：",
    "en": "I could not write a fully supported answer. Quoted from the contract:",
}
_CONFLICT_NOTE: dict[Language, str] = {
    "zh": "不对：资料内容与问题的前提不符。",
    "en": "No — the documents contradict the premise of the question.",
}
"""The quoted answer's first line when it quotes a passage that contradicts the question's premise.

Why it opens with the correction word (it said "注意：" / "Note:" before): issue 10 asks that an answer
to a false premise start by correcting it ("不对：…"), and a quoted answer is what the lawyer reads
when the model's drafts were unsupported — "月租金是8000元，对吗？" came back "注意：资料内容与问题的
前提不符。" above the 6800 clause (browser try-out, session 28), where "不对" is the answer asked for."""

_DIFFER_NOTE: dict[Language, str] = {
    "zh": "各文件约定不一致：有的与问题所述相符，有的约定不同。",
    "en": "The documents differ: one states what the question says, another says otherwise.",
}
"""The first line instead of ``_CONFLICT_NOTE`` when another document states the value the conflicting passage
denies (``EvidenceBlock.affirming``): "no" would be false of that document."""


QUOTED_NOTES: frozenset[str] = frozenset({*_CONFLICT_NOTE.values(), *_DIFFER_NOTE.values()})
"""The quoted answer's own first lines: they say what the quotes below them show, no claim of the model's."""


@dataclass(frozen=True)
class BlockSentence:
    """One sentence of an evidence block, located exactly in the document."""

    block: int  # the block's number n
    position: int  # index of the sentence inside its block
    text: str  # == doc_text[start:end]
    start: int
    end: int
    heading: str = ""  # the heading line above it inside the block, if any
    table_header: int = -1  # for a table row, the position of its table's header row; else -1


@dataclass
class ScoredSentence:
    sentence: BlockSentence
    score: float


@dataclass
class QuotedSentence:
    """A quoted sentence with its citation (the block it comes from) and its span in the document."""

    n: int
    doc: str
    doc_id: str
    chunk_id: str
    page: int | str | None
    clause: str
    text: str
    start: int
    end: int
    score: float
    block_start: int
    block_end: int

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class QuotedAnswer:
    """The quoted answer: best sentences first; empty when no block had a usable sentence."""

    sentences: list[QuotedSentence] = field(default_factory=list)
    conflicting: bool = False
    differing: bool = False  # one quoted document states the premise another contradicts

    def to_json(self) -> list[dict[str, Any]]:
        return [s.to_json() for s in self.sentences]

    def render(self, language: Language, lead: dict[Language, str] = QUOTED_LEAD) -> str:
        """Plain text: a lead line saying it is quoted, then each sentence in quotes with [n]."""
        if not self.sentences:
            return ""
        note = _DIFFER_NOTE if self.differing else _CONFLICT_NOTE
        lines = [note[language]] if self.conflicting else []
        lines.append(lead[language])
        lines.extend(quote_line(s.text, s.n) for s in self.sentences)
        return "\n".join(lines)


def quote_line(text: str, n: int) -> str:
    """One quoted sentence as the answer text writes it: “sentence” [n], on one line."""
    return f"“{one_line(text)}” [{n}]"


def _line_sentences(line: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence inside one line, found back in the line so offsets are exact."""
    out: list[tuple[int, int]] = []
    pos = 0
    for piece in split_sentences(line, newline_breaks=False):
        i = line.find(piece, pos)
        if i < 0:  # a piece re-joined by the splitter (bare citation markers): keep the rest whole
            rest = line[pos:].strip()
            if rest:
                j = line.find(rest, pos)
                out.append((j, j + len(rest)))
            break
        out.append((i, i + len(piece)))
        pos = i + len(piece)
    return out


FIELD_LABEL_MAX_CHARS = 24
"""The longest label of a "label: value" line ("出租方（甲方）", "Effective Date")."""

_FIELD = re.compile(rf"^\s*([^:：\n]{{1,{FIELD_LABEL_MAX_CHARS}}}?)\s*[:：]\s*\S")
_NUMBERED_LABEL = re.compile(
    r"\s*(?:(?i:section|article|clause|schedule|exhibit|annex|appendix|part|chapter)\b|"
    r"第[一二三四五六七八九十百零〇两0-9]+[条章节款部]|\(?[0-9A-Za-z]{1,3}[.)]|\d+(?:\.\d+)+)"
)


def is_field_line(line: str) -> bool:
    """A "label: value" line of a contract's parties, dates or signatures ("出租方（甲方）：北京华信置业有限公司",
    "签订日期：2025年2月20日", "Licensor: Northwind Software, Inc."): a statement, though it has no
    closing punctuation — unless the label is a clause number ("第三条：租金", "Section 3: Fees").

    Why: read as a heading, it was never quoted: "出租方是谁？" and "Who is the landlord?" quoted the
    premises clause, and "合同什么时候签的？" the deposit clause, while the party and date lines said it."""
    m = _FIELD.match(line)
    return m is not None and not _NUMBERED_LABEL.match(m.group(1))


LEAD_IN_MAX_CHARS: int = 30
"""The longest sentence ending in a colon that is taken for a bare lead-in (``is_lead_in``)."""


def is_lead_in(text: str) -> bool:
    """A short sentence that ends in a colon ("(c) If either party:", "乙方的义务如下："): it introduces the items after
    it and says nothing alone. A longer one states a rule before its list ("承包方不得单方解除土地经营权流转合同，但受让方有
    下列情形之一的除外：") and stays quotable.

    Why (session 41 try-out): "员工离职需要提前多久通知？" quoted "(c) If either party:" (0.51, above the floor) as
    the third line of the answer. Why the length: without it, LeCoQA's answer bench lost the statute sentence above
    (a gold citation); the limit was set after reading that evaluation result."""
    text = text.strip()
    return len(text) <= LEAD_IN_MAX_CHARS and text.endswith((":", "："))


_CLAUSE_PUNCTUATION = re.compile("[，；]|[。！？](?=.)")
"""Chinese comma and semicolon part a sentence's clauses, and a Chinese full stop, exclamation or question
mark inside a line ends one: no heading has them. (A PDF line "…捌拾陆万元（¥860,000元）。甲方分三期支付：合同签订后7个
工作日内支" ends mid-word and was a heading, so the fee sentence was never quoted.)"""


def is_heading_line(line: str) -> bool:
    """A short line without closing punctuation, or a short all-capitals line with one ("4.2
    LIMITATION OF WARRANTY AND LIABILITY."): a clause or document heading, not a sentence; never a
    "label: value" line (``is_field_line``) nor a line with a Chinese comma or semicolon (a PDF
    wraps a Chinese sentence at about 45 characters: "…提交中国国际经济贸易仲裁委员会按照其仲裁规则" / "仲裁。"
    was a heading and "仲裁。" a sentence the quoted answer gave alone).

    Why the capitals: US contracts end their headings with a period, and the quoted answer to "what
    is the cap on liability?" was that heading alone."""
    text = line.strip()
    if not text or len(text) > HEADING_ONLY_MAX_CHARS or is_field_line(text):
        return False
    if _CLAUSE_PUNCTUATION.search(text):
        return False
    return text[-1] not in _LINE_END or _is_capitals_heading(text)


_NUMBERED_START = re.compile(r"^\s*(?:(?:section|article|clause)\s+)?\d+(?:\.\d+)*\.?\s", re.I)
_MINOR_WORDS = frozenset("a an and as at by for from in of on or the to with".split())
"""Words a title-case heading leaves in lower case ("Limitation of Liability")."""


def _is_capitals_heading(text: str) -> bool:
    """Short, in one to ``CAPITALS_HEADING_MAX_WORDS`` words with at least four letters, and every
    letter a capital ("2. FEES.", not "USD 5.") or, after a clause number, every word but the minor
    ones capitalised ("10.3 Entire Agreement; Amendments."); a longer shouted line is a disclaimer,
    which is a sentence.

    Why the numbered title case: "10.3 Entire Agreement; Amendments." was quoted as an answer to
    "What are the renewal terms?" and "6.2 Diamond Licensed Trademark Grant." to a licence question."""
    words = re.findall(r"[A-Za-z]+", text)
    if not (len(text) <= HEADING_ONLY_MAX_CHARS and 0 < len(words) <= CAPITALS_HEADING_MAX_WORDS):
        return False
    if sum(map(len, words)) < 4:
        return False
    if all(w.isupper() for w in words):
        return True
    return bool(_NUMBERED_START.match(text)) and all(
        w[0].isupper() for w in words if w.lower() not in _MINOR_WORDS
    )


_ITEM_START = re.compile(
    r"\s*(?:\(?[0-9A-Za-z]{1,3}[.)]\s|\d+(?:\.\d+)+\s|第[一二三四五六七八九十百零〇两0-9]+[条章节款]|[•\-–*·]\s)"
)
"""A line that starts a list item or a numbered clause ("(a) ", "7.2 ", "第三条") starts afresh."""


def _runs_on(line: str, following: str) -> bool:
    """Whether ``line`` continues on the next line: it ends without closing punctuation, and the
    next line is no heading and starts no item (PDF text wraps sentences at the page's width)."""
    end = line.rstrip().rstrip("\"'”’」』)）").rstrip()
    return (
        bool(end)
        and end[-1] not in SENTENCE_END_CHARS
        and not is_field_line(line)
        and not is_heading_line(following)
        and not is_field_line(following)
        and not _ITEM_START.match(following)
    )


def _units(text: str) -> list[tuple[int, int]]:
    """(start, end) of the block's lines, wrapped lines joined back into one unit.

    Why: "Client may terminate … upon ninety (90)" / "days prior written notice." split at the PDF's
    line break gave two half sentences, neither with the notice period, and the quoted answer took
    the next clause's "thirty (30) days" instead.
    """
    lines = list(_LINE.finditer(text))
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(lines):
        j = i
        if not is_heading_line(lines[i].group(0)):
            while j + 1 < len(lines) and _runs_on(lines[j].group(0), lines[j + 1].group(0)):
                j += 1
        out.append((lines[i].start(), lines[j].end()))
        i = j + 1
    return out


def block_sentences(block: EvidenceBlock) -> list[BlockSentence]:
    """The block's sentences with document offsets, each with the heading line above it.

    Lines are split first (headings and list items stand on their own lines; a line that wraps on
    is joined to the next); heading lines are not sentences: they are shown above the sentences
    they head.
    """
    out: list[BlockSentence] = []
    heading = ""
    units = [  # a table line without words (a Markdown rule) is no row
        (a, b)
        for a, b in _units(block.text)
        if TABLE_CELL_SEPARATOR not in block.text[a:b] or content_tokens(block.text[a:b])
    ]
    heads = table_headers([block.text[a:b] for a, b in units])
    position: dict[int, int] = {}  # a table line's unit index -> its sentence position
    for i, ((u_start, u_end), head) in enumerate(zip(units, heads, strict=True)):
        unit = block.text[u_start:u_end]
        if TABLE_CELL_SEPARATOR in unit:
            header = position[head] if head >= 0 else -1
            top = out[header].text if header >= 0 else heading
            position[i] = len(out)
            start = block.start + u_start
            out.append(BlockSentence(block.n, len(out), unit, start, block.start + u_end, top, header))
            continue
        if is_heading_line(unit):
            heading = " ".join(unit.split())
            continue
        for a, b in _line_sentences(unit):
            text = unit[a:b]
            if _is_capitals_heading(text):
                heading = " ".join(text.split())  # "12. GOVERNING LAW. This Agreement …" on one line
                continue
            if content_tokens(text):
                start = block.start + u_start + a
                out.append(BlockSentence(block.n, len(out), text, start, start + len(text), heading))
    if not out and block.text.strip():  # headings or a table only: the block is one unit
        lead = len(block.text) - len(block.text.lstrip())
        text = block.text.strip()
        out.append(BlockSentence(block.n, 0, text, block.start + lead, block.start + lead + len(text)))
    return out


TABLE_QUOTE_MAX_ROWS = 6
"""A table header row quoted without any of its rows brings them along up to this many rows (a fee
schedule); a longer table's header alone is not quoted, its rows are quoted when they score."""


def with_table_headers(
    chosen: list[ScoredSentence], scored: Sequence[ScoredSentence]
) -> list[ScoredSentence]:
    """The chosen sentences with each quoted table row preceded by its table's header row.

    Why: "商铺的物业费是多少？" over a property-service contract with a fee table (物业类型 | 收费标准（元/平方米·月）,
    住宅 | 3.5, 商铺 | 6.0) quoted the 住宅 sentence above it; a row read under its header names what it
    asks, but quoted alone, "商铺 | 6.0" says neither the unit nor what the 6.0 is; the header alone, quoted for
    "物业服务费怎么收？", says no fee at all (session 33 try-out). A header and the rows it brings come on top of
    ``quoted_max_sentences``: they are part of the row or header quoted. Several chosen rows of one table come
    together in the table's order ("工程款怎么支付？" quoted 竣工验收 above 预付款, session 42)."""
    at = {(x.sentence.block, x.sentence.position): x for x in scored}
    rows: dict[tuple[int, int], list[ScoredSentence]] = {}
    for x in sorted(scored, key=lambda x: (x.sentence.block, x.sentence.position)):
        if x.sentence.table_header >= 0:
            rows.setdefault((x.sentence.block, x.sentence.table_header), []).append(x)
    out: list[ScoredSentence] = []
    for x in chosen:
        if x in out:
            continue
        key = (x.sentence.block, x.sentence.table_header)
        head = at.get(key) if x.sentence.table_header >= 0 else None
        if head is not None and head not in out and head not in chosen:
            out.append(head)
        if head is not None:  # the table's chosen rows in their order: a schedule reads top to bottom
            out.extend(r for r in rows[key] if r in chosen and r not in out)
        else:
            out.append(x)
        mine = rows.get((x.sentence.block, x.sentence.position), [])
        if mine and not any(r in chosen for r in mine):  # a header alone says nothing: its rows follow
            if len(mine) > TABLE_QUOTE_MAX_ROWS:
                out.pop()
            else:
                out.extend(r for r in mine if r not in out)
    return out


_SEMICOLON_END = re.compile(r"[；;]\s*$")


def ends_at_semicolon(sentence: BlockSentence | QuotedRecord) -> bool:
    """The sentence is a clause a semicolon ends: the next one of its block continues the same sentence."""
    return bool(_SEMICOLON_END.search(sentence.text))


def clauses_in_order(chosen: list[ScoredSentence]) -> list[ScoredSentence]:
    """The chosen sentences with a sentence's clauses in their order: a clause chosen together with the clause
    after its semicolon is quoted first (the rest keeps its order, best first).

    Why (session 36 browser try-out): "软件开发合同的款项怎么支付？" quoted "验收合格后10个工作日内，甲方支付剩余70%。" above
    "3.2 合同签订后5个工作日内，甲方支付总价款的30%；": one sentence of 3.2, read backwards. Only clauses of one
    sentence are reordered: separate sentences keep the asked-value-first and named-heading-first choices."""
    at = {(x.sentence.block, x.sentence.position): x for x in chosen}
    out: list[ScoredSentence] = []
    for x in chosen:
        if x in out:
            continue
        run: list[ScoredSentence] = [x]
        prev = at.get((x.sentence.block, x.sentence.position - 1))
        while prev is not None and prev not in out and ends_at_semicolon(prev.sentence):
            run.insert(0, prev)
            prev = at.get((prev.sentence.block, prev.sentence.position - 1))
        out.extend(run)
    return out


def headed(sentence: BlockSentence) -> str:
    """The text the sentence scorer reads: the sentence under its heading line, as a lawyer reads it.

    Why: "设备什么时候交货？" kept "第四条 交货" (evidence 0.84), but its sentence "乙方应于2026年6月30日前将设备运至
    甲方苏州工厂…" names no 交货 and scored 0.40 alone, under 0.6 of a licence's "… ninety (90) days after
    delivery." (0.76), so the quoted answer cited the licence's warranty and left the delivery date out;
    read under its heading it scores 0.89. The quote itself stays the sentence (its offsets are exact)."""
    return f"{sentence.heading}\n{sentence.text}" if sentence.heading else sentence.text


def score_blocks(
    question: str, blocks: Sequence[EvidenceBlock], scorer: SentenceScorer
) -> list[ScoredSentence]:
    """Every sentence of every block with its score, in block then reading order: the better of its
    score alone and under its heading line (``headed``). Two scorer calls, not one over both lists: a
    scorer weighs words by how many candidate sentences hold them, which the headed copies would skew."""
    sentences = [s for b in blocks for s in block_sentences(b)]
    if not sentences:
        return []
    # read as one line: a PDF line break inside "滞纳金" left 滞纳 and 金, and "物业费滞纳金怎么算？" quoted the late-fee
    # clause (evidence 0.75) not at all (session 39)
    alone = scorer(question, [one_line(s.text) for s in sentences])
    under = [i for i, s in enumerate(sentences) if s.heading]
    scores = list(alone)
    if under:
        for i, v in zip(
            under, scorer(question, [one_line(headed(sentences[i])) for i in under]), strict=True
        ):
            scores[i] = max(scores[i], v)
    capped = capped_headers(sentences, scores)
    return [ScoredSentence(s, float(v)) for s, v in zip(sentences, capped, strict=True)]


def capped_headers(sentences: Sequence[BlockSentence], scores: Sequence[float]) -> list[float]:
    """``scores`` with each table header row's score at most its best row's.

    Why: a header names columns, not facts; it answers only through its rows. Read under its clause
    heading, "第五条 还款计划 / 期次 | 还款日 | 还款本金" scored 0.90 for "逾期还款怎么处理？" (its rows 0.70-0.73), above the
    late-repayment clauses (0.89, 0.87), and the quoted answer opened with the repayment table (session 40)."""
    best: dict[tuple[int, int], float] = {}
    for s, v in zip(sentences, scores, strict=True):
        if s.table_header >= 0:
            key = (s.block, s.table_header)
            best[key] = max(best.get(key, v), v)
    return [
        min(v, best[(s.block, s.position)]) if (s.block, s.position) in best else v
        for s, v in zip(sentences, scores, strict=True)
    ]


def _quote(block: EvidenceBlock, scored: ScoredSentence) -> QuotedSentence:
    s = scored.sentence
    return QuotedSentence(
        n=block.n,
        doc=block.doc,
        doc_id=block.doc_id,
        chunk_id=block.chunk_id,
        page=block.page,
        clause=clause_within(block.text, block.clause, s.start - block.start),
        text=s.text,
        start=s.start,
        end=s.end,
        score=round(scored.score, 4),
        block_start=block.start,
        block_end=block.end,
    )


def in_judged(block: EvidenceBlock, sentence: BlockSentence) -> bool:
    """Whether the sentence overlaps a passage the judge labelled (any sentence when the whole
    block was judged).

    Why: a parent around a kept clause is context for the answer model, but its other clauses were
    never judged; quoting them as evidence put "因本合同引起的争议…" under a fee question."""
    if not block.judged:
        return True
    return any(sentence.start < end and sentence.end > start for start, end in block.judged)


def heading_reader(question: str) -> Callable[[str, str], tuple[int, int]]:
    """For a sentence under its clause heading: how many of the question's naming words the two use
    together (itself or translated), and whether the heading names one: 0 no, 1 only translated ("6.
    ACCEPTANCE TESTING" for 验收), 2 in the question's own words ("第五条 分包" for "承包人可以分包吗？").

    Why the heading: the sentence scorer reads a sentence without its clause, and across languages it
    is weak: for "Can the tenant sublet the premises?" the dispute clause's "协商不成的，任何一方均可向
    房屋所在地人民法院起诉。" scored 0.66 against 0.64 for the sentence under "第六条 转租", and was quoted
    first. A heading that names what was asked is where a lawyer reads first; a Chinese compound names
    it through the glossary word inside it ("月租金" and "第三条 租金及支付方式").
    Why the count: a heading that names one word of the question is not the clause that answers it
    when the clause the sentence scorer ranks first states more of them — for "那逾期付租金怎么处理？"
    the three sentences under "第三条 租金及支付方式" (租金, 付) filled the quote and left out "第七条 违约
    责任" (逾期, 付, 租金 in "乙方逾期支付租金的，每逾期一日，应按当季租金的千分之五向甲方支付违约金"),
    whose "逾期超过十五日的，甲方有权解除合同。" the scorer had ranked first (0.90 against 0.81-0.87). The question's
    words are found once; headings and sentences are read directly, outside ``doc_scope``'s cache."""
    from rag_core.judge.doc_scope import covered_in, naming_terms, word_used
    from rag_core.judge.glossary import inner_terms
    from rag_core.judge.relevance import terms

    names = naming_terms(question)
    inner = {t: inner_terms(t) for t in names}

    def read(heading: str, sentence: str) -> tuple[int, int]:
        text = f"{heading} {sentence}"
        used = covered_in(names, frozenset(terms(text)), text.lower())
        by_inner = {t for t, words in inner.items() if any(w in heading for w in words)} if heading else set()
        named = 0
        if heading:
            head_terms, head_low = frozenset(terms(heading)), heading.lower()
            if by_inner or any(word_used(t, head_terms, head_low) for t in names):
                named = 2
            elif covered_in(names, head_terms, head_low):
                named = 1
        found = used | by_inner
        # a compound counts once: "月租金" used, not also its jieba parts "月租" and "租金"
        widest = [t for t in found if not any(t != u and t in u for u in found)]
        return len(widest), named

    return read


def _correcting(
    ranked: Sequence[ScoredSentence], conflicting: set[int], question: str
) -> ScoredSentence | None:
    """The CONFLICTING blocks' sentence that leads the quoted answer: the one that alone contradicts
    the question's premise most (the true value of the asked fact), else their best-scored one.

    Why: for "租金是每月8000元，对吗？" the lease's rent sentence ("月租金为人民币6800元") was quoted third,
    under the payment-day and deposit sentences that the sentence scorer rated higher."""
    candidates = [x for x in ranked if x.sentence.block in conflicting]
    if not candidates:
        return None
    if question:
        contradicts = contradiction_of(question)
        text = {(x.sentence.block, x.sentence.position): x.sentence.text for x in ranked}
        # of a tiered table, the row the question's condition falls in (every other row's value differs too)
        banded = _banded_row(ranked, question, candidates)
        strength = {id(x): (*contradicts(_under_header(x, text)), x is banded) for x in candidates}
        strongest = max(candidates, key=lambda x: strength[id(x)])  # first of equals: best-scored
        if strength[id(strongest)][0] > 0:
            return strongest
    return candidates[0]


def _under_header(x: ScoredSentence, text: Mapping[tuple[int, int], str]) -> str:
    """A table row under its header line (``text``: (block, position) → sentence), as the premise check reads it: a
    row's bare number takes its column's unit there (``conflict.with_table_units``); other sentences as they are."""
    header = text.get((x.sentence.block, x.sentence.table_header), "") if x.sentence.table_header >= 0 else ""
    return f"{header}\n{x.sentence.text}" if header else x.sentence.text


def _stating(ranked: Sequence[ScoredSentence], affirming: set[int], question: str) -> ScoredSentence | None:
    """The affirming blocks' sentence that states the question's value most plainly, else their
    best-scored one: quoted before the correction when documents differ."""
    candidates = [x for x in ranked if x.sentence.block in affirming]
    if not candidates or not question:
        return None
    slots = premise_slots(question)
    return max(
        candidates, key=lambda x: affirmation_score(slots, x.sentence.text)
    )  # first of equals: best-scored


def _named_first(
    chosen: list[ScoredSentence], read: Callable[[str, str], tuple[int, int]]
) -> list[ScoredSentence]:
    """The sentences under a heading that names the question's words first, best-scored first within
    each group; but the clause of the best-scored sentence keeps the lead when its chosen sentences,
    read with their heading, use more of the question's words than those of any naming heading
    (``heading_reader``), or as many when no heading names them in the question's own words.

    Why the tie: for "竣工验收后付多少？" the construction contract's table row "竣工验收合格 | 累计95% | …" (0.92, under
    its table's header) was quoted after a software contract's sentence under "6. ACCEPTANCE TESTING" (0.58), a
    heading naming 验收 only through the glossary; but "第五条 分包" names "承包人可以分包吗？" in its own words, and a
    distributor's "shall not sub-contract" (0.80) must not lead it (session 42 try-out)."""
    by_heading: dict[str, list[str]] = {}
    for x in chosen:
        by_heading.setdefault(x.sentence.heading, []).append(x.sentence.text)
    reading = {h: read(h, " ".join(texts)) for h, texts in by_heading.items()}
    # stable: by score within; a heading in the question's own words before one naming it only translated
    out = sorted(chosen, key=lambda x: -reading[x.sentence.heading][1])
    lead = chosen[0].sentence.heading
    named = [used for used, how in reading.values() if how]
    literal = any(how == 2 for _, how in reading.values())
    used_by_lead = reading[lead][0]
    if (
        named
        and not reading[lead][1]
        and (used_by_lead > max(named) or (used_by_lead == max(named) and not literal))
    ):
        out = [x for x in chosen if x.sentence.heading == lead] + [
            x for x in out if x.sentence.heading != lead
        ]
    return out


def own_asked_kinds(question: str) -> tuple[str, ...]:
    """What the question asks for; for a follow-up joined to the question before it, what its own last part
    asks, else (a "X呢？" that asks nothing of its own) what the part before it asked.

    Why: "Is it refundable?" after "What is the initial franchise fee?" is scored as the two joined, whose "What
    is … fee" asked an amount; the sentences holding one went first and "The initial fee is not refundable."
    (the best-scored, 0.89) was left out of the three quoted (session 42 try-out)."""
    from rag_core.judge.clause_types import question_parts
    from rag_core.judge.relevance import asked_kinds

    for part in reversed(question_parts(question) or [question]):
        kinds = tuple(asked_kinds(part))
        if kinds:
            return kinds
    return ()


def _asked_value_first(chosen: list[ScoredSentence], question: str) -> list[ScoredSentence]:
    """The sentences that hold a value of the kind the question asks for (a date for "when", an
    amount for "how much" …) first, in their order; the others after them. A heading that names the
    question still goes first (``_named_first`` runs after this): "月租金是多少？" quotes the rent clause's
    two sentences, not its amount and then the deposit clause's "相当于两个月租金".

    Why: the sentence scorer weighs the question's words and barely the asked kind, so for "合同什么
    时候签的？" the deposit sentence "乙方应于本合同签订之日向甲方支付押金…" (0.935: 合同 and 签, no date) and the
    signature clause were quoted before "签订日期：2025年2月20日" (0.914), or instead of it. A question
    asking who a party is asks for a name: "Who are the parties to this agreement?" quoted "IN WITNESS
    WHEREOF, the parties have executed this Agreement" before the preamble that names both companies; and
    "受让方呢？" after "转让方是谁？" the 转让方 line before the 受让方 one: the line naming the asked role leads."""
    from rag_core.judge.clause_types import asked_roles
    from rag_core.judge.relevance import (
        found_kinds,
        held_kinds,
        names_asked_role,
        party_labels,
        value_kinds,
    )

    asked = own_asked_kinds(question)
    kinds = asked if asked == ("entity",) else value_kinds(asked)
    if not kinds:
        return chosen
    holds = {id(x): bool(held_kinds(kinds, x.sentence.text)) for x in chosen}
    party = asked == ("entity",)
    roles = asked_roles(question) if party else ()
    labels = {id(x): party_labels(x.sentence.text) if party else frozenset() for x in chosen}
    named = {id(x): bool(roles) and names_asked_role(roles, labels[id(x)]) for x in chosen}
    # a value of the very kind asked before one that only counts as it ("USD 84,000" before "thirty (30)
    # days" for "What is the annual license fee?": a bare number holds an "amount" too)
    exact = {id(x): bool(found_kinds(x.sentence.text) & set(kinds)) for x in chosen}
    # stable: earlier order within each group; the asked role's line, then the other party lines, then
    # other sentences naming a company ("甲方将其持有的杭州云帆科技有限公司30%的股权…" names the shares' company)
    return sorted(
        chosen, key=lambda x: (not named[id(x)], not labels[id(x)], not holds[id(x)], not exact[id(x)])
    )


def _asked_period_first(
    chosen: list[ScoredSentence], ranked: Sequence[ScoredSentence], question: str
) -> list[ScoredSentence]:
    """For a question asking an amount per a period ("房租一个月多少钱？", "What is the monthly rent?"):
    the sentences stating an amount per that period first (quoted even below the score floor), those
    stating one per another period last.

    Why: "房租一个月多少钱？" scored "租金按季度支付，乙方应于每季度第一个月的5日前…支付当季租金人民币20400元" 0.79 (its
    第一个月 holds 一个月) and "月租金为人民币6800元" 0.37, under the floor: the quoted box gave the quarterly
    20400 alone and the local model answered "房租一个月是20400元" (browser try-out)."""
    from rag_core.judge.relevance import asked_kinds, found_kinds

    asked = per_periods(question)
    if len(asked) != 1 or not {"amount", "number"} & set(asked_kinds(question)):
        return chosen

    def amount_per(x: ScoredSentence) -> frozenset[str]:
        return per_periods(x.sentence.text) if "amount" in found_kinds(x.sentence.text) else frozenset()

    # that period alone: "a gross annual salary of GBP 78,000, payable monthly" states a sum per year paid in
    # monthly parts, and led "公司每月为员工缴纳多少养老金？" above the pension clause itself (session 41)
    per = [x for x in ranked if amount_per(x) == asked]
    per_ids = {id(x) for x in per}
    rest = [x for x in chosen if id(x) not in per_ids]
    return per + sorted(rest, key=lambda x: bool(amount_per(x)))  # stable: another period's amount last


def question_word_shares(sentences: Sequence[ScoredSentence], question: str) -> list[float]:
    """Each sentence's share of the question's own words, weighted by IDF over the ``sentences`` given."""
    tokens = [content_tokens(x.sentence.text) for x in sentences]
    idf, wanted, unseen = idf_weights(tokens), content_tokens(question), unseen_weight(len(sentences))
    return [weighted_share(wanted, t, idf, unseen) for t in tokens]


def _literal_ties(ranked: list[ScoredSentence], question: str, margin: float) -> list[ScoredSentence]:
    """``ranked`` with the sentences scoring within ``margin`` of the best ordered by the question's own
    words they hold (IDF over all candidate sentences), best-scored first among equals.

    Why (try-out, session 32): the fitted sentence scorer saturates near 0.95 on every late-payment
    clause of a many-contract base, so for "逾期交付的违约金怎么算？" the share agreement's "逾期支付转让价款"
    (0.951), the sale's "逾期交货" (0.949) and the development contract's "7.2 甲方逾期付款" (0.947) were
    quoted and "7.1 乙方逾期交付的…" (0.940), the one sentence holding 交付, was not. Within a
    hundredth or two the scores carry no order; the question's wording does."""
    if not question or margin <= 0 or len(ranked) < 2:
        return ranked
    top = [x for x in ranked if x.score >= ranked[0].score - margin]
    if len(top) < 2:
        return ranked
    share = question_word_shares(ranked, question)
    order = sorted(range(len(top)), key=lambda i: -share[i])  # stable: by score among equal shares
    return [top[i] for i in order] + ranked[len(top) :]


_WHAT_IS = re.compile(
    r"^\s*(?:what\s+(?:is|are)\s+(?:the\s+|a\s+|an\s+)?(?P<en>.+?)|how\s+(?:is|are)\s+(?:the\s+)?(?P<en2>.+?)"
    r"\s+defined|what\s+does\s+(?:the\s+)?(?P<en3>.+?)\s+mean)\s*[?？]?\s*$"
    r"|^\s*(?:什么是|何为)(?P<zh>.+?)[?？]?\s*$|^\s*(?P<zh2>.+?)(?:是指什么|指什么|是什么意思|的定义是什么|是什么)[?？]?\s*$",
    re.I,
)
"""A question asking what a term is or means: the term, in ``en``/``en2``/``en3`` or ``zh``/``zh2``."""

_QUALIFIER = re.compile(r"\s+(?:under|in|of|for)\s+(?:the|this|that|our|my)\b.*$")
"""What follows the term in "the territory under the distribution agreement": which contract, not the term."""


def asked_term(question: str) -> str:
    """The term a what-is question asks about, lower-cased, without a leading article or a trailing
    "under/of the … agreement" ("" when the question asks no such thing)."""
    m = _WHAT_IS.search(question.strip())
    if not m:
        return ""
    term = next((g for g in m.groups() if g), "").strip().lower()
    term = re.sub(r"^(?:本合同|本协议|该合同|合同中?的?|the\s+)", "", term)
    return _QUALIFIER.sub("", term).strip()


def defined_terms(sentence: str) -> list[str]:
    """The terms a sentence defines, lower-cased, without a leading article."""
    return [d.term for d in definitions(sentence)]


def _defines(term: str, defined: str) -> bool:
    """The defined term is the asked one (an English plural too; a Chinese term may end a longer
    phrase: 本协议项下的区域)."""
    if not defined:
        return False
    if re.search(r"[\u4e00-\u9fff]", defined):
        return term.endswith(defined)
    return term in (defined, defined + "s") or defined == term + "s"


def _defined_first(
    chosen: list[ScoredSentence], ranked: Sequence[ScoredSentence], question: str
) -> list[ScoredSentence]:
    """For a question asking what a term is ("What is the territory?", "区域是指什么？"): the sentence
    defining that term first, quoted even below the score floor; the others after it.

    Why (try-out, session 32): "What is the territory?" quoted three sentences that use "the Territory"
    (0.85-0.95) and left out '1.2 "Territory" means Singapore, Malaysia and Indonesia.' (0.80), the one
    that answers. A definition of the asked term is the answer however its words score."""
    term = asked_term(question)
    if not term:
        return chosen
    defining = [x for x in ranked if any(_defines(term, d) for d in defined_terms(x.sentence.text))]
    if not defining:
        return chosen
    ids = {id(x) for x in defining}
    return defining[:1] + [x for x in chosen if id(x) not in ids]


def _party_lines(ranked: Sequence[ScoredSentence], question: str) -> set[int]:
    """The ids of the party lines ("转让方（甲方）：王建国") when the question asks who the parties are:
    quoted however their scores compare, since the line naming a person scored 0.39 beside 0.84 for
    the one naming a company, and the person was left out of "Who are the parties to the share
    transfer agreement?"."""
    from rag_core.judge.relevance import asked_kinds, party_labels

    if not question or asked_kinds(question) != ["entity"]:
        return set()
    return {id(x) for x in ranked if party_labels(x.sentence.text)}


def _party_lines_last(chosen: list[ScoredSentence], question: str) -> list[ScoredSentence]:
    """For a question that asks no party ("What happens if the borrower misuses the loan?"), the lines that only
    name a party ("借款人（乙方）：广州市天河区宏图餐饮管理有限公司") after the other sentences.

    Why (browser try-out, session 40): the question's "borrower" meets the line's 借款人 through the glossary,
    and the quoted answer opened with the borrower's and the lender's party lines above the clause that
    answers ("乙方挪用借款…的，甲方有权提前收回全部借款")."""
    from rag_core.judge.relevance import asked_kinds, party_labels

    if not question or {"entity", "party"} & set(asked_kinds(question)):
        return chosen
    naming = {id(x) for x in chosen if is_field_line(x.sentence.text) and party_labels(x.sentence.text)}
    return [x for x in chosen if id(x) not in naming] + [x for x in chosen if id(x) in naming]


def _asked_actor_first(
    chosen: list[ScoredSentence], question: str, by_n: dict[int, EvidenceBlock]
) -> list[ScoredSentence]:
    """Among the chosen clauses that open with a party, those where the party the question makes its subject
    acts before those where only another party of the same kind does (``facts.asked_actor``,
    ``sentence_actors``, ``other_actor``), and among the former, those holding more of the question's words (the act:
    逾期交付, not 逾期支付) first; the clauses where no party acts keep their places.

    Why (try-outs, sessions 42-43): the sentence scorer reads words, not who acts, and saturates near 0.95 on
    every late-payment clause: "乙方逾期交付的违约金怎么计算？" opened with "甲方逾期付款的，…向乙方支付违约金" (0.970),
    and "特许人可以在什么情况下解除合同？" with "6.2 Franchisee may terminate …" before "6.1 Franchisor may terminate …"."""
    asked = asked_actor(question)
    if not asked:
        return chosen
    same: list[int] = []
    other: list[int] = []
    for i, x in enumerate(chosen):
        aliases = by_n[x.sentence.block].aliases
        actors = sentence_actors(x.sentence.text)
        if any(same_actor(asked, a, aliases) for a in actors):
            same.append(i)
        elif any(other_actor(asked, a, aliases) for a in actors):
            other.append(i)
    if not same or not other:
        return chosen
    share = question_word_shares(chosen, question)
    same.sort(key=lambda i: -share[i])  # stable: by rank among equals
    out = list(chosen)
    for slot, i in zip(sorted(same + other), same + other, strict=True):
        out[slot] = chosen[i]
    return out


def _banded_row(
    ranked: Sequence[ScoredSentence], question: str, seen: Sequence[ScoredSentence]
) -> ScoredSentence | None:
    """The row, of a table that ``seen`` holds a row or the header of, whose band holds the question's condition
    (``table_lookup``), or ``None``."""
    tables = {(x.sentence.block, x.sentence.table_header) for x in seen if x.sentence.table_header >= 0}
    tables |= {
        (x.sentence.block, x.sentence.position) for x in seen if TABLE_CELL_SEPARATOR in x.sentence.text
    }
    for key in sorted(tables):
        rows = sorted(
            (x for x in ranked if (x.sentence.block, x.sentence.table_header) == key),
            key=lambda x: x.sentence.position,
        )
        at = banded_row(question, [x.sentence.text for x in rows], TABLE_CELL_SEPARATOR)
        if at is not None:
            return rows[at]
    return None


def _banded_row_first(
    chosen: list[ScoredSentence], ranked: Sequence[ScoredSentence], question: str
) -> list[ScoredSentence]:
    """The row of a chosen table whose band holds the question's condition first ("if uptime is 98%" → "95.0% to
    below 99.0% | 25"; ``table_lookup``), brought in from the table's other rows when it was not chosen, and the
    table's other rows left out: a tiered table's rows score alike, and the three quoted were not the one that
    answers (session 45 try-out). Else the one sentence of the quoted passages whose threshold holds it ("超过30日的" for
    45 days late), which the scorer had left out of the three quoted."""
    if not question:
        return chosen
    row = _banded_row(ranked, question, chosen)
    if row is not None:  # the band's row alone under its header: the table's other bands do not apply
        key = (row.sentence.block, row.sentence.table_header)
        header = [x for x in chosen if (x.sentence.block, x.sentence.position) == key]
        others = (
            x
            for x in chosen
            if key
            not in ((x.sentence.block, x.sentence.table_header), (x.sentence.block, x.sentence.position))
        )
        return [*header, row, *others]
    # prose thresholds: "超过30日的，甲方有权解除本合同" holds "if the lessee is 45 days late"; only in the quoted passages
    blocks = {x.sentence.block for x in chosen}
    prose = [x for x in ranked if x.sentence.block in blocks and TABLE_CELL_SEPARATOR not in x.sentence.text]
    at = banded_sentence(question, [x.sentence.text for x in prose])
    if at is not None:
        return [prose[at], *(x for x in chosen if x is not prose[at])]
    return chosen


def _other_language_saying_less(chosen: list[ScoredSentence], question: str) -> list[ScoredSentence]:
    """The chosen sentences without those in the other language than the question's that use fewer of its words
    (itself or translated, under their heading: ``heading_reader``) than the lead, when the lead is in the question's
    language.

    Why (session 45 try-out, a Chinese finance lease beside an English SaaS agreement): "每期租金是多少？什么时候支付？" quoted
    "Customer shall pay an annual subscription fee of EUR 84,000" (支付 = pay only) under the lease's rent sentence
    (每期, 租金, 支付), and left out the lease's payment-day sentence. Across languages a sentence shares a question word by translation alone; one that shares fewer than the
    lead is another subject, not a second answer. A question in one language over documents only in the other is
    unaffected (its lead is in the other language)."""
    if not chosen or not question:
        return chosen
    chinese = has_cjk(question)
    lead = chosen[0].sentence
    if has_cjk(lead.text) != chinese:
        return chosen
    read = heading_reader(question)
    need = read(lead.heading, lead.text)[0]
    return [
        x
        for x in chosen
        if has_cjk(x.sentence.text) == chinese or read(x.sentence.heading, x.sentence.text)[0] >= need
    ]


def select_quoted(
    blocks: Sequence[EvidenceBlock],
    scored: Sequence[ScoredSentence],
    settings: GenerationSettings,
    question: str = "",
) -> QuotedAnswer:
    """The one to ``quoted_max_sentences`` best sentences, best first.

    Only sentences of the judged passages count (``in_judged``). A sentence joins the best one
    only when its score reaches ``quoted_min_relative`` of the best score, so a weakly related
    clause is not quoted just to fill three lines; among those, sentences under a heading that names
    the ``question``'s words come first, unless the clause of the best-scored one says more of the
    question (``quoted_prefer_named_heading``, ``_named_first``); within each, those that hold the kind of
    value the question asks for first (``quoted_prefer_asked_value``); clauses where the party the question makes its
    subject acts before those where only the other party does (``_asked_actor_first``). A CONFLICTING block's
    sentence that contradicts the premise leads them (``_correcting``): correcting it matters most; when
    another document states the premise (an ``affirming`` block), its sentence comes first (``_stating``).
    With no score above zero, the first sentence of the first block: the judge kept that block as
    evidence.
    """
    by_n = {b.n: b for b in blocks}
    order = {b.n: i for i, b in enumerate(blocks)}
    scored = [x for x in scored if in_judged(by_n[x.sentence.block], x.sentence)] or list(scored)
    scored = [x for x in scored if not is_lead_in(x.sentence.text)] or scored
    if not scored:
        return QuotedAnswer()
    ranked = sorted(scored, key=lambda x: (-x.score, order[x.sentence.block], x.sentence.position))
    best = ranked[0].score
    ranked = _literal_ties(ranked, question, settings.quoted_tie_margin)
    if best <= 0:
        first = min(scored, key=lambda x: (order[x.sentence.block], x.sentence.position))
        chosen = [first]
    else:
        floor = best * settings.quoted_min_relative
        lines = _party_lines(ranked, question)
        chosen = [x for x in ranked if x.score >= floor or id(x) in lines]
        if question and settings.quoted_prefer_asked_value:
            chosen = _asked_period_first(_asked_value_first(chosen, question), ranked, question)
        if question and settings.quoted_prefer_named_heading:
            chosen = _named_first(chosen, heading_reader(question))
        chosen = _defined_first(chosen, ranked, question)
        chosen = _asked_actor_first(chosen, question, by_n)
        chosen = _party_lines_last(chosen, question)
        chosen = _banded_row_first(chosen, ranked, question)
        chosen = with_table_headers(clauses_in_order(chosen[: settings.quoted_max_sentences]), scored)
    lead = _correcting(ranked, {b.n for b in blocks if b.conflicting}, question)
    stated = _stating(ranked, {b.n for b in blocks if b.affirming}, question) if lead is not None else None
    leads = [x for x in (stated, lead) if x is not None]
    if leads:
        heads = {(x.sentence.block, x.sentence.table_header) for x in leads if x.sentence.table_header >= 0}
        rest = [
            x
            for x in chosen
            if all(x is not y for y in leads) and (x.sentence.block, x.sentence.position) not in heads
        ]
        # a leading table row under its header ("95.0% to below 99.0% | 25" says what 25 is only there)
        chosen = with_table_headers([*leads, *rest][: settings.quoted_max_sentences], scored)
    chosen = _other_language_saying_less(chosen, question)
    return QuotedAnswer(
        [_quote(by_n[x.sentence.block], x) for x in chosen],
        conflicting=any(by_n[x.sentence.block].conflicting for x in chosen),
        differing=stated is not None,
    )
