"""Lexical features of a (question, passage) pair: the text half of the fitted judge (``features.py``).

Why these: the judge must work on passages pasted without retrieval scores (benchmarks, manual
checks), so it reads the text itself — which of the question's terms the passage and its best
sentence cover (rarer terms weigh more, the IDF taken over the candidate set of the call), Chinese
character bigrams (robust to jieba splitting a term differently), shared *topics* from a small
lexicon of contract and data-protection vocabulary (a question about "selling my data" and a clause
on "disclosure to third parties" share no word but the same topic), and whether the passage holds
the *kind* of value the question asks for (a date for "when", an amount for "how much", a period
for "how long", a party for "who", a place for "where", a modal for a yes/no question, a condition
for "under what circumstances"). How much each weighs is fitted (``train judge``), not set here.
"""

from __future__ import annotations

import math
import re
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import lru_cache

import jieba
import jieba.posseg as pseg

from rag_core.judge.clause_types import (
    PARTY_ROLES_EN,
    PARTY_ROLES_ZH,
    ROLE_POSITIONS,
    asked_roles,
    asks_party_identity,
    is_generic_role,
    role_words,
)
from rag_core.judge.conflict import extract_values, has_cjk, normalize_text
from rag_core.judge.glossary import direct_translations, siblings, translations, zh_compounds
from rag_core.textproc import fold_spelling


def _wordset(words: str) -> frozenset[str]:
    """A word list written as one space-separated string (easier to read and extend)."""
    return frozenset(words.split())


# --- constants -----------------------------------------------------------------------------------

SUBSTANTIVE_TERMS: int = 8
"""Content terms from which a passage counts as substantive rather than a heading or boilerplate line."""

PREFIX_MATCH_MIN: int = 5
"""Shared prefix length from which two English words count as one term ("disclose"/"disclosure")."""

# --- lexicons ------------------------------------------------------------------------------------

_EN_STOP = _wordset(
    "a an the of to in on for and or is are was were be been being do does did i my me you your we our us it its "
    "this that these those what which who whom whose how when where why will would can could should may might shall "
    "with by from as at any all there their they them if not no yes have has had about into over than so such other "
    "also just only more most some up out get app use used using"
)
_ZH_STOP = _wordset(
    "的 了 是 在 和 与 及 或 有 为 对 于 把 被 就 都 而 也 并 等 之 其 这 那 谁 什么 多少 如何 怎么 怎样 为什么 "
    "何时 是否 吗 呢 啊 吧 我 你 他 我们 可以 能否 能 会 要 请问 多久 多长 多长时间 时候 多大 "
    "应 应当 应该 须 需 由 向 给 将"
)
"""Chinese function words, interrogatives and modals: like "shall"/"should"/"by"/"to" in ``_EN_STOP``,
应/由/向 are no content of "通知应发到哪个网址？" or "争议由哪个法院管辖？". The 哪 interrogatives (哪个, 哪里 …) are
taken out before the words are cut (``_ZH_WHICH``)."""

TOPICS: dict[str, tuple[str, ...]] = {
    "collection": ("collect", "gather", "obtain", "record", "log", "capture", "acquir", "收集", "获取", "采集"),
    "sharing": (
        "share", "sharing", "disclos", "sell", "sale", "rent", "third", "partner", "affiliat", "advertiser",
        "transfer", "共享", "披露", "出售", "第三方", "提供给",
    ),
    "use": ("purpose", "process", "analy", "improv", "personaliz", "用途", "处理", "使用"),
    "retention": (
        "retain", "retention", "keep", "store", "storage", "delet", "eras", "remov", "period", "long",
        "保存", "存储", "删除", "保留",
    ),
    "security": (
        "secur", "protect", "safeguard", "encrypt", "breach", "hack", "unauthori", "safe", "安全", "保护",
        "加密", "泄露",
    ),
    "location": ("location", "gps", "geoloc", "geograph", "coordinat", "位置", "定位"),
    "advertising": ("advertis", "ads", "marketing", "promot", "target", "广告", "营销", "推广"),
    "tracking": ("cookie", "beacon", "pixel", "track", "analytic", "追踪", "跟踪"),
    "children": ("child", "minor", "kids", "parent", "age", "儿童", "未成年"),
    "access": (
        "access", "permission", "device", "camera", "contact", "microphone", "photo", "address book",
        "权限", "访问",
    ),
    "control": ("opt", "choice", "control", "setting", "consent", "request", "right", "同意", "选择", "权利"),
    "account": ("account", "profile", "username", "registr", "账户", "账号", "注册"),
    "termination": ("terminat", "cancel", "expir", "rescind", "终止", "解除", "到期"),
    "payment": ("pay", "fee", "price", "invoice", "royalt", "compensat", "cost", "支付", "付款", "费用", "价款", "报酬"),
    "liability": ("liab", "damage", "indemn", "penalt", "责任", "赔偿", "违约金", "损失"),
    "confidentiality": ("confidential", "non-disclosure", "secret", "保密", "机密"),
    "ip": ("intellectual", "patent", "copyright", "trademark", "licens", "知识产权", "专利", "著作权", "商标", "许可"),
    "assignment": ("assign", "delegat", "subcontract", "转让", "分包"),
    "dispute": ("law", "governing", "jurisdiction", "arbitrat", "court", "dispute", "法律", "管辖", "仲裁", "争议", "法院"),
    "term": ("term", "renew", "duration", "effective", "期限", "续约", "续签", "生效"),
    "warranty": ("warrant", "represent", "guarant", "保证", "担保"),
    "competition": ("compet", "solicit", "exclusiv", "竞业", "排他", "独家"),
}  # fmt: skip

_ASKS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("date", re.compile(r"\bwhen\b|\bwhat\s+(?:date|day|year)\b|\bdeadline\b|何时|什么时候|哪天|哪一天|日期|截止", re.I)),
    ("amount", re.compile(r"\bhow\s+much\b(?!\s+(?:prior\s+|advance\s+|written\s+)?(?:notice|time)\b)|\bwhat\s+(?:is\s+the\s+)?(?:fee|price|amount|cost)\b|\bwhat\s+(?:is|are|was|were)\s+the\s+(?:[a-z]+[\s-]+){0,2}?(?:fees?|price|cost|rent|deposit|salary|royalt(?:y|ies)|consideration)\b|多少钱|金额|费用是|价格|多少元", re.I)),
    ("frequency", re.compile(r"\bhow\s+(?:often|frequently)\b|\bat\s+what\s+(?:intervals?|frequency)\b|\bhow\s+many\s+times\b|(?:多久|多长时间|隔多久|多少天|几天|几个月)[^，。；？?]{0,12}?一次|频率|频次|几次|多少次", re.I)),
    ("period", re.compile(r"\bhow\s+long\b|\bhow\s+much\s+(?:prior\s+|advance\s+|written\s+)?(?:notice|time)\b|\bhow\s+many\s+(?:business\s+|calendar\s+)?(?:days|weeks|months|years)\b|提前多少天|多少天|多少个月|多少年|\bwithin\s+how\s+many\b|\bwhat\s+(?:is\s+the\s+)?(?:term|period|duration)\b|\bwhat\s+(?:is|are|was|were)\s+the\s+(?:[a-z]+[\s-]+){0,2}?(?:term|period|duration)\b|多久|多长时间|多长(?![度宽高])|期限|几年|几个月|几天", re.I)),
    # a rate asked ("利率是多少？", "服务可用率是多少？", "What is the interest rate?"): session 43's availability question
    # quoted a definition before "available 99.8% of the time"
    ("percent", re.compile(r"\bwhat\s+(?:percent|percentage|rate|share)\b|\bhow\s+many\s+percent\b|百分之几|比例|比率|百分比"
                           r"|率(?:是|为)?(?:多少|几)|\bwhat\s+(?:is|are)\s+the\s+(?:[a-z]+[\s-]+){0,3}?rates?\b", re.I)),
    ("number", re.compile(r"\bhow\s+many\b|多少个|几个|多少", re.I)),
    ("party", re.compile(r"\bwho\b|\bwhich\s+(?:party|company|side|entity)\b|\bwhom\b|哪一方|哪方|谁", re.I)),
    ("place", re.compile(r"\bwhere\b|\bwhich\s+(?:court|city|state|country|venue|place|jurisdiction)\b|\bin\s+what\s+(?:state|country|city)\b|哪里|何地|地点|哪个法院|哪个城市|哪个国家|(?<!如)何处"
                         r"|\b(?:what|which)\s+(?:is\s+the\s+)?(?:(?:e-?mail|postal|notice|web)\s+)?(?:address|website|url)\b|\bto\s+(?:what|which)\s+(?:e-?mail\s+)?address\b"
                         r"|(?:什么|哪一?个)(?:网址|网站|邮箱|电子邮箱|地址)|(?:网址|邮箱|地址)是(?:什么|多少)|[发寄送]到哪", re.I)),
    ("condition", re.compile(r"\bunder\s+what\s+(?:circumstances|conditions)\b|\bin\s+what\s+cases?\b|\bif\s+i\b|什么情况下|何种情况|条件", re.I)),
    ("yesno", re.compile(r"^\s*(?:does|do|is|are|can|could|may|must|shall|will|would|should|has|have|did)\b|是否|能否|可否|吗[?？]?\s*$", re.I)),
)  # fmt: skip
_ASKS_BY_KIND: dict[str, re.Pattern[str]] = dict(_ASKS)
_PARTY = re.compile(rf"\b(?:{PARTY_ROLES_EN}|we|us|you)\b|{PARTY_ROLES_ZH}|公司", re.I)
"""A party named by its role: what answers "由谁承担？" / "Who bears the cost?". One role list with the
party questions (``clause_types``): a passage-side list of eight Chinese roles had read "由承租方承担",
"由出租方负责维修" and "由转让方承担" as naming no party, so the fitted head took those clauses for no
evidence (0.12–0.43) of the who-questions they answer (the written training pairs, ``qa_zh``)."""
_MODAL = re.compile(
    r"\b(?:shall|may|must|will|not|never|no|only|cannot|required|entitled"
    r"|grants?|granted|permitted|prohibited|allowed)\b|\bnon-(?=[a-z])"
    r"|应当|应|可以|不得|有权|无权|不|须|必须|授予|允许|禁止"
    r"|\b(?:inclusive|exclusive)\s+of\b|包括|包含|含有|(?<=[，,（(])含"
    r"|\bautomatic(?:ally)?\b|自动"
    r"|\bexclusive(?:ly)?\b|普通许可|排他|独占|独家"
    r"|\beligible\b|\bdiscretion(?:ary)?\b|酌情|自行决定"
    # duties stated without a modal (session 41: "公司给员工缴纳住房公积金吗？" read "甲方依法为乙方缴纳…住房公积金" as
    # holding no obligation, evidence 0.24)
    r"|依法|负责|承担|\bresponsible\s+for\b|\bagrees?\s+to\b|\bundertakes?\s+to\b",
    re.I,
)
"""What answers a yes/no question: a modal, a grant or permission, a prohibition, a negated term
("a non-sublicensable license" answers "Can the licensee sublicense?"), or what a sum or term includes
("合同总价包括运费吗？" is answered by "合同总价款为人民币壹佰叁拾伍万元，含税及运费", which had read as holding no
answer, evidence 0.14, and the penalty clause was quoted instead; session 30), or what happens by itself ("运输合同自动续期
吗？" is answered by "期满前30日双方未提出异议的，自动续期一年", read as lacking an answer, evidence 0.16; session 34), or a
licence's kind ("商标许可是独占许可吗？" is answered by "本合同项下的许可为普通许可", read as lacking an answer, evidence
0.13, and a franchise's 独家授权 was quoted instead; session 35), or eligibility and discretion ("Is the bonus
guaranteed?" is answered by "eligible for an annual performance bonus … determined by the Company in its sole
discretion", read as lacking an answer beside a loan guarantee; session 36). Not English "including": it mostly
introduces examples inside a clause (about 3,500 in 200 training contracts, a quarter of them "including without
limitation"), and with it `bench refusal`'s judge column lost an absent-clause refusal and EVIDENCE precision (0.626 ->
0.620) for no answer gained — a choice read off the check part, which only reports."""
_CONDITION = re.compile(
    r"\b(?:if|unless|provided\s+that|in\s+the\s+event|subject\s+to|upon|where|when)\b|如果|若|除非|在.{0,12}情况下|如|一旦"
    r"|的[，,][^。；;]{0,30}?(?:有权|可以|可|应当|应|须|视为)"
    r"|[须需应]经|经[^。；;，,]{0,12}(?:同意|批准|许可)|\bwith(?:out)?\s+(?:the\s+)?(?:[\w'’]+\s+){0,3}?(?:consent|approval)\b",
    re.I,
)
"""A condition. Chinese drafting states most as "…的，…有权/应" ("代理商连续两个季度未完成最低销售指标的，委托方
可以书面通知解除"), with no 如果 or 若: those clauses had read as holding no condition for "在何种情况下可以解除？".
A required consent is one too: "新合伙人入伙，须经全体合伙人一致同意" answers "新合伙人入伙需要什么条件？" (session 34)."""
_PLACE = re.compile(
    r"\b(?:state|commonwealth|province|county|city|country|court|courts|venue|located|address|premises|"
    r"office|place|kingdom|england|wales|delaware|new\s+york|california|texas|nevada|ontario|hong\s+kong|"
    # an arbitration's seat and the usual seats (session 44: "Where is the arbitration seated?" read "seated in Zurich"
    # as lacking a place and quoted three Chinese arbitration clauses instead)
    r"seat|seated|switzerland|zurich|geneva|singapore|london|paris|stockholm|vienna|"
    r"germany|france|sweden|japan|tokyo|china|beijing|shanghai|australia|sydney|canada|toronto)\b|"
    r"[国省市县区]|法院|仲裁委员会|地址|所在地|住所"
    r"|https?://|\bwww\.[\w-]+\.|\b[\w.+-]+@[\w-]+\.[a-z]{2,}",
    re.I,
)
"""A place, an address, or where something is sent: a web address or an e-mail address answers "通知应发到
哪个网址？" as a postal address answers "Where should notices be sent?"; "place of work / delivery" names one
("The Employee's place of work is the Company's laboratory in Cambridge, United Kingdom", session 31)."""
_ENTITY = re.compile(
    r"\b[A-Z][\w&'.-]*(?:[ ,]+[A-Z][\w&'.-]*){0,6},?\s+"
    r"(?:Inc|LLC|L\.L\.C|Ltd|Limited|Corporation|Corp|GmbH|PLC|LLP|LP|AG|S\.A|N\.V|B\.V|Pte)\b"
    r"|\b[A-Z][A-Za-z.&'-]+(?:\s+[A-Z][A-Za-z.&'-]+)+[^()]{0,80}\(\s*(?:the\s+|hereinafter\s+)?[\"“][A-Z]"
    r"|[\u4e00-\u9fff()]{2,30}?(?:有限责任公司|股份有限公司|有限公司|事务所|银行|大学"
    r"|(?<!目标)(?<!标的)(?<!关联)(?<!合资)(?<!控股)(?<!对方)(?<![本该贵其母子分总新])(?:公司|集团))"
    r"|(?:甲方|乙方|丙方|出租方|承租方|出租人|承租人|许可方|被许可方|买方|卖方|转让方|受让方|借款人|贷款人|出借人|"
    r"用人单位|劳动者|委托方|受托方)[^:\n]{0,8}:\s*[\u4e00-\u9fffA-Za-z]"
)
"""A party's name: a company with its legal form (Inc, LLC, 有限公司 …), a capitalised name introduced with its
defined role ("Bluefield Analytics LLC … ("Licensee")"), or a party line ("承租方(乙方):李明"). A bare 公司 or 集团
after a word that refers to a company without naming it (目标公司, 标的公司, 关联公司, 本公司, 子公司) is no name:
"甲方同意将其持有的目标公司百分之三十的股权转让给乙方" was quoted for "Who are the parties to the share transfer
agreement?" ahead of the party lines."""

_LABEL = re.compile(
    r"\(\s*(?:the\s+|hereinafter\s+(?:referred\s+to\s+as\s+)?)?[\"“]([A-Za-z][A-Za-z -]{1,40})[\"”]\s*\)"
    r"|^[ \t]*([A-Za-z][A-Za-z ]{1,30}?|[\u4e00-\u9fff]{2,6})[ \t]*(?:\(([^()\n]{1,8})\))?[ \t]*:[ \t]*\S",
    re.M,
)
"""Where a text names someone as a party: a defined role after a name ("Bluefield Analytics LLC … ("Licensee")")
or the label of a party line ("出租方(甲方):北京华信置业有限公司", "LICENSEE: Bluefield …"), read after
``normalize_text``."""


@lru_cache(maxsize=32768)
def party_labels(text: str) -> frozenset[str]:
    """The roles a text names someone as (``_LABEL``), as ``role_words`` gives them; none for roles
    that name no one party ("the Parties")."""
    out: set[str] = set()
    for m in _LABEL.finditer(normalize_text(text)):
        for label in m.groups():
            if label:
                out.update(r for r in role_words(label) if not is_generic_role(r))
    return frozenset(out)


@lru_cache(maxsize=4096)
def role_names(role: str) -> frozenset[str]:
    """A role word and the glossary's words for the same role, in both languages, English stemmed
    ("房东" → 出租人, 出租方, landlord, lessor; "licensee" → 被许可方 …)."""
    key = role if has_cjk(role) else stem(role)
    out = {key, *direct_translations(key), *siblings(key)}
    return frozenset(w if has_cjk(w) else stem(w) for w in out)


def names_asked_role(roles: tuple[str, ...], labels: frozenset[str]) -> bool:
    """Whether one of the text's party labels is one of the asked roles, in either language; a label
    with a position ("合伙人甲") is also its role ("合伙人"), not another position's ("合伙人丙")."""
    wanted = frozenset().union(*(role_names(r) for r in roles))
    for lab in labels:
        key = lab if has_cjk(lab) else stem(lab)
        if key in wanted or (len(key) > 2 and key[-1] in ROLE_POSITIONS and key[:-1] in wanted):
            return True
    return False


_VALUE_KINDS: dict[str, frozenset[str]] = {
    "date": frozenset({"date", "year"}),
    "amount": frozenset({"amount", "number", "percent"}),
    "period": frozenset({"period", "date"}),
    "percent": frozenset({"percent"}),
    "number": frozenset({"number", "amount", "percent", "period"}),
}
"""Kinds of value that answer each asked kind. A how-much question is also answered by a rate ("违约金是多少？":
"按应付未付金额的万分之五"; a royalty, an interest). A how-long question is also answered by an end date or
an open-ended term: of the fit contracts' expiration-date clauses (asked "How long is the initial
term?"), 39 of 247 state only a date ("shall terminate automatically on December 31, 2022") and many
others an anniversary, "three (3) calendar years" or "indefinitely", which the judge had read as
lacking the asked period. A when-question is also answered by a deadline (``_DEADLINE``),
not by any period: "for a term of five (5) years" does not say when an agreement became effective."""
_OPEN_ENDED = re.compile(
    r"\bperpetu\w*|\bindefinite(?:ly)?\b|\buntil\s+(?:it\s+is\s+|so\s+)?terminated\b|永久|长期有效|无固定期限|不定期",
    re.I,
)
"""A duration stated without a number ("shall continue indefinitely", "in perpetuity", 无固定期限)."""
_ASK_WORDS = {
    "entity": "a party's name",
    "date": "a date",
    "amount": "an amount",
    "period": "a period",
    "frequency": "a frequency",
    "percent": "a percentage",
    "number": "a number",
    "party": "a party",
    "condition": "a condition",
    "place": "a place",
    "yesno": "an obligation/permission",
}


# --- terms -----------------------------------------------------------------------------------------


def stem(w: str) -> str:
    """Light English stemming: enough to meet "shared"/"shares"/"sharing" at "shar" (and "licence"
    "license", ``fold_spelling``). A verb ending in "-ply" keeps its "ly" ("supply", "apply", "comply"): read as
    an adverb's ending it left "supp", which meets "support", and "apply" met none of "applies"/"applied".
    An adjective made from an "-ation" noun loses the same ending ("probationary", "operational" → "prob",
    "oper"): "probation" → "prob" is too short for the shared-prefix match, so "How long is the probation
    period?" met no word of "The first six (6) months are a probationary period" but "period" (session 40)."""
    w = fold_spelling(w)
    for suffix in (
        "ationary",
        "ational",
        "ations",
        "ation",
        "ings",
        "ing",
        "ies",
        "ied",
        "ed",
        "es",
        "s",
        "ly",
    ):
        if suffix == "ly" and w.endswith("ply"):
            continue
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            return _undoubled(w[: -len(suffix)]) if suffix in _VERB_ENDINGS else w[: -len(suffix)]
    return w


_VERB_ENDINGS = frozenset({"ings", "ing", "ed"})
_UNDOUBLED_MIN = 4
"""Letters a stem keeps after its doubled last consonant is undone ("transferr" → "transfer", "omitt" → "omit";
"add" stays)."""


def _undoubled(w: str) -> str:
    """A stem whose "-ed"/"-ing" ending doubled its last consonant, without the double ("transferred" →
    "transfer", "committed" → "commit"); f, l, s and z stay doubled ("staffed" → "staff", "billed" → "bill").

    Why: "transferr" met "transfer" only by shared prefix and no glossary word, so "How much of the target
    company is being transferred?" found no 转让 in the share-transfer clause (session 40)."""
    if len(w) > _UNDOUBLED_MIN and w[-1] == w[-2] and w[-1] not in "aeiouylszf":
        return w[:-1]
    return w


_WORD = re.compile(r"[a-z][a-z0-9'-]*|\d+")
"""An English word (or a number) as ``terms`` reads it, in lower-cased text."""


def surface_words(text: str) -> dict[str, str]:
    """Each English term's stem → the first word of ``text`` that has it ("shar" → "shares"): what a
    note shows the lawyer instead of a stem."""
    out: dict[str, str] = {}
    for w in _WORD.findall(text.lower()):
        w = _possessive(w)
        out.setdefault(stem(w), w)
    return out


_ZH_WHICH = re.compile(r"哪一?[天年月日个些家方种里儿位条项国处]?")
"""A "which …" interrogative (哪一天, 哪一年, 哪家): it asks a kind of value (``asked_kinds``) and names
nothing a clause says, and jieba's search mode would keep its pieces (一天, 一年) as terms: "租金是多少？
那是哪一天？" was a question of three terms of which the rent clause held one."""


_USED_FOR = re.compile(r"\bused\s+(?:only\s+|solely\s+|exclusively\s+)?(?:for|as)\b")
"""What a thing is "used for" is its purpose: "use"/"used" are stopwords (a privacy question's "does the app
use my data" names nothing), so "What is the loan used for?" was a question of the one term "loan", and
every passage of the loan agreement came out EVIDENCE at 0.93 (session 35). "Used (only) as" states it too:
a lease's "The Premises may be used only as offices …" covered half of "What can the premises be used
for?" and stayed NO_EVIDENCE at 0.41 while a Chinese clause saying 用途 was quoted (session 40)."""

_PURPOSE = "purpose"

_ZH_USED_FOR = re.compile(r"(?:用来|用于|用作|拿来|用在)(?:干|做|作)?(?:什么|啥|哪些?)")
"""The Chinese "used for what": the question asks the purpose (用途), as ``_USED_FOR`` does in English.
Why: "借款可以用来干什么？" was a question of the terms 借款, 用来, 干什么, and the loan clause "本借款仅用于乙方
新开门店的装修及设备采购" (headed 借款用途) covered one of three, NO_EVIDENCE at 0.46 (session 40 try-out)."""

_ZH_PURPOSE = "用途"


def _possessive(word: str) -> str:
    """A word without its possessive ending ("founder's", "shareholders'" → "founder", "shareholders").

    Why: the stem kept the apostrophe ("founder'"), which meets "founder" by shared prefix but no glossary
    word, so "How long is the founder's lock-up?" found no 创始人 in a Chinese clause (session 35)."""
    if word.endswith("'s"):
        word = word[:-2]
    return word.rstrip("'")


def terms(text: str) -> list[str]:
    """Content terms: stemmed English words without stopwords; Chinese words by jieba's search mode;
    "purpose" where the text says "used for" (``_USED_FOR``), 用途 where it asks 用来干什么 (``_ZH_USED_FOR``)."""
    out: list[str] = []
    low = text.lower()
    for w in _WORD.findall(low):
        w = _possessive(w)
        if w not in _EN_STOP and len(w) > 1:
            out.append(stem(w))
    if _USED_FOR.search(low):
        out.append(stem(_PURPOSE))
    if has_cjk(text):
        if _ZH_USED_FOR.search(text):
            out.append(_ZH_PURPOSE)
            text = _ZH_USED_FOR.sub("，", text)
        for w in rejoined(_ZH_WHICH.sub("，", text)):
            w = w.strip()
            if w and has_cjk(w) and w not in _ZH_STOP:
                out.append(w)
    return out


def rejoined(text: str) -> list[str]:
    """jieba's search-mode words, with a glossary word (``glossary.zh_compounds``) it cut apart made
    one word again: the word is added, its one-character pieces and the pieces that glue a function
    character onto it (期是, 方应) are dropped.

    Why: jieba does not know 锁定期 or 处理方, and cuts "锁定期是多久？" into 锁定 / 期是, so the
    question's one content word met neither the English "Lock-Up" clause through the glossary nor any
    text, and "股东协议的锁定期是多久？" was refused beside the clause that answers it (session 35). A word
    jieba cut another way (提供方式: 提供 / 方式, 第三人民法院) keeps jieba's cut: only a piece whose
    part outside the glossary word is function characters (``_ZH_STOP``) is taken for a mis-cut."""
    cut = list(jieba.tokenize(text, mode="search"))
    drop: set[int] = set()
    added: dict[int, str] = {}
    for m in zh_compounds().finditer(text):
        s, e = m.span()
        if any(a <= s and e <= b for _, a, b in cut):  # jieba has the word, or a longer one holding it
            continue
        glued = [i for i, (_, a, b) in enumerate(cut) if a < s < b or a < e < b]
        outside = "".join(text[a:s] if a < s else text[e:b] for _, a, b in (cut[i] for i in glued))
        if any(ch not in _ZH_STOP for ch in outside):
            continue
        inner = [i for i, (w, a, b) in enumerate(cut) if s <= a and b <= e and len(w) == 1]
        drop.update(glued + inner)
        added[min(glued + inner, default=len(cut))] = m.group()
    out: list[str] = []
    for i, (w, _, _) in enumerate(cut):
        if i in added:
            out.append(added[i])
        if i not in drop:
            out.append(w)
    if len(cut) in added:
        out.append(added[len(cut)])
    return out


def cjk_bigrams(text: str) -> set[str]:
    """Character bigrams of the Chinese runs of a text."""
    out: set[str] = set()
    for run in re.findall(r"[\u4e00-\u9fff]+", text):
        out.update(run[i : i + 2] for i in range(len(run) - 1))
    return out


def topics(text: str) -> set[str]:
    """Topics of the lexicon whose stems occur in the text."""
    low = text.lower()
    return {name for name, stems in TOPICS.items() if any(s in low for s in stems)}


def _translated(term: str, passage_terms: AbstractSet[str], passage_low: str) -> bool:
    """One of the term's translations (``glossary``: an English question about a Chinese clause,
    or the reverse) is in the passage."""
    return any(_word_in(t, passage_terms, passage_low) for t in translations(term))


def term_in(term: str, passage_terms: AbstractSet[str], passage_low: str, translated: bool) -> bool:
    """A question term is in a text (``_word_in``), or with ``translated`` one of its translations is."""
    return _word_in(term, passage_terms, passage_low) or (
        translated and _translated(term, passage_terms, passage_low)
    )


def _word_in(term: str, passage_terms: AbstractSet[str], passage_low: str) -> bool:
    """A word is in the passage: same stem, a long shared prefix, or (Chinese) a substring."""
    if term in passage_terms:
        return True
    if has_cjk(term):
        return term in passage_low
    if len(term) >= PREFIX_MATCH_MIN:
        return any(
            t.startswith(term[:PREFIX_MATCH_MIN]) and term.startswith(t[:PREFIX_MATCH_MIN])
            for t in passage_terms
        )
    return False


def idf_weights(question_terms: list[str], passages: list[tuple[set[str], str]]) -> dict[str, float]:
    """IDF of each question term over the candidate set (smoothed; all 1 for a single passage).

    A passage holds a term when it has the same stem or a translation of it, so "apartment" asked of
    a Chinese lease weighs as little as 房屋, which half its clauses use, and the rare 转租 ("sublet")
    decides; between passages of the question's language this is the plain stem count."""
    n = len(passages)
    if n <= 1:
        return dict.fromkeys(question_terms, 1.0)
    return {
        t: math.log(
            (n + 1) / (sum(t in terms or _translated(t, terms, low) for terms, low in passages) + 0.5)
        )
        for t in question_terms
    }


# --- scores ----------------------------------------------------------------------------------------


def asked_kinds(question: str) -> list[str]:
    """The kinds of value the question asks for, most specific first; a question that only asks who a
    party is asks for its name ("entity"), not for any text that mentions the party.

    Why: "Who is the licensee?" counted every "Licensee shall …" clause as holding the asked party,
    nine passages came out EVIDENCE and the quoted answer quoted the fee clause, not the preamble that
    names Bluefield Analytics LLC."""
    if asks_party_identity(question):
        return ["entity"]
    kinds = [kind for kind, rx in _ASKS if rx.search(question)]
    if "frequency" in kinds:  # "多久…一次", "how many times": how often, not how long or how many
        kinds = [k for k in kinds if k not in ("period", "number")]
    if "yesno" in kinds:
        stated = [_PREMISE_ASKS[k] for k in sorted(found_kinds(question)) if k in _PREMISE_ASKS]
        kinds = [*dict.fromkeys(k for k in stated if k not in kinds), *kinds]
    return kinds


_PREMISE_ASKS: dict[str, str] = {
    "amount": "amount",
    "percent": "percent",
    "period": "period",
    "date": "date",
    "year": "date",
}
"""The kind of value a yes/no question asks for when its premise states one: "合同价款是六千万元吗？" is
answered by the clause stating the price ("签约合同价为人民币伍仟陆佰万元"), which holds no modal; read as a bare
yes/no question it scored evidence 0.15 and the correction quoted another contract's price clause, which
held a "含" (session 31 try-out)."""


VALUE_ASKS: frozenset[str] = frozenset(
    {"date", "amount", "period", "frequency", "percent", "number", "party", "place"}
)
"""Kinds of asked value that name a fact (not a yes/no or a condition): the clause that answers
must state one."""


def value_kinds(kinds: tuple[str, ...]) -> tuple[str, ...]:
    """Of the kinds a question asks for, those that name a fact (``VALUE_ASKS``)."""
    return tuple(k for k in kinds if k in VALUE_ASKS)


def found_kinds(text: str) -> frozenset[str]:
    """The kinds of the values the text holds, as ``extract_values`` reads them (cached with the text)."""
    return _passage_text(text)[3]


def held_kinds(kinds: tuple[str, ...], text: str) -> tuple[str, ...]:
    """Of ``kinds``, those a value of which the text holds."""
    norm, _, _, found = _passage_text(text)
    return tuple(k for k in kinds if _has_kind(k, norm, set(found)))


def without_values(text: str, kinds: tuple[str, ...]) -> str | None:
    """The text with every value of the asked ``kinds`` (dates, amounts, periods, numbers) cut out;
    ``None`` when it holds none (or the kinds are not values, such as a party).

    Why: a counterfactual training window for the fitted judge — the clause of the asked type
    whose asked fact is gone is still *relevant* but no longer *evidence* (``train_sets``)."""
    wanted = frozenset().union(*(_VALUE_KINDS.get(k, frozenset()) for k in kinds))
    norm = normalize_text(text)
    spans = [(v.start, v.end) for v in extract_values(norm) if v.kind in wanted]
    if not spans:
        return None
    out = norm
    for start, end in sorted(spans, reverse=True):
        out = out[:start] + out[end:]
    return out


_DEADLINE = re.compile(
    r"(?:届满|期满)(?:之日|之时|[时前后])|(?:\d{1,2}|[一二三四五六七八九十]{1,3})\s*[日号](?:前|之前|以前|止)"
    r"|在[^，。；\n]{2,24}(?:之前|以前)"
    r"|[每当次](?:个)?(?:月|季度|年度?)[^，。；\n]{0,10}?(?:\d{1,2}|[一二三四五六七八九十]{1,3})\s*[日号]"
    r"|(?:日|天|周|个?月|年|小时|工作日)(?:内|之内|以内)"
    r"|\b(?:on\s+or\s+before|no\s+later\s+than|not\s+later\s+than|prior\s+to)\b"
    r"|\bwithin\s+(?:[\w-]+\s+){0,2}(?:\(\d+\)\s+)?(?:(?:business|calendar)\s+)?(?:hours?|days?|weeks?|months?|years?)\b"
    # an event that marks the time: "passes to the Buyer on delivery to the carrier", "自交付时转移" (session 37: "When
    # does risk pass to the buyer?" found no date in 3.2 and quoted the delivery term above it)
    r"|\b(?:on|upon|at\s+the\s+time\s+of)\s+(?:the\s+)?(?:delivery|acceptance|signing|execution|completion|receipt"
    r"|payment|termination|expiry|expiration|closing|dispatch|shipment|handover|installation)\b"
    r"|[自于][^，。；\n]{0,6}(?:交付|交货|到货|收货|验收|签署|签订|移交|安装|付款|支付)(?:完成|完毕|合格)?(?:时|之时)"
    # a term that ends on an event's day: "至本案一审判决书或调解书送达之日终止" (session 39: "委托代理合同什么时候终止？"
    # found no time in the engagement contract's term clause and was refused)
    r"|至[^，。；\n]{2,30}之日(?:终止|止|届满|为止)"
    # a recurring weekday or a payment's rhythm: "payable weekly … each Tuesday", "每周五" (session 42: "When is it
    # paid?" after a royalty question found no time in "payable weekly by electronic transfer each Tuesday")
    r"|\b(?:each|every|on)\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b"
    r"|每(?:周|星期)[一二三四五六日天]"
    r"|\b(?:payable|paid|due|invoiced|billed)\s+(?:(?:in\s+advance|in\s+arrears)\s+)?"
    r"(?:weekly|monthly|quarterly|annually|yearly|semi-annually)\b"
    r"|\bin\s+(?:advance|arrears)\b",
    re.I,
)
"""When a thing happens, said by a deadline or a recurring day rather than a date: "每月5日前", "收到发票后
十五日内", "届满前", "within thirty (30) days of invoice", "no later than the end of each quarter". Not an
event alone ("签订之日", "之时"): "乙方应于本合同签订之日向甲方支付押金" does not say when the contract was
signed, and read as holding it, it was quoted before "签订日期：2025年2月20日" (``test_quoted``). The end of
the term ("借款期限届满之日一次性归还全部本金": the term says when) and "在…之前", Chinese for "prior to", are
deadlines ("本金什么时候还？", "设备的所有权什么时候转移？" read both as lacking a time, session 30). Days of the
month in Chinese numerals too: "于次月十日前支付" answers "特许权使用费什么时候支付？" (session 31)."""


ZH_SURNAMES: frozenset[str] = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔"
    "钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
)
"""The common Chinese surnames: a word jieba tags as a person (``nr``) is read as one only when it starts
with one ("之日起" is tagged a name too)."""

ZH_PERSON_MAX_FREQ: int = 50
"""A word jieba tags as a person is read as one only when its dictionary frequency is below this: jieba also
tags common words so ("周转" 899, "高峰" 1,556, "杨树" 127), while names are rare or absent ("王晓明" 7, "李华" 0)."""


def names_zh_person(text: str) -> bool:
    """The text names a person in Chinese ("本合同项下借款由李华提供连带责任保证").

    Why: a person is named inline, not only on a party line ("借款人（乙方）：王晓明"); "Who is the guarantor of
    the loan?" and "借款的保证人是谁？" found the guarantee clause naming no party, capped its evidence and
    were refused (session 30 try-out)."""
    if not has_cjk(text):
        return False
    return any(
        w.flag == "nr"
        and 2 <= len(w.word) <= 4
        and w.word[0] in ZH_SURNAMES
        and (jieba.get_FREQ(w.word) or 0) < ZH_PERSON_MAX_FREQ
        for w in pseg.cut(text)
    )


_FREQUENCY = re.compile(
    r"[每按](?:[一二两三四五六七八九十半\d]+)?个?(?:年度?|季度?|月|周|星期|日|天|小时)|[一二两三四五六七八九十\d]+次(?!性)"
    r"|\b(?:annually|semi-annually|quarterly|monthly|weekly|daily|yearly)\b"
    r"|\b(?:each|every|per)\s+(?:(?:calendar|fiscal|contract|business)\s+)?(?:year|quarter|month|week|day|annum)\b"
    r"|\bonce\s+(?:a|per|every|each)\b|\btwice\b|\b\w+\s+times\s+(?:a|per|each)\b",
    re.I,
)
"""How often a thing recurs: "每季度…报告一次", "按月结算", "quarterly", "once per Contract Year". It answers a
how-often question, which asks no duration: "执行事务合伙人多久报告一次？" read "多久" as a period, found
"每季度向其他合伙人报告一次" lacking one (evidence 0.26) and quoted the partnership's ten-year term (session 34)."""


def _has_kind(kind: str, passage: str, value_kinds: set[str]) -> bool:
    """True when the passage holds a value of the kind asked for."""
    if kind == "frequency":
        return bool(_FREQUENCY.search(passage))
    if kind == "period" and _OPEN_ENDED.search(passage):
        return True
    if kind == "date" and _DEADLINE.search(passage):
        return True
    if kind in _VALUE_KINDS:
        return bool(value_kinds & _VALUE_KINDS[kind])
    if kind == "party":
        return bool(_PARTY.search(passage)) or "name" in value_kinds
    if kind == "entity":
        return bool(_ENTITY.search(passage)) or names_zh_person(passage)
    if kind == "condition":
        return bool(_CONDITION.search(passage))
    if kind == "place":
        return bool(_PLACE.search(passage))
    return bool(_MODAL.search(passage))


@dataclass(frozen=True)
class LexicalFeatures:
    """What the question and one passage share in words, and whether the passage holds the kind of
    value the question asks for: the text half of the fitted judge's features."""

    coverage: float  # IDF-weighted share of question terms in the passage
    topic: float  # share of the question's lexicon topics the passage shares
    bigram: float  # share of the question's Chinese character bigrams in the passage
    substantive: bool  # a real clause sharing something with the question, not a heading
    kinds: tuple[str, ...]  # kinds of value asked for, most specific first
    matched: tuple[str, ...]  # of those, the kinds the passage holds
    hits: int  # question terms found
    terms: int  # question terms
    shared_topics: tuple[str, ...]
    best_sentence: float  # IDF-weighted share of question terms in the passage's best sentence
    # The same two shares for the terms found only as a translation (``glossary``): apart, so the
    # fit weighs a translated match on its own and the same-language features mean what they did.
    translated: float = 0.0
    translated_best_sentence: float = 0.0
    # For a question asking who a named role is ("房东是谁？", "Who is the licensee?"): the passage names
    # someone as that role (``party_labels``), or names parties but none as it.
    role_named: bool = False
    role_other: bool = False


def _sentences(text: str) -> list[str]:
    from rag_core.judge.dense import sentences

    return sentences(text)


@lru_cache(maxsize=32768)
def _passage_text(text: str) -> tuple[str, tuple[str, ...], frozenset[str], frozenset[str]]:
    """A passage's normalised text, terms, lexicon topics and kinds of value (cached: the same
    passage is read for every question of a session, and for many training questions)."""
    norm = normalize_text(text)
    return norm, tuple(terms(norm)), frozenset(topics(norm)), frozenset(v.kind for v in extract_values(norm))


def _views(
    cached: list[tuple[str, tuple[str, ...], frozenset[str], frozenset[str]]],
) -> list[tuple[set[str], str]]:
    """Each passage's term set and lower-cased text: what ``idf_weights`` and the term look-ups read."""
    return [(set(p_terms), norm.lower()) for norm, p_terms, _, _ in cached]


def coverage_scores(question: str, texts: list[str]) -> list[float]:
    """``LexicalFeatures.coverage`` of each text alone (IDF over ``texts``), without the other features.

    Why a function of its own: ranking every window of a contract for a question (``bench refusal``'s
    stand-in for retrieval, and the retrieval-ranked training negatives of ``train_sets``) needs only
    the coverage, and the best-sentence loop of ``lexical_features`` costs ten times as much."""
    q_terms = list(dict.fromkeys(terms(without_premise_values(normalize_text(question)))))
    if not q_terms:
        return [0.0] * len(texts)
    cached = [_passage_text(t) for t in texts]
    views = _views(cached)
    idf = idf_weights(q_terms, views)
    total_w = sum(idf.values()) or 1.0
    return [sum(idf[t] for t in q_terms if _word_in(t, pset, low)) / total_w for pset, low in views]


def without_premise_values(question: str) -> str:
    """The (normalised) question with the values a yes/no question asserts blanked out: what its
    terms are read from.

    Why: "缺陷责任期是十二个月吗？" asks about the defects liability period; its "十二", "十二个", "个月"
    are the asserted value, which the premise check compares (``conflict``). Counted as terms, they made
    a loan's "借款期限为十二个月" cover 4 of 7 question words and come out EVIDENCE beside the clause
    that corrects the premise (session 31 try-out)."""
    if not _ASKS_BY_KIND["yesno"].search(question):
        return question
    chars = list(question)
    for v in extract_values(question):
        if v.kind in _PREMISE_ASKS:
            chars[v.start : v.end] = " " * (v.end - v.start)
    return "".join(chars)


def lexical_features(question: str, texts: list[str]) -> list[LexicalFeatures]:
    """Lexical features of each passage for one question (IDF over the candidate set)."""
    q_norm = normalize_text(question)
    q_topic_text = without_premise_values(q_norm)
    q_terms = list(dict.fromkeys(terms(q_topic_text)))
    q_topics = topics(q_norm)
    q_bigrams = cjk_bigrams(q_topic_text)
    kinds = asked_kinds(q_norm)
    roles = asked_roles(q_norm)
    cached = [_passage_text(t) for t in texts]
    views = _views(cached)
    idf = idf_weights(q_terms, views)
    total_w = sum(idf.values()) or 1.0
    out: list[LexicalFeatures] = []
    for raw, (pset, low), (text, _, p_topics, p_kinds) in zip(texts, views, cached, strict=True):
        hit = [t for t in q_terms if _word_in(t, pset, low)]
        via = [t for t in q_terms if t not in hit and _translated(t, pset, low)]
        best = best_via = 0.0
        for sentence in _sentences(raw):
            s_norm, s_terms, _, _ = _passage_text(sentence)
            s_set, s_low = set(s_terms), s_norm.lower()
            best = max(best, sum(idf[t] for t in hit if _word_in(t, s_set, s_low)) / total_w)
            best_via = max(best_via, sum(idf[t] for t in via if _translated(t, s_set, s_low)) / total_w)
        shared = q_topics & p_topics
        bigram = len(q_bigrams & cjk_bigrams(text)) / len(q_bigrams) if q_bigrams else 0.0
        value_kinds = set(p_kinds)
        labels = party_labels(raw) if roles else frozenset()
        named = bool(labels) and names_asked_role(roles, labels)
        out.append(
            LexicalFeatures(
                coverage=sum(idf[t] for t in hit) / total_w if q_terms else 0.0,
                topic=len(shared) / len(q_topics) if q_topics else 0.0,
                bigram=bigram,
                substantive=len(pset) >= SUBSTANTIVE_TERMS and bool(hit or via or shared or bigram),
                kinds=tuple(kinds),
                matched=tuple(k for k in kinds if _has_kind(k, text, value_kinds)),
                hits=len(hit) + len(via),
                terms=len(q_terms),
                shared_topics=tuple(sorted(shared)),
                best_sentence=best if q_terms else 0.0,
                translated=sum(idf[t] for t in via) / total_w if q_terms else 0.0,
                translated_best_sentence=best_via if q_terms else 0.0,
                role_named=named,
                role_other=bool(labels) and not named,
            )
        )
    return out


def ask_word(kind: str) -> str:
    """How an explanation names a kind of value ("a date", "a period")."""
    return _ASK_WORDS[kind]
