"""Binning: each feature to at most ``max_bins`` quantile bins, once per fit.

The histogram splitter sees a feature only through its bin codes (``uint8``), so a
forest bins its training data once and every tree reuses the codes. A feature with
at most ``max_bins`` distinct values gets one bin per value; otherwise the bin
edges are ``max_bins - 1`` quantiles of its distinct values... of its values
(duplicates removed), so every bin holds about the same number of samples.

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
    for f in range(d):
        column = X[:, f]
        distinct = np.unique(column)
        if distinct.size <= max_bins:
            edges = distinct[:-1]  # value v_b goes to bin b: x <= v_b
        else:
            quantiles = np.linspace(0.0, 1.0, max_bins + 1)[1:-1]
            edges = np.unique(np.quantile(column, quantiles, method="lower"))
            edges = edges[edges < distinct[-1]]  # the last bin is never empty
        code = np.searchsorted(edges, column, side="left")
        codes[:, f] = code
        n_bins[f] = edges.size + 1
        np.minimum.at(lower[f], code, column)
        np.maximum.at(upper[f], code, column)
    return Bins(codes=codes, n_bins=n_bins, lower=lower, upper=upper)
