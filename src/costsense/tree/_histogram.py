"""Per-node histograms of the binned features, for the histogram split finder.

A node keeps, per feature and bin, the total weight, the weighted statistics of the
criterion and the row count. When most features are evaluated at each node, the
root's histograms are filled from its rows (:func:`node_histograms`) and at a split
only the smaller child's are filled, the larger child's being its parent's minus
them, in place (:func:`child_histograms`: LightGBM's and scikit-learn's
``HistGradientBoosting`` trick, here on a criterion's statistics). When few are (a
forest's ``sqrt(n_features)``), only the evaluated features' histograms are filled
(:func:`fill_feature_histogram`); the grower chooses per split by counting
operations (:func:`subtraction_pays`), and both give the same tree.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

__all__ = [
    "child_histograms",
    "fill_feature_histogram",
    "fill_histogram",
    "node_histograms",
    "subtraction_pays",
]


@njit(cache=True, nogil=True)
def fill_histogram(
    codes: NDArray[np.uint8],
    wstats: FloatArray,
    weight: FloatArray,
    idx: IntArray,
    start: int,
    end: int,
    hist: FloatArray,
    count: IntArray,
) -> None:
    """Add the rows ``idx[start:end]`` to every feature's histogram.

    ``hist[f, b]`` gains each row's weight (column 0) and weighted statistics
    ``wstats`` (columns 1 and on), ``count[f, b]`` its count.
    """
    d = codes.shape[1]
    m = wstats.shape[1]
    for p in range(start, end):
        r = idx[p]
        w = weight[r]
        for f in range(d):
            b = codes[r, f]
            count[f, b] += 1
            hist[f, b, 0] += w
            for k in range(m):
                hist[f, b, 1 + k] += wstats[r, k]


@njit(cache=True, nogil=True, inline="always")
def node_histograms(
    codes: NDArray[np.uint8],
    wstats: FloatArray,
    weight: FloatArray,
    idx: IntArray,
    start: int,
    end: int,
    n_bins_max: int,
) -> tuple[FloatArray, IntArray]:
    """Every feature's histogram of the rows ``idx[start:end]`` (the root's).

    Returns ``hist`` of shape ``(n_features, n_bins_max, 1 + m)`` (per bin the
    total weight, then the summed weighted statistics) and the row ``count``.
    """
    d = codes.shape[1]
    hist = np.zeros((d, n_bins_max, 1 + wstats.shape[1]))
    count = np.zeros((d, n_bins_max), dtype=np.int64)
    fill_histogram(codes, wstats, weight, idx, start, end, hist, count)
    return hist, count


@njit(cache=True, nogil=True, inline="always")
def child_histograms(
    codes: NDArray[np.uint8],
    wstats: FloatArray,
    weight: FloatArray,
    idx: IntArray,
    start: int,
    middle: int,
    end: int,
    hist: FloatArray,
    count: IntArray,
) -> tuple[FloatArray, IntArray, FloatArray, IntArray]:
    """Return both children's histograms: the smaller filled, the larger subtracted.

    The smaller child (the left one on a tie) gets its histograms filled from its
    rows; the larger child's are the parent's minus them, computed in place in the
    parent's memory (the parent's histograms are not read again). Returns the
    left and right children's histograms and counts.
    """
    small_hist = np.zeros(hist.shape)
    small_count = np.zeros(count.shape, dtype=np.int64)
    small_is_left = middle - start <= end - middle
    if small_is_left:
        fill_histogram(
            codes, wstats, weight, idx, start, middle, small_hist, small_count
        )
    else:
        fill_histogram(codes, wstats, weight, idx, middle, end, small_hist, small_count)
    hist -= small_hist
    count -= small_count
    if small_is_left:
        return small_hist, small_count, hist, count
    return hist, count, small_hist, small_count


@njit(cache=True, nogil=True)
def fill_feature_histogram(
    codes: NDArray[np.uint8],
    feature: int,
    wstats: FloatArray,
    weight: FloatArray,
    idx: IntArray,
    start: int,
    end: int,
    n_bins: int,
    hist: FloatArray,
    count: IntArray,
) -> None:
    """Fill one feature's histogram (its first ``n_bins`` bins) from scratch."""
    m = wstats.shape[1]
    hist[:n_bins] = 0.0
    count[:n_bins] = 0
    for p in range(start, end):
        r = idx[p]
        b = codes[r, feature]
        count[b] += 1
        hist[b, 0] += weight[r]
        for k in range(m):
            hist[b, 1 + k] += wstats[r, k]


@njit(cache=True, nogil=True)
def subtraction_pays(
    n_small: int, n_node: int, d: int, max_features: int, n_bins: int
) -> bool:
    """Whether all-feature histograms by subtraction cost less than per-feature ones.

    Subtraction fills the smaller child's histogram of every feature and subtracts
    it from the parent's (``n_small d + 2 d n_bins`` operations per statistic);
    per-feature histograms fill the evaluated features' histograms of both
    children from their rows (``n_node max_features + 2 max_features n_bins``).
    """
    subtract = n_small * d + 2 * d * n_bins
    per_feature = n_node * max_features + 2 * max_features * n_bins
    return subtract < per_feature
