"""Chat: multi-turn questions over one or more knowledge bases, with the evidence panel shown as soon
as the passages are judged, the answer streamed beside it, thinking apart, citations that open the
cited passage, export, and feedback. Every message is persisted with its trace."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Sequence
from typing import Any

import streamlit as st

from rag_core.answer_records import QuotedRecord
from rag_core.coded import code_of
from rag_core.errors import LexgateError, NotFound
from rag_core.export import answer_docx, answer_markdown, clause_display, conversation_title
from rag_core.feedback import diagnose
from rag_core.judge.base import thresholds_of
from rag_core.llm.base import CancelToken
from rag_core.llm.factory import thinking_available
from rag_core.models import ChatTurn
from rag_core.trace import Trace, VerdictStage, verdicts_of
from storage.rows import Conversation, Feedback, Message
from ui import state
from ui.citations import citations_block, highlight
from ui.coded import note_text
from ui.components import (
    evidence_panel,
    premise_notice,
    quoted_line,
    refusal_note,
    safe,
    safe_answer,
    show_error,
    trace_cuts,
    trace_salvaged,
    usage_line,
)
from ui.errors import stored_error_text
from ui.i18n import lang, t

store = state.store()
settings = state.settings()
ss = st.session_state


def _json_safe(obj: Any) -> Any:
    return json.loads(json.dumps(obj, ensure_ascii=False, default=str))


# ---------------------------------------------------------------- sidebar: conversations
def _conversation_sidebar(current: Conversation | None) -> None:
    with st.sidebar:
        st.markdown(f"**{t('conv_title')}**")
        if st.button(t("conv_new"), icon=":material/add_comment:", width="stretch", key="conv_new"):
            ss["chat_cid"] = None
            st.rerun()
        needle = st.text_input(
            t("conv_search"), key="conv_search", placeholder=t("conv_search"), label_visibility="collapsed"
        )
        convs = store.conversations.all(needle)
        if not convs:
            st.caption(t("conv_none"))
        for c in convs[:100]:
            is_current = current is not None and c.id == current.id
            if st.button(
                safe(c.title or t("conv_untitled"), False),
                key=f"conv_{c.id}",
                type="primary" if is_current else "tertiary",
                width="stretch",
            ):
                ss["chat_cid"] = c.id
                st.rerun()
        if current is None:
            return
        with st.expander(t("conv_manage"), icon=":material/edit:"):
            with st.form("conv_rename", border=False):
                title = st.text_input(t("conv_rename_to"), value=current.title, max_chars=120)
                if st.form_submit_button(t("conv_rename")):
                    if title.strip():
                        store.conversations.rename(current.id, title.strip())
                        st.rerun()
                    else:
                        st.error(t("conv_title_empty"))
            if st.button(t("conv_delete"), key="conv_delete", icon=":material/delete:"):
                ss["confirm_conv_delete"] = current.id
            if ss.get("confirm_conv_delete") == current.id:
                st.warning(t("conv_delete_confirm"))
                if st.button(t("delete_confirm"), key="conv_delete_ok", type="primary"):
                    store.conversations.delete(current.id)
                    ss["chat_cid"] = None
                    ss["confirm_conv_delete"] = None
                    st.rerun()
                if st.button(t("cancel"), key="conv_delete_cancel"):
                    ss["confirm_conv_delete"] = None
                    st.rerun()


# ---------------------------------------------------------------- one stored assistant message
def _copy_export(m: Message, question: str) -> None:
    mid = m.id
    citations = m.citations
    meta = {t("export_kbs"): ", ".join(Trace.from_json(m.trace).kbs)}
    with st.expander(t("actions_title"), icon=":material/ios_share:"):
        st.caption(t("copy_hint"))
        st.code(m.content, language=None, wrap_lines=True)
        st.download_button(
            t("export_md"),
            data=answer_markdown(question, m.content, citations, lang(), meta),
            file_name=f"lexgate-answer-{mid[:8]}.md",
            mime="text/markdown",
            key=f"md_{mid}",
            on_click="ignore",
            icon=":material/description:",
        )
        st.download_button(
            t("export_docx"),
            data=lambda: answer_docx(question, m.content, citations, lang(), meta),
            file_name=f"lexgate-answer-{mid[:8]}.docx",
            mime="application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            key=f"docx_{mid}",
            on_click="ignore",
            icon=":material/article:",
        )


def _feedback_form(m: Message, question: str, feedback_ids: set[str], cid: str) -> None:
    mid = m.id
    with st.expander(t("feedback_title"), icon=":material/rate_review:"):
        if mid in feedback_ids:
            st.success(t("fb_thanks"), icon=":material/favorite:")
            return
        with st.form(f"fb_{mid}", border=False):
            rating = st.radio(
                t("fb_rating"), [1, 2, 3, 4, 5], index=None, horizontal=True, key=f"fb_rating_{mid}"
            )
            helpful = st.radio(
                t("fb_helpful"),
                [True, False],
                format_func=lambda v: t("yes") if v else t("no"),
                index=None,
                horizontal=True,
                key=f"fb_helpful_{mid}",
            )
            correct = st.text_area(t("fb_correct"), key=f"fb_correct_{mid}", height=80)
            comment = st.text_input(t("fb_comment"), key=f"fb_comment_{mid}")
            sent = st.form_submit_button(t("fb_submit"), type="primary")
        if sent:
            if rating is None:
                st.error(t("fb_need_rating"))
                return
            trace = Trace.from_json(m.trace)
            diagnosis = ""
            if rating <= 2 or correct.strip():
                diagnosis = json.dumps(
                    diagnose(trace, m.content, m.refused, correct).to_json(),
                    ensure_ascii=False,
                    default=str,
                )
            store.feedback.add(
                Feedback(
                    message_id=mid,
                    conversation_id=cid,
                    question=question,
                    answer=m.content,
                    rating=int(rating),
                    helpful=bool(helpful) if helpful is not None else rating >= 3,
                    correct_answer=correct.strip(),
                    comment=comment.strip(),
                    diagnosis=diagnosis,
                    trace_json=json.dumps(trace.to_json(), ensure_ascii=False, default=str),
                )
            )
            st.rerun()


def answered_by_quoting(trace: Trace) -> bool:
    """Whether the answer is the quoted evidence itself (no answer model configured)."""
    return any(code_of(n)[0] == "no_answer_model" for n in trace.notes)


def _quoted(quoted: Sequence[QuotedRecord], trace: Trace | None = None, key: str = "quoted") -> None:
    """The quoted answer: contract sentences verbatim with [n] and where they stand; with the
    stored trace, each opens its clause with the sentence highlighted (``key``: one per message, as
    two answers of a chat may quote the same sentence)."""
    if not quoted:
        return
    with st.container(border=True):
        st.caption(t("quoted_title"))
        for i, q in enumerate(quoted):
            where_ = " · ".join(x for x in (q.doc, clause_display(q.clause)) if x)
            st.markdown(quoted_line(q.text, q.n, where_))
            block = trace.block(q.n) if trace is not None else None
            if block is not None and block.text:
                with st.expander(t("citations_title") + f" [{q.n}]", key=f"{key}_{i}_{q.start}"):
                    st.markdown(highlight(block.text, [(q.start - block.start, q.end - block.start)]))


def _answer_column(m: Message, trace: Trace) -> bool:
    """Thinking (collapsed), conflict notice, the answer, and why it refused; False on an error."""
    if m.thinking:
        with st.expander(t("thinking_title"), icon=":material/psychology:"):
            st.markdown(safe(m.thinking))
    if trace.error:
        st.error(t("chat_failed", message=stored_error_text(trace.error)), icon=":material/error:")
        return False
    if trace.stopped:
        st.markdown(safe_answer(m.content))
        st.caption(t("chat_stopped"))
        return False
    if any(b.conflicting for b in trace.blocks):
        st.warning(t(premise_notice(m.verdicts or [])), icon=":material/balance:")
    if not answered_by_quoting(trace):  # else the answer below is the same quoted sentences
        _quoted(trace.quoted, trace, key=f"quoted_{m.id}")
    st.markdown(safe_answer(m.content))
    if m.refused and trace.retrieval is not None:
        refusal_note(trace, m.verdicts)
    st.caption(usage_line(m, trace))
    return True


def _assistant(m: Message, question: str, feedback_ids: set[str], cid: str) -> None:
    """Evidence panel beside the answer; below them, full width, the citations and the actions."""
    trace = Trace.from_json(m.trace)
    with st.chat_message("assistant"):
        if trace.retrieval is None and not m.verdicts:  # small talk, error, early stop
            ok = _answer_column(m, trace)
        else:
            col_ev, col_ans = st.columns([3, 2], gap="medium")
            with col_ev:
                evidence_panel(
                    m.verdicts,
                    trace.verdicts.kept if trace.verdicts else len(trace.blocks),  # as the live panel counts
                    key=f"ev_{m.id}",
                    cuts=trace_cuts(trace),
                    salvaged=trace_salvaged(trace),
                )
            with col_ans:
                ok = _answer_column(m, trace)
        if not ok:
            return
        citations_block(m.citations, trace, key=f"cit_{m.id}", answer=m.content)
        c1, c2 = st.columns(2, gap="medium")
        with c1:
            _copy_export(m, question)
        with c2:
            _feedback_form(m, question, feedback_ids, cid)


# ---------------------------------------------------------------- a new turn, streamed
def _run_turn(cid: str, question: str, kbs: list[Any], history: list[ChatTurn], think: bool) -> None:
    from rag_core.pipeline import AnswerReset, AskRequest, Done, Quoted, Retrieved, Thinking, Token, Verdicts

    store.conversations.add_message(cid, "user", question)
    with st.chat_message("user"):
        st.markdown(safe(question))
    with st.chat_message("assistant"):
        status_line = st.empty()
        status_line.caption(t("chat_searching"))
        col_ev, col_ans = st.columns([3, 2], gap="medium")
        with col_ans:
            quoted_slot = st.empty()
            think_slot = st.empty()
            warn_slot = st.empty()
            answer_slot = st.empty()
            notes = st.container()
        think_text: Any = None
        thinking, answer = "", ""
        verdicts: list[dict[str, Any]] = []
        result = None
        cancel = CancelToken()
        events: Any = None
        t0 = time.perf_counter()
        try:
            pipeline = state.pipeline(settings)
            events = pipeline.ask(AskRequest(question, kbs, history, think=think), cancel)
            for ev in events:
                if isinstance(ev, Retrieved):
                    status_line.caption(t("chat_judging", n=len(ev.hits)))
                elif isinstance(ev, Verdicts):
                    verdicts = [v.to_json() for v in ev.verdicts]
                    with col_ev:
                        evidence_panel(verdicts, ev.kept, key="live_ev")
                    if any(v.label == "CONFLICTING" and v.keep for v in ev.verdicts):
                        warn_slot.warning(t(premise_notice(verdicts)), icon=":material/balance:")
                    status_line.caption(t("chat_answering"))
                elif isinstance(ev, Quoted):
                    with quoted_slot.container():
                        _quoted([QuotedRecord(**q.to_json()) for q in ev.quoted.sentences])
                elif isinstance(ev, Thinking):
                    thinking += ev.text
                    if think_text is None:
                        think_text = think_slot.expander(
                            t("thinking_live"), expanded=True, icon=":material/psychology:"
                        ).empty()
                    think_text.markdown(safe(thinking))
                elif isinstance(ev, Token):
                    answer += ev.text
                    answer_slot.markdown(safe_answer(answer) + " ▌")
                elif isinstance(ev, AnswerReset):
                    answer = ""
                    answer_slot.empty()
                    notes.caption(t("answer_reset", reason=note_text(ev.reason)))
                elif isinstance(ev, Done):
                    result = ev.result
        except Exception as err:  # any failure becomes a message, never a traceback
            status_line.empty()
            show_error(err)
            failed = (
                Trace.failed(question, err.message, err.code, err.params)
                if isinstance(err, LexgateError)
                else Trace.failed(question, type(err).__name__)
            )
            store.conversations.add_message(
                cid,
                "assistant",
                t("chat_failed", message=failed.error.message if failed.error else ""),
                trace=failed.to_json(),
                refused=True,
                latency_ms=(time.perf_counter() - t0) * 1000,
                settings=settings.snapshot(),
            )
            return
        except BaseException as stop:
            # The lawyer pressed stop (or started another action): keep what was said, end the stream.
            if type(stop).__name__ not in ("StopException", "RerunException"):
                raise
            cancel.cancel()
            store.conversations.add_message(
                cid,
                "assistant",
                answer,
                thinking=thinking,
                verdicts=_json_safe(verdicts),
                trace=Trace(
                    question=question,
                    kbs=tuple(kb.name for kb in kbs),
                    verdicts=VerdictStage(
                        verdicts_of(verdicts),
                        thresholds_of(settings.verdict),
                        sum(1 for v in verdicts if v["keep"]),
                    ),
                    stopped=True,
                ).to_json(),
                refused=not answer,
                latency_ms=(time.perf_counter() - t0) * 1000,
                settings=settings.snapshot(),
            )
            if events is not None:
                with contextlib.suppress(Exception):
                    events.close()
            raise  # a stopped run cannot draw or rerun; the next run shows the turn marked as stopped
        if result is None:
            return
        latency = (time.perf_counter() - t0) * 1000
        store.conversations.add_message(
            cid,
            "assistant",
            result.answer,
            thinking=result.thinking,
            citations=[c.to_json() for c in result.citations],
            verdicts=_json_safe([v.to_json() for v in result.verdicts]),
            trace=_json_safe(result.trace.to_json()),
            usage=result.usage.to_json(),
            latency_ms=latency,
            settings=settings.snapshot(),
            refused=result.refused,
        )
    st.rerun()


# ---------------------------------------------------------------- the page
kbs_all = store.kbs.all()
cid = ss.get("chat_cid")
conversation: Conversation | None = None
if cid:
    try:
        conversation = store.conversations.get(cid)
    except NotFound:
        ss["chat_cid"] = cid = None
_conversation_sidebar(conversation)

st.subheader(safe(conversation.title, False) if conversation else t("chat_new_title"))
if not kbs_all:
    st.info(t("chat_no_kb"), icon=":material/folder_open:")
    st.page_link("app_pages/documents.py", label=t("nav_documents"), icon=":material/folder_open:")
    st.stop()

kb_names = {kb.id: kb.name for kb in kbs_all}
saved = [k for k in (conversation.kb_ids if conversation else []) if k in kb_names]
default = saved or [k for k in ss.get("chat_last_kbs", []) if k in kb_names] or [kbs_all[0].id]
c1, c2 = st.columns([4, 1], vertical_alignment="bottom")
selected = c1.multiselect(
    t("chat_kbs"),
    list(kb_names),
    default=default,
    format_func=lambda k: kb_names[k],
    key=f"chat_kbs_{cid or 'new'}",
)
think_ok = thinking_available(settings)  # the local model has no separate reasoning
toggled = c2.toggle(
    t("think_toggle"),
    key="chat_think",
    help=t("think_help") if think_ok else t("think_local_none"),
    disabled=not think_ok,
)
think = think_ok and toggled
if not think_ok:
    c2.caption(t("think_local_short"))
ss["chat_last_kbs"] = selected
if conversation and selected and selected != saved:
    store.conversations.set_kbs(conversation.id, selected)

messages = store.conversations.messages(cid) if cid else []
feedback_ids = {f.message_id for f in store.feedback.all()} if messages else set()
last_question = ""
for m in messages:
    if m.role == "user":
        last_question = m.content
        with st.chat_message("user"):
            st.markdown(safe(m.content))
    else:
        _assistant(m, last_question, feedback_ids, cid or "")

if not messages:
    st.caption(t("chat_empty_hint"))

question = st.chat_input(t("chat_placeholder"), disabled=not selected, key="chat_input", submit_mode="stop")
if not selected:
    st.caption(t("chat_pick_kb"))
if question and question.strip() and selected:
    kbs = [kb for kb in kbs_all if kb.id in selected]
    if cid is None:
        title = conversation_title(question)
        cid = store.conversations.create(title, selected)
        ss["chat_cid"] = cid
    history = [
        ChatTurn.of_message(m.role, m.content, m.citations)
        for m in messages
        if m.role in ("user", "assistant") and m.content and Trace.from_json(m.trace).error is None
    ]
    _run_turn(cid, question.strip(), kbs, history, think)
