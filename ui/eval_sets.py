"""The Evaluation page's test-set section: create, rename, delete; generate cases from a knowledge
base's chunks; review and edit them in a table; import and export JSONL.

Why a draft in the session: generation and import add to the table before anything is saved, and
Streamlit forgets a table's edits on a run that does not draw it; the draft keeps both.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from rag_core.evaluation import casebook
from rag_core.evaluation.jobs import Generated, Job, generate
from rag_core.evaluation.testset import DIFFICULTIES
from rag_core.llm.factory import get_chat_model
from rag_core.models import KnowledgeBase
from storage.chunks import ChunkFilter
from storage.rows import TestSet
from ui import style
from ui.components import confirm, safe, show_error
from ui.eval_view import EvalPage, busy, difficulty_label, flash, job, remember, testset_label
from ui.i18n import t

ss = st.session_state
WHOLE_CLAUSES = ChunkFilter(exclude_kind="child")
"""Parents and plain chunks: whole clauses, what generated questions are asked about."""

Draft = dict[str, Any]
"""The review table's base data: ``{"tid", "cases", "v", "edited"}`` (``v`` renews the table)."""


# ---------------------------------------------------------------- generation and import
def _generation_controls(kb: KnowledgeBase, available: int) -> tuple[int, int, str]:
    """Questions per chunk, chunks to sample, and the questions' language."""
    c1, c2, c3 = st.columns(3)
    per_chunk = c1.number_input(
        t("ev_gen_per_chunk"), min_value=1, max_value=casebook.MAX_PER_CHUNK, value=2, key="ev_gen_per"
    )
    top = max(1, min(casebook.MAX_SAMPLE, available))
    sample = c2.number_input(
        t("ev_gen_sample"),
        min_value=1,
        max_value=top,
        value=min(casebook.DEFAULT_SAMPLE, top),
        key="ev_gen_sample",
        help=t("ev_gen_sample_help", n=available),
    )
    langs = {"auto": t("ev_gen_lang_auto"), "zh": t("ev_gen_lang_zh"), "en": t("ev_gen_lang_en")}
    language = c3.selectbox(t("ev_gen_lang"), list(langs), format_func=lambda k: langs[k], key="ev_gen_lang")
    return int(per_chunk), int(sample), str(language)


def _start_generation(
    page: EvalPage,
    ts: TestSet,
    kb: KnowledgeBase,
    current: list[dict[str, Any]],
    choice: tuple[int, int, str],
) -> None:
    """Sample chunks no case comes from yet and generate questions about them in the background."""
    per_chunk, sample, language = choice
    model = get_chat_model(page.settings, "answer")
    if model is None:
        st.warning(t("ev_gen_unavailable", why=page.gen_why or "-"))
        return
    used = {cid for c in current for cid in c.get("source_chunks") or []}
    try:
        rows = page.store.chunks.rows(kb, WHOLE_CLAUSES)
    except Exception as err:
        show_error(err)
        return
    chunks = casebook.pick_chunks(rows, sample, used)
    if not chunks:
        st.info(t("ev_gen_no_chunks", kb=safe(kb.name, False)))
        return
    ss["ev_job"] = Job(
        "generate", lambda jb: generate(jb, model, chunks, per_chunk, language), target=ts.id
    ).start()
    ss.pop("ev_gen_notes", None)
    st.rerun()


def _generation_notes() -> None:
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


def generation_panel(
    page: EvalPage, ts: TestSet, kb: KnowledgeBase | None, current: list[dict[str, Any]]
) -> None:
    with st.expander(t("ev_gen_title"), icon=":material/auto_awesome:"):
        if kb is None:
            st.info(t("ev_gen_needs_kb"))
            return
        if page.gen_why:
            st.warning(t("ev_gen_unavailable", why=page.gen_why), icon=":material/extension:")
        try:
            available = page.store.chunks.count(kb, WHOLE_CLAUSES)
        except Exception as err:
            show_error(err)
            return
        if not available:
            st.info(t("ev_gen_no_chunks", kb=safe(kb.name, False)))
            return
        choice = _generation_controls(kb, available)
        if st.button(
            t("ev_gen_start"),
            key="ev_gen_start",
            type="primary",
            icon=":material/auto_awesome:",
            disabled=bool(page.gen_why) or busy(),
        ):
            _start_generation(page, ts, kb, current, choice)
        _generation_notes()


def _read_import(up: Any) -> list[Any] | None:
    """The cases of the uploaded file, or None (its problems are kept in the session to show)."""
    try:
        text = up.getvalue().decode("utf-8-sig") if up is not None else ""
    except UnicodeDecodeError:
        ss["ev_import_problems"] = [t("ev_import_not_utf8")]
        return None
    cases, problems = casebook.parse_import(text)
    if problems:
        ss["ev_import_problems"] = problems
    elif not cases:
        ss["ev_import_problems"] = [t("ev_import_empty")]
    else:
        ss.pop("ev_import_problems", None)
        ss["ev_upl_n"] += 1
        return cases
    return None


def import_export_panel(ts: TestSet, stored: list[dict[str, Any]]) -> list[Any] | None:
    """Import (all or nothing) and export; the imported cases when a good file was imported."""
    imported = None
    with st.expander(t("ev_io_title"), icon=":material/swap_vert:"):
        ss.setdefault("ev_upl_n", 0)
        style.apply_uploader(float(st.get_option("server.maxUploadSize")), "JSONL, JSON, TXT")
        up = st.file_uploader(
            t("ev_import_label"), type=["jsonl", "json", "txt"], key=f"ev_upload_{ss['ev_upl_n']}"
        )
        if st.button(t("ev_import"), key="ev_import", disabled=up is None, icon=":material/upload:"):
            imported = _read_import(up)
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
            data=casebook.cases_jsonl(stored),
            file_name=f"{ts.name}.jsonl",
            mime="application/jsonl",
            key="ev_export",
            on_click="ignore",
            icon=":material/download:",
            disabled=not stored,
        )
        st.caption(t("ev_export_note"))
    return imported


# ---------------------------------------------------------------- creating, picking, managing
def _create_form(page: EvalPage, testsets: list[TestSet]) -> None:
    with (
        st.expander(t("ev_ts_new"), expanded=not testsets, icon=":material/add:"),
        st.form("ev_ts_new_form", clear_on_submit=True, border=False),
    ):
        name = st.text_input(t("ev_ts_name"), max_chars=120)
        kb_new = st.selectbox(
            t("kb_pick"), list(page.kb_by_id), format_func=lambda i: page.kb_by_id[i].name, key="ev_ts_new_kb"
        )
        if st.form_submit_button(t("ev_ts_create"), type="primary"):
            if not page.kbs:
                st.warning(t("ev_need_kb"))
            elif name.strip() in {ts.name for ts in testsets}:
                st.error(t("ev_ts_exists", name=safe(name.strip(), False)))
            else:
                try:
                    tid = page.store.evaluation.save_testset(name, str(kb_new), [])
                    ss["ev_ts"] = tid
                    flash("success", t("ev_ts_created", name=safe(name.strip(), False)))
                    st.rerun()
                except Exception as err:
                    show_error(err)


def _pick_testset(page: EvalPage, testsets: list[TestSet]) -> TestSet:
    by_id = {ts.id: ts for ts in testsets}
    remember("ev_ts", list(by_id), testsets[-1].id)
    tid = st.selectbox(
        t("ev_ts_pick"), list(by_id), format_func=lambda i: testset_label(page, by_id[i]), key="ev_ts"
    )
    ss["ev_ts_keep"] = tid
    return by_id[tid]


def _rename_form(
    page: EvalPage, ts: TestSet, kb: KnowledgeBase | None, stored: list[dict[str, Any]], names: set[str]
) -> None:
    with st.form("ev_ts_edit_form", border=False):
        new_name = st.text_input(t("ev_ts_rename_to"), value=ts.name, max_chars=120)
        kb_ids = list(page.kb_by_id)
        new_kb = st.selectbox(
            t("ev_ts_kb"),
            kb_ids,
            index=kb_ids.index(kb.id) if kb is not None else None,
            format_func=lambda i: page.kb_by_id[i].name,
            placeholder=t("ev_no_kb"),
        )
        if st.form_submit_button(t("ev_ts_save_meta")):
            clean = new_name.strip()
            if clean != ts.name and clean in names:
                st.error(t("ev_ts_exists", name=safe(clean, False)))
            else:
                try:
                    page.store.evaluation.save_testset(clean, str(new_kb or ts.kb_id), stored, ts.id)
                    flash("success", t("ev_ts_meta_saved", name=safe(clean, False)))
                    st.rerun()
                except Exception as err:
                    show_error(err)


def _delete_testset(page: EvalPage, ts: TestSet, stored: list[dict[str, Any]]) -> None:
    if st.button(t("ev_ts_delete"), key="ev_ts_delete", icon=":material/delete:"):
        ss["ev_confirm_ts_delete"] = True
    if confirm("ev_confirm_ts_delete", t("ev_ts_delete_confirm", name=safe(ts.name, False), n=len(stored))):
        try:
            page.store.evaluation.delete_testset(ts.id)
            ss["ev_confirm_ts_delete"] = False
            ss.pop("ev_ts", None)
            ss.pop("ev_draft", None)
            flash("success", t("ev_ts_deleted", name=safe(ts.name, False)))
            st.rerun()
        except Exception as err:
            show_error(err)


# ---------------------------------------------------------------- the review table
def _draft(tid: str, stored: list[dict[str, Any]]) -> Draft:
    """The table's base data: the stored cases, until generation or import adds to it."""
    draft = ss.get("ev_draft")
    if not isinstance(draft, dict) or draft.get("tid") != tid:
        draft = ss["ev_draft"] = {"tid": tid, "cases": stored, "v": 0}
    elif f"ev_editor_{tid}_{draft['v']}" not in ss and draft.get("edited") not in (None, draft["cases"]):
        # The table was not drawn on some run (another section or page): Streamlit dropped its
        # edits, so they become the table's base data.
        draft = ss["ev_draft"] = {"tid": tid, "cases": draft["edited"], "v": draft["v"] + 1}
    return draft


def _renew(tid: str, draft: Draft, cases: list[dict[str, Any]]) -> None:
    """New base data for the table (a new key, so Streamlit draws it afresh)."""
    ss["ev_draft"] = {"tid": tid, "cases": cases, "v": draft["v"] + 1}


def _review_caption(cases: list[dict[str, Any]]) -> None:
    counts = {d: sum(1 for c in cases if c.get("difficulty") == d) for d in DIFFICULTIES}
    st.caption(
        t(
            "ev_review_caption",
            n=len(cases),
            refs=sum(1 for c in cases if str(c.get("reference_answer", "")).strip()),
            spans=casebook.span_case_count(cases),
            easy=counts["easy"],
            medium=counts["medium"],
            hard=counts["hard"],
        )
    )


def _review_table(tid: str, draft: Draft) -> tuple[list[dict[str, Any]], list[str]]:
    """The editable table of the draft's cases; the cases as edited and what is wrong with them."""
    edited = st.data_editor(
        # No difficulty is "" (shown as "—"), not None: the grid would print None as the word "None".
        pd.DataFrame(
            [{**r, "difficulty": r.get("difficulty") or ""} for r in casebook.editor_rows(draft["cases"])],
            columns=list(casebook.EDITOR_COLUMNS),
        ),
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
                options=["", *DIFFICULTIES],
                format_func=difficulty_label,
                width="small",
            ),
            "origin": st.column_config.TextColumn(t("ev_col_origin"), width="small"),
            "sources": st.column_config.NumberColumn(
                t("ev_col_sources"), width="small", help=t("ev_col_sources_help")
            ),
        },
    )
    current, problems = casebook.cases_from_editor(edited.to_dict("records"), draft["cases"])
    draft["edited"] = None if problems else current
    return current, problems


def _save_or_discard(
    page: EvalPage,
    ts: TestSet,
    draft: Draft,
    current: list[dict[str, Any]],
    problems: list[str],
    stored: list[dict[str, Any]],
) -> None:
    dirty = current != [casebook.normalize_case(c) for c in stored]
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
            page.store.evaluation.save_testset(ts.name, ts.kb_id, current, ts.id)
            _renew(ts.id, draft, current)
            flash("success", t("ev_saved", n=len(current), name=safe(ts.name, False)))
            st.rerun()
        except Exception as err:
            show_error(err)
    if c2.button(t("ev_discard"), key="ev_discard", disabled=not dirty):
        _renew(ts.id, draft, stored)
        st.rerun()
    if dirty:
        st.warning(t("ev_unsaved", n=len(current), stored=len(stored)), icon=":material/edit_note:")


def _take_generated(
    ts: TestSet, draft: Draft, current: list[dict[str, Any]], testsets: list[TestSet]
) -> None:
    """A finished generation job: its cases join this test set's table (or it waits for its own)."""
    j = job()
    if j is None or not j.finished or j.kind != "generate":
        return
    if j.target == ts.id:
        out: Generated = j.result
        ss["ev_job"] = None
        merged, added, dups = casebook.merge_generated(current, out.cases)
        _renew(ts.id, draft, merged)
        ss["ev_gen_notes"] = out.notes
        flash("success", t("ev_generated", added=added, dups=dups, chunks=out.chunks, notes=len(out.notes)))
        st.rerun()
    target = next((x.name for x in testsets if x.id == j.target), None)
    if target is None:  # its test set was deleted meanwhile
        ss["ev_job"] = None
    else:
        st.info(t("ev_gen_waiting", name=safe(target, False)), icon=":material/hourglass_bottom:")


def section_sets(page: EvalPage) -> None:
    testsets = page.store.evaluation.testsets()
    _create_form(page, testsets)
    if not page.kbs and not testsets:
        st.info(t("ev_need_kb"), icon=":material/folder_open:")
        return
    if not testsets:
        st.info(t("ev_ts_none"), icon=":material/fact_check:")
        return
    ts = _pick_testset(page, testsets)
    kb = page.kb_by_id.get(ts.kb_id)
    stored = page.store.evaluation.cases(ts.id)
    with st.expander(t("ev_ts_manage"), icon=":material/settings:"):
        _rename_form(page, ts, kb, stored, {x.name for x in testsets})
        _delete_testset(page, ts, stored)
    if kb is None:
        st.warning(t("ev_ts_kb_missing"), icon=":material/link_off:")

    draft = _draft(ts.id, stored)
    tools = st.container()
    st.subheader(t("ev_review_title"))
    _review_caption(draft["cases"])
    current, problems = _review_table(ts.id, draft)
    _save_or_discard(page, ts, draft, current, problems, stored)
    with tools:
        generation_panel(page, ts, kb, current)
        imported = import_export_panel(ts, stored)
    if imported:
        merged, added, replaced = casebook.merge_imported(current, imported)
        _renew(ts.id, draft, merged)
        flash("success", t("ev_imported", added=added, replaced=replaced))
        st.rerun()
    _take_generated(ts, draft, current, testsets)
