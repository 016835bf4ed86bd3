"""Home: what Lexgate is, where its data lives, and whether the models are ready."""

from __future__ import annotations

import streamlit as st

from rag_core.llm.factory import unavailable_error
from ui import state
from ui.components import safe, show_error
from ui.errors import error_text
from ui.i18n import t

st.title(t("home_title"))
st.markdown(t("home_intro"))

try:
    store = state.store()
    settings = state.settings()
    kbs = store.kbs.all()
    docs = sum(len(store.docs.all(kb)) for kb in kbs)
    c1, c2, c3 = st.columns(3)
    c1.metric(t("home_kbs"), len(kbs))
    c2.metric(t("home_docs"), docs)
    c3.metric(t("home_conversations"), len(store.conversations.all()))
    st.caption(t("home_data_dir", path=safe(str(state.home()), False)))
    missing = unavailable_error(settings, "answer")
    if missing:
        st.warning(t("home_no_model", why=error_text(missing)), icon=":material/extension:")
    else:
        provider = settings.models.provider
        model = settings.models.answer_model if provider == "openai" else settings.models.local_model
        st.success(
            t("home_model_ready", provider=t("provider_" + provider), model=safe(model, False)),
            icon=":material/check_circle:",
        )
except Exception as err:
    show_error(err)

st.divider()
st.markdown(f"#### {t('home_steps_title')}")
# One link per line: the English labels are long, and a column would cut them off.
st.page_link("app_pages/documents.py", label=t("home_step_docs"), icon=":material/folder_open:")
st.page_link("app_pages/chat.py", label=t("home_step_chat"), icon=":material/forum:")
st.page_link("app_pages/inspector.py", label=t("home_step_inspect"), icon=":material/manage_search:")
