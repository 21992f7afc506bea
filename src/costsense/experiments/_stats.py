"""Statistics for comparing algorithms over cross-validation folds.

Paired tests (the t-test, also corrected as Nadeau and Bengio's, and the Wilcoxon
test), win/tie/loss counts, best-entry masks and mean ranks: what the report's
tables and the claims are built from.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import stats

__all__ = [
    "PairedTest",
    "mean_ranks",
    "paired_t_test",
    "welch_interval",
    "win_tie_loss",
]


@dataclass(frozen=True)
class PairedTest:
    """Result of a two-sided paired test of ``a`` against ``b``.

    ``statistic`` is Student's t or the Wilcoxon statistic, ``significant``
    whether ``pvalue < alpha``, ``mean_difference`` is ``mean(a - b)`` (the
    direction of a significant result).

    Examples
    --------
    >>> r = PairedTest(-4.0, pvalue=0.01, significant=True, mean_difference=-2.0)
    >>> r.outcome(lower_is_better=True), r.outcome(lower_is_better=False)
    (1, -1)
    """

    statistic: float
    pvalue: float
    significant: bool
    mean_difference: float

    def outcome(self, lower_is_better: bool) -> int:
        """Return +1 if ``a`` is significantly better than ``b``, -1 if worse, or 0."""
        if not self.significant or self.mean_difference == 0:
            return 0
        return 1 if (self.mean_difference < 0) == lower_is_better else -1


def describe(values: ArrayLike) -> tuple[float, float]:
    """Mean and sample std (0 for one value), by :func:`math.fsum`: order-free."""
    x = np.asarray(values, dtype=np.float64).ravel()
    mean = math.fsum(x) / x.size
    if x.size == 1:
        return mean, 0.0
    return mean, math.sqrt(math.fsum((x - mean) ** 2) / (x.size - 1))


def _differences(a: ArrayLike, b: ArrayLike) -> tuple[NDArray[np.float64], bool, bool]:
    """Check paired samples; return ``a - b``, whether constant (16 ulps), whether 0."""
    x, y = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if x.ndim != 1 or y.ndim != 1:
        raise ValueError(f"Paired samples must be 1-D; got {x.shape} and {y.shape}.")
    if x.shape != y.shape:
        raise ValueError(
            f"Paired samples must have the same length; got {x.size} and {y.size}."
        )
    if x.size < 2:
        raise ValueError(f"A paired test needs at least 2 pairs; got {x.size}.")
    if np.isnan(x).any() or np.isnan(y).any():
        raise ValueError("Paired samples contain NaN.")
    d = x - y
    tol = 16 * np.finfo(np.float64).eps * max(np.abs(x).max(), np.abs(y).max())
    constant = bool(np.ptp(d) <= tol)
    return d, constant, constant and bool(np.abs(d).max() <= tol)


def paired_t_test(
    a: ArrayLike, b: ArrayLike, *, alpha: float = 0.05, test_train_ratio: float = 0.0
) -> PairedTest:
    """Run the two-sided paired t-test of ``a`` against ``b``, corrected if asked.

    ``t = mean(d) / sqrt((1 / J + test_train_ratio) var(d))`` with ``d = a - b``
    over ``J >= 2`` pairs without NaN, against Student's t with ``J - 1`` degrees
    of freedom; ``significant = pvalue < alpha``. A ratio of 0 is
    ``scipy.stats.ttest_rel(a, b)``; ``n_test / n_train`` is the Nadeau-Bengio
    corrected resampled t-test [1]_, for training sets that overlap (k-fold:
    ``1 / (k - 1)``), where the plain test is too liberal. Equal differences of 0
    give t = 0, p = 1, equal nonzero differences t = ±inf, p = 0.

    References
    ----------
    .. [1] C. Nadeau and Y. Bengio, "Inference for the generalization error",
       Machine Learning, 52(3), pp. 239-281, 2003.

    Examples
    --------
    >>> a, b = [3.0, 4.0, 5.0, 7.0], [1.0, 2.0, 4.0, 4.0]
    >>> r = paired_t_test(a, b)
    >>> round(r.statistic, 4), r.significant
    (4.899, True)
    >>> round(paired_t_test(a, b, test_train_ratio=0.25).statistic, 4)
    3.4641
    """
    ratio = float(test_train_ratio)
    if not np.isfinite(ratio) or ratio < 0:
        raise ValueError(f"test_train_ratio must be a finite number >= 0; got {ratio}.")
    d, constant, zero = _differences(a, b)
    mean = float(d.mean())
    if zero:
        return PairedTest(0.0, 1.0, False, 0.0)
    if constant:  # SciPy returns NaN here
        return PairedTest(float(np.copysign(np.inf, mean)), 0.0, 0.0 < alpha, mean)
    if ratio == 0:
        result = stats.ttest_rel(np.asarray(a, float), np.asarray(b, float))
        t, pvalue = float(result.statistic), float(result.pvalue)
    else:
        t = mean / math.sqrt((1.0 / d.size + ratio) * float(np.var(d, ddof=1)))
        pvalue = float(2.0 * stats.t.sf(abs(t), df=d.size - 1))
    return PairedTest(t, pvalue, pvalue < alpha, mean)


def paired_interval(
    a: ArrayLike, b: ArrayLike, *, alpha: float = 0.05, test_train_ratio: float = 0.0
) -> tuple[float, float, float]:
    """Return ``mean(a - b)`` and the ``1 - alpha`` t interval the paired test inverts.

    ``test_train_ratio`` widens it as :func:`paired_t_test` corrects the
    variance. Differences equal up to rounding give the point interval.
    """
    d, constant, _ = _differences(a, b)
    mean = float(d.mean())
    if constant:
        return mean, mean, mean
    half = float(stats.t.ppf(1 - alpha / 2, df=d.size - 1)) * math.sqrt(
        (1.0 / d.size + float(test_train_ratio)) * float(np.var(d, ddof=1))
    )
    return mean, mean - half, mean + half


def welch_interval(
    a: ArrayLike, b: ArrayLike, *, alpha: float = 0.05
) -> tuple[float, float, float]:
    """Return ``mean(a) - mean(b)`` and its ``1 - alpha`` Welch t interval.

    For two samples of different splits (one algorithm on two data sets): the
    standard error ``sqrt(var(a)/n_a + var(b)/n_b)`` with the Welch-Satterthwaite
    degrees of freedom; two constant samples give the point interval.

    Examples
    --------
    >>> point, low, high = welch_interval([1.0, 2.0, 3.0], [0.0, 0.0, 0.0])
    >>> point, round(low, 3), round(high, 3)
    (2.0, -0.484, 4.484)
    """
    x, y = (np.asarray(v, dtype=np.float64).ravel() for v in (a, b))
    if x.size < 2 or y.size < 2:
        raise ValueError(
            f"Welch's interval needs 2 values a side; got {x.size}, {y.size}."
        )
    mean = float(x.mean() - y.mean())
    va, vb = float(np.var(x, ddof=1)) / x.size, float(np.var(y, ddof=1)) / y.size
    if va + vb == 0:
        return mean, mean, mean
    df = (va + vb) ** 2 / (
        (va**2 / (x.size - 1) if va else 0.0) + (vb**2 / (y.size - 1) if vb else 0.0)
    )
    half = float(stats.t.ppf(1 - alpha / 2, df=df)) * math.sqrt(va + vb)
    return mean, mean - half, mean + half


def wilcoxon_test(a: ArrayLike, b: ArrayLike, *, alpha: float = 0.05) -> PairedTest:
    """``scipy.stats.wilcoxon(a, b)`` as a :class:`PairedTest` (all ties: p = 1)."""
    d, _, _ = _differences(a, b)
    if np.all(d == 0):
        return PairedTest(0.0, 1.0, False, 0.0)
    result = stats.wilcoxon(np.asarray(a, float), np.asarray(b, float))
    pvalue = float(result.pvalue)
    return PairedTest(float(result.statistic), pvalue, pvalue < alpha, float(d.mean()))


def win_tie_loss(
    pairs: Iterable[tuple[ArrayLike, ArrayLike]],
    *,
    alpha: float = 0.05,
    lower_is_better: bool = True,
    test_train_ratio: float = 0.0,
) -> tuple[int, int, int]:
    """Count the rows where ``a`` is significantly better, not different, worse.

    ``pairs`` holds the paired fold results of ``a`` and ``b``, one pair per
    row, each compared by :func:`paired_t_test` at level ``alpha`` with
    ``test_train_ratio``. Returns (wins, ties, losses).

    Examples
    --------
    >>> better = ([1.0, 2.0, 1.5], [5.0, 6.0, 5.2])
    >>> same = ([1.0, 2.0, 3.0], [1.0, 2.0, 3.0])
    >>> win_tie_loss([better, same, better])
    (2, 1, 0)
    """
    counts = {1: 0, 0: 0, -1: 0}
    for a, b in pairs:
        test = paired_t_test(a, b, alpha=alpha, test_train_ratio=test_train_ratio)
        counts[test.outcome(lower_is_better)] += 1
    return counts[1], counts[0], counts[-1]


def best_mask(means: ArrayLike, *, lower_is_better: bool) -> NDArray[np.bool_]:
    """Mark each row's best entries (relative tolerance 1e-9), never NaN."""
    m = np.asarray(means, dtype=np.float64)
    with warnings.catch_warnings():  # an all-NaN row has no best: no warning
        warnings.simplefilter("ignore", RuntimeWarning)
        best = np.nanmin(m, axis=1) if lower_is_better else np.nanmax(m, axis=1)
    return ~np.isnan(m) & np.isclose(m, best[:, None], rtol=1e-9, atol=0.0)


def mean_ranks(means: ArrayLike, *, lower_is_better: bool) -> NDArray[np.float64]:
    """Average each algorithm's rank over the rows (rows x algorithms).

    Rank 1 is the best; ties share the average of their ranks
    (``scipy.stats.rankdata``); NaN ranks after every number.

    Examples
    --------
    >>> mean_ranks([[1.0, 2.0, 3.0], [2.0, 1.0, 2.0]], lower_is_better=True)
    array([1.75, 1.5 , 2.75])
    """
    m = np.asarray(means, dtype=np.float64)
    if m.shape[0] == 0:
        raise ValueError("mean_ranks needs at least one row.")
    keyed = np.where(np.isnan(m), np.inf, m if lower_is_better else -m)
    ranks = stats.rankdata(keyed, method="average", axis=1)
    return np.asarray(ranks.mean(axis=0), dtype=np.float64)
