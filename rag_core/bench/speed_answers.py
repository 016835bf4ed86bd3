"""Answer speed per configuration: time to verdicts, to the quoted answer, to the first generated
token and to the end (median, p95), prompt tokens, citation precision and answer correctness.

Why through the real pipeline and its events: the lawyer waits for events, not for functions, so
each time is taken when the event reaches the caller (the milestones the pipeline records into
the trace). Each configuration loads and primes its model before its first question (the app does
this in the background at start), so no question pays loading; the load time is reported apart.

Answer correctness offline is the token F1 of the answer (refusals score 0) against the reference:
the gold clause text on CUAD, the lawyer's answer on LeCoQA; citation precision is the share of
cited blocks overlapping a gold span (CUAD) or naming a gold article (LeCoQA). The machine's load
average is recorded beside each question, since other processes share the CPU.
"""

from __future__ import annotations

import json
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rag_core.bench.answer_sets import (
    CUAD_TRAIN,
    LECOQA,
    LECOQA_BASE_QUESTIONS,
    AnswerQuestion,
    cuad_train_base,
    cuad_train_files,
    cuad_train_questions,
    lecoqa_files,
    lecoqa_questions,
)
from rag_core.bench.retrieval_bench import ensure_kb
from rag_core.errors import LexgateError
from rag_core.evaluation.spans import Span
from rag_core.evaluation.stats import median_p95
from rag_core.generation.prompt import Language, question_language, system_prompt
from rag_core.judge.warm import warm_judging_once
from rag_core.llm.factory import get_chat_model
from rag_core.models import KnowledgeBase
from rag_core.pipeline import AskRequest, AskResult, Done, Pipeline
from rag_core.reflection.support import content_tokens
from rag_core.settings import Settings
from storage.store import Store

Log = Callable[[str], None]


@dataclass(frozen=True)
class SpeedConfig:
    name: str  # e.g. "local-1.5b/sentences"
    provider: str  # local | openai
    local_model: str
    prompt_mode: str  # sentences | passages


def parse_configs(models: list[str], prompts: list[str], settings: Settings) -> list[SpeedConfig]:
    """Model × prompt configurations; ``endpoint`` only when an endpoint is configured; ``quoted``
    asks no answer model (the quoted answer alone: its time and precision on many questions)."""
    out = []
    size: str
    for model in models:
        if model == "endpoint":
            if not settings.models.base_url.strip():
                continue
            provider, size = "openai", settings.models.local_model
        elif model == "quoted":
            out.append(SpeedConfig("quoted", "none", settings.models.local_model, "sentences"))
            continue
        elif model in ("local-1.5b", "local-0.5b"):
            provider, size = "local", model.removeprefix("local-")
        else:
            raise LexgateError(
                f"unknown configuration '{model}'", "use local-1.5b, local-0.5b, endpoint or quoted"
            )
        for prompt in prompts:
            if prompt not in ("sentences", "passages"):
                raise LexgateError(f"unknown prompt mode '{prompt}'", "use sentences or passages")
            out.append(SpeedConfig(f"{model}/{prompt}", provider, size, prompt))
    return out


def _settings_for(base: Settings, cfg: SpeedConfig) -> Settings:
    s = base.model_copy(deep=True)
    s.models.provider = "local" if cfg.provider == "none" else cfg.provider  # type: ignore[assignment]
    s.models.local_model = cfg.local_model  # type: ignore[assignment]
    s.generation.prompt_mode = cfg.prompt_mode  # type: ignore[assignment]
    return s


def token_f1(answer: str, reference: str) -> float:
    """F1 of content tokens (jieba/stemmed words, stopwords out) of an answer against a reference."""
    a, r = content_tokens(answer), content_tokens(reference)
    common = len(a & r)
    if not a or not r or not common:
        return 0.0
    p, rec = common / len(a), common / len(r)
    return 2 * p * rec / (p + rec)


def _is_gold(doc: str, start: int, end: int, q: AnswerQuestion) -> bool:
    """A cited block or quoted sentence that overlaps a gold span (CUAD) or is a gold article."""
    if q.gold_spans:
        return any(Span(doc, start, end).overlaps(g) for g in q.gold_spans)
    return doc.removesuffix(".txt") in q.gold_ids


def _ask(pipeline: Pipeline, kb: KnowledgeBase, question: str) -> tuple[AskResult, float]:
    t0 = time.perf_counter()
    result: AskResult | None = None
    for ev in pipeline.ask(AskRequest(question, [kb])):
        if isinstance(ev, Done):
            result = ev.result
    assert result is not None
    return result, (time.perf_counter() - t0) * 1000


def question_row(q: AnswerQuestion, result: AskResult, total_ms: float) -> dict[str, Any]:
    """One question's times, tokens and quality figures."""
    trace = result.trace
    marks = trace.milestones_ms
    plan = trace.prompt_plan
    # the first draft's prompt and its cached share (a regeneration's second prompt is not added in)
    prompt_tokens = plan.prompt_tokens if plan and plan.prompt_tokens else (None,)
    cached = plan.cached_prompt_tokens if plan and plan.cached_prompt_tokens else (0,)
    return {
        "qid": q.qid,
        "question": q.text,
        "to_verdicts_ms": marks.get("to_verdicts"),
        "to_quoted_ms": marks.get("to_quoted"),
        "to_first_token_ms": marks.get("to_first_token"),
        "to_end_ms": round(total_ms, 1),
        "prompt_tokens": prompt_tokens[0],
        "cached_prompt_tokens": cached[0],
        "completion_tokens": result.usage.completion_tokens,
        "citations": len(result.citations),
        "citations_gold": sum(_is_gold(c.doc, c.start, c.end, q) for c in result.citations),
        "quoted": len(trace.quoted),
        "quoted_gold": sum(_is_gold(x.doc, x.start, x.end, q) for x in trace.quoted),
        "refused": result.refused,
        "answer_f1": 0.0 if result.refused else round(token_f1(result.answer, q.reference), 4),
        "quoted_f1": round(token_f1(" ".join(x.text for x in trace.quoted), q.reference), 4),
        "regenerated": len(trace.prompts) > 1,
        "loadavg_1min": round(os.getloadavg()[0], 2),
        "answer": result.answer,
    }


def _stats(values: list[float | None]) -> dict[str, float | None]:
    vals = [v for v in values if v is not None]
    if not vals:
        return {"median": None, "p95": None, "n": 0}
    return {**median_p95(vals, 1), "n": len(vals)}


def _share(num: int, den: int) -> float | None:
    return round(num / den, 4) if den else None


def summarize_rows(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Medians and p95 of the times, mean prompt tokens, precision and correctness of a configuration."""
    prompt = [r["prompt_tokens"] for r in rows if r["prompt_tokens"] is not None]
    return {
        "questions": len(rows),
        "to_verdicts_ms": _stats([r["to_verdicts_ms"] for r in rows]),
        "to_quoted_ms": _stats([r["to_quoted_ms"] for r in rows]),
        "to_first_token_ms": _stats([r["to_first_token_ms"] for r in rows]),
        "to_end_ms": _stats([r["to_end_ms"] for r in rows]),
        # a refusal ends in a fraction of a second with nothing generated: the answer time is the
        # time of the questions that were answered
        "to_end_answered_ms": _stats([r["to_end_ms"] for r in rows if not r["refused"]]),
        "prompt_tokens_mean": round(statistics.mean(prompt), 1) if prompt else None,
        "cached_prompt_tokens_mean": round(statistics.mean(r["cached_prompt_tokens"] for r in rows), 1)
        if rows
        else None,
        "citation_precision": _share(
            sum(r["citations_gold"] for r in rows), sum(r["citations"] for r in rows)
        ),
        "quoted_precision": _share(sum(r["quoted_gold"] for r in rows), sum(r["quoted"] for r in rows)),
        "answer_f1": round(statistics.mean(r["answer_f1"] for r in rows), 4) if rows else None,
        "quoted_f1": round(statistics.mean(r["quoted_f1"] for r in rows), 4) if rows else None,
        "refusal_rate": _share(sum(r["refused"] for r in rows), len(rows)),
        "loadavg_median": round(statistics.median(r["loadavg_1min"] for r in rows), 2) if rows else None,
    }


def _base(
    store: Store, settings: Settings, data_dir: Path, dataset: str, limit: int, log: Log
) -> tuple[KnowledgeBase, list[AnswerQuestion]]:
    if dataset == CUAD_TRAIN:
        base = cuad_train_base(data_dir)
        kb, _ = ensure_kb(store, settings, data_dir, CUAD_TRAIN, log, cuad_train_files(base))
        return kb, cuad_train_questions(data_dir, base, limit)
    if dataset == LECOQA:
        kb, _ = ensure_kb(store, settings, data_dir, f"{LECOQA}-subset", log, lecoqa_files(data_dir))
        return kb, lecoqa_questions(data_dir, min(limit, LECOQA_BASE_QUESTIONS))
    raise LexgateError(
        f"unknown dataset '{dataset}' for per-configuration answers", "use cuad-train or lecoqa"
    )


def _warm(settings: Settings, language: Language, answer_model: bool) -> float:
    """Warm the judge and load and prime the local answer model, as the app's warm-up does at start
    (so the first question is not a cold one); seconds taken."""
    t0 = time.perf_counter()
    warm_judging_once(settings)
    prime = getattr(get_chat_model(settings, "answer"), "prime", None) if answer_model else None
    if prime is not None:
        prime(system_prompt(language))
    return round(time.perf_counter() - t0, 1)


def _append(rows_out: Path | None, row: dict[str, Any]) -> None:
    if rows_out is not None:
        with rows_out.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")


def run_speed_bench(
    store: Store,
    settings: Settings,
    data_dir: Path,
    dataset: str,
    limit: int,
    configs: list[SpeedConfig],
    log: Log = print,
    rows_out: Path | None = None,
) -> dict[str, Any]:
    """Every configuration over the same questions and knowledge base, question by question (each
    question asked of every configuration in turn, so a run cut short still compares them on the
    same questions); with ``rows_out``, each row is appended there as it completes."""
    kb, questions = _base(store, settings, data_dir, dataset, limit, log)
    language = question_language(questions[0].text) if questions else "zh"
    out: dict[str, Any] = {"dataset": dataset, "kb": kb.name, "questions": len(questions), "configs": {}}
    pipelines = {}
    for cfg in configs:
        s = _settings_for(settings, cfg)
        pipelines[cfg.name] = (
            Pipeline(store, s, None) if cfg.provider == "none" else Pipeline.from_settings(store, s)
        )
        warm_s = _warm(s, language, answer_model=cfg.provider != "none")
        log(f"{cfg.name}: model ready ({warm_s} s to load and prime)")
        out["configs"][cfg.name] = {
            "answer_model": getattr(pipelines[cfg.name].answer_model, "name", None),
            "warm_s": warm_s,
            "rows": [],
        }
    for i, q in enumerate(questions):
        for cfg in configs:
            result, total = _ask(pipelines[cfg.name], kb, q.text)
            r = question_row(q, result, total)
            out["configs"][cfg.name]["rows"].append(r)
            _append(rows_out, {"config": cfg.name, **r})
            log(
                f"  [{i + 1}/{len(questions)}] {cfg.name}: quoted {r['to_quoted_ms']} ms, first token "
                f"{r['to_first_token_ms']} ms, end {r['to_end_ms']} ms, prompt {r['prompt_tokens']} "
                f"(cached {r['cached_prompt_tokens']}), load {r['loadavg_1min']}"
            )
    for c in out["configs"].values():
        c["summary"] = summarize_rows(c["rows"])
    return out


def _ms(stat: dict[str, Any]) -> str:
    if stat["median"] is None:
        return "—"
    return f"{stat['median'] / 1000:.2f} / {stat['p95'] / 1000:.2f}"


def format_speed(r: dict[str, Any]) -> str:
    """A Markdown table: one row per configuration."""
    lines = [
        f"{r['dataset']}: {r['questions']} questions, knowledge base {r['kb']}",
        "",
        "| configuration | verdicts s (median / p95) | quoted answer s | first token s | end s (answered) | prompt tokens "
        "(cached) | citation precision | quoted precision | answer F1 | refusals | load avg |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, c in r["configs"].items():
        s = c["summary"]
        lines.append(
            f"| {name} | {_ms(s['to_verdicts_ms'])} | {_ms(s['to_quoted_ms'])} | {_ms(s['to_first_token_ms'])} | "
            f"{_ms(s['to_end_answered_ms'])} | {s['prompt_tokens_mean']} ({s['cached_prompt_tokens_mean']}) | "
            f"{s['citation_precision']} | {s['quoted_precision']} | {s['answer_f1']} | {s['refusal_rate']} | "
            f"{s['loadavg_median']} |"
        )
    return "\n".join(lines)
