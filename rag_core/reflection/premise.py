"""The answer must correct a false premise first (issue 10): check the draft, else quote the correction.

Why a check after generation: a passage was rightly CONFLICTING ("租金是每月8000元，对吗？" against a
lease that says 9500), yet the small model began "是的，租金是每月8000元。" and then quoted 9500. The
prompt already asks for the correction; this module verifies it. A draft *affirms* the premise when
its opening sentence repeats a value of the question that the conflicting block does not state,
without a correction word ("不对", "并非", "No", "not", "actually"). Such a draft is replaced by a
correction quoted from the conflicting block — "不对：" + the block's sentence holding the value —
followed by the draft's sentences that do not repeat the false value.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rag_core.generation.citations import remove_citation_markers
from rag_core.generation.prompt import EvidenceBlock, Language
from rag_core.generation.table_lookup import banded_row
from rag_core.ingest.extract import TABLE_CELL_SEPARATOR
from rag_core.judge.conflict import (
    PremiseSlots,
    affirmation_score,
    banded_view,
    contradiction_of,
    premise_slots,
    same_value,
)
from rag_core.judge.forum_premise import FORUM_WORDS, asserted_forum, forum_conflict
from rag_core.judge.frequency_premise import PERIOD_SURFACES, frequency_conflict, payment_periods
from rag_core.judge.values import Value, extract_values, normalize_text
from rag_core.reflection.support import content_tokens, split_sentences
from rag_core.textproc import has_cjk

_CORRECTION = re.compile(
    r"^\W*(?:不对|不是|并非|不正确|有误|错误|不准确|实际上|事实上|但|而是|"
    r"no\b|not\b|incorrect|that is not|that's not|actually|in fact|however|the contract (?:says|states))",
    re.I,
)
_NEGATED = re.compile(
    r"不是|并非|不为|不由|而非|并不|没有|不对|\bnot\b|\bno\b|\bisn't\b|\bdoesn't\b|incorrect", re.I
)

_LEAD: dict[Language, str] = {"zh": "不对：", "en": "No — the documents say otherwise: "}
_AFFIRMATION = re.compile(
    r"^\s*(?:对的|对|是的|是|没错|正确|确实如此|yes|correct|that is correct|that's correct|that's right|right)"
    r"\s*[，,。.!！;；:：—-]+\s*",
    re.I,
)
"""An opening that says the premise is right ("对。", "是的，", "Yes, …") before any value."""


def false_values(question: str, conflicting: Sequence[EvidenceBlock]) -> list[str]:
    """Surfaces of the question's values that no conflicting block states (the false premise), and
    the name a premise about a party binds to a role a conflicting block gives someone else
    (``party_premise``: "Northwind Software Inc." of "Is the licensee Northwind Software Inc.?" is in
    the licence, as the licensor; a draft "The licensee is Northwind Software Inc." stayed after the
    correction), and the words of a payment period a conflicting block contradicts (``frequency_premise``:
    "工资按季度发放吗？" was answered "不对：甲方每月支付… [1] 工资按季度发放 [1]。", the draft kept after the
    correction), or of a dispute forum (``forum_premise``)."""
    from rag_core.judge.party_premise import party_conflict, premise_binding, same_party

    slots = premise_slots(question)
    # a tiered table's other rows state no value of the question's case (``conflict.banded_view``)
    block_values = [
        v for b in conflicting for v in extract_values(normalize_text(banded_view(question, b.text)))
    ]
    out = [v.surface for v in slots.values if not any(same_value(v, w) for w in block_values)]
    out += [w for w in _false_period_words(slots, conflicting) if w not in out]
    out += [w for w in _false_forum_words(question, conflicting) if w not in out]
    binding = premise_binding(question)
    if binding and any(party_conflict(question, b.text)[0] > 0 for b in conflicting):
        named = [v.surface for v in slots.values if v.kind == "name" and same_party(v.surface, binding.name)]
        # the name as the question writes it when no value was read for it (names are read by tagging)
        out += [n for n in (named or [binding.name]) if n not in out]
    return out


def _false_period_words(slots: PremiseSlots, conflicting: Sequence[EvidenceBlock]) -> tuple[str, ...]:
    """How a draft may repeat the premise's payment period when a conflicting block states another."""
    if not any(frequency_conflict(slots.text, b.text, slots.terms)[0] > 0 for b in conflicting):
        return ()
    return tuple(w for period in payment_periods(slots.text) for w in PERIOD_SURFACES[period])


def _false_forum_words(question: str, conflicting: Sequence[EvidenceBlock]) -> tuple[str, ...]:
    """How a draft may repeat the premise's dispute forum when a conflicting block names the other
    ("争议由法院管辖吗？" over an arbitration clause: a draft "争议由工程所在地法院管辖 [1]" affirms it)."""
    if not any(forum_conflict(question, b.text)[0] > 0 for b in conflicting):
        return ()
    return FORUM_WORDS[asserted_forum(question)]


def starts_with_correction(answer: str) -> bool:
    """The opening sentence corrects ("不对", "No", "Actually", "However" …)."""
    first = next(iter(split_sentences(answer)), "")
    return bool(_CORRECTION.search(first.strip()))


def affirms_premise(answer: str, question: str, conflicting: Sequence[EvidenceBlock]) -> bool:
    """The opening sentence repeats a false value of the question without negating it."""
    if not conflicting or starts_with_correction(answer):
        return False
    first = next(iter(split_sentences(answer)), "")
    norm = normalize_text(first)
    values = extract_values(norm)
    false = false_values(question, conflicting)
    wrong = [v for v in premise_slots(question).values if v.surface in false]
    repeated = any(same_value(q, a) for q in wrong for a in values) or any(
        f in norm for f in false if f not in {v.surface for v in wrong}
    )
    return repeated and not _NEGATED.search(norm)


def states_true_value(answer: str, question: str, conflicting: Sequence[EvidenceBlock]) -> bool:
    """The answer gives the value the documents state in place of the false one.

    Why: "不对。根据第三条，乙方应于每月5日前支付当月租金 [1]" opens with a correction, yet a lawyer who
    asked "租金是每月8000元，对吗？" still does not learn the rent. A value of the correction sentence of
    the same kind as a false value (an amount for an amount) must appear in the answer.
    """
    wrong = [v for v in premise_slots(question).values if v.surface in false_values(question, conflicting)]
    if not wrong:
        return True
    sentence = correction_sentence(question, conflicting[0])
    stated = extract_values(normalize_text(sentence))
    # the same kind first: "5日" (a day of the month) is no answer to an 8000-yuan premise
    truths = [t for t in stated if t.kind in {w.kind for w in wrong}] or [
        t for t in stated if any(same_kind(t, w) for w in wrong)
    ]
    if not truths:
        return True  # nothing comparable to ask for: the correction word is all that can be checked
    given = extract_values(normalize_text(answer))
    return any(same_value(t, a) for t in truths for a in given)


def same_kind(a: Value, b: Value) -> bool:
    """Values that answer the same slot: equal kinds, or numbers, amounts and percents together."""
    numeric = {"number", "amount", "percent"}
    return a.kind == b.kind or {a.kind, b.kind} <= numeric or {a.kind, b.kind} <= {"date", "year"}


def without_affirmation(answer: str) -> str:
    """The draft without an opening "对。" / "是的，" / "Yes," (the rest of the sentence stays).

    Why: the small model answered "月租金是8000元，对吗？" with "对。根据第三条，月租金为人民币6800元";
    with the quoted correction in front the answer read "不对：… 对。…", contradicting itself."""
    rest = _AFFIRMATION.sub("", answer, count=1)
    return rest[:1].upper() + rest[1:] if rest != answer and rest[:1].isascii() else rest


def _without_bare_correction(answer: str, language: Language) -> str:
    """The draft without an opening sentence that only says "不对" / "No" (the quoted correction
    that replaces it says so, with the value)."""
    sentences = split_sentences(answer)
    if sentences and len(content_tokens(sentences[0])) <= 1:
        sentences = sentences[1:]
    return ("" if language == "zh" else " ").join(sentences)


@dataclass(frozen=True)
class _Stated:
    """A block sentence as the premise check reads it and as the correction quotes it."""

    read: str  # a table row under its header line, so a cell's number takes its column's unit
    shown: str  # a table row as its header's cells paired with the row's
    row: str = ""  # a table row as the block writes it ("" for other sentences)


def _block_sentences(block: EvidenceBlock) -> list[_Stated]:
    """The block's sentences as the quoted answer reads them (a PDF line that wraps on is joined to the
    next: split at the line break, "…for a period of thirty-six (36) months after the date of this" was
    quoted as the correction; session 35), a table row with its header.

    Why the header: read alone, "多层住宅 | 1.20 | 含公共区域保洁" is a bare number of no subject, so for "Is the fee
    for shops 2 yuan per square metre?" the correction quoted that row, not the shops' "商铺 | 3.50", and the
    Chinese correction "不对：商铺 | 3.50 | 不含垃圾清运" named no unit (session 44 browser)."""
    from rag_core.generation.quoted import block_sentences  # quoted imports this package's support module

    sentences = block_sentences(block)
    out: list[_Stated] = []
    for x in sentences:
        header = sentences[x.table_header].text if x.table_header >= 0 else ""
        out.append(
            _Stated(f"{header}\n{x.text}", row_under_header(header, x.text), x.text)
            if header
            else _Stated(x.text, x.text)
        )
    return out or [_Stated(block.text, block.text)]


def row_under_header(header: str, row: str) -> str:
    """A table row quoted as "column: cell" pairs ("物业类型：商铺；收费标准（元/平方米·月）：3.50"), which reads as a
    sentence where the bare row ("商铺 | 3.50") says neither what 3.50 is nor its unit. Empty cells are left
    out; a row whose cells do not match the header's is quoted after the header line."""
    names = [c.strip() for c in header.split(TABLE_CELL_SEPARATOR)]
    cells = [c.strip() for c in row.split(TABLE_CELL_SEPARATOR)]
    chinese = has_cjk(header)
    colon, sep = ("：", "；") if chinese else (": ", "; ")
    if len(names) != len(cells):
        return f"{' '.join(header.split())}{colon}{' '.join(row.split())}"
    return sep.join(f"{n}{colon}{c}" if n else c for n, c in zip(names, cells, strict=True) if c)


def stating_sentence(question: str, block: EvidenceBlock) -> str:
    """The block's sentence that states the question's value most plainly (``affirmation_score``)."""
    slots = premise_slots(question)
    best = max(_block_sentences(block), key=lambda s: affirmation_score(slots, s.read))
    return _one_line(best.shown.strip())


def correction_sentence(question: str, block: EvidenceBlock) -> str:
    """The block's sentence that states the contradicting fact: the one that alone contradicts the
    premise most, then one with a value and the most question words.

    Why the contradiction first: for "租金是每月8000元，对吗？" the lease block's deposit sentence
    ("押金为两个月租金，即13600元") shares as many words with the question as the rent sentence does."""
    q_tokens = content_tokens(question)
    sentences = _block_sentences(block)
    contradicts = contradiction_of(question)

    rows = [s.row for s in sentences if s.row]
    banded = banded_row(question, rows, TABLE_CELL_SEPARATOR)  # a tiered table's row the condition falls in
    row_of = rows[banded] if banded is not None else None

    def key(s: _Stated) -> tuple[tuple[float, int], bool, int, int]:
        has_value = 1 if extract_values(normalize_text(s.read)) else 0
        in_band = row_of is not None and s.row == row_of
        return (contradicts(s.read), in_band, has_value, len(q_tokens & content_tokens(s.read)))

    return _one_line(max(sentences, key=key).shown.strip())


_CJK_BREAK = re.compile(r"(?<=[\u4e00-\u9fff，。；：、])\s*\n\s*(?=[\u4e00-\u9fff])")


def _one_line(sentence: str) -> str:
    """A sentence joined from wrapped lines: no break between Chinese characters, a space elsewhere."""
    return re.sub(r"\s*\n\s*", " ", _CJK_BREAK.sub("", sentence))


def premise_correction(question: str, conflicting: Sequence[EvidenceBlock], language: Language) -> str:
    """ "不对：<the block's sentence> [n]": the correction quoted verbatim, with its citation."""
    block = conflicting[0]
    return f"{_LEAD[language]}{correction_sentence(question, block)} [{block.n}]"


_DIFFER: dict[Language, tuple[str, str]] = {
    "zh": ("各文件约定不一致：", "："),
    "en": ("The documents differ:", ": "),
}
"""The opening line of an answer whose premise one document states and another contradicts, and what
separates a document's name from its quoted sentence on the lines below it."""


def documents_differ(question: str, blocks: Sequence[EvidenceBlock], language: Language) -> str:
    """ "各文件约定不一致：" and, one line each, the document stating the value and the one denying it with
    the sentence that does, quoted and cited; "" when no block states the value a conflicting block denies
    (``EvidenceBlock.affirming``). A document is named by its title, or by its file when the titles are
    the same (two "EMPLOYMENT AGREEMENT"s, session 37)."""
    stating = next((b for b in blocks if b.affirming), None)
    conflicting = next((b for b in blocks if b.conflicting), None)
    if stating is None or conflicting is None:
        return ""
    lead, colon = _DIFFER[language]
    same = stating.title == conflicting.title

    def name(b: EvidenceBlock) -> str:
        return b.doc if same else b.title

    said = f"{name(stating)}{colon}“{stating_sentence(question, stating)}” [{stating.n}]"
    denied = f"{name(conflicting)}{colon}“{correction_sentence(question, conflicting)}” [{conflicting.n}]"
    return f"{lead}\n{said}\n{denied}"


def enforce_correction(
    answer: str, question: str, blocks: Sequence[EvidenceBlock], language: Language
) -> tuple[str, str]:
    """The answer starting with the premise's correction, and a note ("" when it already did).

    Affirming drafts lose every sentence that repeats a false value; a draft that merely does not
    open with the correction gets the quoted correction in front. When another document states the
    value (``documents_differ``), the answer opens by quoting both, and the draft loses only a bare
    "yes"/"no" opening: its value is true of one document.
    """
    conflicting = [b for b in blocks if b.conflicting]
    if not conflicting:
        return answer, ""
    answer = without_echo(answer, question, language)
    differ = documents_differ(question, blocks, language)
    if differ:
        rest = _without_yes_or_no(answer)
        return (
            f"{differ}\n{rest}".strip(),
            "one document states the premise, another contradicts it: both quoted",
        )
    correction = premise_correction(question, conflicting, language)
    wrong = false_values(question, conflicting)
    if starts_with_correction(answer):
        if states_true_value(answer, question, conflicting):
            return answer, ""
        rest = _without_false(_without_bare_correction(answer, language), wrong, language)
        return (
            f"{correction}\n{rest}".strip(),
            "the draft said the premise was wrong without the documents' value: quoted correction added",
        )
    if affirms_premise(answer, question, conflicting):
        keep = [s for s in split_sentences(answer) if not any(w in s for w in wrong)]
        rest = "".join(keep) if language == "zh" else " ".join(keep)
        return (
            f"{correction}\n{rest}".strip(),
            "the draft affirmed the false premise: replaced by the quoted correction",
        )
    return (
        f"{correction}\n{_without_false(without_affirmation(answer), wrong, language)}".strip(),
        "the draft did not open with the correction: quoted correction added",
    )


def _without_yes_or_no(answer: str) -> str:
    """The draft without an opening "Yes," / "是的，" / "No," / "不对，": each is false of one document when the
    documents differ."""
    rest = _LEADING_NO.sub("", without_affirmation(answer), count=1)
    return rest[:1].upper() + rest[1:] if rest[:1].isascii() else rest


def _without_false(answer: str, wrong: Sequence[str], language: Language) -> str:
    """The draft without the sentences that repeat a false value of the question and do not negate it.

    Why: below the quoted correction the local model's draft went on "The lock-up period is 24 months, right?
    [1]", the question itself, cited (browser, session 35)."""
    return _dropping(answer, lambda s: _repeats_false(s, wrong), language)


def _dropping(answer: str, drop: Callable[[str], bool], language: Language) -> str:
    """``answer``'s sentences but those ``drop`` picks, joined, or ``answer`` untouched when none is dropped
    (its lines stay)."""
    sentences = split_sentences(answer)
    keep = [s for s in sentences if not drop(s)]
    return answer if len(keep) == len(sentences) else ("" if language == "zh" else " ").join(keep)


def _plain(text: str) -> str:
    """Text without citations, punctuation and case: what two wordings of one question share."""
    return re.sub(r"\W+", "", remove_citation_markers(text)).lower()


def without_echo(answer: str, question: str, language: Language) -> str:
    """The draft without sentences that are the question itself.

    Why: the local model's draft for "The lock-up period is 24 months, right?" was that very sentence, cited; the
    chunk of the conflicting clause also held the non-compete's "twenty-four (24) months", so 24 months was no false
    value of it, and the echo stood under the correction (browser, session 35)."""
    asked = _plain(question)
    return _dropping(answer, lambda s: _plain(s) == asked, language)


_LEADING_NO = re.compile(r"^\W*(?:no|不对|不是)\b\W*", re.I)
_CITED_QUESTION = re.compile(r"[?？]\s*(?:\[\d+\]\s*)*$")


def _repeats_false(sentence: str, wrong: Sequence[str]) -> bool:
    """A sentence that holds a false value of the question as asked or affirmed: a question ("…24 months,
    right? [1]", the premise echoed), or a statement that does not negate it. A bare leading "No." is not
    the sentence's negation: the splitter keeps "No. The lock-up period is 24 months, right?" together
    ("No." also abbreviates a number)."""
    if not any(w in sentence for w in wrong):
        return False
    return bool(_CITED_QUESTION.search(sentence)) or not _NEGATED.search(
        _LEADING_NO.sub("", sentence, count=1)
    )
