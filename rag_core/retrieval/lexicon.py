"""A legal thesaurus for the keyword leg: the words contracts use for what lawyers ask about.

Why: a lawyer asks "what is the expiration date?" while the contract says "the term of this
Agreement shall continue until…"; "can it be ended early?" while it says "terminate for
convenience". BM25 only matches words, so each common clause type maps the words of a question to
the vocabulary of the clause. The entries are general contract-drafting knowledge (English and
Chinese), not fitted to any benchmark's answers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rag_core.judge.glossary import GROUPS, stem
from rag_core.textproc import is_chinese


@dataclass(frozen=True)
class Concept:
    name: str
    triggers: tuple[str, ...]  # regular expressions over the lower-cased question
    terms: tuple[str, ...]  # clause vocabulary added to the keyword query
    # question words that ask for this concept's kind of value ("how long", 多久): they count only
    # when no concept is named by the question's topic words (see ``concepts_of``)
    asks: tuple[str, ...] = ()


CONCEPTS: tuple[Concept, ...] = (
    Concept(
        "term",
        (
            r"expir",
            r"\bterm\b",
            r"duration",
            r"end date",
            r"期限",
            r"期满",
            r"有效期",
            r"租期",
        ),
        (
            "term",
            "expire",
            "expiration",
            "until",
            "period",
            "continue",
            "commence",
            "effective date",
            "years",
            "期限",
            "期满",
            "有效期",
            "起至",
            "届满",
        ),
        asks=(r"how long", r"多久", r"多长时间"),
    ),
    Concept(
        "renewal",
        (r"renew", r"extend", r"extension", r"续期", r"续签", r"续约", r"延期"),
        ("renew", "renewal", "automatically", "successive", "extend", "续期", "续签", "续约", "自动"),
    ),
    Concept(
        "termination",
        (
            r"terminat",
            r"convenience",
            r"cancel",
            r"end (?:the|this) (?:contract|agreement)",
            r"解除",
            r"终止",
            r"提前",
        ),
        (
            "terminate",
            "termination",
            "convenience",
            "without cause",
            "notice",
            "cancel",
            "解除",
            "终止",
            "通知",
            "提前",
        ),
    ),
    Concept(
        "governing_law",
        (
            r"governing law",
            r"govern",
            r"jurisdiction",
            r"which law",
            r"applicable law",
            r"适用法律",
            r"管辖",
            r"准据法",
        ),
        ("governed", "laws", "construed", "jurisdiction", "courts", "venue", "适用", "法律", "管辖", "法院"),
    ),
    Concept(
        "dispute",
        (r"dispute", r"arbitrat", r"争议", r"纠纷", r"仲裁", r"诉讼"),
        ("dispute", "arbitration", "arbitrator", "court", "争议", "仲裁", "诉讼", "法院"),
    ),
    Concept(
        "assignment",
        (r"assign", r"transfer", r"转让", r"转租", r"转包"),
        ("assign", "assignment", "transfer", "delegate", "consent", "successor", "转让", "转租", "同意"),
    ),
    Concept(
        "change_of_control",
        (r"change of control", r"merger", r"acqui", r"控制权", r"并购", r"合并"),
        ("change of control", "merger", "acquisition", "control", "consolidation", "控制权", "合并", "收购"),
    ),
    Concept(
        "non_compete",
        (r"compet", r"竞业", r"竞争"),
        ("compete", "competitive", "competing", "business", "restrict", "竞业", "竞争", "限制"),
    ),
    Concept(
        "exclusivity",
        (r"exclusiv", r"独家", r"排他"),
        ("exclusive", "exclusively", "sole", "独家", "排他", "唯一"),
    ),
    Concept(
        "non_solicit",
        (r"solicit", r"poach", r"hire", r"招揽", r"挖角"),
        ("solicit", "hire", "employ", "induce", "recruit", "招揽", "聘用", "雇佣"),
    ),
    Concept(
        "non_disparagement",
        (r"disparag", r"诋毁", r"贬损"),
        ("disparage", "disparaging", "negative", "statements", "诋毁", "贬损"),
    ),
    Concept(
        "audit",
        (r"audit", r"inspect", r"审计", r"查账", r"检查"),
        ("audit", "inspect", "books", "records", "examine", "审计", "账簿", "检查", "查阅"),
    ),
    Concept(
        "insurance",
        (r"insur", r"保险"),
        ("insurance", "insured", "policy", "coverage", "保险", "投保"),
    ),
    Concept(
        "liability_cap",
        (r"liabilit", r"cap\b", r"责任限制", r"赔偿上限", r"责任上限"),
        (
            "liability",
            "limit",
            "exceed",
            "aggregate",
            "consequential",
            "damages",
            "责任",
            "赔偿",
            "上限",
            "限额",
        ),
    ),
    Concept(
        "liquidated_damages",
        (r"liquidated", r"penalt", r"违约金", r"罚金", r"滞纳金"),
        ("liquidated damages", "penalty", "违约金", "赔偿", "罚金", "滞纳金"),
    ),
    Concept(
        "warranty",
        (r"warrant", r"guarantee", r"保修", r"质保", r"保证"),
        ("warrant", "warranty", "warranties", "defects", "months", "保修", "质保", "保证"),
    ),
    Concept(
        "ip_ownership",
        (r"intellectual property", r"\bip\b", r"ownership", r"知识产权", r"著作权", r"专利"),
        (
            "intellectual property",
            "own",
            "ownership",
            "title",
            "inventions",
            "work product",
            "assign",
            "知识产权",
            "归属",
            "所有权",
            "著作权",
            "专利",
        ),
    ),
    Concept(
        "joint_ip",
        (r"joint", r"共有", r"共同所有"),
        ("jointly", "joint", "co-own", "共有", "共同"),
    ),
    Concept(
        "license",
        (r"licen[cs]", r"许可", r"授权"),
        (
            "license",
            "grant",
            "licensed",
            "right to use",
            "sublicense",
            "irrevocable",
            "perpetual",
            "non-transferable",
            "许可",
            "授权",
            "使用权",
        ),
    ),
    Concept(
        "affiliates",
        (r"affiliat", r"subsidiar", r"关联"),
        ("affiliates", "subsidiaries", "关联方", "关联公司", "子公司"),
    ),
    Concept(
        "escrow",
        (r"escrow", r"source code", r"托管", r"源代码"),
        ("escrow", "source code", "托管", "源代码"),
    ),
    Concept(
        "post_termination",
        (r"after (?:the )?termination", r"post-termination", r"following termination", r"终止后", r"解除后"),
        (
            "after termination",
            "following termination",
            "transition",
            "survive",
            "wind down",
            "终止后",
            "继续",
        ),
    ),
    Concept(
        "minimum_commitment",
        (r"minimum", r"at least", r"commitment", r"最低", r"至少"),
        ("minimum", "purchase", "at least", "commit", "required", "最低", "至少"),
    ),
    Concept(
        "volume",
        (r"volume", r"quantit", r"数量"),
        ("volume", "quantity", "maximum", "units", "exceed", "数量", "上限"),
    ),
    Concept(
        "revenue_share",
        (r"revenue", r"profit", r"royalt", r"commission", r"分成", r"利润", r"提成", r"版税"),
        (
            "revenue",
            "profit",
            "share",
            "royalty",
            "percentage",
            "commission",
            "net sales",
            "分成",
            "利润",
            "提成",
        ),
    ),
    Concept(
        "most_favored",
        (r"most favou?red", r"\bmfn\b", r"最惠"),
        ("most favored", "no less favorable", "best", "terms", "最惠", "优惠"),
    ),
    Concept(
        "first_refusal",
        (r"first refusal", r"first offer", r"first negotiation", r"\brofr\b", r"优先购买", r"优先权"),
        ("right of first refusal", "first offer", "first negotiation", "offer", "优先购买权", "优先"),
    ),
    Concept(
        "covenant_not_to_sue",
        (r"not to sue", r"\bsue\b", r"challenge", r"contest", r"起诉", r"异议"),
        ("sue", "challenge", "contest", "claim", "validity", "起诉", "异议", "主张"),
    ),
    Concept(
        "third_party_beneficiary",
        (r"third[- ]party", r"beneficiar", r"第三方", r"受益人"),
        ("third party", "beneficiary", "beneficiaries", "第三方", "受益人"),
    ),
    Concept(
        "confidentiality",
        (r"confidential", r"secret", r"non-disclosure", r"保密", r"秘密"),
        ("confidential", "confidentiality", "disclose", "secret", "保密", "秘密", "披露"),
    ),
    Concept(
        "payment",
        (
            r"\bpay",
            r"\bfee",
            r"price",
            r"rent",
            r"租金",
            r"价款",
            r"费用",
            r"付款",
            r"支付",
            r"多少钱",
        ),
        (
            "pay",
            "payment",
            "fee",
            "price",
            "invoice",
            "amount",
            "租金",
            "价款",
            "费用",
            "支付",
            "付款",
            "人民币",
        ),
        asks=(r"how much",),
    ),
    Concept(
        "remote_work",
        (r"work(?:ing)? from home", r"\bremote(?:ly)?\b", r"\bwfh\b", r"居家办公", r"在家办公", r"远程办公"),
        ("remote", "remotely", "home", "远程办公", "居家办公"),
    ),
    Concept(
        "severance",
        (r"severance", r"经济补偿", r"遣散"),
        ("severance", "without cause", "经济补偿", "遣散费"),
    ),
    Concept(
        "deposit",
        (r"deposit", r"押金", r"保证金", r"定金"),
        ("deposit", "security deposit", "押金", "保证金", "定金"),
    ),
    Concept(
        "force_majeure",
        (r"force majeure", r"不可抗力"),
        ("force majeure", "act of god", "beyond the control", "不可抗力"),
    ),
    Concept(
        "notice",
        (r"\bnotice", r"notif", r"通知", r"送达"),
        ("notice", "written notice", "days prior", "notify", "通知", "书面", "送达"),
    ),
)

_CJK = re.compile(r"[\u4e00-\u9fff]")
_COMPILED = tuple((c, tuple(re.compile(t) for t in c.triggers)) for c in CONCEPTS)
_ASKS = tuple((c, tuple(re.compile(t) for t in c.asks)) for c in CONCEPTS if c.asks)


def has_chinese(term: str) -> bool:
    """Whether a thesaurus term is a Chinese one (it has Chinese characters). A question's language
    is ``textproc.is_chinese`` (a share of its letters): "What does 甲方 owe?" is an English question."""
    return bool(_CJK.search(term))


def concepts_of(question: str, asked: bool = True) -> list[Concept]:
    """The clause types a question asks about (with ``asked`` False, only those its topic words name).

    A question word ("how long", 多久, "how much") names a concept only when no topic word does:
    "员工离职需要提前多久通知？" asks a notice period, and the contract-term vocabulary its 多久 added
    flooded the keyword legs with term clauses, so the English notice clause was not among the 20
    candidates (session 40 try-out); "How much notice…" likewise searched payment clauses."""
    q = question.lower()
    named = [c for c, rx in _COMPILED if any(r.search(q) for r in rx)]
    if named or not asked:
        return named
    return [c for c, rx in _ASKS if any(r.search(q) for r in rx)]


def expansion_terms(question: str, asked: bool = True) -> list[str]:
    """Clause vocabulary for the question's concepts, in the question's language, without words it
    already has (a Chinese question searching English clause words would pull in unrelated
    contracts of a mixed knowledge base, and the other way round). ``asked`` False leaves out the
    concept only a question word named: see ``Retriever._legs``."""
    q = question.lower()
    chinese = is_chinese(question)
    out: dict[str, None] = {}
    for concept in concepts_of(question, asked):
        for term in concept.terms:
            if has_chinese(term) == chinese and term.lower() not in q:
                out.setdefault(term, None)
    return list(out)


def other_language_words(text: str) -> list[str]:
    """The glossary words of the other language for the terms a text uses, as written (not
    stemmed), for a keyword search: English words for a Chinese question, Chinese terms for an
    English one."""
    out: dict[str, None] = {}
    if is_chinese(text):
        for english, chinese in GROUPS:
            if any(zh in text for zh in chinese):
                out.update(dict.fromkeys(w for w in english if " " not in w))
        return list(out)
    stems = {stem(w) for w in re.findall(r"[A-Za-z][A-Za-z-]+", text)}
    for english, chinese in GROUPS:
        if any(stem(w) in stems for w in english):
            out.update(dict.fromkeys(chinese))
    return list(out)


def translated_terms(question: str) -> list[str]:
    """The question's vocabulary in the other language: the thesaurus terms of its clause types
    and the contract glossary's translations of its words (``other_language_words``).

    Why apart from ``expansion_terms``: these are searched only when the knowledge base holds
    documents of the other language (``Retriever``), in a keyword leg of their own — a Chinese
    question about an English contract ("合同约定的准据法是什么？") matched no word of it, and the
    vector leg alone did not find its governing-law clause among the top 20."""
    chinese = is_chinese(question)
    out: dict[str, None] = {}
    for concept in concepts_of(question):
        out.update(dict.fromkeys(t for t in concept.terms if has_chinese(t) != chinese))
    out.update(dict.fromkeys(other_language_words(question)))
    return list(out)
