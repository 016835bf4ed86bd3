"""The app's own style sheet: the file uploader's built-in English words in the interface language.

Why CSS: Streamlit's uploader writes "Upload", "Add files", "Drag and drop files here" and
"50MB per file" itself, in English, with no parameter to change them. The English text is hidden
(``display: none``, so it is neither seen nor read out) and the interface-language text is drawn
in its place by a ``::after`` rule.

Why this is safe: the style sheet is built only from this module's rules and the i18n templates
(trusted constants) filled with a number; the values are CSS-string escaped. It is the one place
that hands markup to Streamlit (``st.html``) and nothing from documents, models or users ever
reaches it (the i18n test checks that no other module does).
"""

from __future__ import annotations

import streamlit as st

from ui.i18n import t

DROPZONE = '[data-testid="stFileUploaderDropzone"]'
INSTRUCTIONS = '[data-testid="stFileUploaderDropzoneInstructions"]'


def css_string(text: str) -> str:
    """``text`` as a CSS string literal (quotes, backslashes, newlines and angle brackets escaped)."""
    out = []
    for ch in text:
        if ch in '"\\<>' or ord(ch) < 0x20:
            out.append(f"\\{ord(ch):x} ")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def replaced(selector: str, text: str) -> str:
    """Rules that hide ``selector``'s own text and draw ``text`` after it instead."""
    return (
        f"{selector} > *{{display:none !important}}"
        f"{selector}::after{{content:{css_string(text)};font-size:0.875rem;line-height:1.6}}"
    )


def uploader_css(max_file_mb: float, types: str = "") -> str:
    """The uploader's built-in words in the interface language (``types``: the accepted file
    types the uploader lists, e.g. "JSONL, TXT")."""
    button = f"{DROPZONE} button [data-testid='stMarkdownContainer']"
    limit = t("uploader_limit", mb=max_file_mb) + (f" · {types}" if types else "")
    return "".join([replaced(button, t("uploader_button")), replaced(f"{INSTRUCTIONS} > div", limit)])


def apply_uploader(max_file_mb: float, types: str = "") -> None:
    """Add the uploader's style sheet to the page (it draws nothing itself)."""
    st.html(f"<style>{uploader_css(max_file_mb, types)}</style>")
