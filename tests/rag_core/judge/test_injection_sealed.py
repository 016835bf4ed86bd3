"""The sealed held-out injection families stay out of training, are planted into held-out contracts,
and are reported per family (``injection_sealed``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rag_core.judge import injection_synth_sealed as S
from rag_core.judge import injection_synth_sealed_s28 as S28
from rag_core.judge.injection_sealed import (
    FIRST,
    SEALED_PER_FAMILY,
    SEALED_S28_SEED,
    SECOND,
    format_sealed,
    format_sealed_sets,
    sealed_rows,
    sealed_validation,
)
from rag_core.judge.injection_synth import SYNTH_PATH, heldout_contracts, read_jsonl
from rag_core.judge.injection_synth_data import GOALS

DATA = Path(
    os.environ.get("LEXGATE_SHARED_DATA") or Path(__file__).resolve().parents[3].parent / "shared" / "data"
)
CUAD = DATA / "train" / "cuad" / "contracts"
needs_data = pytest.mark.skipif(not CUAD.is_dir(), reason="training data not present")


def test_no_sealed_family_or_goal_is_in_the_training_set() -> None:
    trained = {str(r["family"]) for r in read_jsonl(SYNTH_PATH)}
    assert trained and not trained & set(S.SEALED_FAMILIES)
    assert not trained & set(S28.SEALED_FAMILIES)
    assert not set(S.SEALED_FAMILIES) & set(S28.SEALED_FAMILIES)
    assert not {g for g, _ in S.GOALS} & {g for g, _ in GOALS}


@needs_data
def test_sealed_rows_are_planted_into_held_out_contracts() -> None:
    rows = sealed_rows(CUAD)
    assert rows == sealed_rows(CUAD)
    assert len(rows) == SEALED_PER_FAMILY * len(S.SEALED_FAMILIES)
    held = " ".join(" ".join(p.read_text(encoding="utf-8").split()) for p in heldout_contracts(CUAD))
    english = [r for r in rows if r["lang"] == "en"][:20]
    for r in english:
        text, a, b = str(r["text"]), int(r["start"]), int(r["end"])
        before, after = text[:a].strip(), text[b:].strip()
        assert (before or after) and all(part in held for part in (before, after) if part)
    trained = {str(r["text"]) for r in read_jsonl(SYNTH_PATH)}
    assert not trained & {str(r["text"]) for r in rows}


@needs_data
def test_sealed_figures_cover_every_family() -> None:
    v = sealed_validation(CUAD, 0.5, 0.35)
    assert set(v["attack_recall"]) == set(S.ATTACKS) and set(v["lookalike_fpr"]) == set(S.LOOKALIKES)
    assert all(0.0 <= x <= 1.0 for x in [*v["attack_recall"].values(), *v["lookalike_fpr"].values()])
    assert v["min_attack_recall"] == min(v["attack_recall"].values())
    lines = "\n".join(format_sealed(v))
    assert all(name in lines for name in S.SEALED_FAMILIES)


@needs_data
def test_the_second_sealed_set_is_planted_apart_and_reported_beside_the_first() -> None:
    first, second = sealed_rows(CUAD), sealed_rows(CUAD, SEALED_S28_SEED, S28)
    assert len(second) == SEALED_PER_FAMILY * len(S28.SEALED_FAMILIES)
    assert {r["family"] for r in second} == set(S28.SEALED_FAMILIES)
    assert not {r["text"] for r in first} & {r["text"] for r in second}
    assert all(
        "{" not in str(r["text"])[r["start"] : r["end"]] for r in second
    )  # every slot filled, {num2} too
    trained = {str(r["text"]) for r in read_jsonl(SYNTH_PATH)}
    assert not trained & {str(r["text"]) for r in second}
    v = sealed_validation(CUAD, 0.5, 0.35, which=SECOND)
    assert v["set"] == SECOND and set(v["attack_recall"]) == set(S28.ATTACKS)
    lines = "\n".join(format_sealed_sets({FIRST: sealed_validation(CUAD, 0.5, 0.35), SECOND: v}))
    assert "second sealed set" in lines and all(name in lines for name in S28.SEALED_FAMILIES)
