#!/usr/bin/env bash
# Run every benchmark the README reports, one after another (they share two cores), writing the
# printed tables and the JSON into bench-results/. Uses a separate store under ./lexgate-data/bench.
set -uo pipefail
cd "$(dirname "$0")/.."
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
mkdir -p bench-results
run() {  # name, then the bench arguments
  local name=$1; shift
  echo "== $name: python -m rag_core bench $*" | tee "bench-results/$name.txt"
  .venv/bin/python -m rag_core bench "$@" --json > "bench-results/$name.json" 2>> "bench-results/$name.log"
  PYTHONPATH=. .venv/bin/python scripts/format_bench.py "$1" "bench-results/$name.json" >> "bench-results/$name.txt"
}
for step in ${BENCH_STEPS:-retrieval-cuad retrieval-lecoqa verdicts latency-100k ingest latency-1m answers-lecoqa}; do
  case $step in
    retrieval-cuad) run retrieval-cuad retrieval --dataset legalbench-rag-mini-cuad --llm-limit "${LLM_LIMIT:-10}" ;;
    retrieval-cuad-usem) run retrieval-cuad-usem retrieval --dataset legalbench-rag-mini-cuad --backend usem --configs vector,hybrid,hybrid+routing ;;
    retrieval-lecoqa) run retrieval-lecoqa retrieval --dataset lecoqa --llm-limit "${LLM_LIMIT:-10}" ;;
    verdicts) run verdicts verdicts ;;
    latency-100k) run latency-100k latency --chunks 100000 ;;
    latency-1m) run latency-1m latency --chunks 1000000 --queries 100 ;;
    ingest) run ingest ingest ;;
    answers-lecoqa) run answers-lecoqa answers --dataset lecoqa --limit "${ANSWERS_LIMIT:-5}" ;;
  esac
done
