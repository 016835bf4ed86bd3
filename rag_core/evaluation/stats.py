"""Summary statistics the benchmarks share: latency percentiles and medians.

Why one place: the retrieval, latency and answer benchmarks all report "median and p95"; one
definition keeps their figures comparable (nearest-rank percentile, no interpolation).
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

PERCENTILE_95 = 0.95
"""The tail the benchmarks report besides the median."""


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile ``q`` in [0, 1] of ``values``; 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def median_p95(values: Sequence[float], digits: int) -> dict[str, float]:
    """``{"median": …, "p95": …}`` rounded to ``digits``; zeros for no values."""
    if not values:
        return {"median": 0.0, "p95": 0.0}
    return {
        "median": round(statistics.median(values), digits),
        "p95": round(percentile(values, PERCENTILE_95), digits),
    }
