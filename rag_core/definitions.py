"""Definitions in contract text: the term a sentence defines and what it says the term is.

Why a module of its own: the quoted answer puts the definition of a what-is question's term first
(``generation.quoted``) and the support check compares an answer's restatement of a definition with
the definition itself (``reflection.facts.shortened_definitions``); both read definitions alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_DEFINED = re.compile(
    r"(?:[\"“「](?P<quoted>[^\"”」]{1,60})[\"”」]\s*"
    r"(?:means|shall\s+mean|refers\s+to|is\s+defined\s+as|has\s+the\s+meaning|是指|系指|指)"
    r"|\b(?P<capital>[A-Z][A-Za-z-]*(?:\s+[A-Z][A-Za-z-]*){0,4})\s+(?:means|shall\s+mean)\b"
    r"|所称(?P<zh>[\u4e00-\u9fff]{1,20})[，,]?\s*(?:是指|系指|指))"
    r"\s*[:：]?\s*(?P<body>[^.;。；\n]*)"
)
"""A definition: "Territory" means …, INITIAL TERM shall mean …, “区域”是指…, 本合同所称区域，是指…"""


@dataclass(frozen=True)
class Definition:
    term: str  # lower-cased, without a leading article
    body: str  # what the term means, up to the end of its sentence


def definitions(text: str) -> list[Definition]:
    """The definitions a text states, in reading order."""
    out: list[Definition] = []
    for m in _DEFINED.finditer(text):
        term = m.group("quoted") or m.group("capital") or m.group("zh") or ""
        out.append(Definition(re.sub(r"^the\s+", "", term.strip().lower()), m.group("body").strip()))
    return out


_LIST_SPLIT = re.compile(r"\s*(?:,\s*(?:and|or)\s+|,|;|\s+and\s+|\s+or\s+|、|和|及|以及|或)\s*")
LIST_ITEM_MAX_CHARS: int = 40
"""A part of a definition longer than this is a clause of prose, not an item of a list."""


def list_items(body: str) -> list[str]:
    """The items of a definition that is a list ("Singapore, Malaysia and Indonesia"); [] otherwise."""
    items = [i.strip() for i in _LIST_SPLIT.split(body) if i and i.strip()]
    if len(items) < 2 or any(len(i) > LIST_ITEM_MAX_CHARS for i in items):
        return []
    return items
