"""The Evaluation page's run section: start a run of a test set in the background, then a stored
run's scores, a chart per metric, its per-question table and one question's trace.
"""

from __future__ import annotations

import time
from typing import Any

import pandas as pd
import streamlit as st

from rag_core.embeddings.registry import get_embedder
from rag_core.evaluation import casebook, comparison
from rag_core.evaluation.jobs import Job, run_job
from rag_core.llm.factory import get_chat_model
from rag_core.models import KnowledgeBase
from rag_core.trace import Trace
from storage.rows import StoredRun, TestSet
from ui import state
from ui.citations import citations_block
from ui.coded import metric_error_text, unjudged_reasons
from ui.components import (
    confirm,
    download_json,
    label_badges,
    label_counts,
    safe,
    safe_answer,
    show_error,
    verdict_table,
    when,
)
from ui.errors import stored_error_text
from ui.eval_view import (
    EvalPage,
    busy,
    flash,
    fmt,
    metric_help,
    metric_label,
    remember,
    run_label,
    testset_label,
)
from ui.i18n import t

ss = st.session_state


# ---------------------------------------------------------------- one question of a run
def _case_metrics(metrics: dict[str, Any], key: str) -> None:
    st.dataframe(
        [
            {
                t("ev_col_metric"): metric_label(m),
                t("ev_col_value"): (metrics[m] or {}).get("value"),
                t("ev_col_reason"): metric_error_text(metrics[m] or {}),
            }
            for m in comparison.metric_order(list(metrics))
        ],
        hide_index=True,
        key=f"{key}_metrics",
        column_config={t("ev_col_value"): st.column_config.NumberColumn(format="%.3f")},
    )


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
        if row.get("metrics"):
            _case_metrics(row["metrics"], key)
        query = (trace.query.text if trace.query else "") or trace.question
        st.markdown(f"**{t('query_used')}**")
        st.code(str(query), language=None, wrap_lines=True)
        verdicts = [v.to_json() for v in trace.verdict_list]
        if verdicts:
            st.markdown(f"**{t('evidence_title')}** {label_badges(label_counts(verdicts))}")
            verdict_table(verdicts, key=f"{key}_verdicts", height=min(38 + 35 * len(verdicts), 320))
        else:
            st.caption(t("verdicts_none"))
        citations_block(
            row.get("citations") or [], trace, key=f"{key}_cit", answer=str(row.get("answer") or "")
        )
        st.caption(t("ev_inspect_note"))
        download_json(
            t("ev_trace_download"), row, f"lexgate-eval-{row.get('case_id', 'case')}.json", key=f"{key}_json"
        )


# ---------------------------------------------------------------- a stored run
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


def _run_header(page: EvalPage, run: StoredRun) -> None:
    summary, rows = run.summary, run.rows
    kb = page.kb_by_id.get(run.kb_id)
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


def _scores(metrics: list[str], aggs: dict[str, Any], rows: list[dict[str, Any]]) -> None:
    """The mean of every metric, how many cases it judged, and why the others were not."""
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
    reasons = {m: unjudged_reasons(rows, m) for m in metrics}
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


def _charts(metrics: list[str], rows: list[dict[str, Any]]) -> None:
    st.markdown(f"#### {t('ev_charts_title')}")
    st.caption(t("ev_charts_caption"))
    chart_cols = st.columns(2)
    for i, m in enumerate(metrics):
        values = comparison.metric_values(rows, m)
        with chart_cols[i % 2]:
            st.markdown(f"**{metric_label(m)}**")
            if all(v is None for v in values):
                st.caption(t("ev_chart_empty"))
                continue
            data = pd.DataFrame({"case": [f"#{k + 1}" for k in range(len(rows))], "value": values})
            st.vega_lite_chart(data, chart_spec(metric_label(m)), width="stretch", height=220)


def _rows_table(run: StoredRun, metrics: list[str]) -> list[int]:
    """Every question of the run with its metric values; the rows the lawyer selected."""
    table = []
    for k, r in enumerate(run.rows, start=1):
        entry: dict[str, Any] = {
            "#": k,
            t("col_question"): r.get("question", ""),
            t("fb_answer"): r.get("answer", ""),
            t("ev_col_refused"): bool(r.get("refused")),
            t("ev_col_latency"): round(float(r.get("latency_ms") or 0) / 1000, 2),
        }
        for m in metrics:
            entry[metric_label(m)] = comparison.metric_values([r], m)[0]
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
    return list(picked.selection.rows) if picked is not None else []


def show_run(page: EvalPage, run: StoredRun) -> None:
    _run_header(page, run)
    rows = run.rows
    metrics = comparison.run_metrics(run)
    if not metrics:
        st.info(t("ev_no_metrics"))
    else:
        _scores(metrics, run.summary.get("metrics") or {}, rows)
        _charts(metrics, rows)
    st.markdown(f"#### {t('ev_rows_title')}")
    chosen = _rows_table(run, metrics)
    if chosen and chosen[0] < len(rows):
        trace_summary(rows[chosen[0]], key=f"ev_case_{run.id}_{chosen[0]}")
    else:
        st.caption(t("ev_rows_pick_hint"))
    with st.expander(t("ev_settings_snapshot"), icon=":material/tune:"):
        st.json(run.settings, expanded=False)
    download_json(
        t("ev_run_download"), run.to_json(), f"lexgate-eval-run-{run.id[:8]}.json", key="ev_run_json"
    )


# ---------------------------------------------------------------- starting a run
def _pick_run_target(page: EvalPage, testsets: list[TestSet]) -> tuple[TestSet, KnowledgeBase]:
    by_id = {ts.id: ts for ts in testsets}
    c1, c2 = st.columns(2)
    remember("ev_run_ts", list(by_id), ss.get("ev_ts_keep") or testsets[-1].id)
    tid = c1.selectbox(
        t("ev_ts_pick"), list(by_id), format_func=lambda i: testset_label(page, by_id[i]), key="ev_run_ts"
    )
    ss["ev_run_ts_keep"] = tid
    ts = by_id[tid]
    kb_ids = list(page.kb_by_id)
    kb_id = c2.selectbox(
        t("kb_pick"),
        kb_ids,
        index=kb_ids.index(ts.kb_id) if ts.kb_id in kb_ids else 0,
        format_func=lambda i: page.kb_by_id[i].name,
        key=f"ev_run_kb_{tid}",
    )
    return ts, page.kb_by_id[kb_id]


def _start_run(
    page: EvalPage, ts: TestSet, kb: KnowledgeBase, cases: list[dict[str, Any]], name: str
) -> None:
    """The run as a background job: every case through the pipeline, then judged and stored."""
    settings = page.settings
    try:
        eval_cases = casebook.to_eval_cases(cases)
        pipeline = state.pipeline(settings)
        judge = get_chat_model(settings, "judge")
    except Exception as err:
        show_error(err)
        return

    def embed_of() -> Any:
        try:
            return get_embedder(kb.embed_backend, kb.embed_model, settings).embed_queries
        except Exception:  # answer relevancy falls back to the judge's own score
            return None

    run_name = name.strip() or f"{ts.name} · {time.strftime('%Y-%m-%d %H:%M')}"
    store = page.store
    ss["ev_job"] = Job(
        "run",
        lambda jb: run_job(jb, store, pipeline, kb, ts, eval_cases, judge, embed_of, run_name),
        target=ts.id,
    ).start()
    st.rerun()


def _new_run(page: EvalPage, testsets: list[TestSet]) -> None:
    ts, kb = _pick_run_target(page, testsets)
    cases = page.store.evaluation.cases(ts.id)
    name = st.text_input(
        t("ev_run_name"),
        key="ev_run_name",
        placeholder=f"{ts.name} · {time.strftime('%Y-%m-%d %H:%M')}",
    )
    spans = casebook.span_case_count(cases)
    refs = sum(1 for c in cases if str(c.get("reference_answer", "")).strip())
    st.caption(t("ev_run_cases", n=len(cases), refs=refs, spans=spans))
    if page.judge_why:
        st.warning(t("ev_no_judge_model", why=page.judge_why, spans=spans), icon=":material/extension:")
    if st.button(
        t("ev_run_start", n=len(cases)),
        key="ev_run_start",
        type="primary",
        icon=":material/play_arrow:",
        disabled=not cases or busy(),
    ):
        _start_run(page, ts, kb, cases, name)


def delete_run_panel(page: EvalPage, run: StoredRun) -> None:
    """Delete the shown run after a second, explicit click (the confirmation names this run)."""
    flag = "ev_confirm_run_delete"
    if ss.get(flag) not in (None, False, run.id):  # asked for another run, then switched runs
        ss[flag] = False
    if st.button(t("ev_run_delete"), key="ev_run_delete", icon=":material/delete:"):
        ss[flag] = run.id
    name = safe(run.name or "—", False)
    if confirm(flag, t("ev_run_delete_confirm", name=name, n=len(run.rows))):
        try:
            page.store.evaluation.delete_run(run.id)
        except Exception as err:
            show_error(err)
            return
        ss[flag] = False
        ss.pop("ev_run_pick", None)
        ss.pop("ev_run_pick_keep", None)
        flash("success", t("ev_run_deleted", name=name))
        st.rerun()


def section_runs(page: EvalPage) -> None:
    testsets = page.store.evaluation.testsets()
    st.subheader(t("ev_run_new"))
    if not testsets or not page.kbs:
        st.info(t("ev_run_needs"), icon=":material/fact_check:")
    else:
        _new_run(page, testsets)
    st.subheader(t("ev_results_title"))
    runs = page.store.evaluation.runs()
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
        run = page.store.evaluation.run(rid)
    except Exception as err:
        show_error(err)
        return
    delete_run_panel(page, run)
    show_run(page, run)
