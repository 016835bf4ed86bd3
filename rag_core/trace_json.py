"""Tolerant readers of stored trace JSON, shared by the trace's record modules.

Why tolerant: a stored trace may come from any earlier version, or be hand-edited in an export;
a missing or malformed field reads as its empty value rather than failing the inspector.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rag_core.coded import code_of, from_record, records

JsonMap = Mapping[str, Any]
Scalar = str | int | float
Page = int | str | None


def _str(data: JsonMap, key: str) -> str:
    value = data.get(key)
    return "" if value is None else str(value)


def _float(data: JsonMap, key: str) -> float:
    try:
        return float(data.get(key) or 0.0)
    except (TypeError, ValueError):
        return 0.0


def _int(data: JsonMap, key: str) -> int:
    try:
        return int(data.get(key) or 0)
    except (TypeError, ValueError):
        return 0


def _strs(value: Any) -> tuple[str, ...]:
    return tuple(str(v) for v in value) if isinstance(value, list | tuple) else ()


def _notes(data: JsonMap, key: str) -> tuple[str, ...]:
    """Notes as stored: their codes (``<key>_coded``) brought back when the trace kept them."""
    english = _strs(data.get(key))
    recorded = _maps(data.get(f"{key}_coded"))
    if len(recorded) != len(english):
        return english
    return tuple(from_record(r) for r in recorded)


def _coded_notes(key: str, notes: Sequence[str]) -> dict[str, Any]:
    """``{key: [English]}``, plus ``<key>_coded`` with the codes when some note carries one."""
    out: dict[str, Any] = {key: [str(n) for n in notes]}
    if any(code_of(n)[0] for n in notes):
        out[f"{key}_coded"] = records(notes)
    return out


def _maps(value: Any) -> list[JsonMap]:
    return [v for v in value if isinstance(v, Mapping)] if isinstance(value, list | tuple) else []


def _floats(value: Any) -> dict[str, float]:
    if not isinstance(value, Mapping):
        return {}
    out: dict[str, float] = {}
    for k, v in value.items():
        if isinstance(v, int | float) and not isinstance(v, bool):
            out[str(k)] = float(v)
    return out


def _scalars(value: Any) -> dict[str, Scalar]:
    if not isinstance(value, Mapping):
        return {}
    return {str(k): v for k, v in value.items() if isinstance(v, str | int | float)}


def _mapping(value: Any) -> JsonMap:
    return value if isinstance(value, Mapping) else {}


def _page(value: Any) -> Page:
    if value is None or value == "":
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return str(value)
