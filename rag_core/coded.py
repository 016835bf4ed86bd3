"""English library text that also carries a stable code and parameters, for the Chinese interface.

Why a ``str`` subclass: explanations and notes are English strings everywhere in the library (CLI,
logs, benches, tests compare them); a ``CodedText`` is still that string, so no signature changes,
but it also knows its code (``relevance_terms``) and parameters (``{"hit": 2, "total": 8}``). The
interface words it from its template (``why_<code>`` / ``note_<code>`` in ``ui/i18n.py``); text
without a code is shown as it is. Several parts joined by ``join`` carry their codes joined by
``+`` and their parameters merged (so parts must use distinct parameter names).

Parameters are plain values (str, int, float): they survive JSON. A string parameter that names
a thing the interface can translate (a clause kind, a label) is looked up as ``term_<value>``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

Param = str | int | float
CODE_JOIN = "+"
"""Separator of the codes of a text made of several coded parts."""


class CodedText(str):
    """An English string with ``code`` and ``params`` (empty code: no template, show the text)."""

    code: str
    params: dict[str, Param]

    def __new__(cls, text: str, code: str = "", params: Mapping[str, Param] | None = None) -> CodedText:
        obj = super().__new__(cls, text)
        obj.code = code
        obj.params = dict(params or {})
        return obj

    def __reduce__(self) -> tuple[Any, ...]:
        return (CodedText, (str(self), self.code, self.params))

    def record(self) -> dict[str, Any]:
        """The JSON shape stored in traces: the English text, its code and its parameters."""
        return {"text": str(self), "code": self.code, "params": dict(self.params)}


def coded(code: str, text: str, **params: Param) -> CodedText:
    """``text`` (English) carrying ``code`` and ``params``."""
    return CodedText(text, code, params)


def code_of(text: str) -> tuple[str, dict[str, Param]]:
    """(code, params) of ``text``; ("", {}) for a plain string."""
    if isinstance(text, CodedText):
        return text.code, dict(text.params)
    return "", {}


def join(parts: Iterable[str], sep: str = "; ") -> CodedText:
    """Parts joined by ``sep``; coded only when every part is coded (else the codes would lie)."""
    items = [p for p in parts if p]
    text = sep.join(items)
    if not items or not all(isinstance(p, CodedText) and p.code for p in items):
        return CodedText(text)
    params: dict[str, Param] = {}
    for p in items:
        params.update(code_of(p)[1])
    return CodedText(text, CODE_JOIN.join(code_of(p)[0] for p in items), params)


def record(text: str) -> dict[str, Any]:
    """Any note as the stored shape (a plain string gets an empty code)."""
    if isinstance(text, CodedText):
        return text.record()
    return {"text": str(text), "code": "", "params": {}}


def from_record(data: Mapping[str, Any]) -> CodedText:
    """A stored record (``record``) back into its coded text."""
    params = data.get("params")
    return CodedText(
        str(data.get("text") or ""),
        str(data.get("code") or ""),
        {str(k): v for k, v in params.items() if isinstance(v, str | int | float)}
        if isinstance(params, Mapping)
        else {},
    )


def records(texts: Iterable[str]) -> list[dict[str, Any]]:
    """``record`` of each note, for a trace field beside the English list."""
    return [record(t) for t in texts]
