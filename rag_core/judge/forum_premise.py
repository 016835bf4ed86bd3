"""A yes/no premise about where disputes are decided (a court or arbitration) against a dispute clause
that names only the other forum.

Why (try-out, session 31): "特许经营合同的争议由法院管辖吗？" over a franchise agreement whose dispute
clause reads "提交上海国际仲裁中心仲裁" was answered "retrieved the dispute clause, but no passage states
what was asked", with the clause quoted and no correction: the premise holds no number, date or
party, so the value check (``conflict.value_conflict``) had nothing to compare, and the lawyer had to
read the "no" out of the clause. A dispute forum is a slot of its own, like a payment period
(``frequency_premise``).

What counts is narrow on purpose: the question must be a yes/no question naming one forum; the
passage must name a forum in a dispute sentence (arbitration is named nowhere else; a court only with
dispute words, so "required by court order" in a confidentiality clause says nothing about disputes);
a passage naming both forums (arbitration, with courts for injunctions or to enforce the award) does
not contradict either premise.
"""

from __future__ import annotations

import re

from rag_core.coded import coded
from rag_core.judge.frequency_premise import ALTERNATIVE

FORUM_STRENGTH: float = 0.8
"""Conflict score of a dispute clause naming only the other forum: as sure as a payment period stated
for the asked sum (``frequency_premise.FREQUENCY_STRENGTH``). Also the relevance and evidence floor of a
dispute clause naming only the asked forum (``forum_agreement``)."""

_ARBITRATION = re.compile(r"仲裁|arbitra(?:l|tion|tor|te|ted)\b", re.I)
_COURT_PREMISE = re.compile(r"法院|诉讼|起诉|打官司|\bcourts?\b|\blitigat\w*|\bsue\b|\blawsuits?\b", re.I)
_COURT_STATED = re.compile(
    r"向[^。；;\n]{0,30}法院|法院(?:管辖|起诉|提起诉讼)|提起诉讼|诉讼解决"
    r"|\bcourts?\b(?=[^.;\n]{0,200}\b(?:disputes?|claims?|controvers\w*|jurisdiction|venue|proceedings?)\b)"
    r"|\b(?:disputes?|claims?|controvers\w*|jurisdiction|venue|proceedings?)\b[^.;\n]{0,200}\bcourts?\b",
    re.I,
)
TAG_QUESTION = re.compile(
    r"[,，]\s*(?:right|correct|true|yes|no|isn't\s+(?:it|that\s+so)|is\s+(?:it|that)\s+(?:so|right|correct))\s*\??\s*$",
    re.I,
)
"""An English statement's question tag (", right?"): it asks, it names nothing the passage should hold."""
_YES_NO = re.compile(
    r"^\s*(?:does|do|is|are|can|could|may|must|shall|will|would|should|has|have)\b|是否|能否|可否|吗[?？]?\s*$"
    # a statement with a tag: "The lock-up period is 24 months, right?" (session 35: read as a wh-question, its
    # conflict was dropped because the non-compete of the same agreement states 24 months), "…，对不对？"
    rf"|{TAG_QUESTION.pattern}"
    r"|对不对[?？]?\s*$|是不是|是吧[?？]?\s*$",
    re.I,
)
_NEGATED = re.compile(r"不能|不可|不得|无法|不是|不由|\bnot\b|n't\b|\bno\b", re.I)

FORUMS: dict[str, tuple[str, str]] = {
    "court": ("法院诉讼", "a court"),
    "arbitration": ("仲裁", "arbitration"),
}
"""Each forum's Chinese and English name, for the note."""

FORUM_WORDS: dict[str, tuple[str, ...]] = {
    "court": ("法院", "诉讼", "起诉", "court", "litigation"),
    "arbitration": ("仲裁", "arbitration", "arbitrator"),
}
"""How a draft answer names each forum: a draft repeating the premise's forum affirms it
(``reflection.premise.false_values``)."""


FORUM_CONFLICT = "con_forum"
"""The explanation code of a passage naming only the other dispute forum than the question's."""


def yes_no_question(text: str) -> bool:
    """Whether a question asks yes or no ("Are disputes …?", "…吗？", "是否…") rather than what, when or who."""
    return bool(_YES_NO.search(text))


_WHICH_FORUM = re.compile(
    r"哪[个家一所里]?(?:人民)?(?:法院|仲裁)|什么(?:法院|仲裁)"
    r"|\b(?:which|what)\s+(?:\w+\s+)?(?:courts?|arbitra\w+)\b|\bin\s+(?:which|what)\s+(?:\w+\s+)?courts?\b",
    re.I,
)
"""A wh-question that takes the forum as given: "由哪个法院管辖？" asks which court, so it asserts a court.

Why (try-out, session 40): "股权转让协议约定由哪个法院管辖？" over an agreement whose dispute clause reads
"提交上海仲裁委员会仲裁" was refused ("no passage holds what was asked"): the premise was read only from
yes/no questions, so the lawyer was not told that the agreement names no court but arbitration."""


def asserted_forum(premise: str) -> str:
    """The one forum a yes/no question asserts or a which-court (which-arbitration) question takes as
    given ("court" or "arbitration"), or "" (another wh-question, an alternative, a negated question,
    or one naming both or neither)."""
    asks = yes_no_question(premise) or _WHICH_FORUM.search(premise)
    if not asks or ALTERNATIVE.search(premise) or _NEGATED.search(premise):
        return ""
    court, arbitration = bool(_COURT_PREMISE.search(premise)), bool(_ARBITRATION.search(premise))
    if court == arbitration:
        return ""
    return "court" if court else "arbitration"


def stated_forums(passage: str) -> frozenset[str]:
    """The forums a passage names for deciding disputes."""
    found = set()
    if _ARBITRATION.search(passage):
        found.add("arbitration")
    if _COURT_STATED.search(passage):
        found.add("court")
    return frozenset(found)


def forum_conflict(premise: str, passage: str) -> tuple[float, str]:
    """``FORUM_STRENGTH`` and why, when the question asserts one forum (``asserted_forum``) and the passage
    names only the other; (0, "") otherwise."""
    asked = asserted_forum(premise)
    stated = stated_forums(passage)
    if not asked or len(stated) != 1 or asked in stated:
        return 0.0, ""
    other = next(iter(stated))
    return FORUM_STRENGTH, coded(
        FORUM_CONFLICT,
        f"the question says disputes go to {FORUMS[asked][1]}, the passage to {FORUMS[other][1]}",
        asked_zh=FORUMS[asked][0],
        asked_en=FORUMS[asked][1],
        stated_zh=FORUMS[other][0],
        stated_en=FORUMS[other][1],
    )


def forum_agreement(premise: str, passage: str) -> tuple[float, str]:
    """``FORUM_STRENGTH`` and why, when the question asserts one forum (``asserted_forum``) and the passage
    names only that one; (0, "") otherwise.

    Why (try-out, session 31): "房屋租赁合同的争议由法院管辖吗？" over a lease whose dispute clause reads
    "协商不成的，任何一方均可向房屋所在地人民法院起诉" was refused: the fitted scores gave the clause
    relevance 0.71 and evidence 0.47 ("管辖" is not in it, and a yes/no question has no value kind to
    look for), so the true premise was answered "no passage states it" while the false one was
    corrected. The clause that names the asked forum alone is the answer "yes", as sure as the other
    forum alone is the answer "no"."""
    asked = asserted_forum(premise)
    if not asked or stated_forums(passage) != {asked}:
        return 0.0, ""
    return FORUM_STRENGTH, coded(
        "forum_agreed",
        f"states that disputes go to {FORUMS[asked][1]}, as the question asks",
        asked_zh=FORUMS[asked][0],
        asked_en=FORUMS[asked][1],
        forum_floor=FORUM_STRENGTH,
    )
