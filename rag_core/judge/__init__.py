"""Per-passage verdicts: four yes/no scores, seed 000's classify order, offline and LLM judges."""

from rag_core.judge.base import Judge, PassageInput, check_limits
from rag_core.judge.classify import classify, reclassify, select_kept
from rag_core.judge.llm_judge import LLMJudge
from rag_core.judge.local_judge import LocalJudge

__all__ = [
    "Judge",
    "LLMJudge",
    "LocalJudge",
    "PassageInput",
    "check_limits",
    "classify",
    "reclassify",
    "select_kept",
]
