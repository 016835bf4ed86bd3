"""Query expansion with an LLM: HyDE (a hypothetical clause) and multi-query rewrites (seed 004 §5).

Why: lawyers ask "can the contract be ended early?" while the contract says "Party A may terminate
this Agreement upon…". A clause-shaped hypothetical bridges that vocabulary gap for the vector leg;
rewrites give the keyword leg other words. The hypothetical text is never shown as an answer.
"""

from __future__ import annotations

from rag_core import textproc
from rag_core.llm.base import ChatModel, ChatOptions, Message

HYDE_MAX_TOKENS = 320
"""Enough tokens for a 250-character clause in either language."""
REWRITE_MAX_TOKENS = 200


def hyde_prompt(question: str, min_chars: int, max_chars: int) -> list[Message]:
    if textproc.has_cjk(question):
        text = (
            "你是一个专业的法律合同知识库系统。\n"
            f"用户提问：{question}\n\n"
            "请生成一段可能包含该问题答案的合同条款。要求：使用专业、规范的法律语言；包含具体的条款表述；"
            f"长度控制在{min_chars}-{max_chars}字；直接输出条款内容，不要任何前缀或解释。"
        )
    else:
        text = (
            "You are a legal contract knowledge base.\n"
            f"Question: {question}\n\n"
            "Write one contract clause that would answer this question, in formal legal register, with "
            f"concrete clause wording, {min_chars}-{max_chars} characters long. Output only the clause text."
        )
    return [Message("user", text)]


def hyde(model: ChatModel, question: str, min_chars: int, max_chars: int) -> str:
    """A hypothetical clause answering the question, trimmed to ``max_chars`` (used for retrieval only)."""
    result = model.chat(hyde_prompt(question, min_chars, max_chars), ChatOptions(max_tokens=HYDE_MAX_TOKENS))
    return result.content.strip()[: max_chars * 2]


def rewrite_prompt(question: str, count: int) -> list[Message]:
    if textproc.has_cjk(question):
        text = (
            f"将以下用户问题改写为{count}个不同角度的搜索查询。每个查询使用不同的关键词组合，覆盖问题的不同方面。"
            f"每行一个查询，不要编号，不要解释。\n\n原始问题：{question}"
        )
    else:
        text = (
            f"Rewrite the question below into {count} differently-worded search queries for a contract "
            "database, each with different key words covering a different aspect. One query per line, no "
            f"numbering, no explanations.\n\nQuestion: {question}"
        )
    return [Message("user", text)]


def multi_query(model: ChatModel, question: str, count: int) -> list[str]:
    """Up to ``count`` distinct rewrites (the original question is not among them)."""
    result = model.chat(rewrite_prompt(question, count), ChatOptions(max_tokens=REWRITE_MAX_TOKENS))
    out: list[str] = []
    for line in result.content.splitlines():
        clean = line.strip().lstrip("-*•0123456789.、) ").strip()
        if clean and clean != question and clean not in out:
            out.append(clean)
    return out[:count]
