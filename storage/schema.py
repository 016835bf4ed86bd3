"""The LanceDB schema of Lexgate: every table, every column, in one place.

Why one module: ingestion, retrieval, the chat history, the admin page and evaluation all read
and write these tables; a column defined twice drifts. A knowledge base's chunks live in their own
table (``chunks_<kb id>``) because each knowledge base fixes its embedding dimension.
"""

from __future__ import annotations

import pyarrow as pa

SCHEMA_VERSION = 2
"""2: chunks carry ``page_end``, documents ``notes_json``; older tables gain them when opened
(``CHUNK_MIGRATIONS``, ``DOCUMENT_MIGRATIONS``)."""

KBS = "kbs"
DOCUMENTS = "documents"
CONVERSATIONS = "conversations"
MESSAGES = "messages"
VERDICTS = "verdicts"
FEEDBACK = "feedback"
SETTINGS = "settings"
TESTSETS = "testsets"
EVAL_CASES = "eval_cases"
EVAL_RUNS = "eval_runs"
CHUNKS_PREFIX = "chunks_"

# Full-text columns of a chunks table: jieba ``cut_for_search`` tokens, and CJK character bigrams
# so that defined terms and party names jieba splits badly still match.
FTS_TOKENS = "tokens"
FTS_BIGRAMS = "bigrams"

KBS_SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("name", pa.string()),
        ("embed_backend", pa.string()),
        ("embed_model", pa.string()),
        ("embed_dim", pa.int32()),
        ("created_at", pa.string()),
        ("empty_answer", pa.string()),
    ]
)

DOCUMENTS_SCHEMA = pa.schema(
    [
        ("id", pa.string()),  # sha256 of the file bytes
        ("kb_id", pa.string()),
        ("file_name", pa.string()),
        ("file_type", pa.string()),
        ("size_bytes", pa.int64()),
        ("pages", pa.int32()),
        ("language", pa.string()),
        ("ingested_at", pa.string()),
        ("status", pa.string()),  # embedding | indexed
        ("title", pa.string()),
        ("encoding", pa.string()),
        ("n_chunks", pa.int32()),
        ("notes", pa.string()),
        ("text", pa.large_string()),  # the extracted text that chunk offsets index
        ("spans_json", pa.string()),  # page/section spans of ``text``
        ("terms", pa.string()),  # defined terms and parties found in the text, space-joined
        ("source", pa.large_binary()),  # the original file bytes (PDF page rendering, export)
        ("notes_json", pa.string()),  # the notes with their codes: JSON [{text, code, params}] (schema 2)
    ]
)


def chunks_schema(dim: int) -> pa.Schema:
    """Chunks of one knowledge base; ``vector`` is zeros until ``embedded`` is true."""
    return pa.schema(
        [
            ("id", pa.string()),
            ("doc_id", pa.string()),
            ("text", pa.string()),
            ("start", pa.int64()),
            ("end", pa.int64()),
            ("page", pa.int32()),  # 0 = no page (DOCX/TXT); the page of the chunk's first character
            ("anchor", pa.string()),
            ("clause", pa.string()),
            ("parent_id", pa.string()),
            ("kind", pa.string()),  # plain | child | parent
            ("ordinal", pa.int32()),
            ("searchable", pa.bool_()),  # indexed for retrieval (plain or child chunks)
            ("embedded", pa.bool_()),
            (FTS_TOKENS, pa.string()),
            (FTS_BIGRAMS, pa.string()),
            ("vector", pa.list_(pa.float32(), dim)),
            ("page_end", pa.int32()),  # page of the chunk's last character (schema 2)
        ]
    )


CHUNK_COLUMNS: tuple[str, ...] = (
    "id",
    "doc_id",
    "text",
    "start",
    "end",
    "page",
    "anchor",
    "clause",
    "parent_id",
    "kind",
    "ordinal",
    "searchable",
    "embedded",
    "page_end",
)
"""The columns a chunk is read with (searches and listings); the token columns and the vector only
when they are to be rewritten."""

DOCUMENT_LIST_COLUMNS: tuple[str, ...] = (
    "id",
    "kb_id",
    "file_name",
    "file_type",
    "size_bytes",
    "pages",
    "language",
    "ingested_at",
    "status",
    "title",
    "encoding",
    "n_chunks",
    "notes",
    "notes_json",
)
"""The columns of a document listing: everything but the large text, spans and file bytes."""

CHUNK_MIGRATIONS: dict[str, str] = {"page_end": "page"}
"""Columns added to chunks tables after schema 1, with the SQL expression that fills old rows."""

DOCUMENT_MIGRATIONS: dict[str, str] = {"notes_json": "'[]'"}
"""Columns added to the documents table after schema 1, with the SQL expression that fills old rows."""


CONVERSATIONS_SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("title", pa.string()),
        ("kb_ids", pa.string()),  # JSON list
        ("created_at", pa.string()),
        ("updated_at", pa.string()),
    ]
)

MESSAGES_SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("conversation_id", pa.string()),
        ("seq", pa.int32()),
        ("role", pa.string()),
        ("content", pa.large_string()),
        ("thinking", pa.large_string()),
        ("citations_json", pa.large_string()),
        ("verdicts_json", pa.large_string()),
        ("trace_json", pa.large_string()),
        ("usage_json", pa.string()),
        ("latency_ms", pa.float64()),
        ("settings_json", pa.large_string()),
        ("refused", pa.bool_()),
        ("created_at", pa.string()),
    ]
)

VERDICTS_SCHEMA = pa.schema(
    [
        ("message_id", pa.string()),
        ("passage_id", pa.string()),
        ("chunk_id", pa.string()),
        ("doc", pa.string()),
        ("label", pa.string()),
        ("keep", pa.bool_()),
        ("injection", pa.float64()),
        ("conflict", pa.float64()),
        ("relevance", pa.float64()),
        ("evidence", pa.float64()),
        ("explanation", pa.string()),
        ("created_at", pa.string()),
    ]
)

FEEDBACK_SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("message_id", pa.string()),
        ("conversation_id", pa.string()),
        ("question", pa.string()),
        ("answer", pa.large_string()),
        ("rating", pa.int32()),
        ("helpful", pa.bool_()),
        ("correct_answer", pa.large_string()),
        ("comment", pa.large_string()),
        ("diagnosis", pa.string()),
        ("trace_json", pa.large_string()),
        ("created_at", pa.string()),
    ]
)

SETTINGS_SCHEMA = pa.schema(
    [("key", pa.string()), ("value_json", pa.large_string()), ("updated_at", pa.string())]
)

TESTSETS_SCHEMA = pa.schema(
    [("id", pa.string()), ("name", pa.string()), ("kb_id", pa.string()), ("created_at", pa.string())]
)

EVAL_CASES_SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("testset_id", pa.string()),
        ("seq", pa.int32()),
        ("case_json", pa.large_string()),
    ]
)

EVAL_RUNS_SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("testset_id", pa.string()),
        ("kb_id", pa.string()),
        ("name", pa.string()),
        ("status", pa.string()),
        ("created_at", pa.string()),
        ("settings_json", pa.large_string()),
        ("summary_json", pa.large_string()),
        ("rows_json", pa.large_string()),
    ]
)

FIXED_TABLES: dict[str, pa.Schema] = {
    KBS: KBS_SCHEMA,
    DOCUMENTS: DOCUMENTS_SCHEMA,
    CONVERSATIONS: CONVERSATIONS_SCHEMA,
    MESSAGES: MESSAGES_SCHEMA,
    VERDICTS: VERDICTS_SCHEMA,
    FEEDBACK: FEEDBACK_SCHEMA,
    SETTINGS: SETTINGS_SCHEMA,
    TESTSETS: TESTSETS_SCHEMA,
    EVAL_CASES: EVAL_CASES_SCHEMA,
    EVAL_RUNS: EVAL_RUNS_SCHEMA,
}
