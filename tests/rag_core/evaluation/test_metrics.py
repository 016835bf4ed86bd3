"""LLM-judged metrics computed from scripted judge replies, and span-exact variants.

The judge is a scripted double (the LLM is not under test): each test feeds the reply text a
model would send and checks the number the metric computes from it, or that it refuses to
judge.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from rag_core.evaluation.metrics import (
    FACTUAL_WEIGHT,
    SEMANTIC_WEIGHT,
    Embed,
    JudgeOptions,
    MetricResult,
    aggregate,
    answer_correctness,
    answer_relevancy,
    average_precision,
    context_precision,
    context_precision_spans,
    context_recall,
    context_recall_spans,
    evaluate_case,
    factual_f1,
    faithfulness,
    read_verdict,
)
from rag_core.evaluation.spans import Span
from rag_core.evaluation.testset import EvalCase
from rag_core.llm.openai_client import OpenAIChatModel
from tests.fakeopenai import Reply
from tests.rag_core.evaluation.judge_server import JudgeServer

CONTEXTS = ["第五条 违约金为合同总额的10%。", "Section 7.2: either party may terminate on 30 days' notice."]


def claims(*verdicts: bool) -> str:
    return json.dumps({"claims": [{"claim": f"c{i}", "supported": v} for i, v in enumerate(verdicts)]})


def table_embed(vectors: dict[str, list[float]]) -> Embed:
    """A deterministic embedder: a fixed vector per text (deliberately not normalised)."""

    def embed(texts: list[str]) -> np.ndarray:
        return np.array([vectors[t] for t in texts], dtype=float)

    return embed


# ---------------------------------------------------------------- faithfulness


def test_faithfulness_two_of_three_from_fenced_json(judge_server: JudgeServer) -> None:
    judge = judge_server.model(["Here you go:\n```json\n" + claims(True, False, True) + "\n```"])
    result = faithfulness("违约金是多少？", "违约金为10%，由甲方支付，可以减免。", CONTEXTS, judge)
    assert result.value == pytest.approx(2 / 3)
    assert result.error is None
    assert result.details["total"] == 3
    assert "[1] 第五条" in judge_server.prompts()[0] and "[2] Section 7.2" in judge_server.prompts()[0]
    (request,) = judge_server.requests()
    assert request["response_format"] == {"type": "json_object"}
    assert request["temperature"] == 0.0


def test_faithfulness_accepts_truncated_json_and_word_verdicts(judge_server: JudgeServer) -> None:
    truncated = '{"claims": [{"claim": "a", "supported": "是"}, {"claim": "b", "supported": "no"}'
    result = faithfulness("q", "a. b.", CONTEXTS, judge_server.model([truncated]))
    assert result.value == pytest.approx(0.5)


def test_faithfulness_accepts_a_bare_array(judge_server: JudgeServer) -> None:
    reply = '[{"claim": "a", "supported": true}, {"claim": "b", "supported": true}]'
    assert faithfulness("q", "a", CONTEXTS, judge_server.model([reply])).value == 1.0


@pytest.mark.parametrize(
    "reply",
    [
        "I think the answer is mostly faithful.",  # no JSON at all
        '{"verdict": "good"}',  # wrong schema
        '{"claims": [{"claim": "a", "supported": true}, {"claim": "b", "supported": "maybe"}]}',
        '{"claims": [{"claim": "a", "supported": true}, {"claim": "b',  # cut inside an item
    ],
)
def test_faithfulness_could_not_judge(reply: str, judge_server: JudgeServer) -> None:
    result = faithfulness("q", "some answer", CONTEXTS, judge_server.model([reply]))
    assert result.value is None
    assert result.error is not None and result.error.startswith("could not judge")


def test_faithfulness_of_a_refusal_is_no_claims(judge_server: JudgeServer) -> None:
    result = faithfulness(
        "q", "现有知识库中没有足够证据回答这个问题。", CONTEXTS, judge_server.model(['{"claims": []}'])
    )
    assert result.value is None
    assert result.error == "no claims"
    empty = faithfulness("q", "  ", CONTEXTS, judge_server.model([]))
    assert empty.value is None and empty.error == "no claims"


def test_model_failure_and_oversize_prompt_are_unjudged(judge_server: JudgeServer) -> None:
    failing = faithfulness("q", "a", CONTEXTS, judge_server.model([Reply.error(404, "endpoint down")]))
    assert failing.value is None and failing.error is not None and "endpoint down" in failing.error
    judge = judge_server.model([claims(True)])
    asked_before = len(judge_server.prompts())
    big = faithfulness("q", "a", ["x" * 5000], judge, JudgeOptions(max_input_chars=1000))
    assert big.value is None and big.error is not None and "exceeds the limit" in big.error
    assert len(judge_server.prompts()) == asked_before  # refused before asking


def test_read_verdict() -> None:
    assert read_verdict(True) is True
    assert read_verdict(0) is False
    assert read_verdict(" Yes.") is True
    assert read_verdict("否") is False
    assert read_verdict(2) is None
    assert read_verdict(None) is None


# ---------------------------------------------------------------- answer relevancy


def test_answer_relevancy_is_mean_cosine_of_generated_questions(judge_server: JudgeServer) -> None:
    embed = table_embed({"Q": [2.0, 0.0], "q1": [1.0, 0.0], "q2": [0.0, 5.0], "q3": [3.0, 4.0]})
    judge = judge_server.model(['{"questions": ["q1", "q2", "q3"], "noncommittal": false}'])
    result = answer_relevancy("Q", "the answer", judge, embed)
    # cosines 1, 0, 0.6 (rows re-normalised)
    assert result.value == pytest.approx((1 + 0 + 0.6) / 3)
    assert result.details["method"] == "embedding"
    assert "Write 3 different questions" in judge_server.prompts()[0]


def test_answer_relevancy_noncommittal_scores_zero(judge_server: JudgeServer) -> None:
    embed = table_embed({"Q": [1.0, 0.0], "q1": [1.0, 0.0]})
    judge = judge_server.model(['{"questions": ["q1"], "noncommittal": true}'])
    assert answer_relevancy("Q", "I don't know", judge, embed).value == 0.0


def test_answer_relevancy_unjudged_without_questions_or_verdict(judge_server: JudgeServer) -> None:
    embed = table_embed({"Q": [1.0, 0.0]})
    for reply in ['{"questions": [], "noncommittal": false}', '{"questions": ["x"]}', "nonsense"]:
        result = answer_relevancy("Q", "a", judge_server.model([reply]), embed)
        assert result.value is None and result.error is not None


def test_answer_relevancy_zero_vector_is_unjudged(judge_server: JudgeServer) -> None:
    embed = table_embed({"Q": [0.0, 0.0], "q1": [1.0, 0.0]})
    judge = judge_server.model(['{"questions": ["q1"], "noncommittal": false}'])
    assert answer_relevancy("Q", "a", judge, embed).value is None


def test_answer_relevancy_without_embedder_falls_back_to_llm_score(judge_server: JudgeServer) -> None:
    result = answer_relevancy("Q", "a", judge_server.model(['{"relevance": 0.7, "reason": "close"}']))
    assert result.value == pytest.approx(0.7)
    assert "no embedder" in result.details["method"]
    out_of_range = answer_relevancy("Q", "a", judge_server.model(['{"relevance": 7}']))
    assert out_of_range.value is None and "no embedder" in out_of_range.details["method"]


# ---------------------------------------------------------------- context recall / precision


def test_context_recall_counts_attributed_statements(judge_server: JudgeServer) -> None:
    reply = json.dumps(
        {
            "statements": [
                {"statement": "违约金10%", "attributed": True},
                {"statement": "甲方支付", "attributed": False},
            ]
        },
        ensure_ascii=False,
    )
    result = context_recall("违约金为10%，由甲方支付。", CONTEXTS, judge_server.model([reply]))
    assert result.value == pytest.approx(0.5)


def test_context_recall_edge_cases(judge_server: JudgeServer) -> None:
    judge = judge_server.model([])
    assert context_recall("ref", [], judge).value == 0.0  # nothing retrieved: 0 by definition
    assert context_recall("", CONTEXTS, judge).value is None
    assert judge_server.prompts() == []


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ([True, False, True], (1 / 1 + 2 / 3) / 2),
        ([False, True], 1 / 2),
        ([True, True], 1.0),
        ([False, False, True], 1 / 3),
        ([False, False], 0.0),
        ([], 0.0),
    ],
)
def test_average_precision(pattern: list[bool], expected: float) -> None:
    assert average_precision(pattern) == pytest.approx(expected)


def test_context_precision_judges_each_context_in_rank_order(judge_server: JudgeServer) -> None:
    contexts = ["ctx-one", "ctx-two", "ctx-three"]
    useful = {"ctx-one": True, "ctx-two": False, "ctx-three": True}

    def reply(prompt: str) -> str:
        context = next(c for c in contexts if c in prompt)
        return json.dumps({"useful": useful[context], "reason": "r"})

    result = context_precision("q", "ref", contexts, judge_server.model(reply))
    assert result.value == pytest.approx((1 + 2 / 3) / 2)
    assert result.details["useful"] == [True, False, True]


def test_context_precision_unjudged_when_one_context_is_unreadable(judge_server: JudgeServer) -> None:
    judge = judge_server.model(['{"useful": true}', "garbage", '{"useful": true}'])
    result = context_precision("q", "ref", ["a", "b", "c"], judge)
    assert result.value is None
    assert result.error is not None and "context 2" in result.error
    assert context_precision("q", "ref", [], judge_server.model([])).value is None


# ---------------------------------------------------------------- answer correctness


CORRECTNESS = json.dumps(
    {
        "TP": [{"statement": "fee is 10%", "reason": ""}, {"statement": "paid by A", "reason": ""}],
        "FP": [{"statement": "waivable", "reason": ""}],
        "FN": ["due in 30 days"],
    }
)


def test_answer_correctness_factual_f1(judge_server: JudgeServer) -> None:
    result = answer_correctness("q", "answer", "reference", judge_server.model([CORRECTNESS]))
    # TP=2, FP=1, FN=1: 2 / (2 + 0.5 * 2) = 2/3
    assert result.value == pytest.approx(2 / 3)
    assert result.details["counts"] == {"TP": 2, "FP": 1, "FN": 1}
    assert "no embedder" in result.details["method"]


def test_answer_correctness_blended_with_similarity(judge_server: JudgeServer) -> None:
    embed = table_embed({"answer": [1.0, 0.0], "reference": [1.0, 3**0.5]})  # cosine 0.5
    result = answer_correctness("q", "answer", "reference", judge_server.model([CORRECTNESS]), embed)
    assert result.value == pytest.approx(FACTUAL_WEIGHT * 2 / 3 + SEMANTIC_WEIGHT * 0.5)
    assert result.value == pytest.approx(0.625)


def test_answer_correctness_unjudged_on_missing_list_or_no_statements(judge_server: JudgeServer) -> None:
    missing = answer_correctness("q", "a", "r", judge_server.model(['{"TP": [], "FP": []}']))
    assert missing.value is None and missing.error is not None and "FN" in missing.error
    empty = answer_correctness("q", "a", "r", judge_server.model(['{"TP": [], "FP": [], "FN": []}']))
    assert empty.value is None
    assert factual_f1(0, 2, 1) == 0.0
    assert factual_f1(0, 0, 0) is None


# ---------------------------------------------------------------- span variants


def test_span_variants() -> None:
    gold = [Span("c.txt", 100, 200)]
    ranked = [Span("c.txt", 150, 250), Span("c.txt", 0, 50), Span("c.txt", 190, 210)]
    recall = context_recall_spans(ranked, gold)
    # retrieved covers [0,50) + [150,250): 150 chars; shared [150,200) = 50 of 100 gold
    assert recall.value == pytest.approx(0.5)
    assert recall.details["char_precision"] == pytest.approx(50 / 150)
    precision = context_precision_spans(ranked, gold)
    assert precision.value == pytest.approx((1 + 2 / 3) / 2)
    assert context_precision_spans([], gold).value is None
    assert context_recall_spans(ranked, []).value is None


# ---------------------------------------------------------------- evaluate_case and aggregate


def routed_judge(judge_server: JudgeServer) -> OpenAIChatModel:
    """Replies chosen by which metric's prompt arrives, so call order does not matter."""

    def reply(prompt: str) -> str | Reply:
        if "atomic factual claims" in prompt:
            return claims(True, False)
        if "rate how directly" in prompt:
            return '{"relevance": 0.9, "reason": "on topic"}'
        if '"attributed"' in prompt:
            return '{"statements": [{"statement": "s", "attributed": true}]}'
        if '"useful"' in prompt:
            return '{"useful": %s}' % ("true" if "第五条" in prompt else "false")
        if '"TP"' in prompt:
            return CORRECTNESS
        return Reply.error(404, f"unexpected prompt: {prompt[:80]}")

    return judge_server.model(reply)


def test_evaluate_case_runs_every_applicable_metric(judge_server: JudgeServer) -> None:
    case = EvalCase(
        id="c1",
        question="违约金是多少？",
        reference_answer="违约金为合同总额的10%。",
        gold_spans=[Span("c.txt", 0, 10)],
    )
    results = evaluate_case(
        case,
        "违约金为10%。",
        CONTEXTS,
        routed_judge(judge_server),
        retrieved_spans=[Span("c.txt", 0, 20), Span("c.txt", 50, 60)],
    )
    values = {name: r.value for name, r in results.items()}
    assert values == pytest.approx(
        {
            "faithfulness": 0.5,
            "answer_relevancy": 0.9,
            "context_recall": 1.0,
            "context_precision": 1.0,  # [useful, not useful]
            "answer_correctness": 2 / 3,
            "context_recall_spans": 1.0,
            "context_precision_spans": 1.0,
        }
    )


def test_evaluate_case_without_reference_leaves_reference_metrics_out(judge_server: JudgeServer) -> None:
    case = EvalCase(id="c2", question="q")
    results = evaluate_case(case, "a", CONTEXTS, routed_judge(judge_server))
    assert set(results) == {"faithfulness", "answer_relevancy"}


def test_aggregate_means_over_judged_values_only() -> None:
    results = [
        {"f": MetricResult("f", 0.5), "g": MetricResult("g", None, error="could not judge: x")},
        {"f": MetricResult("f", None, error="no claims"), "g": MetricResult("g", None, error="x")},
        {"f": MetricResult("f", 1.0)},
    ]
    summary = aggregate(results)
    assert summary["f"] == {"mean": pytest.approx(0.75), "n": 2, "could_not_judge": 1}
    assert summary["g"] == {"mean": None, "n": 0, "could_not_judge": 2}
