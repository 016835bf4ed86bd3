"""Widgets shared by the pages: safe text, errors, the evidence panel, score bars, citations, answers.

Safety rule of the whole app: passages, document names and model output are untrusted. They are
shown through ``safe`` (every Markdown/HTML character escaped) or as dataframe cells / code
blocks; nothing untrusted ever reaches ``unsafe_allow_html``, an image URL or a link.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

import streamlit as st

from rag_core.coded import CODE_JOIN
from rag_core.errors import LexgateError
from rag_core.export import escape_markdown, source_label, where_label
from rag_core.judge.documents_differ import PREMISE_STATED
from rag_core.models import LABELS, QUESTIONS
from rag_core.textproc import one_line
from rag_core.trace import Trace
from storage.rows import Message
from ui.coded import why_text
from ui.errors import error_text
from ui.i18n import lang, t

log = logging.getLogger("lexgate.ui")

LABEL_COLORS: dict[str, str] = {
    "INJECTION": "red",
    "CONFLICTING": "orange",
    "IRRELEVANT": "gray",
    "EVIDENCE": "green",
    "NO_EVIDENCE": "blue",
}
LABEL_CELL_COLORS: dict[str, str] = {
    "INJECTION": "#d64545",
    "CONFLICTING": "#e08a00",
    "IRRELEVANT": "#8a8f98",
    "EVIDENCE": "#2e9d57",
    "NO_EVIDENCE": "#3f7cc9",
}
SCORE_KEYS: dict[str, str] = {
    "contains_prompt_injection": "score_injection",
    "contradicts_query_premise": "score_conflict",
    "is_relevant": "score_relevance",
    "contains_answer_evidence": "score_evidence",
}
_CITE = re.compile(r"\\\[(\d{1,3})\\\]")


# ---------------------------------------------------------------- text and errors
def safe(text: Any, keep_newlines: bool = True) -> str:
    """Untrusted text as inert Markdown (links, HTML, emphasis, math and directives escaped)."""
    return escape_markdown(str(text or ""), keep_newlines=keep_newlines)


def quoted_line(text: str, n: int, where: str) -> str:
    """One sentence of the quoted answer as inert Markdown: “sentence” [n] — where it stands.

    On one line: a PDF line break inside a Chinese sentence is no space (session 39 browser try-out: the quoted
    box read "剩 余的预收物业服务费")."""
    return f"“{safe(one_line(text), False)}” \\[{n}\\] — {safe(where, False)}"


def safe_answer(text: str) -> str:
    """An answer escaped, with its citation markers [n] shown as small badges."""
    return _CITE.sub(lambda m: f":blue-badge[{m.group(1)}]", safe(text))


def show_error(err: BaseException) -> None:
    """A message for the lawyer: the error's own words for ``LexgateError`` (in the interface
    language when it has a code, see ``ui.errors``), a short note otherwise."""
    if isinstance(err, LexgateError):
        st.error(error_text(err), icon=":material/error:")
    else:
        log.exception("unexpected error in the app", exc_info=err)
        st.error(t("unexpected_error", kind=type(err).__name__), icon=":material/error:")


def when(iso: str, zone: str = "") -> str:
    """A stored UTC timestamp as a lawyer reads it: date and time to the second (storage keeps
    microseconds only so that rows written in the same second sort in order)."""
    text = str(iso or "").replace("T", " ")
    text = re.sub(r"\.\d+", "", text)
    return text.replace("+00:00", zone)


def where(page: Any, clause: str) -> str:
    return where_label(page, clause, lang())


def label_text(label: str) -> str:
    """'EVIDENCE · 含答案证据，保留': the code the trace uses, and what it means."""
    return f"{label} · {t('label_' + label)}" if label in LABELS else label


def label_badges(counts: Mapping[str, int]) -> str:
    """Markdown badges, one per label present, e.g. ':green-badge[EVIDENCE 3]'."""
    parts = [f":{LABEL_COLORS[lab]}-badge[{lab} {counts[lab]}]" for lab in LABELS if counts.get(lab)]
    return " ".join(parts)


def label_counts(verdicts: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for v in verdicts:
        counts[str(v.get("label", ""))] = counts.get(str(v.get("label", "")), 0) + 1
    return counts


# ---------------------------------------------------------------- scores and verdicts
def score_bars(scores: Mapping[str, float], thresholds: Mapping[str, float] | None = None) -> None:
    """The four scores as small progress bars, each with its value and threshold."""
    thr_key = {
        "contains_prompt_injection": "t_injection",
        "contradicts_query_premise": "t_conflict",
        "is_relevant": "t_relevance",
        "contains_answer_evidence": "t_evidence",
    }
    for q in QUESTIONS:
        value = float(scores.get(q, 0.0))
        thr = (thresholds or {}).get(thr_key[q])
        extra = f" ({t('threshold')} {thr:.2f})" if thr is not None else ""
        st.progress(min(1.0, max(0.0, value)), text=f"{t(SCORE_KEYS[q])}: {value:.2f}{extra}")


def verdict_rows(verdicts: Sequence[Mapping[str, Any]], with_old: bool = False) -> list[dict[str, Any]]:
    """Rows for a verdict dataframe (plain values: the grid renders them as text)."""
    rows = []
    for i, v in enumerate(verdicts, start=1):
        sc = v.get("scores") or {}
        row: dict[str, Any] = {"#": i}
        if with_old:
            row[t("col_old_label")] = [str(v.get("old_label", ""))]
        row[t("col_label")] = [str(v.get("label", ""))]
        row[t("col_kept")] = bool(v.get("keep"))
        for q in QUESTIONS:
            row[t(SCORE_KEYS[q])] = float(sc.get(q, 0.0))
        row[t("col_doc")] = str(v.get("doc", ""))
        row[t("col_where")] = where(v.get("page"), str(v.get("clause", "")))
        row[t("col_explanation")] = why_text(v, markdown=False)
        rows.append(row)
    return rows


def verdict_table(
    verdicts: Sequence[Mapping[str, Any]], key: str, with_old: bool = False, height: Any = "auto"
) -> None:
    """Every candidate with its label, kept flag and the four scores as bars."""
    label_col = st.column_config.MultiselectColumn(
        t("col_label"),
        options=list(LABELS),
        color=[LABEL_CELL_COLORS[lab] for lab in LABELS],
        width=118,
        help=t("col_label_help"),
    )
    cfg: dict[str, Any] = {
        "#": st.column_config.NumberColumn("#", width=32),
        t("col_label"): label_col,
        t("col_kept"): st.column_config.CheckboxColumn(t("col_kept"), width=44),
        t("col_explanation"): st.column_config.TextColumn(t("col_explanation"), width="large"),
    }
    if with_old:
        cfg[t("col_old_label")] = st.column_config.MultiselectColumn(
            t("col_old_label"),
            options=list(LABELS),
            color=[LABEL_CELL_COLORS[lab] for lab in LABELS],
            width="medium",
        )
    for q in QUESTIONS:
        name = t(SCORE_KEYS[q])
        cfg[name] = st.column_config.ProgressColumn(
            name, min_value=0.0, max_value=1.0, format="%.2f", width=78
        )
    st.dataframe(verdict_rows(verdicts, with_old), column_config=cfg, hide_index=True, key=key, height=height)


Cut = tuple[str, float]
"""A sentence cut out of the evidence (defence in depth) and its injection score."""


def struck(text: str, cuts: Sequence[Cut]) -> str:
    """``text`` escaped, each cut sentence in it struck through and followed by its score."""
    out: list[str] = []
    pos = 0
    for sentence, score in sorted(cuts, key=lambda c: text.find(c[0])):
        at = text.find(sentence, pos)
        if not sentence or at < 0:
            continue
        out.append(safe(text[pos:at]))
        out.append(f"~~{safe(sentence, keep_newlines=False)}~~ " + t("cut_score", score=f"{score:.2f}"))
        pos = at + len(sentence)
    out.append(safe(text[pos:]))
    return "".join(out)


def passage_detail(
    v: Mapping[str, Any], n: int, cuts: Sequence[Cut] = (), salvaged: Collection[str] = ()
) -> None:
    """One candidate: label, kept or dropped and why, the four score bars, and the passage text
    (sentences cut before the answer model read it struck through, with their injection score;
    a passage whose salvaged excerpt was used says so)."""
    label = str(v.get("label", ""))
    st.badge(label_text(label), color=LABEL_COLORS.get(label, "gray"))  # type: ignore[arg-type]
    kept = t("kept") if v.get("keep") else t("dropped")
    st.markdown(f"**\\[{n}\\] {kept}** — {why_text(v)}")
    st.caption(
        safe(source_label(str(v.get("doc", "")), where(v.get("page"), str(v.get("clause", "")))), False)
    )
    score_bars(v.get("scores") or {}, v.get("thresholds") or {})
    if str(v.get("chunk_id", "")) in salvaged:
        st.info(t("salvaged_caption"), icon=":material/content_cut:")
    st.markdown(struck(str(v.get("text", "")), cuts) if cuts else safe(v.get("text", "")))


def trace_cuts(trace: Trace) -> list[Cut]:
    """Every sentence cut out of this answer's evidence blocks, with its score."""
    return [(c.sentence, c.score) for b in trace.blocks for c in b.cuts]


def trace_salvaged(trace: Trace) -> set[str]:
    """Chunk ids of the INJECTION passages whose salvaged excerpt became an evidence block."""
    return {b.chunk_id for b in trace.blocks if b.salvaged}


def premise_notice(verdicts: Iterable[Mapping[str, Any]]) -> str:
    """The message key of the premise notice: the documents differ when a passage states the value another
    document's passage contradicts (``judge.documents_differ``), else they contradict the premise."""
    stated = any(PREMISE_STATED in str(v.get("explanation_code", "")).split(CODE_JOIN) for v in verdicts)
    return "differ_warning" if stated else "conflict_warning"


def evidence_panel(
    verdicts: Sequence[Mapping[str, Any]],
    kept: int | None,
    key: str,
    cuts: Sequence[Cut] = (),
    salvaged: Collection[str] = (),
) -> None:
    """What retrieval found and how each passage was judged, shown before the answer."""
    with st.container(border=True):
        st.markdown(f"**{t('evidence_title')}**")
        if not verdicts:
            st.caption(t("evidence_none"))
            return
        n_kept = kept if kept is not None else sum(1 for v in verdicts if v.get("keep"))
        st.caption(t("evidence_summary", n=len(verdicts), kept=n_kept))
        st.markdown(label_badges(label_counts(verdicts)))
        conflicting = [v for v in verdicts if v.get("label") == "CONFLICTING"]
        if conflicting:
            st.warning(t(premise_notice(verdicts)), icon=":material/balance:")
        verdict_table(verdicts, key=f"{key}_table", height=min(38 + 35 * len(verdicts), 320))
        options = list(range(len(verdicts)))
        pick = st.selectbox(
            t("evidence_open"),
            options,
            format_func=lambda i: (
                f"[{i + 1}] {label_text(str(verdicts[i].get('label', '')))} · {verdicts[i].get('doc', '')}"
            ),
            index=None,
            placeholder=t("evidence_open_placeholder"),
            key=f"{key}_pick",
        )
        if pick is not None:
            passage_detail(verdicts[pick], pick + 1, cuts, salvaged)


def refusal_note(trace: Trace, verdicts: Sequence[Mapping[str, Any]]) -> None:
    """What was searched and why nothing qualified."""
    counts = label_counts(verdicts)
    kbs = ", ".join(trace.kbs)
    lines = [
        t(
            "refusal_searched",
            kbs=safe(kbs, False),
            query=safe(trace.query.text if trace.query else trace.question, False),
        ),
        t("refusal_candidates", n=len(verdicts)),
    ]
    if counts:
        lines.append(t("refusal_labels") + " " + label_badges(counts))
    if not verdicts and not trace.blocks:
        lines.append(t("refusal_nothing_found"))
    elif not any(v.get("keep") for v in verdicts):
        lines.append(t("refusal_none_kept"))
    st.info("  \n".join(lines), icon=":material/search:")


def token_figure(usage: Mapping[str, Any]) -> str:
    """The total token count, marked as an estimate when the endpoint reported no usage."""
    n = int(usage.get("total_tokens", 0) or 0)
    return t("tokens_estimated", n=n) if usage.get("estimated") else str(n)


def usage_line(message: Message, trace: Trace) -> str:
    usage = message.usage
    latency = float(message.latency_ms or 0) / 1000
    return t(
        "usage_line_estimated" if usage.get("estimated") else "usage_line",
        seconds=f"{latency:.1f}",
        tokens=int(usage.get("total_tokens", 0) or 0),
        model=safe(trace.models.answer or "—", False),
    )


def download_json(label: str, data: Any, file_name: str, key: str) -> None:
    st.download_button(
        label,
        data=json.dumps(data, ensure_ascii=False, indent=2, default=str),
        file_name=file_name,
        mime="application/json",
        key=key,
        on_click="ignore",
        icon=":material/download:",
    )


def confirm(flag: str, message: str, action_label: str | None = None) -> bool:
    """An inline confirmation: the action runs only after the second, explicit click.

    ``flag`` is the session key set by the first click; cancelling clears it.
    """
    ss = st.session_state
    if not ss.get(flag):
        return False
    st.warning(message, icon=":material/delete:")
    c1, c2 = st.columns(2)
    if c2.button(t("cancel"), key=f"{flag}_cancel", width="stretch"):
        ss[flag] = False
        st.rerun()
    return c1.button(action_label or t("delete_confirm"), key=f"{flag}_ok", type="primary", width="stretch")
