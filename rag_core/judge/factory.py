"""Which judge the settings ask for: the offline local judge, or an LLM judge with local fallback.

Why a factory: the pipeline, the CLI, the admin threshold lab and the benchmark must build the
same judge from the same settings; the local judge is always there to back the LLM judge up.
"""

from __future__ import annotations

from collections.abc import Callable

from rag_core.errors import LexgateError
from rag_core.judge.base import Judge
from rag_core.judge.llm_judge import LLMJudge
from rag_core.judge.local_judge import LocalJudge
from rag_core.llm.base import ChatModel, Message
from rag_core.settings import Settings


def make_judge(settings: Settings, model: ChatModel | None) -> Judge:
    """The judge of ``settings.verdict.backend``; the LLM judge needs ``model``."""
    vs = settings.verdict
    yes_no: Callable[[list[Message]], float] | None = getattr(model, "yes_no_logit", None)
    local = LocalJudge(vs, yes_no if vs.logit_confirm_top > 0 else None)
    if vs.backend == "local":
        return local
    if model is None:
        raise LexgateError(
            "the LLM judge is selected but no model is available",
            "configure an endpoint or the local model in Admin, or switch the judge backend to 'local'",
        )
    return LLMJudge(model, vs, local)
