"""Score a new table of synthetic injection families with the committed detector, before any refit:
``python scripts/score_new_families.py rag_core.judge.injection_synth_s28``.

Why: leave-one-family-out folds estimate how the detector meets attacks nobody wrote; a table
written after the last fit is the same test without the estimate (the detector never saw a row of
it). Run it after ``scripts/gen_injection_set.py`` has added the table's rows and before ``python -m
rag_core train injection``; afterwards the table is training data and only its folds say anything.
Prints each family's share of planted passages above ``t_injection`` and ``t_injection_sentence``.
"""

from __future__ import annotations

import importlib
import sys
from collections import defaultdict

from rag_core.judge.injection import score_sentences
from rag_core.judge.injection_synth import SYNTH_PATH, read_jsonl
from rag_core.settings import Settings


def main(module_name: str) -> None:
    """The per-family table and the means, for the families of ``module_name``."""
    table = importlib.import_module(module_name)
    families = {**table.ATTACKS, **table.LOOKALIKES}
    s = Settings().verdict
    counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    for row in read_jsonl(SYNTH_PATH):
        if row["family"] not in families:
            continue
        worst = max((x.score for x in score_sentences(row["text"])), default=0.0)
        c = counts[(row["kind"], row["family"])]
        c[0] += 1
        c[1] += worst > s.t_injection
        c[2] += worst > s.t_injection_sentence
    if not counts:
        sys.exit(f"no rows of {module_name} in {SYNTH_PATH}: run scripts/gen_injection_set.py first")
    print(
        f"{'kind:family':48s} > t_injection {s.t_injection:.2f}  > t_injection_sentence {s.t_injection_sentence:.2f}"
    )
    for (kind, fam), (n, above, above_s) in sorted(counts.items()):
        print(f"{kind + ':' + fam:48s} {above / n:20.3f}  {above_s / n:28.3f}")
    for kind in ("attack", "lookalike"):
        rates = [c[1] / c[0] for (k, _), c in counts.items() if k == kind]
        if rates:
            print(
                f"{kind}: {len(rates)} families, mean {sum(rates) / len(rates):.3f}, lowest {min(rates):.3f}, highest {max(rates):.3f}"
            )


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
