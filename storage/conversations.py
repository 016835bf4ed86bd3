"""Conversations, their messages, and the verdicts of each answer.

Why verdicts get their own table beside the message's JSON: the message keeps what the UI shows,
the flat table lets an analysis query "every passage judged CONFLICTING" across answers.
"""

from __future__ import annotations

import json
from typing import Any

from rag_core.errors import NotFound
from storage import schema as S
from storage.base import Database, eq, new_id, now_iso, one_of
from storage.rows import Conversation, JsonObject, Message, VerdictRow


def verdict_row(message_id: str, v: JsonObject) -> dict[str, Any]:
    """The flat row of one verdict as the pipeline reported it (scores by question name)."""
    scores = v.get("scores", {})
    return {
        "message_id": message_id,
        "passage_id": str(v.get("passage_id", "")),
        "chunk_id": str(v.get("chunk_id", v.get("passage_id", ""))),
        "doc": str(v.get("doc", "")),
        "label": str(v.get("label", "")),
        "keep": bool(v.get("keep", False)),
        "injection": float(scores.get("contains_prompt_injection", 0.0)),
        "conflict": float(scores.get("contradicts_query_premise", 0.0)),
        "relevance": float(scores.get("is_relevant", 0.0)),
        "evidence": float(scores.get("contains_answer_evidence", 0.0)),
        "explanation": str(v.get("explanation", "")),
        "created_at": now_iso(),
    }


class Conversations:
    """The chat history: conversations, their messages in order, and the verdicts of answers."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def create(self, title: str, kb_ids: list[str]) -> str:
        cid = new_id()
        ts = now_iso()
        row = {"id": cid, "title": title, "kb_ids": json.dumps(kb_ids), "created_at": ts, "updated_at": ts}
        with self._db.write():
            self._db.table(S.CONVERSATIONS).add([row])
        return cid

    def all(self, search: str = "") -> list[Conversation]:
        """Newest first; ``search`` keeps those whose title contains it (case-insensitive)."""
        convs = [Conversation.from_record(r) for r in self._db.rows(S.CONVERSATIONS)]
        if search:
            needle = search.lower()
            convs = [c for c in convs if needle in c.title.lower()]
        return sorted(convs, key=lambda c: c.updated_at, reverse=True)

    def get(self, cid: str) -> Conversation:
        rows = self._db.rows(S.CONVERSATIONS, eq("id", cid))
        if not rows:
            raise NotFound(f"no conversation {cid}")
        return Conversation.from_record(rows[0])

    def _update(self, cid: str, values: dict[str, Any]) -> None:
        with self._db.write():
            self._db.table(S.CONVERSATIONS).update(
                where=eq("id", cid), values={**values, "updated_at": now_iso()}
            )

    def rename(self, cid: str, title: str) -> None:
        self._update(cid, {"title": title})

    def set_kbs(self, cid: str, kb_ids: list[str]) -> None:
        """The knowledge bases the conversation searches (restored when it is reopened)."""
        self._update(cid, {"kb_ids": json.dumps(kb_ids)})

    def delete(self, cid: str) -> None:
        """The conversation with its messages and their verdicts."""
        with self._db.write():
            msg_ids = [r["id"] for r in self._db.rows(S.MESSAGES, eq("conversation_id", cid), ["id"])]
            if msg_ids:
                self._db.table(S.VERDICTS).delete(one_of("message_id", msg_ids))
            self._db.table(S.MESSAGES).delete(eq("conversation_id", cid))
            self._db.table(S.CONVERSATIONS).delete(eq("id", cid))

    def add_message(
        self,
        conversation_id: str,
        role: str,
        content: str,
        *,
        thinking: str = "",
        citations: list[JsonObject] | None = None,
        verdicts: list[JsonObject] | None = None,
        trace: JsonObject | None = None,
        usage: JsonObject | None = None,
        latency_ms: float = 0.0,
        settings: JsonObject | None = None,
        refused: bool = False,
    ) -> str:
        """Append a message (with the JSON payloads of an answer) and flatten its verdicts."""
        mid = new_id()
        with self._db.write():
            seq = self._db.table(S.MESSAGES).count_rows(eq("conversation_id", conversation_id))
            row = {
                "id": mid,
                "conversation_id": conversation_id,
                "seq": seq,
                "role": role,
                "content": content,
                "thinking": thinking,
                "citations_json": json.dumps(citations or [], ensure_ascii=False),
                "verdicts_json": json.dumps(verdicts or [], ensure_ascii=False),
                "trace_json": json.dumps(trace or {}, ensure_ascii=False),
                "usage_json": json.dumps(usage or {}),
                "latency_ms": float(latency_ms),
                "settings_json": json.dumps(settings or {}, ensure_ascii=False),
                "refused": bool(refused),
                "created_at": now_iso(),
            }
            self._db.table(S.MESSAGES).add([row])
            if verdicts:
                self._db.table(S.VERDICTS).add([verdict_row(mid, v) for v in verdicts])
            self._db.table(S.CONVERSATIONS).update(
                where=eq("id", conversation_id), values={"updated_at": row["created_at"]}
            )
        return mid

    def messages(self, conversation_id: str) -> list[Message]:
        rows = self._db.rows(S.MESSAGES, eq("conversation_id", conversation_id))
        return sorted((Message.from_record(r) for r in rows), key=lambda m: m.seq)

    def message(self, message_id: str) -> Message:
        rows = self._db.rows(S.MESSAGES, eq("id", message_id))
        if not rows:
            raise NotFound(f"no message {message_id}")
        return Message.from_record(rows[0])

    def verdicts(self, message_id: str) -> list[VerdictRow]:
        return [VerdictRow(**r) for r in self._db.rows(S.VERDICTS, eq("message_id", message_id))]
