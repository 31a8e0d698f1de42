"""Small statistics for benchmarks: medians and percentiles of timings."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence


def median(values: Sequence[float]) -> float:
    """The median; NaN for an empty sequence."""
    return percentile(values, 50.0)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (linear interpolation, as numpy's default); NaN when empty."""
    if not values:
        return math.nan
    data = sorted(values)
    pos = (len(data) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(data) - 1)
    return data[lo] + (data[hi] - data[lo]) * (pos - lo)


def time_ms(fn: Callable[[], object], repeat: int) -> list[float]:
    """Wall times of ``repeat`` calls of ``fn``, in milliseconds (perf_counter)."""
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000.0)
    return out


def rounded(value: float, digits: int = 4) -> float:
    return round(float(value), digits)
