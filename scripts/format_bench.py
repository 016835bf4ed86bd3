"""Print a benchmark's JSON result as the table its command prints: format_bench.py KIND FILE.json"""

import json
import sys

from rag_core.bench import answers_bench, ingest_bench, latency_bench, retrieval_bench, verdicts

FORMATS = {
    "retrieval": retrieval_bench.format_table,
    "ingest": ingest_bench.format_ingest,
    "latency": latency_bench.format_latency,
    "verdicts": verdicts.format_table,
    "answers": answers_bench.format_answers,
}

if __name__ == "__main__":
    with open(sys.argv[2], encoding="utf-8") as fh:
        print(FORMATS[sys.argv[1]](json.load(fh)))
