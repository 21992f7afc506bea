"""A node's summary: its weight, summed statistics, impurity, value and purity.

Made once per node from its rows ``idx[start:end]``: ``W = sum_n w_n``,
``S = sum_n w_n s_n`` (the products made once per tree, :func:`weighted_statistics`),
``I(W, S)``, the weighted mean of its value rows, and whether its label vectors
are all identical (:func:`identical_labels`, a reason to make it a leaf).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from costsense.tree._criteria import node_impurity

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

__all__ = ["identical_labels", "node_summary", "weighted_statistics"]


@njit(cache=True, nogil=True, inline="always")
def weighted_statistics(
    stats: FloatArray, weight: FloatArray
) -> tuple[FloatArray, float]:
    """Weight each row's statistics, once per tree."""
    n, m = stats.shape
    wstats = np.zeros((n, m))
    total_weight = 0.0
    for r in range(n):
        if weight[r] > 0.0:
            total_weight += weight[r]
            for k in range(m):
                wstats[r, k] = weight[r] * stats[r, k]
    return wstats, total_weight


@njit(cache=True, nogil=True, inline="always")
def node_summary(
    wstats: FloatArray,
    weight: FloatArray,
    values: FloatArray,
    idx: IntArray,
    start: int,
    end: int,
    code: int,
    n_labels: int,
    node_stats: FloatArray,
    value: FloatArray,
) -> tuple[float, float]:
    """Summarise the node of rows ``idx[start:end]``: weight, statistics, value."""
    m = node_stats.shape[0]
    q = value.shape[0]
    value[:] = 0.0
    node_stats[:] = 0.0
    w_node = 0.0
    for p in range(start, end):
        r = idx[p]
        w = weight[r]
        w_node += w
        for k in range(m):
            node_stats[k] += wstats[r, k]
        for k in range(q):
            value[k] += w * values[r, k]
    if w_node > 0.0:
        for k in range(q):
            value[k] /= w_node
    return w_node, node_impurity(code, w_node, node_stats, n_labels)


@njit(cache=True, nogil=True, inline="always")
def identical_labels(labels: FloatArray, idx: IntArray, start: int, end: int) -> bool:
    """Whether the rows ``idx[start:end]`` all have the same label vector.

    Purity is tested on the labels, not on the impurity: with the cost-sensitive
    Gini a node of identical non-one-hot labels has a positive impurity, and no
    split can separate identical labels usefully.
    """
    first = idx[start]
    for p in range(start + 1, end):
        r = idx[p]
        for k in range(labels.shape[1]):
            if labels[r, k] != labels[first, k]:
                return False
    return True
