"""Documents page: knowledge bases, a multi-file upload with a bad file and a duplicate, the
document table, chunk preview, and deletion with confirmation."""

from __future__ import annotations

from pathlib import Path

from storage.store import open_store
from tests.ui.conftest import open_page, texts, unescape


def _button(at, key):  # type: ignore[no-untyped-def]
    return at.button(key=key)


def test_create_upload_preview_delete(home: Path, contract_files: dict[str, Path]) -> None:
    at = open_page("documents")
    assert "还没有知识库" in texts(at)
    at.text_input[0].set_value("租赁合同")
    at.button[0].click().run()  # the form's submit button
    assert not at.exception
    store = open_store(home)
    assert [kb.name for kb in store.kbs.all()] == ["租赁合同"]
    assert "已创建知识库" in texts(at)

    zh, fake, en = contract_files["zh"], contract_files["fake"], contract_files["en"]
    uploader = at.file_uploader[0]
    assert uploader.accept_multiple_files
    uploader.set_value(
        [
            (zh.name, zh.read_bytes(), "application/pdf"),
            (fake.name, fake.read_bytes(), "application/pdf"),
            (en.name, en.read_bytes(), "application/pdf"),
            ("copy_of_lease.pdf", zh.read_bytes(), "application/pdf"),
        ]
    )
    at.run()
    start = _button(at, "upload_start")
    assert "4" in start.label and not start.disabled
    start.click().run()
    assert not at.exception, at.exception
    shown = unescape(texts(at))
    assert "zh_lease.pdf：已导入，3 页" in shown
    assert "en_msa.pdf：已导入" in shown
    assert "not_really.pdf：未导入。文件扩展名是 .pdf，但内容不是 PDF" in shown
    assert (
        "copy_of_lease.pdf：重复文件，未导入（与知识库「租赁合同」中已有的「zh_lease.pdf」内容相同）" in shown
    )
    kb = store.kbs.all()[0]
    assert sorted(d.file_name for d in store.docs.all(kb)) == ["en_msa.pdf", "zh_lease.pdf"]

    table = at.dataframe[0].value
    assert list(table["文件名"]) == ["zh_lease.pdf", "en_msa.pdf"]
    assert list(table["页数"]) == [3, 3] and set(table["状态"]) == {"已索引"}
    preview = at.dataframe(key="preview_table").value
    assert len(preview) > 0 and any("第六条" in c for c in preview["条款路径"])

    # Delete a document: first click asks, the second deletes.
    at.selectbox(key="docs_doc").select(kb and store.docs.all(kb)[1].id).run()
    _button(at, "doc_delete").click().run()
    assert "确定要删除文档「en_msa.pdf」" in unescape(texts(at))
    _button(at, "confirm_doc_delete_ok").click().run()
    assert [d.file_name for d in store.docs.all(kb)] == ["zh_lease.pdf"]

    # Rename, then delete the knowledge base with confirmation.
    rename = next(w for w in at.text_input if w.label == "新名称")
    rename.set_value("租赁")
    next(b for b in at.button if b.label == "重命名").click().run()
    assert store.kbs.all()[0].name == "租赁"
    _button(at, "kb_delete").click().run()
    _button(at, "confirm_kb_delete_cancel").click().run()
    assert len(store.kbs.all()) == 1
    _button(at, "kb_delete").click().run()
    _button(at, "confirm_kb_delete_ok").click().run()
    assert store.kbs.all() == []
    assert not at.exception


def test_bad_uploads_are_explained_in_the_interface_language(home: Path, tmp_path: Path) -> None:
    """Bad files are refused in Chinese, each with its name; the same results read in English
    after switching the language (they are kept with their error code, not as text)."""
    from rag_core.embeddings.registry import describe
    from tests.fixtures import make_docs

    store = open_store(home)
    settings = store.prefs.load_settings()
    _n, dim = describe(settings.embedding.backend, settings.embedding.model, settings)
    store.kbs.create("合同库", settings.embedding.backend, settings.embedding.model, dim)
    encrypted = make_docs.write_encrypted_pdf(tmp_path, "保密协议.pdf")
    scanned = make_docs.write_scanned_pdf(tmp_path)
    at = open_page("documents", lang="zh")
    at.file_uploader[0].set_value(
        [
            (encrypted.name, encrypted.read_bytes(), "application/pdf"),
            (scanned.name, scanned.read_bytes(), "application/pdf"),
            ("报价单.xls", b"\xd0\xcf\x11\xe0 old excel", "application/vnd.ms-excel"),
        ]
    )
    at.run()
    _button(at, "upload_start").click().run()
    assert not at.exception, at.exception
    errors = [unescape(e.value) for e in at.error]
    assert "保密协议.pdf：未导入。PDF 已加密（需要密码才能打开）。请先移除密码" in errors[0], errors
    assert errors[1].startswith("scanned.pdf：未导入。这是没有文字层的扫描版 PDF"), errors
    assert errors[2].startswith("报价单.xls：未导入。不支持 .xls 格式。请上传 PDF、Word（.docx）"), errors
    assert not any("upload" in e or "the file" in e or "PDF (" in e for e in errors), errors
    assert store.docs.all(store.kbs.all()[0]) == []

    at.sidebar.radio[0].set_value("en").run()
    errors = [unescape(e.value) for e in at.error]
    assert errors[0].startswith("保密协议.pdf: not ingested. encrypted PDF (it needs a password to open)"), (
        errors
    )
    assert errors[2].startswith("报价单.xls: not ingested. unsupported file type .xls"), errors


def test_upload_handler_reports_progress(home: Path, contract_files: dict[str, Path]) -> None:
    from rag_core.embeddings.registry import describe
    from ui.ingest import ingest_uploads

    store = open_store(home)
    settings = store.prefs.load_settings()
    _n, dim = describe(settings.embedding.backend, settings.embedding.model, settings)
    kb = store.kbs.create("kb", settings.embedding.backend, settings.embedding.model, dim)
    seen: list[tuple[int, str, float, float, int]] = []
    files = [(p.name, p.read_bytes()) for p in (contract_files["docx"], contract_files["fake"])]
    results = ingest_uploads(store, kb, files, settings, lambda *a: seen.append(a))
    assert [r.status for r in results] == ["ingested", "failed"]
    stages = {s for i, s, *_ in seen if i == 0}
    assert {"extract", "chunk", "embed", "index", "done"} <= stages
    file_fracs = [f for i, _s, f, _b, _n in seen if i == 0]
    assert file_fracs == sorted(file_fracs) and file_fracs[-1] == 1.0
    assert seen[-1][3] == 1.0 and seen[-1][4] == 2


def test_batch_progress_reports_each_file_as_it_ends(home: Path, contract_files: dict[str, Path]) -> None:
    """A bad file is shown failed before the good ones are embedded, and the counter moves file by
    file: a file counts as finished once its vectors are made, not at the end of the batch."""
    from rag_core.settings import Settings
    from tests.fixtures.kb import make_kb
    from ui.ingest import ingest_uploads

    store = open_store(home)
    settings = Settings()
    kb = make_kb(store, settings, "kb", [])
    zh, fake, en = contract_files["zh"], contract_files["fake"], contract_files["en"]
    files = [(p.name, p.read_bytes()) for p in (zh, fake, en)] + [("again.pdf", zh.read_bytes())]
    updates: list[tuple[int, str, int]] = []
    results = ingest_uploads(
        store, kb, files, settings, lambda i, st, _f, _b, done: updates.append((i, st, done))
    )
    assert [r.status for r in results] == ["ingested", "failed", "ingested", "duplicate"]
    first_embed = next(k for k, u in enumerate(updates) if u[1] == "embed")
    failed_at = updates.index((1, "failed", 1))
    assert failed_at < first_embed  # the bad file is failed at once, not left at "extract"
    assert (3, "duplicate", 2) in updates[:first_embed]
    counts = [done for _, _, done in updates]
    assert counts == sorted(counts)  # the counter only moves forward
    embedded = [k for k, (i, st, _) in enumerate(updates) if st == "embed" and i == 0]
    assert updates[embedded[-1]][2] == 3  # the first contract counted as soon as it is embedded
    assert updates[-1][2] == 4 and {u[1] for u in updates[-4:]} == {"done", "failed", "duplicate"}
