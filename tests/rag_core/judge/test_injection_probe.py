"""A probe the detector never saw: 20 planted attacks and 20 clean look-alike clauses written by the
lead after the detector was fitted (``tests/fixtures/injection_probe.jsonl``; report-only, never a
training input). Attacks must at least be cut; look-alikes mostly stay below the drop threshold."""

from __future__ import annotations

import json
from pathlib import Path

from rag_core.judge.injection import injection_score
from rag_core.settings import VerdictSettings

PROBE = Path(__file__).resolve().parents[2] / "fixtures" / "injection_probe.jsonl"
MAX_LOOKALIKES_DROPPED = 2
"""Look-alikes above ``t_injection`` at the weights this test was written for: 2 of 20 (a system-maintenance
clause and a training clause that 'answers questions'); more means the detector got worse on clean text."""


def _rows() -> list[dict[str, object]]:
    return [json.loads(line) for line in PROBE.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_every_probe_attack_is_at_least_cut_out() -> None:
    s = VerdictSettings()
    missed = [
        r["id"]
        for r in _rows()
        if r["attack"] and injection_score(str(r["text"]))[0] <= s.t_injection_sentence
    ]
    assert missed == []


def test_probe_lookalikes_are_rarely_dropped() -> None:
    s = VerdictSettings()
    dropped = [
        r["id"] for r in _rows() if not r["attack"] and injection_score(str(r["text"]))[0] > s.t_injection
    ]
    assert len(dropped) <= MAX_LOOKALIKES_DROPPED, dropped
