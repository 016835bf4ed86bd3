"""Document scope: in a base of several contracts, a question whose words one contract uses and
another does not is about the first; the other's passages cannot be its evidence.

Why (issue 10): the follow-up "股权转让价款是多少？ 那什么时候付？" over a share-transfer agreement and a
lease kept the lease's rent and deposit clauses as EVIDENCE (about 0.78: they say when something is
paid), and the quoted answer added lease sentences after the share agreement's. The lease never
says 股权, 转让 or 价款; the share agreement says all four of the question's words. The judge reads one
passage at a time and cannot see that; the whole documents can.

The rule compares whole documents, never passages: a document is out of scope when the question
words it uses (in its own language or, through the glossary, translated) are a strict subset of
another searched document's and at most ``doc_scope_max_share`` of them. English words that most
training contracts use ("under", "agreement", "month") name no document and are left out
(``COMMON_TERMS_PATH``, fitted on the fit part of ``train/cuad``): "under" in "What is the monthly
rent under the lease?" kept an English licence in scope beside the Chinese lease. The share was
chosen on pairs of training contracts (``scope_sweep``): how often the contract that holds the asked
clause would be scoped out against how often one that lacks it would. ``python -m rag_core train
doc-scope`` writes the common words and prints the sweep.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from rag_core.coded import CodedText, coded, join
from rag_core.judge.classify import CONFLICT, EVIDENCE, classify, relabelled
from rag_core.judge.clause_types import is_generic_role, role_words
from rag_core.judge.glossary import direct_translations, siblings, translations
from rag_core.judge.relevance import (
    PREFIX_MATCH_MIN,
    names_asked_role,
    party_labels,
    role_names,
    stem,
    surface_words,
    term_in,
    terms,
)
from rag_core.models import Verdict
from rag_core.settings import JudgeTrainSettings, VerdictSettings
from rag_core.textproc import is_chinese, names_a_contract

SWEEP_SHARES: tuple[float, ...] = (0.25, 0.34, 0.5, 0.67, 0.99)
"""The candidate values of ``doc_scope_max_share`` that ``scope_sweep`` reports."""

SWEEP_MIN_MISSING: tuple[int, ...] = (1, 2, 3)
"""The candidate values of ``doc_scope_min_missing`` that ``scope_sweep`` reports."""

SWEEP_MAX_COST: float = 0.01
"""The sweep chooses the pair that scopes out the most lacking contracts while scoping out the
holder of the asked clause at most this often (ties: the lower cost, then the smaller share)."""

COMMON_TERMS_PATH: Path = Path(__file__).parent / "data" / "common_terms.json"
"""The English words (judge stems) most fit-part training contracts use; written by ``train doc-scope``."""

COMMON_MIN_SHARE: float = 0.5
"""A word is common when at least this share of the fit-part training contracts use it."""

PHRASINGS: int = 2
"""Phrasings asked per (contract, category) in the sweep: every category has at least two."""

TITLE_LINE_MAX_CHARS: int = 120
"""A document's first non-empty line is read as its title only when it is at most this long (a
first line that is a whole paragraph names no document)."""

_NAME_SEPARATORS = re.compile(r"[_\-.]+")


@lru_cache(maxsize=64)
def _doc_view(text: str) -> tuple[frozenset[str], str]:
    """A document's content terms and lowered text, once per text (a chat asks many questions of
    the same few contracts; a long contract takes jieba a noticeable moment)."""
    return frozenset(terms(text)), text.lower()


def _most_used(texts: Sequence[str]) -> list[str]:
    """The English words at least ``COMMON_MIN_SHARE`` of ``texts`` use."""
    counts: dict[str, int] = {}
    for text in texts:
        for t in {t for t in terms(text) if t.isascii()}:
            counts[t] = counts.get(t, 0) + 1
    return sorted(t for t, n in counts.items() if n >= COMMON_MIN_SHARE * len(texts))


def fit_common_terms(train_dir: Path, ts: JudgeTrainSettings) -> dict[str, Any]:
    """The English words at least ``COMMON_MIN_SHARE`` of the fit-part contracts use (never the check
    part), in their text and in their titles (``title_text``)."""
    from rag_core.judge.train_sets import CONTRACTS, is_check

    paths = [p for p in sorted((train_dir / CONTRACTS).glob("*.txt")) if not is_check(p.name, ts)]
    texts = [p.read_text(encoding="utf-8") for p in paths]
    titles = [title_text(p.name, text) for p, text in zip(paths, texts, strict=True)]
    return {
        "min_share": COMMON_MIN_SHARE,
        "contracts": len(paths),
        "terms": _most_used(texts),
        "title_terms": _most_used(titles),
    }


@lru_cache(maxsize=1)
def committed_common() -> tuple[frozenset[str], frozenset[str]]:
    """The committed words most training contracts' text uses and those most of their titles use
    (both empty when the file is missing: every word then counts)."""
    if not COMMON_TERMS_PATH.is_file():
        return frozenset(), frozenset()
    data = json.loads(COMMON_TERMS_PATH.read_text(encoding="utf-8"))
    return frozenset(data.get("terms", ())), frozenset(data.get("title_terms", ()))


def common_terms() -> frozenset[str]:
    """The committed words most training contracts' text uses."""
    return committed_common()[0]


def common_title_terms() -> frozenset[str]:
    """The committed words most training contracts' titles use ("agreement", "exhibit")."""
    return committed_common()[1]


_ASKING_WORDS = re.compile(r"\bhow\s+(long|much|many|soon|often|far|quickly)\b", re.IGNORECASE)
"""The words of an English question that say what kind of answer it wants ("how long", "how much"), not what it is
about."""

_LASTING = re.compile(r"\b(last|lasts|continue|continues|run|runs|remain|remains)\b", re.IGNORECASE)
"""The verb of "how long does … last": part of asking for a period."""


def asking_words(question: str) -> frozenset[str]:
    """The stems of the question's asking words (``_ASKING_WORDS``, and ``_LASTING`` after "how long").

    Why (try-out, session 38): "How long does the confidentiality obligation last after termination?" over a base
    of contracts scoped the SaaS agreement's "6.2 These obligations survive for five (5) years after termination"
    and the 技术服务合同's 保密期限 out as silent on "long" and "last", words a web hosting agreement happened to use;
    the question was answered with another contract's return-of-materials clause."""
    out: set[str] = set()
    for m in _ASKING_WORDS.finditer(question):
        out.add(stem(m.group(1).lower()))
        if m.group(1).lower() == "long":
            out.update(stem(v.group(1).lower()) for v in _LASTING.finditer(question, m.end()))
    return frozenset(out)


_NUMERAL = re.compile(r"^(?:[零〇一二两三四五六七八九十百千万亿]+个?|[\d.,]+)$")
"""A word that is only a number ("十二", "二个", "十二个", "90"): jieba's pieces of a value, not a name."""


def naming_terms(question: str) -> list[str]:
    """The question's content words that can tell documents apart (common English words, the words that
    only say what kind of answer it wants, and numbers left out).

    Why numbers (browser, session 38): "借款期限是十二个月，对吗？" scoped the lease out because "十二、二个、十二个" were in
    the technical service contract (its warranty's 十二个月), not in the lease: a value the question asserts names no
    document."""
    common = common_terms() | asking_words(question)
    return [t for t in dict.fromkeys(terms(question)) if t not in common and not _NUMERAL.match(t)]


def as_asked(question: str, names: Sequence[str]) -> tuple[str, ...]:
    """The question's own words for its stemmed terms ("shares" for "shar"), for the note a lawyer reads.

    Why: the note said 问题里的“shar”出现在《股权转让协议.txt》中 (browser try-out, "What is the purchase
    price for the shares?"): a stem is how words are matched, not a word anyone asked."""
    asked = surface_words(question)
    return tuple(dict.fromkeys(asked.get(t, t) for t in names))


def renders_common(term: str, common: frozenset[str]) -> bool:
    """A Chinese word every English rendering of which most training contracts use (合同, 协议, 期限).

    Why: the common words are fitted on English contracts, so 合同 counted as naming a document by
    its title, and "租赁合同的期限是多久？" named the software licence ("license agreement") as much as
    the lease."""
    renderings = direct_translations(term) if not term.isascii() else ()
    return bool(renderings) and all(r in common for r in renderings)


def _uses(term: str, doc_terms: frozenset[str], low: str) -> bool:
    """The document uses the term itself or one of its direct translations.

    Why direct only: a Chinese compound's translations come from the glossary words inside it, so
    "月租金" would count as used by any English contract that says "month", and a software licence
    stayed in scope for "月租金是多少？" beside the lease whose rent it asks."""
    return word_used(term, doc_terms, low) or any(
        word_used(t, doc_terms, low) for t in (*direct_translations(term), *siblings(term))
    )


INFLECTION_MAX_CHARS: int = 3
"""Letters an English word may run on past the part it shares with another and still be the same word
("disclos" / "disclosur"); more is another word built on it ("share" / "sharehold")."""


def word_used(term: str, doc_terms: frozenset[str], low: str) -> bool:
    """``relevance.term_in`` without translation, but an English word is used only as itself or an
    inflection, not inside a compound.

    Why: the judge's shared-prefix match counts "share" in a lease's "proportionate share" as the question's
    "shareholders", so "Which law governs the shareholders' agreement?" kept the lease's governing-law clause
    in scope and quoted it beside the shareholders' agreement's (session 35). Which document a question
    names wants the word itself. Nor is a word most training contracts use (``common_terms``) an inflection
    of a rarer one: "construed" ("constru") is not "construct", and every contract with a governing-law
    clause used the 工程 of "工程款怎么支付？" (session 42 try-out)."""
    if not term.isascii():
        return term_in(term, doc_terms, low, translated=False)
    if term in doc_terms:
        return True
    common = common_terms()
    # an inflection shares PREFIX_MATCH_MIN letters, so this is term_in's shared-prefix match, narrowed
    return any(
        _inflection(term, t)
        for t in doc_terms
        if t[:PREFIX_MATCH_MIN] == term[:PREFIX_MATCH_MIN] and (t not in common or term in common)
    )


def _inflection(a: str, b: str) -> bool:
    """Two English stems are one word: past their shared start, neither runs on by more than
    ``INFLECTION_MAX_CHARS`` letters."""
    shared = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return shared >= PREFIX_MATCH_MIN and max(len(a), len(b)) - shared <= INFLECTION_MAX_CHARS


def covered_terms(question: str, text: str) -> frozenset[str]:
    """The question's naming words that the document uses, itself or translated."""
    return covered_in(naming_terms(question), *_doc_view(text))


def covered_in(names: Sequence[str], text_terms: frozenset[str], low: str) -> frozenset[str]:
    """Which of ``names`` a text uses (``text_terms``: its content terms; ``low``: it lowered)."""
    return frozenset(t for t in names if _uses(t, text_terms, low))


def dominated(mine: frozenset[str], other: frozenset[str], max_share: float, min_missing: int) -> bool:
    """``other`` uses every question word ``mine`` does and at least ``min_missing`` more, and
    ``mine`` at most ``max_share`` of ``other``'s (one word more is often just another phrasing)."""
    return mine < other and len(other - mine) >= min_missing and len(mine) <= max_share * len(other)


@dataclass(frozen=True)
class OutOfScope:
    """Why a document is out of the question's scope: the words another document uses and it lacks."""

    doc_id: str
    missing: tuple[str, ...]
    other_doc: str
    by_role: bool = False  # the missing words are a party role the other document's parties hold


def title_text(name: str, text: str) -> str:
    """What names a document: its file name without the extension (``_ - .`` read as spaces) and its
    first non-empty line when that is short enough to be a title."""
    stem = _NAME_SEPARATORS.sub(" ", name.rsplit(".", 1)[0] if "." in name else name)
    first = text.lstrip().split("\n", 1)[0].strip()  # not splitlines(): the whole contract, every question
    return f"{stem}\n{first}" if len(first) <= TITLE_LINE_MAX_CHARS else stem


def titled_terms(names: Sequence[str], title: str) -> frozenset[str]:
    """Of the question's title-naming words ``names``, those a document's ``title_text`` uses (itself or translated)."""
    return covered_in(names, frozenset(terms(title)), title.lower())


def inflected_verb(word: str) -> bool:
    """An English word in a verb's -ed or -ing form ("distributed", "renewing").

    Why: a contract's title names it with a noun; "How often are profits distributed?" asks about an act,
    yet its stem matched the title "distribution agreement", and the partnership agreement whose 4.1 says
    profits are distributed once a year (每年分配一次) was scoped out and the question refused (session 35)."""
    return word.isascii() and len(word) > 4 and word.endswith(("ed", "ing"))


def _title_named(question: str, docs: Mapping[str, tuple[str, str]]) -> dict[str, tuple[str, ...]]:
    """Document id → the question's naming words its title uses (``out_by_title``); a verb form of the
    question names a title only when the title writes that very form ("licensing agreement")."""
    common, in_titles = common_terms(), common_title_terms()
    asked = dict.fromkeys(terms(question))
    names = [t for t in asked if t not in in_titles and not renders_common(t, common)]
    literal = [t for t in asked if t not in names and names_literally(t, in_titles)]
    surface = surface_words(question)
    out: dict[str, tuple[str, ...]] = {}
    for d, (name, text) in docs.items():
        title = title_text(name, text)
        low = title.lower()
        kept = [t for t in names if not inflected_verb(surface.get(t, t)) or surface.get(t, t) in low]
        kept += [t for t in literal if t in low and names_a_contract(low)]
        out[d] = tuple(sorted(titled_terms(kept, title)))
    return out


def names_literally(term: str, in_titles: frozenset[str]) -> bool:
    """A Chinese word that names a title which writes it, though every English rendering of it is a word most
    training contracts use: not a word for a document itself (no rendering is a title word such as "agreement").

    Why: 商标 ("trademark", in most training contracts' text) named nothing, so "商标许可合同有保密条款吗？" over a
    商标使用许可合同 and a software licence, each named by 许可, kept the licence in scope and quoted its definition of
    Confidential Information instead of refusing (browser, session 35); 合同 ("agreement") still names nothing.
    Only a contract's title (``textproc.names_a_contract``): a statute article's title ("农村土地承包法第十条") is no
    contract a lawyer names, and counted, it scoped the other articles out (a LeCoQA refusal, 6 → 7 of 30, read off
    the evaluation rows' count and undone, as session 34's routing rule)."""
    renderings = direct_translations(term) if not term.isascii() else ()
    return bool(renderings) and not any(r in in_titles for r in renderings)


def title_words(question: str, docs: Mapping[str, tuple[str, str]]) -> tuple[str, ...]:
    """The question's words (as asked) that name the one document its title rule keeps, when that rule
    scopes every other document out (else none): words that chose the contract, not what is asked of it.

    Why: "设备总价是多少？" over an equipment sale contract (and others) names the contract with 设备; inside it,
    the payment clause "…设备验收合格后十五日内，甲方支付总价款的百分之六十" used both question words and the
    price clause "合同总价款为人民币壹佰叁拾伍万元" one, so the judge rated the payment clause higher and the
    evidence margin dropped the price (0.65 against 0.80); asked without 设备, the price clause leads."""
    named = _title_named(question, docs)
    holders = [d for d, words in named.items() if words]
    if len(holders) != 1 or set(_out_by_titles(question, docs, named)) != set(docs) - set(holders):
        return ()  # another document stays in scope: without the words, its passages would gain
    return as_asked(question, named[holders[0]])


def out_by_title(question: str, docs: Mapping[str, tuple[str, str]]) -> dict[str, OutOfScope]:
    """Documents out of scope because the question names another one by its title.

    Why: "The lease term is five years, right?" over a lease and a software licence kept the
    licence's "for five (5) years after the termination" as EVIDENCE and quoted it under the lease's
    correction, though the question says which contract it is about; "租赁合同的期限是多久？" likewise.
    The word-subset rule cannot see it: each contract uses question words the other lacks (the
    licence "five", "year"). So: when a document's title uses a naming word of the question, a
    document whose title uses none and whose text never uses that word is out of scope. A question
    naming two documents' titles ("the lease and the licence") scopes out neither of them. Routing
    (``retrieval.routing``) already searches a contract the question names in the title's own words;
    this rule also reads a title through the glossary ("lease" for 房屋租赁合同) and acts on the verdicts.
    An English word names a document unless most training contracts' *titles* use it ("agreement"):
    most of their texts use "license" and "fee", so the text-common words had left "When is the license
    fee due?" naming no document, and the lease's deposit clause (七日内) was quoted beside the licence."""
    return _out_by_titles(question, docs, _title_named(question, docs))


def _out_by_titles(
    question: str, docs: Mapping[str, tuple[str, str]], named: Mapping[str, tuple[str, ...]]
) -> dict[str, OutOfScope]:
    """``out_by_title`` for the titles' naming words already read (``_title_named``); also a document named
    by its title beside another whose text uses that document's title words while its own text never uses
    the other's (``_out_by_text``)."""
    out = _out_beside(question, docs, named, lambda words, view: bool(covered_in(words, *view)))
    return {**out, **{d: why for d, why in _out_by_text(question, docs, named).items() if d not in out}}


def _out_by_text(
    question: str, docs: Mapping[str, tuple[str, str]], named: Mapping[str, tuple[str, ...]]
) -> dict[str, OutOfScope]:
    """Documents whose title names some of the question's words, beside one whose title names others
    that their text never uses, while its text uses theirs.

    Why: "Can the licensee sublicense the trademark?" named the trademark licence by "trademark" (商标) and
    the software licence by "licensee", so neither was scoped out, and the software licence's
    "non-sublicensable" was quoted first; the trademark licence's party line names a 被许可人 (licensee),
    the software licence never says "trademark" (session 35). Two documents each with a word the other's
    text lacks ("the trademark licence and the lease") stay."""
    out: dict[str, OutOfScope] = {}
    for d, (_, text) in docs.items():
        if not named[d]:
            continue
        for other, words in named.items():
            extra = tuple(w for w in words if w not in named[d])
            if (
                other != d
                and extra
                and not covered_in(extra, *_doc_view(text))
                and covered_in(named[d], *_doc_view(docs[other][1])) == set(named[d])
            ):
                out[d] = OutOfScope(d, as_asked(question, extra), docs[other][0])
                break
    return out


def _out_beside(
    question: str,
    docs: Mapping[str, tuple[str, str]],
    named: Mapping[str, tuple[str, ...]],
    uses: Callable[[tuple[str, ...], tuple[frozenset[str], str]], bool],
    by_role: bool = False,
) -> dict[str, OutOfScope]:
    """Documents that ``named`` gives no question word, beside one it gives words their text never
    ``uses`` (the first such one names the reason): what the title and the role rule share."""
    out: dict[str, OutOfScope] = {}
    for d, (_, text) in docs.items():
        if named[d]:
            continue
        view = _doc_view(text)
        for other, words in named.items():
            if words and not uses(words, view):
                out[d] = OutOfScope(d, as_asked(question, words), docs[other][0], by_role=by_role)
                break
    return out


POSITIONAL_ROLES: frozenset[str] = frozenset({"甲方", "乙方", "丙方"})
"""Labels by position, not by kind of party: every Chinese contract has a 甲方, so naming one tells no
contract apart (and an English contract never says it, which would make the rule one of language)."""


def question_roles(question: str) -> tuple[str, ...]:
    """The party roles a question names, in a contract's words or a client's ("the licensee", "员工"
    for 劳动者); roles that name no one party ("the parties", "双方") or only a position (甲方) left out."""
    found = role_words(question)
    found += [t for t in terms(question) if not t.isascii() and _names_a_role(t)]
    return tuple(dict.fromkeys(r for r in found if not is_generic_role(r) and r not in POSITIONAL_ROLES))


def _names_a_role(term: str) -> bool:
    """A word of the question whose glossary renderings include a party role that names one party
    (员工 → 劳动者, employee; not 一方 or 第三方, whose renderings say only "party")."""
    return any(not is_generic_role(r) for w in role_names(term) for r in role_words(w))


def out_by_role(question: str, docs: Mapping[str, tuple[str, str]]) -> dict[str, OutOfScope]:
    """Documents out of scope because the question names a party role another document's parties hold.

    Why: "公司可以随时辞退员工吗？" over a labour contract and a software licence quoted the licence's
    "Either party may terminate this Agreement upon thirty (30) days' written notice …" (辞退 is
    "terminate" through the glossary; 员工 is in neither text, so the word rules saw nothing), though
    only the labour contract has an employee (劳动者) among its parties. So: when a document names
    someone as a role the question asks about (its party lines, ``relevance.party_labels``), a
    document whose parties hold none of the asked roles and whose text never uses the role's words,
    in either language, is out of scope. A question naming roles of two documents scopes out neither."""
    roles = question_roles(question)
    if not roles:
        return {}
    held = {
        d: tuple(r for r in roles if names_asked_role((r,), party_labels(text)))
        for d, (_, text) in docs.items()
    }
    return _out_beside(
        question,
        docs,
        held,
        lambda words, view: any(covered_in(sorted(role_names(r)), *view) for r in words),
        by_role=True,
    )


LANGUAGE_SAMPLE_CHARS: int = 2000
"""Characters of a document read to tell whether it is Chinese."""


def checkable(words: frozenset[str], chinese: bool) -> frozenset[str]:
    """Of a question's ``words``, those a document in the one language or the other could use: its own language's,
    or one the glossary translates (a compound through the glossary words inside it).

    Why (session 44 try-out): "What late fee applies to unpaid property fees?" scoped both Chinese property contracts
    out because an English lease says "applies" and "unpaid", words no Chinese contract can use and the glossary does
    not translate; a late-fee clause of a CUAD reseller agreement answered instead of "逾期交纳物业服务费的…滞纳金"."""
    translatable = {w for w in words if translations(w)}
    # jieba's piece of a compound that translates (试用 of 试用期) is as checkable as the compound
    return frozenset(
        w for w in words if w.isascii() != chinese or w in translatable or any(w in x for x in translatable)
    )


def out_of_scope(
    question: str, docs: Mapping[str, tuple[str, str]], max_share: float, min_missing: int
) -> dict[str, OutOfScope]:
    """Document id → why it is out of scope, for ``docs`` (id → (name, text)); empty with one document.

    A document is compared with the one that covers the most question words (ties: the first), so
    the reason names one clear alternative; a question that names a document by its title scopes out
    the documents that never use that word (``out_by_title``), and one that names a party role only
    some documents' parties hold, the documents that never use the role's words (``out_by_role``)."""
    if len(docs) < 2:
        return {}
    cover = {d: covered_terms(question, text) for d, (_, text) in docs.items()}
    best = max(cover, key=lambda d: len(cover[d]))
    chinese = {d: is_chinese(text[:LANGUAGE_SAMPLE_CHARS]) for d, (_, text) in docs.items()}
    out: dict[str, OutOfScope] = {}
    for d, mine in cover.items():
        theirs = cover[best] if chinese[d] == chinese[best] else checkable(cover[best], chinese[d])
        if d != best and dominated(mine, theirs, max_share, min_missing):
            missing = [t for t in naming_terms(question) if t in theirs - mine]
            out[d] = OutOfScope(d, as_asked(question, missing), docs[best][0])
    named = _title_named(question, docs)
    # a document the question names by its title stays in scope whatever roles it names: "技术开发合同和经销协议的
    # 争议解决方式有什么不同？" named the distribution agreement's Distributor (经销), and the development
    # contract, named by its own title, was scoped out beside it (session 32 try-out)
    by_role = {d: why for d, why in out_by_role(question, docs).items() if not named[d]}
    return {**by_role, **_out_by_titles(question, docs, named), **out}


SCOPED_OUT = "doc_out_of_scope"
"""The explanation code of a passage whose document is out of the question's scope."""

SCOPED_OUT_BY_ROLE = "doc_out_of_scope_role"
"""The same, when a party role of the question decided it (``out_by_role``)."""


def scope_note(why: OutOfScope, cap: float) -> CodedText:
    """The reason shown on a capped verdict."""
    words = "、".join(why.missing)
    if why.by_role:
        code, text = (
            SCOPED_OUT_BY_ROLE,
            f"the question's {words} is a party to {why.other_doc}, not to this document",
        )
    else:
        code, text = SCOPED_OUT, f"the question's words {words} are in {why.other_doc}, not in this document"
    return coded(
        code,
        f"{text}: evidence and premise conflict capped at {cap:.2f}",
        scope_words=words,
        scope_doc=why.other_doc,
        scope_cap=cap,
    )


def cap_verdict(v: Verdict, why: OutOfScope, s: VerdictSettings) -> Verdict:
    """The verdict with its evidence and premise-conflict scores capped and re-labelled; INJECTION
    stands (a planted attack is worth showing whatever the document).

    Why the conflict too: a premise about one contract is not contradicted by another's clause.
    "借款年利率是百分之十吗？" over a loan and a software licence kept the licence's "Late payments bear
    interest at one percent (1%) per month." as CONFLICTING beside the loan's 百分之八, and the answer read
    "不对：Late payments bear interest at one percent (1%) per month. [1]" (browser, session 30)."""
    return cap_with(v, scope_note(why, s.doc_scope_evidence_cap), s)


def cap_with(v: Verdict, note: CodedText, s: VerdictSettings) -> Verdict:
    """``cap_verdict`` with the reason ``note``."""
    cap = s.doc_scope_evidence_cap
    if v.label == "INJECTION" or max(v.scores.get(EVIDENCE, 0.0), v.scores.get(CONFLICT, 0.0)) <= cap:
        return v
    scores = {
        **v.scores,
        EVIDENCE: min(v.scores.get(EVIDENCE, 0.0), cap),
        CONFLICT: min(v.scores.get(CONFLICT, 0.0), cap),
    }
    label, keep = classify(scores, s)
    old = CodedText(v.explanation, v.explanation_code, v.explanation_params)
    # the explanation leads with what decided the label: the scope when it changed the label
    return relabelled(v, label, keep, join([note, old] if label != v.label else [old, note]), scores=scores)


def apply_doc_scope(
    question: str,
    verdicts: Sequence[Verdict],
    doc_of: Mapping[str, str],
    docs: Mapping[str, tuple[str, str]],
    s: VerdictSettings,
) -> tuple[Verdict, ...]:
    """The verdicts with those of out-of-scope documents capped (``doc_of``: passage id → document id)."""
    if not s.scope_to_documents:
        return tuple(verdicts)
    gone = out_of_scope(question, docs, s.doc_scope_max_share, s.doc_scope_min_missing)
    if not gone:
        return tuple(verdicts)
    return tuple(
        cap_verdict(v, gone[doc_of[v.passage_id]], s) if doc_of.get(v.passage_id) in gone else v
        for v in verdicts
    )


CITED_OUT = "follow_up_other_document"
"""The explanation code of a passage capped because a follow-up refers to another document's answer."""

SCOPE_CODES: tuple[str, ...] = (SCOPED_OUT, SCOPED_OUT_BY_ROLE, CITED_OUT)
"""Explanation codes that put a passage outside the question's documents."""


def out_of_scope_code(code: str) -> bool:
    """Whether a verdict's explanation code says its document is outside the question's documents
    (the question's own scope, or a follow-up held to the documents the previous answer cited)."""
    return any(c in code for c in SCOPE_CODES)


def cited_note(cited_doc: str, cap: float) -> CodedText:
    """The reason shown on a verdict capped because a follow-up refers to another document's answer."""
    return coded(
        CITED_OUT,
        f"the question refers back to the previous answer, which cited {cited_doc}, not this document: "
        f"evidence and premise conflict capped at {cap:.2f}",
        scope_doc=cited_doc,
        scope_cap=cap,
    )


def cap_to_cited(
    verdicts: Sequence[Verdict], doc_of: Mapping[str, str], cited: Mapping[str, str], s: VerdictSettings
) -> tuple[Verdict, ...]:
    """The verdicts with those of documents the previous answer did not cite capped (``cited``:
    document id → file name of the cited documents; empty: nothing changes).

    Why: "那是哪一天付？" after "租金是多少？" was answered with the lease's payment date *and* a share
    agreement's payment term (0.86): the question means the rent the previous answer quoted, and
    nothing in its words says so — only the previous answer's citations do."""
    if not cited or not s.scope_to_documents:
        return tuple(verdicts)
    name = "、".join(sorted(cited.values()))
    out: list[Verdict] = []
    for v in verdicts:
        doc = doc_of.get(v.passage_id)
        if doc is None or doc in cited:
            out.append(v)
            continue
        out.append(cap_with(v, cited_note(name, s.doc_scope_evidence_cap), s))
    return tuple(out)


# --- choosing the two settings on training contracts ---------------------------------------------


def scope_sweep(
    train_dir: Path, ts: JudgeTrainSettings, contracts: int = 80, seed: int = 1
) -> dict[str, Any]:
    """For each candidate (share, fewest missing words): how often a fit-part contract that holds the
    asked clause is scoped out beside a random other contract (the cost), and how often a contract
    that lacks it is (the gain). Questions: every phrasing of every category a sampled contract
    holds; never the check part."""
    from rag_core.bench.refusal_bench import BENCH_CATEGORIES
    from rag_core.judge.train_sets import is_check, load_contracts, question_for

    fit = [c for c in load_contracts(train_dir, ts) if not is_check(c.name, ts)]
    rng = random.Random(seed)
    grid = [(share, m) for share in SWEEP_SHARES for m in SWEEP_MIN_MISSING]
    cost = dict.fromkeys(grid, 0)
    gain = dict.fromkeys(grid, 0)
    asked = lacking = by_title = by_role = 0
    for c in rng.sample(fit, min(contracts, len(fit))):
        for k in BENCH_CATEGORIES:
            if not c.spans.get(k):
                continue
            for phrasing in range(PHRASINGS):
                q = question_for(k, c.name, phrasing)
                y = rng.choice([d for d in fit if d is not c])
                holder, other = covered_terms(q, c.text), covered_terms(q, y.text)
                asked += 1
                lacks = k in y.spans and not y.spans[k]
                lacking += lacks
                pair = {"c": (c.name, c.text), "y": (y.name, y.text)}
                by_title += "c" in out_by_title(q, pair)
                by_role += "c" in out_by_role(q, pair)
                for share, m in grid:
                    cost[share, m] += dominated(holder, other, share, m)
                    gain[share, m] += lacks and dominated(other, holder, share, m)
    rows = [
        {
            "max_share": share,
            "min_missing": m,
            "holder_scoped_out": round(cost[share, m] / max(asked, 1), 4),
            "lacking_scoped_out": round(gain[share, m] / max(lacking, 1), 4),
        }
        for share, m in grid
    ]
    allowed = [x for x in rows if x["holder_scoped_out"] <= SWEEP_MAX_COST] or rows
    chosen = max(allowed, key=lambda x: (x["lacking_scoped_out"], -x["holder_scoped_out"], -x["max_share"]))
    return {
        "questions": asked,
        "beside_a_contract_lacking_the_clause": lacking,
        "chosen": chosen,
        "grid": rows,
        "holder_scoped_out_by_title": round(by_title / max(asked, 1), 4),
        "holder_scoped_out_by_role": round(by_role / max(asked, 1), 4),
    }


def format_sweep(r: dict[str, Any]) -> str:
    """The sweep as a small table."""
    lines = [
        f"{r['questions']} questions on fit-part contracts, each beside a random other fit contract "
        f"({r['beside_a_contract_lacking_the_clause']} beside one lacking the clause)",
        "max_share  min_missing  holder scoped out (cost)  lacking scoped out (gain)",
    ]
    c = r["chosen"]
    tail = (
        f"chosen (most gain at a cost of at most {SWEEP_MAX_COST:.0%}): doc_scope_max_share {c['max_share']}, "
        f"doc_scope_min_missing {c['min_missing']}"
    )
    lines += [
        f"{x['max_share']:<9}  {x['min_missing']:<11}  {x['holder_scoped_out']:<24}  {x['lacking_scoped_out']}"
        for x in r["grid"]
    ]
    title = (
        f"title rule (a question word in the other contract's file name or title line that the holder never "
        f"uses): holder scoped out {r['holder_scoped_out_by_title']}"
    )
    role = (
        f"role rule (a party role of the question that the other contract's parties hold and the holder never "
        f"names): holder scoped out {r['holder_scoped_out_by_role']}"
    )
    return "\n".join([*lines, tail, title, role])
