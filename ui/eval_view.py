"""What the Evaluation page's sections share: the page's context, labels and formats, one-shot
messages, remembered selections and the background job in the session.

Why a context object: the sections live in their own modules (test sets, runs, comparison), and
the store, the settings in force and the knowledge bases are read once per page run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import streamlit as st

from rag_core.evaluation.comparison import METRICS
from rag_core.evaluation.jobs import Job
from rag_core.llm.factory import unavailable_error
from rag_core.models import KnowledgeBase
from rag_core.settings import Settings
from storage.rows import StoredRun, TestSet
from storage.store import Store
from ui import state
from ui.components import when
from ui.errors import error_text
from ui.i18n import t

ss = st.session_state


@dataclass(frozen=True)
class EvalPage:
    """One run of the page: the store, the settings in force, the knowledge bases, and why the
    answer (generation) or judge model is unavailable ("" when it is available)."""

    store: Store
    settings: Settings
    kbs: list[KnowledgeBase]
    kb_by_id: dict[str, KnowledgeBase]
    gen_why: str
    judge_why: str


def page_context() -> EvalPage:
    store, settings = state.store(), state.settings()
    kbs = store.kbs.all()
    gen_missing = unavailable_error(settings, "answer")
    judge_missing = unavailable_error(settings, "judge")
    return EvalPage(
        store=store,
        settings=settings,
        kbs=kbs,
        kb_by_id={kb.id: kb for kb in kbs},
        gen_why=error_text(gen_missing) if gen_missing else "",  # escaped, in the interface language
        judge_why=error_text(judge_missing) if judge_missing else "",
    )


def metric_label(name: str) -> str:
    """The metric's name in the interface language (its key is ``ev_m_<metric>``)."""
    return t("ev_m_" + name) if name in METRICS else name


def metric_help(name: str) -> str:
    """What the metric measures (its key is ``ev_h_<metric>``)."""
    return t("ev_h_" + name) if name in METRICS else name


def difficulty_label(value: Any) -> str:
    """A difficulty in the interface language; none set is "—" (never the word None)."""
    return {"easy": t("ev_diff_easy"), "medium": t("ev_diff_medium"), "hard": t("ev_diff_hard")}.get(
        str(value or ""), "—"
    )


def fmt(value: Any, digits: int = 3) -> str:
    return "—" if not isinstance(value, int | float) else f"{value:.{digits}f}"


def fmt_delta(value: Any) -> str | None:
    return None if not isinstance(value, int | float) else f"{value:+.3f}"


def flash(kind: str, message: str) -> None:
    """A message shown once, at the top of the next run (after ``st.rerun``)."""
    ss.setdefault("ev_flash", []).append((kind, message))


def remember(key: str, options: list[Any], default: Any) -> None:
    """Seed a selection widget: its value, else the one kept from its last run, else ``default``.

    Streamlit drops a widget's value on a run that does not draw it (another section shown).
    """
    if ss.get(key) in options:
        return
    kept = ss.get(f"{key}_keep")
    ss[key] = kept if kept in options else default


def job() -> Job | None:
    j = ss.get("ev_job")
    return j if isinstance(j, Job) else None


def busy() -> bool:
    j = job()
    return j is not None and not j.finished


def testset_label(page: EvalPage, ts: TestSet) -> str:
    kb = page.kb_by_id.get(ts.kb_id)
    return f"{ts.name} · {kb.name if kb else t('ev_no_kb')}"


def run_label(r: StoredRun) -> str:
    status = "" if r.status == "done" else f" · {t('ev_status_cancelled')}"
    return f"{r.name or '—'} · {when(r.created_at)}{status}"
