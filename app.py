"""Lexgate: the lawyer's app. Run with ``streamlit run app.py`` (scripts/start.sh does).

Navigation is ``st.navigation`` over the files in ``app_pages/``; this script runs on every page,
so the page set-up and the language switch live here. The folder is deliberately not called
``pages/``: Streamlit treats a ``pages/`` folder as the old multipage convention and, when a
session's first request is a page URL, runs that page without this script (no layout, no language
switch, file names as navigation). The Evaluation page belongs to another part of the project:
it appears as soon as ``app_pages/evaluation.py`` exists.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from ui import i18n, state
from ui.components import show_error

PAGES = Path(__file__).parent / "app_pages"
# Bundled, served by the app itself: a Material icon by name as the page icon makes the browser
# fetch it from a font host, which an air-gapped laptop cannot reach (and should not try to).
# (A comment, not a string: Streamlit would draw a bare string on every page.)
FAVICON = Path(__file__).parent / "ui" / "assets" / "favicon.png"

st.set_page_config(
    page_title="Lexgate", page_icon=str(FAVICON), layout="wide", initial_sidebar_state="expanded"
)
i18n.language_switch()
try:
    state.warmup()  # load the local model in the background at start (progress on the Home page)
except Exception as err:  # never block the app on the model
    show_error(err)

pages = [
    st.Page(str(PAGES / "home.py"), title=i18n.t("nav_home"), icon=":material/home:", default=True),
    st.Page(str(PAGES / "chat.py"), title=i18n.t("nav_chat"), icon=":material/forum:"),
    st.Page(str(PAGES / "documents.py"), title=i18n.t("nav_documents"), icon=":material/folder_open:"),
    st.Page(str(PAGES / "inspector.py"), title=i18n.t("nav_inspect"), icon=":material/manage_search:"),
    st.Page(str(PAGES / "feedback.py"), title=i18n.t("nav_feedback"), icon=":material/reviews:"),
    st.Page(str(PAGES / "admin.py"), title=i18n.t("nav_admin"), icon=":material/tune:"),
]
# Slot for the Evaluation page (built by the evaluation work, not this app).
if (PAGES / "evaluation.py").exists():
    pages.insert(
        5, st.Page(str(PAGES / "evaluation.py"), title=i18n.t("nav_evaluation"), icon=":material/fact_check:")
    )

try:
    st.navigation(pages).run()
except Exception as err:  # a page that fails shows a message, never a traceback (which is logged)
    show_error(err)
