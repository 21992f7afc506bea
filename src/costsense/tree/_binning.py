"""Binning: each feature to at most ``max_bins`` quantile bins, once per fit.

A feature with at most ``max_bins`` distinct values gets one bin per value;
otherwise the edges are its ``max_bins - 1`` lower quantiles ``i / max_bins``
(repeated edges merged). Each bin keeps the smallest and largest training value it
holds, so a split between two non-empty bins is placed at the midpoint of the
values on either side, as the exact splitter places it.
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
    lower, upper : ndarray of shape (n_features, min(n_samples, max_bins))
        Smallest and largest training value in each bin (entries past a
        feature's ``n_bins`` unused). With ``n_samples <= max_bins`` every bin
        holds one distinct value, so ``upper`` is ``lower`` (the same array: on
        wide data, few rows and many columns, these arrays are the binning's
        largest).
    """

    codes: NDArray[np.uint8]
    n_bins: NDArray[np.int64]
    lower: FloatArray
    upper: FloatArray


def bin_features(X: FloatArray, max_bins: int) -> Bins:
    """Bin every column of ``X`` into at most ``max_bins`` quantile bins.

    One compiled pass over the columns (:func:`_bin_columns`); memory: the
    ``uint8`` codes and the bins' value ranges, ``min(n_samples, max_bins)``
    entries per feature, no copy of ``X``.
    """
    if not 2 <= max_bins <= 255:
        raise ValueError(f"max_bins must be in [2, 255], got {max_bins}.")
    # one array layout for the compiled loop: numba compiles (and caches) a
    # version per layout, so a Fortran-ordered or read-only X (as pandas gives)
    # would otherwise cost a second compilation on first use
    X = np.require(X, dtype=np.float64, requirements=["C", "W"])
    n, d = X.shape
    width = max(1, min(n, max_bins))
    codes = np.empty((n, d), dtype=np.uint8)
    n_bins = np.empty(d, dtype=np.int64)
    lower = np.full((d, width), np.inf)
    # more rows than bins: a bin may hold several values, and needs its largest
    upper = np.full((d, width), -np.inf) if n > max_bins else lower
    quantiles = np.linspace(0.0, 1.0, max_bins + 1)[1:-1]
    # np.quantile(column, quantiles, method="lower") of the sorted column
    at = np.floor((n - 1) * quantiles).astype(np.intp)
    _bin_columns(X, max_bins, at, codes, n_bins, lower, upper, upper is not lower)
    return Bins(codes=codes, n_bins=n_bins, lower=lower, upper=upper)


#: Columns of at most this many rows are sorted by insertion, in the loop: a call
#: to numba's sort per column would take most of the time on wide data.
_INSERTION_SORT_ROWS = 16


@njit(cache=True, nogil=True)
def _bin_columns(
    X: FloatArray,
    max_bins: int,
    at: NDArray[np.intp],
    codes: NDArray[np.uint8],
    n_bins: NDArray[np.int64],
    lower: FloatArray,
    upper: FloatArray,
    track_upper: bool,
) -> None:
    """Bin each column: its edges, then its codes and its bins' ranges, in place.

    A column with at most ``max_bins`` distinct values gets one bin per value
    (edges: the distinct values but the largest, ``x <= v_b`` is bin ``b``);
    otherwise the edges are its sorted values at the positions ``at`` (the
    ``"lower"`` quantiles), repeated ones merged, those equal to the largest
    value dropped (the last bin is never empty).
    """
    n, d = X.shape
    column = np.empty(n)
    ordered = np.empty(n)
    edges = np.empty(max(max_bins, 1))
    for f in range(d):
        for i in range(n):
            column[i] = X[i, f]
        if n <= _INSERTION_SORT_ROWS:  # few rows (wide data): no call per column
            for i in range(n):
                value, j = column[i], i
                while j > 0 and ordered[j - 1] > value:
                    ordered[j] = ordered[j - 1]
                    j -= 1
                ordered[j] = value
        else:
            ordered[:] = column
            ordered.sort()
        n_distinct = 1 if n > 0 else 0
        for i in range(1, n):
            if ordered[i] != ordered[i - 1]:
                n_distinct += 1
        n_edges = 0
        if n_distinct <= max_bins:
            for i in range(1, n):  # value v_b goes to bin b: x <= v_b
                if ordered[i] != ordered[i - 1]:
                    edges[n_edges] = ordered[i - 1]
                    n_edges += 1
        else:
            largest = ordered[n - 1]
            for j in range(at.shape[0]):
                value = ordered[at[j]]
                if value < largest and (n_edges == 0 or value != edges[n_edges - 1]):
                    edges[n_edges] = value
                    n_edges += 1
        n_bins[f] = n_edges + 1
        # each value's code is the number of edges below it: the first b with
        # x <= edges[b] (n_edges if none), np.searchsorted(edges, x, "left");
        # each bin's smallest and largest value (the smallest only, without
        # track_upper: upper is lower then, each bin holding one value)
        for i in range(n):
            value = column[i]
            lo, hi = 0, n_edges
            while lo < hi:  # binary search: edges[:lo] < value <= edges[hi:]
                mid = (lo + hi) >> 1
                if edges[mid] < value:
                    lo = mid + 1
                else:
                    hi = mid
            codes[i, f] = lo
            if value < lower[f, lo]:
                lower[f, lo] = value
            if track_upper and value > upper[f, lo]:
                upper[f, lo] = value
