"""Families of the synthetic injection set written after the "who is asked" cues
(``injection_cues.WHO_CUES``) were frozen. Strings only, no logic; slots as in
``injection_synth_data``.

Why a separate table: no cue was written from or tuned on these phrasings, so their
leave-one-family-out figures are the honest measure of those cues; ``FRESH_FAMILIES`` names them
for the report. They are drawn from their own random generator (``injection_synth.FRESH_SEED_OFFSET``),
so the earlier rows of the set stay as they were.
"""

from __future__ import annotations

ATTACKS: dict[str, tuple[str, ...]] = {}
"""Attack ways written after the who-cues were frozen."""

LOOKALIKES: dict[str, tuple[str, ...]] = {}
"""Clean look-alikes written after the who-cues were frozen."""

FRESH_FAMILIES: tuple[str, ...] = (*ATTACKS, *LOOKALIKES)
"""The families whose leave-one-family-out figures no who-cue was tuned on."""
