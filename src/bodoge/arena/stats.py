"""Means with 95% confidence intervals, for the arena's summaries.

Games of one deal are not independent (duplicate deals replay the same cards with the agents rotated,
and variants replay the same deals), so every interval here treats the **deal** as the unit: the
observations of one deal are averaged first, and the interval is Student's t over those deal means
(a cluster-robust interval). With one observation per deal this is the plain t interval.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

_T975 = (12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281)


def t_quantile(df: int, p: float = 0.975) -> float:
    """The p-quantile of Student's t with `df` degrees of freedom (exact table for the 95% interval
    up to 10 df; beyond, the Cornish–Fisher expansion, good to 1e-4)."""
    if df < 1:
        return math.inf
    if p == 0.975 and df <= len(_T975):
        return _T975[df - 1]
    z = NormalDist().inv_cdf(p)
    v = float(df)
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / v + g2 / v**2 + g3 / v**3 + g4 / v**4


@dataclass(frozen=True)
class Estimate:
    """A mean with its 95% confidence interval over `n` units (deals); low/high are NaN for n < 2."""

    mean: float
    low: float
    high: float
    n: int

    @property
    def half(self) -> float:
        return (self.high - self.low) / 2

    def above(self, value: float) -> bool:
        return self.low > value

    def below(self, value: float) -> bool:
        return self.high < value

    def to_json(self) -> dict[str, Any]:
        def num(x: float) -> float | None:
            return None if math.isnan(x) else round(x, 6)

        return {"mean": num(self.mean), "low": num(self.low), "high": num(self.high), "n": self.n}

    def text(self, digits: int = 3) -> str:
        if math.isnan(self.mean):
            return "—"
        if math.isnan(self.low):
            return f"{self.mean:.{digits}f}"
        return f"{self.mean:.{digits}f} ± {self.half:.{digits}f}"


def mean_ci(values: Sequence[float]) -> Estimate:
    """The mean of independent values with its 95% t interval."""
    n = len(values)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    mean = math.fsum(values) / n
    if n == 1:
        return Estimate(mean, math.nan, math.nan, 1)
    var = math.fsum((x - mean) ** 2 for x in values) / (n - 1)
    half = t_quantile(n - 1) * math.sqrt(var / n)
    return Estimate(mean, mean - half, mean + half, n)


def clustered_mean_ci(pairs: Iterable[tuple[Hashable, float]]) -> Estimate:
    """The mean over clusters (deals) of each cluster's mean, from (cluster, value) pairs, with its
    95% interval over clusters."""
    sums: dict[Hashable, float] = {}
    counts: dict[Hashable, int] = {}
    for key, value in pairs:
        sums[key] = sums.get(key, 0.0) + value
        counts[key] = counts.get(key, 0) + 1
    return mean_ci([sums[k] / counts[k] for k in sums])


def paired_difference_ci(
    a: dict[Hashable, tuple[Hashable, float]], b: dict[Hashable, tuple[Hashable, float]]
) -> Estimate:
    """Mean of b − a over the keys (games) both have, clustered by deal: `a[key] = (deal, value)`."""
    return clustered_mean_ci((a[k][0], b[k][1] - a[k][1]) for k in a if k in b)
