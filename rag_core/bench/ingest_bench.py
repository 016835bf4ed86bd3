"""Ingestion benchmark: throughput and peak memory of extraction, chunking, embedding and indexing.

Why through the real pipeline: a separate timing harness would measure something the lawyer never
runs. The stage timings come from ``ingest_files`` itself; a sampler thread records the process's
resident memory, tagged with the stage the progress callback last reported.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import psutil

from rag_core.embeddings.registry import describe
from rag_core.ingest.pipeline import ingest_files
from rag_core.settings import Settings
from storage.chunks import ChunkFilter
from storage.store import Store

RSS_SAMPLE_S = 0.05
"""How often the resident set size is sampled."""
MB = 1024 * 1024


class _RssSampler:
    """Peak RSS per stage, sampled in a background thread."""

    def __init__(self) -> None:
        self.stage = "start"
        self.peaks: dict[str, float] = {}
        self._stop = threading.Event()
        self._proc = psutil.Process()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            rss = self._proc.memory_info().rss / MB
            self.peaks[self.stage] = max(self.peaks.get(self.stage, 0.0), rss)
            time.sleep(RSS_SAMPLE_S)

    def __enter__(self) -> _RssSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def run_ingest_bench(store: Store, settings: Settings, corpus: Path) -> dict[str, Any]:
    files = sorted(
        f for f in corpus.iterdir() if f.is_file() and f.suffix.lower() in {".pdf", ".docx", ".txt", ".md"}
    )
    name = f"bench-ingest-{int(time.time())}"
    model_name, dim = describe(settings.embedding.backend, settings.embedding.model, settings)
    kb = store.kbs.create(name, settings.embedding.backend, settings.embedding.model, dim)
    marks: dict[str, float] = {}
    t0 = time.perf_counter()
    try:
        with _RssSampler() as sampler:

            def progress(_name: str, stage: str, _fraction: float) -> None:
                sampler.stage = stage
                marks.setdefault(stage, time.perf_counter() - t0)

            results = ingest_files(store, kb, list(files), settings, progress)
            total_s = time.perf_counter() - t0
        chunks = store.chunks.count(kb, ChunkFilter(searchable=True))
    finally:
        store.kbs.delete(kb.id)
    ok = [r for r in results if r.status == "ingested"]
    chars = sum(r.chars for r in ok)
    pages = sum(r.pages for r in ok)

    def stage_sum(key: str) -> float:
        return sum(r.timings.get(key, 0.0) for r in ok)

    extract_s, chunk_s, embed_s = stage_sum("extract_s"), stage_sum("chunk_s"), stage_sum("embed_s")
    index_s = (
        stage_sum("store_chunks_s")
        + stage_sum("store_vectors_s")
        + max((r.timings.get("keyword_index_s", 0.0) for r in ok), default=0.0)
        + max((r.timings.get("index_s", 0.0) for r in ok), default=0.0)
    )
    embedded_chars = chars  # each searchable chunk's text plus header is embedded; chars is the document text

    def rate(n: float, s: float) -> float:
        return round(n / s, 1) if s > 0 else 0.0

    return {
        "corpus": str(corpus),
        "files": len(files),
        "ingested": len(ok),
        "failed": [r.message for r in results if r.status == "failed"],
        "characters": chars,
        "pages": pages,
        "chunks": chunks,
        "embedding": f"{settings.embedding.backend} {model_name}",
        "total_s": round(total_s, 1),
        "keyword_searchable_after_s": round(marks.get("embed", total_s), 1),
        "stages": {
            "extract": {
                "s": round(extract_s, 2),
                "pages_per_s": rate(pages, extract_s),
                "chars_per_s": rate(chars, extract_s),
            },
            "chunk": {
                "s": round(chunk_s, 2),
                "chunks_per_s": rate(chunks, chunk_s),
                "chars_per_s": rate(chars, chunk_s),
            },
            "extract+chunk": {"chars_per_s": rate(chars, extract_s + chunk_s)},
            "embed": {
                "s": round(embed_s, 1),
                "chunks_per_s": rate(chunks, embed_s),
                "chars_per_s": rate(embedded_chars, embed_s),
            },
            "index": {"s": round(index_s, 2), "chunks_per_s": rate(chunks, index_s)},
        },
        "peak_rss_mb": {k: round(v, 1) for k, v in sampler.peaks.items()},
        "peak_rss_mb_overall": round(max(sampler.peaks.values(), default=0.0), 1),
    }


def format_ingest(r: dict[str, Any]) -> str:
    st = r["stages"]
    lines = [
        f"corpus {r['corpus']}: {r['ingested']}/{r['files']} files, {r['pages']} pages, {r['characters']:,} chars, "
        f"{r['chunks']} chunks, {r['embedding']}",
        f"total {r['total_s']} s; keyword-searchable after {r['keyword_searchable_after_s']} s",
        f"extract  {st['extract']['s']:>8} s  {st['extract']['pages_per_s']:>10} pages/s  {st['extract']['chars_per_s']:>12,} chars/s",
        f"chunk    {st['chunk']['s']:>8} s  {st['chunk']['chunks_per_s']:>10} chunks/s {st['chunk']['chars_per_s']:>12,} chars/s",
        f"extract+chunk                          {st['extract+chunk']['chars_per_s']:>12,} chars/s",
        f"embed    {st['embed']['s']:>8} s  {st['embed']['chunks_per_s']:>10} chunks/s {st['embed']['chars_per_s']:>12,} chars/s",
        f"index    {st['index']['s']:>8} s  {st['index']['chunks_per_s']:>10} chunks/s",
        "peak RSS (MB) by stage: " + ", ".join(f"{k} {v}" for k, v in r["peak_rss_mb"].items()),
        f"peak RSS overall {r['peak_rss_mb_overall']} MB",
    ]
    if r["failed"]:
        lines.append("failed: " + "; ".join(r["failed"]))
    return "\n".join(lines)
