"""Confidence intervals over seeds, without SciPy.

The interval is Student's t: mean ± t(0.975, n-1) · s / sqrt(n). The quantiles are
tabulated (they are constants; SciPy is not a dependency of datasched); beyond 30
degrees of freedom the normal quantile 1.96 is used, which differs from t by < 2 %.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: Two-sided 95 % Student t quantiles t(0.975, df) for df = 1..30.
T_975 = (
    12.706,
    4.303,
    3.182,
    2.776,
    2.571,
    2.447,
    2.365,
    2.306,
    2.262,
    2.228,
    2.201,
    2.179,
    2.160,
    2.145,
    2.131,
    2.120,
    2.110,
    2.101,
    2.093,
    2.086,
    2.080,
    2.074,
    2.069,
    2.064,
    2.060,
    2.056,
    2.052,
    2.048,
    2.045,
    2.042,
)


@dataclass(frozen=True)
class MeanCI:
    mean: float
    low: float
    high: float
    n: int

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2


def t_quantile_975(df: int) -> float:
    if df < 1:
        raise ValueError("a confidence interval needs at least two values")
    return T_975[df - 1] if df <= len(T_975) else 1.96


def mean_ci95(values: Sequence[float]) -> MeanCI:
    """Mean and 95 % t interval; with one value the interval is that value (no spread known)."""
    values = [float(v) for v in values]
    n = len(values)
    if n == 0:
        raise ValueError("no values")
    mean = math.fsum(values) / n
    if n == 1:
        return MeanCI(mean, mean, mean, 1)
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = t_quantile_975(n - 1) * math.sqrt(variance / n)
    return MeanCI(mean, mean - half, mean + half, n)
