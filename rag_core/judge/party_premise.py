"""A premise about who a party is, against the party lines of a passage.

Why (issue 10, "does the passage contradict the question's premise"): "Is the licensee Northwind
Software Inc.?" over a licence naming Northwind as "Licensor" and Bluefield Analytics LLC as
"Licensee", or "出租方是李明吗？" over "出租方（甲方）：北京华信置业有限公司 / 承租方（乙方）：李明", came out with
no conflict: the value check (``conflict``) finds the asked name *in* the passage and counts it
supported, whatever role the passage gives it. A lawyer reads a party line as a binding of a role to
a name; the premise binds the role to another name.

What counts: the question states "the <role> is <name>" (English: "Is the licensee X?", "Is X the
licensee?", "The licensee is X, right?"; Chinese: "出租方是X吗？", "出租方是X，对吗？"), and the passage
binds the same role (``facts.PARTY_ROLES``: 房东 = 出租方 = landlord) to a name that neither holds nor
is held by the asked one, and binds it to the asked name nowhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from rag_core.coded import coded
from rag_core.judge.values import normalize_text
from rag_core.reflection.facts import EN_LEGAL_FORMS, PARTY_ROLES, squash_name
from rag_core.textproc import ASKING

PARTY_CONFLICT_SCORE: float = 0.9
"""The conflict score of a passage binding the asked role to another name: as strong as a different
amount anchored by the question's words (the value check's best), above ``t_conflict``."""


@lru_cache(maxsize=1)
def _forms() -> dict[str, str]:
    """Surface form (lower-cased) → role key, longest forms first in iteration order."""
    pairs = [(form.lower(), role) for role, forms in PARTY_ROLES.items() for form in forms]
    return dict(sorted(pairs, key=lambda p: -len(p[0])))


def _alternation() -> str:
    return "|".join(re.escape(f) for f in _forms())


@lru_cache(maxsize=1)
def _premise_res() -> tuple[re.Pattern[str], ...]:
    roles = _alternation()
    end = r"[\s,，]*(?:right|correct|isn'?t\s+it|is\s+that\s+(?:right|correct))?\s*\?\s*$"
    return (
        re.compile(rf"^\s*is\s+(?:the\s+)?(?P<role>{roles})\s+(?P<name>.+?)\s*\?\s*$", re.I),
        re.compile(rf"^\s*is\s+(?P<name>.+?)\s+the\s+(?P<role>{roles})\b[^?]*\?\s*$", re.I),
        re.compile(rf"^\s*the\s+(?P<role>{roles})\s+is\s+(?P<name>.+?){end}", re.I),
        re.compile(  # a confirmation is asked: "出租方是李明吗？", "出租方是李明，对吗？", not "出租方是哪家公司？"
            rf"^.{{0,12}}?(?P<role>{roles})(?:是|为)(?P<name>[^，,？?]{{2,40}}?)"
            r"(?:吗|吧|[，,]?(?:对吗|是吗|对不对|是不是|没错吧))[？?]?\s*$"
        ),
    )


@dataclass(frozen=True)
class Binding:
    """A role bound to a name by the question or a passage."""

    role: str  # a key of ``facts.PARTY_ROLES``
    name: str


_ZH_NAME_SHAPE = re.compile(
    r"^(?:[\u4e00-\u9fff]{2,4}|[\u4e00-\u9fff()（）]{2,30}(?:公司|企业|集团|事务所|银行|合伙企业(?:\(有限合伙\))?))$"
)
"""A Chinese name: a person's (two to four characters) or an organisation's (ending in its form)."""
_EN_NAME_SHAPE = re.compile(r"^[A-Z][\w&'.,-]*(?:\s+[A-Z0-9&][\w&'.,-]*){0,7}$")
"""An English name: capitalised words only ("Northwind Software Inc."), not "entitled to sublicense"."""


def _looks_like_name(name: str) -> bool:
    """A name's shape, and no question word in it ("哪家公司" asks for one)."""
    return not ASKING.search(name) and bool(_ZH_NAME_SHAPE.match(name) or _EN_NAME_SHAPE.match(name))


@lru_cache(maxsize=1024)
def premise_binding(question: str) -> Binding | None:
    """The role and name the question asserts ("出租方是李明吗？" → lessor, 李明), or None."""
    q = normalize_text(question).strip()
    for rx in _premise_res():
        m = rx.search(q)
        if m:
            name = m["name"].strip(" \"'“”「」")
            role = _forms().get(m["role"].lower())
            if role and _looks_like_name(name):
                return Binding(role, name)
    return None


@lru_cache(maxsize=1)
def _binding_res() -> tuple[re.Pattern[str], re.Pattern[str]]:
    roles = _alternation()
    line = re.compile(
        rf"^[ \t]*(?P<role>{roles})[ \t]*(?:\((?P<alias>[^()\n]{{1,8}})\))?[ \t]*:[ \t]*(?P<name>[^\n,，;；]{{2,60}})",
        re.I | re.M,
    )
    defined = re.compile(  # case-sensitive name, any-case role: ... Inc., a Delaware corporation ("Licensor")
        rf"(?P<name>(?:[A-Z][\w&'.-]*,?\s+){{1,6}}(?:{EN_LEGAL_FORMS})\b\.?)"
        rf"[^()]{{0,100}}?\(\s*(?:the\s+)?[\"“](?P<role>(?i:{roles}))[\"”]\s*\)"
    )
    return line, defined


def passage_bindings(passage: str) -> list[Binding]:
    """The roles the passage binds to names: party lines ("出租方(甲方):北京华信置业有限公司", "LICENSEE:
    Bluefield …") and defined roles after a company's name ("Bluefield Analytics LLC … ("Licensee")")."""
    text = normalize_text(passage)
    line, defined = _binding_res()
    out: list[Binding] = []
    for m in line.finditer(text):
        name = m["name"].strip()
        for label in (m["role"], m["alias"] or ""):
            role = _forms().get(label.strip().lower())
            if role:
                out.append(Binding(role, name))
    for m in defined.finditer(text):
        role = _forms().get(m["role"].strip().lower())
        if role:
            out.append(Binding(role, m["name"].strip().rstrip(",")))
    return out


def same_party(a: str, b: str) -> bool:
    """One name holds the other, ignoring case, spaces and punctuation ("Northwind Software, Inc." and
    "Northwind Software Inc"; "北京华信置业有限公司" and "北京华信置业")."""
    x, y = squash_name(a).replace(" ", ""), squash_name(b).replace(" ", "")
    return bool(x) and bool(y) and (x in y or y in x)


def party_conflict(question: str, passage: str) -> tuple[float, str]:
    """``PARTY_CONFLICT_SCORE`` and why when the passage binds the asked role to another name and
    never to the asked one; else 0 and ""."""
    asked = premise_binding(question)
    if asked is None:
        return 0.0, ""
    same_role = [b for b in passage_bindings(passage) if b.role == asked.role]
    if not same_role or any(same_party(b.name, asked.name) for b in same_role):
        return 0.0, ""
    found = same_role[0].name
    why = f"the passage names {found} as the {asked.role}, not {asked.name}"
    return PARTY_CONFLICT_SCORE, coded("con_party", why, role=asked.role, asked=asked.name, found=found)
