"""Write the committed synthetic injection set (fixed seed): ``python scripts/gen_injection_set.py``.

Reads ``../shared/data/train/cuad/contracts`` (override with ``LEXGATE_SHARED_DATA``) and writes
``rag_core/judge/data/injection_synthetic.jsonl``; ``python -m rag_core train injection`` reads it.
"""

from __future__ import annotations

from rag_core.cli.bench_cmds import shared_data_dir
from rag_core.judge.injection_synth import SYNTH_PATH, generate, write_jsonl

if __name__ == "__main__":
    rows = generate(shared_data_dir() / "train" / "cuad" / "contracts")
    write_jsonl(rows, SYNTH_PATH)
    print(f"{len(rows)} passages written to {SYNTH_PATH}")
