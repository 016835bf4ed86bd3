"""``judge`` and ``ask``: the decision layer and grounded answers from the command line."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rag_core.cli.common import emit, emit_line, place_label, settings_of, store_of
from rag_core.errors import LexgateError
from rag_core.export import source_label
from rag_core.judge.base import PassageInput
from rag_core.judge.factory import make_judge
from rag_core.llm.factory import get_chat_model
from rag_core.models import ChatTurn
from rag_core.pipeline import AskRequest, AskResult, Done, Pipeline, Thinking, Token
from rag_core.settings import Settings


def _jsonl(path: str, required: tuple[str, ...]) -> list[dict[str, Any]]:
    """Objects of a JSONL file; a bad line names its number and what it lacks."""
    p = Path(path)
    if not p.is_file():
        raise LexgateError("file not found", "check the path", subject=path)
    out = []
    for no, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as err:
            raise LexgateError(f"line {no} is not JSON ({err.msg})", subject=path) from err
        missing = [k for k in required if not isinstance(obj, dict) or k not in obj]
        if missing:
            raise LexgateError(f"line {no} lacks {', '.join(missing)}", subject=path)
        out.append(obj)
    return out


def _judge_models(settings: Settings, backend: str | None) -> Any:
    if backend:
        settings.verdict.backend = backend  # type: ignore[assignment]
    model = get_chat_model(settings, "judge") if settings.verdict.backend == "llm" else None
    if settings.verdict.backend == "llm" and model is None:
        raise LexgateError(
            "the LLM judge needs a model", "configure an endpoint in Admin, or use --backend local"
        )
    return make_judge(settings, model)


def _verdict_out(v: Any) -> dict[str, Any]:
    return {
        "id": v.passage_id,
        "scores": v.scores,
        "keep": v.keep,
        "reason": v.reason,
        "explanation": v.explanation,
    }


def cmd_judge(args: argparse.Namespace) -> int:
    store = store_of(args)
    settings = settings_of(store)
    judge = _judge_models(settings, args.backend)
    if args.input:
        for obj in _jsonl(args.input, ("question", "passages")):
            passages = [PassageInput(id=str(i), text=str(t)) for i, t in enumerate(obj["passages"])]
            try:
                verdicts = [_verdict_out(v) for v in judge.judge(str(obj["question"]), passages)]
                emit_line({"id": obj.get("id"), "verdicts": verdicts})
            except LexgateError as err:
                emit_line({"id": obj.get("id"), "error": err.message})
        return 0
    if not args.question or not args.passage:
        raise LexgateError("judge needs --question and at least one --passage", "or --input FILE.jsonl")
    passages = [PassageInput(id=str(i), text=t) for i, t in enumerate(args.passage)]
    verdicts = [_verdict_out(v) for v in judge.judge(args.question, passages)]
    human = "\n".join(
        f"[{v['id']}] {v['reason']:<12} keep={v['keep']!s:<5} "
        + " ".join(f"{k}={s:.2f}" for k, s in v["scores"].items())
        + f"\n     {v['explanation']}"
        for v in verdicts
    )
    emit(args, verdicts, human)
    return 0


def _history(path: str | None) -> list[ChatTurn]:
    if not path:
        return []
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as err:
        raise LexgateError(
            f"cannot read history ({err})",
            '[{"role": "user", "content": "…"}, {"role": "assistant", "content": "…", "citations": [{"doc_id": …}]}, …]',
            subject=path,
        ) from err
    if not isinstance(raw, list) or any(
        not isinstance(t, dict) or t.get("role") not in ("user", "assistant") for t in raw
    ):
        raise LexgateError("history must be a list of {role: user|assistant, content}", subject=path)
    return [ChatTurn.of_message(t["role"], str(t.get("content", "")), t.get("citations")) for t in raw]


def run_ask(pipeline: Pipeline, req: AskRequest, stream_to: Any = None) -> AskResult:
    """Run one question to completion, optionally echoing tokens as they stream."""
    result: AskResult | None = None
    for event in pipeline.ask(req):
        if stream_to is not None and isinstance(event, Token | Thinking):
            stream_to.write(event.text)
            stream_to.flush()
        if isinstance(event, Done):
            result = event.result
    assert result is not None
    return result


def cmd_ask(args: argparse.Namespace) -> int:
    store = store_of(args)
    settings = settings_of(store)
    kbs = [store.kbs.get(name) for name in args.kb]
    pipeline = Pipeline.from_settings(store, settings)
    judge = False if args.no_judge else None
    history = _history(args.history)
    if args.questions:
        for obj in _jsonl(args.questions, ("question",)):
            req = AskRequest(str(obj["question"]), kbs, history, think=args.think, judge=judge)
            try:
                emit_line({"id": obj.get("id"), **run_ask(pipeline, req).to_json()})
            except LexgateError as err:
                emit_line({"id": obj.get("id"), "error": err.message})
        return 0
    if not args.question:
        raise LexgateError("no question given", "pass QUESTION or --questions FILE.jsonl")
    req = AskRequest(" ".join(args.question), kbs, history, think=args.think, judge=judge)
    if getattr(args, "json", False):
        emit(args, run_ask(pipeline, req).to_json(), "")
        return 0
    result = run_ask(pipeline, req, stream_to=sys.stderr)
    lines = ["", result.answer, ""]
    for c in result.citations:
        lines.append(
            f"[{c.n}] {source_label(c.doc, place_label(c.page, c.clause, c.page_end))} [{c.start}:{c.end}]"
        )
    kept = sum(1 for v in result.verdicts if v.keep)
    lines.append(f"verdicts: {kept} kept of {len(result.verdicts)}")
    print("\n".join(lines))
    return 0
