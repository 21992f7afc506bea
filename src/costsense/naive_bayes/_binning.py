"""Bin edges of a continuous feature: weighted quantiles or Fayyad & Irani's MDL cuts.

The rules, and where a value on an edge goes, are stated in
:mod:`costsense.naive_bayes` (section *Binning*); keep the two in step.

References
----------
.. [1] U. M. Fayyad, K. B. Irani, "Multi-interval discretization of
   continuous-valued attributes for classification learning", Proceedings of the
   13th International Joint Conference on Artificial Intelligence (IJCAI), 1993.
"""

from __future__ import annotations

import heapq

import numpy as np
from numpy.typing import NDArray
from scipy.special import xlogy

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]

__all__: list[str] = []


def _weighted_count(index: IntArray, weight: FloatArray, size: int) -> FloatArray:
    """Total ``weight`` of each value ``0, ..., size - 1`` of ``index``."""
    return np.asarray(
        np.bincount(index, weights=weight, minlength=size), dtype=np.float64
    )


def _quantile_edges(values: FloatArray, weights: FloatArray, n_bins: int) -> FloatArray:
    """Weighted lower-quantile edges of one feature."""
    if values.size <= n_bins:
        return values[:-1].copy()
    cumulative = np.cumsum(weights)
    targets = cumulative[-1] * np.arange(1, n_bins) / n_bins
    index = np.unique(np.searchsorted(cumulative, targets, side="left"))
    return values[index[index < values.size - 1]]


def _entropy(counts: FloatArray) -> float:
    """Class entropy in bits of one vector of class weights."""
    p = counts[counts > 0] / counts.sum()
    return float(-(p * np.log2(p)).sum())


def _xlogx(x: FloatArray) -> FloatArray:
    """``x ln x`` elementwise, 0 at 0."""
    return np.asarray(xlogy(x, x))


def _best_cut(counts: FloatArray) -> tuple[int, float, bool]:
    """Fayyad & Irani's best cut of an interval, and whether MDL accepts it."""
    total = counts.sum(axis=1)
    n = float(total.sum())
    k = int(np.count_nonzero(total > 0))
    if k < 2 or n <= 1.0:  # a pure interval gains nothing; log2(N - 1) undefined
        return 0, 0.0, False
    left = np.cumsum(counts[:, :-1], axis=1)
    right = np.cumsum(counts[:, :0:-1], axis=1)[:, ::-1]  # summed, not subtracted
    # N_s Ent(S_s) = N_s ln N_s - sum_c N_sc ln N_sc (in nats), for both sides
    n_left, n_right = left.sum(axis=0), right.sum(axis=0)
    split = _xlogx(n_left) + _xlogx(n_right)
    for row in range(counts.shape[0]):
        split -= _xlogx(left[row]) + _xlogx(right[row])
    j = int(np.argmin(split))
    ent, ent_left, ent_right = (
        _entropy(total),
        _entropy(left[:, j]),
        _entropy(right[:, j]),
    )
    gain = ent - (float(n_left[j]) * ent_left + float(n_right[j]) * ent_right) / n
    k1 = int(np.count_nonzero(left[:, j] > 0))
    k2 = int(np.count_nonzero(right[:, j] > 0))
    delta = np.log2(3.0**k - 2.0) - (k * ent - k1 * ent_left - k2 * ent_right)
    accepted = gain > (np.log2(n - 1.0) + delta) / n
    return j, gain * n, bool(accepted)


def _mdl_edges(values: FloatArray, counts: FloatArray, n_bins: int) -> FloatArray:
    """Fayyad & Irani's MDL edges of one feature, at most ``n_bins`` bins.

    Only boundary points are tried: consecutive values that both hold one and the
    same class are merged into one block first, since the cut of least class
    entropy is never between them (Fayyad & Irani 1993, theorem 1).
    """
    present = counts > 0
    pure = present.sum(axis=1) == 1
    label = present.argmax(axis=1)
    inside = pure[:-1] & pure[1:] & (label[:-1] == label[1:])
    ends = np.append(np.flatnonzero(~inside), values.size - 1)
    starts = np.concatenate(([0], ends[:-1] + 1))
    blocks = np.ascontiguousarray(np.add.reduceat(counts, starts, axis=0).T)
    heap: list[tuple[float, int, int, int]] = []

    def consider(start: int, stop: int) -> None:
        if stop - start >= 2:
            j, score, accepted = _best_cut(blocks[:, start:stop])
            if accepted:
                heapq.heappush(heap, (-score, start, stop, start + j))

    cuts: list[int] = []
    consider(0, ends.size)
    while heap and len(cuts) + 1 < n_bins:
        _, start, stop, cut = heapq.heappop(heap)
        cuts.append(cut)
        consider(start, cut + 1)
        consider(cut + 1, stop)
    return values[ends[np.sort(np.asarray(cuts, dtype=np.intp))]]
