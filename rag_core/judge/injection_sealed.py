"""The sealed held-out measure of the injection detector: families of ``injection_synth_sealed``
planted into held-out contracts and scored by the committed detector, as at judge time.

Why a separate measure beside leave-one-family-out: a left-out training family was still read
while the cues were written, so its fold is optimistic. The sealed families were written before
any detector was scored on them, are never in the training file, and take their slot values and
Chinese hosts from their own tables and their English hosts from contracts no fit has seen
(``injection_synth.heldout_contracts``). No refit is needed: the committed detector never saw them.
The planted sentences are not wrapped in the shared addressee frame of the training set.

Two sealed sets: ``injection_synth_sealed`` (session 14, seven families of each kind) and
``injection_synth_sealed_s28`` (session 28, twelve of each; written as training families, scored
before any fit, kept out of training when a fit with them did worse on the first set). Each is
planted by its own seeded generator, so adding the second left the first's rows unchanged.
"""

from __future__ import annotations

import random
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from rag_core.judge import injection_synth_sealed as S
from rag_core.judge import injection_synth_sealed_s28 as S28
from rag_core.judge.injection import score_sentences
from rag_core.judge.injection_synth import contract_windows, heldout_contracts, is_chinese_template, plant

if TYPE_CHECKING:
    from rag_core.judge.injection_model import Detector

SEALED_SEED: int = 1311
"""Seed of the sealed set's generator (its rows are a pure function of it and the contracts)."""

SEALED_S28_SEED: int = 2811
"""Seed of the second sealed set's generator (``injection_synth_sealed_s28``)."""

FIRST, SECOND = "injection_sealed", "injection_sealed_s28"
"""The keys ``bench verdicts`` reports the first and the second sealed set under."""

SEALED_SETS: dict[str, tuple[ModuleType, int, str]] = {
    FIRST: (S, SEALED_SEED, "sealed"),
    SECOND: (S28, SEALED_S28_SEED, "second sealed set (session 28)"),
}
"""Each sealed set's families, its generator's seed and its name in the table, by report key."""

SEALED_PER_FAMILY: int = 64
"""Planted passages per sealed family."""

ZH_HOST_SENTENCES: tuple[int, int] = (2, 5)
"""Sealed Chinese clauses joined into one host passage (inclusive range)."""


def fill_sealed(template: str, rng: random.Random, lookalike: bool) -> str:
    """A sealed template with its slots filled from the sealed set's own values (both sets).

    ``{num2}`` (the second set's two-digit number) draws only when the template has it, so the first
    set's rows, which never use it, come out as before."""
    goal, goal_zh = rng.choice(S.GOALS)
    claim, claim_zh = rng.choice(S.CLAIMS)
    return template.format(
        goal=goal,
        goal_zh=goal_zh,
        claim=claim,
        claim_zh=claim_zh,
        url=rng.choice(S.LOOKALIKE_URLS if lookalike else S.URLS),
        email=rng.choice(S.LOOKALIKE_EMAILS if lookalike else S.EMAILS),
        num=str(rng.randrange(10, 9999)),
        num2=f"{rng.randrange(100):02d}" if "{num2}" in template else "",
    )


def sealed_rows(cuad_dir: Path, seed: int = SEALED_SEED, families: ModuleType = S) -> list[dict[str, Any]]:
    """Every family of the sealed set ``families`` planted ``SEALED_PER_FAMILY`` times, attacks then
    look-alikes (Chinese hosts from the first set's clauses, English ones from held-out contracts)."""
    rng = random.Random(seed)
    tables = [("attack", families.ATTACKS), ("lookalike", families.LOOKALIKES)]
    total = SEALED_PER_FAMILY * sum(len(t) for _, t in tables)
    hosts = contract_windows(heldout_contracts(cuad_dir), rng, total)
    lo, hi = ZH_HOST_SENTENCES
    rows: list[dict[str, Any]] = []
    for kind, table in tables:
        for family, templates in table.items():
            for k in range(SEALED_PER_FAMILY):
                template = templates[k % len(templates)]
                chinese = is_chinese_template(template)
                sentence = fill_sealed(template, rng, lookalike=kind == "lookalike")
                host = "".join(rng.sample(S.ZH_CLAUSES, rng.randint(lo, hi))) if chinese else hosts.pop()
                text, start, end = plant(host, sentence, rng, chinese)
                rows.append(
                    {"text": text, "kind": kind, "family": family, "lang": "zh" if chinese else "en"}
                    | {"start": start, "end": end, "phrasing": k % len(templates)}
                )
    return rows


def _planted_score(row: dict[str, Any], detector: Detector | None) -> tuple[float, float]:
    """The passage's worst sentence score, and the worst score among the planted sentence's own."""
    scores = score_sentences(str(row["text"]), detector=detector)
    worst = max((s.score for s in scores), default=0.0)
    a, b = int(row["start"]), int(row["end"])
    own = max((s.score for s in scores if s.start < b and s.end > a), default=0.0)
    return worst, own


def sealed_validation(
    cuad_dir: Path,
    t_injection: float,
    t_sentence: float,
    detector: Detector | None = None,
    which: str = FIRST,
) -> dict[str, Any]:
    """Per sealed family: share of planted passages flagged above ``t_injection`` (recall for attacks,
    false-positive rate for look-alikes), and for attacks the share whose planted sentence is cut
    (above ``t_sentence``). ``detector`` defaults to the committed one; ``which``: the set's key
    in ``SEALED_SETS``."""
    flagged: dict[tuple[str, str], list[bool]] = {}
    cut: dict[str, list[bool]] = {}
    families, seed, _ = SEALED_SETS[which]
    for row in sealed_rows(cuad_dir, seed, families):
        worst, own = _planted_score(row, detector)
        key = (str(row["kind"]), str(row["family"]))
        flagged.setdefault(key, []).append(worst > t_injection)
        if row["kind"] == "attack":
            cut.setdefault(key[1], []).append(own > t_sentence)
    recall = {f: sum(v) / len(v) for (k, f), v in flagged.items() if k == "attack"}
    fpr = {f: sum(v) / len(v) for (k, f), v in flagged.items() if k == "lookalike"}
    looks = [x for (k, _), v in flagged.items() if k == "lookalike" for x in v]
    return {
        "t_injection": t_injection,
        "set": which,
        "per_family": SEALED_PER_FAMILY,
        "attack_recall": recall,
        "attack_sentence_cut": {f: sum(v) / len(v) for f, v in cut.items()},
        "min_attack_recall": min(recall.values(), default=0.0),
        "mean_attack_recall": sum(recall.values()) / max(1, len(recall)),
        "lookalike_fpr": fpr,
        "lookalike_fpr_all": sum(looks) / max(1, len(looks)),
    }


def format_sealed(v: dict[str, Any]) -> list[str]:
    """The sealed figures as table lines for ``bench verdicts``."""
    which = SEALED_SETS[v.get("set", FIRST)][2]
    w = max(26, *(len(f) for f in [*v["attack_recall"], *v["lookalike_fpr"]]))
    lines = [
        "",
        f"injection {which} held-out families (never trained on; passage flagged > t_injection {v['t_injection']:.2f})",
        f"  {'family':{w}s} {'recall':>7s} {'sentence cut':>12s}",
    ]
    for fam, r in v["attack_recall"].items():
        lines.append(f"  {fam:{w}s} {r:7.3f} {v['attack_sentence_cut'][fam]:12.3f}")
    lines.append(f"  {'minimum / mean':{w}s} {v['min_attack_recall']:7.3f} {v['mean_attack_recall']:7.3f}")
    lines.append("  sealed look-alike family: false-positive rate")
    for fam, r in v["lookalike_fpr"].items():
        lines.append(f"  {fam:{w}s} {r:7.3f}")
    lines.append(f"  {'all sealed look-alikes':{w}s} {v['lookalike_fpr_all']:7.3f}")
    return lines


def sealed_sets(cuad_dir: Path, t_injection: float, t_sentence: float) -> dict[str, dict[str, Any]]:
    """Every sealed set's figures (committed detector), by its key in ``SEALED_SETS``."""
    return {key: sealed_validation(cuad_dir, t_injection, t_sentence, which=key) for key in SEALED_SETS}


def format_sealed_sets(result: dict[str, Any]) -> list[str]:
    """The table lines of whichever sealed sets ``result`` holds."""
    return [line for key in SEALED_SETS if key in result for line in format_sealed(result[key])]
