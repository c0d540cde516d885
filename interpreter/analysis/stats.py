"""The statistics of a batch of games, with nothing but the standard library.

- `wilson`: the 95 % Wilson score interval of a proportion (good for small n and for rates near 0 or 1).
- `chi2_sf`: the survival function of the chi-square distribution (the p-value of a chi-square statistic),
  through the regularized upper incomplete gamma function.
- `chi_square_even`: the chi-square goodness-of-fit test of "every seat wins equally often".
- `two_proportions`: the two-sided z-test of a difference between two rates (pooled standard error).
- `quantiles`: linear-interpolation quantiles (the usual "type 7").

docs/analysis.md explains what each one means for a designer.
"""
from __future__ import annotations

import math

Z95 = 1.959963984540054  # the 97.5 % quantile of the standard normal distribution
ALPHA = 0.05
QUANTILES = (0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0)


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of k successes out of n (0..1 each end); (0, 1) when n is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    low = 0.0 if k == 0 else max(0.0, centre - half)  # exact at the ends (no 1e-17 left by rounding)
    high = 1.0 if k == n else min(1.0, centre + half)
    return low, high


def _gamma_series(a: float, x: float) -> float:
    """P(a, x), the regularized lower incomplete gamma function, by its series (x < a + 1)."""
    term = total = 1.0 / a
    ap = a
    for _ in range(10_000):
        ap += 1
        term *= x / ap
        total += term
        if abs(term) < abs(total) * 1e-15:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _gamma_continued_fraction(a: float, x: float) -> float:
    """Q(a, x), the regularized upper incomplete gamma function, by Lentz's continued fraction (x >= a + 1)."""
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
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return h * math.exp(-x + a * math.log(x) - math.lgamma(a))


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square distributed with df degrees of freedom."""
    if df <= 0:
        raise ValueError("degrees of freedom must be positive")
    if x <= 0:
        return 1.0
    a, h = df / 2, x / 2
    if h < a + 1:
        return max(0.0, 1.0 - _gamma_series(a, h))
    return min(1.0, _gamma_continued_fraction(a, h))


def normal_sf(z: float) -> float:
    """P(Z >= z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2))


def chi_square_even(counts: list[int]) -> dict:
    """Goodness of fit of `counts` (wins per seat) to equal shares: statistic, df, p-value, verdict."""
    n, k = sum(counts), len(counts)
    if k < 2 or n == 0:
        return {"statistic": None, "df": max(k - 1, 0), "p_value": None, "n": n, "significant": False,
                "verdict": "not enough games to test"}
    expected = n / k
    stat = sum((c - expected) ** 2 / expected for c in counts)
    p = chi2_sf(stat, k - 1)
    significant = p < ALPHA
    verdict = (f"the seats' win rates differ significantly (p = {p:.3g} < {ALPHA})" if significant else
               f"no significant difference between the seats (p = {p:.3g} >= {ALPHA})")
    if expected < 5:
        verdict += "; fewer than 5 expected wins per seat: the test is rough"
    return {"statistic": stat, "df": k - 1, "p_value": p, "n": n, "significant": significant, "verdict": verdict}


def homogeneity(rows: list[tuple[int, int]]) -> dict:
    """Chi-square test that several rates k_i/n_i are one rate (a k x 2 contingency table)."""
    rows = [(k, n) for k, n in rows if n > 0]
    K, N = sum(k for k, _ in rows), sum(n for _, n in rows)
    if len(rows) < 2 or N == 0 or K in (0, N):
        return {"statistic": None, "df": max(len(rows) - 1, 0), "p_value": None, "significant": False,
                "verdict": "not enough games to test"}
    p = K / N
    stat = sum((k - n * p) ** 2 / (n * p * (1 - p)) for k, n in rows)
    pv = chi2_sf(stat, len(rows) - 1)
    significant = pv < ALPHA
    verdict = (f"the win rates differ significantly between values (p = {pv:.3g} < {ALPHA})" if significant else
               f"no significant difference between values (p = {pv:.3g} >= {ALPHA})")
    if min(min(n * p, n * (1 - p)) for _, n in rows) < 5:
        verdict += "; some values have fewer than 5 expected wins or losses: the test is rough"
    return {"statistic": stat, "df": len(rows) - 1, "p_value": pv, "significant": significant, "verdict": verdict}


def two_proportions(k1: int, n1: int, k2: int, n2: int) -> dict:
    """Difference of two rates k1/n1 - k2/n2 with its two-sided p-value (pooled z-test)."""
    if n1 == 0 or n2 == 0:
        return {"difference": None, "z": None, "p_value": None, "significant": False}
    p1, p2 = k1 / n1, k2 / n2
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return {"difference": p1 - p2, "z": 0.0, "p_value": 1.0, "significant": False}
    z = (p1 - p2) / se
    p = min(1.0, 2 * normal_sf(abs(z)))
    return {"difference": p1 - p2, "z": z, "p_value": p, "significant": p < ALPHA}


def mean_difference(a: list[float], b: list[float]) -> dict:
    """Difference of two means (a - b) with Welch's z approximation (fine for the batch sizes used here)."""
    if len(a) < 2 or len(b) < 2:
        return {"difference": None, "p_value": None, "significant": False}
    ma, mb = sum(a) / len(a), sum(b) / len(b)
    va = sum((x - ma) ** 2 for x in a) / (len(a) - 1)
    vb = sum((x - mb) ** 2 for x in b) / (len(b) - 1)
    se = math.sqrt(va / len(a) + vb / len(b))
    if se == 0:
        return {"difference": ma - mb, "p_value": 1.0 if ma == mb else 0.0, "significant": ma != mb}
    p = min(1.0, 2 * normal_sf(abs(ma - mb) / se))
    return {"difference": ma - mb, "p_value": p, "significant": p < ALPHA}


def quantiles(values, qs=QUANTILES) -> dict:
    """{"p0": min, "p10": ..., "p50": median, ..., "p100": max, "mean": ...}; empty when there are no numbers."""
    xs = sorted(v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool))
    if not xs:
        return {}
    out = {}
    for q in qs:
        pos = q * (len(xs) - 1)
        lo = math.floor(pos)
        hi = min(lo + 1, len(xs) - 1)
        out[f"p{round(q * 100)}"] = xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)
    out["mean"] = sum(xs) / len(xs)
    return out


def rate(k: int, n: int) -> dict:
    """A rate with its 95 % Wilson interval and its sample size."""
    lo, hi = wilson(k, n)
    return {"k": k, "n": n, "rate": k / n if n else None, "low": lo, "high": hi}


__all__ = ["wilson", "chi2_sf", "normal_sf", "chi_square_even", "homogeneity", "two_proportions", "mean_difference",
           "quantiles", "rate", "Z95", "ALPHA"]
