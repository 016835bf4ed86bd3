"""The retrieval query of one chat turn: the question itself, or history questions joined to it.

Why (seed 003): follow-ups like "它有哪些例外？" / "what about termination?" name nothing; joining
the last few *user* questions restores what "it" is without pulling assistant prose (which would
match the previous answer's clauses instead of the new ask). Optionally an LLM condenses history +
question into one standalone question; when it fails the joined query is used and the trace
says why, so retrieval never stops because a rewrite did.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from rag_core.coded import coded
from rag_core.generation.prompt import Language, question_language, render_history
from rag_core.judge.clause_types import thesaurus_types, topics_named
from rag_core.llm.base import ChatModel, ChatOptions, Message
from rag_core.models import ChatTurn
from rag_core.settings import RetrievalSettings
from rag_core.textproc import ASKING, has_cjk

CONDENSE_MAX_TOKENS = 128
"""Token budget of the condensed question; a standalone question is one sentence."""

CONDENSE_MAX_CHARS = 400
"""A condensed question longer than this is taken as the model rambling and discarded."""

CONDENSE_HISTORY_ANSWER_CHARS = 200
"""Characters of each earlier assistant answer shown to the condenser (context for pronouns)."""

_DEFAULT_HISTORY_TURNS: int = RetrievalSettings.model_fields["history_turns"].default

_LEAD_IN = re.compile(
    r"^\s*(?:standalone question|rewritten question|question|独立问题|改写后的问题|改写问题|问题)\s*[:：]\s*",
    re.IGNORECASE,
)
_QUOTES = "\"'“”‘’「」『』"

_CONDENSE_SYSTEM: dict[Language, str] = {
    "zh": (
        "你负责改写检索问题。根据对话历史，把用户的最新问题改写成一个无需上下文即可理解的独立问题："
        "补全代词和省略所指的合同、条款、当事方；保留原有的法律术语、合同名称、条款编号、金额和日期；"
        "不要回答问题，不要添加新内容。只输出改写后的问题，用中文。"
    ),
    "en": (
        "You rewrite search questions. Using the conversation history, rewrite the user's latest "
        "question as one standalone question that can be understood without the conversation: "
        "resolve pronouns and ellipses to the contract, clause or party meant; keep legal terms, "
        "contract names, clause numbers, amounts and dates exactly; do not answer it and add "
        "nothing new. Output only the rewritten question, in English."
    ),
}
_CONDENSE_USER: dict[Language, tuple[str, str]] = {
    "zh": ("【历史对话】", "【最新问题】"),
    "en": ("Conversation history:", "Latest question:"),
}


_EN_POINTERS = r"\b(?:it|its|they|them|their|that one|this one)\b"
"""English words that point at what was asked before ("When is it due?")."""
_REFERS_BACK = re.compile(
    r"^\s*(?:那它|它们?|其(?!他|余|次|实|中)|and\b|then\b|so\b|what about\b|how about\b)"
    r"|呢\s*[？?]?\s*$|" + _EN_POINTERS,
    re.IGNORECASE,
)
_LEAD_MARKER = re.compile(r"^\s*(?:那么?|还有|此外|另外)\s*")
"""A Chinese discourse lead ("then", "also"): it refers back unless the rest names its own subject."""

NOT_A_SUBJECT: frozenset[str] = frozenset(
    "时候 时间 日期 期限 期间 多久 多长 多少 金额 数额 费用 价格 比例 数量 方式 地点 条件 标准 次数 天数 利率 "
    "甲方 乙方 丙方 双方 一方 对方 各方 当事人".split()
)
"""Nouns that name an attribute of what was asked ("那金额是多少？"), a question word jieba tags as a
noun ("时候"), or a party ("那乙方什么时候付？"): none of them makes a question about something new."""


def subject_of(text: str) -> str | None:
    """The first thing Chinese text names: a noun (or a verbal noun, "运费") of two characters or more
    that is no attribute, question word or party (``NOT_A_SUBJECT``)."""
    import jieba.posseg

    for word, flag in jieba.posseg.cut(text):
        if (flag.startswith("n") or flag == "vn") and len(word) >= 2 and word not in NOT_A_SUBJECT:
            return str(word)
    return None


def names_own_subject(text: str) -> bool:
    """Whether Chinese text names a thing of its own (``subject_of``)."""
    return subject_of(text) is not None


_EN_LEAD = re.compile(r"^\s*(?:and|then|so)\b[\s,]*", re.IGNORECASE)
"""An English discourse lead ("And …", "Then …"): like 那/还有, it refers back unless the rest names its own clause."""


def names_own_clause(text: str) -> bool:
    """Whether English text names a clause type or a topic of its own ("which courts have jurisdiction").

    Why (try-out, session 38): "And which courts have jurisdiction?" after "What is the governing law of the SaaS
    agreement?" was judged with the governing-law question joined, its clause type won, and the answer quoted
    "9.1 This Agreement is governed by the laws of Ireland." instead of "9.2 The courts of Dublin …"."""
    return bool(thesaurus_types(text) or topics_named(text))


def refers_back(question: str) -> bool:
    """Whether a follow-up points at what was asked before ("那什么时候付？", "金额呢？", "When is it due?").

    Why: such a question may keep a passage on its own (the rent clause's "每月5日前支付" for "那什么时候付？"
    after a share-transfer price question), and that passage answers a different thing than the lawyer
    means; only the previous question says what "那"/"it" is. A lead "那"/"还有" followed by a subject of
    its own is a new question: "那押金什么时候退？" after "月租金是多少？" was judged with the rent question
    joined in, and the local model answered "押金在合同签订后退" from the two clauses.
    """
    lead_en = _EN_LEAD.match(question)
    if lead_en and not _POINTS_BACK.search(question) and names_own_clause(question[lead_en.end() :]):
        return False
    if _REFERS_BACK.search(question):
        return True
    lead = _LEAD_MARKER.match(question)
    return lead is not None and not names_own_subject(question[lead.end() :])


def elliptical(question: str) -> bool:
    """A Chinese question that names no subject of its own and no clause type ("什么时候退还？",
    "可以提前解除吗？"): in a conversation its subject is the previous question's, or nothing.

    Why apart from ``refers_back``: nothing marks it as a follow-up, and judged on its own it can keep
    a passage about something else ("什么时候退还？" after "押金是多少？" kept the lease's term dates,
    typed by the question's "when" alone), so the previous question is tried with it
    (``steps.judging.judge_follow_up``)."""
    return has_cjk(question) and not thesaurus_types(question) and not names_own_subject(question)


_POINTS_BACK = re.compile(_EN_POINTERS, re.IGNORECASE)

_ONLY_A_SUBJECT = re.compile(r"^\s*(?:那么?|还有|那)?\s*(?P<subject>[^，。,？?]+?)\s*呢\s*[？?]?\s*$")
"""A Chinese follow-up that is a subject and 呢 ("那房租呢？", "违约金呢"): the previous question asked of it."""


_POINTERS_ZH = re.compile(r"[它其这那此该]")
"""Chinese words that point at something named before ("那个", "这项"): a subject that holds one names none."""


def names_an_act(subject: str) -> bool:
    """Whether the subject of a "X呢？" follow-up is an act named by verbs ("逾期付款", "提前解除"): a thing
    asked about too, though jieba tags no noun in it; not a question word, pointer, attribute or party.

    Why (session 34): "逾期付款呢？" after "运输合同的运费怎么算？" was judged joined to the first question and the
    freight clause was quoted again; asked as "运输合同的逾期付款怎么算？" the late-payment sentence is."""
    import jieba

    words = list(jieba.cut(subject))
    return (
        len(subject) >= 2
        and all("\u4e00" <= ch <= "\u9fff" for ch in subject)
        and not ASKING.search(subject)
        and not _POINTERS_ZH.search(subject)
        and not any(w in NOT_A_SUBJECT for w in words)
    )


def with_new_subject(previous: str, follow_up: str) -> str | None:
    """The previous question asked of the follow-up's subject ("押金多久能退？" then "那房租呢？":
    "房租多久能退？"); ``None`` unless the follow-up is only a subject of its own and 呢 and the previous
    question names a subject to put it in place of.

    Why: judged with the previous question joined ("押金多久能退？ 那房租呢？"), the question names
    both subjects and the clause of the old one wins: the deposit clause (which also says 结清房租)
    was kept alone and the local model answered "房租在租赁期满或合同解除后七日内无息退还"."""
    m = _ONLY_A_SUBJECT.match(follow_up)
    if not has_cjk(follow_up) or m is None:
        return None
    subject = m.group("subject").strip()
    if not names_own_subject(subject) and not names_an_act(subject):
        return None
    named = _CONTRACT_PHRASE.match(previous)
    head = named.group(0) if named else ""
    if any(subject.endswith(a) for a in NOT_A_SUBJECT):  # "保密期限": it says what it asks of its subject
        return head + subject
    rest = previous[len(head) :]
    old = subject_of(rest)
    if old:
        return head + rest.replace(old, subject, 1)
    return head + subject if head else None


FOLLOW_UP_CHAIN_MAX: int = 3
"""At most this many earlier questions are joined to a follow-up that refers back (``chained_turns``)."""


def chained_turns(history: Sequence[ChatTurn]) -> int:
    """How many earlier questions a follow-up that refers back is read with: the previous one, and each one
    before it that the next refers back to (up to ``FOLLOW_UP_CHAIN_MAX``).

    Why: "When is it due?" after "Is it refundable?" after "What is the initial franchise fee?" was judged with
    "Is it refundable?" alone; neither names the fee, and the franchise's termination-for-non-payment clause was
    quoted instead of "on signing this Agreement" (session 42 try-out)."""
    questions = [t.content for t in history if t.role == "user"]
    n = 1
    for q in reversed(questions):
        if n >= FOLLOW_UP_CHAIN_MAX or not (refers_back(q) or elliptical(q)):
            break
        n += 1
    return n


def follow_up_question(history: Sequence[ChatTurn], question: str) -> str:
    """What routing and the other question-reading search steps read for this turn: a follow-up that
    is only a new subject ("逾期付款呢？") as the previous question asked of it (``with_new_subject``), else
    the question.

    Why (session 34): routed on "逾期付款呢？" alone, the follow-up to "货物运输合同的运费怎么算？" searched every
    contract and the judge read "货物运输合同的逾期付款怎么算？" with the contract's name in it; its 货物/运输
    made the insurance clause's "货物运输险" outscore the late-payment sentence and the follow-up was
    refused. Routed on the rewrite, the contract is searched alone and its name stripped, as when asked
    outright."""
    previous = previous_question(history)
    return (with_new_subject(previous, question) if previous else None) or question


_ACROSS_CONTRACTS = re.compile(
    r"\b(?:other|another|all|any|each|every|which|both)\s+(?:of\s+the\s+)?(?:contracts?|agreements?|documents?)\b"
    r"|(?:其他|其它|别的|所有|全部|哪些|哪份|哪个|每份|各份?|两份)(?:的)?(?:合同|协议|文件)",
    re.IGNORECASE,
)
"""A question that asks across the contracts ("Which other agreements have an audit right?", "其他合同有没有
类似约定？"): a contract named earlier in the chat does not narrow it."""


def earlier_route_questions(history: Sequence[ChatTurn], question: str) -> tuple[str, ...]:
    """The chat's earlier questions, latest first, that routing may read when the question names no
    contract (none when it asks across contracts, and none from before a question that did): the latest that names
    one routes it.

    Why (try-out, session 38): "What if the customer never organises the acceptance test?" after "What are the
    payment milestones under the technical service contract?" searched the whole base, found the SaaS and
    software-licence acceptance clauses and none of the technical service contract's, and was answered with its
    payment clause; a lawyer's follow-up stays in the contract under discussion until another is named."""
    if _ACROSS_CONTRACTS.search(question):
        return ()
    earlier: list[str] = []
    for turn in reversed(history):
        if turn.role != "user":
            continue
        if _ACROSS_CONTRACTS.search(turn.content):
            break  # the chat went across the contracts since: nothing earlier is under discussion
        earlier.append(turn.content)
    return tuple(earlier)


def previous_question(history: Sequence[ChatTurn]) -> str:
    """The lawyer's last question before this turn ("" on the first turn)."""
    return next((t.content for t in reversed(history) if t.role == "user"), "")


_CONTRACT_PHRASE = re.compile(
    r"^\s*(?:《[^》]{1,40}》|[\u4e00-\u9fff]{0,12}?(?:合同|协议))(?:中|里)?(?:约定|规定)?的?"
)
"""The contract a Chinese question names before its subject ("技术开发合同的", "《房屋租赁合同》中约定的").

Why (try-out, session 32): its first noun is the contract's ("技术开发", "房屋"), so "那保密期限呢？" after
"技术开发合同的质保期多长？" was judged as "保密期限合同的质保期多长？" and the warranty clause was quoted; after
"房屋租赁合同的押金多久能退？", "那房租呢？" became "房租租赁合同的押金多久能退？". The contract stays, the subject
after it is replaced; a previous question with no subject noun after it ("质保期多长": jieba splits 质保/期)
gives the contract and the new subject, and so does a subject that ends in what it asks ("保密期限"
after "质保期内缺陷怎么处理？" had become "质保期内保密期限怎么处理？")."""


def about_previous_subject(question: str) -> bool:
    """Whether a follow-up's subject is the previous answer's: a Chinese question naming no subject of
    its own ("那是哪一天付？", "什么时候退还？"), or an English one pointing at it ("When is it due?").
    "那押金呢？" and "What about the deposit?" name their own, and may be about another document."""
    return not names_own_subject(question) if has_cjk(question) else bool(_POINTS_BACK.search(question))


@dataclass
class RetrievalQuery:
    """What retrieval searched for and how it came about (shown in the trace)."""

    text: str  # the query handed to retrieval
    joined: str  # seed 003's join of earlier user questions and this one
    condensed: str = ""  # the LLM's standalone rewrite, when one was made and accepted
    notes: list[str] = field(default_factory=list)


def build_retrieval_query(history: Sequence[ChatTurn], question: str, history_turns: int) -> str:
    """First turn: the question. Later: the user questions among the last ``history_turns * 2``
    messages, then the question, space-separated and trimmed (seed 003).

    ``history`` holds earlier turns only, not ``question`` itself.
    """
    if not history or history_turns <= 0:
        return question.strip()
    recent = list(history)[-history_turns * 2 :]
    parts = [" ".join(t.content.split()) for t in recent if t.role == "user"]
    parts.append(" ".join(question.split()))
    return " ".join(p for p in parts if p).strip()


def condense_messages(history: Sequence[ChatTurn], question: str, history_turns: int) -> list[Message]:
    """The condense request: a fixed system prompt per language, then history and the question."""
    language = question_language(question)
    history_head, question_head = _CONDENSE_USER[language]
    rendered = render_history(history, language, max(history_turns, 1), CONDENSE_HISTORY_ANSWER_CHARS)
    user = f"{history_head}\n{rendered}\n\n{question_head}\n{question.strip()}"
    return [Message(role="system", content=_CONDENSE_SYSTEM[language]), Message(role="user", content=user)]


def clean_condensed(raw: str) -> str:
    """The rewrite without lead-ins ("Standalone question:"), wrapping quotes or extra lines."""
    lines = [line.strip() for line in raw.strip().splitlines() if line.strip()]
    if not lines:
        return ""
    text = _LEAD_IN.sub("", lines[0]).strip()
    return text.strip(_QUOTES).strip()


def condense_question(
    model: ChatModel, history: Sequence[ChatTurn], question: str, history_turns: int = _DEFAULT_HISTORY_TURNS
) -> RetrievalQuery:
    """Ask ``model`` for a standalone question; on any failure fall back to the joined query.

    Why fall back rather than raise: condensing is an optional improvement; a lawyer's question
    must still be searched when the rewrite model is down or answers nonsense.
    """
    joined = build_retrieval_query(history, question, history_turns)
    if not history:
        return RetrievalQuery(
            text=joined,
            joined=joined,
            notes=[coded("query_first_turn_no_condense", "first turn: nothing to condense")],
        )
    options = ChatOptions(temperature=0.0, max_tokens=CONDENSE_MAX_TOKENS)
    try:
        result = model.chat(condense_messages(history, question, history_turns), options)
    except Exception as exc:  # any client failure: the joined query still works
        note = coded(
            "query_condense_failed",
            f"condense failed ({type(exc).__name__}: {exc}); used the joined query",
            error=type(exc).__name__,
        )
        return RetrievalQuery(text=joined, joined=joined, notes=[note])
    condensed = clean_condensed(result.content)
    if not condensed:
        return RetrievalQuery(
            text=joined,
            joined=joined,
            notes=[coded("query_condense_empty", "condense returned nothing; used the joined query")],
        )
    if len(condensed) > CONDENSE_MAX_CHARS:
        note = coded(
            "query_condense_too_long",
            f"condensed question longer than {CONDENSE_MAX_CHARS} characters; used the joined query",
            limit=CONDENSE_MAX_CHARS,
        )
        return RetrievalQuery(text=joined, joined=joined, notes=[note])
    return RetrievalQuery(
        text=condensed,
        joined=joined,
        condensed=condensed,
        notes=[coded("query_condensed_by", f"condensed by {model.name}", model=model.name)],
    )


def make_retrieval_query(
    history: Sequence[ChatTurn], question: str, settings: RetrievalSettings, model: ChatModel | None = None
) -> RetrievalQuery:
    """The turn's query: condensed when ``settings.condense_with_llm`` and a model is present,
    else the joined query."""
    if settings.condense_with_llm and model is not None and history:
        return condense_question(model, history, question, settings.history_turns)
    joined = build_retrieval_query(history, question, settings.history_turns)
    note = (
        coded("query_first_turn", "first turn: the question as asked")
        if not history
        else coded("query_joined", "joined earlier user questions")
    )
    return RetrievalQuery(text=joined, joined=joined, notes=[note])
