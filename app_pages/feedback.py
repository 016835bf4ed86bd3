"""Feedback: every rating, the low-rated answers with the stage that failed (diagnosed from their
trace), and corrected answers turned into evaluation cases."""

from __future__ import annotations

import streamlit as st

from rag_core.feedback import FEEDBACK_TESTSET, Diagnosis, append_case, diagnose, eval_case
from rag_core.trace import Trace
from storage.rows import Feedback
from ui import state
from ui.components import safe, safe_answer, when, where
from ui.i18n import t

LOW_RATING = 2

store = state.store()
ss = st.session_state
st.title(t("fb_page_title"))

rows = store.feedback.all()
if not rows:
    st.info(t("fb_none"), icon=":material/chat_bubble:")
    st.stop()

avg = sum(int(r.rating) for r in rows) / len(rows)
low = [r for r in rows if int(r.rating) <= LOW_RATING]
c1, c2, c3 = st.columns(3)
c1.metric(t("fb_count"), len(rows))
c2.metric(t("fb_average"), f"{avg:.1f}")
c3.metric(t("fb_low_count"), len(low))

st.subheader(t("fb_all"))
st.dataframe(
    [
        {
            t("col_time"): when(r.created_at),
            t("fb_rating"): int(r.rating),
            t("fb_helpful"): bool(r.helpful),
            t("col_question"): r.question,
            t("fb_correct"): r.correct_answer,
            t("fb_comment"): r.comment,
        }
        for r in rows
    ],
    hide_index=True,
    key="fb_table",
    column_config={t("fb_rating"): st.column_config.NumberColumn(t("fb_rating"), format="%d ★")},
)


def _diagnosis(r: Feedback) -> Diagnosis:
    """Recomputed from the stored trace (the stored one may predate a correction)."""
    trace = Trace.from_json(r.trace)
    refused = False
    if r.message_id:
        try:
            refused = store.conversations.message(r.message_id).refused
        except Exception:
            refused = False
    return diagnose(trace, r.answer, refused, r.correct_answer)


def _show_diagnosis(d: Diagnosis, key: str) -> None:
    text = t("diag_" + d.stage)
    box = (
        st.success if d.stage == "answer_matches" else st.info if d.stage == "needs_reference" else st.warning
    )
    detail = ""
    if d.best is not None:
        detail = t(
            "diag_best",
            doc=safe(d.best.doc, False),
            where=safe(where(d.best.page, d.best.clause), False),
            label=d.best.label or "—",
            overlap=f"{d.best.overlap:.0%}",
        )
    box(f"**{t('diag_stage')}:** {text}" + (f"  \n{detail}" if detail else ""), icon=":material/stethoscope:")
    if d.unsupported:
        st.caption(t("diag_unsupported", n=len(d.unsupported)))
        for s in d.unsupported:
            st.markdown(f"- {safe(s, False)}")
    if d.matches:
        st.dataframe(
            [
                {
                    t("col_doc"): m.doc,
                    t("col_where"): where(m.page, m.clause),
                    t("col_label"): m.label,
                    t("col_kept"): m.keep,
                    t("col_used"): m.used,
                    t("col_overlap"): m.overlap,
                }
                for m in d.matches[:10]
            ],
            hide_index=True,
            key=f"diag_{key}",
            column_config={
                t("col_overlap"): st.column_config.ProgressColumn(
                    t("col_overlap"), min_value=0.0, max_value=1.0, format="%.2f"
                )
            },
        )


st.subheader(t("fb_low"))
if not low:
    st.caption(t("fb_low_none"))
for r in low:
    head = f"{'★' * int(r.rating)}{'☆' * (5 - int(r.rating))} · {safe(r.question[:80], False)}"
    with st.expander(head, expanded=len(low) <= 3):
        st.markdown(f"**{t('col_question')}** {safe(r.question)}")
        st.markdown(f"**{t('fb_answer')}**  \n{safe_answer(r.answer)}")
        if r.correct_answer:
            st.markdown(f"**{t('fb_correct')}**  \n{safe(r.correct_answer)}")
        if r.comment:
            st.markdown(f"**{t('fb_comment')}** {safe(r.comment)}")
        d = _diagnosis(r)
        _show_diagnosis(d, r.id)
        if r.correct_answer.strip():
            if st.button(t("fb_to_case"), key=f"case_{r.id}", icon=":material/playlist_add:"):
                trace = Trace.from_json(r.trace)
                case = eval_case(r.question, r.correct_answer, trace)
                kb_id = ""
                names = {kb.name: kb.id for kb in store.kbs.all()}
                for name in trace.kbs:
                    kb_id = kb_id or names.get(name, "")
                tid, added = append_case(store, case, kb_id)
                n = len(store.evaluation.cases(tid))
                st.success(
                    t("fb_case_added" if added else "fb_case_updated", name=FEEDBACK_TESTSET, n=n),
                    icon=":material/check_circle:",
                )
        else:
            st.caption(t("fb_case_needs_correct"))
