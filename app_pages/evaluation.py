"""Evaluation: test sets (create, rename, delete; generate cases from a knowledge base's chunks;
review and edit them in a table; import and export JSONL), runs of a test set through the real
pipeline with progress and cancel, per-metric scores with a chart per metric and each question's
trace, and two stored runs compared side by side with the settings that differ.

Long work (generation, runs) goes to a background job (``rag_core.evaluation.jobs.Job``) the page
polls, so a click never aborts it and a cancelled run keeps every case that finished. The
sections are drawn by ``ui.eval_sets``, ``ui.eval_runs`` and ``ui.eval_compare``; the work they
show is done by ``rag_core.evaluation``.
"""

from __future__ import annotations

import streamlit as st

from ui.components import safe, show_error
from ui.eval_compare import section_compare
from ui.eval_runs import section_runs
from ui.eval_sets import section_sets
from ui.eval_view import busy, flash, job, page_context, remember
from ui.i18n import t

ss = st.session_state
POLL_S = 1.0

st.title(t("ev_title"))
page = page_context()


@st.fragment(run_every=POLL_S)
def live_job() -> None:
    """Progress and the cancel button, refreshed every second while a job runs."""
    j = job()
    if j is None or j.finished:
        if j is not None:
            st.rerun()  # the whole page takes the result
        return
    with st.container(border=True):
        total = j.total or "…"
        if j.kind == "generate":
            text = t("ev_job_generate", done=j.done, total=total)
        else:
            text = t("ev_job_run", done=j.done, total=total)
        st.progress(j.fraction, text=text)
        if j.current:
            st.caption(safe(j.current[:120], False))
        if not j.token.cancelled and st.button(
            t("ev_cancel_job"), key="ev_job_cancel", icon=":material/stop_circle:"
        ):
            j.cancel()
        if j.token.cancelled:
            st.caption(t("ev_cancelling"))


j = job()
if j is not None and j.finished and j.error is not None:
    show_error(j.error)
    ss["ev_job"] = None
elif j is not None and j.finished and j.kind == "run":
    ss["ev_job"] = None
    ss["ev_run_pick"] = ss["ev_run_pick_keep"] = j.result["id"]
    if j.result["status"] == "cancelled":
        flash("warning", t("ev_run_saved_cancelled"))
    else:
        flash("success", t("ev_run_saved"))
if busy():
    live_job()

for kind, message in ss.pop("ev_flash", []):
    getattr(st, kind)(message)

SECTIONS = {"sets": t("ev_sec_sets"), "runs": t("ev_sec_runs"), "compare": t("ev_sec_compare")}
remember("ev_section", list(SECTIONS), "sets")
section = st.segmented_control(
    t("ev_section"),
    list(SECTIONS),
    format_func=lambda k: SECTIONS[k],
    required=True,
    key="ev_section",
    label_visibility="collapsed",
)
ss["ev_section_keep"] = section

if section == "runs":
    section_runs(page)
elif section == "compare":
    section_compare(page)
else:
    section_sets(page)
