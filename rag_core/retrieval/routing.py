"""Document routing: a question that names a contract searches that contract first.

Why: lawyers ask "In the Supply Agreement between A and B, …" or "在《房屋租赁合同》中…". Matching
the named contract by title, parties and file name is right far more often than hoping the
clause outranks similar clauses of every other contract in the knowledge base.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any

from rag_core import textproc
from rag_core.judge.clause_types import role_words
from rag_core.judge.glossary import direct_translations
from rag_core.settings import RetrievalSettings
from storage.rows import DocumentMeta

_BOOK_TITLE = re.compile(r"《([^》]{2,60})》")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_NAME_SPLIT = re.compile(r"[^0-9A-Za-z\u4e00-\u9fff]+")
_GENERIC = frozenset(
    "agreement contract inc llc ltd corp corporation company co limited plc lp the and of to between this "
    "amendment exhibit ex txt pdf docx md 合同 协议 公司 有限 有限公司 有限责任 有限责任公司 企业 集团 事务所".split()
)
"""Words that name every contract, the legal forms of its parties among them; they neither help nor hurt
routing. "合伙人对合伙企业的债务承担什么责任？" read "合伙人对合伙企业" as a company's name, and its 企业 was then
stripped as a name word of the partnership agreement (session 34)."""
_CURRENCIES = frozenset(
    "usd eur gbp rmb cny jpy hkd chf cad aud sgd nzd krw inr twd dollar dollars euro euros yuan".split()
)
"""Currency codes and names: capitalised in a question ("The annual fee is USD 90,000, right?") and in
the one contract that states amounts in that currency, they routed the question there and were then
stripped from it as the contract's name, leaving a bare 90,000 the premise check compared with clause
numbers. A currency names an amount, never a contract."""


@dataclass
class RouteDecision:
    doc_id: str
    file_name: str
    score: float
    runner_up: float
    matched: list[str]
    also: list[tuple[str, str]] = field(default_factory=list)
    """(id, file name) of the other contracts of the kind the question names (``same_kind``)."""
    rival: float | None = None
    """The best score of another document the question names by a word the routed one lacks (None: the
    runner-up's); what ``exclusive_route`` weighs, since a runner-up that only shares part of the routed
    contract's name is no second contract named."""

    @property
    def doc_ids(self) -> list[str]:
        """Every routed contract: the best one first."""
        return [self.doc_id, *(doc_id for doc_id, _ in self.also)]

    @property
    def file_names(self) -> str:
        """The routed contracts' file names, for notes."""
        return ", ".join([self.file_name, *(name for _, name in self.also)])

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {k: v for k, v in self.__dict__.items() if k != "also"}
        if self.also:
            out["also"] = [{"doc_id": doc_id, "file_name": name} for doc_id, name in self.also]
        return out


_MIN_NAME_CHARS = 3
"""Letters a Latin word needs to name a document ("Inc" does, "S" of a split "SaaS" does not)."""


def name_tokens(text: str) -> set[str]:
    """Distinctive lower-case words of a title, file name or party list: camel-case words split
    ("FuseMedical": fuse, medical), and whole too when the split loses a piece too short to be a word.

    Why whole (session 38 try-out): "SaaS" split gives only "saa", which the question's "SaaS" never holds as a
    word, so the contract's name stayed in "The SaaS subscription fee is EUR 90,000 a year, right?" and was read as
    an asserted name the fee clause does not support: the premise went uncorrected. Not when every piece is a word:
    "BioAmber" whole as well as "bio" and "amber" weighed the name three times, and a CUAD question on BioAmber's
    First Amendment was routed past it (`bench answers`, cuad-train)."""
    spaced = _CAMEL.sub(" ", text)
    whole = [
        p
        for p in _NAME_SPLIT.split(text)
        if _CAMEL.search(p) and any(len(piece) < _MIN_NAME_CHARS for piece in _CAMEL.split(p))
    ]
    words: set[str] = set()
    for part in [*_NAME_SPLIT.split(spaced), *whole]:
        if not part:
            continue
        if textproc.has_cjk(part):
            words.update(w for w in textproc.tokens(part) if len(w) >= 2)
        elif len(part) >= _MIN_NAME_CHARS and not part.isdigit():
            words.add(part.lower())
    return {w for w in words if w not in _GENERIC and w not in _CURRENCIES}


HEAD_CHARS = 3000
"""How much of a document's opening text names it: title block, parties, recitals."""

_SENTENCE_BREAK = re.compile(r"[.;:?!。；：？！]\s*")
_CAPITALISED = re.compile(r"\b([A-Z][A-Za-z0-9&'’.-]*[A-Za-z0-9])")
_ZH_NAME = re.compile(
    r"[\u4e00-\u9fff]{2,30}(?:有限责任公司|股份有限公司|有限公司|公司|集团|合伙企业|事务所)"
)


def doc_name_tokens(meta: DocumentMeta, titles: set[str]) -> set[str]:
    """Everything a question may call a document by: its ``title_tokens`` (given, as ``route``
    needs them apart too), parties, opening block."""
    return name_tokens(f"{meta.terms} {meta.head}") | titles


def question_names(question: str) -> set[str]:
    """The words with which a question names a contract: 《titles》, company names, and the
    capitalised words of English text (proper nouns; a sentence's first word does not count)."""
    titled = _BOOK_TITLE.findall(question)
    if titled:
        return name_tokens(" ".join(titled))
    # a run holding a question word asks for a name ("用人单位是哪家公司？"), it names none
    names: list[str] = [n for n in _ZH_NAME.findall(question) if not textproc.ASKING.search(n)]
    for sentence in _SENTENCE_BREAK.split(question):
        caps = _CAPITALISED.findall(sentence.strip())
        # a Chinese sentence's first Latin word is capitalised as written, not as a sentence start: "SaaS 协议的年费是多少？"
        # names the SaaS agreement (session 38 try-out: it routed nowhere and was refused)
        opening = caps and sentence.strip().startswith(caps[0]) and not textproc.has_cjk(sentence)
        names += caps[1:] if opening else caps
    return name_tokens(" ".join(names))


_ZH_KIND = re.compile(r"[\u4e00-\u9fff]{2,10}?(?:合同|协议)")
_EN_KIND = re.compile(r"\b(?:[a-z][a-z-]*\s+){1,3}(?:agreement|contract)s?\b", re.I)
_EN_UNDER = re.compile(r"\bunder\s+(?:the|this|that|our|my)\s+((?:[a-z][a-z-]*\s+){0,2}[a-z][a-z-]*)", re.I)
""""under the license", "under this lease": what follows names the contract the question is about."""


def file_stem(meta: DocumentMeta) -> str:
    """A document's file name without its extension."""
    return re.sub(r"\.[A-Za-z0-9]{1,5}$", "", meta.file_name)


def title_tokens(meta: DocumentMeta) -> set[str]:
    """The words of a document's title and file name alone (not its opening block)."""
    return name_tokens(f"{meta.title} {file_stem(meta)}")


def kind_names(question: str, titled: AbstractSet[str]) -> set[str]:
    """The words of a question that call a contract by its kind ("采购合同的货款", "这份租赁合同", "the
    license agreement"), kept only where some document's title or file name has them (``titled``:
    all their words).

    Why: Chinese lawyers name a contract by its kind far more often than by 《title》 or party, and
    such a phrase has no capital letters to find; so do English ones in lower case ("When does the
    license agreement expire?" quoted the lease's and the employment contract's term dates).
    Matching it against titles alone keeps the words around it ("这份", "上述", "does the") from
    routing to a contract whose opening text happens to contain them. So is what follows "under the"
    ("Which court has jurisdiction over disputes under the license?" had quoted a share agreement's
    arbitration clause). A kind word also names a contract whose title says it in the other language
    (glossary: "许可协议的保密义务持续多久？" of the SOFTWARE LICENSE AGREEMENT had quoted the share agreement's
    保密 clause first).
    """
    phrases = _ZH_KIND.findall(question) + _EN_KIND.findall(question) + _EN_UNDER.findall(question)
    if not phrases:
        return set()
    words = name_tokens(" ".join(phrases))
    # a hyphenated rendering is no title word, and its pieces are none either ("non-solicit" of 雇佣 gave "non",
    # which the mutual NDA's "non-disclosure" has: "雇佣协议的年假有几天？" routed nowhere, session 36)
    crossed = {
        t for w in words for t in name_tokens(" ".join(x for x in direct_translations(w) if "-" not in x))
    }
    asked = {singular(w) for w in words | crossed}
    return {t for t in titled if singular(t) in asked}


def singular(word: str) -> str:
    """An English title word without a plural "s" ("shareholders" → "shareholder"); other words as they are.

    Why: a kind word crossed from Chinese is the glossary's singular, the title's may be plural: "股东协议的锁定期是多久？"
    (股东 → shareholder) did not route to "SHAREHOLDERS' AGREEMENT" and was refused (session 35)."""
    if word.isascii() and len(word) > 4 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _translates(a: str, b: str) -> bool:
    """One name word is the other's glossary translation ("采购" and "purchase")."""
    return b in name_tokens(" ".join(direct_translations(a))) or a in name_tokens(
        " ".join(direct_translations(b))
    )


def _one_per_meaning(words: set[str], asked: str, idf: Callable[[str], float]) -> set[str]:
    """``words`` with each word and its translations counted once: the question's own word first, then the
    rarer one.

    Why: a kind word and its translation both matched one document ("采购" in its title, "purchase" in its
    file name), so "租赁合同和采购合同的付款期限有何不同？", which names two contracts, was routed to the purchase
    contract alone (0.667 against 0.333)."""
    kept: list[str] = []
    for w in sorted(words, key=lambda w: (w not in asked, -idf(w), w)):
        if not any(_translates(w, k) for k in kept):
            kept.append(w)
    return set(kept)


def _without_parts(words: set[str]) -> set[str]:
    """``words`` without the Chinese words that are part of a longer one among them (技术 and 开发 beside
    技术开发): the tokenizer gives a name's compound and its parts, and counted three times the name
    outweighed a second contract the question names.

    Why (try-out, session 32): "技术开发合同和经销协议的争议解决方式有什么不同？" routed to the development contract
    alone (0.75 against 0.25 for the distribution agreement, named through 经销 ↔ distribution), and
    the answer invented the distribution agreement's dispute clause."""
    cjk = [w for w in words if textproc.has_cjk(w)]
    return {w for w in words if not any(w != o and w in o for o in cjk)}


def is_contract_title(meta: DocumentMeta) -> bool:
    """Whether a document's title or file name says it is a contract.

    Why (session 34): a question names a contract by its kind ("家庭承包的土地承包经营合同还有效吗？"); once kind
    words counted in titles alone, that question was routed to the one statute article titled
    "农村土地承包经营纠纷调解仲裁法第二条" and searched there only. A law, a judgment or a memo is not the
    contract a kind names."""
    return textproc.names_a_contract(f"{meta.title} {_CAMEL.sub(' ', file_stem(meta)).replace('_', ' ')}")


def same_kind(
    meanings: set[str], titles: Sequence[AbstractSet[str]], named: set[str], most: int
) -> list[int] | None:
    """The indexes of the documents whose titles say every one of ``meanings`` (itself or translated),
    when the question names a contract only by its kind (``named`` empty) and two to ``most`` titles
    share it; else None.

    Why (session 34): "借款协议适用哪里的法律？" over a Chinese 借款合同 and an English TERM LOAN AGREEMENT named
    both (借款 ↔ loan), the tie routed nowhere, and the English governing-law clause was never retrieved among
    seventeen other contracts' clauses: the lawyer named a kind of contract, and every contract of that kind
    is what to search."""
    if named or not meanings or most < 2:
        return None
    full = [
        i
        for i, title in enumerate(titles)
        if all(any(w == m or _translates(w, m) for w in title) for m in meanings)
    ]
    return full if 2 <= len(full) <= most else None


@dataclass(frozen=True)
class RouteIndex:
    """What ``route`` reads of a knowledge base's documents, whatever the question: their title words, name
    words, titled-contract words and name-word document frequencies.

    Why (session 38 review): a follow-up that names no contract is routed by each earlier question of the chat
    in turn, and every call rebuilt these from the documents: about 30 ms per earlier question on a
    1,000-document base. The retriever builds the index once per loaded ``doc_meta``."""

    docs: tuple[DocumentMeta, ...]
    names: tuple[frozenset[str], ...]
    kinds: tuple[frozenset[str], ...]
    """A contract's title words (``is_contract_title``), else empty: only they answer a kind word."""
    df: Counter[str]
    titled: frozenset[str]
    """Every document's title words together (``kind_names`` keeps the kind words found there)."""

    @classmethod
    def of(cls, docs: Sequence[DocumentMeta]) -> RouteIndex:
        """The index of ``docs``, in their order (``route`` reports documents by their place in it)."""
        titles = [title_tokens(d) for d in docs]
        names = [frozenset(doc_name_tokens(d, t)) for d, t in zip(docs, titles, strict=True)]
        return cls(
            tuple(docs),
            tuple(names),
            tuple(
                frozenset(t) if is_contract_title(d) else frozenset()
                for d, t in zip(docs, titles, strict=True)
            ),
            Counter(w for ws in names for w in ws),
            frozenset().union(*titles),
        )


def route(
    question: str, docs: Sequence[DocumentMeta] | RouteIndex, min_overlap: float, same_kind_max: int = 1
) -> RouteDecision | None:
    """The document the question names, or None; several when it names them by a kind their titles
    share (``same_kind``, at most ``same_kind_max``). ``docs`` may be given as their ``RouteIndex``.

    Each document's name words are weighted by IDF over the knowledge base, so words shared by
    many contracts count little; the best document must cover ``min_overlap`` of the question's
    name-word weight and beat the runner-up. A word that calls the contract by its kind
    (``kind_names``) counts only in the title or file name of a contract (``is_contract_title``):
    "合伙协议的争议怎么解决？" was not routed, because the share transfer agreement's buyer is a 合伙企业
    named in its opening block.
    """
    index = docs if isinstance(docs, RouteIndex) else RouteIndex.of(docs)
    if len(index.docs) < 2:
        return None
    named = question_names(question)
    q_words = _without_parts(named | kind_names(question, index.titled))
    if not q_words:
        return None
    df, n = index.df, len(index.docs)

    def idf(w: str) -> float:
        return math.log(1.0 + n / (1.0 + df[w]))

    asked = question.lower()

    def one_per_meaning(words: set[str]) -> set[str]:
        return _one_per_meaning(words, asked, idf)

    meanings = one_per_meaning({w for w in q_words if df[w]})
    q_weight = sum(idf(w) for w in meanings) or 1.0
    kinds = index.kinds
    scored = []
    for i, (ws, kind_title) in enumerate(zip(index.names, kinds, strict=True)):
        hit = one_per_meaning({w for w in q_words if w in (ws if w in named else kind_title)})
        scored.append((sum(idf(w) for w in hit) / q_weight, i, sorted(hit)))
    kind = same_kind(meanings, kinds, named, same_kind_max)
    if kind is not None:
        # the contract whose title says the asked word itself (not its translation) first
        first, *rest = sorted(kind, key=lambda i: (not (kinds[i] & meanings), i))
        runner_up = max((score for score, i, _ in scored if i not in kind), default=0.0)
        return RouteDecision(
            index.docs[first].id,
            index.docs[first].file_name,
            1.0,
            round(runner_up, 3),
            sorted({w for i in kind for w in q_words if w in kinds[i]}),
            [(index.docs[i].id, index.docs[i].file_name) for i in rest],
        )
    scored.sort(key=lambda x: -x[0])
    best, at, matched = scored[0]
    meta = index.docs[at]
    runner = scored[1][0]
    if best < min_overlap or best <= runner:
        return by_whole_title(question, index.docs)
    rival = max((score for score, _, hit in scored[1:] if not _named_less(hit, matched)), default=0.0)
    return RouteDecision(
        meta.id, meta.file_name, round(best, 3), round(runner, 3), matched, rival=round(rival, 3)
    )


def _said_within(words: list[str], name: list[str]) -> bool:
    """Every one of ``words`` is one of ``name``'s words or translates one."""
    return all(any(w == n or _translates(w, n) for n in name) for w in words)


def _named_less(words: list[str], name: list[str]) -> bool:
    """Another document's matched ``words`` are part of the routed contract's matched ``name`` and say less:
    the question names one contract, and the other shares part of its name.

    Why (session 39 try-out): "商业租赁合同的押金是多少？" routed to the COMMERCIAL LEASE AGREEMENT (0.92), but the
    Chinese 房屋租赁合同 covered 租赁 as well (0.57, above ``routing_min_overlap``), so both were searched and the
    other lease's deposit was quoted first. A comparison names a word of the second contract's own, and a kind
    both titles say as much of ("租赁合同的押金是多少？") is no one contract's name."""
    return _said_within(words, name) and not _said_within(name, words)


TITLE_MIN_CHARS: int = 4
"""Characters a contract's title must have before the question writing it whole names that contract: a
shorter one ("合同", "协议") is a kind every contract shares."""


def whole_title(meta: DocumentMeta) -> str:
    """A contract's title as a question may write it: its title line, else its file name without the
    extension, lower-cased; empty when it is shorter than ``TITLE_MIN_CHARS`` or names no contract."""
    title = (meta.title or file_stem(meta)).strip().lower()
    if len(title) < TITLE_MIN_CHARS or not is_contract_title(meta):
        return ""
    return title


def by_whole_title(question: str, docs: Sequence[DocumentMeta]) -> RouteDecision | None:
    """The one contract whose whole title the question writes, when the word scores tie.

    Why (session 36 try-out): "软件开发合同的款项怎么支付？" names 软件开发合同.txt by its title, yet its word 软件
    also names the SOFTWARE LICENSE AGREEMENT through the glossary and 开发 the 技术开发合同: the scores tied,
    nothing was routed, and the contract's payment clause was not among the twenty candidates. Only a
    fallback: a question that writes two titles, a title several contracts share, or a title beside another
    kind of contract ("租赁合同和采购合同…") still routes nowhere."""
    asked = question.lower()
    said = [(d, t) for d in docs if (t := whole_title(d)) and t in asked]
    if len(said) != 1:
        return None
    meta, title = said[0]
    rest = asked.replace(title, " ")
    if _ZH_KIND.search(rest) or _EN_KIND.search(rest):  # it names another contract too
        return None
    return RouteDecision(meta.id, meta.file_name, 1.0, 0.0, sorted(title_tokens(meta)))


def exclusive_route(decision: RouteDecision, settings: RetrievalSettings) -> bool:
    """Whether only the routed contract is searched.

    Why: a lawyer asking "when does the Services Agreement between A and B expire?" wants that
    contract's term clause; the term clauses of the other contracts in the base are about the same
    topic, so the judge kept them as evidence and the answer quoted three contracts' terms. A
    question that names a second contract as well (a comparison) keeps the whole base.
    """
    rival = decision.runner_up if decision.rival is None else decision.rival
    return settings.routing_exclusive and rival < settings.routing_min_overlap


MIN_REMAINING_WORDS = 1
"""A query stripped of the contract's name keeps at least this many words that are not generic
("agreement", "合同"), else it stays whole: "押金是多少？" is a question, "the Agreement" is not."""


_KIND_WORDS = frozenset({"合同", "协议"})
"""Chinese words that name a contract's kind; a word made of a contract's name words and these is its name."""


def _composed_of(word: str, pieces: set[str]) -> bool:
    """Whether ``word`` splits wholly into ``pieces`` with at least one piece not a kind word
    ("技术服务合同" from 技术 + 服务 + 合同; not "服务费": 费 is no piece)."""
    # best[i]: None if word[:i] cannot be split into pieces, else whether a name piece was used
    best: list[bool | None] = [None] * (len(word) + 1)
    best[0] = False
    for i in range(len(word)):
        if best[i] is None:
            continue
        for piece in pieces:
            if word.startswith(piece, i):
                named = bool(best[i]) or piece not in _KIND_WORDS
                if best[i + len(piece)] is not True:
                    best[i + len(piece)] = named
    return best[len(word)] is True


_NAME_NUMBER = r"(?:\s+\d{1,3}(?=\s*,?\s*(?:llc|l\.l\.c|inc|ltd|lp|l\.p|limited|corp|co)\b))?"
"""A number inside a company's name, before its legal form ("Solar Tax Partners 1, LLC"): part of the name.

Why (session 36, `bench answers` cuad-train): with the name words stripped, "… between Solar Power, Inc. and Solar
Tax Partners 1, LLC renewed after its initial term?" was judged as "… and 1, LLC renewed …", and the premise check
set that 1 against a telephone number on the signature page: the answer opened "No — the documents contradict the
premise" above "Telephone: (916) 745-0900". A name's number goes with its words."""


def name_spans(query: str, matched: list[str]) -> list[tuple[int, int]]:
    """Where the query says the routed contract's name words, at word boundaries only.

    Why: removing every substring cut "服务" out of "服务费" ("技术服务合同的服务费是多少？" became
    "合同的 费是多少？"), and an English name word out of a longer word. A Chinese name word counts
    where it starts and ends on the tokenizer's word boundaries, or where a whole word is made of
    name words (a contract name the tokenizer keeps as one word).
    """
    spans: list[tuple[int, int]] = []
    latin = [w for w in matched if not textproc.has_cjk(w)]
    if latin:
        alternatives = "|".join(re.escape(w) for w in sorted(latin, key=len, reverse=True))
        pattern = re.compile(
            rf"(?<![0-9A-Za-z])(?:{alternatives}){_NAME_NUMBER}(?![0-9A-Za-z])", re.IGNORECASE
        )
        spans += [m.span() for m in pattern.finditer(query)]
    cjk = {w for w in matched if textproc.has_cjk(w)} | _translating(query, latin)
    if cjk:
        words = textproc.word_spans(query)
        starts, ends = {s for s, _ in words}, {e for _, e in words}
        spans += [(s, e) for s, e in words if _composed_of(query[s:e], cjk | _KIND_WORDS)]
        for w in cjk:
            spans += [
                m.span() for m in re.finditer(re.escape(w), query) if m.start() in starts and m.end() in ends
            ]
        spans = _without_repeats(query, sorted(set(spans)))
        spans += _kind_tails(query, words, {e for _, e in spans})
    return sorted(set(spans))


def _runs(spans: list[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """Sorted spans grouped where each starts where the one before it ends (one name said in one go)."""
    runs: list[list[tuple[int, int]]] = []
    for span in spans:
        if runs and runs[-1][-1][1] == span[0]:
            runs[-1].append(span)
        else:
            runs.append([span])
    return runs


def _without_repeats(query: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The spans without a name word standing alone that the question already said inside the contract's
    whole name (a run of several name words, or one ending in or followed by 合同/协议): a question names its
    contract once, and the word said again is the question's own.

    Why (session 39 try-out): "物业服务合同的服务期限是多久？" was judged as "期限是多久？" (the tokenizer cuts
    服务期限 into 服务/期限, and 服务 is a name word), the term clause came out at evidence 0.54, and the question
    was refused; "租赁合同的租赁期限是多久？" lost its 租赁 the same way."""
    kinds = tuple(_KIND_WORDS)
    runs = _runs(spans)
    texts = [query[run[0][0] : run[-1][1]] for run in runs]
    said = [
        len(run) > 1 or query[: run[-1][1]].endswith(kinds) or query.startswith(kinds, run[-1][1])
        for run in runs
    ]
    names = [text for text, whole in zip(texts, said, strict=True) if whole]
    return [
        span
        for run, text, whole in zip(runs, texts, said, strict=True)
        for span in run
        if whole or not any(text in name for name in names)
    ]


def _translating(query: str, latin: list[str]) -> set[str]:
    """The Chinese words of the query whose glossary translation is one of the matched English name words.

    Why: "资产收购协议的托管期限是多久？" was routed to the ASSET PURCHASE AGREEMENT through the translations of
    资产 and 收购, but nothing was stripped (the matched words are English), so the judge read the title
    words too and labelled the preamble EVIDENCE (covers 3 of 5 words) above every clause (session 33)."""
    if not latin or not textproc.has_cjk(query):
        return set()
    found = (query[s:e] for s, e in textproc.word_spans(query))
    return {w for w in found if textproc.has_cjk(w) and any(_translates(w, name) for name in latin)}


def _kind_tails(query: str, words: list[tuple[int, int]], name_ends: set[int]) -> list[tuple[int, int]]:
    """The kind word right after a stripped name, with its "的" ("房屋租赁合同的押金" → "押金"):
    alone it would leave "合同的押金是多少？" for the judge to read."""
    tails: list[tuple[int, int]] = []
    for i, (s, e) in enumerate(words):
        if s in name_ends and query[s:e] in _KIND_WORDS:
            after = words[i + 1] if i + 1 < len(words) else None
            tails.append((s, after[1] if after and query[after[0] : after[1]] == "的" else e))
    return tails


_LEFT_QUALIFIER = re.compile(
    r"\s*\b(?:under|in|of|for|from|by)\s+(?:the|this|that|our|my)(?:\s+(?:agreement|contract)s?)?\b(?=\s*[?？.,，]|\s*$)",
    re.IGNORECASE,
)
"""What is left of "under the distribution agreement" once the name is out: "under the agreement".

Why (browser try-out, session 32): "What is the territory under the distribution agreement?" was judged as
"What is the territory under the agreement?", and the limitation clause's "under this Agreement" outscored
the Territory definition (evidence 0.85 against 0.67): the local model answered "The territory … is
Singapore", the governing law's country. Inside the routed contract the phrase says nothing; only at
the end of a clause of the question, so "Can the Supplier terminate the Agreement for convenience?"
keeps its words (there the agreement is what is terminated). A name that was the whole phrase leaves its
preposition behind: "What is the monthly base rent under the commercial lease?" was judged as "… under the ?"."""


_SPACE_BEFORE_MARK = re.compile(r"\s+([?？.,，])")
"""The space a removed name leaves before the question's closing mark."""


def strip_names(query: str, matched: list[str]) -> str:
    """The query without the words that named the routed contract.

    Why: inside the routed contract its own name matches only the title block, so those words would
    pull the cover page above the clause the lawyer asked about. A Chinese party role is no name of
    the contract, though its opening block writes it beside the names: "转让方是杭州恒信科技有限公司，对吗？"
    was judged as "是 ，对吗？"; nor is an English one outside a title.
    """
    # 转让方 names a party's role, not the contract; an English role only inside a title the question writes
    # ("under the Distributor Agreement"): "Can the Tenant sublet part of the premises?" was judged as "Can the sublet
    # part of the premises?" and the alienation clause came out irrelevant (session 39)
    titled = name_tokens(" ".join(_EN_KIND.findall(query)))
    matched = [w for w in matched if not role_words(w) or (not textproc.has_cjk(w) and w in titled)]
    if not matched:
        return query
    keep = [True] * len(query)
    for start, end in name_spans(query, matched):
        keep[start:end] = [False] * (end - start)
    cut = "".join(ch if k else " " for ch, k in zip(query, keep, strict=True))
    stripped = _LEFT_QUALIFIER.sub("", " ".join(cut.split())).lstrip(" ,，")
    # Chinese writes no spaces: the premise check reads one as a clause break ("合伙人对合伙 的债务承担什么责任？" gave
    # the declarative clause "合伙人对合伙", which "无限连带责任" then seemed to negate)
    stripped = _SPACE_BEFORE_MARK.sub(r"\1", textproc.one_line(stripped))
    remaining = [t for t in textproc.query_tokens(stripped) if t not in _GENERIC] if stripped else []
    return stripped if len(remaining) >= MIN_REMAINING_WORDS else query


_SEGMENT_BREAK = re.compile(r"[;；:：\n]+|(?<=[》」])[，,]\s*|(?<=中)[，,]\s*")
NAMING_SEGMENT_SHARE = 0.34
"""A question segment at least this share of whose name words matched the routed contract names it."""


def in_document_query(question: str, matched: list[str]) -> str:
    """What to search for inside the routed contract: the question without the part that names it.

    "Consider the Supply Agreement between A and B; what is the term?" becomes "what is the term?";
    "在《房屋租赁合同》中，租金是多少？" becomes "租金是多少？". A question of one segment loses only the
    naming words (``strip_names``).
    """
    segments = [seg.strip() for seg in _SEGMENT_BREAK.split(question) if seg.strip()]
    if len(segments) > 1 and matched:
        found = set(matched)
        kept = []
        for seg in segments:
            names = question_names(seg) | name_tokens(seg)
            share = len(names & found) / len(names) if names else 0.0
            if share < NAMING_SEGMENT_SHARE and not _BOOK_TITLE.search(seg):
                kept.append(seg)
        if kept and len(kept) < len(segments):
            return " ".join(kept)
    return strip_names(question, matched)
