"""Binning: each feature to at most ``max_bins`` quantile bins, once per fit.

The histogram splitter sees a feature only through its bin codes (``uint8``), so a
forest bins its training data once and every tree reuses the codes. A feature with
at most ``max_bins`` distinct values gets one bin per value; otherwise the bin
edges are the ``max_bins - 1`` quantiles ``i / max_bins`` of its values (the
``"lower"`` quantile: a training value; repeated edges merged), so every bin holds
about the same number of samples.

For each bin the binner keeps the smallest and largest training value it holds, so
a split between two non-empty bins is placed at the midpoint of the largest value
on the left and the smallest on the right, as the exact splitter places it. With
one bin per distinct value the two splitters therefore give the same thresholds.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]

__all__ = ["Bins", "bin_features", "midpoint"]


@njit(cache=True, nogil=True)
def midpoint(low: float, high: float) -> float:
    """Threshold between two consecutive values ``low < high``.

    ``low / 2 + high / 2`` (no overflow), or ``low`` when rounding lands on
    ``high`` (so ``x <= threshold`` still separates them), the convention of
    scikit-learn's trees.

    Parameters
    ----------
    low, high : float
        Consecutive distinct values.

    Returns
    -------
    float
    """
    value = low / 2.0 + high / 2.0
    if value >= high or not np.isfinite(value):
        value = low
    return value


@dataclass(frozen=True)
class Bins:
    """Binned training data.

    Attributes
    ----------
    codes : ndarray of shape (n_samples, n_features), dtype uint8
        Bin of each value.
    n_bins : ndarray of shape (n_features,)
        Number of bins of each feature.
    lower, upper : ndarray of shape (n_features, max_bins)
        Smallest and largest training value in each bin.
    """

    codes: NDArray[np.uint8]
    n_bins: NDArray[np.int64]
    lower: FloatArray
    upper: FloatArray


def bin_features(X: FloatArray, max_bins: int) -> Bins:
    """Bin every column of ``X`` into at most ``max_bins`` quantile bins.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Finite training samples.
    max_bins : int
        At most 255 (codes are ``uint8``), at least 2.

    Returns
    -------
    Bins
    """
    if not 2 <= max_bins <= 255:
        raise ValueError(f"max_bins must be in [2, 255], got {max_bins}.")
    n, d = X.shape
    codes = np.empty((n, d), dtype=np.uint8)
    n_bins = np.empty(d, dtype=np.int64)
    lower = np.full((d, max_bins), np.inf)
    upper = np.full((d, max_bins), -np.inf)
    quantiles = np.linspace(0.0, 1.0, max_bins + 1)[1:-1]
    for f in range(d):
        column = np.ascontiguousarray(X[:, f])
        ordered = np.sort(column)  # one sort gives the distinct values and quantiles
        new_value = np.empty(n, dtype=bool)
        new_value[:1] = True
        np.not_equal(ordered[1:], ordered[:-1], out=new_value[1:])
        distinct = ordered[new_value]
        if distinct.size <= max_bins:
            edges = distinct[:-1]  # value v_b goes to bin b: x <= v_b
        else:
            # np.quantile(column, quantiles, method="lower"), from the sorted values
            at = np.floor((n - 1) * quantiles).astype(np.intp)
            edges = np.unique(ordered[at])
            edges = edges[edges < distinct[-1]]  # the last bin is never empty
        n_bins[f] = edges.size + 1
        _assign_bins(column, edges, codes[:, f], lower[f], upper[f])
    return Bins(codes=codes, n_bins=n_bins, lower=lower, upper=upper)


@njit(cache=True, nogil=True)
def _assign_bins(
    column: FloatArray,
    edges: FloatArray,
    codes: NDArray[np.uint8],
    lower: FloatArray,
    upper: FloatArray,
) -> None:
    """Code each value by the number of edges below it; track each bin's range.

    ``codes[i]`` is the bin of ``column[i]``: the first ``b`` with ``column[i] <=
    edges[b]`` (``edges.size`` if none), as ``np.searchsorted(edges, column,
    side="left")``; ``lower`` and ``upper`` get each bin's smallest and largest
    value.
    """
    for i in range(column.shape[0]):
        value = column[i]
        lo, hi = 0, edges.shape[0]
        while lo < hi:  # binary search: edges[:lo] < value <= edges[hi:]
            mid = (lo + hi) >> 1
            if edges[mid] < value:
                lo = mid + 1
            else:
                hi = mid
        codes[i] = lo
        if value < lower[lo]:
            lower[lo] = value
        if value > upper[lo]:
            upper[lo] = value
