"""Evaluation: test sets (create, rename, delete; generate cases from a knowledge base's chunks;
review and edit them in a table; import and export JSONL), runs of a test set through the real
pipeline with progress and cancel, per-metric scores with a chart per metric and each question's
trace, and two stored runs compared side by side with the settings that differ.

Long work (generation, runs) goes to a background job (``ui.evaluation.Job``) the page polls, so a
click never aborts it and a cancelled run keeps every case that finished.
"""

from __future__ import annotations

import time
from typing import Any

import pandas as pd
import streamlit as st

from rag_core.embeddings.registry import get_embedder
from rag_core.evaluation.testset import DIFFICULTIES
from rag_core.llm.factory import get_chat_model, unavailable_error
from rag_core.models import KnowledgeBase
from rag_core.trace import Trace
from storage.chunks import ChunkFilter
from storage.rows import StoredRun, TestSet
from ui import evaluation as ev
from ui import state
from ui.components import (
    citations_block,
    confirm,
    download_json,
    label_badges,
    label_counts,
    safe,
    safe_answer,
    show_error,
    verdict_table,
)
from ui.errors import error_text, stored_error_text
from ui.i18n import t

store = state.store()
WHOLE_CLAUSES = ChunkFilter(exclude_kind="child")  # parents and plain chunks: what cases are asked about
settings = state.settings()
ss = st.session_state
GREEN = "background-color: #d8f0df"
RED = "background-color: #f8dada"
POLL_S = 1.0

st.title(t("ev_title"))


# ---------------------------------------------------------------- shared helpers
def metric_label(name: str) -> str:
    """The metric's name in the interface language (its key is ``ev_m_<metric>``)."""
    return t("ev_m_" + name) if name in ev.METRICS else name


def metric_help(name: str) -> str:
    """What the metric measures (its key is ``ev_h_<metric>``)."""
    return t("ev_h_" + name) if name in ev.METRICS else name


def difficulty_label(value: Any) -> str:
    return {"easy": t("ev_diff_easy"), "medium": t("ev_diff_medium"), "hard": t("ev_diff_hard")}.get(
        str(value), "—"
    )


def fmt(value: Any, digits: int = 3) -> str:
    return "—" if not isinstance(value, int | float) else f"{value:.{digits}f}"


def fmt_delta(value: Any) -> str | None:
    return None if not isinstance(value, int | float) else f"{value:+.3f}"


def when(iso: str) -> str:
    return str(iso or "").replace("T", " ").replace("+00:00", "")


def flash(kind: str, message: str) -> None:
    ss.setdefault("ev_flash", []).append((kind, message))


def remember(key: str, options: list[Any], default: Any) -> None:
    """Seed a selection widget: its value, else the one kept from its last run, else ``default``.

    Streamlit drops a widget's value on a run that does not draw it (another section shown).
    """
    if ss.get(key) in options:
        return
    kept = ss.get(f"{key}_keep")
    ss[key] = kept if kept in options else default


def job() -> ev.Job | None:
    j = ss.get("ev_job")
    return j if isinstance(j, ev.Job) else None


def busy() -> bool:
    j = job()
    return j is not None and not j.finished


kbs = store.kbs.all()
kb_by_id: dict[str, KnowledgeBase] = {kb.id: kb for kb in kbs}
gen_missing = unavailable_error(settings, "answer")
judge_missing = unavailable_error(settings, "judge")
gen_why = error_text(gen_missing) if gen_missing else ""  # escaped, in the interface language
judge_why = error_text(judge_missing) if judge_missing else ""


# ---------------------------------------------------------------- the running job
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


def testset_label(ts: TestSet) -> str:
    kb = kb_by_id.get(ts.kb_id)
    return f"{ts.name} · {kb.name if kb else t('ev_no_kb')}"


# ================================================================= test sets
def generation_panel(ts: TestSet, kb: KnowledgeBase | None, current: list[dict[str, Any]]) -> None:
    with st.expander(t("ev_gen_title"), icon=":material/auto_awesome:"):
        if kb is None:
            st.info(t("ev_gen_needs_kb"))
            return
        if gen_why:
            st.warning(t("ev_gen_unavailable", why=gen_why), icon=":material/extension:")
        try:
            available = store.chunks.count(kb, WHOLE_CLAUSES)
        except Exception as err:
            show_error(err)
            return
        if not available:
            st.info(t("ev_gen_no_chunks", kb=safe(kb.name, False)))
            return
        c1, c2, c3 = st.columns(3)
        per_chunk = c1.number_input(
            t("ev_gen_per_chunk"), min_value=1, max_value=ev.MAX_PER_CHUNK, value=2, key="ev_gen_per"
        )
        top = max(1, min(ev.MAX_SAMPLE, available))
        sample = c2.number_input(
            t("ev_gen_sample"),
            min_value=1,
            max_value=top,
            value=min(ev.DEFAULT_SAMPLE, top),
            key="ev_gen_sample",
            help=t("ev_gen_sample_help", n=available),
        )
        langs = {"auto": t("ev_gen_lang_auto"), "zh": t("ev_gen_lang_zh"), "en": t("ev_gen_lang_en")}
        language = c3.selectbox(
            t("ev_gen_lang"), list(langs), format_func=lambda k: langs[k], key="ev_gen_lang"
        )
        if st.button(
            t("ev_gen_start"),
            key="ev_gen_start",
            type="primary",
            icon=":material/auto_awesome:",
            disabled=bool(gen_why) or busy(),
        ):
            model = get_chat_model(settings, "answer")
            if model is None:
                st.warning(t("ev_gen_unavailable", why=gen_why or "-"))
                return
            used = {cid for c in current for cid in c.get("source_chunks") or []}
            try:
                rows = store.chunks.rows(kb, WHOLE_CLAUSES)
            except Exception as err:
                show_error(err)
                return
            chunks = ev.pick_chunks(rows, int(sample), used)
            if not chunks:
                st.info(t("ev_gen_no_chunks", kb=safe(kb.name, False)))
                return
            n = int(per_chunk)
            ss["ev_job"] = ev.Job(
                "generate", lambda jb: ev.generate(jb, model, chunks, n, str(language)), target=ts.id
            ).start()
            ss.pop("ev_gen_notes", None)
            st.rerun()
        notes = ss.get("ev_gen_notes")
        if notes:
            st.markdown(f"**{t('ev_gen_notes', n=len(notes))}**")
            st.dataframe(
                [
                    {t("ev_col_chunk"): nt.chunk_id, t("ev_col_note"): nt.message, t("ev_col_raw"): nt.raw}
                    for nt in notes
                ],
                hide_index=True,
                key="ev_gen_notes_table",
            )


def import_export_panel(ts: TestSet, stored: list[dict[str, Any]]) -> list[Any] | None:
    """Import (all or nothing) and export; the imported cases when a good file was imported."""
    imported = None
    with st.expander(t("ev_io_title"), icon=":material/swap_vert:"):
        ss.setdefault("ev_upl_n", 0)
        up = st.file_uploader(
            t("ev_import_label"), type=["jsonl", "json", "txt"], key=f"ev_upload_{ss['ev_upl_n']}"
        )
        if st.button(t("ev_import"), key="ev_import", disabled=up is None, icon=":material/upload:"):
            try:
                text = up.getvalue().decode("utf-8-sig") if up is not None else ""
            except UnicodeDecodeError:
                ss["ev_import_problems"] = [t("ev_import_not_utf8")]
            else:
                cases, problems = ev.parse_import(text)
                if problems:
                    ss["ev_import_problems"] = problems
                elif not cases:
                    ss["ev_import_problems"] = [t("ev_import_empty")]
                else:
                    ss.pop("ev_import_problems", None)
                    ss["ev_upl_n"] += 1
                    imported = cases
        bad_lines: list[str] = ss.get("ev_import_problems") or []
        if bad_lines:
            st.error(
                t("ev_import_bad", n=len(bad_lines))
                + "\n"
                + "\n".join(f"- {safe(p, False)}" for p in bad_lines),
                icon=":material/block:",
            )
        st.download_button(
            t("ev_export", n=len(stored)),
            data=ev.cases_jsonl(stored),
            file_name=f"{ts.name}.jsonl",
            mime="application/jsonl",
            key="ev_export",
            on_click="ignore",
            icon=":material/download:",
            disabled=not stored,
        )
        st.caption(t("ev_export_note"))
    return imported


def section_sets() -> None:
    testsets = store.evaluation.testsets()
    with (
        st.expander(t("ev_ts_new"), expanded=not testsets, icon=":material/add:"),
        st.form("ev_ts_new_form", clear_on_submit=True, border=False),
    ):
        name = st.text_input(t("ev_ts_name"), max_chars=120)
        kb_new = st.selectbox(
            t("kb_pick"), list(kb_by_id), format_func=lambda i: kb_by_id[i].name, key="ev_ts_new_kb"
        )
        if st.form_submit_button(t("ev_ts_create"), type="primary"):
            if not kbs:
                st.warning(t("ev_need_kb"))
            elif name.strip() in {ts.name for ts in testsets}:
                st.error(t("ev_ts_exists", name=safe(name.strip(), False)))
            else:
                try:
                    tid = store.evaluation.save_testset(name, str(kb_new), [])
                    ss["ev_ts"] = tid
                    flash("success", t("ev_ts_created", name=safe(name.strip(), False)))
                    st.rerun()
                except Exception as err:
                    show_error(err)
    if not kbs and not testsets:
        st.info(t("ev_need_kb"), icon=":material/folder_open:")
        return
    if not testsets:
        st.info(t("ev_ts_none"), icon=":material/fact_check:")
        return

    by_id = {ts.id: ts for ts in testsets}
    remember("ev_ts", list(by_id), testsets[-1].id)
    tid = st.selectbox(
        t("ev_ts_pick"), list(by_id), format_func=lambda i: testset_label(by_id[i]), key="ev_ts"
    )
    ss["ev_ts_keep"] = tid
    ts = by_id[tid]
    kb = kb_by_id.get(ts.kb_id)
    stored = store.evaluation.cases(tid)

    with st.expander(t("ev_ts_manage"), icon=":material/settings:"):
        with st.form("ev_ts_edit_form", border=False):
            new_name = st.text_input(t("ev_ts_rename_to"), value=ts.name, max_chars=120)
            kb_ids = list(kb_by_id)
            new_kb = st.selectbox(
                t("ev_ts_kb"),
                kb_ids,
                index=kb_ids.index(kb.id) if kb is not None else None,
                format_func=lambda i: kb_by_id[i].name,
                placeholder=t("ev_no_kb"),
            )
            if st.form_submit_button(t("ev_ts_save_meta")):
                clean = new_name.strip()
                if clean != ts.name and clean in {x.name for x in testsets}:
                    st.error(t("ev_ts_exists", name=safe(clean, False)))
                else:
                    try:
                        store.evaluation.save_testset(clean, str(new_kb or ts.kb_id), stored, tid)
                        flash("success", t("ev_ts_meta_saved", name=safe(clean, False)))
                        st.rerun()
                    except Exception as err:
                        show_error(err)
        if st.button(t("ev_ts_delete"), key="ev_ts_delete", icon=":material/delete:"):
            ss["ev_confirm_ts_delete"] = True
        if confirm(
            "ev_confirm_ts_delete", t("ev_ts_delete_confirm", name=safe(ts.name, False), n=len(stored))
        ):
            try:
                store.evaluation.delete_testset(tid)
                ss["ev_confirm_ts_delete"] = False
                ss.pop("ev_ts", None)
                ss.pop("ev_draft", None)
                flash("success", t("ev_ts_deleted", name=safe(ts.name, False)))
                st.rerun()
            except Exception as err:
                show_error(err)
    if kb is None:
        st.warning(t("ev_ts_kb_missing"), icon=":material/link_off:")

    # The table's base data: the stored cases, until generation or import adds to it.
    draft = ss.get("ev_draft")
    if not isinstance(draft, dict) or draft.get("tid") != tid:
        draft = ss["ev_draft"] = {"tid": tid, "cases": stored, "v": 0}
    elif f"ev_editor_{tid}_{draft['v']}" not in ss and draft.get("edited") not in (None, draft["cases"]):
        # The table was not drawn on some run (another section or page): Streamlit dropped its
        # edits, so they become the table's base data.
        draft = ss["ev_draft"] = {"tid": tid, "cases": draft["edited"], "v": draft["v"] + 1}

    tools = st.container()
    st.subheader(t("ev_review_title"))
    counts = {d: sum(1 for c in draft["cases"] if c.get("difficulty") == d) for d in DIFFICULTIES}
    st.caption(
        t(
            "ev_review_caption",
            n=len(draft["cases"]),
            refs=sum(1 for c in draft["cases"] if str(c.get("reference_answer", "")).strip()),
            spans=ev.span_case_count(draft["cases"]),
            easy=counts["easy"],
            medium=counts["medium"],
            hard=counts["hard"],
        )
    )
    edited = st.data_editor(
        pd.DataFrame(ev.editor_rows(draft["cases"]), columns=list(ev.EDITOR_COLUMNS)),
        key=f"ev_editor_{tid}_{draft['v']}",
        num_rows="dynamic",
        hide_index=True,
        width="stretch",
        column_order=["question", "reference_answer", "difficulty", "origin", "sources"],
        disabled=["id", "origin", "sources"],
        column_config={
            "id": st.column_config.TextColumn("id"),
            "question": st.column_config.TextColumn(t("col_question"), width="large", required=True),
            "reference_answer": st.column_config.TextColumn(t("ev_col_reference"), width="large"),
            "difficulty": st.column_config.SelectboxColumn(
                t("ev_col_difficulty"),
                options=list(DIFFICULTIES),
                format_func=difficulty_label,
                width="small",
            ),
            "origin": st.column_config.TextColumn(t("ev_col_origin"), width="small"),
            "sources": st.column_config.NumberColumn(
                t("ev_col_sources"), width="small", help=t("ev_col_sources_help")
            ),
        },
    )
    current, problems = ev.cases_from_editor(edited.to_dict("records"), draft["cases"])
    draft["edited"] = None if problems else current
    dirty = current != [ev.normalize_case(c) for c in stored]
    for p in problems:
        st.error(safe(p, False), icon=":material/error:")
    c1, c2, _ = st.columns([1, 1, 3])
    if c1.button(
        t("ev_save", n=len(current)),
        key="ev_save",
        type="primary",
        disabled=not dirty or bool(problems),
        icon=":material/save:",
    ):
        try:
            store.evaluation.save_testset(ts.name, ts.kb_id, current, tid)
            ss["ev_draft"] = {"tid": tid, "cases": current, "v": draft["v"] + 1}
            flash("success", t("ev_saved", n=len(current), name=safe(ts.name, False)))
            st.rerun()
        except Exception as err:
            show_error(err)
    if c2.button(t("ev_discard"), key="ev_discard", disabled=not dirty):
        ss["ev_draft"] = {"tid": tid, "cases": stored, "v": draft["v"] + 1}
        st.rerun()
    if dirty:
        st.warning(t("ev_unsaved", n=len(current), stored=len(stored)), icon=":material/edit_note:")

    with tools:
        generation_panel(ts, kb, current)
        imported = import_export_panel(ts, stored)
    if imported:
        merged, added, replaced = ev.merge_imported(current, imported)
        ss["ev_draft"] = {"tid": tid, "cases": merged, "v": draft["v"] + 1}
        flash("success", t("ev_imported", added=added, replaced=replaced))
        st.rerun()

    j = job()
    if j is not None and j.finished and j.kind == "generate" and j.target == tid:
        out: ev.Generated = j.result
        ss["ev_job"] = None
        merged, added, dups = ev.merge_generated(current, out.cases)
        ss["ev_draft"] = {"tid": tid, "cases": merged, "v": draft["v"] + 1}
        ss["ev_gen_notes"] = out.notes
        flash(
            "success",
            t("ev_generated", added=added, dups=dups, chunks=out.chunks, notes=len(out.notes)),
        )
        st.rerun()
    elif j is not None and j.finished and j.kind == "generate":
        target = next((x.name for x in testsets if x.id == j.target), None)
        if target is None:  # its test set was deleted meanwhile
            ss["ev_job"] = None
        else:
            st.info(t("ev_gen_waiting", name=safe(target, False)), icon=":material/hourglass_bottom:")


# ================================================================= runs
def trace_summary(row: dict[str, Any], key: str) -> None:
    """One question of a run: answer, metrics with reasons, query, verdicts, citations."""
    trace = Trace.from_json(row.get("trace"))
    with st.container(border=True):
        st.markdown(f"**{t('col_question')}** {safe(row.get('question', ''), False)}")
        if str(row.get("reference_answer", "")).strip():
            st.markdown(f"**{t('ev_col_reference')}**  \n{safe(row['reference_answer'])}")
        st.markdown(f"**{t('fb_answer')}**  \n{safe_answer(str(row.get('answer', ''))) or '—'}")
        if trace.error:
            st.error(t("ev_case_error", message=stored_error_text(trace.error)), icon=":material/error:")
        elif row.get("refused"):
            st.caption(t("ev_refused_note"))
        metrics = row.get("metrics") or {}
        if metrics:
            st.dataframe(
                [
                    {
                        t("ev_col_metric"): metric_label(m),
                        t("ev_col_value"): (metrics[m] or {}).get("value"),
                        t("ev_col_reason"): (metrics[m] or {}).get("error") or "",
                    }
                    for m in ev.metric_order(list(metrics))
                ],
                hide_index=True,
                key=f"{key}_metrics",
                column_config={t("ev_col_value"): st.column_config.NumberColumn(format="%.3f")},
            )
        query = (trace.query.text if trace.query else "") or trace.question
        st.markdown(f"**{t('query_used')}**")
        st.code(str(query), language=None, wrap_lines=True)
        verdicts = [v.to_json() for v in trace.verdict_list]
        if verdicts:
            st.markdown(f"**{t('evidence_title')}** {label_badges(label_counts(verdicts))}")
            verdict_table(verdicts, key=f"{key}_verdicts", height=min(38 + 35 * len(verdicts), 320))
        else:
            st.caption(t("verdicts_none"))
        citations_block(row.get("citations") or [], trace, key=f"{key}_cit")
        st.caption(t("ev_inspect_note"))
        download_json(
            t("ev_trace_download"), row, f"lexgate-eval-{row.get('case_id', 'case')}.json", key=f"{key}_json"
        )


def chart_spec(title: str) -> dict[str, Any]:
    """Bars of one metric per case, on a fixed 0–1 scale so the charts compare at a glance."""
    return {
        "mark": {"type": "bar", "tooltip": True},
        "encoding": {
            "x": {
                "field": "case",
                "type": "nominal",
                "sort": None,
                "title": t("ev_case_axis"),
                "axis": {"labelAngle": 0},
            },
            "y": {"field": "value", "type": "quantitative", "scale": {"domain": [0, 1]}, "title": title},
        },
    }


def show_run(run: StoredRun) -> None:
    summary = run.summary
    rows: list[dict[str, Any]] = run.rows
    kb = kb_by_id.get(run.kb_id)
    if run.status == "cancelled":
        st.warning(t("ev_run_cancelled", n=len(rows)), icon=":material/stop_circle:")
    st.caption(
        t(
            "ev_run_caption",
            testset=safe(summary.get("testset") or "—", False),
            kb=safe(kb.name if kb else "—", False),
            judge=safe(summary.get("judge") or t("ev_no_judge"), False),
            created=when(run.created_at),
        )
    )
    c1, c2, c3 = st.columns(3)
    c1.metric(t("ev_cases"), int(summary.get("cases") or len(rows)))
    rr = summary.get("refusal_rate")
    c2.metric(t("ev_refusal_rate"), "—" if rr is None else f"{rr:.0%}")
    lat = summary.get("median_latency_ms")
    c3.metric(t("ev_median_latency"), "—" if lat is None else f"{float(lat) / 1000:.2f} s")

    metrics = ev.run_metrics(run)
    aggs = summary.get("metrics") or {}
    if not metrics:
        st.info(t("ev_no_metrics"))
    else:
        st.markdown(f"#### {t('ev_scores_title')}")
        cols = st.columns(min(4, len(metrics)))
        for i, m in enumerate(metrics):
            agg = aggs.get(m) or {}
            with cols[i % len(cols)]:
                st.metric(metric_label(m), fmt(agg.get("mean")), help=metric_help(m))
                st.caption(t("ev_judged", n=agg.get("n", 0), bad=agg.get("could_not_judge", 0)))
        st.dataframe(
            [
                {
                    t("ev_col_metric"): metric_label(m),
                    "metric": m,
                    t("ev_col_mean"): (aggs.get(m) or {}).get("mean"),
                    t("ev_col_judged"): (aggs.get(m) or {}).get("n", 0),
                    t("ev_col_unjudged"): (aggs.get(m) or {}).get("could_not_judge", 0),
                }
                for m in metrics
            ],
            hide_index=True,
            key="ev_summary_table",
            column_config={
                t("ev_col_mean"): st.column_config.ProgressColumn(min_value=0.0, max_value=1.0, format="%.3f")
            },
        )
        reasons = {m: ev.unjudged_reasons(rows, m) for m in metrics}
        if any(reasons.values()):
            with st.expander(t("ev_unjudged_title"), icon=":material/help:"):
                st.dataframe(
                    [
                        {t("ev_col_metric"): metric_label(m), t("ev_col_reason"): why, t("ev_cases"): n}
                        for m, whys in reasons.items()
                        for why, n in whys.items()
                    ],
                    hide_index=True,
                    key="ev_unjudged_table",
                )

        st.markdown(f"#### {t('ev_charts_title')}")
        st.caption(t("ev_charts_caption"))
        chart_cols = st.columns(2)
        for i, m in enumerate(metrics):
            values = ev.metric_values(rows, m)
            with chart_cols[i % 2]:
                st.markdown(f"**{metric_label(m)}**")
                if all(v is None for v in values):
                    st.caption(t("ev_chart_empty"))
                    continue
                data = pd.DataFrame({"case": [f"#{k + 1}" for k in range(len(rows))], "value": values})
                st.vega_lite_chart(data, chart_spec(metric_label(m)), width="stretch", height=220)

    st.markdown(f"#### {t('ev_rows_title')}")
    table = []
    for k, r in enumerate(rows, start=1):
        entry: dict[str, Any] = {
            "#": k,
            t("col_question"): r.get("question", ""),
            t("fb_answer"): r.get("answer", ""),
            t("ev_col_refused"): bool(r.get("refused")),
            t("ev_col_latency"): round(float(r.get("latency_ms") or 0) / 1000, 2),
        }
        for m in metrics:
            entry[metric_label(m)] = ev.metric_values([r], m)[0]
        error = Trace.from_json(r.get("trace")).error
        if error:
            entry[t("ev_col_error")] = error.message
        table.append(entry)
    cfg: dict[str, Any] = {
        "#": st.column_config.NumberColumn("#", width=40),
        t("col_question"): st.column_config.TextColumn(t("col_question"), width="medium"),
        t("fb_answer"): st.column_config.TextColumn(t("fb_answer"), width="large"),
        t("ev_col_latency"): st.column_config.NumberColumn(t("ev_col_latency"), format="%.2f s"),
    }
    for m in metrics:
        cfg[metric_label(m)] = st.column_config.NumberColumn(metric_label(m), format="%.2f")
    picked = st.dataframe(
        table,
        hide_index=True,
        key=f"ev_rows_{run.id}",
        column_config=cfg,
        on_select="rerun",
        selection_mode="single-row",
    )
    chosen = picked.selection.rows if picked is not None else []
    if chosen and chosen[0] < len(rows):
        trace_summary(rows[chosen[0]], key=f"ev_case_{run.id}_{chosen[0]}")
    else:
        st.caption(t("ev_rows_pick_hint"))

    with st.expander(t("ev_settings_snapshot"), icon=":material/tune:"):
        st.json(run.settings, expanded=False)
    download_json(
        t("ev_run_download"),
        run.to_json(),
        f"lexgate-eval-run-{run.id[:8]}.json",
        key="ev_run_json",
    )


def run_label(r: StoredRun) -> str:
    status = "" if r.status == "done" else f" · {t('ev_status_cancelled')}"
    return f"{r.name or '—'} · {when(r.created_at)}{status}"


def section_runs() -> None:
    testsets = store.evaluation.testsets()
    st.subheader(t("ev_run_new"))
    if not testsets or not kbs:
        st.info(t("ev_run_needs"), icon=":material/fact_check:")
    else:
        by_id = {ts.id: ts for ts in testsets}
        c1, c2 = st.columns(2)
        remember("ev_run_ts", list(by_id), ss.get("ev_ts_keep") or testsets[-1].id)
        tid = c1.selectbox(
            t("ev_ts_pick"), list(by_id), format_func=lambda i: testset_label(by_id[i]), key="ev_run_ts"
        )
        ss["ev_run_ts_keep"] = tid
        ts = by_id[tid]
        kb_ids = list(kb_by_id)
        bound = ts.kb_id
        kb_id = c2.selectbox(
            t("kb_pick"),
            kb_ids,
            index=kb_ids.index(bound) if bound in kb_ids else 0,
            format_func=lambda i: kb_by_id[i].name,
            key=f"ev_run_kb_{tid}",
        )
        kb = kb_by_id[kb_id]
        cases = store.evaluation.cases(tid)
        name = st.text_input(
            t("ev_run_name"),
            key="ev_run_name",
            placeholder=f"{ts.name} · {time.strftime('%Y-%m-%d %H:%M')}",
        )
        spans = ev.span_case_count(cases)
        refs = sum(1 for c in cases if str(c.get("reference_answer", "")).strip())
        st.caption(t("ev_run_cases", n=len(cases), refs=refs, spans=spans))
        if judge_why:
            st.warning(t("ev_no_judge_model", why=judge_why, spans=spans), icon=":material/extension:")
        if st.button(
            t("ev_run_start", n=len(cases)),
            key="ev_run_start",
            type="primary",
            icon=":material/play_arrow:",
            disabled=not cases or busy(),
        ):
            try:
                eval_cases = ev.to_eval_cases(cases)
                pipeline = state.pipeline(settings)
                judge = get_chat_model(settings, "judge")
            except Exception as err:
                show_error(err)
            else:

                def embed_of() -> Any:
                    try:
                        return get_embedder(kb.embed_backend, kb.embed_model, settings).embed_queries
                    except Exception:  # answer relevancy falls back to the judge's own score
                        return None

                run_name = name.strip() or f"{ts.name} · {time.strftime('%Y-%m-%d %H:%M')}"
                ss["ev_job"] = ev.Job(
                    "run",
                    lambda jb: ev.run_job(jb, store, pipeline, kb, ts, eval_cases, judge, embed_of, run_name),
                    target=tid,
                ).start()
                st.rerun()

    st.subheader(t("ev_results_title"))
    runs = store.evaluation.runs()
    if not runs:
        st.caption(t("ev_runs_none"))
        return
    by_run = {r.id: r for r in runs}
    remember("ev_run_pick", list(by_run), runs[0].id)
    rid = st.selectbox(
        t("ev_run_pick"), list(by_run), format_func=lambda i: run_label(by_run[i]), key="ev_run_pick"
    )
    ss["ev_run_pick_keep"] = rid
    try:
        run = store.evaluation.run(rid)
    except Exception as err:
        show_error(err)
        return
    delete_run_panel(run)
    show_run(run)


def delete_run_panel(run: StoredRun) -> None:
    """Delete the shown run after a second, explicit click (the confirmation names this run)."""
    flag = "ev_confirm_run_delete"
    if ss.get(flag) not in (None, False, run.id):  # asked for another run, then switched runs
        ss[flag] = False
    if st.button(t("ev_run_delete"), key="ev_run_delete", icon=":material/delete:"):
        ss[flag] = run.id
    name = safe(run.name or "—", False)
    if confirm(flag, t("ev_run_delete_confirm", name=name, n=len(run.rows))):
        try:
            store.evaluation.delete_run(run.id)
        except Exception as err:
            show_error(err)
            return
        ss[flag] = False
        ss.pop("ev_run_pick", None)
        ss.pop("ev_run_pick_keep", None)
        flash("success", t("ev_run_deleted", name=name))
        st.rerun()


# ================================================================= compare
def numeric(frame: pd.DataFrame, columns: list[str], deltas: list[str] | None = None) -> pd.DataFrame:
    """``columns`` as floats (missing values empty); ``deltas`` that round to 0.000 shown as 0."""
    for col in columns:
        frame[col] = pd.to_numeric(frame[col], errors="coerce").astype(float)
    for col in deltas or []:
        frame[col] = frame[col].mask(frame[col].abs() < ev.DELTA_EPSILON, 0.0)
    return frame


def delta_style(value: Any, higher_is_better: bool = True) -> str:
    """Green for a better delta, red for a worse one, nothing when unchanged or missing."""
    number = value if isinstance(value, int | float) and value == value else None
    way = ev.trend(number, higher_is_better)
    return GREEN if way > 0 else RED if way < 0 else ""


def section_compare() -> None:
    runs = store.evaluation.runs()
    if len(runs) < 2:
        st.info(t("ev_cmp_needs"), icon=":material/compare_arrows:")
        return
    by_run = {r.id: r for r in runs}
    ids = list(by_run)
    remember("ev_cmp_a", ids, ids[1])
    remember("ev_cmp_b", ids, ids[0])
    c1, c2 = st.columns(2)
    a_id = c1.selectbox(t("ev_cmp_a"), ids, format_func=lambda i: run_label(by_run[i]), key="ev_cmp_a")
    b_id = c2.selectbox(t("ev_cmp_b"), ids, format_func=lambda i: run_label(by_run[i]), key="ev_cmp_b")
    ss["ev_cmp_a_keep"], ss["ev_cmp_b_keep"] = a_id, b_id
    try:
        a, b = store.evaluation.run(a_id), store.evaluation.run(b_id)
    except Exception as err:
        show_error(err)
        return
    if a_id == b_id:
        st.info(t("ev_cmp_same"))
    if a.testset_id != b.testset_id:
        st.warning(t("ev_cmp_other_testset"), icon=":material/warning:")
    for r, col in ((a, c1), (b, c2)):
        sm = r.summary
        kb = kb_by_id.get(r.kb_id)
        col.caption(
            t(
                "ev_cmp_run_caption",
                n=int(sm.get("cases") or 0),
                testset=safe(sm.get("testset") or "—", False),
                kb=safe(kb.name if kb else "—", False),
            )
        )

    rows = ev.compare(a, b)
    st.markdown(f"#### {t('ev_cmp_scores')}")
    if rows:
        cols = st.columns(min(4, len(rows)))
        for i, r in enumerate(rows):
            cols[i % len(cols)].metric(
                metric_label(r["metric"]),
                fmt(r["b"]),
                delta=fmt_delta(r["delta"]),
                delta_color="normal" if ev.trend(r["delta"]) else "off",
                help=t("ev_cmp_metric_help", a=fmt(r["a"]), b=fmt(r["b"])),
            )
    sa, sb = a.summary, b.summary
    table = [
        {
            t("ev_col_metric"): metric_label(r["metric"]),
            "A": r["a"],
            "B": r["b"],
            t("ev_col_delta"): r["delta"],
            t(
                "ev_col_judged_ab"
            ): f"{r['n_a'] if r['n_a'] is not None else '—'} / {r['n_b'] if r['n_b'] is not None else '—'}",
        }
        for r in rows
    ]
    for key, label in (
        ("refusal_rate", t("ev_refusal_rate")),
        ("median_latency_ms", t("ev_median_latency_ms")),
    ):
        va, vb = sa.get(key), sb.get(key)
        delta = vb - va if isinstance(va, int | float) and isinstance(vb, int | float) else None
        table.append(
            {t("ev_col_metric"): label, "A": va, "B": vb, t("ev_col_delta"): delta, t("ev_col_judged_ab"): ""}
        )
    frame = numeric(pd.DataFrame(table), ["A", "B", t("ev_col_delta")], [t("ev_col_delta")])
    # Latency: lower is better; refusal rate: neither (a right refusal is a good answer).
    lat_label, rr_label = t("ev_median_latency_ms"), t("ev_refusal_rate")

    def cell_color(row: pd.Series) -> list[str]:
        name = row[t("ev_col_metric")]
        delta = row[t("ev_col_delta")]
        style = "" if name == rr_label else delta_style(delta, name != lat_label)
        return [style if c == t("ev_col_delta") else "" for c in row.index]

    st.dataframe(
        frame.style.apply(cell_color, axis=1).format(precision=3, na_rep="—"),
        hide_index=True,
        key="ev_cmp_table",
    )

    st.markdown(f"#### {t('ev_cmp_settings')}")
    diff = ev.settings_diff(a.settings, b.settings)
    if not diff:
        st.caption(t("ev_cmp_settings_same"))
    else:
        st.dataframe(
            [{t("ev_col_setting"): p, "A": ev.display(va), "B": ev.display(vb)} for p, va, vb in diff],
            hide_index=True,
            key="ev_cmp_settings",
        )

    metrics = [r["metric"] for r in rows]
    per_q = ev.question_deltas(a, b, metrics)
    if per_q and metrics:
        st.markdown(f"#### {t('ev_cmp_questions')}")
        st.caption(t("ev_cmp_questions_caption"))
        qframe = numeric(
            pd.DataFrame(
                [
                    {t("col_question"): q["question"], **{metric_label(m): q[m] for m in metrics}}
                    for q in per_q
                ]
            ),
            [metric_label(m) for m in metrics],
            [metric_label(m) for m in metrics],
        )
        st.dataframe(
            qframe.style.map(delta_style, subset=[metric_label(m) for m in metrics]).format(
                precision=3, na_rep="—"
            ),
            hide_index=True,
            key="ev_cmp_q",
        )


if section == "runs":
    section_runs()
elif section == "compare":
    section_compare()
else:
    section_sets()
