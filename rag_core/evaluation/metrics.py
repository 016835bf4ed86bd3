"""RAGAS-style answer and context metrics, judged by a chat model, and span-exact variants.

Why computed, never assumed: a metric that returns a default when the judge's reply cannot be
read (as the design note's evaluator returns 0.85) reports the parser, not the system. Here every
value is counted from the judge's structured verdicts, and when they cannot be read the result
is ``value=None`` with ``error="could not judge: …"``; ``aggregate`` counts those separately so
a mean is always over judged cases only.

Each LLM-judged metric sends one prompt (English instructions; questions, answers and passages
may be Chinese, English or mixed, and the prompts tell the judge the language does not matter)
that asks for one JSON object with a documented schema. Replies are parsed with
``parse_json_object`` (fenced and truncated JSON tolerated). Reading is strict: an item whose
verdict cannot be read makes the whole metric unjudged, because dropping it would silently
change the denominator.

Definitions (RAGAS):

* faithfulness = supported claims / claims of the answer (no claims, e.g. a refusal: unjudged).
* answer_relevancy = mean cosine similarity between the question and N questions the judge
  writes for the answer, times 0 when the judge finds the answer noncommittal. Without an
  embedder: the judge's own 0–1 relevance score (``details["method"]`` says which).
* context_recall = reference statements attributable to the contexts / reference statements.
* context_precision = average precision of the ranked contexts, a context being relevant when
  the judge finds it useful for the reference answer: sum_k (precision@k × v_k) / #relevant.
* answer_correctness = factual F1 = TP / (TP + (FP + FN) / 2) over statements classified by the
  judge, blended 0.75/0.25 with the answer–reference cosine similarity when an embedder is given.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from rag_core.coded import code_of, coded, join
from rag_core.errors import LLMError
from rag_core.evaluation.retrieval_metrics import char_precision_recall
from rag_core.evaluation.spans import Span, total_chars
from rag_core.evaluation.testset import EvalCase, parse_json_array
from rag_core.llm.base import ChatModel, ChatOptions, Message
from rag_core.llm.jsonparse import parse_json_object

Embed = Callable[[list[str]], np.ndarray]
"""Texts to a matrix with one (L2-normalised) row per text, as the knowledge base's embedder gives."""

JUDGE_TEMPERATURE = 0.0  # judging must be repeatable
JUDGE_MAX_TOKENS = 1024  # room for a claim list of a long answer
JUDGE_MAX_INPUT_CHARS = 24_000  # larger prompts are refused (unjudged), never truncated
RELEVANCY_QUESTIONS = 3  # questions generated per answer for answer_relevancy (RAGAS default)
FACTUAL_WEIGHT = 0.75  # answer_correctness weight of the factual F1 (RAGAS default)
SEMANTIC_WEIGHT = 0.25  # answer_correctness weight of answer–reference similarity (RAGAS default)
F1_FALSE_WEIGHT = 0.5  # F1 = TP / (TP + 0.5 (FP + FN))
RAW_EXCERPT_CHARS = 300  # unreadable judge output kept in details for diagnosis

NO_CLAIMS = "no claims"
CANNOT = "could not judge"

_TRUE_WORDS = frozenset(
    {"true", "yes", "y", "1", "supported", "attributed", "useful", "relevant", "是", "对"}
)
_FALSE_WORDS = frozenset(
    {
        "false",
        "no",
        "n",
        "0",
        "unsupported",
        "not supported",
        "not attributed",
        "not useful",
        "irrelevant",
        "否",
        "不",
    }
)


@dataclass
class MetricResult:
    """One metric on one case: a computed value, or ``None`` with the reason in ``error``."""

    name: str
    value: float | None
    details: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    # The reason as a code and parameters, for an interface in another language (``rag_core.coded``).
    error_code: str = ""
    error_params: dict[str, str | int | float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class JudgeOptions:
    """How the judge model is called; defaults are the module constants."""

    temperature: float = JUDGE_TEMPERATURE
    max_tokens: int = JUDGE_MAX_TOKENS
    max_input_chars: int = JUDGE_MAX_INPUT_CHARS


DEFAULT_JUDGE = JudgeOptions()


def _unjudged(name: str, reason: str, **details: Any) -> MetricResult:
    """A result that records why no value could be computed."""
    code, params = code_of(reason)
    return MetricResult(name, None, dict(details), f"{CANNOT}: {reason}", code, params)


# ---------------------------------------------------------------- talking to the judge

_SYSTEM = (
    "You evaluate a question-answering system over legal contracts and statutes. Questions, "
    "answers and passages may be in Chinese, English or both; the language does not matter, judge "
    "the meaning only. Reply with one JSON object exactly in the schema asked for, and nothing else."
)


@dataclass
class _Reply:
    """The judge's parsed object, or why there is none (with the raw text for diagnosis)."""

    obj: dict[str, Any] | None
    raw: str = ""
    error: str = ""


def _ask(model: ChatModel, prompt: str, options: JudgeOptions, list_key: str = "") -> _Reply:
    """One judge call in JSON mode; oversize prompts and model failures become reasons, not raises.

    A bare JSON array is accepted as the value of ``list_key`` when the schema's only list is
    that key: small models often drop the wrapping object.
    """
    size = len(_SYSTEM) + len(prompt)
    if size > options.max_input_chars:
        return _Reply(
            None,
            error=coded(
                "metric_prompt_too_long",
                f"prompt of {size} characters exceeds the limit of {options.max_input_chars}",
                size=size,
                limit=options.max_input_chars,
            ),
        )
    chat_options = ChatOptions(temperature=options.temperature, max_tokens=options.max_tokens, json_mode=True)
    try:
        raw = model.chat([Message("system", _SYSTEM), Message("user", prompt)], chat_options).content
    except LLMError as err:
        return _Reply(None, error=coded("metric_judge_failed", f"judge model failed: {err}"))
    array = parse_json_array(raw) if list_key else None
    obj = {list_key: array} if array is not None else parse_json_object(raw)
    if obj is None:
        return _Reply(
            None, raw, coded("metric_unparsable", f"unparsable judge output: {raw[:RAW_EXCERPT_CHARS]!r}")
        )
    return _Reply(obj, raw)


def read_verdict(value: Any) -> bool | None:
    """A yes/no verdict from JSON: booleans, 0/1, or yes/no words in English or Chinese."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        word = value.strip().strip(".").lower()
        if word in _TRUE_WORDS:
            return True
        if word in _FALSE_WORDS:
            return False
    return None


def _read_items(
    obj: Mapping[str, Any], list_key: str, text_key: str, verdict_key: str
) -> list[tuple[str, bool]] | str:
    """``(text, verdict)`` for every item of ``obj[list_key]``, or what is unreadable."""
    items = obj.get(list_key)
    if not isinstance(items, list):
        return coded("metric_no_list", f"no {list_key!r} list in judge output", key=list_key)
    out: list[tuple[str, bool]] = []
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            return coded("metric_item_not_object", f"{list_key}[{i}] is not an object", key=list_key, i=i)
        verdict = read_verdict(item.get(verdict_key))
        if verdict is None:
            return coded(
                "metric_item_no_verdict",
                f"{list_key}[{i}] has no readable {verdict_key!r} verdict",
                key=list_key,
                i=i,
                verdict=verdict_key,
            )
        out.append((str(item.get(text_key, "")), verdict))
    return out


def _numbered(contexts: Sequence[str]) -> str:
    """Context passages numbered [1], [2], … in rank order."""
    if not contexts:
        return "(no context passages)"
    return "\n\n".join(f"[{i}] {text}" for i, text in enumerate(contexts, start=1))


def _items_metric(name: str, reply: _Reply, keys: tuple[str, str, str], empty_reason: str) -> MetricResult:
    """share of true verdicts among the judged items of ``reply`` (faithfulness, context recall)."""
    list_key, text_key, verdict_key = keys
    if reply.obj is None:
        return _unjudged(name, reply.error, raw=reply.raw[:RAW_EXCERPT_CHARS])
    items = _read_items(reply.obj, list_key, text_key, verdict_key)
    if isinstance(items, str):
        return _unjudged(name, items, raw=reply.raw[:RAW_EXCERPT_CHARS])
    if not items:
        return MetricResult(name, None, {"reason": empty_reason}, empty_reason)
    hits = sum(verdict for _, verdict in items)
    details = {
        list_key: [{text_key: text, verdict_key: verdict} for text, verdict in items],
        "true": hits,
        "total": len(items),
    }
    return MetricResult(name, hits / len(items), details)


# ---------------------------------------------------------------- faithfulness

_FAITHFULNESS_PROMPT = """Question:
{question}

Context passages:
{contexts}

Answer:
{answer}

Task:
1. Break the answer into atomic factual claims: one fact each, understandable on its own. Leave
   out greetings, hedges and statements that information is missing. Keep the answer's language.
2. For each claim decide whether the context passages support it: true only if it can be
   directly inferred from them; false otherwise, including facts from general knowledge.

Reply with JSON in this schema:
{{"claims": [{{"claim": "<claim>", "supported": true | false}}]}}
If the answer makes no factual claim (for example it declines to answer), reply {{"claims": []}}."""


def faithfulness(
    question: str,
    answer: str,
    contexts: Sequence[str],
    model: ChatModel,
    options: JudgeOptions = DEFAULT_JUDGE,
) -> MetricResult:
    """Supported claims / claims of the answer; unjudged ("no claims") for a claim-less answer."""
    name = "faithfulness"
    if not answer.strip():
        return MetricResult(name, None, {"reason": NO_CLAIMS}, NO_CLAIMS)
    prompt = _FAITHFULNESS_PROMPT.format(question=question, contexts=_numbered(contexts), answer=answer)
    reply = _ask(model, prompt, options, list_key="claims")
    return _items_metric(name, reply, ("claims", "claim", "supported"), NO_CLAIMS)


# ---------------------------------------------------------------- answer relevancy

_RELEVANCY_QUESTIONS_PROMPT = """Answer:
{answer}

Task:
1. Write {n} different questions that this answer answers, in the language of the answer.
2. Decide whether the answer is noncommittal: evasive, vague, or declining to answer (for example
   "I don't know" or "the knowledge base holds no sufficient evidence").

Reply with JSON in this schema:
{{"questions": ["<question>", ...], "noncommittal": true | false}}"""

_RELEVANCY_SCORE_PROMPT = """Question:
{question}

Answer:
{answer}

Task: rate how directly and completely the answer addresses the question, whether or not it is
correct. 1 means it answers exactly what was asked; 0 means it is unrelated or evasive.

Reply with JSON in this schema:
{{"relevance": <number from 0 to 1>, "reason": "<one sentence>"}}"""


def cosine_similarities(embed: Embed, anchor: str, others: Sequence[str]) -> list[float] | str:
    """Cosine of ``anchor`` with each of ``others``, or why it cannot be computed.

    Rows are re-normalised even though embedders promise unit rows: a wrong promise must not
    turn into a wrong score.
    """
    matrix = np.asarray(embed([anchor, *others]), dtype=np.float64)
    if matrix.ndim != 2 or matrix.shape[0] != len(others) + 1:
        return coded(
            "metric_embed_shape", f"embedder returned shape {matrix.shape} for {len(others) + 1} texts"
        )
    norms = np.linalg.norm(matrix, axis=1)
    if not np.all(norms > 0):
        return coded("metric_embed_zero", "embedder returned a zero vector")
    unit = matrix / norms[:, None]
    return [float(x) for x in unit[1:] @ unit[0]]


def _number_in_unit_range(value: Any) -> float | None:
    """A JSON number within [0, 1] (booleans excluded), else ``None``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if 0.0 <= value <= 1.0 else None


def answer_relevancy(
    question: str,
    answer: str,
    model: ChatModel,
    embed: Embed | None = None,
    n_questions: int = RELEVANCY_QUESTIONS,
    options: JudgeOptions = DEFAULT_JUDGE,
) -> MetricResult:
    """How well the answer addresses the question (RAGAS: reverse-generated questions + cosine)."""
    name = "answer_relevancy"
    if not answer.strip():
        return _unjudged(name, coded("metric_empty_answer", "empty answer"))
    if embed is None:
        return _relevancy_by_score(question, answer, model, options)
    prompt = _RELEVANCY_QUESTIONS_PROMPT.format(answer=answer, n=n_questions)
    reply = _ask(model, prompt, options)
    if reply.obj is None:
        return _unjudged(name, reply.error, raw=reply.raw[:RAW_EXCERPT_CHARS])
    questions = reply.obj.get("questions")
    if not isinstance(questions, list):
        why = coded("metric_no_list", "no 'questions' list in judge output", key="questions")
        return _unjudged(name, why, raw=reply.raw[:RAW_EXCERPT_CHARS])
    generated = [q.strip() for q in questions if isinstance(q, str) and q.strip()]
    noncommittal = read_verdict(reply.obj.get("noncommittal"))
    if not generated or noncommittal is None:
        missing = "questions" if not generated else "a readable 'noncommittal' verdict"
        why = coded("metric_missing", f"judge output has no {missing}", missing=missing)
        return _unjudged(name, why, raw=reply.raw[:RAW_EXCERPT_CHARS])
    sims = cosine_similarities(embed, question, generated)
    if isinstance(sims, str):
        return _unjudged(name, sims)
    mean_sim = sum(sims) / len(sims)
    details = {
        "method": "embedding",
        "generated_questions": generated,
        "similarities": sims,
        "noncommittal": noncommittal,
        "asked": n_questions,
    }
    return MetricResult(name, 0.0 if noncommittal else mean_sim, details)


def _relevancy_by_score(question: str, answer: str, model: ChatModel, options: JudgeOptions) -> MetricResult:
    """Fallback without an embedder: the judge's own 0–1 relevance score, labelled as such."""
    name = "answer_relevancy"
    method = "llm-score (no embedder given)"
    reply = _ask(model, _RELEVANCY_SCORE_PROMPT.format(question=question, answer=answer), options)
    if reply.obj is None:
        return _unjudged(name, reply.error, method=method, raw=reply.raw[:RAW_EXCERPT_CHARS])
    score = _number_in_unit_range(reply.obj.get("relevance"))
    if score is None:
        return _unjudged(
            name,
            coded("metric_no_relevance", "no 'relevance' number in [0, 1] in judge output"),
            method=method,
            raw=reply.raw[:RAW_EXCERPT_CHARS],
        )
    return MetricResult(name, score, {"method": method, "reason": str(reply.obj.get("reason", ""))})


# ---------------------------------------------------------------- context recall

_CONTEXT_RECALL_PROMPT = """Context passages:
{contexts}

Reference answer:
{reference}

Task: break the reference answer into atomic statements (one fact each, in its own language).
For each statement decide whether it can be attributed to the context passages: true if the
passages state it or it follows directly from them, false otherwise.

Reply with JSON in this schema:
{{"statements": [{{"statement": "<statement>", "attributed": true | false}}]}}"""


def context_recall(
    reference_answer: str,
    contexts: Sequence[str],
    model: ChatModel,
    options: JudgeOptions = DEFAULT_JUDGE,
) -> MetricResult:
    """Reference statements found in the contexts / reference statements.

    With no contexts at all the recall is 0 by definition, so the judge is not asked.
    """
    name = "context_recall"
    if not reference_answer.strip():
        return _unjudged(name, coded("metric_no_reference", "no reference answer"))
    if not contexts:
        return MetricResult(name, 0.0, {"reason": "no contexts retrieved"})
    prompt = _CONTEXT_RECALL_PROMPT.format(contexts=_numbered(contexts), reference=reference_answer)
    reply = _ask(model, prompt, options, list_key="statements")
    return _items_metric(name, reply, ("statements", "statement", "attributed"), "no statements")


# ---------------------------------------------------------------- context precision

_CONTEXT_USEFUL_PROMPT = """Question:
{question}

Reference answer:
{reference}

Context passage:
{context}

Task: decide whether this passage was useful in arriving at the reference answer to the question.

Reply with JSON in this schema:
{{"useful": true | false, "reason": "<one sentence>"}}"""


def average_precision(relevant: Sequence[bool]) -> float:
    """RAGAS/IR average precision of a ranking: sum_k (precision@k × v_k) / number relevant.

    A ranking with no relevant item scores 0 (as RAGAS): nothing useful was retrieved.
    """
    hits = 0
    total = 0.0
    for k, is_relevant in enumerate(relevant, start=1):
        if is_relevant:
            hits += 1
            total += hits / k
    return total / hits if hits else 0.0


def context_precision(
    question: str,
    reference_answer: str,
    contexts: Sequence[str],
    model: ChatModel,
    options: JudgeOptions = DEFAULT_JUDGE,
) -> MetricResult:
    """Average precision of the ranked contexts, usefulness judged per context (one call each).

    One call per context, as RAGAS does: a small judge keeps one passage apart from the next,
    and a verdict cannot be attributed to the wrong rank.
    """
    name = "context_precision"
    if not reference_answer.strip():
        return _unjudged(name, coded("metric_no_reference", "no reference answer"))
    if not contexts:
        return _unjudged(name, coded("metric_no_contexts", "no contexts to rank"))
    verdicts: list[bool] = []
    reasons: list[str] = []
    for rank, context in enumerate(contexts, start=1):
        prompt = _CONTEXT_USEFUL_PROMPT.format(question=question, reference=reference_answer, context=context)
        reply = _ask(model, prompt, options)
        verdict = read_verdict(reply.obj.get("useful")) if reply.obj is not None else None
        if verdict is None:
            why = reply.error or coded("metric_no_useful", "no readable 'useful' verdict")
            at = coded("metric_context", f"context {rank}:", rank=rank)
            return _unjudged(
                name, join([at, why], sep=" "), raw=reply.raw[:RAW_EXCERPT_CHARS], judged=verdicts
            )
        verdicts.append(verdict)
        reasons.append(str(reply.obj.get("reason", "")) if reply.obj is not None else "")
    return MetricResult(name, average_precision(verdicts), {"useful": verdicts, "reasons": reasons})


# ---------------------------------------------------------------- answer correctness

_CORRECTNESS_PROMPT = """Question:
{question}

Answer:
{answer}

Reference answer:
{reference}

Task:
1. Break the answer and the reference answer into atomic statements (one fact each).
2. Classify them:
   - "TP": statements of the answer that the reference answer supports;
   - "FP": statements of the answer that the reference answer does not support;
   - "FN": statements of the reference answer that the answer lacks.
   Each statement goes in exactly one list.

Reply with JSON in this schema, always with all three keys (use [] for an empty list):
{{"TP": [{{"statement": "<text>", "reason": "<short reason>"}}], "FP": [...], "FN": [...]}}"""

_CLASSES = ("TP", "FP", "FN")


def factual_f1(tp: int, fp: int, fn: int) -> float | None:
    """TP / (TP + 0.5 (FP + FN)); ``None`` when there is no statement at all."""
    denominator = tp + F1_FALSE_WEIGHT * (fp + fn)
    return tp / denominator if denominator else None


def answer_correctness(
    question: str,
    answer: str,
    reference_answer: str,
    model: ChatModel,
    embed: Embed | None = None,
    options: JudgeOptions = DEFAULT_JUDGE,
) -> MetricResult:
    """Factual F1 against the reference, blended 0.75/0.25 with cosine similarity if ``embed``.

    The similarity is clipped at 0 so the blend stays in [0, 1] for embedders whose cosines can
    be negative.
    """
    name = "answer_correctness"
    if not reference_answer.strip():
        return _unjudged(name, coded("metric_no_reference", "no reference answer"))
    prompt = _CORRECTNESS_PROMPT.format(question=question, answer=answer, reference=reference_answer)
    reply = _ask(model, prompt, options)
    if reply.obj is None:
        return _unjudged(name, reply.error, raw=reply.raw[:RAW_EXCERPT_CHARS])
    lists = {key: reply.obj.get(key) for key in _CLASSES}
    missing = [key for key, value in lists.items() if not isinstance(value, list)]
    if missing:
        why = coded("metric_lacks_lists", f"judge output lacks list(s) {missing}", lists=", ".join(missing))
        return _unjudged(name, why, raw=reply.raw[:RAW_EXCERPT_CHARS])
    counts = {key: len(value) for key, value in lists.items() if isinstance(value, list)}
    f1 = factual_f1(counts["TP"], counts["FP"], counts["FN"])
    if f1 is None:
        return _unjudged(name, coded("metric_no_statements", "judge found no statements"), counts=counts)
    details: dict[str, Any] = {"counts": counts, "factual_f1": f1, "classified": lists}
    if embed is None:
        details["method"] = "factual F1 only (no embedder given)"
        return MetricResult(name, f1, details)
    sims = cosine_similarities(embed, answer, [reference_answer])
    if isinstance(sims, str):
        return _unjudged(name, sims, counts=counts)
    similarity = max(0.0, sims[0])
    details.update(method="factual F1 + semantic similarity", semantic_similarity=similarity)
    return MetricResult(name, FACTUAL_WEIGHT * f1 + SEMANTIC_WEIGHT * similarity, details)


# ---------------------------------------------------------------- span-exact variants (no LLM)


def context_recall_spans(retrieved: Sequence[Span], gold: Sequence[Span]) -> MetricResult:
    """Share of gold evidence characters that were retrieved (LegalBench-RAG character recall)."""
    name = "context_recall_spans"
    if total_chars(gold) == 0:
        return _unjudged(name, coded("metric_no_gold_spans", "no gold spans"))
    precision, recall = char_precision_recall(retrieved, gold)
    return MetricResult(name, recall, {"char_precision": precision})


def context_precision_spans(retrieved_ranked: Sequence[Span], gold: Sequence[Span]) -> MetricResult:
    """Average precision of the ranking, a context being relevant when it overlaps a gold span."""
    name = "context_precision_spans"
    if total_chars(gold) == 0:
        return _unjudged(name, coded("metric_no_gold_spans", "no gold spans"))
    if not retrieved_ranked:
        return _unjudged(name, coded("metric_no_contexts", "no contexts to rank"))
    relevant = [any(span.overlaps(g) for g in gold) for span in retrieved_ranked]
    return MetricResult(name, average_precision(relevant), {"relevant": relevant})


# ---------------------------------------------------------------- one case, many cases


def evaluate_case(
    case: EvalCase,
    answer: str,
    contexts: Sequence[str],
    judge_model: ChatModel,
    embed: Embed | None = None,
    retrieved_spans: Sequence[Span] | None = None,
    options: JudgeOptions = DEFAULT_JUDGE,
) -> dict[str, MetricResult]:
    """Every metric that applies to the case, by name.

    Reference-based metrics are left out (not counted as unjudged) when the case has no
    reference answer; span metrics are added when the case has gold spans and the caller passes
    the retrieved spans, ranked like ``contexts``.
    """
    results = [
        faithfulness(case.question, answer, contexts, judge_model, options),
        answer_relevancy(case.question, answer, judge_model, embed, options=options),
    ]
    if case.reference_answer.strip():
        results += [
            context_recall(case.reference_answer, contexts, judge_model, options),
            context_precision(case.question, case.reference_answer, contexts, judge_model, options),
            answer_correctness(case.question, answer, case.reference_answer, judge_model, embed, options),
        ]
    if case.gold_spans and retrieved_spans is not None:
        results += [
            context_recall_spans(retrieved_spans, case.gold_spans),
            context_precision_spans(retrieved_spans, case.gold_spans),
        ]
    return {r.name: r for r in results}


def aggregate(results: Iterable[Mapping[str, MetricResult]]) -> dict[str, dict[str, Any]]:
    """Per metric: mean over judged values, ``n`` judged, and ``could_not_judge`` (value None).

    ``mean`` is ``None`` when no case could be judged; unjudged cases are never scored.
    """
    judged: dict[str, list[float]] = {}
    unjudged: dict[str, int] = {}
    for case_results in results:
        for name, result in case_results.items():
            judged.setdefault(name, [])
            unjudged.setdefault(name, 0)
            if result.value is None:
                unjudged[name] += 1
            else:
                judged[name].append(result.value)
    return {
        name: {
            "mean": sum(values) / len(values) if values else None,
            "n": len(values),
            "could_not_judge": unjudged[name],
        }
        for name, values in judged.items()
    }
