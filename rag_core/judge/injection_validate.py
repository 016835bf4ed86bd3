"""Validation that predicts unseen attacks: leave-one-family-out on the synthetic set, and the
false-positive rate on sentences of contracts no fit has seen.

Why leave-one-family-out: a detector that only knows the written-down wording scores well on
held-out lines of the same families and fails on a new *way* of attacking. So for every attack
family the detector is refitted without that family's sentences, and recall is measured on the
family's planted passages (a passage counts as caught when its worst sentence scores above
``t_injection``). Look-alike families are left out the same way, to measure false positives on
honest wording the fit has not seen. The rules are fixed in every fold (they were written from
the issue's families, so the "model alone" column shows what the learning adds on its own).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy import sparse

from rag_core.judge.injection import normalize, score_sentences
from rag_core.judge.injection_model import Detector
from rag_core.judge.injection_synth import PER_FAMILY, SYNTH_PATH, heldout_contracts, read_jsonl
from rag_core.judge.injection_synth_fresh import FRESH_FAMILIES
from rag_core.judge.injection_synth_probe import PROBE_ATTACKS
from rag_core.judge.injection_synth_s26 import ATTACKS as S26_ATTACKS
from rag_core.judge.injection_synth_s26 import LOOKALIKES as S26_LOOKALIKES
from rag_core.judge.injection_synth_s27 import ATTACKS as S27_ATTACKS
from rag_core.judge.injection_synth_s27 import LOOKALIKES as S27_LOOKALIKES
from rag_core.judge.injection_synth_s35 import ATTACKS as S35_ATTACKS
from rag_core.judge.injection_synth_s35 import LOOKALIKES as S35_LOOKALIKES
from rag_core.judge.injection_synth_s36 import ATTACKS as S36_ATTACKS
from rag_core.judge.injection_synth_s36 import LOOKALIKES as S36_LOOKALIKES
from rag_core.judge.injection_train import Sample, design, fit, train_samples
from rag_core.judge.sentences import sentence_spans

UNCUED_FAMILIES: tuple[str, ...] = (
    *FRESH_FAMILIES,
    *S26_ATTACKS,
    *S26_LOOKALIKES,
    *S27_ATTACKS,
    *S27_LOOKALIKES,
    *S35_ATTACKS,
    *S35_LOOKALIKES,
    *S36_ATTACKS,
    *S36_LOOKALIKES,
)
"""Families written after the who-cues were frozen (``injection_synth_fresh``, and sessions 26 and 27's
``injection_synth_s26`` / ``_s27``, session 35's ``_s35`` and 36's ``_s36``): no cue was written from them, so their folds are the honest part of the table."""

HELDOUT_CONTRACTS: int = 50
"""Held-out training-folder contracts whose every sentence enters the clean false-positive rate."""


@dataclass(frozen=True)
class Fold:
    """One left-out family: how many planted passages, and the share flagged (combined / model alone)."""

    family: str
    kind: str
    passages: int
    flagged: float
    flagged_model_only: float
    flagged_unframed: float  # attacks: the passages whose sentence no shared addressee/manner frame wraps


def _flagged(rows: Sequence[dict[str, Any]], detector: Detector, threshold: float) -> tuple[float, float]:
    """Share of ``rows`` (planted passages) whose worst sentence scores above ``threshold``, scored
    exactly as at judge time with ``detector``; and the same by the model's probability alone."""
    both = alone = 0
    for row in rows:
        scores = score_sentences(str(row["text"]), detector=detector)
        both += max((s.score for s in scores), default=0.0) > threshold
        alone += max((s.model for s in scores), default=0.0) > threshold
    return both / len(rows), alone / len(rows)


def fold_detector(
    x: sparse.csr_matrix, y: npt.NDArray[np.int64], samples: Sequence[Sample], kind: str, family: str
) -> Detector:
    """The detector fitted, from scratch, on every sample but the planted sentences of one family.

    Why from scratch: starting the solver from the full fit leaks the left-out family, since the
    hash buckets only its sentences hold get no gradient from the fold's data, only the weak L2
    pull, and the solver stops with them near what the full fit learned from that very family.
    """
    keep = np.array(
        [i for i, s in enumerate(samples) if not (s.kind == kind and s.family == family)], dtype=np.int64
    )
    return fit(x[keep], y[keep], {})


def selected_families(rows: Sequence[dict[str, Any]], wanted: Sequence[str] | None) -> list[tuple[str, str]]:
    """The (kind, family) pairs of ``rows`` named in ``wanted`` (a family, or a kind: ``attack``,
    ``lookalike``); all of them when ``wanted`` is empty. An unknown name is an error, not an
    empty table, so a typo cannot pass for a family that scored nothing."""
    every = sorted({(str(r["kind"]), str(r["family"])) for r in rows})
    if not wanted:
        return every
    known = {k for k, _ in every} | {f for _, f in every}
    unknown = sorted(set(wanted) - known)
    if unknown:
        raise ValueError(f"unknown injection families: {', '.join(unknown)}")
    return [(k, f) for k, f in every if k in wanted or f in wanted]


def leave_one_family_out(
    data_dir: Path,
    threshold: float,
    log: Callable[[str], None] = lambda _: None,
    families: Sequence[str] | None = None,
) -> list[Fold]:
    """Refit once per synthetic family (attack or look-alike) without it; score its passages.

    ``families`` limits the folds to those named (the per-family path: one fold takes ~10 s, all 131
    about 22 minutes on this machine); the features are computed once for all folds either way.
    """
    rows = read_jsonl(SYNTH_PATH)
    chosen = selected_families(rows, families)
    samples = train_samples(data_dir, rows)
    x = design([s.text for s in samples])
    y = np.array([s.label for s in samples], dtype=np.int64)
    folds: list[Fold] = []
    for kind, family in chosen:
        detector = fold_detector(x, y, samples, kind, family)
        held = [r for r in rows if r["kind"] == kind and r["family"] == family]
        flagged, alone = _flagged(held, detector, threshold)
        bare = [r for r in held if not r.get("framed")]
        unframed = _flagged(bare, detector, threshold)[0] if bare and len(bare) < len(held) else flagged
        log(
            f"left out {kind} {family}: {flagged:.3f} flagged ({alone:.3f} by the model alone, {unframed:.3f} unframed)"
        )
        folds.append(Fold(family, kind, len(held), flagged, alone, unframed))
    return folds


def heldout_sentence_fpr(data_dir: Path, thresholds: dict[str, float]) -> dict[str, Any]:
    """Share of all sentences of the held-out contracts scoring above each threshold (committed model)."""
    paths = heldout_contracts(data_dir / "train" / "cuad" / "contracts")[:HELDOUT_CONTRACTS]
    scores: list[float] = []
    worst: list[tuple[float, str]] = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        for s in score_sentences(text):
            scores.append(s.score)
            worst.append((s.score, " ".join(s.text.split())[:160]))
    worst.sort(reverse=True)
    out: dict[str, Any] = {"contracts": len(paths), "sentences": len(scores)}
    for name, t in thresholds.items():
        out[f"fpr_{name}"] = sum(v > t for v in scores) / len(scores) if scores else 0.0
    out["top"] = [{"score": round(s, 3), "sentence": t} for s, t in worst[:5]]
    return out


def synthetic_passages_flagged(threshold: float) -> dict[str, float]:
    """Committed model on the committed set (seen in training: a sanity check, not validation)."""
    rows = read_jsonl(SYNTH_PATH)
    by_kind: dict[str, list[bool]] = {}
    for r in rows:
        worst = max((s.score for s in score_sentences(str(r["text"]))), default=0.0)
        by_kind.setdefault(str(r["kind"]), []).append(worst > threshold)
    return {k: sum(v) / len(v) for k, v in by_kind.items()}


def sentence_count(text: str) -> int:
    """Sentences the judge scores in ``text`` (for reporting work per passage)."""
    return len(sentence_spans(normalize(text)))


def _cache_path(key: str) -> Path:
    """Where a validation result is kept (``~/.cache/lexgate``; never committed)."""
    base = Path(os.environ.get("LEXGATE_MODEL_CACHE") or Path.home() / ".cache" / "lexgate")
    return base / f"injection_validation_{key}.json"


def injection_validation(
    data_dir: Path,
    t_injection: float,
    t_sentence: float,
    log: Callable[[str], None] = lambda _: None,
    families: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Leave-one-family-out recall/false positives and the held-out contracts' sentence FPR.

    Cached on disk under the committed weights' fingerprint and the thresholds: a refit takes
    minutes per family on this machine, and the figures change only when the data, the features
    or the thresholds do.
    """
    from rag_core.judge.injection_model import default_detector

    detector = default_detector()
    fp = str(detector.meta.get("fingerprint", "none"))[:16] if detector else "none"
    subset = "_" + hashlib.sha256(",".join(sorted(families)).encode()).hexdigest()[:12] if families else ""
    path = _cache_path(f"{fp}_{t_injection:.3f}_{t_sentence:.3f}{subset}")
    if path.exists():
        cached: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return cached
    folds = leave_one_family_out(data_dir, t_injection, log, families)
    attacks = [f for f in folds if f.kind == "attack"]
    looks = [f for f in folds if f.kind == "lookalike"]
    result: dict[str, Any] = {
        "t_injection": t_injection,
        "fingerprint": fp,
        "families": sorted(families) if families else "all",
        "attack_recall": {f.family: f.flagged for f in attacks},
        "attack_recall_model_only": {f.family: f.flagged_model_only for f in attacks},
        "attack_recall_unframed": {f.family: f.flagged_unframed for f in attacks},
        "min_attack_recall_unframed": min((f.flagged_unframed for f in attacks), default=0.0),
        "probe_families": [f for f in PROBE_ATTACKS if any(a.family == f for a in attacks)],
        "fresh_families": [f for f in UNCUED_FAMILIES if any(x.family == f for x in folds)],
        "lookalike_fpr": {f.family: f.flagged for f in looks},
        "min_attack_recall": min((f.flagged for f in attacks), default=0.0),
        "lookalike_fpr_all": sum(f.flagged * f.passages for f in looks)
        / max(1, sum(f.passages for f in looks)),
        "heldout_contracts": heldout_sentence_fpr(
            data_dir, {"t_injection": t_injection, "t_injection_sentence": t_sentence}
        ),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
    return result


def _mark(family: str, probes: set[str], fresh: set[str]) -> str:
    """Which families no cue was written from: the honest part of the table."""
    if family in fresh:
        return "  (written after the who-cues were frozen)"
    return "  (written after the cues)" if family in probes else ""


def _fresh_summary(v: dict[str, Any], fresh: set[str]) -> list[str]:
    """One line on the families written after the latest cues were frozen (the honest measure)."""
    att = [r for f, r in v["attack_recall"].items() if f in fresh]
    looks = [r for f, r in v["lookalike_fpr"].items() if f in fresh]
    if not att and not looks:
        return []
    low = f"lowest attack recall {min(att):.3f}" if att else "no attack family"
    fpr = f"look-alike false positives {sum(looks) / len(looks):.3f}" if looks else "no look-alike family"
    return [f"  written after the who-cues were frozen: {low}, {fpr}"]


def pooled_clean_fpr(v: dict[str, Any]) -> tuple[int, int]:
    """Clean texts flagged above ``t_injection`` and clean texts in all: the left-out look-alike
    passages (``PER_FAMILY`` per family) and the held-out contracts' sentences taken together.

    Why: the issue's false-positive target counts "clean clauses including the look-alikes and all
    sentences of 50 contracts" as one rate; the table shows each part apart as well, since the
    sentences outnumber the look-alikes and would hide them."""
    h = v["heldout_contracts"]
    looks = PER_FAMILY * len(v["lookalike_fpr"])
    flagged = sum(round(r * PER_FAMILY) for r in v["lookalike_fpr"].values())
    flagged += round(h["fpr_t_injection"] * h["sentences"])
    return flagged, looks + int(h["sentences"])


def format_validation(v: dict[str, Any]) -> list[str]:
    """The validation as table lines for ``bench verdicts``."""
    lines = [
        "",
        f"injection leave-one-family-out (passage flagged > t_injection {v['t_injection']:.2f}; refit without the family)",
    ]
    lines.append(f"  {'family':26s} {'recall':>7s} {'model alone':>11s} {'unframed':>9s}")
    unframed = v.get("attack_recall_unframed", {})
    probes = set(v.get("probe_families", []))
    fresh = set(v.get("fresh_families", []))
    for fam, r in v["attack_recall"].items():
        mark = _mark(fam, probes, fresh)
        lines.append(
            f"  {fam:26s} {r:7.3f} {v['attack_recall_model_only'][fam]:11.3f} {unframed.get(fam, r):9.3f}{mark}"
        )
    if v["attack_recall"]:
        low = v.get("min_attack_recall_unframed", v["min_attack_recall"])
        lines.append(f"  {'minimum':26s} {v['min_attack_recall']:7.3f} {'':11s} {low:9.3f}")
    lines.append("  look-alike family left out: false-positive rate")
    for fam, r in v["lookalike_fpr"].items():
        lines.append(f"  {fam:26s} {r:7.3f}{_mark(fam, probes, fresh)}")
    if v["lookalike_fpr"]:
        lines.append(f"  {'all look-alikes':26s} {v['lookalike_fpr_all']:7.3f}")
    lines += _fresh_summary(v, fresh)
    h = v["heldout_contracts"]
    lines.append(
        f"  held-out contracts: {h['contracts']} contracts, {h['sentences']} sentences, "
        f"FPR > t_injection {h['fpr_t_injection']:.4f}, > t_injection_sentence {h['fpr_t_injection_sentence']:.4f}"
    )
    flagged, clean = pooled_clean_fpr(v)
    lines.append(
        f"  clean text pooled (left-out look-alikes and held-out sentences): {flagged} of {clean} "
        f"> t_injection, {flagged / max(1, clean):.4f}"
    )
    return lines
