"""Key facts of an answer sentence, and which of them its cited evidence does not state.

Why (issue 10): word overlap passed an invented sentence ("the landlord may keep the deposit
after 30 days") as fully supported because most of its words occur in the deposit clause. A
lawyer reads a sentence for its facts: the numbers (amounts, dates, periods), the parties, and the
obligations with who bears them (a duty, a permission, a prohibition). A sentence whose facts the
cited block does not state is not supported, however many words it shares.

Parties are compared by role with their synonyms (房东 = 出租人, landlord = lessor); an obligation
is bound to the party written just before its modal ("乙方应当", "the Tenant shall"), and the
evidence must bind the same role to the same kind of modal somewhere.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from rag_core.definitions import definitions, list_items
from rag_core.judge.values import Value

PARTY_WINDOW: int = 24
"""Characters before a modal within which the party bearing it is looked for."""

# Role → the surface forms that name it (Chinese and English, lower-cased).
PARTY_ROLES: dict[str, tuple[str, ...]] = {
    "party_a": ("甲方",),
    "party_b": ("乙方",),
    "party_c": ("丙方",),
    "lessor": ("出租人", "出租方", "房东", "landlord", "lessor"),
    "lessee": ("承租人", "承租方", "租客", "租户", "tenant", "lessee"),
    "seller": ("卖方", "出卖人", "销售方", "供方", "供应商", "seller", "vendor", "supplier", "provider"),
    "buyer": ("买方", "买受人", "采购方", "需方", "buyer", "purchaser", "customer"),
    "lender": ("贷款人", "出借人", "债权人", "lender", "creditor"),
    "borrower": ("借款人", "债务人", "borrower", "debtor"),
    "employer": ("用人单位", "雇主", "employer"),
    "employee": ("劳动者", "员工", "雇员", "employee"),
    "transferor": ("转让方", "出让方", "transferor", "assignor"),
    "transferee": ("受让方", "transferee", "assignee"),
    "discloser": ("披露方", "disclosing party", "discloser"),
    "recipient": ("接收方", "receiving party", "recipient"),
    "licensor": ("许可方", "licensor"),
    "licensee": ("被许可方", "licensee"),
    "consultant": ("顾问", "承包人", "承包方", "consultant", "contractor"),
    "client": ("委托方", "委托人", "发包人", "发包方", "client"),
    "franchisor": ("特许人", "特许方", "franchisor"),
    "franchisee": ("被特许人", "被特许方", "加盟商", "加盟方", "受许人", "franchisee"),
}

# Kind of obligation → modal expressions (the prohibition forms are matched first).
MODALS: tuple[tuple[str, str], ...] = (
    ("prohibition", r"不得|禁止|无权|不可以|不能|shall\s+not|may\s+not|must\s+not|cannot|can\s*not|is\s+not\s+(?:permitted|allowed|entitled)|will\s+not"),
    ("permission", r"有权|可以|may|is\s+entitled\s+to|has\s+the\s+right\s+to|is\s+permitted\s+to|can"),
    ("duty", r"应当|(?<![相供对适反响答回效])应|须|必须|负责|shall|must|agrees?\s+to|is\s+required\s+to|will|is\s+obliged\s+to|undertakes?\s+to"),
)  # fmt: skip
_MODAL_RE = re.compile("|".join(f"(?P<{k}>{rx})" for k, rx in MODALS), re.I)
_EN_WORDLIKE = re.compile(r"[a-z]")


@dataclass(frozen=True)
class Obligation:
    """A modal bound to the party written just before it ("乙方应当" → (party_b, duty))."""

    role: str
    kind: str


def _form_re(form: str) -> str:
    """An English form as a whole word; a Chinese form as written."""
    return rf"\b{re.escape(form)}s?\b" if _EN_WORDLIKE.search(form) else re.escape(form)


_ROLE_RES: dict[str, re.Pattern[str]] = {
    role: re.compile("|".join(_form_re(f) for f in sorted(forms, key=len, reverse=True)), re.I)
    for role, forms in PARTY_ROLES.items()
}


def role_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, role) of every party mention; "被许可方" is not also read as "许可方"."""
    spans: list[tuple[int, int, str]] = []
    for role, rx in _ROLE_RES.items():
        spans += [(m.start(), m.end(), role) for m in rx.finditer(text)]
    spans.sort(key=lambda s: (s[0], -(s[1] - s[0])))
    out: list[tuple[int, int, str]] = []
    for s in spans:
        if not out or s[0] >= out[-1][1]:
            out.append(s)
    return out


def parties(text: str) -> set[str]:
    """The party roles a text names."""
    return {role for _, _, role in role_spans(text)}


def obligations(text: str) -> set[Obligation]:
    """Obligations with the party bearing each: the last party named within ``PARTY_WINDOW`` before the modal."""
    roles = role_spans(text)
    out: set[Obligation] = set()
    for m in _MODAL_RE.finditer(text):
        kind = m.lastgroup or ""
        before = [r for r in roles if r[1] <= m.start() and m.start() - r[1] <= PARTY_WINDOW]
        if before:
            out.add(Obligation(before[-1][2], kind))
    return out


GENERIC_ROLES: tuple[str, ...] = ("party_a", "party_b", "party_c")
"""Roles that name a party by its letter (甲方, 乙方, 丙方); a contract says once which role each is."""

_NAMED_FORMS = "|".join(
    re.escape(f)
    for role, forms in PARTY_ROLES.items()
    if role not in GENERIC_ROLES
    for f in sorted(forms, key=len, reverse=True)
    if not _EN_WORDLIKE.search(f)
)
_GENERIC_FORMS = "|".join(re.escape(f) for r in GENERIC_ROLES for f in PARTY_ROLES[r])
_ALIAS_RES: tuple[re.Pattern[str], ...] = (
    re.compile(
        rf"(?P<named>{_NAMED_FORMS})\s*[（(]\s*(?:以下简称|以下称|下称|简称)?\s*[“\"]?(?P<generic>{_GENERIC_FORMS})"
    ),
    re.compile(rf"(?P<generic>{_GENERIC_FORMS})\s*[（(]\s*(?P<named>{_NAMED_FORMS})\s*[)）]"),
)
""""出租方（甲方）", "承租人（以下简称“乙方”）", "甲方（出租方）": a contract's definition of its letter parties."""

Aliases = frozenset[tuple[str, str]]
"""(letter role, named role) pairs a document defines, e.g. ("party_b", "lessee")."""


def party_aliases(document: str) -> Aliases:
    """Which named role each letter party is, as the document defines it.

    Why: the support check rejected "the tenant (乙方) must pay a penalty for each day the rent is
    overdue" against "乙方逾期支付租金的，每逾期一日，应…支付违约金" with "fact(s) not in the cited evidence:
    party lessee", because the late-payment clause calls the tenant 乙方 and only the lease's heading
    says "承租方（乙方）"; every English answer about a Chinese contract fell back to the quotes."""
    out: set[tuple[str, str]] = set()
    for rx in _ALIAS_RES:
        for m in rx.finditer(document):
            named, generic = role_spans(m["named"]), role_spans(m["generic"])
            if named and generic:
                out.add((generic[0][2], named[0][2]))
    return frozenset(out)


def _with_aliases(roles: set[str], aliases: Aliases) -> set[str]:
    """The roles plus each one's alias (乙方 → lessee, lessee → 乙方) where the document defines it."""
    return roles | {b for a, b in aliases if a in roles} | {a for a, b in aliases if b in roles}


_CLAUSE_NUMBER = re.compile(
    r"^\s*(?:\d+(?:\.\d+)*\.?|\(?[0-9A-Za-z]{1,3}[.)]|第[一二三四五六七八九十百零〇两\d]+[条款项])\s*"
)
_EN_SUBJECT_LEAD = re.compile(r"^(?:the\s+)?$", re.I)
_EN_ASKED_SUBJECT = re.compile(
    r"^(?:(?:when|how|why|where|what|which|within\s+what|in\s+what|under\s+what)(?:\s+[a-z]+)?\s+)?"
    r"(?:can|may|must|shall|should|does|do|is|are|will|would|could|has|have)\s+(?:the\s+)?$",
    re.I,
)
_ZH_ASKED_LEAD = re.compile(r"^(?:请问)?$")
_POSSESSIVE = re.compile(r"^['’]s?\b")
""""the employee's salary": the party owns the thing asked about, it does not act."""


_CLAUSE_BREAK = re.compile(r"[，,；;：:]\s*")
ACTOR_LEAD_CHARS = 60
"""Characters at the start of a question or clause read for its acting party: "Under what circumstances may the
Franchisor" is 42; a party named later is an object or a condition's, not the subject."""


def sentence_actors(sentence: str) -> frozenset[str]:
    """The roles of the parties the sentence's clauses open with, its acting parties ("6.1 Franchisor may
    terminate …" → franchisor; "甲方实行标准工时制度，乙方每日工作8小时" → party_a and party_b); none for a party only
    addressed ("…向乙方支付违约金") or in a condition ("If Franchisee fails …"), or "Either party may …"."""
    text = _CLAUSE_NUMBER.sub("", sentence, count=1)
    out: set[str] = set()
    for part in (text, *(text[m.end() :] for m in _CLAUSE_BREAK.finditer(text))):
        spans = role_spans(part[:ACTOR_LEAD_CHARS])
        if spans and _EN_SUBJECT_LEAD.match(part[: spans[0][0]]):
            out.add(spans[0][2])
    return frozenset(out)


def asked_actor(question: str) -> str:
    """The role of the party a question makes its subject ("乙方逾期交付的违约金怎么计算？" → party_b, "Can the
    provider raise prices?" → seller); "" when it names none there. A party in a condition is no subject
    ("What happens if the franchisee doesn't pay?" asks what the franchisor may do), nor an owner ("What is the
    employee's annual salary?")."""
    text = question.strip()
    spans = role_spans(text[:ACTOR_LEAD_CHARS])
    if not spans:
        return ""
    lead, after = text[: spans[0][0]], text[spans[0][1] :]
    ok = _EN_ASKED_SUBJECT.match(lead) or _EN_SUBJECT_LEAD.match(lead) or _ZH_ASKED_LEAD.match(lead)
    return spans[0][2] if ok and not _POSSESSIVE.match(after) else ""


def same_actor(asked: str, actor: str, aliases: Aliases = frozenset()) -> bool:
    """Whether ``actor`` is the ``asked`` party: the same role, or its alias by the contract's ``aliases``."""
    return bool(asked and actor and _with_aliases({asked}, aliases) & _with_aliases({actor}, aliases))


def other_actor(asked: str, actor: str, aliases: Aliases = frozenset()) -> bool:
    """Whether ``actor`` is known to be another party than ``asked``: not the same role, nor its alias, and
    comparable (both letter parties, both named roles, or one resolved to the other's kind by ``aliases``):
    甲方 is not known to differ from 承包人 unless the contract says who 乙方 is."""
    if not asked or not actor or same_actor(asked, actor, aliases):
        return False
    mine, theirs = _with_aliases({asked}, aliases), _with_aliases({actor}, aliases)
    generic = set(GENERIC_ROLES)
    return bool((mine & generic and theirs & generic) or (mine - generic and theirs - generic))


def missing_roles(sentence: str, evidence: str, aliases: Aliases = frozenset(), asked: str = "") -> list[str]:
    """The parties and obligations of ``sentence`` that ``evidence`` does not state (numbers are
    ``support.missing_numbers``' job), as short readable notes; ``aliases`` (``party_aliases`` of the
    cited documents) let a letter party stand for the role the document gives it.

    A party the question (``asked``) names is the question's subject, not an invention, unless the
    sentence binds an obligation to it. Why (try-out, session 31): "员工的试用期是多久？" over an English
    employment agreement ("The first six (6) months of employment are a probationary period") had its
    answer "员工的试用期为6个月" rejected for naming the employee, and the lawyer got quotes instead."""
    ev_parties = _with_aliases(parties(evidence), aliases)
    bound = {ob.role for ob in obligations(sentence)}
    subjects = parties(asked) - bound if asked else set()
    notes = [f"party {role}" for role in sorted(parties(sentence) - ev_parties - subjects)]
    ev_obligations = {
        Obligation(role, ob.kind)
        for ob in obligations(evidence)
        for role in _with_aliases({ob.role}, aliases)
    }
    for ob in sorted(obligations(sentence), key=lambda o: (o.role, o.kind)):
        if ob.role in ev_parties and ob not in ev_obligations:
            notes.append(f"{ob.kind} of {ob.role}")
    return notes


_PERMISSION_ASK = re.compile(
    r"^\s*(?:can|may|could|is|are|does|do|has|have)\b.*\b(?:can|may|could|allowed|permitted|entitled|right)\b"
    r"|^\s*(?:can|may|could)\b|可以|能否|能不能|可否|是否有权|有权|有没有权|能.{0,12}吗",
    re.I,
)
"""A question whether a party may do something ("Can the tenant terminate the lease early?", "乙方可以转租吗？")."""

_DENIAL = re.compile(
    r"\b(?:no|not|cannot|can't|may not|must not|shall not|isn't|is not|doesn't|does not|neither|nor|only if|"
    r"unless|without|only|subject to|provided|consent)\b|不得|不能|不可以|不可|无权|不允许|未经|禁止|没有|不是|不行|"
    r"除非|须经|需经|只有|同意",
    re.I,
)
"""What keeps an answer's opening from being a plain yes: a denial or a condition."""

_GRANT = re.compile(
    r"^\W*(?:yes\b|是的|可以|对[，,。]|有权)|\b(?:is|are) (?:allowed|permitted|entitled)\b|\bcan\b|\bmay\b|\bhas the right\b"
    r"|可以|有权",
    re.I,
)
"""An opening that grants the asked permission ("Yes, …", "This is allowed", "The tenant can …", "乙方可以…")."""


def unbacked_permission(question: str, answer: str, blocks: Sequence[tuple[str, Aliases]]) -> str:
    """The role whose permission the answer's opening grants, when the question asks whether that
    party may do something and no block (text, its document's ``party_aliases``) gives that party
    any permission; "" otherwise.

    Why: "Can the tenant terminate the lease early?" over a lease whose only termination rights are
    the landlord's ("乙方擅自转租的，甲方有权解除本合同") was answered by the local model "This is allowed
    under clause of the contract, which states that …" — the quote was right, the yes was invented,
    and no sentence held a party the support check could test. A yes to a permission question needs
    the asked party's permission in the evidence; a conditioned or negative opening is left alone."""
    from rag_core.reflection.support import split_sentences

    asked = role_spans(question)
    if not asked or not _PERMISSION_ASK.search(question):
        return ""
    first = next(iter(split_sentences(answer)), "")
    if not _GRANT.search(first) or _DENIAL.search(first):
        return ""
    actor = asked[0][2]
    every: Aliases = frozenset().union(*(a for _, a in blocks))
    named = parties(first)
    if named and actor not in _with_aliases(named, every):
        return ""  # the opening speaks of another party ("The landlord can terminate …"): no yes to this one
    for text, aliases in blocks:
        granted = {ob.role for ob in obligations(text) if ob.kind == "permission"}
        if actor in _with_aliases(granted, aliases):
            return ""
    return actor


_NAMED_CLAUSE = (
    re.compile(
        r"\b(?:contains?|includes?|has|have|provides? for|sets? out)\s+(?:an?|the|any)?\s*"
        r"(?P<name>[a-z][a-z -]{1,40}?)\s+(?:clause|provision|section|covenant)s?\b",
        re.I,
    ),
    re.compile(
        r"(?:有|包含|含有|载有|约定了?|规定了?|设有|订有)(?:关于)?(?P<name>[\u4e00-\u9fff]{2,10}?)(?:条款|的约定|的规定)"
    ),
)
"""An answer sentence saying the contract has a clause of a named kind ("contains a force majeure
clause", "合同约定了不可抗力条款"); the name is a fact the cited evidence must state."""


def missing_named_clauses(sentence: str, evidence: str, min_share: float) -> list[str]:
    """Clause kinds the sentence says the contract has whose names the evidence does not contain
    (fewer than ``min_share`` of the name's content words: ``reflection.named_clause_min_share``).

    Why: "The consulting agreement contains a force majeure clause [1]", citing the amendment
    clause, passed the support check as "partially" supported on the words "agreement" and
    "contains"; what it asserts is the force majeure clause, which the block never mentions.
    """
    from rag_core.reflection.support import content_tokens

    have = content_tokens(evidence)
    notes: list[str] = []
    for rx in _NAMED_CLAUSE:
        for m in rx.finditer(sentence):
            name = m.group("name").strip()
            words = content_tokens(name)
            if words and len(words & have) / len(words) < min_share:
                notes.append(f"clause '{name}'")
    return notes


FORUMS: dict[str, re.Pattern[str]] = {
    "arbitration": re.compile(r"仲裁|\barbitra\w*", re.I),
    "court": re.compile(r"法院|诉讼|起诉|\bcourts?\b|\blitigat\w*|\blawsuits?\b|\bsue\b", re.I),
    "negotiation": re.compile(r"协商|\bnegotiat\w*", re.I),
    "mediation": re.compile(r"调解|\bmediat\w*", re.I),
}
"""Where or how a dispute is decided, in either language. Arbitration and the courts exclude each other
under a valid arbitration clause, so naming the wrong one is a wrong answer, not a paraphrase; a first
step of negotiation or mediation is one only where the clause provides it (session 32: "经销协议中，争议
解决方式是双方协商解决" stood, uncited, beside a distribution agreement that sends disputes to SIAC)."""


def missing_forums(sentence: str, evidence: str) -> list[str]:
    """Forums (``FORUMS``) the sentence names that the evidence never does.

    Why: asked "发生争议怎么解决？" of a lease whose clause sends disputes to the court where the flat is,
    the local model added "如果协商不成，可以考虑向有关争议仲裁机构申请仲裁，或者向人民法院提起诉讼" and the support
    check let it pass on the words it shares with the clause (browser try-out)."""
    return [f"forum {name}" for name, rx in FORUMS.items() if rx.search(sentence) and not rx.search(evidence)]


_EN_OFFSET = re.compile(
    r"\b(?:within|no later than|not later than)\s+[^.;]{1,40}?\b(?:days?|weeks?|months?|years?)\s+"
    r"(?:after|following|from)\s+(?:the\s+)?(?P<event>[A-Z][A-Za-z]+(?:\s+[A-Z][A-Za-z]+){0,3})"
)
"""A deadline counted from a named event ("within thirty (30) days after the Effective Date")."""
_ZH_OFFSET = re.compile(r"(?P<event>[\u4e00-\u9fff]{2,8}?)之日起[^。；，,]{1,12}?[日天月年]内")
"""A Chinese deadline counted from an event (生效之日起三十日内)."""
_COUNTED = re.compile(r"\b(?:within|after|following|no later than|days?|months?)\b|日内|天内|之日起", re.I)
"""A sentence that still counts a period (from the event or at all): it has not dropped the deadline."""
ZH_EVENT_CHARS: int = 4
"""Characters before 之日起 read as the Chinese event (协议生效 of 本协议生效之日起): the regex's match
starts at the clause's subject, and the event's own words are its last few characters."""


def dropped_deadlines(sentence: str, evidence: str) -> list[str]:
    """Deadlines the evidence counts from an event that the sentence moves onto the event itself.

    Why: for "within thirty (30) days after the Effective Date" the local model wrote "The license fee
    is due on the Effective Date and each anniversary thereof [1]" and the check passed it: no number
    to miss, every word in the clause (browser try-out). A sentence that puts something *on* (upon, at)
    the event, or 于…之日, and says nothing of a period after it, has changed the deadline."""
    out: list[str] = []
    low = sentence.lower()
    if _COUNTED.search(sentence):
        return out
    for m in _EN_OFFSET.finditer(evidence):
        event = m.group("event").lower()
        if re.search(rf"\b(?:on|upon|at)\s+(?:the\s+)?{re.escape(event)}\b", low):
            out.append(f"deadline {' '.join(m.group(0).split())}")
    for m in _ZH_OFFSET.finditer(evidence):
        event = m.group("event")[-ZH_EVENT_CHARS:]
        if f"{event}之日" in sentence or f"{event}时" in sentence or f"{event}当日" in sentence:
            out.append(f"deadline {event}{m.group(0)[len(m.group('event')) :]}")
    return list(dict.fromkeys(out))


_PERCENT = r"\d+(?:\.\d+)?\s*%|百分之[零一二两三四五六七八九十百点]+|\d+(?:\.\d+)?\s*percent"
_ZH_IS_SHARE = re.compile(rf"(?:是|为|等于|系)\s*(?P<share>{_PERCENT})")
_EN_IS_SHARE = re.compile(rf"\b(?:is|are|equals?|amounts? to)\s+(?P<share>{_PERCENT})", re.I)
SUBJECT_CHARS: tuple[int, ...] = (2, 3, 4, 5)
"""Lengths of the Chinese subject read before 是/为 (总价款 of 技术开发合同的总价款是30%): every length
is tried, since the subject's first character is unknown."""


def fractions_as_wholes(sentence: str, evidence: str) -> list[str]:
    """Shares the evidence takes *of* a subject that the sentence gives *as* the subject's value.

    Why (try-out, session 32): for "技术开发合同的总价款是多少？分几期支付？" the local model answered
    "技术开发合同的总价款是30% [2]" from "支付合同总价款的30%作为首付款" (the price is ¥1,800,000), and the
    check passed it: 30% is in the clause, and so is every word. A sum is never a share of itself;
    "S的30%" / "30% of the S" in the evidence and "S是30%" / "the S is 30%" in the answer is a misread."""
    out: list[str] = []
    for m in _ZH_IS_SHARE.finditer(sentence):
        share = re.sub(r"\s+", "", m.group("share"))
        before = sentence[: m.start()]
        for n in reversed(SUBJECT_CHARS):  # the longest subject the evidence holds
            subject = before[-n:]
            if (
                len(subject) == n
                and re.fullmatch(r"[\u4e00-\u9fff]+", subject)
                and f"{subject}的{share}" in evidence
            ):
                out.append(f"share {share} of {subject}")
                break
    low_evidence = " ".join(evidence.lower().split())
    for m in _EN_IS_SHARE.finditer(sentence):
        share = " ".join(m.group("share").lower().split())
        words = re.findall(r"[a-z]+", sentence[: m.start()].lower())[-3:]
        for k in range(len(words)):
            subject = " ".join(words[k:])
            if re.search(
                rf"{re.escape(share)}\s+of\s+(?:the\s+|its\s+)?{re.escape(subject)}\b", low_evidence
            ):
                out.append(f"share {share} of {subject}")
                break
    return list(dict.fromkeys(out))


_CLAUSE_SEGMENT = re.compile(r"[^。；;！？!?\n]+")
"""A sentence or a semicolon-clause of the evidence: what states one value beside another."""
PAIRED_KINDS: frozenset[str] = frozenset({"amount", "percent", "period", "date"})
"""Kinds of value an answer pairs with one another ("within 5 days, 30 %")."""


_ANSWER_CLAUSE_BREAK = re.compile(r"[，,；;]")


def _partner(v: Value, others: Sequence[Value], sentence: str) -> Value:
    """The value of ``others`` the sentence states with ``v``: one in its comma-clause, else the nearest."""
    breaks = [m.start() for m in _ANSWER_CLAUSE_BREAK.finditer(sentence)]
    start = max((b for b in breaks if b < v.start), default=-1)
    end = min((b for b in breaks if b >= v.end), default=len(sentence))
    own = [o for o in others if start < o.start and o.end <= end]
    return min(own or others, key=lambda o: abs((o.start + o.end) - (v.start + v.end)))


def crossed_pairings(sentence: str, evidence: str) -> list[str]:
    """Values the sentence states together that the evidence keeps apart: the evidence's clause holding
    one of them gives another value of the other's kind, and the other stands in another clause.

    Why (browser try-out, session 36): from "3.2 合同签订后5个工作日内，甲方支付总价款的30%；验收合格后10个工作日内，
    甲方支付剩余70%。" the local model wrote "合同签订后5个工作日内，甲方支付剩余70% [2]", and the check passed it: 5 个
    工作日 and 70% are both in the clause, and so is every word. The clause pays 30% within those 5 days. Each value
    is read with the value of the other kind in its own comma-clause of the sentence (else the nearest), so a
    sentence listing both instalments rightly ("5个工作日内支付30%，验收后10个工作日内支付70%") pairs them as the
    clause does."""
    from rag_core.judge.conflict import extract_values, same_value
    from rag_core.judge.sentences import unwrapped

    mine = [v for v in extract_values(sentence) if v.kind in PAIRED_KINDS]
    if len(mine) < 2:
        return []
    segments = [
        [v for v in extract_values(seg) if v.kind in PAIRED_KINDS]
        for seg in _CLAUSE_SEGMENT.findall(unwrapped(evidence))
    ]
    out: list[str] = []
    seen: set[frozenset[int]] = set()
    for a in mine:
        holding = [seg for seg in segments if any(same_value(a, x) for x in seg)]
        for kind in {v.kind for v in mine} - {a.kind}:
            b = _partner(a, [v for v in mine if v.kind == kind], sentence)
            stated = any(any(same_value(b, x) for x in seg) for seg in segments)
            together = any(any(same_value(b, x) for x in seg) for seg in holding)
            other = any(any(x.kind == kind for x in seg) for seg in holding)
            pair = frozenset({id(a), id(b)})
            if holding and stated and other and not together and pair not in seen:
                seen.add(pair)
                out.append(f"{a.describe()} with {b.describe()}")
    return out


MANNER_WORDS: tuple[str, ...] = ("逾期", "迟延", "延迟", "延期", "提前", "擅自", "单方", "无故")
"""Words that turn an act into another breach or right (逾期交付 is not 交付, 提前解除 not 解除): a question's act
with one of them is asked as a whole."""

NEAR_CHARS: int = 4
"""Characters that may stand between a manner word and its act within one clause ("逾期未交付", "交付逾期")."""

_PHRASE_CLAUSE = re.compile(r"[^。；;！？!?\n，,]+")
"""A comma-clause: a manner and its act are written within one."""

ACTOR_GAP_CHARS: int = 3
"""Characters that may stand between a party and the act it performs ("乙方如逾期交付")."""

_LONGEST_ROLE_CHARS: int = max(len(f) for forms in PARTY_ROLES.values() for f in forms)
"""How far back a party's name may start, besides the gap."""


def _actor_before(text: str, start: int) -> str:
    """The role of the party named just before ``start`` (within ``ACTOR_GAP_CHARS``, no mark between); "" if none."""
    lead = text[max(0, start - ACTOR_GAP_CHARS - _LONGEST_ROLE_CHARS) : start]
    spans = role_spans(lead)
    if not spans or len(lead) - spans[-1][1] > ACTOR_GAP_CHARS or re.search(r"\W", lead[spans[-1][1] :]):
        return ""
    return spans[-1][2]


def _bound_actors(word: str, acts: Sequence[str], text: str) -> list[str]:
    """For each place where ``word`` and one of ``acts`` stand within ``NEAR_CHARS`` of each other, in either order,
    in one clause: the role of the party named just before it ("" when none, as in a heading)."""
    out: list[str] = []
    for clause in _PHRASE_CLAUSE.findall(text):
        for m in re.finditer(re.escape(word), clause):
            for act in acts:
                for a in re.finditer(re.escape(act), clause):
                    gap = a.start() - m.end() if a.start() >= m.end() else m.start() - a.end()
                    if 0 <= gap <= NEAR_CHARS:
                        out.append(_actor_before(clause, min(m.start(), a.start())))
    return out


def crossed_acts(sentence: str, evidence: str, question: str, aliases: Aliases = frozenset()) -> list[str]:
    """The question's acts with a manner ("逾期交付") that the sentence states a value for, where the evidence
    holds the manner and the act (or a glossary sibling of it) only apart, or binds them only to another party
    than the one the sentence names: it says what follows from another act, or another party's.

    Why (browser try-out, session 43): asked "乙方逾期交付的违约金怎么计算？", with the development contract's clause
    withheld for a planted sentence, the local model wrote "乙方逾期交付的违约金是按当季租金的千分之五计算的 [2]" from a
    lease whose clause reads "乙方逾期支付租金的，每逾期一日，应按当季租金的千分之五…；甲方未按约定交付房屋的…". The
    number, the party and every word were in the block, so the check passed it; the block's 逾期 is the rent's and its
    交付 the landlord's. Likewise "甲方逾期付款需要支付…" from "第七条 逾期付款 乙方逾期支付租金…" (session 44). Chinese
    only: English word order lets a manner stand anywhere in the clause."""
    from rag_core.judge.conflict import extract_values
    from rag_core.judge.glossary import siblings
    from rag_core.judge.sentences import unwrapped
    from rag_core.textproc import word_spans

    if not any(v.kind in PAIRED_KINDS for v in extract_values(sentence)):
        return []
    words = [question[s:e] for s, e in word_spans(question) if question[s:e].strip()]
    text = unwrapped(evidence)
    out: list[str] = []
    for word, act in pairwise(words):
        phrase = word + act
        if word not in MANNER_WORDS or len(act) < 2 or not re.fullmatch(r"[\u4e00-\u9fff]+", act):
            continue
        at = sentence.find(phrase)
        acts = (act, *siblings(act))
        if at < 0 or word not in text or not any(a in text for a in acts):
            continue
        bound = _bound_actors(word, acts, text)
        mine = _actor_before(sentence, at)
        actors = {a for a in bound if a}
        if not bound:
            out.append(phrase)
        elif (
            mine
            and not any(same_actor(mine, a, aliases) for a in actors)
            and any(other_actor(mine, a, aliases) for a in actors)
        ):
            out.append(f"{phrase} of {mine}")
    return out


_WORKING_DAYS = re.compile(r"工作日|\b(?:business|working|banking)\s+days?\b", re.IGNORECASE)
"""A period counted in working days rather than calendar days."""


def other_day_counts(sentence: str, evidence: str) -> list[str]:
    """Periods the sentence counts in working days where the evidence counts the same number in calendar days, or
    the reverse (the values compare equal, the days they count do not).

    Why (try-out, session 38): from "甲方应于本合同签订后十个工作日内支付…；系统通过验收后十五日内支付60%" the local model wrote
    "质保期是合同签订后十五个工作日内 [1]", and the check passed it as fully supported: 十五 and every word are in the
    clause. No period of fifteen working days is."""
    from rag_core.judge.conflict import extract_values, same_value

    stated = [v for v in extract_values(evidence) if v.kind == "period"]
    out: list[str] = []
    for v in extract_values(sentence):
        if v.kind != "period":
            continue
        same = [w for w in stated if same_value(v, w)]
        working = bool(_WORKING_DAYS.search(v.surface))
        if same and all(bool(_WORKING_DAYS.search(w.surface)) != working for w in same):
            out.append(v.describe())
    return out


def condition_numbers(question: str) -> set[str]:
    """Every reading of the numbers inside the question's conditions ("if uptime is 98%" → 98): a case the lawyer put,
    which an answer may restate though no clause holds it."""
    from rag_core.judge.conflict import conditional_spans
    from rag_core.judge.values import normalize_text
    from rag_core.reflection.support import numbers_in

    norm = normalize_text(question)
    return set().union(*(f for a, b in conditional_spans(norm) for f in numbers_in(norm[a:b], strict=False)))


def crossed_bands(sentence: str, evidence: str, question: str) -> list[str]:
    """Numbers the sentence takes from a tier of a table in the evidence other than the one the question's condition
    falls in (``table_lookup.banded_row``), and not from that tier's row.

    Why (session 45 try-out): for "What service credit applies if uptime is 98%?" the local model answered "… is
    10%" from the service-level table, whose 98 % falls in "95.0% to below 99.0% | 25"; 10 is in the table, so the
    value check passed it (it failed only on restating 98, which the question put)."""
    from rag_core.generation.table_lookup import banded_table
    from rag_core.reflection.support import numbers_in

    lines = evidence.split("\n")
    found = banded_table(question, lines)
    if found is None:
        return []
    rows, at = found
    right: set[str] = set().union(*numbers_in(lines[rows[at]], strict=False))
    others: set[str] = set().union(
        *(f for j, i in enumerate(rows) if j != at for f in numbers_in(lines[i], strict=False))
    )
    asked = condition_numbers(question)
    return [min(f) for f in numbers_in(sentence, strict=True) if f & others and not f & (right | asked)]


def shortened_definitions(sentence: str, evidence: str) -> list[str]:
    """The items of a defined list ("Territory" means Singapore, Malaysia and Indonesia) that a sentence
    restating the term's meaning leaves out, when it names some of them.

    Why (browser try-out, session 32): "What is the territory under the distribution agreement?" was
    answered "The territory under the distribution agreement is Singapore [1]." and the check passed
    it: every word is in the clause. A lawyer reads a defined territory, product list or party group
    as complete; one item of three is a different territory."""
    low = sentence.lower()
    if _quoted_verbatim(sentence, evidence):
        return []  # a clause quoted as it stands restates nothing (the quoted answer's own lines)
    out: list[str] = []
    for d in definitions(evidence):
        items = list_items(d.body)
        said = _RESTATES[bool(re.search(r"[\u4e00-\u9fff]", d.term))]
        m = re.search(rf"{re.escape(d.term)}{said}", low) if items else None
        if m is None:
            continue
        rest = low[m.end() :]
        held = [i for i in items if i.lower() in rest]
        if held and len(held) < len(items):
            out.append(f"definition of {d.term} also lists {', '.join(i for i in items if i not in held)}")
    return out


_RESTATES: dict[bool, str] = {
    False: r"[^.;]{0,60}?\b(?:is|are|means|covers|includes|consists of)\b",
    True: r"[^。；]{0,20}?(?:为|是|指|包括)",
}
"""What makes a sentence restate a term's meaning after naming it, for an English and a Chinese term: "The
territory under the distribution agreement is …", "区域为…" — not a clause that only uses the term ("Licensor
hereby grants Licensed Users a … license": the refusal bench's quoted grant was flagged before this)."""


def _quoted_verbatim(sentence: str, evidence: str) -> bool:
    """The sentence, without its quotation marks and citation numbers, stands in the evidence as written."""
    bare = re.sub(r"\s*\[\d+\]", "", sentence).strip().strip("“”\"'")
    return len(bare) > 0 and " ".join(bare.split()) in " ".join(evidence.split())


EN_LEGAL_FORMS = (
    r"Inc|LLC|L\.L\.C|Ltd|Limited|Corporation|Corp|Company|Co|GmbH|PLC|LLP|LP|AG|S\.A|N\.V|B\.V|Pte|Group"
)
"""The legal forms that end an English company's name (a regex alternation)."""
_EN_NAME = re.compile(rf"\b(?:[A-Z][\w&'.-]*,?\s+){{1,6}}(?:{EN_LEGAL_FORMS})\b\.?")
_ZH_FORMS = r"有限责任公司|股份有限公司|有限公司|合伙企业|事务所"
"""The legal forms that end a Chinese company's name (a regex alternation)."""
_ZH_NAME = re.compile(rf"[\u4e00-\u9fff]{{2,30}}?(?:{_ZH_FORMS})")
_NOT_NAME_WORDS = frozenset(
    "the this that such each either any our your its a an said other another same".split()
)
"""Capitalised words that open a sentence or a defined term, not a name ("The Company shall …")."""
MIN_NAME_SUFFIX_CHARS: int = 4
"""Characters of a Chinese name before its legal form that must be found together in the evidence."""


def squash_name(text: str) -> str:
    """Lower-case letters, digits and CJK only: "Northwind Software, Inc." ~ "northwind software inc"."""
    return re.sub(r"[^0-9a-z\u4e00-\u9fff]+", " ", text.lower()).strip()


def _en_name_held(name: str, evidence: str) -> bool:
    """Some tail of the name, from a real name word on, is in the evidence ("The Licensee Bluefield
    Analytics LLC" is held by "Bluefield Analytics LLC")."""
    words = squash_name(name).split()
    tails = [" ".join(words[i:]) for i in range(len(words) - 1) if words[i] not in _NOT_NAME_WORDS]
    return not tails or any(f" {t} " in f" {evidence} " for t in tails)


def _zh_name_held(name: str, evidence: str) -> bool:
    """Some tail of the name holding ``MIN_NAME_SUFFIX_CHARS`` characters before its legal form is in
    the evidence (the regex's match may start with the words before the name: "转让方为上海明远…")."""
    form = re.search(rf"(?:{_ZH_FORMS})$", name)
    head = name[: form.start()] if form else name
    return any(name[i:] in evidence for i in range(0, max(len(head) - MIN_NAME_SUFFIX_CHARS, 0) + 1))


def missing_names(sentence: str, evidence: str) -> list[str]:
    """Company names the sentence writes that the evidence does not: an English name with its legal
    form ("Shanghai Mingyuan Investment Company") or a Chinese one (…有限公司). An English rendering
    beside the Chinese name the evidence holds is the lawyer's own check, not an invention.

    Why: the local model answered "Who are the parties to the share transfer agreement?" with
    "Shanghai Mingyuan Investment Company (甲方)" for 上海明远投资有限公司 (browser try-out): a name
    no document states, and a party's name is what the lawyer copies into a letter."""
    written = _ZH_NAME.findall(sentence)
    zh = [n for n in written if not _zh_name_held(n, evidence)]
    squashed = squash_name(evidence)
    en = [] if len(zh) < len(written) else [m.group().strip() for m in _EN_NAME.finditer(sentence)]
    return zh + [n for n in en if not _en_name_held(n, squashed)]


def without_invented(answer: str, unsupported: list[str]) -> str:
    """``answer`` without the sentences listed (verbatim pieces of it) — those whose key facts the
    cited evidence does not state — each with the space or line break before it; the rest keeps its layout.

    Why (session 43 try-out): a quoted answer, one quote per line, lost a line and came out as one run-on
    line, the sentences having been rejoined without their line breaks. A lead-in whose items were all cut goes
    too (``orphaned_lead_ins``): the browser showed "乙方逾期交付的违约金计算方式如下：" over nothing."""
    from rag_core.reflection.support import map_sentences, split_sentences

    drop = set(unsupported)
    drop |= orphaned_lead_ins(split_sentences(answer), drop)
    return map_sentences(answer, lambda s: "" if s in drop else s, drop_gap=True).strip()


def orphaned_lead_ins(sentences: Sequence[str], dropped: set[str]) -> set[str]:
    """The sentences ending in a colon ("计算方式如下：", "as follows:") whose next sentence is dropped and after which
    no list item is left: they announce what is no longer there."""
    from rag_core.reflection.support import LIST_MARKER

    out: set[str] = set()
    for i, sentence in enumerate(sentences):
        if sentence in dropped or not sentence.rstrip().endswith((":", "：")):
            continue
        if i + 1 >= len(sentences) or sentences[i + 1] not in dropped:
            continue
        following = next((t for t in sentences[i + 1 :] if t not in dropped), "")
        if not LIST_MARKER.match(following):
            out.add(sentence)
    return out


_CITATION_MARK = re.compile(r"\s*\[\d+\]")


def without_repeats(answer: str) -> str:
    """``answer`` with each sentence that repeats an earlier one (citation marks and spacing aside) removed, together
    with the space or line break before it.

    Why (session 41 browser): a redone draft of the local model repeated "The Processor shall notify the Controller of
    a personal data breach … within forty-eight (48) hours …" thirteen times until its token limit; every copy was
    supported, so the answer shown was the same clause over and over."""
    from rag_core.reflection.support import map_sentences

    seen: set[str] = set()

    def once(sentence: str) -> str:
        key = " ".join(_CITATION_MARK.sub("", sentence).split())
        if key and key in seen:
            return ""
        seen.add(key)
        return sentence

    return map_sentences(answer, once, drop_gap=True)
