"""``eval``: score a knowledge base's answers on a test set, and store the run."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rag_core.cli.common import emit, settings_of, store_of
from rag_core.embeddings.registry import get_embedder
from rag_core.evaluation.runner import run_eval
from rag_core.evaluation.testset import load_jsonl
from rag_core.llm.factory import get_chat_model
from rag_core.pipeline import Pipeline
from storage.rows import StoredRun


def cmd_eval(args: argparse.Namespace) -> int:
    store = store_of(args)
    settings = settings_of(store)
    kb = store.kbs.get(args.kb)
    cases = load_jsonl(Path(args.dataset))
    if args.limit:
        cases = cases[: args.limit]
    embedder = get_embedder(kb.embed_backend, kb.embed_model, settings)
    judge_model = get_chat_model(settings, "judge")

    def progress(done: int, total: int, question: str) -> None:
        if not getattr(args, "json", False):
            print(f"[{done}/{total}] {question[:70]}", file=sys.stderr, flush=True)

    run = run_eval(
        Pipeline.from_settings(store, settings),
        kb,
        cases,
        judge_model,
        embedder.embed_queries,
        name=args.name or Path(args.dataset).stem,
        progress=progress,
    )
    data = run.to_json()
    data["id"] = store.evaluation.save_run(StoredRun.from_json({**data, "kb_id": kb.id}))
    lines = [f"run {data['id']}: {run.summary['cases']} cases on '{kb.name}'"]
    for metric, agg in run.summary["metrics"].items():
        mean = "—" if agg["mean"] is None else f"{agg['mean']:.3f}"
        lines.append(f"  {metric:<26} {mean}  (n={agg['n']}, could not judge {agg['could_not_judge']})")
    lines.append(f"  refusal rate {run.summary['refusal_rate']}")
    emit(args, {k: v for k, v in data.items() if k != "rows"} | {"rows": data["rows"]}, "\n".join(lines))
    return 0
