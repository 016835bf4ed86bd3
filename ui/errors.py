"""Library errors in the interface language.

Why here and not in ``rag_core``: the library speaks English (CLI, logs). An error that carries a
``code`` (``LexgateError.code``, ``IngestResult.code``, a stored trace's ``error_code``) is shown
from the i18n template ``err_<code>`` filled with its ``params``; an error without a code, or with
a code that has no template, shows the library's English message. Either way the text is one
line of escaped Markdown, never a stack trace. Pydantic's settings errors are worded here too
(``val_<kind>`` templates), since their own text is English.

Parameters come from files and endpoints, so every string parameter is escaped before it is put
into a (trusted) template; the ``kind`` parameter (a detected file format) is named in the
interface language through ``kind_<kind>``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from rag_core.errors import LexgateError
from rag_core.export import escape_markdown
from rag_core.trace import ErrorRecord
from ui.i18n import DEFAULT_LANG, STRINGS, lang

log = logging.getLogger("lexgate.ui")

ERR_PREFIX = "err_"
"""The template of error code ``c`` is ``err_c`` in both languages."""
KIND_PREFIX = "kind_"
"""The name of a detected file format ``k`` (the ``kind`` parameter) is ``kind_k``."""

VALIDATION_KEYS: dict[str, str] = {
    "greater_than": "val_greater_than",
    "greater_than_equal": "val_greater_than_equal",
    "less_than": "val_less_than",
    "less_than_equal": "val_less_than_equal",
    "int_type": "val_int",
    "int_parsing": "val_int",
    "int_from_float": "val_int",
    "float_type": "val_float",
    "float_parsing": "val_float",
    "bool_type": "val_bool",
    "bool_parsing": "val_bool",
    "literal_error": "val_literal",
    "string_type": "val_string",
}
"""Pydantic error type → template (its ``ctx`` values fill it: ``{ge}``, ``{expected}``…)."""


def _table(language: str | None) -> dict[str, str]:
    return STRINGS.get(language or lang(), STRINGS[DEFAULT_LANG])


def _escape(value: Any) -> str:
    return escape_markdown(str(value), keep_newlines=False)


def coded_text(
    code: str,
    params: Mapping[str, Any],
    fallback: str,
    *,
    with_file: bool = True,
    language: str | None = None,
) -> str:
    """Escaped Markdown for an error: ``err_<code>`` with ``params`` in ``language`` (default: the
    session's), else ``fallback`` (the English message). ``with_file`` puts the ``file`` parameter
    first, as the English message does; a page that already names the file passes False."""
    table = _table(language)
    template = table.get(ERR_PREFIX + code) if code else None
    if template is None:
        return _escape(fallback)
    values = {
        name: _escape(table.get(KIND_PREFIX + str(v), v) if name == "kind" else v)
        if isinstance(v, str)
        else v
        for name, v in params.items()
    }
    try:
        text = template.format(**values)
    except (KeyError, IndexError, ValueError) as exc:  # a template that does not fit its params
        log.warning("error template %s does not fit %s: %s", code, sorted(params), exc)
        return _escape(fallback)
    file = params.get("file")
    if with_file and file:
        text = table["err_about_file"].format(file=_escape(file), text=text)
    return text


def error_text(err: LexgateError, *, with_file: bool = True, language: str | None = None) -> str:
    """``err`` in the interface language (escaped Markdown)."""
    return coded_text(err.code, err.params, err.message, with_file=with_file, language=language)


def stored_error_text(error: ErrorRecord, *, language: str | None = None) -> str:
    """The error of a stored trace (what ``LexgateError.record()`` wrote: message, code, params)."""
    return coded_text(error.code, error.params, error.message, language=language)


def _plain(value: Any) -> Any:
    """A bound as pydantic writes it: 0.0 as 0."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def validation_text(error: Mapping[str, Any], *, language: str | None = None) -> str:
    """One pydantic error (an item of ``ValidationError.errors()``) as 'field: problem (got value)'."""
    table = _table(language)
    key = VALIDATION_KEYS.get(str(error.get("type", "")))
    problem = ""
    if key:
        try:
            problem = table[key].format(
                **{k: _escape(_plain(v)) for k, v in (error.get("ctx") or {}).items()}
            )
        except (KeyError, IndexError, ValueError):
            problem = ""
    return table["val_line"].format(
        field=_escape(".".join(str(p) for p in error.get("loc", ()))),
        problem=problem or _escape(error.get("msg", "")),
        value=_escape(repr(error.get("input"))),
    )
