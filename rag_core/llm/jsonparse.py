"""Robust extraction of a JSON value from model output.

Why: small local models and some endpoints wrap JSON in Markdown fences, add prose around it, or
stop mid-object. Callers need the object when one is recoverable and ``None`` (recorded as
"could not judge") when not, never a made-up default.
"""

from __future__ import annotations

import json
import re
from typing import Any

_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)


def _candidates(text: str) -> list[str]:
    """Fenced blocks first, then the text from its first opener, the earlier of brace and bracket
    first, so an array of objects is read as the array."""
    out = [m.group(1).strip() for m in _FENCE.finditer(text)]
    stripped = text.strip()
    starts = sorted(i for i in (stripped.find("{"), stripped.find("[")) if i >= 0)
    out += [stripped[i:] for i in starts]
    out.append(stripped)
    return out


def _close_partial(s: str) -> str:
    """Close strings, arrays and objects left open by a truncated answer."""
    stack: list[str] = []
    in_str = False
    escaped = False
    for ch in s:
        if in_str:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_str = False
            continue
        if ch == '"':
            in_str = True
        elif ch in "{[":
            stack.append("}" if ch == "{" else "]")
        elif ch in "}]" and stack:
            stack.pop()
    tail = '"' if in_str else ""
    body = (s + tail).rstrip()
    body = re.sub(r",\s*$", "", body)
    body = re.sub(r":\s*$", ": null", body)
    return body + "".join(reversed(stack))


def _first_value(s: str) -> Any:
    """Decode the first JSON value in ``s``, ignoring trailing prose."""
    value, _ = json.JSONDecoder().raw_decode(s)
    return value


def parse_json_value(text: str) -> Any | None:
    """The first recoverable JSON value in ``text``, or ``None``."""
    for cand in _candidates(text):
        if not cand:
            continue
        for attempt in (cand, _close_partial(cand)):
            try:
                return _first_value(attempt)
            except (json.JSONDecodeError, ValueError):
                continue
    return None


def parse_json_object(text: str) -> dict[str, Any] | None:
    """The first recoverable JSON object in ``text``, or ``None``."""
    value = parse_json_value(text)
    return value if isinstance(value, dict) else None
