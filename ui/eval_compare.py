"""The Evaluation page's comparison section: two stored runs side by side, per metric and per
question, with the settings that differ between them.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from rag_core.evaluation import comparison
from storage.rows import StoredRun
from ui.components import safe, show_error
from ui.eval_view import EvalPage, fmt, fmt_delta, metric_label, remember, run_label
from ui.i18n import t

ss = st.session_state
GREEN = "background-color: #d8f0df"
RED = "background-color: #f8dada"


def numeric(frame: pd.DataFrame, columns: list[str], deltas: list[str] | None = None) -> pd.DataFrame:
    """``columns`` as floats (missing values empty); ``deltas`` that round to 0.000 shown as 0."""
    for col in columns:
        frame[col] = pd.to_numeric(frame[col], errors="coerce").astype(float)
    for col in deltas or []:
        frame[col] = frame[col].mask(frame[col].abs() < comparison.DELTA_EPSILON, 0.0)
    return frame


def delta_style(value: Any, higher_is_better: bool = True) -> str:
    """Green for a better delta, red for a worse one, nothing when unchanged or missing."""
    number = value if isinstance(value, int | float) and value == value else None
    way = comparison.trend(number, higher_is_better)
    return GREEN if way > 0 else RED if way < 0 else ""


def _pick_runs(page: EvalPage, runs: list[StoredRun]) -> tuple[StoredRun, StoredRun] | None:
    """Runs A and B as chosen (each captioned with its test set and knowledge base)."""
    by_run = {r.id: r for r in runs}
    ids = list(by_run)
    remember("ev_cmp_a", ids, ids[1])
    remember("ev_cmp_b", ids, ids[0])
    c1, c2 = st.columns(2)
    a_id = c1.selectbox(t("ev_cmp_a"), ids, format_func=lambda i: run_label(by_run[i]), key="ev_cmp_a")
    b_id = c2.selectbox(t("ev_cmp_b"), ids, format_func=lambda i: run_label(by_run[i]), key="ev_cmp_b")
    ss["ev_cmp_a_keep"], ss["ev_cmp_b_keep"] = a_id, b_id
    try:
        a, b = page.store.evaluation.run(a_id), page.store.evaluation.run(b_id)
    except Exception as err:
        show_error(err)
        return None
    if a_id == b_id:
        st.info(t("ev_cmp_same"))
    if a.testset_id != b.testset_id:
        st.warning(t("ev_cmp_other_testset"), icon=":material/warning:")
    for r, col in ((a, c1), (b, c2)):
        sm = r.summary
        kb = page.kb_by_id.get(r.kb_id)
        col.caption(
            t(
                "ev_cmp_run_caption",
                n=int(sm.get("cases") or 0),
                testset=safe(sm.get("testset") or "—", False),
                kb=safe(kb.name if kb else "—", False),
            )
        )
    return a, b


def _score_metrics(rows: list[dict[str, Any]]) -> None:
    st.markdown(f"#### {t('ev_cmp_scores')}")
    if rows:
        cols = st.columns(min(4, len(rows)))
        for i, r in enumerate(rows):
            cols[i % len(cols)].metric(
                metric_label(r["metric"]),
                fmt(r["b"]),
                delta=fmt_delta(r["delta"]),
                delta_color="normal" if comparison.trend(r["delta"]) else "off",
                help=t("ev_cmp_metric_help", a=fmt(r["a"]), b=fmt(r["b"])),
            )


def _score_table(a: StoredRun, b: StoredRun, rows: list[dict[str, Any]]) -> None:
    """Means, deltas and judged counts per metric, then refusal rate and latency."""
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
        va, vb = a.summary.get(key), b.summary.get(key)
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


def _settings_diff(a: StoredRun, b: StoredRun) -> None:
    st.markdown(f"#### {t('ev_cmp_settings')}")
    diff = comparison.settings_diff(a.settings, b.settings)
    if not diff:
        st.caption(t("ev_cmp_settings_same"))
    else:
        st.dataframe(
            [
                {t("ev_col_setting"): p, "A": comparison.display(va), "B": comparison.display(vb)}
                for p, va, vb in diff
            ],
            hide_index=True,
            key="ev_cmp_settings",
        )


def _question_deltas(a: StoredRun, b: StoredRun, metrics: list[str]) -> None:
    per_q = comparison.question_deltas(a, b, metrics)
    if not (per_q and metrics):
        return
    st.markdown(f"#### {t('ev_cmp_questions')}")
    st.caption(t("ev_cmp_questions_caption"))
    labels = [metric_label(m) for m in metrics]
    qframe = numeric(
        pd.DataFrame(
            [{t("col_question"): q["question"], **{metric_label(m): q[m] for m in metrics}} for q in per_q]
        ),
        labels,
        labels,
    )
    st.dataframe(
        qframe.style.map(delta_style, subset=labels).format(precision=3, na_rep="—"),
        hide_index=True,
        key="ev_cmp_q",
    )


def section_compare(page: EvalPage) -> None:
    runs = page.store.evaluation.runs()
    if len(runs) < 2:
        st.info(t("ev_cmp_needs"), icon=":material/compare_arrows:")
        return
    picked = _pick_runs(page, runs)
    if picked is None:
        return
    a, b = picked
    rows = comparison.compare(a, b)
    _score_metrics(rows)
    _score_table(a, b, rows)
    _settings_diff(a, b)
    _question_deltas(a, b, [r["metric"] for r in rows])
