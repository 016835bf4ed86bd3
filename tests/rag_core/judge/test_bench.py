"""The verdict bench on the first lines of the real public data: shape, ranges and a modest floor."""

from __future__ import annotations

from pathlib import Path

import pytest

from rag_core.bench.verdicts import first_answer, format_table, run_verdict_bench
from rag_core.judge.local_judge import LocalJudge
from rag_core.settings import VerdictSettings

DATA = Path(__file__).resolve().parents[3].parent / "shared" / "data"

pytestmark = pytest.mark.skipif(not (DATA / "injection").is_dir(), reason="public data not present")


def test_bench_on_first_40_lines() -> None:
    s = VerdictSettings()
    r = run_verdict_bench(DATA, LocalJudge(s), s, limit=40)
    assert set(r["injection"]) == {"bipia_in_contracts_train", "deepset_train"}
    for block in r["injection"].values():
        assert block["all"]["n"] == 40
        for half in ("all", "even", "odd"):
            assert 0.0 <= block[half]["f1"] <= 1.0
        assert block["all"]["f1"] >= 0.7
    assert 0.0 <= r["clean_clause_fpr"] <= 0.1
    for name in ("rgb_en_fact", "rgb_zh_fact", "combined"):
        assert 0.6 <= r["conflict"][name]["all"]["accuracy"] <= 1.0
    rel = r["relevance"]["privacyqa_relevance"]["all"]
    assert rel["n"] == 40 and 0.4 <= rel["f1"] <= 1.0
    assert 0.0 <= r["relevance"]["privacyqa_relevance"]["close_share"] < 0.9  # two different scores
    lat = r["latency"]
    assert lat["median_ms_per_passage"] > 0 and lat["p95_ms_per_passage"] >= lat["median_ms_per_passage"]
    assert lat["batch_passages"] == 20 and lat["batch_seconds"] > 0  # speed is measured, not asserted
    assert lat["batch_cpu_seconds"] > 0 and lat["batch_seconds_cold"] > 0
    table = format_table(r)
    assert "injection F1 deepset_train" in table and "conflict accuracy combined" in table
    assert "|relevance - evidence| < 0.05 privacyqa_relevance" in table


def test_first_answer_flattens_variants() -> None:
    assert first_answer([["May 15 2012", "May 15, 2012"]]) == "May 15 2012"
    assert first_answer("Tampa, Florida") == "Tampa, Florida"
    assert first_answer([]) == ""
