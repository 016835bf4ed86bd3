"""The premise notice says the documents differ when one states what another contradicts."""

from __future__ import annotations

from ui.components import premise_notice
from ui.i18n import t


def test_the_notice_says_the_documents_differ_only_when_a_passage_states_the_premise() -> None:
    """Session 37 browser: "The probation period is 90 days, right?" answered "The documents differ:" under a
    notice saying the documents contradict the premise."""
    conflicting = {"label": "CONFLICTING", "explanation_code": "con_value"}
    stating = {"label": "EVIDENCE", "explanation_code": "premise_stated+fit_scores+rel_terms"}
    assert premise_notice([conflicting]) == "conflict_warning"
    assert premise_notice([conflicting, stating]) == "differ_warning"
    assert premise_notice([{"label": "EVIDENCE"}]) == "conflict_warning"
    assert "differ" in t("differ_warning") or "不一致" in t("differ_warning")
