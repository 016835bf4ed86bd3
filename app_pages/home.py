"""Home: what Lexgate is, where its data lives, and whether the models are ready."""

from __future__ import annotations

import streamlit as st

from rag_core.llm.factory import unavailable_error
from ui import state
from ui.components import safe, show_error
from ui.errors import error_text
from ui.i18n import t

WARMUP_POLL_S = 1.0  # seconds between refreshes of the warm-up progress while the model loads


def _warmup_status() -> None:
    """The background warm-up of the local model: a progress bar while it loads, then its times."""
    w = state.warmup()
    if w.phase in ("loading", "priming"):
        st.progress(w.progress, text=t(f"warm_{w.phase}", s=f"{w.elapsed_s:.0f}"))
    elif w.phase == "ready":
        st.caption(t("warm_ready", load=w.load_s, prime=w.prime_s, tokens=w.primed_tokens))
    elif w.phase == "failed":
        st.warning(t("warm_failed", why=safe(w.error, False)), icon=":material/error:")
    elif w.phase == "off":
        st.caption(t("warm_off"))


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
        first = state.warmup()
        st.fragment(_warmup_status, run_every=None if first.done else WARMUP_POLL_S)()
except Exception as err:
    show_error(err)

st.divider()
st.markdown(f"#### {t('home_steps_title')}")
# One link per line: the English labels are long, and a column would cut them off.
st.page_link("app_pages/documents.py", label=t("home_step_docs"), icon=":material/folder_open:")
st.page_link("app_pages/chat.py", label=t("home_step_chat"), icon=":material/forum:")
st.page_link("app_pages/inspector.py", label=t("home_step_inspect"), icon=":material/manage_search:")
