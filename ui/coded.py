"""Library explanations and notes in the interface language, from their codes.

Why: the library writes English (CLI, logs) and gives each explanation a stable code with
parameters (``rag_core.coded``, ``Verdict.explanation_code``). The interface fills the template
``<prefix><code>`` of the session's language: ``why_`` for verdict explanations, ``note_`` for
notes (query, budget, regeneration, extraction, metrics). A text of several parts has its codes
joined by ``+``; each part is worded and the parts are joined the language's way. A code without
a template, or parameters that do not fit it, fall back to the English text: an untranslated
sentence is better than a wrong one (and the Chinese-page test finds it).

String parameters come from documents and models: they are escaped for Markdown unless the text
goes to a dataframe cell (``markdown=False``), and one that names a known thing (``period``,
``EVIDENCE``) is shown as its ``term_<value>`` in the interface language; a parameter named
``*_list`` holds several such values separated by ``|``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from rag_core.coded import CODE_JOIN, CodedText
from rag_core.export import escape_markdown
from ui.i18n import DEFAULT_LANG, STRINGS, lang

log = logging.getLogger("lexgate.ui")

WHY = "why_"
NOTE = "note_"
TERM = "term_"
LIST_SUFFIX = "_list"
LIST_SEP = "|"
"""A string parameter named ``*_list`` holds several terms separated by ``|``."""


def table(language: str | None = None) -> dict[str, str]:
    """The string table of ``language`` (default: the session's)."""
    return STRINGS.get(language or lang(), STRINGS[DEFAULT_LANG])


def fill(template: str, params: Mapping[str, Any], tbl: Mapping[str, str], markdown: bool) -> str:
    """``template`` formatted with ``params``: strings translated as terms when known, escaped for
    Markdown when ``markdown``. Raises KeyError/IndexError/ValueError when they do not fit."""
    values: dict[str, Any] = {}
    for name, v in params.items():
        if isinstance(v, str):
            items = v.split(LIST_SEP) if name.endswith(LIST_SUFFIX) else [v]
            v = tbl["list_sep"].join(tbl.get(TERM + item, item) for item in items)
            v = escape_markdown(v, keep_newlines=False) if markdown else v
        values[name] = v
    return template.format(**values)


def coded_text(
    prefix: str,
    code: str,
    params: Mapping[str, Any] | None,
    fallback: str,
    *,
    markdown: bool = True,
    language: str | None = None,
) -> str:
    """``fallback`` (English) worded from ``<prefix><code>`` templates in the interface language."""
    tbl = table(language)
    plain = escape_markdown(fallback, keep_newlines=False) if markdown else fallback
    if not code:
        return plain
    parts: list[str] = []
    for part in code.split(CODE_JOIN):
        template = tbl.get(prefix + part)
        if template is None:
            return plain
        try:
            parts.append(fill(template, params or {}, tbl, markdown))
        except (KeyError, IndexError, ValueError) as exc:
            log.warning("template %s%s does not fit %s: %s", prefix, part, sorted(params or {}), exc)
            return plain
    return tbl["coded_sep"].join(p for p in parts if p)


def why_text(verdict: Mapping[str, Any], *, markdown: bool = True, language: str | None = None) -> str:
    """A verdict's explanation (``Verdict.to_json()`` shape) in the interface language."""
    return coded_text(
        WHY,
        str(verdict.get("explanation_code") or ""),
        verdict.get("explanation_params") or {},
        str(verdict.get("explanation") or ""),
        markdown=markdown,
        language=language,
    )


def note_text(note: Any, *, markdown: bool = True, language: str | None = None) -> str:
    """A note: a coded text (``rag_core.coded.CodedText``, as the typed trace gives them back), a
    stored record ``{"text", "code", "params"}``, or a plain (English) string."""
    if isinstance(note, CodedText):
        note = note.record()
    if isinstance(note, Mapping):
        return coded_text(
            NOTE,
            str(note.get("code") or ""),
            note.get("params") or {},
            str(note.get("text") or ""),
            markdown=markdown,
            language=language,
        )
    return coded_text(NOTE, "", {}, str(note or ""), markdown=markdown, language=language)


CANNOT_JUDGE = "could not judge"
"""How ``rag_core.evaluation.metrics`` starts the error of a metric that could not be computed."""


def metric_error_text(metric: Mapping[str, Any], *, language: str | None = None) -> str:
    """Why a metric has no value (a stored ``{"value", "error", "error_code", "error_params"}``), in
    the interface language, as plain text for a table cell."""
    error = str(metric.get("error") or "")
    code = str(metric.get("error_code") or "")
    if not error or not code:
        return error
    reason = coded_text(
        NOTE, code, metric.get("error_params") or {}, error, markdown=False, language=language
    )
    if reason == error or not error.startswith(CANNOT_JUDGE):
        return reason
    return table(language)["metric_cannot"].format(reason=reason)


def unjudged_reasons(rows: Sequence[Mapping[str, Any]], metric: str) -> dict[str, int]:
    """Why ``metric`` could not be judged, in the interface language, with how many cases each hit."""
    counts: dict[str, int] = {}
    for r in rows:
        m = (r.get("metrics") or {}).get(metric) or {}
        if m.get("value") is None and m.get("error"):
            why = metric_error_text(m)[:160]
            counts[why] = counts.get(why, 0) + 1
    return counts


def term(value: str, language: str | None = None) -> str:
    """A known value (a support label, a method name) in the interface language, else as it is."""
    return table(language).get(TERM + value, value)
