"""Statistics for comparing algorithms over cross-validation folds.

Pure functions of NumPy arrays (SciPy for the distributions): summary statistics,
paired tests on fold results, win/tie/loss counts, best-entry masks and mean ranks.
The report writer (:mod:`costsense.experiments._report`) builds its tables from
these.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import stats

__all__ = [
    "PairedTest",
    "best_mask",
    "corrected_paired_t_test",
    "describe",
    "mean_ranks",
    "paired_interval",
    "paired_t_test",
    "wilcoxon_test",
    "win_tie_loss",
]

_TESTS = ("t", "corrected", "wilcoxon")


@dataclass(frozen=True)
class PairedTest:
    """Result of a two-sided paired test of ``a`` against ``b``.

    Attributes
    ----------
    statistic : float
        Test statistic (Student's t, or the Wilcoxon signed-rank statistic).
    pvalue : float
        Two-sided p-value.
    significant : bool
        Whether ``pvalue < alpha``.
    mean_difference : float
        ``mean(a - b)``; its sign gives the direction of a significant result.

    Examples
    --------
    >>> result = PairedTest(
    ...     statistic=-4.0, pvalue=0.01, significant=True, mean_difference=-2.0
    ... )
    >>> result.outcome(lower_is_better=True)
    1
    >>> result.outcome(lower_is_better=False)
    -1
    """

    statistic: float
    pvalue: float
    significant: bool
    mean_difference: float

    def outcome(self, lower_is_better: bool) -> int:
        """Score ``a`` against ``b``: win, tie or loss.

        Parameters
        ----------
        lower_is_better : bool
            Direction of the compared quantity (True for costs, False for
            rates such as recall or AUC).

        Returns
        -------
        int
            ``+1`` if ``a`` is significantly better than ``b``, ``-1`` if it is
            significantly worse, ``0`` otherwise (a tie).
        """
        if not self.significant or self.mean_difference == 0:
            return 0
        a_lower = self.mean_difference < 0
        return 1 if a_lower == lower_is_better else -1


def describe(values: ArrayLike) -> tuple[float, float]:
    """Return the mean and the sample standard deviation.

    Parameters
    ----------
    values : array-like of shape (n_values,)
        At least one value.

    Returns
    -------
    mean : float
        Arithmetic mean.
    std : float
        Sample standard deviation (``ddof=1``); ``0.0`` for a single value.

    Notes
    -----
    Sums use :func:`math.fsum`, so the result does not depend on the order of
    the values: the same fold results in any order give identical means, and
    equal means tie exactly in rankings.

    Examples
    --------
    >>> describe([1.0, 3.0])
    (2.0, 1.4142135623730951)
    >>> describe([5.0])
    (5.0, 0.0)
    """
    x = np.asarray(values, dtype=np.float64).ravel()
    if x.size == 0:
        raise ValueError("describe needs at least one value; got none.")
    mean = math.fsum(x) / x.size
    if x.size == 1:
        return mean, 0.0
    return mean, math.sqrt(math.fsum((x - mean) ** 2) / (x.size - 1))


def _differences(a: ArrayLike, b: ArrayLike) -> NDArray[np.float64]:
    """Validate two paired samples and return ``a - b``.

    Parameters
    ----------
    a, b : array-like of shape (n_pairs,)
        Paired samples.

    Returns
    -------
    ndarray of shape (n_pairs,)
        The differences ``a - b``.
    """
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    if x.ndim != 1 or y.ndim != 1:
        raise ValueError(
            f"Paired samples must be 1-D; got shapes {x.shape} and {y.shape}."
        )
    if x.shape != y.shape:
        raise ValueError(
            f"Paired samples must have the same length; got {x.size} and {y.size}."
        )
    if x.size < 2:
        raise ValueError(f"A paired test needs at least 2 pairs; got {x.size}.")
    if np.isnan(x).any() or np.isnan(y).any():
        raise ValueError("Paired samples contain NaN.")
    return x - y


def _constant(d: NDArray[np.float64], a: ArrayLike, b: ArrayLike) -> tuple[bool, bool]:
    """Tell whether the differences are constant, and whether that constant is 0.

    Differences equal up to the rounding of the subtraction (a few ulps of the
    largest input) count as constant, so ``(x + 0.1) - x`` is recognised.

    Parameters
    ----------
    d : ndarray of shape (n_pairs,)
        Differences ``a - b``.
    a, b : array-like of shape (n_pairs,)
        The paired samples, used for the rounding scale.

    Returns
    -------
    constant : bool
        Whether all differences are equal (to rounding).
    zero : bool
        Whether they are all zero (to rounding).
    """
    scale = max(
        float(np.max(np.abs(np.asarray(a, dtype=np.float64)))),
        float(np.max(np.abs(np.asarray(b, dtype=np.float64)))),
    )
    tol = 16 * np.finfo(np.float64).eps * scale
    constant = bool(np.ptp(d) <= tol)
    return constant, constant and bool(np.max(np.abs(d)) <= tol)


def _degenerate(d: NDArray[np.float64], zero: bool, alpha: float) -> PairedTest:
    """Define the t-test for zero-variance differences.

    Parameters
    ----------
    d : ndarray of shape (n_pairs,)
        Constant differences.
    zero : bool
        Whether the constant is zero.
    alpha : float
        Significance level (only for a consistent signature).

    Returns
    -------
    PairedTest
        ``t = 0, p = 1`` for zero differences; ``t = ±inf, p = 0`` otherwise.
    """
    if zero:
        return PairedTest(0.0, 1.0, False, 0.0)
    mean = float(np.mean(d))
    return PairedTest(float(np.copysign(np.inf, mean)), 0.0, 0.0 < alpha, mean)


def paired_t_test(a: ArrayLike, b: ArrayLike, *, alpha: float = 0.05) -> PairedTest:
    """Run the two-sided paired Student t-test of ``a`` against ``b``.

    Parameters
    ----------
    a, b : array-like of shape (n_pairs,)
        Paired samples, e.g. the fold costs of two algorithms on the same folds.
        At least 2 pairs, no NaN.
    alpha : float, default=0.05
        Significance level.

    Returns
    -------
    PairedTest
        ``scipy.stats.ttest_rel(a, b)`` with ``significant = pvalue < alpha``.

    See Also
    --------
    corrected_paired_t_test : The same test with the variance corrected for
        overlapping training sets.

    Notes
    -----
    ``t = mean(d) / sqrt(var(d) / J)`` with ``d = a - b``, ``J`` pairs,
    ``var`` with ``ddof=1`` and ``J - 1`` degrees of freedom. SciPy returns NaN
    when all differences are equal; here equal differences of 0 give
    ``t = 0, p = 1`` (not significant) and equal nonzero differences give
    ``t = ±inf, p = 0`` (significant).

    Examples
    --------
    >>> r = paired_t_test([3.0, 4.0, 5.0, 7.0], [1.0, 2.0, 4.0, 4.0])
    >>> round(r.statistic, 4), r.significant
    (4.899, True)
    >>> paired_t_test([1.0, 2.0], [1.0, 2.0]).pvalue
    1.0
    """
    d = _differences(a, b)
    constant, zero = _constant(d, a, b)
    if constant:
        return _degenerate(d, zero, alpha)
    result = stats.ttest_rel(np.asarray(a, float), np.asarray(b, float))
    pvalue = float(result.pvalue)
    return PairedTest(float(result.statistic), pvalue, pvalue < alpha, float(d.mean()))


def paired_interval(
    a: ArrayLike, b: ArrayLike, *, alpha: float = 0.05
) -> tuple[float, float, float]:
    """Return the mean paired difference and its two-sided t confidence interval.

    Parameters
    ----------
    a, b : array-like of shape (n_pairs,)
        Paired samples. At least 2 pairs, no NaN.
    alpha : float, default=0.05
        One minus the interval's level.

    Returns
    -------
    mean, low, high : float
        ``mean(d)`` with ``d = a - b`` and ``mean(d) -/+ t_{1 - alpha/2, J - 1}
        sqrt(var(d) / J)`` (``J`` pairs, ``var`` with ``ddof=1``): the interval
        whose complement :func:`paired_t_test` rejects at level ``alpha``.
        Differences equal to rounding give the point interval ``(d, d, d)``.

    Examples
    --------
    >>> mean, low, high = paired_interval([3.0, 4.0, 5.0, 7.0], [1.0, 2.0, 4.0, 4.0])
    >>> mean, round(low, 4), round(high, 4)
    (2.0, 0.7008, 3.2992)
    """
    d = _differences(a, b)
    mean = float(d.mean())
    constant, _ = _constant(d, a, b)
    if constant:
        return mean, mean, mean
    half = float(stats.t.ppf(1 - alpha / 2, df=d.size - 1)) * math.sqrt(
        float(np.var(d, ddof=1)) / d.size
    )
    return mean, mean - half, mean + half


def corrected_paired_t_test(
    a: ArrayLike,
    b: ArrayLike,
    *,
    test_train_ratio: float,
    alpha: float = 0.05,
) -> PairedTest:
    """Run the Nadeau-Bengio corrected resampled t-test of ``a`` against ``b``.

    Parameters
    ----------
    a, b : array-like of shape (n_pairs,)
        Paired samples from ``J`` resamplings (e.g. repeats x folds) evaluated on
        the same splits. At least 2 pairs, no NaN.
    test_train_ratio : float
        ``n_test / n_train`` of one split, e.g. ``1 / (k - 1)`` for k-fold
        cross-validation and ``0.5`` for 2/3-1/3 splits. Must be ``>= 0``;
        ``0`` gives the plain paired t-test.
    alpha : float, default=0.05
        Significance level.

    Returns
    -------
    PairedTest
        Corrected statistic, its two-sided p-value and the mean difference.

    See Also
    --------
    paired_t_test : The uncorrected test, which underestimates the variance
        when training sets overlap.

    Notes
    -----
    With ``d = a - b`` and ``J = len(d)``::

        t = mean(d) / sqrt((1 / J + n_test / n_train) * var(d, ddof=1))

    compared with Student's t with ``J - 1`` degrees of freedom (two-sided).
    For ``test_train_ratio > 0``, ``|t|`` is never larger than the plain
    paired t. Zero-variance differences are handled as in
    :func:`paired_t_test`.

    References
    ----------
    .. [1] C. Nadeau and Y. Bengio, "Inference for the generalization error",
       Machine Learning, 52(3), pp. 239-281, 2003.

    Examples
    --------
    >>> a, b = [3.0, 4.0, 5.0, 7.0], [1.0, 2.0, 4.0, 4.0]
    >>> r = corrected_paired_t_test(a, b, test_train_ratio=0.25)
    >>> round(r.statistic, 4)
    3.4641
    >>> r.statistic < paired_t_test(a, b).statistic
    True
    """
    if not np.isfinite(test_train_ratio) or test_train_ratio < 0:
        raise ValueError(
            f"test_train_ratio must be a finite number >= 0; got {test_train_ratio}."
        )
    d = _differences(a, b)
    constant, zero = _constant(d, a, b)
    if constant:
        return _degenerate(d, zero, alpha)
    n = d.size
    mean = float(d.mean())
    se = np.sqrt((1.0 / n + test_train_ratio) * np.var(d, ddof=1))
    t = float(mean / se)
    pvalue = float(2.0 * stats.t.sf(abs(t), df=n - 1))
    return PairedTest(t, pvalue, pvalue < alpha, mean)


def wilcoxon_test(a: ArrayLike, b: ArrayLike, *, alpha: float = 0.05) -> PairedTest:
    """Run the two-sided Wilcoxon signed-rank test of ``a`` against ``b``.

    Parameters
    ----------
    a, b : array-like of shape (n_pairs,)
        Paired samples. At least 2 pairs, no NaN.
    alpha : float, default=0.05
        Significance level.

    Returns
    -------
    PairedTest
        Statistic and p-value of ``scipy.stats.wilcoxon(a, b)`` (two-sided,
        ``zero_method="wilcox"``), ``significant = pvalue < alpha`` and the mean
        difference.

    Notes
    -----
    When every difference is zero the test is defined as statistic 0,
    p-value 1 (not significant). The direction of a significant result, used
    by :meth:`PairedTest.outcome`, is the sign of the mean difference; in rare
    skewed samples it can disagree with the rank sums.

    Examples
    --------
    >>> r = wilcoxon_test([2.0, 3.0, 4.0, 5.0, 6.0, 7.0], [1.0] * 6)
    >>> r.statistic, r.pvalue
    (0.0, 0.03125)
    """
    d = _differences(a, b)
    if np.all(d == 0):
        return PairedTest(0.0, 1.0, False, 0.0)
    result = stats.wilcoxon(np.asarray(a, float), np.asarray(b, float))
    pvalue = float(result.pvalue)
    return PairedTest(float(result.statistic), pvalue, pvalue < alpha, float(d.mean()))


def win_tie_loss(
    pairs: Iterable[tuple[ArrayLike, ArrayLike]],
    *,
    test: str = "t",
    alpha: float = 0.05,
    lower_is_better: bool = True,
    test_train_ratio: float | None = None,
) -> tuple[int, int, int]:
    """Count the wins, ties and losses of ``a`` against ``b`` over many rows.

    Parameters
    ----------
    pairs : iterable of (array-like, array-like)
        One ``(a_values, b_values)`` pair of paired fold results per row
        (dataset x cost setting).
    test : {"t", "corrected", "wilcoxon"}, default="t"
        Paired t-test, Nadeau-Bengio corrected t-test, or Wilcoxon
        signed-rank test.
    alpha : float, default=0.05
        Significance level of each test.
    lower_is_better : bool, default=True
        Direction of the compared quantity.
    test_train_ratio : float, default=None
        ``n_test / n_train``; required by ``test="corrected"``.

    Returns
    -------
    wins, ties, losses : int
        Rows where ``a`` is significantly better, not significantly different,
        and significantly worse than ``b``.

    See Also
    --------
    PairedTest.outcome : How one row is scored.

    Examples
    --------
    >>> better = ([1.0, 2.0, 1.5], [5.0, 6.0, 5.2])
    >>> same = ([1.0, 2.0, 3.0], [1.0, 2.0, 3.0])
    >>> win_tie_loss([better, same, better])
    (2, 1, 0)
    >>> win_tie_loss([better, same], lower_is_better=False)
    (0, 1, 1)
    """
    if test not in _TESTS:
        raise ValueError(f"test must be one of {_TESTS}; got {test!r}.")
    if test == "corrected" and test_train_ratio is None:
        raise ValueError('test="corrected" needs test_train_ratio (n_test / n_train).')
    wins = ties = losses = 0
    for a, b in pairs:
        if test == "t":
            result = paired_t_test(a, b, alpha=alpha)
        elif test == "corrected":
            assert test_train_ratio is not None
            result = corrected_paired_t_test(
                a, b, test_train_ratio=test_train_ratio, alpha=alpha
            )
        else:
            result = wilcoxon_test(a, b, alpha=alpha)
        outcome = result.outcome(lower_is_better)
        wins += outcome == 1
        ties += outcome == 0
        losses += outcome == -1
    return wins, ties, losses


def _as_matrix(means: ArrayLike) -> NDArray[np.float64]:
    """Validate a 2-D table of means (rows = datasets, columns = algorithms).

    Parameters
    ----------
    means : array-like of shape (n_rows, n_algorithms)
        Table of means.

    Returns
    -------
    ndarray of shape (n_rows, n_algorithms)
        The table as floats.
    """
    m = np.asarray(means, dtype=np.float64)
    if m.ndim != 2:
        raise ValueError(f"means must be 2-D (rows x algorithms); got shape {m.shape}.")
    return m


def best_mask(
    means: ArrayLike, *, lower_is_better: bool, rtol: float = 1e-9
) -> NDArray[np.bool_]:
    """Mark the best entry of each row, ties included.

    Parameters
    ----------
    means : array-like of shape (n_rows, n_algorithms)
        Mean result of each algorithm (column) on each dataset (row).
    lower_is_better : bool
        Whether the smallest (True) or the largest (False) value is best.
    rtol : float, default=1e-9
        Entries within ``np.isclose(x, best, rtol=rtol, atol=0)`` of the best
        value are all marked.

    Returns
    -------
    ndarray of bool of shape (n_rows, n_algorithms)
        True at the best entries. NaN is never best; an all-NaN row has no
        best entry.

    Examples
    --------
    >>> best_mask([[1.0, 2.0, 1.0], [np.nan, 3.0, 4.0]], lower_is_better=True)
    array([[ True, False,  True],
           [False,  True, False]])
    """
    m = _as_matrix(means)
    mask = np.zeros(m.shape, dtype=bool)
    for i, row in enumerate(m):
        finite = ~np.isnan(row)
        if not finite.any():
            continue
        best = np.min(row[finite]) if lower_is_better else np.max(row[finite])
        mask[i] = finite & np.isclose(row, best, rtol=rtol, atol=0.0)
    return mask


def mean_ranks(means: ArrayLike, *, lower_is_better: bool) -> NDArray[np.float64]:
    """Average the rank of each algorithm over the rows.

    Parameters
    ----------
    means : array-like of shape (n_rows, n_algorithms)
        Mean result of each algorithm (column) on each dataset (row).
    lower_is_better : bool
        Whether the smallest (True) or the largest (False) value ranks first.

    Returns
    -------
    ndarray of shape (n_algorithms,)
        Mean rank of each column; rank 1 is the best, tied entries share the
        average of their ranks (``scipy.stats.rankdata``, method "average").
        NaN ranks after every number (tied NaNs share their average rank).

    Examples
    --------
    >>> mean_ranks([[1.0, 2.0, 3.0], [2.0, 1.0, 2.0]], lower_is_better=True)
    array([1.75, 1.5 , 2.75])
    """
    m = _as_matrix(means)
    if m.shape[0] == 0:
        raise ValueError("mean_ranks needs at least one row.")
    keyed = m if lower_is_better else -m
    keyed = np.where(np.isnan(keyed), np.inf, keyed)
    ranks = stats.rankdata(keyed, method="average", axis=1)
    return np.asarray(ranks.mean(axis=0), dtype=np.float64)
