"""User-facing errors: each says which input, what is wrong, and what to do.

Why a class of our own: the CLI and the UI catch ``LexgateError`` and print ``str(err)`` as a
clear message; anything else is a bug and may show a traceback in logs, never to the lawyer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

ParamValue = str | int | float
"""A value an error template inserts: file names, sizes, limits, HTTP statuses."""


class LexgateError(Exception):
    """An error whose message is meant for the user.

    ``what``/``hint``/``subject`` are English and make ``message`` (what the CLI and logs print).
    ``code`` (optional, stable, snake_case) and ``params`` let an interface in another language
    say the same thing: the UI looks up its own template for ``code`` and fills it with ``params``
    (``file`` names the file the error is about). Codes are written as literal ``code="..."``
    arguments so a test can find every one and check that it has a translation.
    """

    def __init__(
        self,
        what: str,
        hint: str = "",
        *,
        subject: str = "",
        code: str = "",
        params: Mapping[str, ParamValue] | None = None,
    ) -> None:
        self.what = what
        self.hint = hint
        self.subject = subject
        self.code = code
        self.params: dict[str, ParamValue] = dict(params or {})
        super().__init__(self.message)

    @property
    def message(self) -> str:
        head = f"{self.subject}: {self.what}" if self.subject else self.what
        return f"{head} — {self.hint}" if self.hint else head

    def record(self) -> dict[str, Any]:
        """The error as JSON fields for a stored trace: English message, code and parameters."""
        return {"error": self.message, "error_code": self.code, "error_params": dict(self.params)}


class IngestError(LexgateError):
    """A file that cannot be ingested; nothing of it was written."""


class DuplicateDocument(LexgateError):
    """The same content is already in the knowledge base."""

    def __init__(self, file_name: str, existing_name: str, doc_id: str) -> None:
        self.doc_id = doc_id
        super().__init__(
            f"same content as already ingested '{existing_name}'",
            "nothing was added; delete the existing document first to re-ingest it",
            subject=file_name,
        )


class LimitExceeded(LexgateError):
    """A configured limit (candidates, characters) was exceeded; refused rather than truncated."""


class NotFound(LexgateError):
    """A knowledge base, document or conversation that does not exist."""


class LLMError(LexgateError):
    """An LLM endpoint or the local model failed after retries."""
