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
    up to 10 df; beyond, the Cornish–Fisher expansion, good to 1e-4). Other levels (the wider
    intervals of several comparisons at once) invert the exact distribution function instead, since
    the expansion is poor far in the tail at few degrees of freedom."""
    if df < 1:
        return math.inf
    if p == 0.975 and df <= len(_T975):
        return _T975[df - 1]
    if p != 0.975 and 0.5 < p < 1:
        return _t_inverse(df, p)
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

    def errors(self) -> tuple[float, float]:
        """How far the interval reaches below and above the mean (an error bar; 0 without one)."""
        if math.isnan(self.low):
            return 0.0, 0.0
        return self.mean - self.low, self.high - self.mean

    def within(self, lo: float, hi: float) -> Estimate:
        """The interval cut to what the measure can be (a win share lies in [0, 1], a difference of
        two in [−1, 1]): the normal interval of a few deals, or of a share near 0, overshoots."""
        if math.isnan(self.low):
            return self
        return Estimate(self.mean, max(lo, self.low), min(hi, self.high), self.n)

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
        if abs((self.mean - self.low) - (self.high - self.mean)) > 10**-digits:  # cut by `within`
            return f"{self.mean:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}]"
        return f"{self.mean:.{digits}f} ± {self.half:.{digits}f}"


def mean_ci(values: Sequence[float], confidence: float = 0.95) -> Estimate:
    """The mean of independent values with its t interval (95% unless told)."""
    n = len(values)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    mean = math.fsum(values) / n
    if n == 1:
        return Estimate(mean, math.nan, math.nan, 1)
    var = math.fsum((x - mean) ** 2 for x in values) / (n - 1)
    half = t_quantile(n - 1, 1 - (1 - confidence) / 2) * math.sqrt(var / n)
    return Estimate(mean, mean - half, mean + half, n)


def cluster_means(pairs: Iterable[tuple[Hashable, float]]) -> list[float]:
    """Each cluster's (deal's) mean, from (cluster, value) pairs, in the order clusters first appear."""
    sums: dict[Hashable, float] = {}
    counts: dict[Hashable, int] = {}
    for key, value in pairs:
        sums[key] = sums.get(key, 0.0) + value
        counts[key] = counts.get(key, 0) + 1
    return [sums[k] / counts[k] for k in sums]


#: What a win share, or any share of games or decisions, can be; and a difference of two of them.
SHARE = (0.0, 1.0)
DIFFERENCE = (-1.0, 1.0)


def clustered_mean_ci(
    pairs: Iterable[tuple[Hashable, float]],
    confidence: float = 0.95,
    within: tuple[float, float] | None = None,
) -> Estimate:
    """The mean over clusters (deals) of each cluster's mean, from (cluster, value) pairs, with its
    interval over clusters (95% unless told), cut to `within` (SHARE, DIFFERENCE) where given."""
    estimate = mean_ci(cluster_means(pairs), confidence)
    return estimate if within is None else estimate.within(*within)


def _paired(
    a: dict[Hashable, tuple[Hashable, float]], b: dict[Hashable, tuple[Hashable, float]]
) -> list[tuple[Hashable, float]]:
    return [(a[k][0], b[k][1] - a[k][1]) for k in a if k in b]


def paired_difference_ci(
    a: dict[Hashable, tuple[Hashable, float]],
    b: dict[Hashable, tuple[Hashable, float]],
    confidence: float = 0.95,
    within: tuple[float, float] | None = None,
) -> Estimate:
    """Mean of b − a over the keys (games) both have, clustered by deal: `a[key] = (deal, value)`; the
    interval cut to `within` where given (DIFFERENCE for two shares)."""
    return clustered_mean_ci(_paired(a, b), confidence, within)


def paired_difference_p(
    a: dict[Hashable, tuple[Hashable, float]], b: dict[Hashable, tuple[Hashable, float]]
) -> float:
    """The two-sided p-value of `paired_difference_ci`'s mean against 0 (t test over deal means)."""
    return t_test_p(cluster_means(_paired(a, b)))


# -- tests: p-values and several comparisons at once -----------------------------------------------


def t_test_p(values: Sequence[float], null: float = 0.0) -> float:
    """Two-sided p-value of Student's one-sample t test of the mean of `values` against `null`;
    NaN for fewer than 2 values. Values all equal have no spread to weigh them by, and t is undefined:
    then the exact sign test stands in (all k values on one side of `null`: 2^(1−k); all at `null`: 1),
    so that a few identical deals (deterministic bots) are not taken for certainty."""
    n = len(values)
    if n < 2:
        return math.nan
    mean = math.fsum(values) / n
    var = math.fsum((x - mean) ** 2 for x in values) / (n - 1)
    # a spread of rounding size only (equal values summed in another order) is no spread
    if var <= (1e-12 * max(1.0, abs(mean))) ** 2:
        return 1.0 if math.isclose(mean, null, abs_tol=1e-12) else min(1.0, 2.0 ** (1 - n))
    t = (mean - null) / math.sqrt(var / n)
    return t_two_sided_p(t, n - 1)


def t_two_sided_p(t: float, df: int) -> float:
    """P(|T| ≥ |t|) for Student's t with `df` degrees of freedom: I_{df/(df+t²)}(df/2, 1/2)."""
    return regularized_beta(df / 2, 0.5, df / (df + t * t))


def _t_inverse(df: int, p: float) -> float:
    """The p-quantile (p > 1/2) of Student's t by bisection on the exact distribution function."""
    target = 2 * (1 - p)  # the two-sided tail beyond the quantile
    low, high = 0.0, 1.0
    while t_two_sided_p(high, df) > target:
        high *= 2
    for _ in range(200):
        mid = (low + high) / 2
        if t_two_sided_p(mid, df) > target:
            low = mid
        else:
            high = mid
        if high - low < 1e-10 * high:
            break
    return (low + high) / 2


def chi2_sf(x: float, df: int) -> float:
    """P(X ≥ x) for a chi-square variable with `df` degrees of freedom: Q(df/2, x/2), the regularized
    upper incomplete gamma function (scipy is not a dependency of bodoge)."""
    if df < 1:
        raise ValueError(f"chi-square needs at least 1 degree of freedom, not {df}")
    if x <= 0:
        return 1.0
    return regularized_gamma_q(df / 2, x / 2)


def f_sf(f: float, d1: float, d2: float) -> float:
    """P(F ≥ f) for Fisher's F with (d1, d2) degrees of freedom: I_{d2/(d2+d1·f)}(d2/2, d1/2)."""
    if d1 <= 0 or d2 <= 0:
        raise ValueError(f"F needs positive degrees of freedom, not ({d1}, {d2})")
    if f <= 0:
        return 1.0
    if math.isinf(f):
        return 0.0
    return regularized_beta(d2 / 2, d1 / 2, d2 / (d2 + d1 * f))


def regularized_gamma_q(a: float, x: float) -> float:
    """Q(a, x) = Γ(a, x) / Γ(a): the series for P below x < a + 1, Lentz's continued fraction above
    (Numerical Recipes §6.2), each where it converges fast; accurate to about 1e-14."""
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        ap = a
        for _ in range(10_000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-16:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-16:
            break
    return math.exp(log_front) * h


def regularized_beta(a: float, b: float, x: float) -> float:
    """I_x(a, b), the regularized incomplete beta function, by its continued fraction (Numerical
    Recipes §6.4), using the symmetry I_x(a, b) = 1 − I_{1−x}(b, a) where that converges faster."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1) / (a + b + 2):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(b, a, 1 - x) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    tiny = 1e-300
    c = 1.0
    d = 1.0 - (a + b) * x / (a + 1)
    d = 1 / (tiny if abs(d) < tiny else d)
    h = d
    for m in range(1, 10_000):
        m2 = 2 * m
        for an in (
            m * (b - m) * x / ((a + m2 - 1) * (a + m2)),
            -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1)),
        ):
            d = 1 + an * d
            d = 1 / (tiny if abs(d) < tiny else d)
            c = 1 + an / c
            c = tiny if abs(c) < tiny else c
            h *= d * c
        if abs(d * c - 1) < 1e-16:
            break
    return h


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm–Bonferroni adjusted p-values, in the order given: the k-th smallest of m is multiplied
    by m − k + 1, kept from falling below the adjusted ones before it, and capped at 1. Rejecting
    where the adjusted p < α keeps the chance of any false alarm in the family at most α, whatever the
    dependence between the tests. NaN (untestable) values stay NaN and do not count in m."""
    order = sorted((p, i) for i, p in enumerate(p_values) if not math.isnan(p))
    m = len(order)
    out = [math.nan] * len(p_values)
    running = 0.0
    for k, (p, i) in enumerate(order):
        running = max(running, min(1.0, (m - k) * p))
        out[i] = running
    return out


def bonferroni_confidence(comparisons: int, confidence: float = 0.95) -> float:
    """The confidence of each of `comparisons` intervals so that all of them hold at once with at
    least `confidence` (Bonferroni: the error 1 − confidence is split evenly)."""
    return 1 - (1 - confidence) / max(1, comparisons)
