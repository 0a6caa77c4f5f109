"""Seed 002's intervals over seeds: the paper reports makespans with 99.7 % Student t intervals
(8 seeds), a level analysis/stats.py does not tabulate, so the quantile is computed here (no SciPy)."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence


@functools.cache  # the report asks for the same few quantiles thousands of times
def t_quantile(p: float, df: int) -> float:
    """Student t quantile (two-sided level from ``p`` = 1 - α/2), by bisection on the CDF
    integrated numerically (Simpson); no SciPy. t(0.9985, 7) = 4.44 (the paper's 99.7 % with 8 seeds)."""

    def pdf(x: float) -> float:
        c = math.gamma((df + 1) / 2) / (math.sqrt(df * math.pi) * math.gamma(df / 2))
        return c * (1 + x * x / df) ** (-(df + 1) / 2)

    def cdf(x: float) -> float:
        n = 2000
        h = x / n
        s = pdf(0) + pdf(x) + sum((4 if i % 2 else 2) * pdf(i * h) for i in range(1, n))
        return 0.5 + s * h / 3

    low, high = 0.0, 1000.0
    for _ in range(80):
        mid = (low + high) / 2
        low, high = (mid, high) if cdf(mid) < p else (low, mid)
    return (low + high) / 2


def mean_ci(values: Sequence[float], level: float = 0.997) -> tuple[float, float]:
    """(mean, half-width of the Student t interval at ``level``); 0 with one value."""
    n = len(values)
    mean = math.fsum(values) / n
    if n < 2:
        return mean, 0.0
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    return mean, t_quantile(1 - (1 - level) / 2, n - 1) * sd / math.sqrt(n)
