"""Inspect: everything one past answer did — query, retrieval legs, fusion, rerank, verdicts with
their thresholds, the exact prompt, reflection, timings, usage and models — filterable, as JSON."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import streamlit as st

from rag_core.coded import coded
from rag_core.models import LABELS
from rag_core.trace import KbRetrievalRecord, SupportRecord, Trace
from storage.rows import Message
from ui import state
from ui.coded import note_text, term
from ui.components import download_json, safe, token_figure, verdict_table
from ui.errors import stored_error_text
from ui.i18n import option_label, t

store = state.store()
ss = st.session_state
st.title(t("inspect_title"))

convs = store.conversations.all()
if not convs:
    st.info(t("inspect_none"), icon=":material/search:")
    st.stop()

conv_titles = {c.id: c.title for c in convs}
ids = list(conv_titles)
if ss.get("inspect_conv") not in ids:
    ss["inspect_conv"] = ss.get("chat_cid") if ss.get("chat_cid") in ids else ids[0]
c1, c2 = st.columns(2)
cid = c1.selectbox(t("inspect_conv"), ids, format_func=lambda i: conv_titles[i] or "—", key="inspect_conv")
messages = store.conversations.messages(cid)
pairs: list[tuple[str, Message]] = []
question = ""
for m in messages:
    if m.role == "user":
        question = m.content
    elif m.role == "assistant":
        pairs.append((question, m))
if not pairs:
    st.info(t("inspect_no_answers"))
    st.stop()
labels = {m.id: f"{i + 1}. {q[:60]}" for i, (q, m) in enumerate(pairs)}
by_id = {m.id: (q, m) for q, m in pairs}
mid = c2.selectbox(
    t("inspect_turn"), list(labels)[::-1], format_func=lambda i: labels[i], key=f"inspect_turn_{cid}"
)
question, msg = by_id[mid]
trace = Trace.from_json(msg.trace)
usage = msg.usage

st.markdown(f"**{t('inspect_question')}** {safe(question, False)}")
m1, m2, m3, m4 = st.columns(4)
m1.metric(t("inspect_latency"), f"{float(msg.latency_ms or 0) / 1000:.2f} s")
m2.metric(
    t("inspect_tokens"),
    token_figure(usage),
    help=t("tokens_estimated_help") if usage.get("estimated") else None,
)
m3.metric(t("inspect_candidates"), len(msg.verdicts))
m4.metric(t("inspect_blocks"), len(trace.blocks))
download_json(
    t("inspect_export"),
    {"question": question, **asdict(msg)},
    f"lexgate-trace-{mid[:8]}.json",
    key="inspect_json",
)
if trace.error:
    st.error(t("chat_failed", message=stored_error_text(trace.error)))

tabs = st.tabs(
    [
        t("tab_query"),
        t("tab_retrieval"),
        t("tab_verdicts"),
        t("tab_prompt"),
        t("tab_reflection"),
        t("tab_timings"),
    ]
)

# ---------------------------------------------------------------- query
with tabs[0]:
    q = trace.query
    st.markdown(f"**{t('query_used')}**")
    st.code(q.text if q else question, language=None, wrap_lines=True)
    if q and q.joined and q.joined != q.text:
        st.markdown(f"**{t('query_joined')}**")
        st.code(q.joined, language=None, wrap_lines=True)
    if q and q.condensed:
        st.markdown(f"**{t('query_condensed')}**")
        st.code(q.condensed, language=None, wrap_lines=True)
    if q and q.judged:
        st.markdown(f"**{t('query_judged')}**")
        st.code(q.judged, language=None, wrap_lines=True)
    if q and q.in_context:
        st.markdown(f"**{t('query_in_context')}**")
        st.code(q.in_context, language=None, wrap_lines=True)
    for note in q.notes if q else ():
        st.caption(note_text(note))
    if trace.retrieve_or_not:
        st.markdown(f"**{t('retrieve_or_not')}**")
        rn = trace.retrieve_or_not
        st.caption(
            t(
                "rtr_line",
                needed=t("yes") if rn.needed else t("no"),
                by=term(rn.by),
                reason=note_text(rn.reason),
            )
        )


# ---------------------------------------------------------------- retrieval
def _leg_table(rt: KbRetrievalRecord) -> list[dict[str, Any]]:
    """One row per candidate: each leg's rank and score, the fused rank and score, rerank score."""
    rows: dict[str, dict[str, Any]] = {}
    for leg, hits in rt.legs.items():
        for h in hits:
            r = rows.setdefault(h.chunk_id, {"chunk_id": h.chunk_id})
            r[f"{leg} #"] = h.rank
            r[f"{leg} score"] = h.score
    rerank = rt.rerank.scores if rt.rerank else ()
    for i, f in enumerate(rt.fused):
        r = rows.setdefault(f.chunk_id, {"chunk_id": f.chunk_id})
        r[t("col_fused_rank")] = f.rank
        r[t("col_fused_score")] = f.score
        if i < len(rerank):
            r[t("col_rerank")] = rerank[i]
    docs = {v.chunk_id: v for v in trace.verdict_list}
    out = []
    for cidk, r in rows.items():
        v = docs.get(cidk)
        out.append({**r, t("col_doc"): v.doc if v else "", t("col_clause"): v.clause if v else ""})
    return sorted(out, key=lambda r: r.get(t("col_fused_rank"), 10**6))


with tabs[1]:
    per_kb = trace.retrievals()
    if not per_kb:
        st.caption(t("retrieval_none"))
    if trace.retrieval and trace.retrieval.merge:
        st.caption(t("retrieval_merge", how=trace.retrieval.merge))
    for rt in per_kb:
        st.markdown(f"**{t('retrieval_kb', kb=safe(rt.kb, False), mode=option_label('mode', rt.mode))}**")
        st.code(rt.query, language=None, wrap_lines=True)
        if rt.routing:
            st.markdown(f"*{t('retrieval_routing')}*")
            st.json(rt.routing.to_json(), expanded=False)
        if rt.hyde:
            st.markdown(f"*{t('retrieval_hyde')}*")
            st.code(rt.hyde, language=None, wrap_lines=True)
        if rt.rewrites:
            st.markdown(f"*{t('retrieval_rewrites')}*")
            for rw in rt.rewrites:
                st.code(rw, language=None, wrap_lines=True)
        if rt.rerank:
            st.caption(t("retrieval_rerank", method=rt.rerank.method))
        st.dataframe(_leg_table(rt), hide_index=True, key=f"legs_{rt.kb}")
        for note in rt.notes:
            st.caption(note_text(note))

# ---------------------------------------------------------------- verdicts
with tabs[2]:
    verdicts = msg.verdicts or [v.to_json() for v in trace.verdict_list]
    thresholds = trace.thresholds
    if thresholds:
        cols = st.columns(4)
        for col, key in zip(cols, ("t_injection", "t_conflict", "t_relevance", "t_evidence"), strict=True):
            col.metric(t("thr_" + key), f"{float(thresholds.get(key, 0)):.2f}")
    if not verdicts:
        st.caption(t("verdicts_none"))
    else:
        f1, f2 = st.columns([3, 1])
        present = [lab for lab in LABELS if any(v.get("label") == lab for v in verdicts)]
        wanted = f1.multiselect(t("filter_labels"), present, default=present, key="inspect_labels")
        kept_filter = f2.segmented_control(
            t("filter_kept"),
            ["all", "kept", "dropped"],
            format_func=lambda k: t(
                {"all": "filter_all", "kept": "filter_kept_only"}.get(k, "filter_dropped")
            ),
            default="all",
            key="inspect_kept",
        )
        shown = [
            v
            for v in verdicts
            if v.get("label") in wanted
            and (kept_filter in (None, "all") or bool(v.get("keep")) == (kept_filter == "kept"))
        ]
        st.caption(t("verdicts_shown", n=len(shown), total=len(verdicts)))
        verdict_table(shown, key="inspect_verdicts")
    blocks = trace.blocks
    if blocks:
        st.markdown(f"**{t('blocks_title')}**")
        st.dataframe(
            [
                {
                    "n": b.n,
                    t("col_doc"): b.doc,
                    t("col_page"): str(b.page or ""),
                    t("col_clause"): b.clause,
                    t("col_children"): len(b.children),
                    t("col_conflicting"): b.conflicting,
                    t("col_text"): b.text,
                }
                for b in blocks
            ],
            hide_index=True,
            key="inspect_blocks",
        )

# ---------------------------------------------------------------- prompt
with tabs[3]:
    prompts = trace.prompts
    if not prompts:
        st.caption(t("prompt_none"))
    for i, p in enumerate(prompts, start=1):
        if len(prompts) > 1:
            st.markdown(f"**{t('prompt_n', n=i)}**")
        st.code(p, language=None, wrap_lines=True)
    if msg.thinking:
        st.markdown(f"**{t('thinking_title')}**")
        st.code(msg.thinking, language=None, wrap_lines=True)


# ---------------------------------------------------------------- reflection
def _support_rows(items: tuple[SupportRecord, ...]) -> list[dict[str, Any]]:
    return [
        {
            t("col_sentence"): s.sentence,
            t("col_support"): term(s.label),
            t("col_score"): s.score,
            t("col_cited"): ", ".join(str(c) for c in s.cited),
            t("col_by"): term(s.by),
            t("col_note"): note_text(s.note, markdown=False),
        }
        for s in items
    ]


with tabs[4]:
    reflection = trace.reflection
    if not reflection or not reflection.support:
        st.caption(t("support_none"))
    else:
        st.dataframe(_support_rows(reflection.support), hide_index=True, key="inspect_support")
    if reflection and reflection.support_after_regeneration:
        st.markdown(f"**{t('support_regenerated')}**")
        st.dataframe(
            _support_rows(reflection.support_after_regeneration), hide_index=True, key="inspect_support2"
        )
    notes: list[str] = list(trace.notes) + list(trace.evidence.budget_notes)
    if reflection and reflection.invalid_citations:
        numbers = ", ".join(str(n) for n in reflection.invalid_citations)
        notes.append(coded("invalid_citations", f"invalid citations removed: {numbers}", numbers=numbers))
    if notes:
        st.markdown(f"**{t('notes_title')}**")
        for n in notes:
            st.caption(note_text(n))

# ---------------------------------------------------------------- timings, usage, models
with tabs[5]:
    timings = dict(trace.timings_ms)
    for rt in per_kb:
        for k, v in rt.timings_ms.items():
            timings[f"retrieval.{rt.kb}.{k}"] = v
    if timings:
        st.dataframe(
            [{t("col_stage"): k, "ms": v} for k, v in timings.items()],
            hide_index=True,
            key="inspect_timings",
            column_config={"ms": st.column_config.NumberColumn("ms", format="%.1f")},
        )
    st.markdown(f"**{t('usage_title')}**")
    st.json(usage or {}, expanded=True)
    st.markdown(f"**{t('models_title')}**")
    st.json(trace.models.to_json(), expanded=True)
    with st.expander(t("settings_snapshot")):
        st.json(msg.settings or dict(trace.settings), expanded=False)
