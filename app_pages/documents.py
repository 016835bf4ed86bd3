"""Documents: knowledge bases (create, rename, delete), uploads with progress, the document table,
document deletion and a preview of a document's chunks with page and clause path."""

from __future__ import annotations

import json
from typing import Any

import streamlit as st

from rag_core.embeddings.registry import describe
from rag_core.export import page_text
from rag_core.ingest.pipeline import sectioned
from storage.rows import ChunkRow
from ui import state, style
from ui.coded import note_text
from ui.components import confirm, safe, show_error, when
from ui.errors import coded_text
from ui.i18n import lang, t
from ui.ingest import ingest_uploads

st.title(t("docs_title"))
store = state.store()
settings = state.settings()
ss = st.session_state


# ---------------------------------------------------------------- knowledge bases
kbs = store.kbs.all()
with (
    st.expander(t("kb_new"), expanded=not kbs, icon=":material/add:"),
    st.form("kb_new_form", clear_on_submit=True, border=False),
):
    new_name = st.text_input(t("kb_name"), max_chars=120)
    st.caption(
        t(
            "kb_embedding_hint",
            backend=settings.embedding.backend,
            model=safe(settings.embedding.model, False),
        )
    )
    if st.form_submit_button(t("kb_create"), type="primary"):
        try:
            _display, dim = describe(settings.embedding.backend, settings.embedding.model, settings)
            kb = store.kbs.create(new_name, settings.embedding.backend, settings.embedding.model, dim)
            ss["docs_kb"] = kb.id
            ss["docs_flash"] = t("kb_created", name=kb.name)
            st.rerun()
        except Exception as err:
            show_error(err)

if not kbs:
    st.info(t("kb_none"), icon=":material/folder_open:")
    st.stop()

ids = [kb.id for kb in kbs]
if ss.get("docs_kb") not in ids:
    ss["docs_kb"] = ids[0]
names = {kb.id: kb.name for kb in kbs}
kb_id = st.selectbox(t("kb_pick"), ids, format_func=lambda i: names[i], key="docs_kb")
kb = next(k for k in kbs if k.id == kb_id)
if ss.get("docs_flash"):
    st.success(ss.pop("docs_flash"), icon=":material/check_circle:")

with st.expander(t("kb_manage"), icon=":material/settings:"):
    st.caption(t("kb_info", backend=kb.embed_backend, model=safe(kb.embed_model, False), dim=kb.embed_dim))
    with st.form("kb_rename_form", border=False):
        renamed = st.text_input(t("kb_rename_to"), value=kb.name, max_chars=120)
        if st.form_submit_button(t("kb_rename")):
            try:
                store.kbs.rename(kb.id, renamed)
                ss["docs_flash"] = t("kb_renamed", name=renamed.strip())
                st.rerun()
            except Exception as err:
                show_error(err)
    if st.button(t("kb_delete"), key="kb_delete", icon=":material/delete:"):
        ss["confirm_kb_delete"] = True
    if confirm("confirm_kb_delete", t("kb_delete_confirm", name=safe(kb.name, False)), t("delete_confirm")):
        try:
            store.kbs.delete(kb.id)
            ss["confirm_kb_delete"] = False
            ss.pop("docs_kb", None)
            ss["docs_flash"] = t("kb_deleted", name=kb.name)
            st.rerun()
        except Exception as err:
            show_error(err)

# ---------------------------------------------------------------- upload
st.subheader(t("upload_title"))
ss.setdefault("uploader_n", 0)
style.apply_uploader(settings.ingest.max_file_mb)
files = st.file_uploader(
    t("upload_label"),
    accept_multiple_files=True,
    key=f"uploader_{ss['uploader_n']}",
    help=t("upload_help", mb=settings.ingest.max_file_mb),
    max_upload_size=max(1, int(settings.ingest.max_file_mb)),
)
if st.button(
    t("upload_start", n=len(files or [])),
    type="primary",
    disabled=not files,
    key="upload_start",
    icon=":material/upload:",
):
    batch = [(f.name, f.getvalue()) for f in files or []]
    with st.status(t("upload_running", n=len(batch)), expanded=True) as status:
        batch_bar = st.progress(0.0, text=t("upload_batch", done=0, n=len(batch)))
        bars = [st.progress(0.0, text=f"{safe(name, False)} · {t('stage_waiting')}") for name, _ in batch]

        def on_update(i: int, stage: str, file_frac: float, batch_frac: float, finished: int) -> None:
            bars[i].progress(file_frac, text=f"{safe(batch[i][0], False)} · {t('stage_' + stage)}")
            batch_bar.progress(batch_frac, text=t("upload_batch", done=finished, n=len(batch)))

        try:
            results = ingest_uploads(store, kb, batch, settings, on_update)
            batch_bar.progress(1.0, text=t("upload_batch", done=len(batch), n=len(batch)))
            failed = sum(1 for r in results if r.status == "failed")
            status.update(
                label=t(
                    "upload_finished", ok=sum(1 for r in results if r.status == "ingested"), failed=failed
                ),
                state="error" if failed == len(results) else "complete",
                expanded=False,
            )
            ss["ingest_results"] = [r.to_json() for r in results]
            ss["uploader_n"] += 1
        except Exception as err:
            status.update(label=t("upload_failed"), state="error")
            show_error(err)
    if ss.get("ingest_results"):
        st.rerun()


def _message(r: dict[str, Any]) -> str:
    """Why a file was not added, in the interface language, without the file name (the page names it)."""
    msg = str(r.get("message", ""))
    prefix = f"{r['file_name']}: "
    english = msg[len(prefix) :] if msg.startswith(prefix) else msg
    return coded_text(str(r.get("code") or ""), r.get("params") or {}, english, with_file=False)


for r in ss.get("ingest_results", []):
    name = safe(r["file_name"], False)
    if r["status"] == "ingested":
        key = "upload_ok_sections" if sectioned(r["file_name"]) else "upload_ok"
        st.success(t(key, name=name, pages=r["pages"], chunks=r["chunks"]), icon=":material/check_circle:")
    elif r["status"] == "duplicate":
        st.warning(
            t("upload_duplicate", name=name, message=_message(r)),
            icon=":material/content_copy:",
        )
    else:
        st.error(t("upload_bad", name=name, message=_message(r)), icon=":material/block:")
if ss.get("ingest_results") and st.button(t("upload_clear"), key="upload_clear"):
    ss["ingest_results"] = []
    st.rerun()


# ---------------------------------------------------------------- documents
def doc_notes(notes_json: str, english: str) -> str:
    """A document's extraction notes in the interface language (a document stored before the
    notes had codes shows its English notes)."""
    try:
        coded = json.loads(notes_json or "[]")
    except ValueError:
        coded = []
    if not coded:
        return english
    return str(t("coded_sep")).join(note_text(n, markdown=False) for n in coded)


def chunk_where(row: ChunkRow) -> str:
    """'第 1–2 页' for a chunk running over two pages, '第 3 页', or its DOCX section."""
    if row.page:
        return page_text(row.page, row.page_end, lang())
    return row.anchor or ""


st.subheader(t("docs_table_title"))
docs = store.docs.all(kb)
if not docs:
    st.caption(t("docs_none"))
    st.stop()
st.dataframe(
    [
        {
            t("col_name"): d.file_name,
            t("col_pages"): d.pages,
            t("col_chunks"): d.n_chunks,
            t("col_language"): t("doc_lang_" + d.language)
            if d.language in ("zh", "en", "mixed")
            else d.language,
            t("col_size"): round(d.size_bytes / 1024, 1),
            t("col_ingested"): when(d.ingested_at, " UTC"),
            t("col_status"): t("status_" + d.status) if d.status in ("indexed", "embedding") else d.status,
            t("col_notes"): doc_notes(d.notes_json, d.notes),
        }
        for d in docs
    ],
    hide_index=True,
    key="docs_table",
    column_config={t("col_size"): st.column_config.NumberColumn(t("col_size"), format="%.1f KB")},
)

doc_ids = [d.id for d in docs]
doc_names = {d.id: d.file_name for d in docs}
col_preview, col_delete = st.columns([3, 1], vertical_alignment="bottom")
doc_id = col_preview.selectbox(t("doc_pick"), doc_ids, format_func=lambda i: doc_names[i], key="docs_doc")
if col_delete.button(t("doc_delete"), key="doc_delete", icon=":material/delete:", width="stretch"):
    ss["confirm_doc_delete"] = doc_id
if ss.get("confirm_doc_delete") and ss["confirm_doc_delete"] not in doc_ids:
    ss["confirm_doc_delete"] = None
if confirm(
    "confirm_doc_delete",
    t("doc_delete_confirm", name=safe(doc_names.get(ss.get("confirm_doc_delete") or "", ""), False)),
    t("delete_confirm"),
):
    try:
        gone = ss["confirm_doc_delete"]
        store.docs.delete(kb, gone)
        ss["confirm_doc_delete"] = None
        ss["docs_flash"] = t("doc_deleted", name=doc_names[gone])
        st.rerun()
    except Exception as err:
        show_error(err)

# ---------------------------------------------------------------- chunk preview
st.markdown(f"#### {t('preview_title')}")
kind = st.segmented_control(
    t("preview_kind"),
    ["indexed", "parent"],
    format_func=lambda k: t("preview_kind_" + k),
    default="indexed",
    key="preview_kind",
)
rows = store.chunks.of_document(kb, doc_id)
rows = [r for r in rows if (r.kind == "parent") == (kind == "parent")]
st.caption(t("preview_count", n=len(rows)))
picked = st.dataframe(
    [
        {
            "#": i + 1,
            t("col_page"): chunk_where(r),
            t("col_clause"): r.clause,
            t("col_chars"): r.end - r.start,
            t("col_text"): r.text,
        }
        for i, r in enumerate(rows)
    ],
    hide_index=True,
    key="preview_table",
    column_config={t("col_text"): st.column_config.TextColumn(t("col_text"), width="large")},
    on_select="rerun",
    selection_mode="single-row",
)
chosen_rows = picked.selection.rows if picked is not None else []
if chosen_rows and chosen_rows[0] < len(rows):
    row = rows[chosen_rows[0]]
    with st.container(border=True):
        st.caption(safe(f"{row.clause or '—'} · {chunk_where(row) or '—'}", False))
        st.markdown(safe(row.text))
else:
    st.caption(t("preview_pick_hint"))
