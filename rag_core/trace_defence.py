"""Trace records of the injection defence in depth: sentences cut from evidence, answer sentences
removed by the output guard.

Why a module beside ``trace.py``: the records are the defence's own (issue 11) and keep the
stage records there short; ``BlockRecord.cuts`` and ``ReflectionRecord.guard`` hold them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


def _num(data: Mapping[str, Any], key: str) -> float:
    try:
        return float(data.get(key) or 0.0)
    except (TypeError, ValueError):
        return 0.0


@dataclass(frozen=True)
class CutRecord:
    """A sentence cut out of a kept passage: where it was in the block's text, its text and score."""

    start: int
    end: int
    sentence: str
    score: float

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CutRecord:
        return cls(
            int(_num(data, "start")),
            int(_num(data, "end")),
            str(data.get("sentence") or ""),
            _num(data, "score"),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "start": self.start,
            "end": self.end,
            "sentence": self.sentence,
            "score": round(self.score, 4),
        }


@dataclass(frozen=True)
class GuardRecord:
    """An answer sentence the output guard removed, and why (a stable code and the offending item)."""

    sentence: str
    code: str  # guard_url | guard_email | guard_phone | guard_image | guard_cut_item | guard_cut_support
    item: str = ""

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GuardRecord:
        return cls(str(data.get("sentence") or ""), str(data.get("code") or ""), str(data.get("item") or ""))

    def to_json(self) -> dict[str, Any]:
        return {"sentence": self.sentence, "code": self.code, "item": self.item}
