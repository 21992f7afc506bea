"""Walking one fitted tree: each row's leaf, and a forest's out-of-bag sums.

The nodes are :class:`costsense.tree.Tree`'s arrays; a row goes left iff
``x[feature] <= threshold``. A forest predicts through
:mod:`costsense.tree._predictor` instead, which walks all its trees in one call.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
Int32Array = NDArray[np.int32]

__all__ = ["add_leaf_values", "apply", "apply_rows"]


@njit(cache=True, nogil=True)
def apply(
    X: FloatArray,
    feature: Int32Array,
    threshold: FloatArray,
    children_left: Int32Array,
    children_right: Int32Array,
) -> IntArray:
    """Leaf reached by each row of ``X`` (``x[feature] <= threshold`` goes left)."""
    n = X.shape[0]
    leaves = np.empty(n, dtype=np.int64)
    for i in range(n):
        node = 0
        while children_left[node] >= 0:
            if X[i, feature[node]] <= threshold[node]:
                node = children_left[node]
            else:
                node = children_right[node]
        leaves[i] = node
    return leaves


@njit(cache=True, nogil=True)
def apply_rows(
    X: FloatArray,
    rows: IntArray,
    feature: Int32Array,
    threshold: FloatArray,
    children_left: Int32Array,
    children_right: Int32Array,
) -> IntArray:
    """:func:`apply` for the rows ``X[rows]``, without copying them.

    A forest's out-of-bag rows are most rows when each tree draws few: copying
    them for every tree would cost more than walking the tree.
    """
    leaves = np.empty(rows.shape[0], dtype=np.int64)
    for j in range(rows.shape[0]):
        i = rows[j]
        node = 0
        while children_left[node] >= 0:
            if X[i, feature[node]] <= threshold[node]:
                node = children_left[node]
            else:
                node = children_right[node]
        leaves[j] = node
    return leaves


@njit(cache=True, nogil=True)
def add_leaf_values(
    total: FloatArray,
    counts: FloatArray,
    rows: IntArray,
    leaves: IntArray,
    value: FloatArray,
) -> None:
    """Add each row's leaf value to its running total, and count it.

    ``total[rows[j]] += value[leaves[j]]`` and ``counts[rows[j]] += 1`` for every
    ``j`` (``rows`` distinct): a forest's out-of-bag sums, one tree at a time,
    without the gathered copy and the scatter that the same NumPy expression
    makes of every tree's out-of-bag rows.
    """
    for j in range(rows.shape[0]):
        i = rows[j]
        counts[i] += 1.0
        for c in range(value.shape[1]):
            total[i, c] += value[leaves[j], c]
