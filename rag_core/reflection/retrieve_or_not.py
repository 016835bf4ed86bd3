"""Retrieve or not (seed 001's first reflection): greetings and small talk skip retrieval.

Why rules only: "你好" or "thanks" should get an instant, polite reply, not a search that ends
in "no evidence found"; every other input is searched. Order matters: legal/document cues win over
small talk, so "Hi, what is the penalty?" is searched. No model is asked: a short factual question
("某某患有什么疾病？") looks like chat to a small model, and a wasted search costs less than an answer
from the model's own knowledge, which Lexgate never gives.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from rag_core.coded import coded
from rag_core.generation.prompt import Language
from rag_core.llm.base import ChatModel


def _words(text: str) -> list[str]:
    """A word list written as text (easier to read and extend than a list literal)."""
    return text.split()


AMBIGUOUS_MAX_CHARS = 12
"""Chinese inputs up to this many ideographs that match no rule are ambiguous (asked of the LLM)."""

AMBIGUOUS_MAX_WORDS = 6
"""English inputs up to this many words that match no rule are ambiguous (asked of the LLM)."""

SmallTalk = Literal["greeting", "thanks", "farewell", "identity"]

_LEGAL_ZH = _words(
    "合同 协议 条款 约定 规定 甲方 乙方 丙方 当事人 违约 赔偿 责任 义务 权利 终止 解除 期限 期满 续签 续约 付款 支付 价款 费用 租金 定金 订金 保证金 违约金 利息 发票 "
    "交付 交货 验收 质量 保修 保密 知识产权 担保 保证 抵押 争议 仲裁 诉讼 管辖 法院 适用法律 不可抗力 通知 送达 生效 签署 签订 盖章 附件 补充 转让 分包 竞业 排他 授权 "
    "许可 赔付 罚款 滞纳金 损失 索赔 免责 陈述 声明 保险 税 文件 文档 资料 第.{1,4}条 第.{1,4}款 第.{1,4}页"
)
_LEGAL_EN_STEMS = _words(
    "terminat renew expir liabilit indemn warrant oblig licens confidential arbitrat exclusiv "
    "subcontract amend assign deliver"
)
"""Matched as word starts: every inflection of these is legal vocabulary (terminate, termination)."""
_LEGAL_EN_WORDS = _words(
    "contract agreement clause section article schedule annex appendix exhibit party parties lease "
    "tenant landlord lessor lessee buyer seller supplier customer vendor licensor licensee breach "
    "covenant payment pay paid fee price invoice deposit penalty penalties damages acceptance "
    "intellectual property non-compete governing law jurisdiction court dispute force majeure notice "
    "signed signature insurance tax document file page term"
)
"""Matched as whole words (plural allowed): as prefixes they would catch 'feel', 'lawn', 'taxi'."""
_LEGAL = re.compile(
    "|".join(
        [*_LEGAL_ZH, *(rf"\b{w}" for w in _LEGAL_EN_STEMS), *(rf"\b{w}(?:s|es)?\b" for w in _LEGAL_EN_WORDS)]
    ),
    re.IGNORECASE,
)

_SMALL_TALK_WORDS: dict[SmallTalk, str] = {
    "greeting": (
        r"(?:hi|hello|hey|hiya|good (?:morning|afternoon|evening|day)|greetings|how are you|how's it going|"
        r"how do you do|你好吗|您好吗|最近好吗|最近怎么样|你好|您好|嗨|哈喽|"
        r"早上好|上午好|中午好|下午好|晚上好|早安|晚安|早|在吗|在不在)(?:\s*(?:there|lexgate|[呀啊哦吗呢吧啦]))?"
    ),
    "thanks": (
        r"(?:thanks?(?: you)?(?: (?:so|very) much| a lot)?|thx|ty|cheers|great|ok(?:ay)?|got it|"
        r"谢谢(?:你|您)?|多谢|感谢(?:你|您)?|好的|明白了|知道了|收到)(?:\s*[呀啊哦啦])?"
    ),
    "farewell": r"(?:bye|goodbye|see you|再见|拜拜|回头见)",
    "identity": (
        r"(?:who are you|what are you|what can you do(?: for me)?|how can you help(?: me)?|what do you do|help|"
        r"你是谁|你是什么|你叫什么|你能做什么|你可以做什么|你会什么|你能干什么|你有什么功能|怎么用)(?:\s*[呀啊呢吗])?"
    ),
}
_SMALL_TALK: dict[SmallTalk, re.Pattern[str]] = {
    # the look-ahead makes "hi" fail inside "hiya" so the alternation backtracks to the longer word
    kind: re.compile(rf"{words}(?![a-z0-9])", re.IGNORECASE)
    for kind, words in _SMALL_TALK_WORDS.items()
}
_TRAILING = re.compile(r"[\s,.!?;:~，。！？；：、…—\-()（）\"'“”😀-🙏]+$")
_LEADING = re.compile(r"^[\s,.!?;:~，。！？；：、…—\-]+")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
_WORD = re.compile(r"[A-Za-z0-9]+")

_REPLIES: dict[Language, dict[SmallTalk, str]] = {
    "zh": {
        "greeting": "您好！",
        "thanks": "不客气。",
        "farewell": "再见，需要时随时提问。",
        "identity": "",
    },
    "en": {
        "greeting": "Hello!",
        "thanks": "You're welcome.",
        "farewell": "Goodbye — ask any time.",
        "identity": "",
    },
}
_ABOUT: dict[Language, str] = {
    "zh": (
        "我是 Lexgate，本地合同知识库问答助手：请就知识库中的合同提问，"
        "我会依据合同原文作答并标注所依据的条款；资料中没有的内容，我会明确告诉您，而不会凭空回答。"
    ),
    "en": (
        "I am Lexgate, a local assistant for your contract knowledge base: ask about the contracts "
        "in it and I answer from their text, citing the exact clauses; when the documents do not "
        "say, I tell you so rather than guess."
    ),
}


@dataclass
class Decision:
    """Whether to retrieve, who decided, and why (shown in the trace)."""

    needed: bool
    by: Literal["rules", "llm"]
    reason: str


def _core(text: str) -> str:
    """The input without surrounding punctuation, emoji and spacing, lower-cased."""
    return _LEADING.sub("", _TRAILING.sub("", text.strip())).strip().lower()


def small_talk_kind(text: str) -> SmallTalk | None:
    """The kind of small talk ``text`` is, when all of it is small talk (greeting + thanks too)."""
    rest = _core(text)
    if not rest:
        return None
    kinds: list[SmallTalk] = []
    while rest:
        for kind, pattern in _SMALL_TALK.items():
            m = pattern.match(rest)
            if m:
                kinds.append(kind)
                rest = _LEADING.sub("", rest[m.end() :])
                break
        else:
            return None
    return "identity" if "identity" in kinds else kinds[0]


def mentions_legal_terms(text: str) -> bool:
    """Whether ``text`` names a contract/legal concept or a document (clause, page, file)."""
    return bool(_LEGAL.search(text))


def is_short(text: str) -> bool:
    """Short enough that, matching no rule, its intent is unclear."""
    ideographs = len(_CJK.findall(text))
    if ideographs:
        return ideographs <= AMBIGUOUS_MAX_CHARS
    return len(_WORD.findall(text)) <= AMBIGUOUS_MAX_WORDS


def needs_retrieval(question: str, model: ChatModel | None = None) -> Decision:
    """Only clear small talk skips retrieval; everything else is searched (issue 10).

    A short question about a party ("某某患有什么疾病？") names no contract term and looks like
    chat to a model, yet asks for a fact: when in doubt, retrieve. ``model`` is accepted for the
    callers' sake and never consulted — a model's "no search needed" is exactly the failure.
    """
    if mentions_legal_terms(question):
        return Decision(True, "rules", coded("rtr_legal", "mentions contract/legal terms or a document"))
    kind = small_talk_kind(question)
    if kind is not None:
        return Decision(False, "rules", coded("rtr_small_talk", f"small talk ({kind})", kind="talk_" + kind))
    if not _core(question):
        return Decision(False, "rules", coded("rtr_empty", "empty input"))
    if not is_short(question):
        return Decision(
            True, "rules", coded("rtr_substantive", "a substantive question; searching the documents")
        )
    why = "short input that is not small talk; retrieving when in doubt"
    return Decision(True, "rules", coded("rtr_short", why))


def small_talk_reply(question: str, language: Language) -> str:
    """A canned polite reply that says what Lexgate does (no LLM: instant and never off-topic)."""
    kind = small_talk_kind(question)
    opener = _REPLIES[language][kind] if kind is not None else ""
    return f"{opener}{' ' if opener and language == 'en' else ''}{_ABOUT[language]}"
